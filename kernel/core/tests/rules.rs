//! Hand-built situations with their exact outcomes, one rule (or ruling) each, named by the
//! rule ids of the rules digest (RULES.md). The Python test suite replays whole games on both
//! engines in lockstep; these pin single rules down inside the crate.

mod common;

use alhambra_kernel::city::{City, Holes};
use alhambra_kernel::data::*;
use alhambra_kernel::game::{majority_points, Action, Game, Options, Payment, Phase};
use alhambra_kernel::stack::Stack;
use common::{cell, legal, table, takes};

fn buy(space: u8, counts: [u8; 9]) -> Action {
    Action::Buy(Payment { space, via: 0, counts: [counts, [0; 9]] })
}

#[test]
fn r_set_3_every_seat_starts_with_at_least_20() {
    for n in 2..=6 {
        let g = Game::new(n, 7, Options::default());
        for p in 0..n {
            let hand = g.players[p].hand.as_slice();
            let total: u32 = hand.iter().map(|&c| value(c) as u32).sum();
            let without_last: u32 = total - value(*hand.last().unwrap()) as u32;
            assert!(total >= 20 && without_last < 20, "seat {p}: {total}");
        }
    }
}

#[test]
fn r_set_6_scoring_cards_lie_in_piles_2_and_4() {
    let g = Game::new(4, 3, Options::default());
    let sizes: Vec<usize> = g.pile_sizes.iter().map(|&s| s as usize).collect();
    assert_eq!(sizes.len(), 5);
    // the deck's top card is last; pile 1 is on top
    let top_first: Vec<u8> = g.deck.as_slice().iter().rev().copied().collect();
    let mut start = 0;
    let mut found = [None, None];
    for (k, &size) in sizes.iter().enumerate() {
        for &c in &top_first[start..start + size] {
            if c == SCORING_A {
                found[0] = Some(k + 1);
            }
            if c == SCORING_B {
                found[1] = Some(k + 1);
            }
        }
        start += size;
    }
    assert_eq!(found, [Some(2), Some(4)]);
}

#[test]
fn r_two_1_and_r_two_3_two_players_have_72_money_cards_and_dirk_six_buildings() {
    let g = Game::new(2, 5, Options::default());
    let cards = g.deck.len() + g.display.len() + g.players[0].hand.len() + g.players[1].hand.len();
    assert_eq!(cards, 72 + 2);
    assert_eq!(g.dirk.len(), 6);
    assert_eq!(g.bag.len(), 54 - 4 - 6);
}

#[test]
fn r_turn_2_one_card_or_several_up_to_five() {
    let f = |v| money(0, v);
    let d = |v| money(2, v);
    let mut g = table(0, &[], &[f(2), d(3), f(2), f(7)]);
    let takes: Vec<Vec<u8>> = takes(&mut g);
    // singles in display order, each once; then pairs within 5 (dinar sorts before florin)
    assert_eq!(takes, vec![vec![f(2)], vec![d(3)], vec![f(7)], vec![d(3), f(2)], vec![f(2), f(2)]]);
}

#[test]
fn r_turn_3_only_non_dominated_payments_are_listed() {
    // space 1 (florins) holds a building of price 5; florins 4, 2, 2, 1 in hand
    let mut g = table(0, &[money(0, 4), money(0, 2), money(0, 2), money(0, 1)], &[]);
    g.market = [TILE_PRICE.iter().position(|&p| p == 5).unwrap() as u8, 0, 0, 0];
    let buys: Vec<[u8; 9]> = legal(&mut g)
        .into_iter()
        .filter_map(|a| match a {
            Action::Buy(p) if p.space == 1 => Some(p.counts[0]),
            _ => None,
        })
        .collect();
    // 4+2, 4+1 (exact), 2+2+1 (exact); 4+2+... would drop a card and still pay
    assert_eq!(buys, vec![[0, 1, 0, 1, 0, 0, 0, 0, 0], [1, 0, 0, 1, 0, 0, 0, 0, 0], [1, 2, 0, 0, 0, 0, 0, 0, 0]]);
}

#[test]
fn r_turn_4_an_exact_payment_earns_another_action() {
    let tile = TILE_PRICE.iter().position(|&p| p == 5).unwrap() as u8;
    let mut g = table(0, &[money(0, 4), money(0, 1), money(0, 9)], &[money(1, 1)]);
    g.market = [tile, 0, 0, 0];
    let mut scratch = Vec::new();
    g.apply(buy(1, [1, 0, 0, 1, 0, 0, 0, 0, 0]), &mut scratch).unwrap();
    assert_eq!(g.phase, Phase::Turn);
    assert_eq!(g.current_player(), Some(0));
    assert_eq!(g.pending.as_slice(), &[(tile, true)]);
}

#[test]
fn r_turn_3_an_overpayment_is_legal_though_not_listed() {
    let tile = TILE_PRICE.iter().position(|&p| p == 5).unwrap() as u8;
    let mut g = table(0, &[money(0, 4), money(0, 1), money(0, 9)], &[money(1, 1)]);
    g.market = [tile, 0, 0, 0];
    let mut scratch = Vec::new();
    let all = buy(1, [1, 0, 0, 1, 0, 0, 0, 0, 1]);
    assert!(!legal(&mut g).contains(&all));
    g.apply(all, &mut scratch).unwrap();
    assert_eq!(g.phase, Phase::Place);
    assert!(g.players[0].hand.is_empty());
}

