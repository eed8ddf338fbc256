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

#[cfg(test)]
mod tests {
    use super::super::{action_values, seat_value, Eval, Memo, Weights};
    use crate::city::{cell_of, Cell};
    use crate::data::{gate, money, SOUTH, WEST};
    use crate::game::{Action, Game, Options, Phase, GATES};
    use crate::gates::Window;
    use crate::stack::Stack;

    /// Tiles by their walls (R-COMP-2): none, north, east, south, west.
    const OPEN: u8 = 7;
    const NORTH_WALL: u8 = 5;
    const EAST_WALL: u8 = 6;
    const SOUTH_WALL: u8 = 13;
    const WEST_WALL: u8 = 12;

    fn cell(x: i32, y: i32) -> Cell {
        cell_of(x, y).unwrap()
    }

    /// Seat 0 at the start of its turn with the city gates, `hand`, the tiles `city` (besides
    /// the fountain) and `reserve`; half of the bag left (the share of the game left: 0.5).
    fn table(hand: &[u8], city: &[(i32, i32, u8)], reserve: &[u8]) -> Game {
        let mut g = Game::with_modules(3, 1, Options::default(), GATES);
        g.players[0].hand = Stack::from_slice(hand);
        g.display = Stack::from_slice(&[money(0, 2), money(1, 3), money(2, 4), money(3, 5)]);
        g.turn_player = 0;
        g.decider = Some(0);
        for &(x, y, t) in city {
            g.players[0].city.place(t, cell(x, y));
        }
        g.players[0].reserve = Stack::from_slice(reserve);
        g.bag = Stack::from_slice(&g.bag.as_slice()[..25]);
        g
    }

    fn values(g: &mut Game) -> (Vec<Action>, Vec<f64>) {
        let mut legal = Vec::new();
        g.legal(&mut legal);
        let mut out = Vec::new();
        action_values(g, &Weights::default(), &legal, &mut Memo::default(), &mut out);
        (legal, out)
    }

    /// `held_value` of `n` gate cards with half of the game left (default weights).
    fn held(n: usize) -> f64 {
        if n == 0 {
            0.0
        } else {
            n as f64 * (0.2 + 3.0 * 0.5)
        }
    }

    #[test]
    fn r_gate_4_taking_the_waiting_gate_card_is_worth_a_held_card() {
        let mut g = table(&[], &[], &[]);
        g.gates.space = 2;
        let (legal, vals) = values(&mut g);
        let k = legal.iter().position(|a| *a == Action::TakeGate { card: gate(2) }).expect("listed");
        // R-GATE-8: no money; the turn ends, so nothing follows for the seat
        assert_eq!(vals[k], held(1) - held(0));
    }

    #[test]
    fn r_gate_5_in_the_window_a_gate_costs_a_held_card_and_no_more_gates_is_worth_nothing() {
        let mut g = table(&[gate(1), gate(2)], &[(0, 1, OPEN), (1, 0, SOUTH_WALL)], &[NORTH_WALL]);
        g.apply_legal(Action::Build { tile: NORTH_WALL, cell: cell(1, 1) });
        assert_eq!((g.phase, g.gates.window), (Phase::Gates, Window::Change));
        let (legal, vals) = values(&mut g);
        assert_eq!(legal, vec![Action::PlayGate { card: gate(1), cell: cell(1, 0), side: SOUTH }, Action::FinishGates]);
        // the gate changes no majority and no wall (R-GATE-8); the window then closes
        assert_eq!(vals, vec![held(1) - held(2), 0.0]);
    }

    #[test]
    fn r_gate_5_ruling_a_gate_before_a_removal_is_worth_the_best_removal_it_opens() {
        let mut g = table(&[gate(6)], &[(0, 1, OPEN), (1, 0, SOUTH_WALL), (1, 1, NORTH_WALL)], &[]);
        let play = Action::PlayGate { card: gate(6), cell: cell(1, 0), side: SOUTH };
        let (legal, vals) = values(&mut g);
        let k = legal.iter().position(|a| *a == play).expect("listed");
        // the same seat decides again, committed to a removal (a free step that builds
        // nothing): the best of the removals in the window is added to the card it costs
        let mut after = g;
        after.apply_legal(play);
        assert_eq!((after.phase, after.gates.window), (Phase::Gates, Window::Removal));
        let (next, next_vals) = values(&mut after);
        assert_eq!(next, vec![Action::Remove { cell: cell(0, 1) }]);
        assert_eq!(vals[k], (held(0) - held(1)) + next_vals[0]);
        let w = Weights::default();
        let mut memo = Memo::default();
        let e = Eval::new(&after, 0, &w, &mut memo);
        assert_eq!(next_vals[0], e.redesign_value(cell(0, 1), None) - w.redesign);
    }

    #[test]
    fn r_gate_6_a_build_through_a_gate_is_worth_the_tile_in_the_alhambra_less_a_held_card() {
        let mut g = table(&[gate(4)], &[(1, 0, EAST_WALL)], &[WEST_WALL]);
        let build = Action::BuildThroughGate { card: gate(4), tile: WEST_WALL, cell: cell(2, 0), side: WEST };
        let (legal, vals) = values(&mut g);
        let k = legal.iter().position(|a| *a == build).expect("listed");
        let w = Weights::default();
        let mut memo = Memo::default();
        let e = Eval::new(&g, 0, &w, &mut memo);
        let mut city = g.players[0].city;
        city.place(WEST_WALL, cell(2, 0));
        city.open_side(cell(2, 0), WEST);
        let mut v = 0.0;
        v += e.city_value(&city) - e.city_value(&g.players[0].city);
        v -= e.reserve_value(WEST_WALL); // the reserve it leaves (none is left after it)
        v += held(0) - held(1);
        assert_eq!(vals[k], v);
    }

    #[test]
    fn r_end_1_greedy_players_play_whole_games_with_every_module() {
        use crate::game::KERNEL_MODULES;
        use crate::rng::Mt;
        for (n, seed) in [(2, 1), (3, 2), (5, 3)] {
            let mut g = Game::with_modules(n, seed, Options::default(), KERNEL_MODULES);
            let (w, mut memo, mut rng) = (Weights::default(), Memo::default(), Mt::from_seed(seed));
            let mut legal = Vec::new();
            let mut steps = 0;
            while g.current_player().is_some() && steps < 5000 {
                g.legal(&mut legal);
                let k = super::super::choose(&g, &w, 0.5, &mut rng, &legal, &mut memo);
                g.apply_legal(legal[k]);
                steps += 1;
            }
            assert!(g.is_over(), "{n} players, seed {seed}: over after {steps} actions");
        }
    }

    #[test]
    fn r_gate_1_a_gate_card_in_hand_is_part_of_a_seats_value() {
        let with = table(&[gate(1), money(0, 3)], &[], &[]);
        let without = table(&[money(0, 3)], &[], &[]);
        let w = Weights::default();
        let mut memo = Memo::default();
        let d = seat_value(&with, 0, &w, &mut memo) - seat_value(&without, 0, &w, &mut memo);
        assert!((d - held(1)).abs() < 1e-9, "{d}");
    }
}
