//! The environments' observation vector (`alhambra.env.observation.ObservationEncoder` in
//! Python, and each kernel module's part) for one seat of a game the kernel plays: the same
//! floats in the same slices, written from the kernel's state.
//!
//! Seats are relative to the observer (slot 0 is the observing seat, then the next seats in
//! turn order). The slices, in order: `phase`, `current_player`, `turn_player`,
//! `start_player`, `scores`, `hand`, `hand_sizes`, `display`, `discard`, `deck_size`,
//! `bag_size`, `scoring_cards_drawn`, `scorings_done`, `market_tiles`, `market_prices`,
//! `pending`, `reserves`, `cities` (per seat, per cell slot: in use, x, y, fountain, the six
//! building types, hut, the four walls); then the parts by their key (`bonus_cards`,
//! `building_huts`, `city_gates`, `dirk` with two players, `exchange_offices`, `vizier`); then `decision` (left zero: the integers
//! chosen so far are the caller's).

use crate::codec::Slots;
use crate::data::{
    gate, is_gate, is_office, BONUS_CARDS, EAST, FOUNTAIN, NORTH, SCORING_A, SCORING_B, SOUTH, TILE_TYPE, TYPES, WEST,
};
use crate::game::{Game, Phase, BONUS, BUILDING_HUTS, GATES, OFFICES, VIZIER};
use crate::huts::{is_hut, HUT_FIRST};

mod delta;
pub use delta::Written;

const NONE: u16 = u16::MAX;
/// The features of one cell slot.
pub const SLOT_FEATURES: usize = 15;

#[derive(Clone, Copy, Debug, Default)]
struct Offsets {
    phase: usize,
    current: usize,
    turn: usize,
    start: usize,
    scores: usize,
    hand: usize,
    hand_sizes: usize,
    display: usize,
    discard: usize,
    deck: usize,
    bag: usize,
    drawn: usize,
    done: usize,
    market: usize,
    prices: usize,
    pending: usize,
    reserves: usize,
    cities: usize,
    bonus_hand: usize,
    bonus_revealed: usize,
    bonus_hidden: usize,
    bonus_out: usize,
    huts_face: usize,
    huts_sizes: usize,
    gates_space: usize,
    gates_held: usize,
    gates_walls: usize,
    gates_deck: usize,
    dirk_tiles: usize,
    dirk_score: usize,
    offices_held: usize,
    offices_deck: usize,
    viz_active: usize,
    viz_asking: usize,
    decision: usize,
}

/// The observation layout of one rule set the kernel plays.
#[derive(Clone, Debug)]
pub struct Observer {
    n: usize,
    mods: u8,
    /// cell slots per Alhambra
    pub slots: usize,
    /// tiles (buildings, then huts) and cards (without the scoring cards)
    tiles: usize,
    cards: usize,
    card_index: [u16; 256],
    /// per `Phase` (as a number): its index in `phase`
    phase_index: [u16; 6],
    o: Offsets,
    /// the floats of the vector (the `decision` slice included)
    pub size: usize,
    /// `(name, start, stop)` of every slice, in order
    pub slices: Vec<(String, usize, usize)>,
}

