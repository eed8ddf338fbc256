//! The module "city gates" (Die Tore der Stadt, R-GATE-1 … R-GATE-9), as the Python module
//! `alhambra_city_gates` plays it.
//!
//! Gate cards (one per player, two with two players, or `city_gates.cards`, R-GATE-1) are
//! dealt into money piles 3, 4 and 5 (R-GATE-2); one drawn for the money display waits on the
//! gate space, or goes to the discard pile while another waits there (R-GATE-3); a player
//! takes it instead of money ([`Action::TakeGate`], R-GATE-4, R-GATE-9).
//!
//! Gates come with a change of the player's own Alhambra (R-GATE-5): after every placement,
//! build, removal, swap or build through a gate, a seat holding a gate card whose Alhambra has
//! a double wall gets a window, phase [`Phase::Gates`]: [`Action::PlayGate`] on any double
//! wall, then [`Action::FinishGates`] (the window closes by itself once no gate can be played).
//! A tile that reaches the Alhambra only across double walls is built with its gate at once
//! ([`Action::BuildThroughGate`]); a removal R-TURN-6 forbids is opened by gates played on a
//! turn before it ([`removal_gates`]), which commits the player to a removal (window
//! "removal"). A gated side is open for walking (R-GATE-6) and holds its two tiles in place
//! (R-GATE-7): the Alhambra keeps its gates ([`City::gates`]) and judges with them.

use crate::city::{Cell, City, MAX_TILES, ORIGIN, STEPS};
use crate::data::{gate, is_gate, EAST, GATE_CARDS, GATE_FIRST, NORTH, SOUTH, WEST};
use crate::game::{Action, Game, Next, Phase};
use crate::stack::Stack;

/// R-GATE-2: the piles (0-based: piles 3, 4 and 5) the gate cards are dealt to, in turn.
pub const GATE_PILES: [usize; 3] = [2, 3, 4];

/// The window for gates (R-GATE-5): none, after a change of the Alhambra, or before the
/// removal gates played on a turn open the way for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Window {
    #[default]
    None,
    Change,
    Removal,
}

impl Window {
    pub fn name(self) -> &'static str {
        match self {
            Window::None => "",
            Window::Change => "change",
            Window::Removal => "removal",
        }
    }
}

/// What follows a window after a change (the module's `then`): nothing (no window), the end
/// of the turn's actions (`"done"`), or a seat deciding in a phase again.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum After {
    #[default]
    Nothing,
    Done,
    In(Phase),
}

impl After {
    pub fn name(self) -> &'static str {
        match self {
            After::Nothing => "",
            After::Done => "done",
            After::In(p) => p.name(),
        }
    }
}

/// The city gates' state besides the Alhambras' gates, as the module's `CityGatesState`:
/// the number of the card on the gate space (0: none), the numbers of the cards played (in
/// order) and of those this game does not use (sorted), the window and what follows it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GatesState {
    pub space: u8,
    pub played: Stack<u8, 6>,
    pub unused: Stack<u8, 6>,
    pub window: Window,
    pub then: After,
}

/// The first gate card of `hand` (gate cards are all alike: the listed actions spend it).
fn first_gate(hand: &[u8]) -> Option<u8> {
    hand.iter().copied().find(|&c| is_gate(c))
}

#[inline]
fn beyond(c: Cell, side: u8) -> Cell {
    if side == EAST {
        c + 256
    } else {
        c + 1
    }
}

