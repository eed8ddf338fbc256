// Seats, types and participants index several parallel arrays at once: plain index loops read
// better there than zipped iterators.
#![allow(clippy::needless_range_loop)]

//! The rules of Alhambra (Dirk Henn, Queen Games) as a compact state machine: the compiled
//! kernel of `alhambra-engine`. It plays the built-in rules exactly as the Python engine does
//! (the same seed and actions give the same game), with the whole state one fixed-size value.
//!
//! * [`rng`]: CPython's Mersenne Twister and integer draws, reproduced.
//! * [`data`]: the components.
//! * [`city`]: one Alhambra and its placement rules.
//! * [`game`]: the state, the set-up, the legal actions, their effects and the scorings.
//! * [`huts`]: the module "building huts" (R-HUT-1 … R-HUT-6).
//! * [`gates`]: the module city gates (R-GATE-1 … R-GATE-9).
//! * [`export`]: the state as the Python engine's save writes it (JSON), and a result record's counts.
//! * [`codec`], [`observe`]: the environments' integer actions and observation vector.
//! * [`tally`]: what every seat did in a game (a result record's `tallies`).
//! * [`greedy`]: the greedy bot's evaluation and choice, as the Python `GreedyBot`.
//! * [`search`]: playouts over determinized worlds for search bots.

pub mod city;
pub mod codec;
pub mod data;
pub mod draws;
pub mod export;
pub mod game;
pub mod gates;
pub mod greedy;
pub mod huts;
pub mod observe;
pub mod rng;
pub mod search;
pub mod stack;
pub mod tally;

pub use game::{Action, Game, Options, Phase};
