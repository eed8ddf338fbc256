//! The environments' integer action codec (`alhambra.env.codec.ActionCodec` in Python) for the
//! rule sets the kernel plays: the fixed action space of a rule set (its segments, in the same
//! order and sizes), each legal action written as its code (a short prefix-free sequence of
//! integers), and, for the current decision, the integers legal after the ones chosen so far.
//!
//! The layout (docs/env.md): `Pass`, `TakeMoney.cards` (one integer per take), `Buy.space+via`,
//! `Buy.cards` (each card of the payment in canonical order, then "done"), the tiles of
//! `BuildFromReserve`, the shared `cell` segment, `RemoveToReserve.pos`, the tiles of `Swap`,
//! `Place`, `Reserve` and `GiveToDirk`; then the modules' kinds by their dotted class name:
//! `RevealBonus.building`, `TakeHut.hut`, `BuyWithDiamonds.space` and `.cards`,
//! `TakeOffice.office`, `DeclineVizier`, `ReactivateVizier`, `UseVizier.space+via` and `.cards`.
//!
//! A cell integer names a *slot* of the Alhambra of the player to move: its occupied cells and
//! the empty cells next to them, sorted row by row (`y`, then `x`) ([`Slots`]).

use crate::city::{Cell, City};
use crate::data::{
    canonical_rank, is_diamond, is_gate, is_money, is_office, value, BUILDINGS, EAST, GATE_FIRST, OFFICE_FIRST,
};
use crate::game::{Action, Game, Payment, BONUS, BUILDING_HUTS, DIAMONDS, GATES, OFFICES, VIZIER};
use crate::huts::{HUT_FIRST, HUT_TILES, MAX_HUTS};

/// No integer (a segment the rule set does not have, a card outside the encoded cards).
pub const NONE: u16 = u16::MAX;
/// R-TURN-2: the rule set's total of a take of several cards.
const TAKE_LIMIT: u8 = 5;
/// R-SET-5: the money display holds 4 cards, so no take has more.
const DISPLAY_SIZE: usize = 4;
/// The most cell slots any Alhambra has: `3 n + 2` for `n` tiles (fountain, 54 buildings, 3 huts).
pub const MAX_SLOTS: usize = 3 * (1 + BUILDINGS + MAX_HUTS as usize) + 2;
/// Room for the keys of an Alhambra's cells and their neighbours before they are deduplicated.
const SLOT_ROOM: usize = 5 * 64;

/// The cell slots of one Alhambra: its occupied cells and the empty cells sharing a side with
/// one, sorted by `(y, x)` (Python's `alhambra.env.city_slots`). A slot is kept as its cell
/// with the bytes swapped (`(y + 128) << 8 | (x + 128)`), which sorts row by row.
#[derive(Clone, Copy)]
pub struct Slots {
    keys: [u16; SLOT_ROOM],
    len: usize,
}

impl Default for Slots {
    fn default() -> Self {
        Slots { keys: [0; SLOT_ROOM], len: 0 }
    }
}

impl Slots {
    /// The slots of `city`.
    pub fn of(city: &City) -> Slots {
        let mut s = Slots::default();
        s.fill(city);
        s
    }

    /// Make these the slots of `city`.
    pub fn fill(&mut self, city: &City) {
        if !self.fill_by_rows(city) {
            self.fill_by_sorting(city);
        }
    }