/// R-GATE-5, R-GATE-6: the double walls of `city` on which a gate opens the way for a removal
/// that R-TURN-6 forbids now, sorted, as the module's `removal_gates` finds them: for some
/// tile that is not removable now, held by no gate and whose removal leaves no hole, the
/// Alhambra without it falls into parts (on foot, gates open); when at most `cards` gates can
/// join them, every double wall between two parts (not on that tile) is one of those gates.
pub fn removal_gates(city: &mut City, cards: u8, out: &mut impl FnMut(Cell, u8)) {
    let mut walls: Stack<(Cell, u8), 128> = Stack::new();
    city.double_walls(&mut |c, s| walls.push((c, s)));
    if walls.is_empty() || cards == 0 {
        return;
    }
    let now: Stack<Cell, MAX_TILES> = Stack::from_slice(city.removable());
    let mut cells: Stack<Cell, MAX_TILES> = Stack::new();
    let mut links = [0u8; MAX_TILES];
    for (i, (c, t)) in city.iter().enumerate() {
        cells.push(c);
        links[i] = !city.walls(t) | city.open_mask(c);
    }
    let index = |c: Cell| cells.as_slice().binary_search(&c).ok();
    let mut chosen = [false; 128];
    for i in 0..cells.len() {
        let c = cells[i];
        if c == ORIGIN || now.contains(c) || city.is_held(c) || city.hole_after_removing(c) {
            continue;
        }
        // the parts one reaches on foot without the tile at c (the fountain's first)
        let mut label = [u8::MAX; MAX_TILES];
        let mut parts = 0u8;
        let origin = index(ORIGIN).expect("the fountain");
        let starts = std::iter::once(origin).chain(0..cells.len());
        let mut todo: Stack<u8, MAX_TILES> = Stack::new();
        for start in starts {
            if start == i || label[start] != u8::MAX {
                continue;
            }
            label[start] = parts;
            todo.push(start as u8);
            while let Some(k) = todo.pop() {
                let k = k as usize;
                for &(s, side, _) in STEPS.iter() {
                    if links[k] & side == 0 {
                        continue;
                    }
                    if let Some(j) = index((cells[k] as i32 + s) as Cell) {
                        if j != i && label[j] == u8::MAX {
                            label[j] = parts;
                            todo.push(j as u8);
                        }
                    }
                }
            }
            parts += 1;
        }
        if parts == 1 || parts - 1 > cards {
            continue;
        }
        // the double walls between two parts (not on that tile) and whether they join them all
        let mut root = [0u8; MAX_TILES];
        for (k, r) in root.iter_mut().enumerate().take(parts as usize) {
            *r = k as u8;
        }
        let find = |root: &mut [u8; MAX_TILES], mut a: u8| {
            while root[a as usize] != a {
                root[a as usize] = root[root[a as usize] as usize];
                a = root[a as usize];
            }
            a
        };
        let mut joins: Stack<u8, 128> = Stack::new();
        let mut joined = 0u8;
        for (k, &(g, side)) in walls.iter().enumerate() {
            let h = beyond(g, side);
            if g == c || h == c {
                continue;
            }
            let (Some(a), Some(b)) = (index(g), index(h)) else { continue };
            let (la, lb) = (label[a], label[b]);
            if la == lb {
                continue;
            }
            joins.push(k as u8);
            let (ra, rb) = (find(&mut root, la), find(&mut root, lb));
            if ra != rb {
                root[ra as usize] = rb;
                joined += 1;
            }
        }
        if joined == parts - 1 {
            // with those gates in place the removal is legal (R-GATE-6): every part joined
            for &k in joins.iter() {
                chosen[k as usize] = true;
            }
        }
    }
    for (k, &(g, side)) in walls.iter().enumerate() {
        if chosen[k] {
            out(g, side);
        }
    }
}

impl Game {
    /// R-GATE-1: how many gate cards this game uses (the option, else one per player, two
    /// with two players).
    pub fn gate_count(&self) -> u8 {
        if self.opts.gate_cards != 0 {
            self.opts.gate_cards
        } else {
            self.n.clamp(2, GATE_CARDS)
        }
    }

    /// R-GATE-1, R-GATE-2 (at R-SET-6, after the scoring cards): the gate cards used, shuffled,
    /// each into piles 3, 4 and 5 in turn at a random depth; the others set aside.
    pub(crate) fn deal_gates<const N: usize>(&mut self, piles: &mut [Stack<u8, N>; 5]) {
        let used = self.gate_count();
        let mut cards: Stack<u8, 6> = Stack::new();
        for k in 1..=used {
            cards.push(gate(k));
        }
        self.rng.shuffle(cards.as_mut_slice());
        for (k, &card) in cards.iter().enumerate() {
            let pile = &mut piles[GATE_PILES[k % GATE_PILES.len()]];
            let at = self.rng.below(pile.len() as u32 + 1) as usize;
            pile.insert(at, card);
        }
        self.gates.unused.clear();
        for k in used + 1..=GATE_CARDS {
            self.gates.unused.push(k);
        }
    }

