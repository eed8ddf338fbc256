//! The greedy bot (the Python `alhambra.bots.greedy.GreedyBot`): one ply, the legal action
//! whose heuristic value is highest, ties to the first listed, with an optional jitter from the
//! bot's own generator. The values are `alhambra.bots.evaluate.Evaluator.action_values`,
//! reproduced operation for operation (the same float operations in the same order, and the
//! same per-decision caches where a cached value is computed another way than a fresh one), so
//! that the kernel's greedy bot chooses exactly as the Python one on the same game.
//!
//! The evaluator reads only what the deciding seat may know: every Alhambra, the market, the
//! bag's size, Dirk's buildings (R-TWO-3), the scorings so far, revealed bonus cards and the
//! seat's own hand and bonus cards (R-BON-3). The scoring table it values is the base game's
//! (R-SCORE-2 … R-SCORE-5: no module the kernel plays adjusts a scoring).
//!
//! The actions of the vizier, the exchange offices, the diamonds, the bonus cards and the
//! building huts have their own values here (TakeOffice R-EXC-3, UseVizier R-VIZ-2,
//! DeclineVizier, ReactivateVizier R-VIZ-4, BuyWithDiamonds R-DIA-4, RevealBonus R-BON-3,
//! TakeHut R-HUT-2); the huts' part of the counts and placements is in `greedy_huts.rs`. The
//! city gates' actions are valued as the Python evaluator values a module's action it has no
//! model of: played on a copy, with a look one free step ahead (`greedy_gates.rs`).

#[path = "greedy_gates.rs"]
mod gates;
#[path = "greedy_huts.rs"]
mod huts;

use crate::city::{Cell, City, STEPS};
use crate::data::*;
use crate::game::{Action, Game, Phase, BONUS, BUILDING_HUTS, DIAMONDS, GATES, MAX_PLAYERS, OFFICES, VIZIER};
use crate::huts::{HUT_FIRST, HUT_TILES};
use crate::rng::Mt;
use crate::stack::Stack;

/// The modules (bits of `Game::mods`) whose games this evaluation values exactly as the Python
/// evaluator does; a game with another module is valued by the Python evaluator.
pub const GREEDY_MODULES: u8 = VIZIER | BUILDING_HUTS | BONUS | OFFICES | GATES | DIAMONDS;

/// The number of weights (the fields of the Python `Weights`, in their order).
pub const WEIGHT_COUNT: usize = 21;

/// The names of the weights, in the order [`Weights::from_slice`] reads them.
pub const WEIGHT_NAMES: [&str; WEIGHT_COUNT] = [
    "coin_start",
    "coin_end",
    "afford_exact",
    "afford_pay",
    "afford_part",
    "extra_action",
    "extra_coins",
    "reserve_share",
    "reserve_penalty",
    "per_building",
    "later_scoring",
    "smooth",
    "compact",
    "vizier",
    "office",
    "closed",
    "money_cap",
    "redesign",
    "end_push",
    "held_card",
    "held_card_early",
];

/// The knobs of the heuristic (points per unit), as the Python `Weights` (same defaults).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub coin_start: f64,
    pub coin_end: f64,
    pub afford_exact: f64,
    pub afford_pay: f64,
    pub afford_part: f64,
    pub extra_action: f64,
    pub extra_coins: f64,
    pub reserve_share: f64,
    pub reserve_penalty: f64,
    pub per_building: f64,
    pub later_scoring: f64,
    pub smooth: f64,
    pub compact: f64,
    pub vizier: f64,
    pub office: f64,
    pub closed: f64,
    pub money_cap: f64,
    pub redesign: f64,
    pub end_push: f64,
    pub held_card: f64,
    pub held_card_early: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights::from_slice(&[
            0.8, 0.12, 0.45, 0.3, 0.25, 1.0, 5.0, 0.35, 1.0, 0.3, 0.85, 0.25, 0.15, 2.0, 1.5, 12.0, 40.0, 0.4, 2.0,
            0.2, 3.0,
        ])
        .expect("the default weights")
    }
}

