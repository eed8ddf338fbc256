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

#[cfg(test)]
mod tests {
    use super::super::{Eval, Memo, Weights};
    use super::*;
    use crate::city::cell_of;
    use crate::game::{Action, Options, Phase, BUILDING_HUTS};
    use crate::huts::HUT_FIRST;
    use crate::stack::Stack;

    /// Hut H1 of the shipped layout: a pavilion hut with a wall on its north side.
    const H1: u8 = HUT_FIRST;
    /// Pavilions by their walls (R-COMP-2): none, north, east, north and west.
    const OPEN: u8 = 7;
    const NORTH_WALL: u8 = 5;
    const EAST_WALL: u8 = 6;
    const NORTH_WEST_WALLS: u8 = 4;

    fn cell(x: i32, y: i32) -> Cell {
        cell_of(x, y).unwrap()
    }

    /// A 3-player game with the building huts at the start of seat 0's turn.
    fn game() -> Game {
        let mut g = Game::with_modules(3, 1, Options::default(), BUILDING_HUTS);
        g.turn_player = 0;
        g.decider = Some(0);
        g.phase = Phase::Turn;
        g
    }

    #[test]
    fn r_hut_5_a_hut_counts_its_adjacent_buildings_of_its_colour_not_behind_a_wall() {
        let mut g = game();
        let city = &mut g.players[0].city;
        city.place(H1, cell(1, 0));
        city.place(OPEN, cell(2, 0)); // east of the hut: counts
        city.place(NORTH_WALL, cell(1, 1)); // south of it, its wall facing the hut: does not
        let mut counts = g.players[0].city.type_counts();
        add_hut_counts(&g, &g.players[0].city, &mut counts);
        assert_eq!(counts[0], 2 + 1, "two pavilions and the one the hut counts");
        // the evaluation's counts are the scoring's (R-HUT-5 in every seat's counts)
        let (w, mut memo) = (Weights::default(), Memo::default());
        let e = Eval::new(&g, 1, &w, &mut memo);
        assert_eq!(e.counts[0][0], 3);
    }

    #[test]
    fn r_hut_5_a_building_next_to_a_hut_of_its_colour_counts_twice_and_a_hut_its_neighbours() {
        let mut g = game();
        g.players[0].city.place(H1, cell(1, 0));
        let city = g.players[0].city;
        assert_eq!(hut_extra(&g, &city, OPEN, cell(2, 0)), 2, "itself and one more for the hut");
        assert_eq!(hut_extra(&g, &city, NORTH_WALL, cell(1, 1)), 1, "its wall faces the hut");
        assert_eq!(hut_extra(&g, &city, 8, cell(2, 0)), 1, "a seraglio: another colour");
        assert_eq!(hut_extra(&g, &city, OPEN, cell(1, -1)), 1, "behind the hut's own wall");
        // a hut counts the buildings already next to it, at most three (R-HUT-5)
        let mut g = game();
        for (x, y, t) in [(6, 5, NORTH_WALL), (5, 6, EAST_WALL), (4, 5, NORTH_WEST_WALLS), (5, 4, OPEN)] {
            g.players[0].city.place(t, cell(x, y));
        }
        let city = g.players[0].city;
        assert_eq!(hut_extra(&g, &city, H1, cell(5, 5)), 3, "north of it behind its wall");
        assert_eq!(hut_extra(&g, &city, H1, cell(7, 5)), 1, "the north-walled pavilion west of it");
    }

    #[test]
    fn r_hut_2_taking_a_hut_is_worth_its_best_use_less_half_a_point() {
        let mut g = game();
        g.players[0].city.place(OPEN, cell(1, 0));
        g.huts.stacks[0] = Stack::from_slice(&[H1]);
        let mut legal = Vec::new();
        g.legal(&mut legal);
        let k = legal.iter().position(|a| *a == Action::TakeHut { hut: H1 }).expect("H1 is face up");
        let (w, mut memo) = (Weights::default(), Memo::default());
        let mut vals = Vec::new();
        super::super::action_values(&g, &w, &legal, &mut memo, &mut vals);
        let mut e = Eval::new(&g, 0, &w, &mut memo);
        let best = e.best_place(H1).expect("the hut fits somewhere");
        assert_eq!(vals[k], best.max(e.reserve_value(H1)) - 0.5);
        // R-HUT-5: next to the open pavilion the hut counts one more pavilion
        e.place_values(H1);
        let near = e.place_value(H1, cell(2, 0)).expect("east of the pavilion");
        let far = e.place_value(H1, cell(0, -1)).expect("north of the fountain");
        assert!(near > far, "{near} > {far}");
    }

    #[test]
    fn r_turn_5_removing_a_hut_loses_what_it_counts() {
        let mut g = game();
        let city = &mut g.players[0].city;
        city.place(H1, cell(1, 0));
        city.place(OPEN, cell(2, 0));
        city.place(EAST_WALL, cell(1, 1));
        let (w, mut memo) = (Weights::default(), Memo::default());
        let e = Eval::new(&g, 0, &w, &mut memo);
        let city = g.players[0].city;
        assert_eq!(e.count_of(&city, H1, cell(1, 0)), Some((0, 2)));
        assert_eq!(e.count_of(&city, OPEN, cell(2, 0)), Some((0, 1)));
        let mut lone = game();
        lone.players[0].city.place(H1, cell(1, 0));
        let e = Eval::new(&lone, 0, &w, &mut memo);
        assert_eq!(e.count_of(&lone.players[0].city, H1, cell(1, 0)), None, "a hut counting nothing");
    }
}
