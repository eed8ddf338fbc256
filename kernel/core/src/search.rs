//! Playouts for search bots: perfect-information Monte Carlo (PIMC) over determinized worlds,
//! the engine of the Python `alhambra.bots.pimc.PIMCBot`.
//!
//! The caller samples the worlds: copies of the game in which everything the searching seat
//! cannot see (the order of the money deck and of the bag, the other hands, face-down module
//! pieces) is drawn anew as the seat could believe it (`Game.determinize`). In each world every
//! candidate action of the seat is played, then every seat plays as the greedy bot
//! ([`greedy::choose`]) until the seat begins its `horizon`-th next turn (or to the end of the
//! game, horizon 0). The reward of a playout is the seat's, in [0, 1]: at the end of the game
//! half the share of the victory (R-END-4) and half the squashed score margin over the best
//! other seat; before it the squashed margin of the seat's heuristic value
//! ([`greedy::seat_value`]) over the mean of the other seats'. World `k` is the same world for
//! every candidate, and its playouts draw the greedy noise from the same generator (common
//! random numbers), so the candidates are compared on the same samples.

use crate::game::{Action, Game, Phase};
use crate::greedy::{self, Memo, Weights};
use crate::rng::Mt;

/// How a playout is played and scored.
#[derive(Clone, Copy, Debug)]
pub struct Playouts {
    /// the greedy players' weights (every seat's, the searching seat's included)
    pub weights: Weights,
    /// the greedy players' jitter, points (0: deterministic playouts)
    pub noise: f64,
    /// the searching seat's turns to look ahead; 0: play to the end of the game
    pub horizon: u32,
    /// points of margin that move the reward from 0.5 to 0.73
    pub scale: f64,
    /// at most this many actions per playout (then scored as it stands)
    pub max_actions: u32,
}

/// The buffers playouts reuse (no allocation per playout once they have grown).
#[derive(Default)]
pub struct Buffers {
    legal: Vec<Action>,
    scratch: Vec<Action>,
    memo: Memo,
}

fn squash(margin: f64, scale: f64) -> f64 {
    let x = margin / scale;
    if x > 40.0 {
        1.0
    } else if x < -40.0 {
        0.0
    } else {
        1.0 / (1.0 + (-x).exp())
    }
}

/// The searching seat's reward in `g` (see the module's documentation).
pub fn reward(g: &Game, seat: usize, spec: &Playouts, memo: &mut Memo) -> f64 {
    let n = g.n as usize;
    if g.is_over() {
        let mine = g.players[seat].score;
        let best = (0..n).filter(|&s| s != seat).map(|s| g.players[s].score).max().unwrap_or(mine);
        return 0.5 * g.returns()[seat] + 0.5 * squash((mine - best) as f64, spec.scale);
    }
    let mut mine = 0.0;
    let mut others = 0.0;
    for s in 0..n {
        let v = greedy::seat_value(g, s, &spec.weights, memo);
        if s == seat {
            mine = v;
        } else {
            others += v;
        }
    }
    squash(mine - others / (n - 1) as f64, spec.scale)
}

/// One playout: `first` played in a copy of `world`, then greedy play to the horizon; the
/// searching seat's reward, or `None` when `first` is not legal in `world`.
pub fn playout(
    world: &Game,
    first: Action,
    seat: usize,
    spec: &Playouts,
    rng: &mut Mt,
    buf: &mut Buffers,
) -> Option<f64> {
    let mut g = *world;
    g.apply(first, &mut buf.scratch).ok()?;
    let mut last_turn = world.turn;
    let mut seen = 0;
    let mut steps = 0;
    while let Some(d) = g.current_player() {
        if spec.horizon > 0 && g.phase == Phase::Turn && d as usize == seat && g.turn != last_turn {
            seen += 1;
            last_turn = g.turn;
            if seen >= spec.horizon {
                break;
            }
        }
        if steps >= spec.max_actions {
            break;
        }
        g.legal(&mut buf.legal);
        let k = greedy::choose(&g, &spec.weights, spec.noise, rng, &buf.legal, &mut buf.memo);
        g.apply_legal(buf.legal[k]);
        steps += 1;
    }
    Some(reward(&g, seat, spec, &mut buf.memo))
}

/// The rewards of every candidate in every world: `out[k * candidates.len() + c]` is candidate
/// `c` played in world `k` (NaN where it is not legal there), the greedy noise of world `k`
/// drawn from a generator seeded with `seed + k`.
pub fn rewards(
    worlds: &[Game],
    candidates: &[Action],
    seat: usize,
    spec: &Playouts,
    seed: u64,
    buf: &mut Buffers,
    out: &mut Vec<f64>,
) {
    out.clear();
    for (k, world) in worlds.iter().enumerate() {
        for &a in candidates {
            let mut rng = Mt::from_seed(seed.wrapping_add(k as u64));
            out.push(playout(world, a, seat, spec, &mut rng, buf).unwrap_or(f64::NAN));
        }
    }
}