impl Weights {
    /// The weights of `v` (in [`WEIGHT_NAMES`] order), or why not: 21 finite numbers.
    pub fn from_slice(v: &[f64]) -> Result<Weights, String> {
        if v.len() != WEIGHT_COUNT {
            return Err(format!("{WEIGHT_COUNT} weights ({}), not {}", WEIGHT_NAMES.join(", "), v.len()));
        }
        if let Some(k) = v.iter().position(|x| !x.is_finite()) {
            return Err(format!("weight {} must be a finite number, not {}", WEIGHT_NAMES[k], v[k]));
        }
        Ok(Weights {
            coin_start: v[0],
            coin_end: v[1],
            afford_exact: v[2],
            afford_pay: v[3],
            afford_part: v[4],
            extra_action: v[5],
            extra_coins: v[6],
            reserve_share: v[7],
            reserve_penalty: v[8],
            per_building: v[9],
            later_scoring: v[10],
            smooth: v[11],
            compact: v[12],
            vizier: v[13],
            office: v[14],
            closed: v[15],
            money_cap: v[16],
            redesign: v[17],
            end_push: v[18],
            held_card: v[19],
            held_card_early: v[20],
        })
    }
}

/// Tile ids the evaluation keeps a value for: the fountain, the buildings, the huts.
const TILE_SLOTS: usize = HUT_FIRST as usize + HUT_TILES;

/// Penalty shares for an Alhambra with 0 … 4 open sides (`_CLOSED`).
const CLOSED: [f64; 5] = [1.0, 0.6, 0.3, 0.12, 0.04];

/// Buffers a greedy player reuses from one decision to the next (no allocation per decision
/// once they have grown).
#[derive(Default)]
pub struct Memo {
    /// `(tile, cell, gain)` of the placements valued in this decision
    place: Vec<(u8, Cell, f64)>,
    cells: Vec<Cell>,
    values: Vec<f64>,
}

/// Tiles on the four cells next to `c` (`neighbours`).
fn neighbours(city: &City, c: Cell) -> i32 {
    STEPS.iter().filter(|&&(d, _, _)| city.tile_at((c as i32 + d) as Cell).is_some()).count() as i32
}

/// A hand as the evaluation reads it (`purse_of`): per currency (the four, then diamonds,
/// R-DIA-1) the count of each value, the exchange offices in hand order, the total value.
#[derive(Clone, Copy, Default)]
struct Purse {
    counts: [[u8; 9]; 5],
    offices: Stack<u8, 6>,
    total: u32,
}

impl Purse {
    fn add(&mut self, c: u8) {
        if is_money(c) {
            self.counts[currency(c) as usize][value(c) as usize - 1] += 1;
            self.total += value(c) as u32;
        } else if is_diamond(c) {
            self.counts[4][value(c) as usize - 1] += 1;
            self.total += value(c) as u32;
        } else if is_office(c) {
            self.offices.push(c);
        }
    }

    fn remove(&mut self, c: u8) {
        if is_money(c) {
            self.counts[currency(c) as usize][value(c) as usize - 1] -= 1;
            self.total -= value(c) as u32;
        } else if is_diamond(c) {
            self.counts[4][value(c) as usize - 1] -= 1;
            self.total -= value(c) as u32;
        } else if is_office(c) {
            if let Some(k) = self.offices.iter().position(|&o| o == c) {
                self.offices.remove(k);
            }
        }
    }

    fn of(cards: &[u8]) -> Purse {
        let mut p = Purse::default();
        for &c in cards {
            p.add(c);
        }
        p
    }

    fn sum(&self, cur: usize) -> u32 {
        self.counts[cur].iter().enumerate().map(|(v, &k)| (v as u32 + 1) * k as u32).sum()
    }

    /// Subset sums of the cards of `cur` (bit s: some cards sum to s; sums past 127 dropped,
    /// which no lower bit depends on).
    fn reach(&self, cur: usize, mut r: u128) -> u128 {
        for (v, &k) in self.counts[cur].iter().enumerate() {
            for _ in 0..k {
                r |= r << (v + 1);
            }
        }
        r
    }

