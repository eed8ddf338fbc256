//! Greedy 4-player games inside the kernel: `cargo run --release --example greedy_play -- 200`
//! prints games, actions and the time per game (`-- 200 all`: the six modules).

use alhambra_kernel::game::{Action, Game, Options, KERNEL_MODULES};
use alhambra_kernel::greedy::{choose, Memo, Weights};
use alhambra_kernel::rng::Mt;
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(200);
    let mods = if std::env::args().nth(2).as_deref() == Some("all") { KERNEL_MODULES } else { 0 };
    let (w, mut memo) = (Weights::default(), Memo::default());
    let mut legal: Vec<Action> = Vec::with_capacity(256);
    let mut actions = 0u64;
    let start = Instant::now();
    for seed in 0..games {
        let mut g = Game::with_modules(4, seed, Options::default(), mods);
        let mut rng = Mt::from_seed(seed);
        while g.current_player().is_some() {
            g.legal(&mut legal);
            let k = choose(&g, &w, 0.0, &mut rng, &legal, &mut memo);
            g.apply_legal(legal[k]);
            actions += 1;
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!("{games} games, {actions} actions, {t:.3} s: {:.2} ms/game", t / games as f64 * 1e3);
}
