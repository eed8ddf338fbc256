//! Search bots' playouts (`kernel::search`): the rewards of candidate actions in determinized
//! worlds, computed with the GIL released.

use crate::{config_error, guard, KernelGame};
use kernel::game::{Action, Game};
use kernel::greedy::Weights;
use kernel::search::{self, Buffers, Playouts};
use pyo3::prelude::*;

/// The rewards of the actions `codes` of seat `seat` in each game of `worlds` (determinized
/// copies of one game, all with `seat` to decide): a list of `len(worlds) * len(codes)` floats,
/// world by world, NaN where an action is not legal in a world. The playouts: every seat plays
/// as the greedy bot with `weights` (the 21 weights in field order) and `noise` until `seat`
/// begins its `horizon`-th next turn (0: to the end of the game), at most `max_actions`
/// actions; world `k` draws its noise from a generator seeded with `seed + k`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn pimc_rewards(
    py: Python<'_>,
    worlds: Vec<PyRef<'_, KernelGame>>,
    codes: Vec<u64>,
    seat: usize,
    weights: Vec<f64>,
    noise: f64,
    horizon: u32,
    scale: f64,
    seed: u64,
    max_actions: u32,
) -> PyResult<Vec<f64>> {
    let w = Weights::from_slice(&weights).map_err(|why| config_error(py, format!("search: {why}")))?;
    if !noise.is_finite() || !scale.is_finite() || scale <= 0.0 {
        return Err(config_error(py, format!("search: noise finite and scale positive, not {noise} and {scale}")));
    }
    let mut games: Vec<Game> = Vec::with_capacity(worlds.len());
    for world in &worlds {
        if world.g.current_player() != Some(seat as u8) {
            return Err(config_error(py, format!("search: seat {seat} is not to decide in every world")));
        }
        games.push(*world.g);
    }
    drop(worlds);
    let mut candidates = Vec::with_capacity(codes.len());
    for &c in &codes {
        match Action::from_code(c) {
            Some(a) => candidates.push(a),
            None => return Err(config_error(py, format!("search: {c} is no action's code"))),
        }
    }
    let spec = Playouts { weights: w, noise, horizon, scale, max_actions };
    guard(py, || {
        Ok(py.detach(|| {
            let mut out = Vec::with_capacity(games.len() * candidates.len());
            search::rewards(&games, &candidates, seat, &spec, seed, &mut Buffers::default(), &mut out);
            out
        }))
    })
}
