//! Hand-built situations of the modules the kernel plays, with their exact outcomes, named by
//! the rule ids of the rules digest (RULES.md): the diamonds (R-DIA-1 … R-DIA-7) and the bonus
//! cards (R-BON-1 … R-BON-5). The Python test suite plays whole games of every combination of
//! modules on both engines in lockstep; these pin single rules down inside the crate.

mod common;

use alhambra_kernel::data::*;
use alhambra_kernel::export::state_json;
use alhambra_kernel::game::{Action, DiamondPay, Game, Options, Phase, BONUS, DIAMONDS};
use alhambra_kernel::stack::Stack;
use common::{cell, legal, table, takes};

fn tile_of_price(p: u8) -> u8 {
    TILE_PRICE.iter().position(|&x| x == p).unwrap() as u8
}

fn pay(space: u8, cards: &[u8]) -> DiamondPay {
    DiamondPay::of_cards(space, cards).unwrap()
}

fn diamonds_of(g: &Game) -> Vec<u8> {
    let mut all: Vec<u8> = g.deck.iter().chain(g.display.iter()).copied().collect();
    for p in 0..g.n as usize {
        all.extend(g.players[p].hand.iter());
    }
    let mut out: Vec<u8> = all.into_iter().filter(|&c| is_diamond(c)).collect();
    out.sort();
    out
}

#[test]
fn r_dia_1_a_diamond_is_named_by_its_value_and_copy_and_sorts_before_every_currency() {
    assert_eq!(card_code(diamond(5, 2)), "diamond-5b");
    assert_eq!(card_of_code("diamond-9f"), Some(diamond(9, 6)));
    assert_eq!(card_of_code("diamond-9g"), None); // a seventh copy: not the kernel's
    assert_eq!(card_of_code("diamond-0a"), None);
    for c in 0..CARD_KINDS as u8 {
        assert_eq!(card_of_code(&card_code(c)), Some(c));
    }
    assert_eq!(value(diamond(7, 1)), 7);
    assert!(is_cash(diamond(7, 1)) && !is_money(diamond(7, 1)));
    assert!(canonical_rank(diamond(9, 6)) < canonical_rank(money(2, 1))); // dinar-1
    assert!(canonical_rank(diamond(3, 1)) < canonical_rank(diamond(3, 2)));
}

#[test]
fn r_dia_1_and_r_dia_2_the_diamonds_join_the_money_cards_and_r_two_1_removes_none() {
    let ten: Vec<u8> = {
        let mut v = vec![
            diamond(3, 1),
            diamond(4, 1),
            diamond(5, 1),
            diamond(5, 2),
            diamond(6, 1),
            diamond(6, 2),
            diamond(7, 1),
            diamond(7, 2),
            diamond(8, 1),
            diamond(9, 1),
        ];
        v.sort();
        v
    };
    for n in [2, 3, 6] {
        let g = Game::with_modules(n, 11, Options::default(), DIAMONDS);
        assert_eq!(diamonds_of(&g), ten);
        let cards = g.deck.len() + g.display.len() + (0..n).map(|p| g.players[p].hand.len()).sum::<usize>();
        assert_eq!(cards, if n == 2 { 72 } else { 108 } + 10 + 2);
        // R-SET-3: the diamonds count towards the starting 20
        for p in 0..n {
            let hand = g.players[p].hand.as_slice();
            let total: u32 = hand.iter().map(|&c| value(c) as u32).sum();
            assert!(total >= 20 && total - (value(*hand.last().unwrap()) as u32) < 20);
        }
    }
    // the option's values, copies numbered per value in order
    let opts = Options { diamonds: Stack::from_slice(&[9, 1, 9]), ..Default::default() };
    let g = Game::with_modules(4, 3, opts, DIAMONDS);
    assert_eq!(diamonds_of(&g), vec![diamond(1, 1), diamond(9, 1), diamond(9, 2)]);
    assert!(Options::diamond_values_refusal(&[5; 7]).is_some());
    assert!(Options::diamond_values_refusal(&[5; 6]).is_none());
}