    /// [`Slots::fill`] through a bitmap of rows (no sort), when the city and its neighbours
    /// fit in 64 by 64 cells (always, in a game: 58 tiles in one line reach 60 cells); false
    /// (nothing written) otherwise.
    fn fill_by_rows(&mut self, city: &City) -> bool {
        // a cell's low byte is y + 128, its high byte x + 128
        let (mut x0, mut y0, mut x1, mut y1) = (u16::MAX, u16::MAX, 0u16, 0u16);
        for (c, _) in city.iter() {
            let (x, y) = (c >> 8, c & 255);
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if x0 > x1 {
            self.len = 0;
            return true;
        }
        // the window starts one cell before the city and holds one after it
        if x1 - x0 + 3 > 64 || y1 - y0 + 3 > 64 || x0 == 0 || y0 == 0 {
            return false;
        }
        let (bx, by) = (x0 - 1, y0 - 1);
        let mut rows = [0u64; 64];
        for (c, _) in city.iter() {
            let (x, y) = ((c >> 8) - bx, (c & 255) - by);
            rows[y as usize] |= 0b111 << (x - 1);
            rows[y as usize - 1] |= 1 << x;
            rows[y as usize + 1] |= 1 << x;
        }
        let mut n = 0;
        for (r, &row) in rows[..(y1 - y0 + 3) as usize].iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as u16;
                bits &= bits - 1;
                self.keys[n] = (by + r as u16) << 8 | (bx + x);
                n += 1;
            }
        }
        self.len = n;
        true
    }

    /// [`Slots::fill`] by sorting the cells and their neighbours.
    fn fill_by_sorting(&mut self, city: &City) {
        let mut n = 0;
        for (c, _) in city.iter() {
            for q in [c, c.wrapping_sub(1), c.wrapping_add(1), c.wrapping_sub(256), c.wrapping_add(256)] {
                self.keys[n] = q.swap_bytes();
                n += 1;
            }
        }
        let keys = &mut self.keys[..n];
        keys.sort_unstable();
        let mut m = 0;
        for i in 0..n {
            if m == 0 || self.keys[m - 1] != self.keys[i] {
                self.keys[m] = self.keys[i];
                m += 1;
            }
        }
        self.len = m;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The slot of cell `c`, or `None` when it is not one.
    #[inline]
    pub fn index(&self, c: Cell) -> Option<usize> {
        self.keys[..self.len].binary_search(&c.swap_bytes()).ok()
    }

    /// The cell of slot `k`.
    #[inline]
    pub fn cell(&self, k: usize) -> Cell {
        self.keys[k].swap_bytes()
    }
}

/// Where each segment begins ([`NONE`] for a kind the rule set does not have).
#[derive(Clone, Copy, Debug)]
struct Starts {
    pass: u16,
    take: u16,
    buy_via: u16,
    buy_cards: u16,
    build: u16,
    cell: u16,
    remove: u16,
    swap: u16,
    place: u16,
    reserve: u16,
    give: u16,
    reveal: u16,
    hut: u16,
    dia_space: u16,
    dia_cards: u16,
    office: u16,
    decline: u16,
    reactivate: u16,
    viz_via: u16,
    viz_cards: u16,
    gate_build: u16,
    gate_build_tile: u16,
    gate_build_cell: u16,
    gate_build_side: u16,
    gate_finish: u16,
    gate_play: u16,
    gate_play_cell: u16,
    gate_play_side: u16,
    gate_take: u16,
}

