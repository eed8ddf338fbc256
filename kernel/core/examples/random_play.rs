//! Random 4-player games inside the kernel, as fast as it plays them:
//! `cargo run --release --example random_play -- 2000` prints games, actions and the rate;
//! `-- 2000 all` plays them with the six modules.

use alhambra_kernel::game::{Action, Game, Options, KERNEL_MODULES};
use alhambra_kernel::rng::Mt;
use std::time::Instant;

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mods = if std::env::args().nth(2).as_deref() == Some("all") { KERNEL_MODULES } else { 0 };
    let mut legal: Vec<Action> = Vec::with_capacity(256);
    let mut actions = 0u64;
    let start = Instant::now();
    for seed in 0..games {
        let mut g = Game::with_modules(4, seed, Options::default(), mods);
        let mut bots: Vec<Mt> = (0..4).map(|s| Mt::from_seed(seed * 1000 + s)).collect();
        while let Some(seat) = g.current_player() {
            g.legal(&mut legal);
            let a = legal[bots[seat as usize].below(legal.len() as u32) as usize];
            g.apply_legal(a);
            actions += 1;
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {actions} actions, {t:.3} s: {:.0} actions/s, {:.2} us/action",
        actions as f64 / t,
        t / actions as f64 * 1e6
    );
}