#[test]
fn r_dia_3_diamonds_are_taken_like_money_alone_or_with_other_cards_up_to_five() {
    let mut g = table(DIAMONDS, &[], &[diamond(3, 1), money(0, 2), diamond(8, 1), money(2, 3)]);
    let takes: Vec<Vec<u8>> = takes(&mut g);
    assert_eq!(
        takes,
        vec![
            vec![diamond(3, 1)],
            vec![money(0, 2)],
            vec![diamond(8, 1)],
            vec![money(2, 3)],
            vec![diamond(3, 1), money(0, 2)], // the diamond first (canonical order)
            vec![money(2, 3), money(0, 2)],
        ]
    );
}

#[test]
fn r_dia_4_the_needed_diamonds_pay_a_building_on_any_space_by_total_then_values() {
    // diamonds 3, 3, 4, 5 in hand; a building of price 7 on space 2 (dirhams), others empty
    let hand = [diamond(5, 1), diamond(3, 2), diamond(4, 1), diamond(3, 1), money(1, 9)];
    let mut g = table(DIAMONDS, &hand, &[money(3, 1)]);
    g.market = [0, tile_of_price(7), 0, 0];
    let all = legal(&mut g);
    // the turn lists the purchases in diamonds first; 3+3+4 is left out (a 3 is not needed),
    // and of two 3s the first copy pays
    assert_eq!(
        &all[..3],
        &[
            Action::BuyDiamonds(pay(2, &[diamond(3, 1), diamond(4, 1)])),
            Action::BuyDiamonds(pay(2, &[diamond(3, 1), diamond(5, 1)])),
            Action::BuyDiamonds(pay(2, &[diamond(4, 1), diamond(5, 1)])),
        ]
    );
    assert!(!all[3..].iter().any(|a| matches!(a, Action::BuyDiamonds(_))));
    // the dirham 9 pays too, in its own currency only (R-DIA-4: never a mix)
    assert!(all.iter().any(|a| matches!(a, Action::Buy(p) if p.counts[0][8] == 1 && p.total() == 9)));
}

#[test]
fn r_dia_4_an_exact_total_earns_another_action_and_the_diamonds_are_discarded() {
    let tile = tile_of_price(7);
    let mut g = table(DIAMONDS, &[diamond(3, 1), diamond(4, 1), diamond(5, 1)], &[money(3, 1)]);
    g.market = [tile, 0, 0, 0];
    let mut scratch = Vec::new();
    g.apply(Action::BuyDiamonds(pay(1, &[diamond(3, 1), diamond(4, 1)])), &mut scratch).unwrap();
    assert_eq!((g.phase, g.current_player()), (Phase::Turn, Some(0)));
    assert_eq!(g.pending.as_slice(), &[(tile, true)]);
    assert_eq!(g.players[0].hand.as_slice(), &[diamond(5, 1)]);
    assert_eq!(g.discard.as_slice(), &[diamond(3, 1), diamond(4, 1)]);
    assert_eq!(g.market, [0, 0, 0, 0]);
}

#[test]
fn r_dia_4_an_overpayment_with_any_copies_is_legal_though_not_listed() {
    let tile = tile_of_price(7);
    let mut g = table(DIAMONDS, &[diamond(3, 1), diamond(3, 2), diamond(5, 1)], &[money(3, 1)]);
    g.market = [tile, 0, 0, 0];
    let over = Action::BuyDiamonds(pay(1, &[diamond(3, 2), diamond(5, 1)]));
    assert!(!legal(&mut g).contains(&over)); // the first 3 is listed
    let mut scratch = Vec::new();
    g.apply(over, &mut scratch).unwrap();
    assert_eq!(g.phase, Phase::Place); // 8 for 7: no extra action
    assert_eq!(g.players[0].hand.as_slice(), &[diamond(3, 1)]);
}

