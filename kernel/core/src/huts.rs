//! Module "building huts" (Bauhütten, R-HUT-1 … R-HUT-6), as the Python module
//! `alhambra_building_huts` plays it: 24 hut tiles in six stacks by colour, the top of each
//! face up (R-HUT-1); a new action takes a face-up hut for free and ends the turn's actions
//! (R-HUT-2); it is built or reserved at the end of the turn like a bought building, never given
//! to Dirk (R-HUT-3); a player owns at most 3 (R-HUT-4); at a scoring a hut in the Alhambra
//! counts as one building of its colour per matching neighbour not behind a wall, at most 3
//! (R-HUT-5); its walls count for the longest wall (R-HUT-6, in `city.rs`).
//!
//! Huts are tiles `HUT_FIRST + k` for the `k`-th hut of the game's layout (the order of the
//! Python rule set's tile catalogue: the layout file's order). Their walls and colours are the
//! option `building_huts.layout` ([`HutLayout`], in [`crate::game::Options`]); their ids (the
//! strings the saves write) stay with the caller, which hands them to the export.

use crate::city::{City, STEPS};
use crate::data::{TILE_TYPE, TILE_WALLS, TYPES, TYPE_NAMES};
use crate::game::{Action, Game, Illegal, Scoring, BUILDING_HUTS, MAX_PLAYERS};
use crate::stack::Stack;
use std::fmt::Write;

/// Tile id of the first hut (buildings are 1-54).
pub const HUT_FIRST: u8 = 55;
/// R-HUT-1: the number of huts.
pub const HUT_TILES: usize = 24;
/// R-HUT-1: the huts per building type (pavilion … tower).
pub const HUT_COUNTS: [u8; TYPES] = [3, 3, 4, 4, 5, 5];
/// The most huts of one colour (the tallest stack).
pub const MAX_STACK: usize = 5;
/// R-HUT-4: the most huts a player may own (Alhambra, reserve and pending together).
pub const MAX_HUTS: u8 = 3;
/// R-HUT-5: the most buildings one hut counts as.
pub const MAX_HUT_VALUE: u8 = 3;

/// True for a hut tile.
#[inline]
pub const fn is_hut(tile: u8) -> bool {
    tile >= HUT_FIRST && ((tile - HUT_FIRST) as usize) < HUT_TILES
}

/// The hut layout (R-HUT-1): per hut (in the layout's order) its building type (0 pavilion …
/// 5 tower) and its wall mask.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HutLayout {
    pub types: [u8; HUT_TILES],
    pub walls: [u8; HUT_TILES],
}

/// The shipped layout (`huts.toml`, COMPONENTS.md): huts H1 … H24.
pub const SHIPPED: HutLayout = HutLayout {
    types: [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5],
    walls: [1, 12, 2, 2, 9, 4, 4, 3, 8, 2, 8, 6, 1, 4, 1, 2, 12, 3, 8, 4, 8, 6, 9, 1],
};

impl Default for HutLayout {
    fn default() -> Self {
        SHIPPED
    }
}

impl HutLayout {
    /// The layout of `huts` (type, wall mask) in order, or why it is none (R-HUT-1, as the Python
    /// module checks a layout file): 24 huts, 3/3/4/4/5/5 per type, each with one to three walls.
    pub fn of(huts: &[(u8, u8)]) -> Result<HutLayout, Illegal> {
        if huts.len() != HUT_TILES {
            return Err(Illegal(format!("{} huts, but the module has {HUT_TILES} (R-HUT-1)", huts.len())));
        }
        let mut layout = HutLayout { types: [0; HUT_TILES], walls: [0; HUT_TILES] };
        let mut counts = [0u8; TYPES];
        for (k, &(t, w)) in huts.iter().enumerate() {
            if t as usize >= TYPES {
                return Err(Illegal(format!("hut #{}: no building type {t}", k + 1)));
            }
            if w == 0 || w >= 15 {
                return Err(Illegal(format!("hut #{}: one to three walls (R-HUT-1), not the mask {w}", k + 1)));
            }
            counts[t as usize] += 1;
            layout.types[k] = t;
            layout.walls[k] = w;
        }
        if counts != HUT_COUNTS {
            return Err(Illegal(format!("huts per type {counts:?}, not {HUT_COUNTS:?} (R-HUT-1)")));
        }
        Ok(layout)
    }