    /// `afford_purse`: 2 if `price` can be paid exactly in `cur` (or through an office showing
    /// it, R-EXC-4, or in diamonds, R-DIA-4), 1 if at all, 0 otherwise.
    fn afford(&self, cur: usize, price: u32) -> u8 {
        let mut best = 0;
        let mut group = |sum: u32, reach: u128| {
            if sum >= price {
                if price < 128 && reach >> price & 1 == 1 {
                    best = 2;
                } else if best == 0 {
                    best = 1;
                }
            }
        };
        group(self.sum(cur), self.reach(cur, 1));
        for &o in self.offices.iter() {
            let (a, b) = office_pair(o);
            if a as usize == cur || b as usize == cur {
                let (a, b) = (a as usize, b as usize);
                group(self.sum(a) + self.sum(b), self.reach(b, self.reach(a, 1)));
            }
        }
        if self.counts[4].iter().any(|&k| k > 0) {
            group(self.sum(4), self.reach(4, 1));
        }
        best
    }
}

/// Majority points of a participant with `mine` buildings against `others`, in the scoring
/// `number` (1-3) of `type` (R-SCORE-2 … R-SCORE-4: tied participants share the places' points,
/// rounded down); `_points`, with the base scoring table as the rows the Python evaluator
/// probes.
fn points(t: usize, number: usize, mine: i32, others: &[u8]) -> f64 {
    if mine <= 0 {
        return 0.0;
    }
    let (mut higher, mut tied) = (0usize, 0usize);
    for &o in others {
        let o = o as i32;
        if o > mine {
            higher += 1;
        } else if o == mine {
            tied += 1;
        }
    }
    let row = SCORING[t][number - 1];
    let m = others.len() + 1;
    if higher >= m {
        return 0.0;
    }
    tied += 1;
    let sum: i32 = (higher..(higher + tied).min(m)).map(|p| row.get(p).copied().unwrap_or(0)).sum();
    (sum / tied as i32) as f64
}

/// One decision's evaluator (`Evaluator`) for the seat to decide now.
struct Eval<'a> {
    g: &'a Game,
    seat: usize,
    w: &'a Weights,
    /// the scorings still to come (their numbers) and their weights
    scorings: Stack<(usize, f64), 3>,
    wall_weight: f64,
    type_worth: [f64; TYPES],
    progress_left: f64,
    coin: f64,
    counts: [[u8; TYPES]; MAX_PLAYERS],
    dirk_counts: Option<[u8; TYPES]>,
    /// `_shapes[seat]`
    shape_me: f64,
    /// tiles whose `place_values` were worked out (bit per tile)
    placed: u128,
    /// `tile_value` per tile and `dirk_ok`
    tiles: [[Option<f64>; 2]; TILE_SLOTS],
    /// the building huts play (`hut_plugin`): huts count at scorings (R-HUT-5)
    /// the building huts play (`hut_plugin`): huts count at scorings (R-HUT-5)
    huts: bool,
    wanted: Option<Stack<(u8, usize, u32, f64), 4>>,
    memo: &'a mut Memo,
}