#[test]
fn r_dia_4_a_payment_short_of_the_price_or_not_in_hand_is_refused_and_changes_nothing() {
    let mut g = table(DIAMONDS, &[diamond(3, 1), diamond(4, 1)], &[money(3, 1)]);
    g.market = [tile_of_price(8), 0, 0, 0];
    let before = state_json(&g);
    let mut scratch = Vec::new();
    assert!(g.apply(Action::BuyDiamonds(pay(1, &[diamond(3, 1), diamond(4, 1)])), &mut scratch).is_err());
    assert!(g.apply(Action::BuyDiamonds(pay(1, &[diamond(4, 1), diamond(9, 1)])), &mut scratch).is_err());
    assert!(g.apply(Action::BuyDiamonds(pay(2, &[diamond(4, 1)])), &mut scratch).is_err()); // empty space
    assert_eq!(state_json(&g), before);
}

#[test]
fn r_dia_4_an_action_code_names_the_diamonds_and_comes_back() {
    for a in [
        Action::BuyDiamonds(pay(4, &[diamond(1, 1), diamond(9, 6), diamond(5, 3)])),
        Action::UseVizierDiamonds(pay(1, &[diamond(2, 2)])),
        Action::RevealBonus { building: 53 },
        Action::Take { cards: [diamond(3, 1), money(0, 2), 0, 0], n: 2 },
    ] {
        assert_eq!(Action::from_code(a.code()), Some(a));
    }
    assert_eq!(Action::from_code(14u64 << 59), None); // no diamond
    assert_eq!(Action::from_code(16u64 << 59 | 8), None); // building 8 has no bonus card
}

#[test]
fn r_dia_6_diamonds_that_pay_exactly_let_the_vizier_be_asked() {
    use alhambra_kernel::game::VIZIER;
    let mut g = table(VIZIER | DIAMONDS, &[diamond(3, 1), diamond(5, 1)], &[money(3, 1)]);
    g.market = [tile_of_price(8), 0, 0, 0];
    assert!(g.can_pay_exactly(0));
    g.players[0].hand = Stack::from_slice(&[diamond(3, 1), diamond(6, 1)]);
    assert!(!g.can_pay_exactly(0));
}

#[test]
fn r_dia_7_diamonds_count_for_no_currency_when_the_market_is_handed_out() {
    // seat 0 holds 18 in diamonds but only a diamond 1 it cannot buy with; seat 1 a florin 1
    let mut g = table(DIAMONDS, &[diamond(1, 1)], &[]);
    g.players[1].hand = Stack::from_slice(&[money(0, 1), diamond(9, 1), diamond(9, 2)]);
    g.players[2].hand.clear();
    for p in 0..3 {
        g.players[p].reserve.clear();
    }
    g.market = [5, 0, 0, 0];
    g.bag.clear();
    g.deck.clear();
    g.discard.clear();
    assert_eq!(legal(&mut g), vec![Action::Pass]);
    let mut scratch = Vec::new();
    g.apply(Action::Pass, &mut scratch).unwrap();
    // seat 1's florin 1 beats seat 0's nothing: R-END-2 counts florins only, never diamonds
    assert_eq!((g.phase, g.current_player()), (Phase::Place, Some(1)));
    assert_eq!(g.pending.as_slice(), &[(5, false)]);
}

#[test]
fn r_bon_2_the_ten_cards_are_dealt_three_two_or_one_each_and_the_rest_are_out_of_play() {
    for (n, k) in [(2, 3), (3, 3), (4, 2), (5, 2), (6, 1)] {
        let g = Game::with_modules(n, 5, Options::default(), BONUS);
        let b = &g.bonus;
        let mut all = b.out_of_play;
        for p in 0..n {
            assert_eq!(b.hands[p].count_ones(), k);
            assert_eq!(b.revealed[p], 0);
            assert_eq!(all & b.hands[p], 0);
            all |= b.hands[p];
        }
        assert_eq!(all, (1 << 10) - 1);
        assert_eq!(b.out_of_play.count_ones() as usize, 10 - n * k as usize);
    }
}