    /// The building type (colour) of hut tile `tile`.
    #[inline]
    pub fn type_of(&self, tile: u8) -> u8 {
        self.types[(tile - HUT_FIRST) as usize]
    }
}

/// The hut stacks (R-HUT-1), as the module's `HutState`: per type (in scoring order) the huts
/// left, bottom first, the face-up one last; and how many huts each seat owns (R-HUT-4: a hut
/// changes owner only when taken, so this is counted up on taking and worked out on loading).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct HutState {
    pub stacks: [Stack<u8, MAX_STACK>; TYPES],
    pub owned: [u8; MAX_PLAYERS],
}

impl Game {
    /// R-HUT-1: six stacks by colour, each in the layout's order and then shuffled (one shuffle
    /// per type, in scoring order); the top of each is face up.
    pub(crate) fn setup_huts(&mut self) {
        for t in 0..TYPES {
            let mut stack: Stack<u8, MAX_STACK> = Stack::new();
            for k in 0..HUT_TILES {
                if self.opts.huts.types[k] as usize == t {
                    stack.push(HUT_FIRST + k as u8);
                }
            }
            self.rng.shuffle(stack.as_mut_slice());
            self.huts.stacks[t] = stack;
        }
    }

    /// The wall mask of `tile` in this game: a building's printed walls, a hut's from the layout.
    #[inline]
    pub fn tile_walls(&self, tile: u8) -> u8 {
        match TILE_WALLS.get(tile as usize) {
            Some(&w) => w,
            None if is_hut(tile) => self.opts.huts.walls[(tile - HUT_FIRST) as usize],
            None => 0,
        }
    }

    /// R-HUT-2, R-HUT-4: take each face-up hut (stacks in scoring order), none for a seat that
    /// owns the maximum.
    pub(crate) fn legal_take_hut(&self, s: usize, out: &mut Vec<Action>) {
        if self.mods & BUILDING_HUTS == 0 || self.huts.owned[s] >= MAX_HUTS {
            return;
        }
        for stack in self.huts.stacks.iter() {
            if let Some(&hut) = stack.as_slice().last() {
                out.push(Action::TakeHut { hut });
            }
        }
    }

    /// R-HUT-2, R-HUT-3: `s` takes the face-up hut `hut` (the next of its stack turns face up);
    /// it is placed at the end of the turn and never given to Dirk. The caller ends the turn's
    /// actions (never an extra action).
    pub(crate) fn take_hut(&mut self, s: usize, hut: u8) {
        let t = self.opts.huts.type_of(hut) as usize;
        self.huts.stacks[t].pop();
        if !self.huts.stacks[t].is_empty() {
            crate::draws::before_draw(self, crate::draws::HUTS + t as u8); // the next turns up (R-HUT-2)
        }
        self.pending.push((hut, false));
        self.huts.owned[s] += 1;
    }

    /// R-HUT-5: how many buildings of its colour the hut `hut` standing at `cell` of `city`
    /// counts as: one per orthogonally adjacent building (not the fountain, not a hut) of its
    /// type whose shared side has no wall on either tile, at most [`MAX_HUT_VALUE`].
    pub fn hut_value(&self, city: &City, hut: u8, cell: u16) -> u8 {
        let t = self.opts.huts.type_of(hut);
        let walls = self.tile_walls(hut);
        let mut n = 0u8;
        for &(step, side, opp) in STEPS.iter() {
            if walls & side != 0 {
                continue;
            }
            let q = (cell as i32 + step) as u16;
            match city.tile_at(q) {
                Some(b) if (1..=54).contains(&b) && TILE_TYPE[b as usize] == t && TILE_WALLS[b as usize] & opp == 0 => {
                    n += 1
                }
                _ => {}
            }
        }
        n.min(MAX_HUT_VALUE)
    }

