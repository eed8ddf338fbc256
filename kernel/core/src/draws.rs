//! Draws decided from outside (`alhambra.env.chance` in Python, for OpenSpiel's explicit chance
//! nodes): an action played by [`play_scripted`] has each draw from a hidden pile decided by a
//! script of outcomes, in the order the draws happen, instead of by the pile's hidden order.
//!
//! Before each draw the game asks [`before_draw`] (nothing to do unless a script is playing):
//! the script's next outcome is moved to the drawn position (the top of the pile) by swaps
//! within the hidden part, exactly as the Python script arranges it (in the deck never out of a
//! card's setup pile, R-SET-6), and then drawn. At the first draw beyond the script the script
//! records the draw's distribution, as the Python one computes it, and stops (the rest of the
//! action is played on without deciding anything: its game is thrown away); a draw with one
//! possible outcome is no chance event and is recorded without stopping.
//!
//! The sources: [`BAG`] (each building left equally likely, R-SET-1), [`DECK`] (scoring cards and
//! declared groups, the exchange offices and the gate cards, lie uniformly within the undrawn part
//! of their setup pile, R-SET-6, R-EXC-1; money, diamonds included, R-DIA-2, takes the rest, each
//! money card of the deck equally likely) and `HUTS + t` (the hut turned up on the stack of type
//! `t` when its face-up hut is taken, R-HUT-2: each hut left in the stack equally likely).

use crate::data::{is_diamond, is_gate, is_money, is_office, SCORING_A, SCORING_B};
use crate::game::{Action, Game};
use std::cell::RefCell;

/// The bag (R-SET-1).
pub const BAG: u8 = 0;
/// The money deck (R-SET-6; after a reshuffle of the discard pile, R-TURN-8).
pub const DECK: u8 = 1;
/// The building huts' stack of type `t` is `HUTS + t` (R-HUT-1).
pub const HUTS: u8 = 2;

/// The outcomes of one action's draws and, once played, what the action met beyond them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    /// `(source, item)` per draw, in order: the outcomes given, then the forced draws met
    pub outcomes: Vec<(u8, u8)>,
    used: usize,
    /// the first draw beyond the outcomes with more than one possible outcome: its source and
    /// `(item, probability)` per outcome (at least two, summing to 1)
    pub chance: Option<(u8, Vec<(u8, f64)>)>,
    /// why an outcome given cannot be drawn where the action draws it
    pub error: Option<String>,
}

thread_local! {
    static SCRIPT: RefCell<Option<Script>> = const { RefCell::new(None) };
}

/// Play `action` (legal in `g`) on `g` with its draws decided by `outcomes` (see the module
/// documentation); returns the script after the play. Unless it has a `chance` or an `error`,
/// `g` has played the action with every draw decided; otherwise `g` is to be thrown away.
pub fn play_scripted(g: &mut Game, action: Action, outcomes: Vec<(u8, u8)>) -> Script {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            SCRIPT.with(|s| *s.borrow_mut() = None); // also when the play panics
        }
    }
    SCRIPT.with(|s| *s.borrow_mut() = Some(Script { outcomes, ..Script::default() }));
    let _clear = Clear;
    g.apply_legal(action);
    SCRIPT.with(|s| s.borrow_mut().take()).unwrap_or_default()
}

/// Called by the game before it draws the top of the (non-empty) pile `source`.
#[inline]
pub(crate) fn before_draw(g: &mut Game, source: u8) {
    SCRIPT.with(|s| {
        if let Some(script) = s.borrow_mut().as_mut() {
            script.decide(g, source);
        }
    });
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Money,
    Scoring(u8),
    Offices,
    Gates,
    Fixed,
}

/// A deck card's group (Python's `Script._kind`).
fn kind(c: u8) -> Kind {
    if is_money(c) || is_diamond(c) {
        Kind::Money
    } else if c == SCORING_A || c == SCORING_B {
        Kind::Scoring(c)
    } else if is_office(c) {
        Kind::Offices
    } else if is_gate(c) {
        Kind::Gates
    } else {
        Kind::Fixed
    }
}