#[test]
fn r_bon_3_a_card_whose_building_stands_is_revealed_as_a_free_action() {
    let mut g = table(BONUS, &[money(0, 1)], &[money(3, 1)]);
    g.bonus.hands[0] = 0b11; // the cards of buildings 7 and 14
    g.players[0].city.place(14, cell(0, -1));
    let all = legal(&mut g);
    assert!(all.contains(&Action::RevealBonus { building: 14 }));
    assert!(!all.contains(&Action::RevealBonus { building: 7 })); // 7 is not in the Alhambra
    let mut scratch = Vec::new();
    g.apply(Action::RevealBonus { building: 14 }, &mut scratch).unwrap();
    assert_eq!((g.phase, g.current_player()), (Phase::Turn, Some(0)));
    assert_eq!((g.bonus.hands[0], g.bonus.revealed[0], g.bonus.owned[0]), (0b01, 0b10, 0b10));
    assert!(!legal(&mut g).iter().any(|a| matches!(a, Action::RevealBonus { .. })));
}

#[test]
fn r_bon_4_a_building_moved_to_the_reserve_takes_its_card_back_to_the_hand() {
    let mut g = table(BONUS, &[money(0, 1)], &[money(3, 1)]);
    g.bonus.hands[0] = 0;
    g.bonus.revealed[0] = 0b10; // building 14's card
    g.bonus.owned[0] = 0b10;
    g.players[0].city.place(14, cell(0, -1));
    let mut scratch = Vec::new();
    g.apply(Action::Remove { cell: cell(0, -1) }, &mut scratch).unwrap();
    assert_eq!((g.bonus.hands[0], g.bonus.revealed[0], g.bonus.owned[0]), (0b10, 0, 0b10));
    assert_eq!(g.players[0].reserve.as_slice(), &[14]);
}

#[test]
fn r_bon_5_a_scoring_reveals_every_eligible_card_and_counts_it_as_one_more_building() {
    // seat 0 holds building 7's card with 7 in its Alhambra; seat 1 has 14 standing, whose card
    // lies out of play; seat 0 takes a card and the scoring card A comes up at the refill
    let mut g = table(BONUS, &[], &[money(3, 1), money(3, 2), money(3, 3), money(3, 4)]);
    g.bonus.hands = [0b01, 0, 0, 0, 0, 0];
    g.bonus.out_of_play = (1 << 10) - 1 - 0b01;
    g.players[0].city.place(7, cell(0, -1));
    g.players[1].city.place(14, cell(0, -1));
    g.deck = Stack::from_slice(&[money(3, 5), money(3, 6), SCORING_A]);
    let mut scratch = Vec::new();
    g.apply(Action::Take { cards: [money(3, 1), 0, 0, 0], n: 1 }, &mut scratch).unwrap();
    assert_eq!(g.scorings.len(), 1);
    let rec = g.scorings[0];
    assert_eq!(rec.counts[0][0], 2); // the pavilion and its card
    assert_eq!(rec.counts[1][1], 1); // the seraglio alone
    assert_eq!((g.players[0].score, g.players[1].score, g.players[2].score), (1, 2, 0));
    assert_eq!((g.bonus.hands[0], g.bonus.revealed[0], g.bonus.owned[0]), (0, 0b01, 0b01));
    assert_eq!((g.bonus.not_held[0], g.bonus.not_held[1]), (0, 0b10));
    let json = state_json(&g);
    assert!(json.contains(
        "\"bonus_cards\": {\"hands\": [[], [], []], \"revealed\": [[7], [], []], \"out_of_play\": [14, 22, 23, 31, 32, 41, 42, 52, 53], \"owned\": [[7], [], []], \"not_held\": [[], [14], []]}"
    ));
}

// -- the building huts (R-HUT-1 … R-HUT-6) ------------------------------------------------------

use alhambra_kernel::export::state_json_with;
use alhambra_kernel::game::{BUILDING_HUTS, VIZIER};
use alhambra_kernel::huts::{HutLayout, HUT_COUNTS, HUT_FIRST, HUT_TILES, SHIPPED};

/// Hut `H{k}` of the shipped layout.
fn hut(k: u8) -> u8 {
    HUT_FIRST + k - 1
}

