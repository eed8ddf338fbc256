//! The greedy evaluation's part of the city gates (R-GATE-1 … R-GATE-9), as the Python
//! `Evaluator` values it: a gate card in hand is a card that is neither money nor a payment
//! means, worth `held_card` plus `held_card_early` times the share of the game left (its use
//! comes with the placements still to come, R-GATE-5); gates score nothing (R-GATE-8).
//!
//! The gates' actions (TakeGate R-GATE-4, PlayGate and FinishGates R-GATE-5, BuildThroughGate
//! R-GATE-6) are valued as the Python evaluator values a module's action it has no model of
//! (`step_value`): played on a copy of the game, the change of what the seat holds (its
//! Alhambra, reserve and hand, never anything hidden the copy may have drawn); and when the
//! action is a free step that builds nothing (the same seat decides again, in the same phase or
//! in the gates' window, its tiles where they were: a gate played before the removal it opens
//! the way for), the best value among the actions that follow it, valued without a look ahead.

use super::{Eval, Memo, Purse};
use crate::data::{is_diamond, is_money, is_office};
use crate::game::{Action, Phase, Player};

/// Does `card` pay (`_pays`: money, diamonds, an exchange office)?
fn pays(card: u8) -> bool {
    is_money(card) || is_diamond(card) || is_office(card)
}

impl Eval<'_> {
    /// `held_value`: the cards of `hand` that neither pay nor are payment means (gate cards),
    /// each `held_card` plus `held_card_early` times the share of the game left.
    pub(super) fn held_value(&self, hand: &[u8]) -> f64 {
        let n = hand.iter().filter(|&&c| !pays(c)).count();
        if n == 0 {
            return 0.0;
        }
        n as f64 * (self.w.held_card + self.w.held_card_early * self.progress_left)
    }

    /// `holdings_gain`: the change of the seat's holdings value from `before` to `after` (its
    /// Alhambra's majorities and walls, its reserve, its money and other cards), working out
    /// only the parts that differ. Gates change no majority and no wall (R-GATE-8: a gate lies
    /// on a double wall, never an outer one): an Alhambra with the same tiles is the same.
    fn holdings_gain(&mut self, before: &Player, after: &Player) -> f64 {
        let mut v = 0.0;
        if !after.city.iter().eq(before.city.iter()) {
            v += self.city_value(&after.city) - self.city_value(&before.city);
        }
        if after.reserve.as_slice() != before.reserve.as_slice() {
            let mut now = 0.0;
            for &t in after.reserve.iter() {
                now += self.reserve_value(t);
            }
            v += now;
            let mut was = 0.0;
            for &t in before.reserve.iter() {
                was += self.reserve_value(t);
            }
            v -= was;
        }
        let (a, b) = (after.hand.as_slice(), before.hand.as_slice());
        if a != b {
            v += self.held_value(a) - self.held_value(b);
            if !a.iter().filter(|&&c| pays(c)).eq(b.iter().filter(|&&c| pays(c))) {
                v += self.money_value(&Purse::of(a), 0) - self.money_value(&Purse::of(b), 0);
            }
        }
        v
    }

    /// `step_value`: the gain of `action` (listed now) played on a copy of the game, plus, with
    /// `lookahead`, when the seat decides again after it in the same phase or in the gates'
    /// window (R-GATE-5) with the same tiles waiting, in its Alhambra and in its reserve, the
    /// best value of the actions that follow (valued without a look ahead).
    pub(super) fn step_value(&mut self, action: Action, lookahead: bool) -> f64 {
        let g = self.g;
        let seat = self.seat;
        let mut copy = *g;
        copy.apply_legal(action);
        let (before, after) = (&g.players[seat], &copy.players[seat]);
        let mut v = self.holdings_gain(before, after);
        if lookahead
            && !copy.is_over()
            && copy.decider == Some(seat as u8)
            && (copy.phase == g.phase || copy.phase == Phase::Gates)
            && copy.pending.len() == g.pending.len()
            && after.city.len() == before.city.len()
            && after.reserve.as_slice() == before.reserve.as_slice()
        {
            let mut legal = Vec::new();
            copy.legal(&mut legal);
            if !legal.is_empty() {
                let mut memo = Memo::default();
                let mut vals = Vec::with_capacity(legal.len());
                Eval::new(&copy, seat, self.w, &mut memo).action_values(&legal, &mut vals, false);
                let mut best = vals[0];
                for &x in &vals[1..] {
                    if x > best {
                        best = x;
                    }
                }
                v += best;
            }
        }
        v
    }
}