/// The deck positions `lo..hi` among which the card at `index` may lie (the engine's
/// `pile_range`): the undrawn part of its setup pile, or the position alone without a record.
fn pile_range(g: &Game, index: usize) -> (usize, usize) {
    let n = g.deck.len();
    let sizes = g.pile_sizes.as_slice();
    let mut hi: usize = sizes.iter().map(|&s| s as usize).sum();
    if sizes.is_empty() || hi < n {
        return (index, index + 1);
    }
    for &s in sizes {
        let lo = hi - s as usize;
        if lo <= index && index < hi {
            return (lo, hi.min(n));
        }
        hi = lo;
    }
    (index, index + 1)
}

/// The positions of the deck's top card's range that hold a card some group resamples.
fn slots(g: &Game) -> Vec<usize> {
    let deck = g.deck.as_slice();
    let (lo, hi) = pile_range(g, deck.len() - 1);
    (lo..hi).filter(|&j| kind(deck[j]) != Kind::Fixed).collect()
}

/// Counts by first appearance.
fn tally<T: PartialEq + Copy>(out: &mut Vec<(T, usize)>, x: T) {
    match out.iter_mut().find(|e| e.0 == x) {
        Some(e) => e.1 += 1,
        None => out.push((x, 1)),
    }
}

impl Script {
    fn pile(g: &mut Game, source: u8) -> &mut [u8] {
        match source {
            BAG => g.bag.as_mut_slice(),
            DECK => g.deck.as_mut_slice(),
            _ => g.huts.stacks[(source - HUTS) as usize].as_mut_slice(),
        }
    }

    fn decide(&mut self, g: &mut Game, source: u8) {
        if self.chance.is_some() || self.error.is_some() {
            return; // played on without deciding: the game is thrown away
        }
        if let Some(&(want, item)) = self.outcomes.get(self.used) {
            self.used += 1;
            if want != source {
                self.error = Some(format!("the action drew from source {source}, not from {want} as scripted"));
            } else if let Err(e) = Self::arrange(g, source, item) {
                self.error = Some(e);
            }
            return;
        }
        let dist = Self::distribution(g, source);
        if dist.len() > 1 {
            self.chance = Some((source, dist));
            return;
        }
        let item = dist[0].0;
        self.outcomes.push((source, item));
        self.used += 1;
        if let Err(e) = Self::arrange(g, source, item) {
            self.error = Some(e);
        }
    }

    /// The next draw's `(item, probability)` (Python's `Script.distribution`, in its order).
    fn distribution(g: &mut Game, source: u8) -> Vec<(u8, f64)> {
        if source != DECK {
            let items = Self::pile(g, source);
            let n = items.len();
            let mut counts = Vec::new();
            for &x in items.iter() {
                tally(&mut counts, x);
            }
            return counts.into_iter().map(|(x, c)| (x, c as f64 / n as f64)).collect();
        }
        let slots = slots(g);
        let deck = g.deck.as_slice();
        let top = deck.len() - 1;
        if !slots.contains(&top) {
            return vec![(deck[top], 1.0)]; // a card nobody moves: known
        }
        let a = slots.len();
        let mut groups: Vec<(Kind, usize)> = Vec::new();
        for &j in &slots {
            let k = kind(deck[j]);
            if k != Kind::Money {
                tally(&mut groups, k);
            }
        }
        let grouped: usize = groups.iter().map(|e| e.1).sum();
        let mut shares: Vec<(Kind, f64)> = groups.iter().map(|&(k, n)| (k, n as f64 / a as f64)).collect();
        shares.push((Kind::Money, 1.0 - grouped as f64 / a as f64));
        let mut out = Vec::new();
        for (k, share) in shares {
            if share <= 0.0 {
                continue;
            }
            let mut cards: Vec<(u8, usize)> = Vec::new();
            for &c in deck.iter().filter(|&&c| kind(c) == k) {
                tally(&mut cards, c);
            }
            let total: usize = cards.iter().map(|e| e.1).sum();
            out.extend(cards.into_iter().map(|(c, n)| (c, share * n as f64 / total as f64)));
        }
        out
    }