/// The action space of one rule set the kernel plays.
#[derive(Clone, Debug)]
pub struct Codec {
    /// cell slots per Alhambra (Python's `max_slots`: 167, 176 with the huts)
    pub slots: usize,
    pub num_actions: usize,
    /// `(name, first integer, size)` per segment, in order (Python's `ActionCodec.layout()`)
    pub segments: Vec<(&'static str, usize, usize)>,
    s: Starts,
    /// per card: its index among the money cards and diamonds (`Buy.cards`), or [`NONE`]
    money: [u16; 256],
    n_money: u16,
    /// per card: its index among the diamonds (`BuyWithDiamonds.cards`), or [`NONE`]
    diamond: [u16; 256],
    n_diamonds: u16,
    /// per exchange office (`card - OFFICE_FIRST`): its index among the cards neither money
    /// nor scoring cards (exchange offices and gate cards, in the rule set's order: Python's
    /// `means_cards`, which both `Buy.space+via` and `TakeOffice.office` count)
    means_of: [u16; 6],
    /// per gate card (`card - GATE_FIRST`): its index among the gate cards
    gate: [u16; 6],
    /// payment means per space: the own currency, then each office
    means: u16,
    /// every take's cards (sorted by canonical rank, a byte each, card + 1) and its index
    takes: Vec<(u32, u16)>,
}

/// The key of a take: its cards sorted by canonical rank, one byte each (card + 1).
fn take_key(cards: &[u8]) -> u32 {
    let mut c = [0u8; DISPLAY_SIZE];
    c[..cards.len()].copy_from_slice(cards);
    let c = &mut c[..cards.len()];
    c.sort_unstable_by_key(|&x| canonical_rank(x));
    c.iter().enumerate().fold(0u32, |v, (k, &x)| v | (x as u32 + 1) << (8 * k))
}

impl Codec {
    /// The codec of the rule set with the modules `mods` (bits of `KERNEL_MODULES`) whose
    /// cards (the rule set's cards without the scoring cards, in its order) are `cards`.
    pub fn new(mods: u8, cards: &[u8]) -> Codec {
        let huts = mods & BUILDING_HUTS != 0;
        let tiles = BUILDINGS + if huts { HUT_TILES } else { 0 };
        let slots = 3 * (1 + BUILDINGS + if huts { MAX_HUTS as usize } else { 0 }) + 2;
        // the money cards, then a module's money (diamonds), each in the rule set's order
        let cash: Vec<u8> = cards
            .iter()
            .copied()
            .filter(|&c| is_money(c))
            .chain(cards.iter().copied().filter(|&c| is_diamond(c)))
            .collect();
        let mut money = [NONE; 256];
        for (k, &c) in cash.iter().enumerate() {
            money[c as usize] = k as u16;
        }
        let mut diamond = [NONE; 256];
        let mut n_diamonds = 0u16;
        for &c in cash.iter().filter(|&&c| is_diamond(c)) {
            diamond[c as usize] = n_diamonds;
            n_diamonds += 1;
        }
        let mut means_of = [NONE; 6];
        let mut n_means = 0u16;
        for &c in cards.iter().filter(|&&c| is_office(c) || is_gate(c)) {
            if is_office(c) {
                means_of[(c - OFFICE_FIRST) as usize] = n_means;
            }
            n_means += 1;
        }
        let mut gate = [NONE; 6];
        let mut n_gates = 0u16;
        for &c in cards.iter().filter(|&&c| is_gate(c)) {
            gate[(c - GATE_FIRST) as usize] = n_gates;
            n_gates += 1;
        }
        // R-TURN-2: each card alone, then every multiset of 2-4 small cards totalling at most
        // the limit (itertools.combinations_with_replacement order)
        let mut takes: Vec<(u32, u16)> = Vec::new();
        for &c in &cash {
            takes.push((take_key(&[c]), takes.len() as u16));
        }
        let small: Vec<u8> = cash.iter().copied().filter(|&c| value(c) < TAKE_LIMIT).collect();
        let m = small.len();
        for k in 2..=DISPLAY_SIZE.min(TAKE_LIMIT as usize) {
            if m == 0 {
                break;
            }
            let mut idx = vec![0usize; k];
            loop {
                let cards: Vec<u8> = idx.iter().map(|&i| small[i]).collect();
                if cards.iter().map(|&c| value(c) as u32).sum::<u32>() <= TAKE_LIMIT as u32 {
                    takes.push((take_key(&cards), takes.len() as u16));
                }
                let Some(i) = (0..k).rev().find(|&i| idx[i] != m - 1) else { break };
                let v = idx[i] + 1;
                for j in idx[i..].iter_mut() {
                    *j = v;
                }
            }
        }
        let n_takes = takes.len();
        takes.sort_unstable();
        let means = 1 + n_means;
        let mut segments: Vec<(&'static str, usize, usize)> = Vec::new();
        let mut at = 0usize;
        let mut seg = |name: &'static str, size: usize| -> u16 {
            segments.push((name, at, size));
            at += size;
            (at - size) as u16
        };
        let pass = seg("Pass", 1);
        let take = seg("TakeMoney.cards", n_takes);
        let buy_via = seg("Buy.space+via", 4 * means as usize);
        let buy_cards = seg("Buy.cards", cash.len() + 1);
        let build = seg("BuildFromReserve.tile", tiles);
        let cell = seg("cell", slots);
        let remove = seg("RemoveToReserve.pos", slots);
        let swap = seg("Swap.tile", tiles);
        let place = seg("Place.tile", tiles);
        let reserve = seg("Reserve.tile", tiles);
        let give = seg("GiveToDirk.tile", tiles);
        let reveal = if mods & BONUS != 0 { seg("RevealBonus.building", BUILDINGS) } else { NONE };
        let hut = if huts { seg("TakeHut.hut", HUT_TILES) } else { NONE };
        // the city gates' kinds by class name (R-GATE-4 … R-GATE-6): a gate card, then a tile,
        // a cell of the mover's Alhambra (its own segment) and a side
        let g = n_gates as usize;
        let gates = mods & GATES != 0;
        let mut gate_seg = |name: &'static str, size: usize| if gates { seg(name, size) } else { NONE };
        let gate_build = gate_seg("BuildThroughGate.card", g);
        let gate_build_tile = gate_seg("BuildThroughGate.tile", tiles);
        let gate_build_cell = gate_seg("BuildThroughGate.x,y", slots);
        let gate_build_side = gate_seg("BuildThroughGate.side", 4);
        let gate_finish = gate_seg("FinishGates", 1);
        let gate_play = gate_seg("PlayGate.card", g);
        let gate_play_cell = gate_seg("PlayGate.x,y", slots);
        let gate_play_side = gate_seg("PlayGate.side", 2);
        let gate_take = gate_seg("TakeGate.card", g);
        let (dia_space, dia_cards) = if mods & DIAMONDS != 0 {
            (seg("BuyWithDiamonds.space", 4), seg("BuyWithDiamonds.cards", n_diamonds as usize + 1))
        } else {
            (NONE, NONE)
        };
        let office_seg = if mods & OFFICES != 0 { seg("TakeOffice.office", n_means as usize) } else { NONE };
        let (decline, reactivate, viz_via, viz_cards) = if mods & VIZIER != 0 {
            (
                seg("DeclineVizier", 1),
                seg("ReactivateVizier", 1),
                seg("UseVizier.space+via", 4 * means as usize),
                seg("UseVizier.cards", cash.len() + 1),
            )
        } else {
            (NONE, NONE, NONE, NONE)
        };
        let s = Starts {
            pass,
            take,
            buy_via,
            buy_cards,
            build,
            cell,
            remove,
            swap,
            place,
            reserve,
            give,
            reveal,
            hut,
            dia_space,
            dia_cards,
            office: office_seg,
            decline,
            reactivate,
            viz_via,
            viz_cards,
            gate_build,
            gate_build_tile,
            gate_build_cell,
            gate_build_side,
            gate_finish,
            gate_play,
            gate_play_cell,
            gate_play_side,
            gate_take,
        };
        Codec {
            slots,
            num_actions: at,
            segments,
            s,
            money,
            n_money: cash.len() as u16,
            diamond,
            n_diamonds,
            means_of,
            gate,
            means,
            takes,
        }
    }