impl Observer {
    /// The layout of `n` players with the modules `mods` whose cards (without the scoring
    /// cards, in the rule set's order) are `cards`; `decision`: the size of the `decision`
    /// slice (the number of action integers).
    pub fn new(n: usize, mods: u8, cards: &[u8], slots: usize, decision: usize) -> Observer {
        let tiles = 54 + if mods & BUILDING_HUTS != 0 { 24 } else { 0 };
        let mut card_index = [NONE; 256];
        for (k, &c) in cards.iter().enumerate() {
            card_index[c as usize] = k as u16;
        }
        // the phases of the rule set, sorted by name, then "over"
        let mut phases: Vec<(&str, Phase)> = vec![("place", Phase::Place), ("turn", Phase::Turn)];
        if mods & VIZIER != 0 {
            phases.push(("vizier", Phase::Vizier));
        }
        if mods & GATES != 0 {
            phases.push(("gates", Phase::Gates));
        }
        phases.sort_by_key(|p| p.0);
        phases.push(("over", Phase::Over));
        let mut phase_index = [NONE; 6];
        for (k, &(_, p)) in phases.iter().enumerate() {
            phase_index[p as usize] = k as u16;
        }
        let k = cards.len();
        let mut slices: Vec<(String, usize, usize)> = Vec::new();
        let mut at = 0usize;
        let mut add = |name: &str, size: usize| -> usize {
            slices.push((name.to_string(), at, at + size));
            at += size;
            at - size
        };
        let mut o = Offsets {
            phase: add("phase", phases.len()),
            current: add("current_player", n),
            turn: add("turn_player", n),
            start: add("start_player", n),
            scores: add("scores", n),
            hand: add("hand", k),
            hand_sizes: add("hand_sizes", n),
            display: add("display", k),
            discard: add("discard", k),
            deck: add("deck_size", 1),
            bag: add("bag_size", 1),
            drawn: add("scoring_cards_drawn", 2),
            done: add("scorings_done", 3),
            market: add("market_tiles", 4 * tiles),
            prices: add("market_prices", 4),
            pending: add("pending", tiles),
            reserves: add("reserves", n * tiles),
            cities: add("cities", n * slots * SLOT_FEATURES),
            ..Offsets::default()
        };
        if mods & BONUS != 0 {
            o.bonus_hand = add("bonus_cards.hand", tiles);
            o.bonus_revealed = add("bonus_cards.revealed", n * tiles);
            o.bonus_hidden = add("bonus_cards.hidden", n);
            o.bonus_out = add("bonus_cards.out_of_play", 1);
        }
        if mods & BUILDING_HUTS != 0 {
            o.huts_face = add("building_huts.face_up", tiles);
            o.huts_sizes = add("building_huts.stack_sizes", TYPES);
        }
        if mods & GATES != 0 {
            o.gates_space = add("city_gates.space", k);
            o.gates_held = add("city_gates.held", n * k);
            o.gates_walls = add("city_gates.gates", n * slots * 2);
            o.gates_deck = add("city_gates.in_deck", 1);
        }
        if n == 2 {
            // Dirk (R-TWO-3, R-TWO-4): his buildings and points
            o.dirk_tiles = add("dirk.tiles", tiles);
            o.dirk_score = add("dirk.score", 1);
        }
        if mods & OFFICES != 0 {
            o.offices_held = add("exchange_offices.held", n * k);
            o.offices_deck = add("exchange_offices.in_deck", 1);
        }
        if mods & VIZIER != 0 {
            o.viz_active = add("vizier.active", n);
            o.viz_asking = add("vizier.asking", n);
        }
        o.decision = add("decision", decision);
        Observer { n, mods, slots, tiles, cards: k, card_index, phase_index, o, size: at, slices }
    }

    /// The number of cards a hand slice counts.
    pub fn cards(&self) -> usize {
        self.cards
    }

    /// Add one at `out[base + k]` for each of `cards` that is the `k`-th card of the layout
    /// (others, the scoring cards, are not counted).
    #[inline]
    pub fn count(&self, out: &mut [f32], base: usize, cards: &[u8]) {
        for &c in cards {
            let k = self.card_index[c as usize];
            if k != NONE {
                out[base + k as usize] += 1.0;
            }
        }
    }

    /// Write the observation of `seat` in `g` into `out[..size]` (every float, the `decision`
    /// slice zero). `slots`: scratch room for an Alhambra's cell slots.
    pub fn write(&self, g: &Game, seat: usize, out: &mut [f32], slots: &mut Slots) {
        let out = &mut out[..self.size];
        out.fill(0.0);
        self.write_head(g, seat, out);
        for p in 0..self.n {
            self.write_city(g, seat, p, out, slots);
        }
        self.write_tail(g, seat, out, slots);
    }

    /// Seat `p`'s place in the observation of `seat` (0: the observer, then in turn order).
    #[inline]
    fn rel(&self, seat: usize, p: usize) -> usize {
        (p + self.n - seat) % self.n
    }

