//! What every seat did in a game: the result record's `tallies`, counted while the kernel
//! plays, as the Python engine's `alhambra.lab.tally` counts them from a game's history and its
//! trace (who decided each action, in which phase and scoring period, and which pending tiles
//! it took). The Python code is the reference; the suite compares the records of the two
//! engines game by game.
//!
//! Per seat: the buildings it bought by type and scoring period (before the first scoring,
//! between the first and the second, after the second), those it received in the end-of-game
//! distribution (R-END-2), the money it took (R-TURN-2) and spent, its purchases and how many of
//! them were exact payments that earned another action (R-TURN-4), and its actions by type.

use crate::data::*;
use crate::game::{Action, Context, Game, Phase, MAX_PLAYERS};
use crate::stack::Stack;

/// The scoring periods of `bought`.
pub const PERIODS: usize = 3;

/// The Python engine's action classes, by the kernel's action kind (`Action::code() >> 59`).
pub const KIND_NAMES: [&str; 22] = [
    "",
    "TakeMoney",
    "Buy",
    "BuildFromReserve",
    "RemoveToReserve",
    "Swap",
    "Place",
    "Reserve",
    "GiveToDirk",
    "Pass",
    "TakeOffice",
    "UseVizier",
    "DeclineVizier",
    "ReactivateVizier",
    "BuyWithDiamonds",
    "UseVizier",
    "RevealBonus",
    "TakeHut",
    "TakeGate",
    "PlayGate",
    "FinishGates",
    "BuildThroughGate",
];

/// The number of action kinds.
pub const KINDS: usize = KIND_NAMES.len();

/// One seat's tally.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct SeatTally {
    pub bought: [[u16; TYPES]; PERIODS],
    pub received: [u16; TYPES],
    pub money_taken: u32,
    pub money_spent: u32,
    pub purchases: u32,
    pub exact: u32,
    /// actions by kind (`KIND_NAMES`)
    pub actions: [u32; KINDS],
}

/// The tallies of a game being played: call [`Tally::before`] with the game just before each
/// action is applied and [`Tally::after`] just after.
#[derive(Clone, Copy, Debug)]
pub struct Tally {
    pub seats: [SeatTally; MAX_PLAYERS],
    /// all actions by kind, whoever decided them
    pub kinds: [u32; KINDS],
    /// the distribution at the end of the game (R-END-2) has begun
    ended: bool,
    /// the seat, phase and scoring period of the action being applied
    seat: Option<u8>,
    period: usize,
    /// the pending tiles before it
    pending: Stack<u8, 16>,
    /// the seat of the previous action, when it was a purchase in a turn (an exact payment if
    /// the same seat acts next in the turn)
    purchase_by: Option<u8>,
    /// the action kinds in the order they were first played
    pub first_seen: Stack<u8, KINDS>,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            seats: [SeatTally::default(); MAX_PLAYERS],
            kinds: [0; KINDS],
            ended: false,
            seat: None,
            period: 0,
            pending: Stack::new(),
            purchase_by: None,
            first_seen: Stack::new(),
        }
    }
}

/// 1 for money taken, 2 for a purchase (cards paid for a building on a market space), else 0;
/// and the value of the cards.
fn money_moved(a: &Action) -> (u8, u32) {
    let sum = |cards: &[u8]| cards.iter().filter(|&&c| is_cash(c)).map(|&c| value(c) as u32).sum::<u32>();
    match a {
        Action::Take { cards, n } => (1, sum(&cards[..*n as usize])),
        Action::Buy(p) | Action::UseVizier(p) => (2, p.total()),
        Action::BuyDiamonds(p) | Action::UseVizierDiamonds(p) => (2, p.total()),
        _ => (0, 0),
    }
}

impl Tally {
    /// Note who decides `a` in `g` (the game before it), in which phase and period.
    pub fn before(&mut self, g: &Game, a: &Action) {
        let seat = g.decider;
        if let (Some(by), Some(s)) = (self.purchase_by.take(), seat) {
            if by == s && g.phase == Phase::Turn {
                self.seats[s as usize].exact += 1;
            }
        }
        if g.phase == Phase::Distribution || g.place_context == Context::Distribution {
            self.ended = true;
        }
        self.seat = seat;
        self.period = (g.scorings.len()).min(PERIODS - 1);
        self.pending.clear();
        for &(tile, _) in g.pending.iter() {
            self.pending.push(tile);
        }
        let kind = (a.code() >> 59) as usize;
        if self.kinds[kind] == 0 {
            self.first_seen.push(kind as u8);
        }
        self.kinds[kind] += 1;
        let Some(s) = seat else { return };
        let t = &mut self.seats[s as usize];
        t.actions[kind] += 1;
        match money_moved(a) {
            (1, v) => t.money_taken += v,
            (2, v) => {
                t.money_spent += v;
                t.purchases += 1;
                if g.phase == Phase::Turn {
                    self.purchase_by = Some(s);
                }
            }
            _ => {}
        }
    }

    /// Note the pending tiles the action just applied to `g` took (built, reserved or given to
    /// Dirk): the buildings bought, or received at the end.
    pub fn after(&mut self, g: &Game) {
        let Some(s) = self.seat else { return };
        for &tile in self.pending.iter() {
            if g.pending.iter().any(|&(t, _)| t == tile) || !(1..=BUILDINGS as u8).contains(&tile) {
                continue;
            }
            let ty = TILE_TYPE[tile as usize] as usize;
            let t = &mut self.seats[s as usize];
            if self.ended {
                t.received[ty] += 1;
            } else {
                t.bought[self.period][ty] += 1;
            }
        }
    }
}