    /// The index of a tile among the tile integers (buildings 1-54, then the huts in layout order).
    #[inline]
    fn tile(t: u8) -> u16 {
        debug_assert!(t >= 1 && (t < HUT_FIRST + HUT_TILES as u8));
        t as u16 - 1
    }

    fn payment(&self, via_start: u16, cards_start: u16, p: &Payment, out: &mut Vec<u16>) -> bool {
        let via = if p.via == 0 { 0 } else { 1 + self.means_of[(p.via - OFFICE_FIRST) as usize] };
        out.push(via_start + (p.space as u16 - 1) * self.means + via);
        let mut cards = crate::stack::Stack::<u8, 64>::new();
        p.cards(&mut cards);
        for &c in cards.iter() {
            let k = self.money[c as usize];
            if k == NONE {
                return false;
            }
            out.push(cards_start + k);
        }
        out.push(cards_start + self.n_money);
        true
    }

    /// The code of a city gates' action (R-GATE-4 … R-GATE-6) appended to `out`.
    fn gate_code(&self, a: &Action, slots: &Slots, out: &mut Vec<u16>) -> Option<()> {
        let s = &self.s;
        let card =
            |c: u8| if is_gate(c) { Some(self.gate[(c - GATE_FIRST) as usize]).filter(|&k| k != NONE) } else { None };
        let slot = |c: Cell| slots.index(c).filter(|&k| k < self.slots).map(|k| k as u16);
        match *a {
            Action::TakeGate { card: c } => out.push(s.gate_take + card(c)?),
            Action::PlayGate { card: c, cell, side } => {
                out.push(s.gate_play + card(c)?);
                out.push(s.gate_play_cell + slot(cell)?);
                out.push(s.gate_play_side + u16::from(side != EAST));
            }
            Action::FinishGates => out.push(s.gate_finish),
            Action::BuildThroughGate { card: c, tile, cell, side } => {
                out.push(s.gate_build + card(c)?);
                out.push(s.gate_build_tile + Self::tile(tile));
                out.push(s.gate_build_cell + slot(cell)?);
                out.push(s.gate_build_side + side.trailing_zeros() as u16);
            }
            _ => return None,
        }
        Some(())
    }