    /// The floats of one seat's `cities` block.
    #[inline]
    fn city_size(&self) -> usize {
        self.slots * SLOT_FEATURES
    }

    /// Where the head (the slices before `cities`) ends.
    #[inline]
    fn head_end(&self) -> usize {
        self.o.cities
    }

    /// The floats of the tail (the modules' parts, between `cities` and `decision`).
    #[inline]
    fn tail(&self) -> std::ops::Range<usize> {
        self.o.cities + self.n * self.city_size()..self.o.decision
    }

    /// The floats of seat `p`'s city in the observation of `seat`.
    #[inline]
    fn city_block(&self, seat: usize, p: usize) -> std::ops::Range<usize> {
        let at = self.o.cities + self.rel(seat, p) * self.city_size();
        at..at + self.city_size()
    }

    /// Where the `decision` slice starts.
    #[inline]
    pub fn decision_start(&self) -> usize {
        self.o.decision
    }

    /// The slices before `cities` (`out[..head_end]` zero on entry).
    fn write_head(&self, g: &Game, seat: usize, out: &mut [f32]) {
        let o = &self.o;
        let n = self.n;
        let rel = |p: usize| self.rel(seat, p);
        let phase = self.phase_index[g.phase as usize];
        if phase != NONE {
            out[o.phase + phase as usize] = 1.0;
        }
        let mut cur = if g.phase == Phase::Over { None } else { g.decider };
        if cur != Some(seat as u8) && g.phase == Phase::Vizier {
            cur = None; // the vizier's view hides whom its asking round asks (R-VIZ-5)
        }
        if let Some(c) = cur {
            out[o.current + rel(c as usize)] = 1.0;
        }
        out[o.turn + rel(g.turn_player as usize)] = 1.0;
        out[o.start + rel(g.start_player as usize)] = 1.0;
        for p in 0..n {
            let k = rel(p);
            out[o.scores + k] = g.players[p].score as f32;
            out[o.hand_sizes + k] = g.players[p].hand.len() as f32;
        }
        self.count(out, o.hand, g.players[seat].hand.as_slice());
        self.count(out, o.display, g.display.as_slice());
        self.count(out, o.discard, g.discard.as_slice());
        out[o.deck] = g.deck.len() as f32;
        out[o.bag] = g.bag.len() as f32;
        for &c in g.scoring_cards.iter() {
            match c {
                SCORING_A => out[o.drawn] = 1.0,
                SCORING_B => out[o.drawn + 1] = 1.0,
                _ => {}
            }
        }
        for rec in g.scorings.iter() {
            if (1..=3).contains(&rec.number) {
                out[o.done + rec.number as usize - 1] = 1.0;
            }
        }
        let t = self.tiles;
        for (k, &tile) in g.market.iter().enumerate() {
            if tile != 0 {
                out[o.market + k * t + tile as usize - 1] = 1.0;
                out[o.prices + k] = g.price(k) as f32;
            }
        }
        for &(tile, _) in g.pending.iter() {
            out[o.pending + tile as usize - 1] = 1.0;
        }
        for p in 0..n {
            let k = rel(p);
            for &tile in g.players[p].reserve.iter() {
                out[o.reserves + k * t + tile as usize - 1] = 1.0;
            }
        }
    }

    /// Seat `p`'s city in the observation of `seat` (its block zero on entry); the number of
    /// cell slots written (the floats of the block past them stay zero).
    fn write_city(&self, g: &Game, seat: usize, p: usize, out: &mut [f32], slots: &mut Slots) -> usize {
        let player = &g.players[p];
        slots.fill(&player.city);
        let base = self.city_block(seat, p).start;
        let used = slots.len().min(self.slots);
        for j in 0..used {
            let c = slots.cell(j);
            let at = base + j * SLOT_FEATURES;
            let (x, y) = crate::city::xy(c);
            out[at] = 1.0;
            out[at + 1] = x as f32;
            out[at + 2] = y as f32;
            if let Some(tile) = player.city.tile_at(c) {
                if tile == FOUNTAIN {
                    out[at + 3] = 1.0;
                    continue;
                }
                let ty = if is_hut(tile) { g.opts.huts.type_of(tile) } else { TILE_TYPE[tile as usize] };
                out[at + 4 + ty as usize] = 1.0;
                if is_hut(tile) {
                    out[at + 10] = 1.0;
                }
                let walls = g.tile_walls(tile);
                for (w, bit) in [NORTH, EAST, SOUTH, WEST].into_iter().enumerate() {
                    if walls & bit != 0 {
                        out[at + 11 + w] = 1.0;
                    }
                }
            }
        }
        used
    }