/// A table with the building huts whose stacks hold `tops` face up (one hut per stack of its
/// colour; the other stacks empty).
fn hut_table(mods: u8, tops: &[u8]) -> Game {
    let mut g = table(BUILDING_HUTS | mods, &[money(0, 1)], &[money(3, 1)]);
    for t in 0..TYPES {
        g.huts.stacks[t].clear();
    }
    for &h in tops {
        g.huts.stacks[SHIPPED.type_of(h) as usize].push(h);
    }
    g
}

#[test]
fn r_hut_1_six_stacks_by_colour_each_shuffled_with_one_face_up() {
    for (n, seed) in [(2, 1), (4, 7), (6, 12)] {
        let g = Game::with_modules(n, seed, Options::default(), BUILDING_HUTS);
        let mut all: Vec<u8> = Vec::new();
        for (t, stack) in g.huts.stacks.iter().enumerate() {
            assert_eq!(stack.len(), HUT_COUNTS[t] as usize);
            assert!(stack.iter().all(|&h| SHIPPED.type_of(h) as usize == t));
            all.extend(stack.iter());
        }
        all.sort();
        assert_eq!(all, (HUT_FIRST..HUT_FIRST + HUT_TILES as u8).collect::<Vec<_>>());
        assert_eq!(g.huts.owned, [0; 6]);
    }
    // the shipped layout: H2 is a pavilion with walls south and west, H23 a tower north and west
    assert_eq!((SHIPPED.type_of(hut(2)), SHIPPED.walls[1]), (0, SOUTH | WEST));
    assert_eq!((SHIPPED.type_of(hut(23)), SHIPPED.walls[22]), (5, NORTH | WEST));
}

#[test]
fn r_hut_1_a_layout_needs_24_huts_of_the_right_colours_each_with_one_to_three_walls() {
    let shipped: Vec<(u8, u8)> = (0..HUT_TILES).map(|k| (SHIPPED.types[k], SHIPPED.walls[k])).collect();
    assert_eq!(HutLayout::of(&shipped), Ok(SHIPPED));
    assert!(HutLayout::of(&shipped[1..]).is_err()); // 23 huts
    let mut bad = shipped.clone();
    bad[0].1 = 15; // four walls: never reachable
    assert!(HutLayout::of(&bad).is_err());
    bad[0].1 = 0; // no wall
    assert!(HutLayout::of(&bad).is_err());
    let mut bad = shipped.clone();
    bad[0].0 = 5; // H1 a tower: 2 pavilions and 6 towers
    assert!(HutLayout::of(&bad).is_err());
    bad[0].0 = 6; // no such type
    assert!(HutLayout::of(&bad).is_err());
}

#[test]
fn r_hut_2_a_face_up_hut_is_taken_for_free_after_the_bonus_reveals_and_before_the_vizier() {
    let mut g = hut_table(VIZIER | BONUS, &[hut(2), hut(23)]);
    g.vizier.active[0] = false;
    g.bonus.hands[0] = 0b10;
    g.players[0].city.place(14, cell(0, -1));
    let all = legal(&mut g);
    assert_eq!(
        &all[..4],
        &[
            Action::RevealBonus { building: 14 },
            Action::TakeHut { hut: hut(2) }, // stacks in scoring order: pavilion … tower
            Action::TakeHut { hut: hut(23) },
            Action::ReactivateVizier,
        ]
    );
    // the next hut of the stack turns face up; the taking ends the turn's actions
    g.huts.stacks[0] = Stack::from_slice(&[hut(1), hut(2)]);
    let hand = g.players[0].hand;
    let mut scratch = Vec::new();
    g.apply(Action::TakeHut { hut: hut(2) }, &mut scratch).unwrap();
    assert_eq!(g.huts.stacks[0].as_slice(), &[hut(1)]);
    assert_eq!((g.phase, g.current_player()), (Phase::Place, Some(0)));
    assert_eq!(g.pending.as_slice(), &[(hut(2), false)]);
    assert_eq!(g.players[0].hand, hand); // free
    assert_eq!(g.huts.owned[0], 1);
}