    /// Append the code of `a` to `out`, its cells read as slots of `slots` (the Alhambra of the
    /// player to move); false (with `out` partly written) for an action outside the space.
    pub fn encode(&self, a: &Action, slots: &Slots, out: &mut Vec<u16>) -> bool {
        let s = &self.s;
        let cell = |c: Cell| slots.index(c).filter(|&k| k < self.slots).map(|k| s.cell + k as u16);
        match *a {
            Action::Pass => out.push(s.pass),
            Action::Take { cards, n } => {
                let key = take_key(&cards[..n as usize]);
                match self.takes.binary_search_by_key(&key, |&(k, _)| k) {
                    Ok(i) => out.push(s.take + self.takes[i].1),
                    Err(_) => return false,
                }
            }
            Action::Buy(p) => return self.payment(s.buy_via, s.buy_cards, &p, out),
            Action::UseVizier(p) if s.viz_via != NONE => return self.payment(s.viz_via, s.viz_cards, &p, out),
            Action::UseVizierDiamonds(p) if s.viz_via != NONE => {
                out.push(s.viz_via + (p.space as u16 - 1) * self.means);
                for c in p.cards() {
                    let k = self.money[c as usize];
                    if k == NONE {
                        return false;
                    }
                    out.push(s.viz_cards + k);
                }
                out.push(s.viz_cards + self.n_money);
            }
            Action::BuyDiamonds(p) if s.dia_space != NONE => {
                out.push(s.dia_space + p.space as u16 - 1);
                for c in p.cards() {
                    let k = self.diamond[c as usize];
                    if k == NONE {
                        return false;
                    }
                    out.push(s.dia_cards + k);
                }
                out.push(s.dia_cards + self.n_diamonds);
            }
            Action::Build { tile, cell: c } | Action::Swap { tile, cell: c } | Action::Place { tile, cell: c } => {
                let first = match a {
                    Action::Build { .. } => s.build,
                    Action::Swap { .. } => s.swap,
                    _ => s.place,
                };
                out.push(first + Self::tile(tile));
                match cell(c) {
                    Some(i) => out.push(i),
                    None => return false,
                }
            }
            Action::Remove { cell: c } => match slots.index(c).filter(|&k| k < self.slots) {
                Some(k) => out.push(s.remove + k as u16),
                None => return false,
            },
            Action::Reserve { tile } => out.push(s.reserve + Self::tile(tile)),
            Action::GiveToDirk { tile } => out.push(s.give + Self::tile(tile)),
            Action::TakeOffice { card } if s.office != NONE => {
                out.push(s.office + self.means_of[(card - OFFICE_FIRST) as usize])
            }
            Action::DeclineVizier if s.decline != NONE => out.push(s.decline),
            Action::ReactivateVizier if s.reactivate != NONE => out.push(s.reactivate),
            Action::RevealBonus { building } if s.reveal != NONE => out.push(s.reveal + building as u16 - 1),
            Action::TakeHut { hut } if s.hut != NONE => out.push(s.hut + (hut - HUT_FIRST) as u16),
            Action::TakeGate { .. }
            | Action::PlayGate { .. }
            | Action::FinishGates
            | Action::BuildThroughGate { .. }
                if s.gate_take != NONE =>
            {
                return self.gate_code(a, slots, out).is_some()
            }
            _ => return false,
        }
        true
    }
}

/// The cards of a rule set of the modules `mods` with their default options, without the
/// scoring cards, in the Python rule set's order (what `KernelEnv` is given): the money, the
/// diamonds, the gate cards, the exchange offices.
pub fn default_cards(mods: u8) -> Vec<u8> {
    let mut out: Vec<u8> = (0..36).collect();
    if mods & DIAMONDS != 0 {
        let mut copies = [0u8; 10];
        for v in crate::game::DEFAULT_DIAMONDS {
            copies[v as usize] += 1;
            out.push(crate::data::diamond(v, copies[v as usize]));
        }
    }
    if mods & GATES != 0 {
        out.extend((1..=crate::data::GATE_CARDS).map(crate::data::gate));
    }
    if mods & OFFICES != 0 {
        out.extend(OFFICE_FIRST..OFFICE_FIRST + 6);
    }
    out
}

/// What an integer chosen does ([`Decision::choose`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Choice {
    /// not legal now (nothing changes)
    Illegal,
    /// legal, the action is not complete yet
    More,
    /// the code of the legal action at this index is complete (the prefix is cleared)
    Done(usize),
}