#[test]
fn r_turn_3_a_payment_short_of_the_price_is_refused_and_changes_nothing() {
    let tile = TILE_PRICE.iter().position(|&p| p == 5).unwrap() as u8;
    let mut g = table(0, &[money(0, 4)], &[money(1, 1)]);
    g.market = [tile, 0, 0, 0];
    let before = alhambra_kernel::export::state_json(&g);
    let mut scratch = Vec::new();
    assert!(g.apply(buy(1, [0, 0, 0, 1, 0, 0, 0, 0, 0]), &mut scratch).is_err());
    assert_eq!(alhambra_kernel::export::state_json(&g), before);
}

#[test]
fn r_place_3_and_r_place_5_walls_match_and_a_side_is_open() {
    let mut city = City::new(Holes::Cell);
    // tile 7: a pavilion without walls, east of the fountain
    city.place(7, cell(1, 0));
    let mut cells = vec![];
    // tile 1 has walls north, east and west: it can go only where its open south side meets a tile
    city.place_cells(TILE_WALLS[1], &mut |c| cells.push(c));
    assert_eq!(cells, vec![cell(0, -1), cell(1, -1)]);
}

#[test]
fn r_place_6_a_cell_enclosed_on_four_sides_is_a_hole() {
    let mut city = City::new(Holes::Cell);
    for (x, y, t) in [(1, 0, 7), (1, 1, 14), (0, 2, 22)] {
        city.place(t, cell(x, y));
    }
    // building at (-1, 1) … no: (0, 1) has tiles north, east and south; building at (-1, 1)
    // would close it
    assert!(!city.can_place(0, cell(-1, 1)));
    assert!(city.can_place(0, cell(0, 1)));
}

#[test]
fn r_turn_6_only_tiles_whose_removal_keeps_the_alhambra_whole_are_removable() {
    let mut city = City::new(Holes::Cell);
    for (x, y, t) in [(1, 0, 7), (2, 0, 14), (0, 1, 22)] {
        city.place(t, cell(x, y));
    }
    // (1, 0) joins (2, 0) to the fountain
    assert_eq!(city.removable(), &[cell(0, 1), cell(2, 0)]);
}

#[test]
fn r_turn_5_the_fountain_is_never_swapped() {
    let mut city = City::new(Holes::Cell);
    city.place(7, cell(1, 0));
    let mut cells = vec![];
    city.swap_cells(0, &mut |c| cells.push(c));
    assert_eq!(cells, vec![cell(1, 0)]);
}

#[test]
fn r_score_3_tied_players_share_the_places_they_occupy() {
    let mut out = [0; 3];
    majority_points(&[4, 4, 1], &[13, 6], &mut out);
    assert_eq!(out, [9, 9, 0]);
    majority_points(&[0, 2, 1], &[16, 8, 1], &mut out);
    assert_eq!(out, [0, 16, 8]);
}

#[test]
fn r_score_5_the_longest_outer_wall_counts_each_side_once() {
    let mut city = City::new(Holes::Cell);
    // tile 1: walls north, east, west, standing north of the fountain (its open south side)
    city.place(1, cell(0, -1));
    assert_eq!(city.longest_outer_wall(), 3);
}

#[test]
fn r_end_1_and_r_end_2_an_empty_bag_ends_the_game_and_the_market_goes_to_the_most_money() {
    let mut g = Game::new(3, 2, Options::default());
    g.players[0].hand.clear();
    g.players[1].hand = Stack::from_slice(&[money(0, 3), money(1, 2)]);
    g.players[2].hand = Stack::from_slice(&[money(0, 3)]);
    for p in 0..3 {
        g.players[p].reserve.clear();
    }
    g.market = [5, 9, 0, 0];
    g.bag.clear();
    g.display.clear();
    g.deck.clear();
    g.discard.clear();
    g.turn_player = 0;
    g.decider = Some(0);
    let mut scratch = Vec::new();
    // seat 0 can do nothing but pass (R-TURN-9); the market cannot be refilled (R-END-1)
    assert_eq!(legal(&mut g), vec![Action::Pass]);
    g.apply(Action::Pass, &mut scratch).unwrap();
    // florins: seats 1 and 2 tie with 3 each, so building 5 leaves the game; dirhams: seat 1
    assert_eq!(g.out_of_play.as_slice(), &[5]);
    assert_eq!((g.phase, g.current_player()), (Phase::Place, Some(1)));
    assert_eq!(g.pending.as_slice(), &[(9, false)]);
    // R-END-3: the recipient places it (or reserves it), then the final scoring
    g.apply(Action::Reserve { tile: 9 }, &mut scratch).unwrap();
    assert!(g.is_over());
    assert_eq!(g.scorings.len(), 1);
    assert_eq!(g.scorings[0].number, 3);
}
