//! The batched Gymnasium environment on the kernel (`alhambra.env.vector_env`): many games,
//! each with one learner seat and its opponents (random or greedy players) inside the kernel.
//! One call steps the whole batch with the GIL released: per game, the learner's integer is
//! taken by the codec's `Decision`, a complete code is played, the opponents play until the
//! learner decides again or the game ends, and the observation, mask, reward and end flags
//! are written into the caller's numpy buffers, the observation updated in place (only what
//! changed since the game's last step: `kernel::observe::Written`). No allocation per step
//! once buffers have grown.

use crate::env::KernelEnv;
use crate::{config_error, KernelGame};
use crate::{generator, guard, Player, SeatSpec};
use kernel::codec::{Choice, Decision, Slots};
use kernel::game::{Action, Game};
use kernel::greedy::{self, Memo, Weights};
use kernel::observe::Written;
use pyo3::buffer::{Element, PyBuffer};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The most games one batch holds (what `alhambra.env.vector_env` accepts).
const MAX_GAMES: usize = 1 << 20;

/// One game of the batch.
struct Slot {
    g: Box<Game>,
    /// the learner's seat
    seat: u8,
    /// per seat: its player (`None` for the learner's seat)
    players: Vec<Option<Player>>,
    dec: Decision,
    legal: Vec<Action>,
    memo: Memo,
    /// the learner's steps in this episode
    steps: u64,
    /// set up by `set_game`, not yet started: the next step starts it (the action ignored)
    fresh: bool,
    /// what the observation buffer holds of this game (its rows rewritten only where changed)
    written: Written,
}

/// A batch of games of one rule set, each with one learner seat.
#[pyclass(module = "alhambra_kernel")]
pub struct BatchEnv {
    env: KernelEnv,
    slots: Vec<Option<Slot>>,
    /// steps after which an episode is truncated (0: never)
    max_steps: u64,
    /// the reward of an illegal integer (`None`: `step` refuses a batch with one)
    illegal_reward: Option<f64>,
    scratch: Box<Slots>,
    /// the observation buffer of the last step (another one is written whole)
    last_obs: usize,
}

/// The writable, C-contiguous buffer `out` of `n` items as a slice (held by `buf`; the memory
/// is the Python object's, not `buf`'s, hence a mutable slice from a shared reference).
#[allow(clippy::mut_from_ref)]
fn slice_of<'a, T: Element>(buf: &'a PyBuffer<T>, n: usize, what: &str) -> PyResult<&'a mut [T]> {
    if buf.readonly() || buf.item_count() != n {
        return Err(PyValueError::new_err(format!("{what}: a writable buffer of {n} items is needed")));
    }
    let Some(ptr) = buf.as_slice_ptr() else {
        return Err(PyValueError::new_err(format!("{what}: a C-contiguous buffer is needed")));
    };
    // SAFETY: writable, C-contiguous, `n` items of `T` (checked above); `buf` holds the
    // buffer (kept alive and in place) for the slice's lifetime; the caller's arrays are
    // distinct (the Python wrapper owns them).
    Ok(unsafe { &mut *ptr.as_ptr() })
}

impl Slot {
    /// Let the opponents play until the learner decides or the game ends; then load the
    /// learner's decision.
    fn opponents_play(&mut self, env: &KernelEnv) {
        let g = &mut *self.g;
        while let Some(p) = g.current_player() {
            if p == self.seat {
                g.legal(&mut self.legal);
                self.dec.load(&env.tables().codec, g, &self.legal);
                return;
            }
            g.legal(&mut self.legal);
            let k = match self.players[p as usize].as_mut() {
                Some(Player::Random(rng)) => rng.below(self.legal.len() as u32) as usize,
                Some(Player::Greedy(w, noise, rng)) => greedy::choose(g, w, *noise, rng, &self.legal, &mut self.memo),
                None => unreachable!("the learner's seat has no player"),
            };
            g.apply_legal(self.legal[k]);
        }
    }
}

/// The caller's output buffers of one call, as slices.
struct Out<'a> {
    obs: &'a mut [f32],
    mask: &'a mut [i8],
    reward: &'a mut [f64],
    term: &'a mut [u8],
    trunc: &'a mut [u8],
    illegal: &'a mut [u8],
}