/// The legal actions of one state as codes, and the integers chosen so far (Python's
/// `alhambra.env.codec.Decision`). Its buffers are kept from state to state.
#[derive(Clone, Default)]
pub struct Decision {
    /// every code, one after the other
    ints: Vec<u16>,
    /// per legal action: where its code begins in `ints`, and its length
    spans: Vec<(u32, u32)>,
    prefix: Vec<u16>,
    slots: Slots,
}

impl Decision {
    /// The decision of `game`'s current state, whose legal actions are `legal` (in the kernel's
    /// order); the prefix is cleared. False if an action has no code (never for a game the
    /// kernel plays: the caller reports it).
    pub fn load(&mut self, codec: &Codec, game: &Game, legal: &[Action]) -> bool {
        self.ints.clear();
        self.spans.clear();
        self.prefix.clear();
        let mut ok = true;
        if let Some(seat) = game.current_player() {
            self.slots.fill(&game.players[seat as usize].city);
            for a in legal {
                let start = self.ints.len();
                ok &= codec.encode(a, &self.slots, &mut self.ints);
                self.spans.push((start as u32, (self.ints.len() - start) as u32));
            }
        }
        ok
    }

    /// The integers chosen so far.
    pub fn prefix(&self) -> &[u16] {
        &self.prefix
    }

    /// The number of legal actions.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// The code of the legal action at `i`.
    pub fn code(&self, i: usize) -> &[u16] {
        let (a, n) = self.spans[i];
        &self.ints[a as usize..(a + n) as usize]
    }

    /// The cell slots of the Alhambra of the player to move.
    pub fn slots(&self) -> &Slots {
        &self.slots
    }

    /// Call `f` with the next integer of every code that begins with the prefix (repeats included).
    #[inline]
    pub fn each_next(&self, mut f: impl FnMut(u16)) {
        let k = self.prefix.len();
        for i in 0..self.spans.len() {
            let c = self.code(i);
            if c.len() > k && c[..k] == self.prefix[..] {
                f(c[k]);
            }
        }
    }

    /// Write the mask of the integers legal now into `out` (zeroed first): 1 for each.
    pub fn mask(&self, out: &mut [i8]) {
        out.fill(0);
        self.each_next(|i| out[i as usize] = 1);
    }

    /// The integers legal now, ascending, into `out`.
    pub fn legal_ints(&self, out: &mut Vec<u16>) {
        out.clear();
        self.each_next(|i| out.push(i));
        out.sort_unstable();
        out.dedup();
    }

    /// Take integer `i` (see [`Choice`]).
    pub fn choose(&mut self, i: u16) -> Choice {
        let k = self.prefix.len();
        let mut found = false;
        for a in 0..self.spans.len() {
            let c = self.code(a);
            if c.len() > k && c[k] == i && c[..k] == self.prefix[..] {
                if c.len() == k + 1 {
                    self.prefix.clear();
                    return Choice::Done(a);
                }
                found = true;
            }
        }
        if !found {
            return Choice::Illegal;
        }
        self.prefix.push(i);
        Choice::More
    }

    /// Start the action again (the prefix cleared).
    pub fn clear_prefix(&mut self) {
        self.prefix.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Slots;
    use crate::game::{Game, Options};
    use crate::rng::Mt;

    #[test]
    fn slots_by_rows_are_the_slots_by_sorting() {
        let (mut a, mut b) = (Slots::default(), Slots::default());
        let mut legal = Vec::new();
        for seed in 0..6 {
            let mut g = Game::new(2 + seed as usize % 5, seed, Options::default());
            let mut rng = Mt::from_seed(seed);
            while g.current_player().is_some() {
                for p in 0..g.n as usize {
                    assert!(a.fill_by_rows(&g.players[p].city));
                    b.fill_by_sorting(&g.players[p].city);
                    assert_eq!(a.keys[..a.len], b.keys[..b.len]);
                }
                g.legal(&mut legal);
                g.apply_legal(legal[rng.below(legal.len() as u32) as usize]);
            }
        }
    }
}
