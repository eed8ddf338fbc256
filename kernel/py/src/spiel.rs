//! The OpenSpiel game on the kernel (`alhambra.env.openspiel` with a kernel game): whether an
//! action draws from a hidden pile (an action that does not is played at once, with no chance
//! node), and the observation and information-state tensors written straight into the
//! observer's `float32` buffer.
//!
//! The tensor is the environments' observation vector (`kernel::observe`, the `decision` slice
//! counting the integers chosen so far for the seat choosing them), then the integers of an
//! action waiting for its draws counted in `decision`, then the `drawn` slice (the chance
//! outcome ids drawn for it so far, counted), then with `hands` the `known_hands` slice: every
//! seat's hand (relative seats, cards in the observation's card order).

use crate::env::{with_buffer, KernelEnv};
use crate::{guard, KernelGame};
use kernel::Game;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Whether going from `before` to `after` (one action) drew from a hidden pile: the bag
/// (market refills, Dirk's buildings), the money deck (the display's refill, a reshuffle of
/// the discard pile into it) or a building huts' stack (the next hut turned up). Each changes
/// only by a draw.
fn drew(before: &Game, after: &Game) -> bool {
    before.bag != after.bag || before.deck != after.deck || before.huts.stacks != after.huts.stacks
}

/// Whether the legal action at `index` of `game`'s list draws from a hidden pile (played on a
/// copy; `game` is not changed). `ValueError` for an index that is no legal action.
#[pyfunction]
pub(crate) fn spiel_draws(py: Python<'_>, mut game: PyRefMut<'_, KernelGame>, index: usize) -> PyResult<bool> {
    guard(py, || {
        game.ensure_legal();
        let Some(&a) = game.legal.get(index) else {
            return Err(PyValueError::new_err(format!("no legal action {index}")));
        };
        let mut after: Box<Game> = game.g.clone();
        after.apply_legal(a);
        Ok(drew(&game.g, &after))
    })
}

/// Write `seat`'s OpenSpiel tensor of `game` into `out` (a writable `float32` buffer of the
/// observation's size, plus `outcomes` for `drawn`, plus with `hands` players x cards):
/// `loaded`: the session's decision is `env`'s and loaded from `game` (its integers chosen so
/// far are then counted for the seat deciding now); `pending`: the integers of the action
/// waiting for its draws; `drawn`: the outcome ids drawn for it so far. `ValueError` (nothing
/// meaningful written) for a seat, an integer or an outcome id out of range, or a buffer of
/// another size.
#[pyfunction]
#[pyo3(signature = (env, game, seat, out, loaded, pending, drawn, outcomes, hands))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn spiel_tensor(
    py: Python<'_>,
    mut env: PyRefMut<'_, KernelEnv>,
    game: PyRef<'_, KernelGame>,
    seat: usize,
    out: &Bound<'_, PyAny>,
    loaded: bool,
    pending: Vec<usize>,
    drawn: Vec<usize>,
    outcomes: usize,
    hands: bool,
) -> PyResult<()> {
    let g: &Game = &game.g;
    let n = g.n as usize;
    if seat >= n {
        return Err(PyValueError::new_err(format!("no seat {seat}")));
    }
    let (size, actions, cards) = {
        let t = env.tables();
        (t.obs.size, t.codec.num_actions, t.obs.cards())
    };
    if let Some(&i) = pending.iter().find(|&&i| i >= actions) {
        return Err(PyValueError::new_err(format!("no action integer {i}")));
    }
    if let Some(&d) = drawn.iter().find(|&&d| d >= outcomes) {
        return Err(PyValueError::new_err(format!("no chance outcome {d}")));
    }
    let total = size + outcomes + if hands { n * cards } else { 0 };
    guard(py, || {
        with_buffer::<f32, ()>(out, total, |o| {
            let prefix = loaded && g.current_player() == Some(seat as u8);
            env.write_obs(g, seat, &mut o[..size], prefix);
            o[size..].fill(0.0);
            let decision = size - actions;
            for &i in &pending {
                o[decision + i] += 1.0;
            }
            for &d in &drawn {
                o[size + d] += 1.0;
            }
            if hands {
                let t = env.tables();
                let known = size + outcomes;
                for p in 0..n {
                    let row = known + (p + n - seat) % n * cards;
                    t.obs.count(o, row, g.players[p].hand.as_slice());
                }
            }
        })
    })
}
