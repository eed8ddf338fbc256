//! The result record's tallies, counted as the kernel plays: hand-built turns with their exact
//! counts (R-TURN-2 money taken, R-TURN-3 a purchase, R-TURN-4 an exact payment, R-END-2 the
//! buildings received at the end), and a whole game whose counts add up.

#![allow(clippy::needless_range_loop)] // seats index several arrays at once

mod common;

use alhambra_kernel::data::*;
use alhambra_kernel::game::{Action, Game, Options, Payment, Phase};
use alhambra_kernel::rng::Mt;
use alhambra_kernel::tally::{Tally, KIND_NAMES};
use common::{legal, table};

fn play(g: &mut Game, t: &mut Tally, a: Action) {
    let mut scratch = Vec::new();
    t.before(g, &a);
    g.apply(a, &mut scratch).unwrap();
    t.after(g);
}

fn kind(name: &str) -> usize {
    KIND_NAMES.iter().position(|&n| n == name).unwrap()
}

#[test]
fn r_turn_4_an_exact_purchase_counts_as_exact_and_its_building_as_bought() {
    let tile = TILE_PRICE.iter().position(|&p| p == 5).unwrap() as u8;
    let mut g = table(0, &[money(0, 4), money(0, 1), money(0, 9)], &[money(1, 1), money(1, 2)]);
    g.market = [tile, 0, 0, 0];
    let mut t = Tally::default();
    let mut counts = [[0u8; 9]; 2];
    counts[0][0] = 1;
    counts[0][3] = 1;
    play(&mut g, &mut t, Action::Buy(Payment { space: 1, via: 0, counts }));
    assert_eq!(g.phase, Phase::Turn, "an exact payment: seat 0 acts again");
    // R-TURN-2: seat 0 takes the 1 and the 2 of dirhams (total 3)
    let take = legal(&mut g).into_iter().find(|a| matches!(a, Action::Take { n: 2, .. })).expect("a take of two cards");
    play(&mut g, &mut t, take);
    assert_eq!(g.phase, Phase::Place);
    let place = legal(&mut g)
        .into_iter()
        .find(|a| matches!(a, Action::Place { tile: p, .. } if *p == tile) || matches!(a, Action::Reserve { .. }))
        .unwrap();
    play(&mut g, &mut t, place);
    let s = &t.seats[0];
    assert_eq!((s.money_spent, s.purchases, s.exact, s.money_taken), (5, 1, 1, 3));
    let ty = TILE_TYPE[tile as usize] as usize;
    assert_eq!(s.bought[0][ty], 1);
    assert_eq!(s.bought.iter().flatten().sum::<u16>(), 1);
    assert_eq!(s.received, [0; TYPES]);
    assert_eq!((s.actions[kind("Buy")], s.actions[kind("TakeMoney")]), (1, 1));
    assert_eq!(t.kinds.iter().sum::<u32>(), 3);
    assert_eq!(t.seats[1], Default::default());
}

#[test]
fn r_turn_3_a_purchase_that_ends_the_turn_is_not_exact() {
    let tile = TILE_PRICE.iter().position(|&p| p == 5).unwrap() as u8;
    let mut g = table(0, &[money(0, 4), money(0, 2)], &[money(1, 1)]);
    g.market = [tile, 0, 0, 0];
    let mut t = Tally::default();
    let mut counts = [[0u8; 9]; 2];
    counts[0][1] = 1;
    counts[0][3] = 1;
    play(&mut g, &mut t, Action::Buy(Payment { space: 1, via: 0, counts }));
    assert_eq!(g.phase, Phase::Place);
    play(&mut g, &mut t, Action::Reserve { tile });
    assert_eq!((t.seats[0].money_spent, t.seats[0].purchases, t.seats[0].exact), (6, 1, 0));
    assert_eq!(t.seats[0].bought[0][TILE_TYPE[tile as usize] as usize], 1);
}

#[test]
fn r_end_2_a_whole_games_counts_add_up() {
    for seed in 0..20u64 {
        let mut g = Game::new(4, seed, Options::default());
        let mut rng = Mt::from_seed(seed);
        let mut t = Tally::default();
        let mut list = Vec::new();
        let mut played = 0u32;
        let mut taken = [0u32; 6];
        while let Some(seat) = g.current_player() {
            g.legal(&mut list);
            let a = list[rng.below(list.len() as u32) as usize];
            if let Action::Take { cards, n } = a {
                taken[seat as usize] += cards[..n as usize].iter().map(|&c| value(c) as u32).sum::<u32>();
            }
            t.before(&g, &a);
            g.apply_legal(a);
            t.after(&g);
            played += 1;
        }
        assert_eq!(t.kinds.iter().sum::<u32>(), played);
        let by_seat: u32 = (0..4).map(|p| t.seats[p].actions.iter().sum::<u32>()).sum();
        assert_eq!(by_seat, played);
        for p in 0..4 {
            let s = &t.seats[p];
            assert_eq!(s.money_taken, taken[p]);
            assert!(s.exact <= s.purchases);
            // every building a seat holds at the end was bought or received (R-END-2), or is
            // still in its reserve; none came from elsewhere
            let held: u16 = g.players[p].city.type_counts().iter().map(|&c| c as u16).sum::<u16>()
                + g.players[p].reserve.len() as u16;
            let got: u16 = s.bought.iter().flatten().sum::<u16>() + s.received.iter().sum::<u16>();
            assert_eq!(held, got, "seed {seed}, seat {p}");
        }
    }
}
