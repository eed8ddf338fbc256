//! The environments on the kernel (`alhambra.env` with a kernel game): the integer action codec
//! (`kernel::codec`) and the observation vector (`kernel::observe`) of one session, over a
//! `KernelGame`. Masks and observations are written into caller-provided writable buffers
//! (numpy arrays: `int8` masks, `float32` observations) through the buffer protocol.

use crate::KernelGame;
use kernel::codec::{Choice, Codec, Decision, Slots};
use kernel::data::card_of_code;
use kernel::game::{Action, KERNEL_MODULES};
use kernel::observe::Observer;
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

pub(crate) struct Tables {
    pub(crate) codec: Codec,
    pub(crate) obs: Observer,
    /// the number of seats
    pub(crate) players: usize,
}

/// The action codec and observer of one rule set, and one session's current decision.
#[pyclass(module = "alhambra_kernel")]
pub struct KernelEnv {
    t: Arc<Tables>,
    dec: Decision,
    /// the legal actions of the decision, in the kernel's order
    legal: Vec<Action>,
    ints: Vec<u16>,
    slots: Box<Slots>,
}

/// The writable, C-contiguous buffer of `n` items of `out`, as a mutable slice, given to `f`.
pub(crate) fn with_buffer<T: Element + Copy, R>(
    out: &Bound<'_, PyAny>,
    n: usize,
    f: impl FnOnce(&mut [T]) -> R,
) -> PyResult<R> {
    let buf = PyBuffer::<T>::get(out)?;
    if buf.readonly() || buf.item_count() != n {
        return Err(PyValueError::new_err(format!("a writable buffer of {n} items is needed")));
    }
    let Some(ptr) = buf.as_slice_ptr() else {
        return Err(PyValueError::new_err("a C-contiguous buffer is needed"));
    };
    // SAFETY: the buffer is writable, C-contiguous, of `n` items of `T` (checked above), and
    // held (so kept alive and in place) while `f` writes it; the GIL is held throughout.
    let slice = unsafe { &mut *ptr.as_ptr() };
    Ok(f(slice))
}

#[pymethods]
impl KernelEnv {
    /// The layout of `players` seats with the modules `mods` (kernel bits) whose cards (the rule
    /// set's cards without the scoring cards, in its order) have the codes `cards`.
    #[new]
    fn new(players: usize, mods: u8, cards: Vec<String>) -> PyResult<Self> {
        if !(2..=6).contains(&players) || mods & !KERNEL_MODULES != 0 {
            return Err(PyValueError::new_err("2-6 players and the kernel's modules"));
        }
        let cards: Vec<u8> = cards
            .iter()
            .map(|c| card_of_code(c).ok_or_else(|| PyValueError::new_err(format!("no card {c:?}"))))
            .collect::<PyResult<_>>()?;
        let codec = Codec::new(mods, &cards);
        let obs = Observer::new(players, mods, &cards, codec.slots, codec.num_actions);
        Ok(Self::of(Arc::new(Tables { codec, obs, players })))
    }

    /// A fresh one for another session of the same rule set (the tables shared).
    fn fork(&self) -> KernelEnv {
        Self::of(self.t.clone())
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.t.codec.num_actions
    }

    #[getter]
    fn observation_size(&self) -> usize {
        self.t.obs.size
    }

    /// The segments as `(name, first integer, size)` (Python's `ActionCodec.layout()`).
    fn layout(&self) -> Vec<(&'static str, usize, usize)> {
        self.t.codec.segments.clone()
    }

    /// The observation's slices as `(name, start, stop)`.
    fn slices(&self) -> Vec<(String, usize, usize)> {
        self.t.obs.slices.clone()
    }

    /// Make the decision that of `game`'s current state (nothing chosen yet).
    fn load(&mut self, mut game: PyRefMut<'_, KernelGame>) -> PyResult<()> {
        game.ensure_legal();
        self.legal.clear();
        self.legal.extend_from_slice(&game.legal);
        if !self.dec.load(&self.t.codec, &game.g, &self.legal) {
            return Err(PyValueError::new_err("a legal action outside the action space"));
        }
        Ok(())
    }

    /// The integers chosen so far.
    fn prefix(&self) -> Vec<u16> {
        self.dec.prefix().to_vec()
    }