impl<'a> Eval<'a> {
    fn new(g: &'a Game, seat: usize, w: &'a Weights, memo: &'a mut Memo) -> Eval<'a> {
        let mut scorings = Stack::new();
        for k in 1..=3u8 {
            if !g.scorings.iter().any(|r| r.number == k) {
                let wk = if scorings.is_empty() { 1.0 } else { w.later_scoring };
                scorings.push((k as usize, wk));
            }
        }
        // R-SCORE-5: one point per unit of the longest outer wall, in every scoring
        let mut wall_weight = 0.0;
        for &(_, wk) in scorings.iter() {
            wall_weight += wk * 1.0;
        }
        let mut type_worth = [0.0; TYPES];
        for t in 0..TYPES {
            type_worth[t] = SCORING[t][2][0] as f64;
        }
        let start = if g.has_dirk() { 44.0 } else { 50.0 };
        let mut frac = (g.bag.len() as f64 / start).clamp(0.0, 1.0); // never NaN
        if matches!(g.phase, Phase::Over | Phase::Distribution) {
            frac = 0.0;
        }
        let coin = w.coin_end + (w.coin_start - w.coin_end) * frac;
        let n = g.n as usize;
        let mut counts = [[0u8; TYPES]; MAX_PLAYERS];
        for s in 0..n {
            counts[s] = Self::city_counts_of(g, seat, s, &g.players[s].city);
        }
        let dirk_counts = if g.has_dirk() {
            let mut out = [0u8; TYPES];
            for &t in g.dirk.iter() {
                if (1..=54).contains(&t) {
                    out[TILE_TYPE[t as usize] as usize] += 1;
                }
            }
            Some(out)
        } else {
            None
        };
        memo.place.clear();
        let mut e = Eval {
            g,
            seat,
            w,
            scorings,
            wall_weight,
            type_worth,
            progress_left: frac,
            coin,
            counts,
            dirk_counts,
            shape_me: 0.0,
            placed: 0,
            tiles: [[None; 2]; TILE_SLOTS],
            huts: g.mods & BUILDING_HUTS != 0,
            wanted: None,
            memo,
        };
        let mut city = g.players[seat].city;
        e.shape_me = e.shape_value(city.longest_outer_wall(), city.open_sides());
        e
    }

    /// Buildings per type `city` scores for `seat`: its huts' (R-HUT-5) and the bonus cards
    /// `viewer` knows of (R-BON-3: revealed ones, and the viewer's own hidden ones) whose
    /// building stands there.
    fn city_counts_of(g: &Game, viewer: usize, seat: usize, city: &City) -> [u8; TYPES] {
        let mut counts = city.type_counts();
        if g.mods & BUILDING_HUTS != 0 {
            huts::add_hut_counts(g, city, &mut counts);
        }
        let mut cards = g.bonus.revealed[seat];
        if seat == viewer {
            cards |= g.bonus.hands[seat];
        }
        for (k, &b) in BONUS_CARDS.iter().enumerate() {
            if cards >> k & 1 == 1 && city.has_tile(b) {
                counts[TILE_TYPE[b as usize] as usize] += 1;
            }
        }
        counts
    }

    fn others(&self, seat: usize, t: usize, dirk_extra: u8) -> Stack<u8, 7> {
        let mut out = Stack::new();
        for s in 0..self.g.n as usize {
            if s != seat {
                out.push(self.counts[s][t]);
            }
        }
        if let Some(d) = self.dirk_counts {
            out.push(d[t] + dirk_extra);
        }
        out
    }

    /// `type_value`: projected majority points over the scorings to come.
    fn type_value(&self, t: usize, mine: i32, others: &[u8]) -> f64 {
        let w = self.w;
        let s = w.smooth;
        let mut v = 0.0;
        for &(k, wk) in self.scorings.iter() {
            let mut p = points(t, k, mine, others);
            if s != 0.0 {
                p = (1.0 - 2.0 * s) * p + s * (points(t, k, mine - 1, others) + points(t, k, mine + 1, others));
            }
            v += wk * p;
        }
        v += w.per_building * mine as f64 * self.type_worth[t] / 8.0;
        v
    }

    fn majority_value(&self, seat: usize, counts: &[u8; TYPES]) -> f64 {
        let mut v = 0.0;
        for t in 0..TYPES {
            v += self.type_value(t, counts[t] as i32, self.others(seat, t, 0).as_slice());
        }
        v
    }

    fn type_gain(&self, seat: usize, t: usize, k: i32) -> f64 {
        let mine = self.counts[seat][t] as i32;
        let o = self.others(seat, t, 0);
        self.type_value(t, mine + k, o.as_slice()) - self.type_value(t, mine, o.as_slice())
    }

    /// `shape_value`: walls once per scoring to come (R-SCORE-5), less a penalty for an
    /// Alhambra with few open sides left.
    fn shape_value(&self, wall: i32, opens: i32) -> f64 {
        let mut v = self.wall_weight * wall as f64;
        if (opens as usize) < CLOSED.len() {
            v -= self.w.closed * CLOSED[opens as usize] * self.progress_left;
        }
        v
    }

    /// The cells where `tile` may be built in the seat's Alhambra (R-PLACE-2 … R-PLACE-6),
    /// in `memo.cells`.
    fn cells_for(&mut self, tile: u8) -> City {
        let mut city = self.g.players[self.seat].city;
        let cells = &mut self.memo.cells;
        cells.clear();
        city.place_cells(city.walls(tile), &mut |c| cells.push(c));
        city
    }

    /// (longest outer wall, open sides, neighbours) after building `tile` at `c`.
    fn after_place(city: &City, tile: u8, c: Cell) -> (i32, i32, i32) {
        let mut c2 = city.sketch();
        c2.place(tile, c);
        (c2.longest_outer_wall(), c2.open_sides(), neighbours(city, c))
    }

    fn building_gain(&self, tile: u8) -> f64 {
        if (1..=54).contains(&tile) {
            self.type_gain(self.seat, TILE_TYPE[tile as usize] as usize, 1)
        } else {
            0.0
        }
    }

    /// `place_values`: the gain of building `tile` at each legal cell (worked out once). With
    /// the building huts, the majority gain of each cell counts the buildings the huts next to
    /// it add (R-HUT-5, [`huts::hut_extra`]).
    fn place_values(&mut self, tile: u8) {
        if self.placed >> tile & 1 == 1 {
            return;
        }
        self.placed |= 1 << tile;
        let city = self.cells_for(tile);
        let gain = self.building_gain(tile);
        let base = self.shape_me;
        let compact = self.w.compact;
        for k in 0..self.memo.cells.len() {
            let c = self.memo.cells[k];
            let (wl, opens, nb) = Self::after_place(&city, tile, c);
            let gain = if self.huts { self.hut_gain(&city, tile, c) } else { gain };
            let v = gain + self.shape_value(wl, opens) - base + compact * nb as f64;
            self.memo.place.push((tile, c, v));
        }
    }

    fn place_value(&mut self, tile: u8, c: Cell) -> Option<f64> {
        self.place_values(tile);
        self.memo.place.iter().find(|&&(t, q, _)| t == tile && q == c).map(|&(_, _, v)| v)
    }

    /// `best_place`: the best gain of building `tile` now (None: nowhere). Worked out from the
    /// placements' values once those are known, else by its own formula (as the Python one).
    fn best_place(&mut self, tile: u8) -> Option<f64> {
        if self.huts {
            self.place_values(tile); // the Python evaluator's hut branch: the placements' best
        }
        if self.placed >> tile & 1 == 1 {
            let mut best: Option<f64> = None;
            for &(t, _, v) in self.memo.place.iter() {
                if t == tile && best.is_none_or(|b| v > b) {
                    best = Some(v);
                }
            }
            return best;
        }
        let city = self.cells_for(tile);
        if self.memo.cells.is_empty() {
            return None;
        }
        let gain = self.building_gain(tile);
        let ww = self.wall_weight;
        let pen = self.w.closed * self.progress_left;
        let compact = self.w.compact;
        let mut best = f64::NEG_INFINITY;
        for k in 0..self.memo.cells.len() {
            let (wl, opens, nb) = Self::after_place(&city, tile, self.memo.cells[k]);
            let mut v = ww * wl as f64 + compact * nb as f64;
            if opens < 5 {
                v -= pen * CLOSED[opens as usize];
            }
            if v > best {
                best = v;
            }
        }
        Some(gain + best - self.shape_me)
    }

    fn reserve_value(&self, tile: u8) -> f64 {
        let base =
            if (1..=54).contains(&tile) { self.type_worth[TILE_TYPE[tile as usize] as usize] / 8.0 } else { 0.5 };
        self.w.reserve_share * base - self.w.reserve_penalty
    }

    /// `dirk_value` (R-TWO-3): the seat's majority change of giving `tile` to Dirk minus half
    /// of the best opponent's.
    fn dirk_value(&self, tile: u8) -> f64 {
        if self.dirk_counts.is_none() || !(1..=54).contains(&tile) {
            return -1.0;
        }
        let t = TILE_TYPE[tile as usize] as usize;
        let delta = |s: usize| {
            let mine = self.counts[s][t] as i32;
            self.type_value(t, mine, self.others(s, t, 1).as_slice())
                - self.type_value(t, mine, self.others(s, t, 0).as_slice())
        };
        let mut opp: Option<f64> = None;
        for s in 0..self.g.n as usize {
            if s != self.seat {
                let d = delta(s);
                if opp.is_none_or(|o| d > o) {
                    opp = Some(d);
                }
            }
        }
        delta(self.seat) - 0.5 * opp.unwrap_or(0.0)
    }

    /// `tile_value`: the best of building `tile`, reserving it and (`dirk_ok`) giving it to
    /// Dirk (worked out once per decision).
    fn tile_value(&mut self, tile: u8, dirk_ok: bool) -> f64 {
        if let Some(v) = self.tiles[tile as usize][dirk_ok as usize] {
            return v;
        }
        let best = self.best_place(tile);
        let mut v = self.reserve_value(tile);
        if let Some(b) = best {
            if b > v {
                v = b;
            }
        }
        if dirk_ok && self.dirk_counts.is_some() {
            let d = self.dirk_value(tile);
            if d > v {
                v = d;
            }
        }
        self.tiles[tile as usize][dirk_ok as usize] = Some(v);
        v
    }

    /// `wanted`: (space, currency, price, value) of the market buildings worth having.
    fn wanted(&mut self) -> Stack<(u8, usize, u32, f64), 4> {
        if let Some(w) = self.wanted {
            return w;
        }
        let mut out = Stack::new();
        for i in 0..4 {
            let tile = self.g.market[i];
            if tile == 0 {
                continue;
            }
            let v = self.tile_value(tile, false);
            if v > 0.0 {
                out.push((i as u8 + 1, i, self.g.price(i) as u32, v));
            }
        }
        self.wanted = Some(out);
        out
    }

    /// `money_value`: coins, offices, and how well `purse` pays for the wanted market
    /// buildings (except the spaces of `gone`, a bit per space 1-4).
    fn money_value(&mut self, purse: &Purse, gone: u8) -> f64 {
        let w = *self.w;
        let mut total = purse.total as f64;
        if total > w.money_cap {
            total = w.money_cap + 0.4 * (total - w.money_cap);
        }
        let mut v = self.coin * total + w.office * purse.offices.len() as f64 * (0.3 + 0.7 * self.progress_left);
        if self.progress_left <= 0.0 {
            return v;
        }
        let mut parts: Stack<f64, 4> = Stack::new();
        for &(space, cur, price, val) in self.wanted().iter() {
            if gone >> space & 1 == 1 {
                continue;
            }
            let p = match purse.afford(cur, price) {
                2 => val * w.afford_exact,
                1 => val * w.afford_pay,
                _ => {
                    let share = if price != 0 { f64::min(1.0, purse.sum(cur) as f64 / price as f64) } else { 1.0 };
                    val * w.afford_part * share * share
                }
            };
            parts.push(p);
        }
        parts.as_mut_slice().sort_by(|a, b| b.partial_cmp(a).unwrap_or(std::cmp::Ordering::Equal));
        for (share, &p) in [1.0, 0.5, 0.25, 0.12].iter().zip(parts.iter()) {
            v += share * p;
        }
        v
    }

    /// `city_value` of `city` as the seat's Alhambra (a placement the listing did not value).
    fn city_value(&self, city: &City) -> f64 {
        let counts = Self::city_counts_of(self.g, self.seat, self.seat, city);
        let mut c = *city;
        self.majority_value(self.seat, &counts) + self.shape_value(c.longest_outer_wall(), c.open_sides())
    }

    /// `redesign_value` (R-TURN-5): removing the tile at `c` into the reserve, or swapping
    /// `new` from the reserve in.
    fn redesign_value(&self, c: Cell, new: Option<u8>) -> f64 {
        let city = &self.g.players[self.seat].city;
        let old = city.tile_at(c).expect("a tile stands there");
        let mut c2 = city.sketch();
        match new {
            None => {
                c2.remove(c);
            }
            Some(t) => {
                c2.swap(t, c);
            }
        }
        let mut v =
            self.shape_value(c2.longest_outer_wall(), c2.open_sides()) - self.shape_me + self.reserve_value(old);
        let mut deltas: Stack<(usize, i32), 2> = Stack::new();
        if let Some((t, k)) = self.count_of(city, old, c) {
            deltas.push((t, -k));
        }
        if let Some(t) = new {
            v -= self.reserve_value(t);
            if (1..=54).contains(&t) {
                let tt = TILE_TYPE[t as usize] as usize;
                match deltas.iter().position(|&(x, _)| x == tt) {
                    Some(k) => deltas.as_mut_slice()[k].1 += 1,
                    None => deltas.push((tt, 1)),
                }
            }
        }
        for &(t, k) in deltas.iter() {
            if k != 0 {
                v += self.type_gain(self.seat, t, k);
            }
        }
        v
    }

    /// `action_values`: the gain of each action of `legal` (into `out`); the city gates'
    /// actions with a look one free step ahead when `lookahead` ([`Eval::step_value`]).
    fn action_values(&mut self, legal: &[Action], out: &mut Vec<f64>, lookahead: bool) {
        out.clear();
        let g = self.g;
        let w = *self.w;
        let seat = self.seat;
        let hand = Purse::of(g.players[seat].hand.as_slice());
        let mut gone0 = 0u8;
        for i in 0..4 {
            if g.market[i] == 0 {
                gone0 |= 1 << (i + 1);
            }
        }
        let mut money_now: Option<f64> = None;
        let extra = w.extra_action + w.extra_coins * self.coin;
        let mut city_now: Option<f64> = None;
        for a in legal {
            let v = match *a {
                Action::Take { cards, n } => {
                    let now = self.money_now(&hand, gone0, &mut money_now);
                    let mut p = hand;
                    for &c in &cards[..n as usize] {
                        p.add(c);
                    }
                    self.money_value(&p, gone0) - now
                }
                Action::TakeOffice { card } => {
                    let now = self.money_now(&hand, gone0, &mut money_now);
                    let mut p = hand;
                    p.add(card);
                    self.money_value(&p, gone0) - now
                }
                Action::Buy(pay) | Action::UseVizier(pay) => {
                    let mut cards: Stack<u8, 64> = Stack::new();
                    pay.cards(&mut cards);
                    let via = if pay.via != 0 { Some(pay.via) } else { None };
                    self.purchase(&hand, gone0, &mut money_now, pay.space, cards.as_slice(), via, pay_kind(a), extra)
                }
                Action::BuyDiamonds(d) | Action::UseVizierDiamonds(d) => {
                    let mut cards: Stack<u8, 64> = Stack::new();
                    for c in d.cards() {
                        cards.push(c);
                    }
                    self.purchase(&hand, gone0, &mut money_now, d.space, cards.as_slice(), None, pay_kind(a), extra)
                }
                Action::Place { tile, cell } => match self.place_value(tile, cell) {
                    Some(v) => v,
                    None => {
                        let now = match city_now {
                            Some(x) => x,
                            None => {
                                let x = self.city_value(&g.players[seat].city);
                                city_now = Some(x);
                                x
                            }
                        };
                        let mut c2 = g.players[seat].city.sketch();
                        c2.place(tile, cell);
                        self.city_value(&c2) - now
                    }
                },
                // R-HUT-2: the hut is free; it is built or reserved at the end of the turn
                Action::TakeHut { hut } => self.tile_value(hut, false) - 0.5,
                // R-GATE-4 … R-GATE-6: played on a copy (and one free step ahead)
                Action::TakeGate { .. }
                | Action::PlayGate { .. }
                | Action::FinishGates
                | Action::BuildThroughGate { .. } => self.step_value(*a, lookahead),
                Action::Reserve { tile } => self.reserve_value(tile),
                Action::GiveToDirk { tile } => self.dirk_value(tile),
                Action::Build { tile, cell } => {
                    self.place_value(tile, cell).unwrap_or(-50.0) - self.reserve_value(tile) - w.redesign
                }
                Action::Remove { cell } => self.redesign_value(cell, None) - w.redesign,
                Action::Swap { tile, cell } => self.redesign_value(cell, Some(tile)) - w.redesign,
                Action::ReactivateVizier => w.vizier * self.progress_left,
                Action::RevealBonus { .. } => -0.01,
                Action::Pass | Action::DeclineVizier => 0.0,
            };
            out.push(v);
        }
    }

    fn money_now(&mut self, hand: &Purse, gone: u8, memo: &mut Option<f64>) -> f64 {
        match *memo {
            Some(v) => v,
            None => {
                let v = self.money_value(hand, gone);
                *memo = Some(v);
                v
            }
        }
    }

    /// A purchase (Buy, BuyWithDiamonds: `vizier` false; UseVizier: true): the money it
    /// leaves, the building, an exact payment's extra action (R-TURN-4), the push to end the
    /// game once the bag is empty; or the vizier it spends (R-VIZ-2).
    #[allow(clippy::too_many_arguments)]
    fn purchase(
        &mut self,
        hand: &Purse,
        gone0: u8,
        money_now: &mut Option<f64>,
        space: u8,
        cards: &[u8],
        via: Option<u8>,
        vizier: bool,
        extra: f64,
    ) -> f64 {
        let now = self.money_now(hand, gone0, money_now);
        let mut rest = *hand;
        for &c in cards {
            rest.remove(c);
        }
        if let Some(o) = via {
            rest.remove(o);
        }
        let i = space as usize - 1;
        let tile = self.g.market[i];
        let mut v = self.money_value(&rest, gone0 | 1 << space) - now;
        v += self.tile_value(tile, self.dirk_counts.is_some());
        if !vizier {
            let paid: u32 = cards.iter().map(|&c| value(c) as u32).sum();
            if paid == self.g.price(i) as u32 {
                v += extra;
            }
            if self.g.bag.is_empty() {
                v += self.w.end_push;
            }
        } else {
            v -= self.w.vizier * self.progress_left;
        }
        v
    }
}

fn pay_kind(a: &Action) -> bool {
    matches!(a, Action::UseVizier(_) | Action::UseVizierDiamonds(_))
}

/// The greedy evaluation's value of each action of `legal` for the seat to decide in `g`
/// (`Evaluator(game, seat, weights).action_values(legal)`), appended to `out` (cleared).
pub fn action_values(g: &Game, w: &Weights, legal: &[Action], memo: &mut Memo, out: &mut Vec<f64>) {
    let Some(seat) = g.current_player() else {
        out.clear();
        return;
    };
    let mut e = Eval::new(g, seat as usize, w, memo);
    e.action_values(legal, out, true);
}

/// The heuristic value of `seat`'s whole position (`Evaluator.seat_value`), read as `seat`
/// itself would (its hand, its hidden bonus cards): the score, the projected majorities
/// (R-SCORE-2 … R-SCORE-4) and walls (R-SCORE-5) of the scorings to come, the money and how
/// well it pays for the market, the other cards in hand (gate cards, R-GATE-5), the reserve,
/// the tiles it still has to place and an active vizier. A search calls it on determinized copies, where every hand is one the searching
/// seat believes in.
pub fn seat_value(g: &Game, seat: usize, w: &Weights, memo: &mut Memo) -> f64 {
    let mut e = Eval::new(g, seat, w, memo);
    let p = &g.players[seat];
    let counts = e.counts[seat];
    let mut v = p.score as f64 + e.majority_value(seat, &counts) + e.shape_me;
    v += e.money_value(&Purse::of(p.hand.as_slice()), 0) + e.held_value(p.hand.as_slice());
    for &t in p.reserve.iter() {
        v += e.reserve_value(t);
    }
    if g.phase == Phase::Place && g.decider == Some(seat as u8) {
        for &(tile, dirk_ok) in g.pending.iter() {
            v += f64::max(0.0, e.tile_value(tile, dirk_ok));
        }
    }
    if g.mods & VIZIER != 0 && g.vizier.active[seat] {
        v += w.vizier * e.progress_left;
    }
    v
}

/// The index into `legal` the greedy bot chooses (`GreedyBot.choose`): the only action, or the
/// first of the best valued, each value jittered with `rng.uniform(-noise, noise)` when
/// `noise` is not 0 (drawn in the order of `legal`).
pub fn choose(g: &Game, w: &Weights, noise: f64, rng: &mut Mt, legal: &[Action], memo: &mut Memo) -> usize {
    if legal.len() <= 1 {
        return 0;
    }
    let mut vals = std::mem::take(&mut memo.values);
    action_values(g, w, legal, memo, &mut vals);
    if noise != 0.0 {
        let (a, b) = (-noise, noise);
        for v in vals.iter_mut() {
            *v += a + (b - a) * rng.random();
        }
    }
    let mut best = 0;
    for i in 1..vals.len() {
        if vals[i] > vals[best] {
            best = i;
        }
    }
    memo.values = vals;
    best
}
