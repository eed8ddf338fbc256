//! The observation updated in place (`Observer::update`, what the batched environment writes)
//! against the observation written whole (`Observer::write`, then the integers chosen so far
//! counted in `decision`), float for float, after every action of random games: several
//! seeds, player counts and module sets, seats changing, a buffer carried from one game into
//! the next, prefixes of one to three integers (and one more with the game unchanged:
//! `Observer::update_prefix`), and a buffer forgotten.

use alhambra_kernel::codec::{Codec, Slots};
use alhambra_kernel::game::{Game, Options, BONUS, BUILDING_HUTS, DIAMONDS, GATES, KERNEL_MODULES, OFFICES, VIZIER};
use alhambra_kernel::observe::{Observer, Written};
use alhambra_kernel::rng::Mt;

use alhambra_kernel::codec::default_cards as cards;

/// Play `games` random games in a row of `n` players with `mods` through one buffer kept up to
/// date, checking it against a whole write after every action.
fn check(n: usize, mods: u8, seed: u64, games: u64) {
    let codec = Codec::new(mods, &cards(mods));
    let obs = Observer::new(n, mods, &cards(mods), codec.slots, codec.num_actions);
    let (mut kept, mut whole) = (vec![0.5f32; obs.size], vec![0.0f32; obs.size]);
    let (mut s1, mut s2) = (Slots::default(), Slots::default());
    let mut written = Written::default();
    let mut rng = Mt::from_seed(seed);
    let mut legal = Vec::new();
    let mut prefix: Vec<u16> = Vec::new();
    let mut checked = 0;
    for k in 0..games {
        let mut g = Game::with_modules(n, seed * 100 + k, Options::default(), mods);
        let mut seat = rng.below(n as u32) as usize;
        let mut actions = 0;
        while g.current_player().is_some() && actions < 2000 {
            if rng.below(50) == 0 {
                seat = rng.below(n as u32) as usize; // another seat's view
            }
            if rng.below(200) == 0 {
                written.forget();
                kept.fill(f32::NAN);
            }
            prefix.clear();
            for _ in 0..rng.below(4) {
                prefix.push(rng.below(codec.num_actions as u32) as u16);
            }
            obs.update(&g, seat, &prefix, &mut kept, &mut s1, &mut written);
            obs.write(&g, seat, &mut whole, &mut s2);
            let d = obs.size - codec.num_actions;
            for &i in &prefix {
                whole[d + i as usize] += 1.0;
            }
            let same = kept.iter().zip(&whole).all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "players {n}, modules {mods:#b}, seed {seed}, game {k}, action {actions}");
            checked += 1;
            if rng.below(3) == 0 {
                // another integer chosen, the game unchanged: the decision slice alone
                let more = rng.below(codec.num_actions as u32) as u16;
                prefix.push(more);
                assert!(obs.update_prefix(seat, &prefix, &mut kept, &mut written));
                whole[d + more as usize] += 1.0;
                assert!(kept.iter().zip(&whole).all(|(a, b)| a.to_bits() == b.to_bits()), "prefix {prefix:?}");
                assert!(!obs.update_prefix((seat + 1) % n, &prefix, &mut kept, &mut written));
            }
            g.legal(&mut legal);
            let a = legal[rng.below(legal.len() as u32) as usize];
            g.apply_legal(a);
            actions += 1;
        }
    }
    assert!(checked > 100);
}

#[test]
fn an_observation_updated_in_place_is_the_one_written_whole() {
    let mods = [
        0,
        VIZIER,
        BONUS,
        OFFICES,
        DIAMONDS,
        VIZIER | BONUS | OFFICES | DIAMONDS,
        BUILDING_HUTS,
        0,
        GATES,
        KERNEL_MODULES,
    ];
    for (k, &m) in mods.iter().enumerate() {
        check([4, 2, 3, 6, 5, 4, 3, 2, 3, 5][k], m, k as u64 + 1, 2);
    }
}
