//! What the hand-built situations of `rules.rs` and `modules.rs` share: positions, the legal
//! actions, a table at the start of seat 0's turn, and the takes among the legal actions.
#![allow(dead_code)] // each test file uses its own part

use alhambra_kernel::city::cell_of;
use alhambra_kernel::game::{Action, Game, Options};
use alhambra_kernel::stack::Stack;

pub fn cell(x: i32, y: i32) -> u16 {
    cell_of(x, y).unwrap()
}

pub fn legal(g: &mut Game) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal(&mut out);
    out
}

/// A 3-player game with the modules `mods` at the start of seat 0's turn, with `hand` and
/// `display`.
pub fn table(mods: u8, hand: &[u8], display: &[u8]) -> Game {
    let mut g = Game::with_modules(3, 1, Options::default(), mods);
    g.players[0].hand = Stack::from_slice(hand);
    g.display = Stack::from_slice(display);
    g.turn_player = 0;
    g.decider = Some(0);
    g
}

/// The cards of every TakeMoney among the legal actions, in their order.
pub fn takes(g: &mut Game) -> Vec<Vec<u8>> {
    legal(g)
        .into_iter()
        .filter_map(|a| match a {
            Action::Take { cards, n } => Some(cards[..n as usize].to_vec()),
            _ => None,
        })
        .collect()
}