    /// The modules' parts (the tail, zero on entry).
    fn write_tail(&self, g: &Game, seat: usize, out: &mut [f32], slots: &mut Slots) {
        let o = &self.o;
        let n = self.n;
        let rel = |p: usize| self.rel(seat, p);
        let t = self.tiles;
        if self.mods & BONUS != 0 {
            let b = &g.bonus;
            for (i, &building) in BONUS_CARDS.iter().enumerate() {
                if b.hands[seat] >> i & 1 == 1 {
                    out[o.bonus_hand + building as usize - 1] = 1.0;
                }
                for p in 0..n {
                    if b.revealed[p] >> i & 1 == 1 {
                        out[o.bonus_revealed + rel(p) * t + building as usize - 1] = 1.0;
                    }
                }
            }
            for p in 0..n {
                out[o.bonus_hidden + rel(p)] = b.hands[p].count_ones() as f32;
            }
            out[o.bonus_out] = b.out_of_play.count_ones() as f32;
        }
        if self.mods & BUILDING_HUTS != 0 {
            for (ty, stack) in g.huts.stacks.iter().enumerate() {
                out[o.huts_sizes + ty] = stack.len() as f32;
                if let Some(&top) = stack.as_slice().last() {
                    out[o.huts_face + (top - HUT_FIRST) as usize + 54] = 1.0;
                }
            }
        }
        if self.mods & GATES != 0 {
            // R-GATE-3, R-GATE-4, R-GATE-5: all public
            let k = self.cards;
            if g.gates.space != 0 {
                self.count(out, o.gates_space, &[gate(g.gates.space)]);
            }
            for p in 0..n {
                let player = &g.players[p];
                for &c in player.hand.iter() {
                    if is_gate(c) {
                        self.count(out, o.gates_held + rel(p) * k, &[c]);
                    }
                }
                if !player.city.gates().is_empty() {
                    slots.fill(&player.city);
                    let base = o.gates_walls + rel(p) * self.slots * 2;
                    for &(cell, side) in player.city.gates() {
                        if let Some(j) = slots.index(cell).filter(|&j| j < self.slots) {
                            out[base + j * 2 + usize::from(side != EAST)] = 1.0;
                        }
                    }
                }
            }
            out[o.gates_deck] = g.deck.iter().filter(|&&c| is_gate(c)).count() as f32;
        }
        if n == 2 {
            for &tile in g.dirk.iter() {
                out[o.dirk_tiles + tile as usize - 1] = 1.0;
            }
            out[o.dirk_score] = g.dirk_score as f32;
        }
        if self.mods & OFFICES != 0 {
            let k = self.cards;
            for p in 0..n {
                let base = o.offices_held + rel(p) * k;
                for &c in g.players[p].hand.iter() {
                    if is_office(c) {
                        out[base + self.card_index[c as usize] as usize] += 1.0;
                    }
                }
            }
            out[o.offices_deck] = g.deck.iter().filter(|&&c| is_office(c)).count() as f32;
        }
        if self.mods & VIZIER != 0 {
            let v = &g.vizier;
            for p in 0..n {
                if v.active[p] {
                    out[o.viz_active + rel(p)] = 1.0;
                }
            }
            if g.phase == Phase::Vizier && v.asked >= 0 && v.asked as usize == seat {
                out[o.viz_asking] = 1.0;
            }
        }
    }
}