    /// R-GATE-3: a gate card drawn for the money display goes to the gate space, or to the
    /// discard pile while another waits there (another card is drawn either way).
    pub(crate) fn gate_drawn(&mut self, card: u8) {
        if self.gates.space != 0 {
            self.discard.push(card);
        } else {
            self.gates.space = card - GATE_FIRST + 1;
        }
    }

    /// R-GATE-5: `s` holds a gate card and its Alhambra has a double wall without a gate.
    pub fn can_play_gate(&self, s: usize) -> bool {
        first_gate(self.players[s].hand.as_slice()).is_some() && self.players[s].city.has_double_wall()
    }

    /// The city gates' actions on a turn, in the Python engine's order: the waiting gate card
    /// (R-GATE-4), the gates that open the way for a removal (R-GATE-5 ruling), the builds from
    /// the reserve through a gate (R-GATE-6).
    pub(crate) fn legal_gates_turn(&mut self, s: usize, out: &mut Vec<Action>) {
        if self.gates.space != 0 {
            out.push(Action::TakeGate { card: gate(self.gates.space) });
        }
        let hand = &self.players[s].hand;
        let Some(card) = first_gate(hand.as_slice()) else { return };
        let count = hand.iter().filter(|&&c| is_gate(c)).count() as u8;
        removal_gates(&mut self.players[s].city, count, &mut |cell, side| {
            out.push(Action::PlayGate { card, cell, side })
        });
        let reserve = self.players[s].reserve;
        self.legal_through_gate(s, card, reserve.as_slice(), out);
    }

    /// R-GATE-5, R-GATE-6: the tiles waiting to be placed, built through a gate.
    pub(crate) fn legal_gates_place(&mut self, s: usize, out: &mut Vec<Action>) {
        let Some(card) = first_gate(self.players[s].hand.as_slice()) else { return };
        let mut tiles: Stack<u8, 16> = Stack::new();
        for &(t, _) in self.pending.iter() {
            if !tiles.contains(t) {
                tiles.push(t);
            }
        }
        self.legal_through_gate(s, card, tiles.as_slice(), out);
    }

    /// For each of `tiles` and each frontier cell it could reach only across double walls,
    /// one [`Action::BuildThroughGate`] per such wall (north, east, south, west).
    fn legal_through_gate(&mut self, s: usize, card: u8, tiles: &[u8], out: &mut Vec<Action>) {
        let city = &mut self.players[s].city;
        for &tile in tiles {
            let mut cells: Stack<Cell, 160> = Stack::new();
            city.walled_off_cells(city.walls(tile), &mut |q| cells.push(q));
            for &q in cells.iter() {
                let near = city.sides_with_tiles(q);
                for side in [NORTH, EAST, SOUTH, WEST] {
                    if near & side != 0 {
                        out.push(Action::BuildThroughGate { card, tile, cell: q, side });
                    }
                }
            }
        }
    }

    /// Phase [`Phase::Gates`]: after a change, a gate on each double wall, then none more;
    /// committed to a removal, more gates that open its way, then the removals (R-GATE-5).
    pub(crate) fn legal_gates_window(&mut self, s: usize, out: &mut Vec<Action>) {
        let hand = &self.players[s].hand;
        let card = first_gate(hand.as_slice());
        let count = hand.iter().filter(|&&c| is_gate(c)).count() as u8;
        let city = &mut self.players[s].city;
        match self.gates.window {
            Window::Change => {
                if let Some(card) = card {
                    city.double_walls(&mut |cell, side| out.push(Action::PlayGate { card, cell, side }));
                }
                out.push(Action::FinishGates);
            }
            Window::Removal => {
                if let Some(card) = card {
                    removal_gates(city, count, &mut |cell, side| out.push(Action::PlayGate { card, cell, side }));
                }
                for &c in city.removable() {
                    out.push(Action::Remove { cell: c });
                }
            }
            Window::None => {}
        }
    }

