//! The greedy bot's evaluation on hand-built situations: exact values of the actions whose
//! value is a formula of the weights (R-VIZ-4 reactivating the vizier, R-BON-3 revealing a
//! bonus card, R-TURN-9 passing, a reserve placement), the choice of an exact payment
//! (R-TURN-4), ties to the first listed, the noise drawn from the bot's generator, and the
//! weights refused.

mod common;

use alhambra_kernel::data::*;
use alhambra_kernel::game::{Action, Game, Options, Phase, BONUS, VIZIER};
use alhambra_kernel::greedy::{self, Memo, Weights, WEIGHT_COUNT};
use alhambra_kernel::rng::Mt;
use alhambra_kernel::stack::Stack;
use common::{legal, table};

fn values(g: &Game, w: &Weights, legal: &[Action]) -> Vec<f64> {
    let mut out = Vec::new();
    greedy::action_values(g, w, legal, &mut Memo::default(), &mut out);
    out
}

/// Keep `k` tiles in the bag: the share of the game left is `k / 50` (no Dirk).
fn bag_of(g: &mut Game, k: usize) {
    g.bag = Stack::from_slice(&g.bag.as_slice()[..k]);
}

#[test]
fn r_viz_4_reactivating_is_worth_the_vizier_weight_times_the_game_left() {
    let mut g = table(VIZIER | BONUS, &[money(0, 3)], &[money(1, 2), money(2, 3)]);
    g.vizier.active[0] = false;
    bag_of(&mut g, 25);
    let w = Weights::default();
    let acts = legal(&mut g);
    let vals = values(&g, &w, &acts);
    let k = acts.iter().position(|a| *a == Action::ReactivateVizier).expect("reactivating is legal");
    assert_eq!(vals[k], 2.0 * 0.5);
    // R-BON-3: revealing a bonus card is free and tells the others something
    for (a, v) in acts.iter().zip(&vals) {
        if let Action::RevealBonus { .. } = a {
            assert_eq!(*v, -0.01);
        }
    }
}

#[test]
fn a_reserve_placement_is_worth_a_share_of_its_type_less_the_penalty() {
    let mut g = table(0, &[], &[money(0, 1)]);
    let pavilion = (1..=54u8).find(|&t| TILE_TYPE[t as usize] == 0).unwrap();
    g.phase = Phase::Place;
    g.pending = Stack::from_slice(&[(pavilion, false)]);
    let w = Weights::default();
    let acts = legal(&mut g);
    let vals = values(&g, &w, &acts);
    let k = acts.iter().position(|a| *a == Action::Reserve { tile: pavilion }).expect("reserving is legal");
    // the 3rd scoring's first place of pavilions is 16 points (R-SCORE-2)
    assert_eq!(vals[k], 0.35 * (16.0 / 8.0) - 1.0);
    // the first building next to the fountain: every placement is worth more than the reserve
    assert!(acts.iter().zip(&vals).all(|(a, &v)| !matches!(a, Action::Place { .. }) || v > vals[k]));
}

#[test]
fn r_turn_4_an_exact_payment_for_a_wanted_building_is_chosen() {
    let tile = (1..=54u8).find(|&t| TILE_PRICE[t as usize] == 5).unwrap();
    let mut g = table(0, &[money(0, 4), money(0, 1), money(0, 9)], &[money(1, 1), money(1, 2), money(2, 2)]);
    g.market = [tile, 0, 0, 0];
    let acts = legal(&mut g);
    let mut rng = Mt::from_seed(1);
    let k = greedy::choose(&g, &Weights::default(), 0.0, &mut rng, &acts, &mut Memo::default());
    match acts[k] {
        Action::Buy(p) => assert_eq!((p.space, p.total()), (1, 5), "the exact payment"),
        other => panic!("chose {other:?}"),
    }
    // no noise: the generator is not drawn from
    assert_eq!(rng.next_u32(), Mt::from_seed(1).next_u32());
}

#[test]
fn ties_go_to_the_first_listed_and_a_single_action_draws_nothing() {
    // two passes of equal value: the first
    let mut g = table(0, &[], &[money(0, 1)]);
    let acts = [Action::Pass, Action::Pass];
    let mut rng = Mt::from_seed(5);
    assert_eq!(greedy::choose(&g, &Weights::default(), 0.0, &mut rng, &acts, &mut Memo::default()), 0);
    let one = legal(&mut g)[..1].to_vec();
    assert_eq!(greedy::choose(&g, &Weights::default(), 3.0, &mut rng, &one, &mut Memo::default()), 0);
    assert_eq!(rng.next_u32(), Mt::from_seed(5).next_u32());
}

#[test]
fn the_noise_is_uniform_from_minus_to_plus_noise_drawn_per_action_in_order() {
    // two passes of value 0: the jitter alone decides, as random.uniform(-1, 1) per action
    let g = table(0, &[], &[money(0, 1)]);
    let acts = [Action::Pass, Action::Pass, Action::Pass];
    let mut rng = Mt::from_seed(9);
    let k = greedy::choose(&g, &Weights::default(), 1.0, &mut rng, &acts, &mut Memo::default());
    let mut twin = Mt::from_seed(9);
    let draws: Vec<f64> = (0..3).map(|_| -1.0 + 2.0 * twin.random()).collect();
    let best = (0..3).fold(0, |b, i| if draws[i] > draws[b] { i } else { b });
    assert_eq!(k, best);
    assert_eq!(rng.next_u32(), twin.next_u32(), "three draws of random()");
}

#[test]
fn weights_are_21_finite_numbers() {
    assert_eq!(WEIGHT_COUNT, 21);
    assert!(Weights::from_slice(&[1.0; 20]).unwrap_err().contains("21 weights"));
    let mut v = [1.0; 21];
    v[16] = f64::NAN;
    assert!(Weights::from_slice(&v).unwrap_err().contains("money_cap"));
    assert_eq!(Weights::default().money_cap, 40.0);
}

#[test]
fn a_whole_game_of_greedy_bots_ends() {
    let mut g = Game::with_modules(4, 3, Options::default(), VIZIER | BONUS);
    let (w, mut memo, mut rng) = (Weights::default(), Memo::default(), Mt::from_seed(2));
    let mut acts = Vec::new();
    let mut n = 0;
    while !g.is_over() {
        g.legal(&mut acts);
        let k = greedy::choose(&g, &w, 0.5, &mut rng, &acts, &mut memo);
        g.apply_legal(acts[k]);
        n += 1;
        assert!(n < 2000, "the game ends");
    }
    assert_eq!(g.scorings.len(), 3);
}