    /// R-HUT-5: each hut in a player's Alhambra adds its value to that player's buildings of its
    /// colour; huts in the reserve add nothing.
    pub(crate) fn hut_counts(&self, rec: &mut Scoring) {
        for p in 0..self.n as usize {
            let city = &self.players[p].city;
            for (cell, tile) in city.iter() {
                if is_hut(tile) {
                    let t = self.opts.huts.type_of(tile) as usize;
                    rec.counts[p][t] += self.hut_value(city, tile, cell);
                }
            }
        }
    }

    /// R-HUT-4 on loading: the huts each seat owns (Alhambra, reserve, and the turn player's
    /// pending tiles), as the module counts them.
    pub(crate) fn count_huts(&mut self) {
        for p in 0..self.n as usize {
            let pl = &self.players[p];
            let mut n =
                pl.city.iter().filter(|&(_, t)| is_hut(t)).count() + pl.reserve.iter().filter(|&&t| is_hut(t)).count();
            if p == self.turn_player as usize {
                n += self.pending.iter().filter(|&&(t, _)| is_hut(t)).count();
            }
            self.huts.owned[p] = n.min(u8::MAX as usize) as u8;
        }
    }

    /// Check the loaded hut stacks (`stacks[t]`: huts of colour `t`, bottom first) and set them.
    pub(crate) fn load_huts(&mut self, stacks: &[Vec<u8>]) -> Result<(), Illegal> {
        if stacks.len() != TYPES {
            return Err(Illegal(format!("building_huts: {} stacks, one per colour ({TYPES})", stacks.len())));
        }
        for (t, stack) in stacks.iter().enumerate() {
            if stack.len() > MAX_STACK || stack.iter().any(|&h| !is_hut(h) || self.opts.huts.type_of(h) as usize != t) {
                return Err(Illegal(format!("building_huts: stack {:?} holds huts of another colour", TYPE_NAMES[t])));
            }
            self.huts.stacks[t] = Stack::from_slice(stack);
        }
        Ok(())
    }
}

// -- the huts in the save's JSON ------------------------------------------------------------------

/// Write `s` as a JSON string.
pub fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Write tile `t` as the save writes it: a building's number, a hut's id (`names[k]` for the
/// `k`-th hut; `H1` … `H24`, the shipped ids, without names).
pub fn write_tile(out: &mut String, t: u8, names: &[String]) {
    if is_hut(t) {
        let k = (t - HUT_FIRST) as usize;
        match names.get(k) {
            Some(name) => json_string(out, name),
            None => {
                let _ = write!(out, "\"H{}\"", k + 1);
            }
        }
    } else {
        let _ = write!(out, "{t}");
    }
}

/// The hut tile of id `id` among `names` (the shipped ids without names).
pub fn hut_of_name(id: &str, names: &[String]) -> Option<u8> {
    let k = if names.is_empty() {
        let n: usize = id.strip_prefix('H')?.parse().ok()?;
        if !(1..=HUT_TILES).contains(&n) || id != format!("H{n}") {
            return None;
        }
        n - 1
    } else {
        names.iter().position(|x| x == id)?
    };
    (k < HUT_TILES).then_some(HUT_FIRST + k as u8)
}

/// The module's part of the save's `modules`: `"building_huts": {"stacks": {colour: [ids]}}`.
pub fn state_json(out: &mut String, g: &Game, names: &[String]) {
    out.push_str("\"building_huts\": {\"stacks\": {");
    for (t, stack) in g.huts.stacks.iter().enumerate() {
        if t > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "\"{}\": [", TYPE_NAMES[t]);
        for (k, &h) in stack.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            write_tile(out, h, names);
        }
        out.push(']');
    }
    out.push_str("}}");
}