    /// The integers legal now, ascending.
    fn legal_ints(&mut self) -> Vec<u16> {
        self.dec.legal_ints(&mut self.ints);
        self.ints.clone()
    }

    /// Write the mask of the integers legal now into `out` (an `int8` buffer of `num_actions`).
    fn mask_into(&self, out: &Bound<'_, PyAny>) -> PyResult<()> {
        with_buffer::<i8, ()>(out, self.t.codec.num_actions, |m| self.dec.mask(m))
    }

    /// Take integer `i`: `None` while the action is incomplete, `(index, code)` of the legal
    /// action (index in the kernel's list, the kernel's code) once complete; `ValueError` (and
    /// nothing changes) for an integer not legal now.
    fn choose(&mut self, i: i64) -> PyResult<Option<(usize, u64)>> {
        if i < 0 || i as usize >= self.t.codec.num_actions {
            return Err(PyValueError::new_err("out of range"));
        }
        match self.dec.choose(i as u16) {
            Choice::Illegal => Err(PyValueError::new_err("not legal now")),
            Choice::More => Ok(None),
            Choice::Done(k) => Ok(Some((k, self.legal[k].code()))),
        }
    }

    /// Start the action again.
    fn clear_prefix(&mut self) {
        self.dec.clear_prefix();
    }

    /// The code of the kernel action `code` in the loaded state, or `None`.
    fn encode(&self, code: u64) -> Option<Vec<u16>> {
        let a = Action::from_code(code)?;
        let mut out = Vec::new();
        self.t.codec.encode(&a, self.dec.slots(), &mut out).then_some(out)
    }

    /// Write `seat`'s observation of `game` into `out` (a `float32` buffer of
    /// `observation_size`); with `prefix`, the integers chosen so far are counted in the
    /// `decision` slice.
    #[pyo3(signature = (game, seat, out, prefix=false))]
    fn observe_into(
        &mut self,
        game: PyRef<'_, KernelGame>,
        seat: usize,
        out: &Bound<'_, PyAny>,
        prefix: bool,
    ) -> PyResult<()> {
        if seat >= game.g.n as usize {
            return Err(PyValueError::new_err(format!("no seat {seat}")));
        }
        let size = self.t.obs.size;
        with_buffer::<f32, ()>(out, size, |o| self.write_obs(&game.g, seat, o, prefix))
    }

    /// What an agent sees (the PettingZoo environment's `observe`): `seat`'s observation into
    /// `obs` and, with `current` (the seat decides now and the decision is loaded), the mask of
    /// the integers legal now into `mask` (else all zero), the integers chosen so far counted.
    fn observe_agent(
        &mut self,
        game: PyRef<'_, KernelGame>,
        seat: usize,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        current: bool,
    ) -> PyResult<()> {
        if seat >= game.g.n as usize {
            return Err(PyValueError::new_err(format!("no seat {seat}")));
        }
        let size = self.t.obs.size;
        with_buffer::<f32, ()>(obs, size, |o| self.write_obs(&game.g, seat, o, current))?;
        with_buffer::<i8, ()>(mask, self.t.codec.num_actions, |m| if current { self.dec.mask(m) } else { m.fill(0) })
    }
}

impl KernelEnv {
    /// The rule set's codec and observer.
    pub(crate) fn tables(&self) -> &Tables {
        &self.t
    }

    /// A fresh one of the same rule set (the tables shared).
    pub(crate) fn fork_env(&self) -> KernelEnv {
        Self::of(self.t.clone())
    }

    pub(crate) fn write_obs(&mut self, g: &kernel::Game, seat: usize, o: &mut [f32], prefix: bool) {
        let t = &self.t;
        t.obs.write(g, seat, o, &mut self.slots);
        if prefix {
            let base = t.obs.size - t.codec.num_actions;
            for &i in self.dec.prefix() {
                o[base + i as usize] += 1.0;
            }
        }
    }

    fn of(t: Arc<Tables>) -> KernelEnv {
        KernelEnv {
            t,
            dec: Decision::default(),
            legal: Vec::with_capacity(256),
            ints: Vec::new(),
            slots: Box::default(),
        }
    }
}
