//! Where a step of the batched environment (`alhambra.env.vector_env` on the kernel) spends
//! its time, part by part, in ns per learner step: 256 games of 4 players (or `-- 2` … `6`),
//! the learner and three random opponents choosing uniformly, stepped round the batch as
//! `BatchEnv.step` does, without Python:
//!
//!     cargo run --release --example vector_floor -- 4 [modules bits, e.g. 47] [seconds]
//!
//! The parts: `learner` (the learner's integer taken by the decision and, once complete, its
//! action played), `opponents` (their legal actions listed, one drawn, played), `decision`
//! (the learner's legal actions listed and encoded), `observation` (updated in place),
//! `mask`, `new game` (a finished game replaced by a new one). The total is timed again in a
//! pass without the per-part clocks. Times are the thread's CPU time (the parts' wall-clock
//! shares of it), as `benchmarks/vector_speed.py` counts.

use alhambra_kernel::codec::{Choice, Codec, Decision, Slots};
use alhambra_kernel::game::{Action, Game, Options};
use alhambra_kernel::observe::{Observer, Written};
use alhambra_kernel::rng::Mt;
use std::time::{Duration, Instant};

const GAMES: usize = 256;
const PARTS: [&str; 6] = ["learner", "opponents", "decision", "observation", "mask", "new game"];

use alhambra_kernel::codec::default_cards as cards;

struct Slot {
    g: Game,
    seat: u8,
    bots: Vec<Mt>,
    dec: Decision,
    legal: Vec<Action>,
    written: Written,
    /// set up, the opponents not yet played to the learner's first decision
    fresh: bool,
}

struct Clock {
    on: bool,
    at: Instant,
    parts: [Duration; 6],
}

impl Clock {
    /// Count the time since the last tick to part `k`.
    #[inline]
    fn tick(&mut self, k: usize) {
        if self.on {
            let now = Instant::now();
            self.parts[k] += now - self.at;
            self.at = now;
        }
    }
}

fn new_slot(n: usize, mods: u8, seed: u64) -> Slot {
    let g = Game::with_modules(n, seed, Options::default(), mods);
    let bots = (0..n as u64).map(|s| Mt::from_seed(seed * 100 + s)).collect();
    let legal = Vec::with_capacity(256);
    Slot {
        g,
        seat: (seed % n as u64) as u8,
        bots,
        dec: Decision::default(),
        legal,
        written: Written::default(),
        fresh: true,
    }
}

/// This thread's CPU time (ns) from `/proc/thread-self/schedstat` (Linux), else `None`.
fn cpu_ns() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

/// Run the batch for `secs` seconds; (learner steps, CPU time, per-part times scaled to the
/// CPU time: on a shared machine the clocks count time the thread waited too).
fn run(n: usize, mods: u8, secs: f64, on: bool) -> (u64, f64, [f64; 6]) {
    let codec = Codec::new(mods, &cards(mods));
    let obs = Observer::new(n, mods, &cards(mods), codec.slots, codec.num_actions);
    let na = codec.num_actions;
    let mut out = vec![0f32; GAMES * obs.size];
    let mut mask = vec![0i8; GAMES * na];
    let mut slots: Vec<Slot> = (0..GAMES).map(|k| new_slot(n, mods, k as u64)).collect();
    let mut scratch = Slots::default();
    let mut learner = Mt::from_seed(7);
    let mut ints = Vec::new();
    let mut next_seed = GAMES as u64;
    let (mut steps, start, cpu0) = (0u64, Instant::now(), cpu_ns());
    let mut clock = Clock { on, at: Instant::now(), parts: [Duration::ZERO; 6] };
    while start.elapsed().as_secs_f64() < secs {
        for (k, s) in slots.iter_mut().enumerate() {
            clock.at = Instant::now();
            let mut changed = true;
            if !s.fresh && s.g.current_player() == Some(s.seat) {
                // the learner's integer (drawn outside the clock, as Python draws it)
                s.dec.legal_ints(&mut ints);
                let i = ints[learner.below(ints.len() as u32) as usize];
                clock.at = Instant::now();
                match s.dec.choose(i) {
                    Choice::Done(a) => s.g.apply_legal(s.legal[a]),
                    _ => changed = false,
                }
                clock.tick(0);
            }
            if s.g.current_player().is_none() {
                *s = new_slot(n, mods, next_seed);
                next_seed += 1;
                clock.tick(5);
            }
            if s.fresh || s.dec.prefix().is_empty() {
                s.fresh = false;
                while let Some(p) = s.g.current_player() {
                    s.g.legal(&mut s.legal);
                    if p == s.seat {
                        clock.tick(1);
                        s.dec.load(&codec, &s.g, &s.legal);
                        clock.tick(2);
                        break;
                    }
                    let a = s.legal[s.bots[p as usize].below(s.legal.len() as u32) as usize];
                    s.g.apply_legal(a);
                }
                clock.tick(1);
            }
            let current = s.g.current_player() == Some(s.seat);
            let prefix: &[u16] = if current { s.dec.prefix() } else { &[] };
            let o = &mut out[k * obs.size..(k + 1) * obs.size];
            if changed || !obs.update_prefix(s.seat as usize, prefix, o, &mut s.written) {
                obs.update(&s.g, s.seat as usize, prefix, o, &mut scratch, &mut s.written);
            }
            clock.tick(3);
            let m = &mut mask[k * na..(k + 1) * na];
            if current {
                s.dec.mask(m);
            } else {
                m.fill(0);
            }
            clock.tick(4);
        }
        steps += GAMES as u64;
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) * 1e-9,
        _ => wall,
    };
    (steps, cpu, clock.parts.map(|d| d.as_secs_f64() * cpu / wall))
}

fn main() {
    let arg = |k: usize| std::env::args().nth(k);
    let n: usize = arg(1).and_then(|a| a.parse().ok()).unwrap_or(4);
    let mods: u8 = arg(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let secs: f64 = arg(3).and_then(|a| a.parse().ok()).unwrap_or(3.0);
    let (steps, t, parts) = run(n, mods, secs, true);
    println!("{n} players, modules {mods:#b}, {GAMES} games: ns per learner step");
    for (name, d) in PARTS.iter().zip(parts) {
        println!("  {name:<12} {:>8.0}", d / steps as f64 * 1e9);
    }
    let (steps, t2, _) = run(n, mods, secs, false);
    println!("  {:<12} {:>8.0}   (with the clocks: {:.0})", "total", t2 / steps as f64 * 1e9, t / steps as f64 * 1e9);
}