#[test]
fn r_hut_2_a_face_down_or_taken_hut_or_an_empty_stack_offers_nothing() {
    let mut g = hut_table(0, &[hut(2)]);
    g.huts.stacks[0] = Stack::from_slice(&[hut(1), hut(2)]);
    let before = state_json(&g);
    let mut scratch = Vec::new();
    for bad in [hut(1), hut(3), hut(20), 54, 200] {
        assert!(g.apply(Action::TakeHut { hut: bad }, &mut scratch).is_err());
    }
    assert_eq!(state_json(&g), before);
    let huts = |g: &mut Game| legal(g).into_iter().filter(|a| matches!(a, Action::TakeHut { .. })).count();
    assert_eq!(huts(&mut g), 1); // the five other stacks are empty
    let mut g = table(0, &[money(0, 1)], &[money(3, 1)]);
    assert_eq!(huts(&mut g), 0); // without the module
}

#[test]
fn r_hut_3_a_hut_is_built_or_reserved_at_the_end_of_the_turn_never_given_to_dirk() {
    let mut g = Game::with_modules(2, 3, Options::default(), BUILDING_HUTS);
    let s = g.current_player().unwrap() as usize;
    let top = *g.huts.stacks[0].as_slice().last().unwrap();
    let mut scratch = Vec::new();
    g.apply(Action::TakeHut { hut: top }, &mut scratch).unwrap();
    let all = legal(&mut g);
    assert!(!all.iter().any(|a| matches!(a, Action::GiveToDirk { .. })));
    assert_eq!(*all.last().unwrap(), Action::Reserve { tile: top });
    // the hut's own walls decide where it may stand (R-PLACE-3, R-PLACE-7): around the bare
    // fountain, every side but the ones where a wall of the hut would face it
    let cells: Vec<u16> =
        all.iter().filter_map(|a| if let Action::Place { cell, .. } = a { Some(*cell) } else { None }).collect();
    let walls = g.tile_walls(top);
    let expected: Vec<u16> = [(-1, 0, EAST), (0, -1, SOUTH), (0, 1, NORTH), (1, 0, WEST)]
        .iter()
        .filter(|&&(_, _, side)| walls & side == 0)
        .map(|&(x, y, _)| cell(x, y))
        .collect();
    assert_eq!(cells, expected);
    g.apply(Action::Reserve { tile: top }, &mut scratch).unwrap();
    assert_eq!(g.players[s].reserve.as_slice(), &[top]);
    assert_eq!(g.phase, Phase::Turn);
    assert_ne!(g.current_player(), Some(s as u8));
    // R-TURN-5: the reserve's hut is built or swapped in like any tile
    let mut g2 = g;
    g2.turn_player = s as u8;
    g2.decider = Some(s as u8);
    assert!(legal(&mut g2).iter().any(|a| *a == Action::Build { tile: top, cell: expected[0] }));
}

#[test]
fn r_hut_4_a_player_owning_three_huts_takes_no_more() {
    let mut g = hut_table(0, &[hut(1), hut(4), hut(7)]);
    g.huts.owned[0] = 2;
    assert_eq!(legal(&mut g).iter().filter(|a| matches!(a, Action::TakeHut { .. })).count(), 3);
    g.huts.owned[0] = 3;
    assert!(!legal(&mut g).iter().any(|a| matches!(a, Action::TakeHut { .. })));
    let mut scratch = Vec::new();
    assert!(g.apply(Action::TakeHut { hut: hut(1) }, &mut scratch).is_err());
}

