//! The environments' action codec and observation vector on hand-built situations (docs/env.md):
//! the layout's sizes, the cell slots of an Alhambra, a purchase written integer by integer, a
//! take's single integer, and the slices an observation fills. The Python test suite compares
//! both with the Python codec and observer over whole games (tests/test_env_kernel.py).

mod common;

use alhambra_kernel::codec::{Choice, Codec, Decision, Slots};
use alhambra_kernel::data::*;
use alhambra_kernel::game::{
    Action, Game, Options, BONUS, BUILDING_HUTS, DIAMONDS, GATES, KERNEL_MODULES, OFFICES, VIZIER,
};
use alhambra_kernel::observe::Observer;
use common::{cell, legal, table};

use alhambra_kernel::codec::default_cards as cards;

fn segment(c: &Codec, name: &str) -> (usize, usize) {
    let &(_, start, size) = c.segments.iter().find(|s| s.0 == name).unwrap();
    (start, size)
}

#[test]
fn the_layout_has_the_documented_sizes() {
    // docs/env.md, "Sizes per configuration"
    for (mods, actions, slots) in [
        (0, 1021, 167),
        (VIZIER, 1064, 167),
        (BUILDING_HUTS, 1183, 176),
        (BONUS, 1075, 167),
        (OFFICES, 1051, 167),
        (DIAMONDS, 1078, 167),
        (GATES, 1458, 167),
        (VIZIER | BUILDING_HUTS | BONUS | OFFICES, 1334, 176),
    ] {
        let c = Codec::new(mods, &cards(mods));
        assert_eq!((c.num_actions, c.slots), (actions, slots), "modules {mods:#b}");
    }
    let c = Codec::new(0, &cards(0));
    assert_eq!(segment(&c, "TakeMoney.cards"), (1, 375));
    assert_eq!(segment(&c, "cell"), (1 + 375 + 4 + 37 + 54, 167));
    let all = KERNEL_MODULES;
    let c = Codec::new(all, &cards(all));
    let names: Vec<&str> = c.segments.iter().map(|s| s.0).collect();
    assert_eq!(
        names[11..],
        [
            "RevealBonus.building",
            "TakeHut.hut",
            "BuildThroughGate.card",
            "BuildThroughGate.tile",
            "BuildThroughGate.x,y",
            "BuildThroughGate.side",
            "FinishGates",
            "PlayGate.card",
            "PlayGate.x,y",
            "PlayGate.side",
            "TakeGate.card",
            "BuyWithDiamonds.space",
            "BuyWithDiamonds.cards",
            "TakeOffice.office",
            "DeclineVizier",
            "ReactivateVizier",
            "UseVizier.space+via",
            "UseVizier.cards"
        ]
    );
    assert_eq!(segment(&c, "TakeMoney.cards").1, 407);
    // the own currency, or through any card neither money nor scoring card (Python's
    // `means_cards`: the six offices and the six gate cards)
    assert_eq!(segment(&c, "Buy.space+via").1, 4 * 13);
    assert_eq!(segment(&c, "TakeOffice.office").1, 12);
    assert_eq!(segment(&c, "Buy.cards").1, 47);
}

#[test]
fn the_slots_of_the_fountain_alone_are_row_by_row() {
    let g = Game::new(2, 1, Options::default());
    let s = Slots::of(&g.players[0].city);
    let cells: Vec<u16> = (0..s.len()).map(|k| s.cell(k)).collect();
    assert_eq!(cells, [cell(0, -1), cell(-1, 0), cell(0, 0), cell(1, 0), cell(0, 1)]);
    assert_eq!(s.index(cell(1, 0)), Some(3));
    assert_eq!(s.index(cell(1, 1)), None);
}

#[test]
fn a_purchase_is_the_space_then_each_card_then_done() {
    // seat 0 holds florin 2 and florin 3; the building on the florin space costs 5 or less
    let mut g = table(0, &[money(0, 2), money(0, 3)], &[money(1, 1)]);
    g.market = [2, 0, 0, 0]; // building 2 costs 3: a florin 3 alone, no other minimal payment
    let legal = legal(&mut g);
    let c = Codec::new(0, &cards(0));
    let mut d = Decision::default();
    assert!(d.load(&c, &g, &legal));
    let (via, _) = segment(&c, "Buy.space+via");
    let (buy_cards, n) = segment(&c, "Buy.cards");
    let done = (buy_cards + n - 1) as u16;
    let mut ints = Vec::new();
    d.legal_ints(&mut ints);
    assert!(ints.contains(&(via as u16)));
    assert_eq!(d.choose(via as u16), Choice::More);
    d.legal_ints(&mut ints);
    assert_eq!(ints, [(buy_cards + money(0, 3) as usize) as u16]);
    assert_eq!(d.choose(done), Choice::Illegal);
    assert_eq!(d.choose(ints[0]), Choice::More);
    let Choice::Done(k) = d.choose(done) else { panic!("the payment is complete") };
    match legal[k] {
        Action::Buy(p) => assert_eq!((p.space, p.total()), (1, 3)),
        a => panic!("{a:?}"),
    }
    assert!(d.prefix().is_empty());
    // a take of the dirham 1 is one integer: the first of the takes' segment after the florins
    let (take, _) = segment(&c, "TakeMoney.cards");
    let Choice::Done(k) = d.choose((take + money(1, 1) as usize) as u16) else { panic!("a take is one integer") };
    assert_eq!(legal[k], Action::Take { cards: [money(1, 1), 0, 0, 0], n: 1 });
    let mut mask = vec![0i8; c.num_actions];
    d.mask(&mut mask);
    assert_eq!(mask.iter().filter(|&&m| m == 1).count(), ints_at_root(&d));
}

fn ints_at_root(d: &Decision) -> usize {
    let mut ints = Vec::new();
    d.legal_ints(&mut ints);
    ints.len()
}

#[test]
fn an_observation_fills_its_slices() {
    let g = table(0, &[money(0, 2), money(0, 3), money(0, 3)], &[money(1, 1)]);
    let c = Codec::new(0, &cards(0));
    let o = Observer::new(3, 0, &cards(0), c.slots, c.num_actions);
    assert_eq!(o.size, 9105); // docs/env.md: 3 players, no module
    let slice = |name: &str| o.slices.iter().find(|s| s.0 == name).map(|s| (s.1, s.2)).unwrap();
    let mut out = vec![7.0f32; o.size];
    o.write(&g, 0, &mut out, &mut Slots::default());
    let (hand, _) = slice("hand");
    assert_eq!(out[hand + money(0, 3) as usize], 2.0);
    assert_eq!(out[hand + money(0, 2) as usize], 1.0);
    let (cities, _) = slice("cities");
    // slot 2 of the observer's Alhambra is the fountain: in use, at (0, 0), the fountain plane
    assert_eq!(out[cities + 2 * 15..cities + 2 * 15 + 4], [1.0, 0.0, 0.0, 1.0]);
    let (decision, end) = slice("decision");
    assert!(out[decision..end].iter().all(|&x| x == 0.0));
    // seen from seat 1, seat 0 is the last of the relative order
    o.write(&g, 1, &mut out, &mut Slots::default());
    let (sizes, _) = slice("hand_sizes");
    assert_eq!(out[sizes + 2], 3.0);
    assert!(out[hand..hand + 36].iter().all(|&x| x != 2.0));
}