    /// Move `item` to the drawn position by swaps within the hidden part (Python's
    /// `Script._arrange`); `Err` if it cannot be drawn here.
    fn arrange(g: &mut Game, source: u8, item: u8) -> Result<(), String> {
        if source != DECK {
            let items = Self::pile(g, source);
            let top = items.len() - 1;
            if items[top] != item {
                let j = items.iter().position(|&x| x == item).ok_or(format!("{item} is not in source {source}"))?;
                items.swap(top, j);
            }
            return Ok(());
        }
        let top = g.deck.len() - 1;
        if g.deck[top] == item {
            return Ok(());
        }
        let slots = slots(g);
        let want = kind(item);
        if want == Kind::Fixed || !slots.contains(&top) {
            return Err(format!("card {item} cannot be drawn from the deck here"));
        }
        let deck = g.deck.as_mut_slice();
        if kind(deck[top]) != want {
            let k = slots
                .iter()
                .copied()
                .find(|&j| j != top && kind(deck[j]) == want)
                .ok_or(format!("no card {item} can lie on top of the deck"))?;
            deck.swap(top, k);
        }
        if deck[top] != item {
            let j = deck.iter().position(|&c| c == item).ok_or(format!("card {item} is not in the deck"))?;
            deck.swap(top, j);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Options;

    fn play(g: &mut Game, seed: u64) -> (usize, usize) {
        // a random game: every action played through the script (none given), its chance
        // nodes resolved by the first outcome; returns (actions, chance events)
        let mut rng = seed;
        let mut legal = Vec::new();
        let (mut actions, mut chances) = (0, 0);
        while !g.is_over() && actions < 5000 {
            g.legal(&mut legal);
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let a = legal[(rng >> 33) as usize % legal.len()];
            let mut outcomes = Vec::new();
            loop {
                let mut copy = *g;
                let s = play_scripted(&mut copy, a, outcomes.clone());
                assert_eq!(s.error, None);
                match s.chance {
                    Some((source, dist)) => {
                        let total: f64 = dist.iter().map(|d| d.1).sum();
                        assert!((total - 1.0).abs() < 1e-9 && dist.len() > 1);
                        outcomes = s.outcomes;
                        outcomes.push((source, dist[dist.len() - 1].0));
                        chances += 1;
                    }
                    None => {
                        *g = copy;
                        break;
                    }
                }
            }
            actions += 1;
        }
        (actions, chances)
    }

    #[test]
    fn scripted_games_end_and_meet_chance_events() {
        for (n, mods) in [(2, 0u8), (4, 0), (3, crate::game::BUILDING_HUTS | crate::game::OFFICES)] {
            let mut g = Game::with_modules(n, 7, Options::default(), mods);
            let (actions, chances) = play(&mut g, 3);
            assert!(g.is_over() && chances > 20, "{actions} actions, {chances} chance events");
        }
    }

    #[test]
    fn an_outcome_that_does_not_fit_is_an_error_and_no_script_outlives_its_play() {
        let g = Game::new(2, 1, Options::default());
        let mut legal = Vec::new();
        let mut h = g;
        h.legal(&mut legal);
        // taking money refills the display from the deck (R-TURN-8)
        let take = *legal.iter().find(|a| matches!(a, Action::Take { .. })).unwrap();
        for (outcomes, what) in [(vec![(BAG, 3)], "source"), (vec![(DECK, 250)], "cannot be drawn")] {
            let mut copy = g;
            let s = play_scripted(&mut copy, take, outcomes);
            assert!(s.error.as_deref().is_some_and(|e| e.contains(what)), "{s:?}");
            SCRIPT.with(|s| assert!(s.borrow().is_none()));
        }
        let mut copy = g;
        let s = play_scripted(&mut copy, take, vec![]);
        let (source, dist) = s.chance.unwrap();
        assert_eq!(source, DECK);
        let mut copy = g;
        let s = play_scripted(&mut copy, take, vec![(DECK, dist[0].0)]);
        assert_eq!((s.error, s.chance), (None, None));
        assert_eq!(copy.display.as_slice().last(), Some(&dist[0].0));
    }
}