#[test]
fn r_hut_5_a_hut_counts_one_building_per_matching_open_neighbour_and_nothing_from_the_reserve() {
    // H1: a pavilion hut with a wall on the north, at (2, 0); pavilions 7 (no walls) north of it
    // behind its wall, 5 (wall north) east, 6 (wall east) south, 4 (walls north, west) west:
    // three open matching neighbours
    let mut g = hut_table(0, &[]);
    let city = &mut g.players[0].city;
    for (t, x, y) in [(hut(1), 2, 0), (7, 2, -1), (5, 3, 0), (6, 2, 1), (4, 1, 0)] {
        city.place(t, cell(x, y));
    }
    let city = g.players[0].city;
    assert_eq!(g.hut_value(&city, hut(1), cell(2, 0)), 3);
    // a wall on the neighbour's facing side (1: walls north, east, west), another type (seraglio
    // 14), a hut of the same colour (H3): none counts
    for (t, want) in [(1, 2), (14, 2), (hut(3), 2), (7, 3)] {
        let mut c = city;
        c.swap(t, cell(1, 0));
        assert_eq!(g.hut_value(&c, hut(1), cell(2, 0)), want, "west neighbour {t}");
    }
    // at a scoring: seat 0's three pavilions (4, 5, 6, 7 count as four) and the hut's three
    g.players[0].city = city;
    g.players[1].reserve = Stack::from_slice(&[hut(2)]);
    g.players[1].city.place(1, cell(0, 1));
    g.display = Stack::from_slice(&[money(3, 1), money(3, 2), money(3, 3), money(3, 4)]);
    g.deck = Stack::from_slice(&[money(3, 5), money(3, 6), SCORING_A]);
    let mut scratch = Vec::new();
    g.apply(Action::Take { cards: [money(3, 1), 0, 0, 0], n: 1 }, &mut scratch).unwrap();
    assert_eq!(g.scorings.len(), 1);
    assert_eq!((g.scorings[0].counts[0][0], g.scorings[0].counts[1][0]), (4 + 3, 1));
}

#[test]
fn r_hut_6_a_huts_walls_count_for_the_longest_outer_wall() {
    let mut g = hut_table(0, &[]);
    let city = &mut g.players[0].city;
    assert_eq!(city.longest_outer_wall(), 0);
    city.place(hut(1), cell(0, -1)); // a wall on the north, facing an empty cell
    assert_eq!(city.longest_outer_wall(), 1);
    city.place(hut(23), cell(-1, -1)); // walls north and west: one wall of three segments
    assert_eq!(city.longest_outer_wall(), 3);
}

#[test]
fn r_hut_1_a_layout_of_the_option_gives_the_huts_their_walls_and_the_save_their_ids() {
    // the shipped colours with every wall turned a quarter clockwise
    let huts: Vec<(u8, u8)> =
        (0..HUT_TILES).map(|k| (SHIPPED.types[k], (SHIPPED.walls[k] << 1 | SHIPPED.walls[k] >> 3) & 15)).collect();
    let opts = Options { huts: HutLayout::of(&huts).unwrap(), ..Default::default() };
    let mut g = Game::with_modules(3, 5, opts, BUILDING_HUTS);
    assert_eq!(g.tile_walls(hut(1)), EAST); // H1: north in the shipped layout
    assert_eq!(g.players[1].city.walls(hut(2)), WEST | NORTH);
    g.players[0].city.place(hut(1), cell(0, -1));
    g.players[0].reserve = Stack::from_slice(&[9, hut(2)]);
    let names: Vec<String> =
        (0..HUT_TILES).map(|k| if k == 1 { "say \"hi\"\\".into() } else { format!("h{k}") }).collect();
    let json = state_json_with(&g, &names);
    assert!(json.contains("[0, -1, \"h0\"]"));
    assert!(json.contains("\"reserve\": [9, \"say \\\"hi\\\"\\\\\"]"));
    assert!(json.contains("\"building_huts\": {\"stacks\": {\"pavilion\": ["));
    assert!(state_json(&g).contains("[0, -1, \"H1\"]")); // the shipped ids without names
}

#[test]
fn r_hut_2_an_action_code_names_the_hut_and_comes_back() {
    let a = Action::TakeHut { hut: hut(24) };
    assert_eq!(Action::from_code(a.code()), Some(a));
    assert_eq!(Action::from_code(17u64 << 59 | 54), None); // a building is no hut
    assert_eq!(Action::from_code(17u64 << 59 | (HUT_FIRST as u64 + HUT_TILES as u64)), None);
    for a in [Action::Place { tile: hut(3), cell: cell(0, 1) }, Action::Reserve { tile: hut(3) }] {
        assert_eq!(Action::from_code(a.code()), Some(a));
    }
}
