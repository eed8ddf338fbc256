//! The greedy evaluation's part of the building huts (R-HUT-1 … R-HUT-6), as the Python
//! `Evaluator` values them with the module's plugin: a hut in an Alhambra counts as one
//! building of its colour per adjacent building of that type not behind a wall, at most 3
//! (R-HUT-5), in every seat's counts; building a tile gains the buildings it adds through the
//! huts next to it (`_hut_extra`); a removal loses what the removed tile counted (`_count_of`).
//! A hut is worth a reserve tile's flat share (it is no building, R-HUT-3) and taking one is
//! worth the hut's value less half a point (R-HUT-2, in `greedy.rs`).

use super::Eval;
use crate::city::{Cell, City, STEPS};
use crate::data::{TILE_TYPE, TYPES};
use crate::game::Game;
use crate::huts::{is_hut, MAX_HUT_VALUE};

/// The building type (colour) of `tile` in `g`: a building's, a hut's from the layout; `None`
/// for the fountain.
fn type_of(g: &Game, tile: u8) -> Option<u8> {
    if (1..=54).contains(&tile) {
        Some(TILE_TYPE[tile as usize])
    } else if is_hut(tile) {
        Some(g.opts.huts.type_of(tile))
    } else {
        None
    }
}

/// R-HUT-5: add to `counts` the buildings the huts of `city` count as (`hut_counts`).
pub(super) fn add_hut_counts(g: &Game, city: &City, counts: &mut [u8; TYPES]) {
    for (cell, tile) in city.iter() {
        if is_hut(tile) {
            counts[g.opts.huts.type_of(tile) as usize] += g.hut_value(city, tile, cell);
        }
    }
}

/// `_hut_extra`: how many buildings of its type building `tile` at the empty cell `c` of `city`
/// adds (R-HUT-5): a hut, its adjacent buildings of its type with no wall between (at most 3);
/// a building, itself and one per adjacent hut of its type with no wall between that counts
/// fewer than 3.
pub(super) fn hut_extra(g: &Game, city: &City, tile: u8, c: Cell) -> i32 {
    let walls = city.walls(tile);
    let kind = type_of(g, tile);
    let hut = is_hut(tile);
    let mut extra = 0;
    for &(step, side, opp) in STEPS.iter() {
        if walls & side != 0 {
            continue;
        }
        let q = (c as i32 + step) as Cell;
        let Some(other) = city.tile_at(q) else { continue };
        if type_of(g, other) != kind || city.walls(other) & opp != 0 {
            continue;
        }
        if hut {
            if (1..=54).contains(&other) {
                extra += 1;
            }
        } else if is_hut(other) && g.hut_value(city, other, q) < MAX_HUT_VALUE {
            extra += 1;
        }
    }
    if hut {
        extra.min(MAX_HUT_VALUE as i32)
    } else {
        1 + extra
    }
}

impl Eval<'_> {
    /// The majority gain of building `tile` at `c` of `city` (the seat's Alhambra) with the
    /// huts' counts (R-HUT-5): nothing for a hut next to no building of its type.
    pub(super) fn hut_gain(&self, city: &City, tile: u8, c: Cell) -> f64 {
        let k = hut_extra(self.g, city, tile, c);
        match type_of(self.g, tile) {
            Some(t) if k != 0 => self.type_gain(self.seat, t as usize, k),
            _ => 0.0,
        }
    }

    /// `_count_of`: (type, buildings counted) of `tile` standing at `c` of `city`: a building
    /// counts one, a hut its adjacent buildings (R-HUT-5); `None` for the fountain or a hut
    /// that counts nothing.
    pub(super) fn count_of(&self, city: &City, tile: u8, c: Cell) -> Option<(usize, i32)> {
        if (1..=54).contains(&tile) {
            return Some((TILE_TYPE[tile as usize] as usize, 1));
        }
        if self.huts && is_hut(tile) {
            let k = self.g.hut_value(city, tile, c) as i32;
            return (k != 0).then_some((self.g.opts.huts.type_of(tile) as usize, k));
        }
        None
    }
}
