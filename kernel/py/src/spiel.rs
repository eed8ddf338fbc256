//! The OpenSpiel game on the kernel (`alhambra.env.openspiel` with a kernel game): an action
//! played with its draws decided by the chance outcomes chosen so far, or the next chance
//! event it meets (`kernel::draws`), and the observation and information-state tensors written
//! straight into the observer's `float32` buffer.
//!
//! The tensor is the environments' observation vector (`kernel::observe`, the `decision` slice
//! counting the integers chosen so far for the seat choosing them), then the integers of an
//! action waiting for its draws counted in `decision`, then the `drawn` slice (the chance
//! outcome ids drawn for it so far, counted), then with `hands` the `known_hands` slice: every
//! seat's hand (relative seats, cards in the observation's card order).

use crate::env::{with_buffer, KernelEnv};
use crate::{any_tile, card, guard, tile, tile_data, KernelGame};
use kernel::data::card_code;
use kernel::draws::{play_scripted, BAG, DECK, HUTS};
use kernel::Game;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An item of `source` as Python names it: a building's number, a card's code, a hut's id.
fn item_data<'py>(py: Python<'py>, source: u8, item: u8, huts: &[String]) -> PyResult<Bound<'py, PyAny>> {
    match source {
        BAG => Ok(item.into_pyobject(py)?.into_any()),
        DECK => Ok(card_code(item).into_pyobject(py)?.into_any()),
        _ => tile_data(py, item, huts),
    }
}

/// The kernel's item of `source` named as [`item_data`] names it; `ValueError` for anything
/// else.
fn item_of(source: u8, v: &Bound<'_, PyAny>, huts: &[String]) -> PyResult<u8> {
    let found = match source {
        BAG => v.extract::<i64>().and_then(tile),
        DECK => v.extract::<String>().and_then(|c| card(&c)),
        s if (HUTS..HUTS + 6).contains(&s) => any_tile(v, Some(huts)),
        s => return Err(PyValueError::new_err(format!("no hidden pile {s}"))),
    };
    found.map_err(|e| PyValueError::new_err(format!("no item {v} of hidden pile {source}: {e}")))
}

/// The draw met by an action: its source, `(item, probability)` per outcome, and the outcomes
/// fixed before it (forced draws included) as `(source, item)`.
type Draw<'py> = (u8, Vec<(Bound<'py, PyAny>, f64)>, Vec<(u8, Bound<'py, PyAny>)>);

/// Play the legal action at `index` of `game`'s list with its draws decided by `outcomes`
/// (`(source, item)` in the order the draws happen: source 0 the bag, 1 the deck, `2 + t` the
/// building huts' stack of type `t`; items named as the save names them: a building's number,
/// a card's code, a hut's id). Returns `None` once every draw is decided (`game` has played
/// the action), else the next draw with more than one possible outcome as `(source,
/// [(item, probability), ...], outcomes fixed so far)` (`game` unchanged). `ValueError`
/// (`game` unchanged) for an index that is no legal action or an outcome that does not fit.
#[pyfunction]
pub(crate) fn spiel_next_draw<'py>(
    py: Python<'py>,
    mut game: PyRefMut<'_, KernelGame>,
    index: usize,
    outcomes: Vec<(u8, Bound<'py, PyAny>)>,
) -> PyResult<Option<Draw<'py>>> {
    let outcomes: Vec<(u8, u8)> =
        outcomes.iter().map(|(s, v)| Ok((*s, item_of(*s, v, &game.hut_names)?))).collect::<PyResult<_>>()?;
    let (after, script) = guard(py, || {
        game.ensure_legal();
        let Some(&a) = game.legal.get(index) else {
            return Err(PyValueError::new_err(format!("no legal action {index}")));
        };
        let mut after: Box<Game> = game.g.clone();
        let script = play_scripted(&mut after, a, outcomes);
        Ok((after, script))
    })?;
    if let Some(e) = script.error {
        return Err(PyValueError::new_err(e));
    }
    let huts = &game.hut_names;
    match script.chance {
        None => {
            game.g = after;
            game.listed = false;
            Ok(None)
        }
        Some((source, dist)) => {
            let dist = dist
                .into_iter()
                .map(|(x, p)| Ok((item_data(py, source, x, huts)?, p)))
                .collect::<PyResult<Vec<_>>>()?;
            let fixed = script
                .outcomes
                .into_iter()
                .map(|(s, x)| Ok((s, item_data(py, s, x, huts)?)))
                .collect::<PyResult<Vec<_>>>()?;
            Ok(Some((source, dist, fixed)))
        }
    }
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