#[pymethods]
impl BatchEnv {
    /// `num_envs` games of the rule set of `env` (a `KernelEnv`: its codec and observer);
    /// `max_steps`: the learner's steps after which an episode is truncated (`None`: never);
    /// `illegal_reward`: the reward of an illegal integer (`None`: `step` reports it instead).
    #[new]
    #[pyo3(signature = (env, num_envs, max_steps=None, illegal_reward=None))]
    fn new(
        env: PyRef<'_, KernelEnv>,
        num_envs: usize,
        max_steps: Option<u64>,
        illegal_reward: Option<f64>,
    ) -> PyResult<Self> {
        if !(1..=MAX_GAMES).contains(&num_envs) {
            return Err(PyValueError::new_err(format!("a batch holds 1 to {MAX_GAMES} games, not {num_envs}")));
        }
        Ok(BatchEnv {
            env: env.fork_env(),
            slots: (0..num_envs).map(|_| None).collect(),
            max_steps: max_steps.unwrap_or(0),
            illegal_reward,
            scratch: Box::default(),
            last_obs: 0,
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// Set up game `k` of the batch: a copy of `game` (a new game), the learner in `seat`, the
    /// players `seats` (one per seat, `None` for the learner's: a random bot's generator, or
    /// `(weights, noise, generator)` of a greedy bot, as `KernelGame.play_bots` takes them).
    /// The next `step` starts it (its action for game `k` is ignored).
    fn set_game(
        &mut self,
        py: Python<'_>,
        k: usize,
        game: PyRef<'_, KernelGame>,
        seat: u8,
        seats: Vec<Option<SeatSpec>>,
    ) -> PyResult<()> {
        if k >= self.slots.len() {
            return Err(PyValueError::new_err(format!("no game {k} in a batch of {}", self.slots.len())));
        }
        let n = game.g.n as usize;
        if seats.len() != n || seat as usize >= n || seats[seat as usize].is_some() {
            return Err(config_error(py, format!("one player per seat but the learner's ({n} seats)")));
        }
        if n != self.env.tables().players {
            return Err(config_error(py, format!("a game of {n} players in a batch of another rule set")));
        }
        let mut players = Vec::with_capacity(n);
        for (s, spec) in seats.iter().enumerate() {
            players.push(match spec {
                None if s == seat as usize => None,
                None => return Err(config_error(py, format!("no player for seat {s}"))),
                Some(SeatSpec::Random(gen)) => Some(Player::Random(generator(py, gen)?)),
                Some(SeatSpec::Greedy((weights, noise, gen))) => {
                    let w =
                        Weights::from_slice(weights).map_err(|why| config_error(py, format!("greedy bot: {why}")))?;
                    if !noise.is_finite() {
                        return Err(config_error(py, format!("greedy bot: the noise must be finite, not {noise}")));
                    }
                    Some(Player::Greedy(w, *noise, generator(py, gen)?))
                }
            });
        }
        let old = self.slots[k].take();
        let (dec, legal, memo, mut written) = match old {
            Some(s) => (s.dec, s.legal, s.memo, s.written),
            None => (Decision::default(), Vec::with_capacity(256), Memo::default(), Written::default()),
        };
        written.forget();
        self.slots[k] =
            Some(Slot { g: game.g.clone(), seat, players, dec, legal, memo, steps: 0, fresh: true, written });
        Ok(())
    }

    /// Step every game: `actions` (`int64`, one per game) the learner's integers; a game set
    /// up since the last step starts instead (its action ignored, reward 0). Writes each
    /// game's observation (`float32`, games x observation size), mask (`int8`, games x
    /// actions, all 0 unless the learner decides), reward (`float64`), terminated, truncated
    /// and illegal flags (`uint8`). With `illegal_reward=None`, a batch holding an illegal
    /// integer changes nothing and `(game, integer)` of the first is returned; else `None`.
    /// The observations are updated in place: each game's row is rewritten only where its
    /// game changed since the last step wrote it, so `obs` must be the buffer of the last step,
    /// unchanged since (another buffer is written whole; after writing into it, call `rewrite`).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: &Bound<'_, PyAny>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        reward: &Bound<'_, PyAny>,
        terminated: &Bound<'_, PyAny>,
        truncated: &Bound<'_, PyAny>,
        illegal: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(usize, i64)>> {
        let n = self.slots.len();
        let (size, na) = (self.env.tables().obs.size, self.env.tables().codec.num_actions);
        let abuf = PyBuffer::<i64>::get(actions)?;
        if abuf.item_count() != n || !abuf.is_c_contiguous() {
            return Err(PyValueError::new_err(format!("actions: a contiguous int64 buffer of {n} items is needed")));
        }
        let acts: Vec<i64> = abuf.to_vec(py)?;
        let (b_obs, b_mask) = (PyBuffer::<f32>::get(obs)?, PyBuffer::<i8>::get(mask)?);
        let b_rew = PyBuffer::<f64>::get(reward)?;
        let (b_term, b_trunc, b_ill) =
            (PyBuffer::<u8>::get(terminated)?, PyBuffer::<u8>::get(truncated)?, PyBuffer::<u8>::get(illegal)?);
        let out = Out {
            obs: slice_of(&b_obs, n * size, "obs")?,
            mask: slice_of(&b_mask, n * na, "mask")?,
            reward: slice_of(&b_rew, n, "reward")?,
            term: slice_of(&b_term, n, "terminated")?,
            trunc: slice_of(&b_trunc, n, "truncated")?,
            illegal: slice_of(&b_ill, n, "illegal")?,
        };
        for (k, s) in self.slots.iter().enumerate() {
            match s {
                None => return Err(PyValueError::new_err(format!("game {k} is not set up: call reset()"))),
                Some(s) if !s.fresh && (s.g.is_over() || (self.max_steps > 0 && s.steps >= self.max_steps)) => {
                    return Err(PyValueError::new_err(format!("game {k}'s episode is over: it must be reset")))
                }
                _ => {}
            }
        }
        if self.illegal_reward.is_none() {
            for (k, s) in self.slots.iter().enumerate() {
                let s = s.as_ref().expect("checked");
                if !s.fresh && !legal_now(&s.dec, acts[k], na) {
                    return Ok(Some((k, acts[k])));
                }
            }
        }
        let at = out.obs.as_ptr() as usize;
        if at != self.last_obs {
            self.rewrite();
            self.last_obs = at;
        }
        let done = guard(py, || {
            py.detach(|| self.step_all(&acts, out));
            Ok(None)
        });
        if done.is_err() {
            self.rewrite(); // a step cut short leaves rows half written
        }
        done
    }

    /// Forget what the observation buffer holds: the next step writes every game's row whole.
    fn rewrite(&mut self) {
        for s in self.slots.iter_mut().flatten() {
            s.written.forget();
        }
    }
}

/// Whether integer `i` is legal in the decision `dec`.
fn legal_now(dec: &Decision, i: i64, na: usize) -> bool {
    if i < 0 || i as usize >= na {
        return false;
    }
    let mut ok = false;
    dec.each_next(|j| ok |= j as i64 == i);
    ok
}

impl BatchEnv {
    fn step_all(&mut self, acts: &[i64], out: Out<'_>) {
        let env = &self.env;
        let t = env.tables();
        let (size, na) = (t.obs.size, t.codec.num_actions);
        let penalty = self.illegal_reward.unwrap_or(0.0);
        for (k, slot) in self.slots.iter_mut().enumerate() {
            let s = slot.as_mut().expect("checked");
            let (mut r, mut ill, mut term, mut trunc) = (0.0, false, false, false);
            // whether the game changed (else only the integers chosen may have)
            let mut changed = true;
            if s.fresh {
                s.fresh = false;
                s.steps = 0;
                s.opponents_play(env);
            } else {
                let i = acts[k];
                let choice = if i < 0 || i as usize >= na { Choice::Illegal } else { s.dec.choose(i as u16) };
                match choice {
                    Choice::Illegal => {
                        ill = true;
                        r = penalty;
                        changed = false;
                    }
                    Choice::More => changed = false,
                    Choice::Done(a) => {
                        s.g.apply_legal(s.legal[a]);
                        s.opponents_play(env);
                    }
                }
                s.steps += 1;
                term = s.g.is_over();
                if term {
                    let w = s.g.winners();
                    if w.contains(&s.seat) {
                        r += 1.0 / w.len() as f64;
                    }
                }
                trunc = !term && self.max_steps > 0 && s.steps >= self.max_steps;
            }
            out.reward[k] = r;
            out.term[k] = term as u8;
            out.trunc[k] = trunc as u8;
            out.illegal[k] = ill as u8;
            let o = &mut out.obs[k * size..(k + 1) * size];
            let m = &mut out.mask[k * na..(k + 1) * na];
            let current = s.g.current_player() == Some(s.seat);
            let prefix: &[u16] = if current { s.dec.prefix() } else { &[] };
            if changed || !t.obs.update_prefix(s.seat as usize, prefix, o, &mut s.written) {
                t.obs.update(&s.g, s.seat as usize, prefix, o, &mut self.scratch, &mut s.written);
            }
            if current {
                s.dec.mask(m);
            } else {
                m.fill(0);
            }
        }
    }
}