    /// Carry out a city gates action of `seat` (listed now); what comes next.
    pub(crate) fn apply_gate(&mut self, seat: u8, action: Action) -> Next {
        let s = seat as usize;
        match action {
            Action::TakeGate { card } => {
                // R-GATE-4: the whole action
                self.gates.space = 0;
                self.players[s].hand.push(card);
                Next::ActionDone(false)
            }
            Action::PlayGate { card, cell, side } => {
                self.play_gate(s, card, cell, side);
                if self.phase != Phase::Gates {
                    // on a turn, before the removal it opens the way for (R-GATE-5 ruling)
                    self.gates.window = Window::Removal;
                    self.gates.then = After::Nothing;
                    return Next::Decide(seat, Phase::Gates);
                }
                if self.gates.window == Window::Change && !self.can_play_gate(s) {
                    return self.close_gates(seat);
                }
                Next::Same
            }
            Action::FinishGates => self.close_gates(seat),
            Action::BuildThroughGate { card, tile, cell, side } => {
                let turn = self.phase != Phase::Place;
                let p = &mut self.players[s];
                p.city.place(tile, cell);
                if turn {
                    p.reserve.remove_first(tile);
                } else {
                    let i = self.pending.iter().position(|q| q.0 == tile).expect("the tile is pending");
                    self.pending.remove(i);
                }
                self.play_gate(s, card, cell, side);
                if turn {
                    Next::ActionDone(false)
                } else {
                    Next::Same
                }
            }
            _ => unreachable!("not a city gates action"),
        }
    }

    /// R-GATE-5: the gate on `side` of `cell` (a side open for walking from now on, R-GATE-6),
    /// the card out of the game.
    fn play_gate(&mut self, s: usize, card: u8, cell: Cell, side: u8) {
        let p = &mut self.players[s];
        p.hand.remove_first(card);
        let opened = p.city.open_side(cell, side);
        debug_assert!(opened, "a gate per gate card");
        self.gates.played.push(card - GATE_FIRST + 1);
    }

    /// The window closes: the game goes on as the change left it.
    fn close_gates(&mut self, seat: u8) -> Next {
        let then = self.gates.then;
        self.gates.window = Window::None;
        self.gates.then = After::Nothing;
        match then {
            After::In(phase) => Next::Decide(seat, phase),
            _ => Next::ActionDone(false),
        }
    }

    /// `seat`'s Alhambra has just changed and the action answered `nxt`: a removal gates were
    /// played for meets that commitment; if a gate can be played now, the window opens and
    /// keeps what comes next for its end (R-GATE-5); otherwise `nxt` itself.
    pub(crate) fn after_change(&mut self, seat: u8, nxt: Next) -> Next {
        if self.gates.window != Window::None {
            self.gates.window = Window::None;
            self.gates.then = After::Nothing;
        }
        let then = match nxt {
            Next::Same => After::In(self.phase),
            Next::ActionDone(true) => After::In(Phase::Turn),
            Next::ActionDone(false) => After::Done,
            other => return other,
        };
        if then == After::In(Phase::Gates) || !self.can_play_gate(seat as usize) {
            return nxt;
        }
        self.gates.window = Window::Change;
        self.gates.then = then;
        Next::Decide(seat, Phase::Gates)
    }
}

/// True for the actions that change the deciding seat's own Alhambra (R-GATE-5: a window for
/// gates may follow them).
pub fn changes_city(action: &Action) -> bool {
    matches!(
        action,
        Action::Place { .. }
            | Action::Build { .. }
            | Action::Remove { .. }
            | Action::Swap { .. }
            | Action::BuildThroughGate { .. }
    )
}

/// A gate's side and cell as kept (`EAST` or `SOUTH` of the cell west or north of it), for
/// `side` of cell `c`; `None` for no side.
pub fn canonical(c: Cell, side: u8) -> Option<(Cell, u8)> {
    match side {
        EAST | SOUTH => Some((c, side)),
        WEST => Some((c.checked_sub(256)?, EAST)),
        NORTH => Some((c.checked_sub(1)?, SOUTH)),
        _ => None,
    }
}
