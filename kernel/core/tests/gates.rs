//! Hand-built situations of the city gates (R-GATE-1 … R-GATE-9) with their exact outcomes,
//! named by the rule ids of the rules digest (RULES.md). The Python test suite and the oracle
//! play whole games with the city gates on both engines in lockstep; these pin single rules
//! down inside the crate.

mod common;

use alhambra_kernel::city::Cell;
use alhambra_kernel::data::*;
use alhambra_kernel::export::state_json;
use alhambra_kernel::game::{Action, Game, Options, Phase, GATES, VIZIER};
use alhambra_kernel::gates::{After, Window};
use alhambra_kernel::stack::Stack;
use common::{cell, legal, table};

/// Tiles by their walls (R-COMP-2): none, north, east, south, east and south.
const OPEN: u8 = 7;
const NORTH_WALL: u8 = 5;
const EAST_WALL: u8 = 6;
const SOUTH_WALL: u8 = 13;
const WEST_WALL: u8 = 12;

/// Seat 0 at the start of its turn with the city gates, `hand`, the tiles `city` (besides the
/// fountain) and `reserve`.
fn gates_table(hand: &[u8], city: &[(i32, i32, u8)], reserve: &[u8]) -> Game {
    let mut g = table(GATES, hand, &[money(0, 2), money(1, 3), money(2, 4), money(3, 5)]);
    for &(x, y, t) in city {
        g.players[0].city.place(t, cell(x, y));
    }
    g.players[0].reserve = Stack::from_slice(reserve);
    g
}

fn gate_actions(g: &mut Game) -> Vec<Action> {
    legal(g)
        .into_iter()
        .filter(|a| {
            matches!(
                a,
                Action::TakeGate { .. }
                    | Action::PlayGate { .. }
                    | Action::FinishGates
                    | Action::BuildThroughGate { .. }
            )
        })
        .collect()
}

fn removals(g: &mut Game) -> Vec<Cell> {
    legal(g)
        .into_iter()
        .filter_map(|a| match a {
            Action::Remove { cell } => Some(cell),
            _ => None,
        })
        .collect()
}

#[test]
fn r_gate_1_and_r_gate_2_one_card_per_player_dealt_into_piles_3_4_and_5_in_turn() {
    for (n, cards, want) in
        [(2, 0, [1, 1, 0]), (4, 0, [2, 1, 1]), (5, 0, [2, 2, 1]), (6, 0, [2, 2, 2]), (3, 5, [2, 2, 1])]
    {
        let opts = Options { gate_cards: cards, ..Default::default() };
        let g = Game::with_modules(n, 7, opts, GATES);
        let used = if cards == 0 { (n as u8).max(2) } else { cards };
        // the deck holds the piles top first, pile 1 on top
        let mut from_top: Vec<u8> = g.deck.iter().rev().copied().collect();
        let mut per_pile = [0usize; 5];
        for (k, &size) in g.pile_sizes.iter().enumerate() {
            let pile: Vec<u8> = from_top.drain(..size as usize).collect();
            per_pile[k] = pile.iter().filter(|&&c| is_gate(c)).count();
        }
        assert_eq!(&per_pile[..2], &[0, 0]);
        assert_eq!(&per_pile[2..], &want);
        assert_eq!(g.gates.unused.as_slice(), (used + 1..=6).collect::<Vec<_>>().as_slice());
        assert_eq!(g.gates.space, 0);
    }
}

#[test]
fn r_gate_3_a_gate_card_drawn_waits_on_the_gate_space_and_one_more_goes_to_the_discard_pile() {
    let mut g = gates_table(&[], &[], &[]);
    // the display refilled after taking florin-2: gate-2, then gate-5, then dirham-7
    g.deck = Stack::from_slice(&[money(1, 7), gate(5), gate(2)]);
    g.discard.clear();
    g.apply_legal(Action::Take { cards: [money(0, 2), 0, 0, 0], n: 1 });
    assert_eq!(g.gates.space, 2);
    assert_eq!(g.discard.as_slice(), &[gate(5)]);
    assert!(g.display.contains(money(1, 7)) && !g.display.iter().any(|&c| is_gate(c)));
}

#[test]
fn r_gate_4_the_waiting_gate_card_is_taken_instead_of_money_and_ends_the_turn() {
    let mut g = gates_table(&[], &[], &[]);
    g.gates.space = 3;
    let all = legal(&mut g);
    assert_eq!(all[0], Action::TakeGate { card: gate(3) });
    g.apply_legal(Action::TakeGate { card: gate(3) });
    assert_eq!(g.players[0].hand.as_slice(), &[gate(3)]);
    assert_eq!(g.gates.space, 0);
    assert_eq!((g.phase, g.decider), (Phase::Turn, Some(1)));
    assert!(state_json(&g).contains("\"players\": [{\"name\": \"\", \"hand\": [\"gate-3\"]"));
}

#[test]
fn r_gate_5_a_change_that_makes_a_double_wall_opens_the_window_for_gates() {
    // fountain, (0, 1) open, (1, 0) walled south; building a north-walled tile at (1, 1) makes
    // a double wall between (1, 0) and (1, 1)
    let mut g = gates_table(&[gate(1), gate(2)], &[(0, 1, OPEN), (1, 0, SOUTH_WALL)], &[NORTH_WALL]);
    g.apply_legal(Action::Build { tile: NORTH_WALL, cell: cell(1, 1) });
    assert_eq!((g.phase, g.decider), (Phase::Gates, Some(0)));
    assert_eq!((g.gates.window, g.gates.then), (Window::Change, After::Done));
    let wall = Action::PlayGate { card: gate(1), cell: cell(1, 0), side: SOUTH };
    assert_eq!(legal(&mut g), vec![wall, Action::FinishGates]);
    assert!(state_json(&g).contains("\"window\": \"change\", \"then\": \"done\""));
    // the gate on the only double wall: none is left, so the window closes and the turn ends
    g.apply_legal(wall);
    assert_eq!(g.players[0].city.gates(), &[(cell(1, 0), SOUTH)]);
    assert_eq!(g.players[0].hand.as_slice(), &[gate(2)]);
    assert_eq!(g.gates.played.as_slice(), &[1]);
    assert_eq!((g.phase, g.decider, g.gates.window), (Phase::Turn, Some(1), Window::None));
    assert!(state_json(&g).contains("[1, 0, 4, \"open\"]]"));
}

#[test]
fn r_gate_5_no_more_gates_and_the_placement_goes_on() {
    let mut g = gates_table(&[gate(1)], &[(0, 1, OPEN), (1, 0, SOUTH_WALL)], &[]);
    g.phase = Phase::Place;
    g.place_context = alhambra_kernel::game::Context::Turn;
    g.pending = Stack::from_slice(&[(NORTH_WALL, true), (OPEN, true)]);
    g.apply_legal(Action::Place { tile: NORTH_WALL, cell: cell(1, 1) });
    assert_eq!((g.phase, g.gates.then), (Phase::Gates, After::In(Phase::Place)));
    g.apply_legal(Action::FinishGates);
    // back to the placement: the open tile is still to place
    assert_eq!((g.phase, g.decider), (Phase::Place, Some(0)));
    assert_eq!(g.pending.as_slice(), &[(OPEN, true)]);
    assert!(g.players[0].city.gates().is_empty());
}

#[test]
fn r_gate_5_no_window_without_a_gate_card_or_without_a_double_wall() {
    let mut g = gates_table(&[], &[(0, 1, OPEN), (1, 0, SOUTH_WALL)], &[NORTH_WALL]);
    g.apply_legal(Action::Build { tile: NORTH_WALL, cell: cell(1, 1) });
    assert_eq!((g.phase, g.decider), (Phase::Turn, Some(1)));
    let mut g = gates_table(&[gate(1)], &[(1, 0, SOUTH_WALL)], &[OPEN]);
    g.apply_legal(Action::Build { tile: OPEN, cell: cell(0, 1) });
    assert_eq!((g.phase, g.decider), (Phase::Turn, Some(1)));
}

#[test]
fn r_gate_6_a_tile_that_meets_the_alhambra_only_wall_against_wall_is_built_through_a_gate() {
    // (1, 0) walled east; a west-walled tile at (2, 0) meets it only wall against wall
    let mut g = gates_table(&[gate(4)], &[(1, 0, EAST_WALL)], &[WEST_WALL]);
    let build = Action::BuildThroughGate { card: gate(4), tile: WEST_WALL, cell: cell(2, 0), side: WEST };
    assert_eq!(gate_actions(&mut g), vec![build]);
    assert!(!legal(&mut g).contains(&Action::Build { tile: WEST_WALL, cell: cell(2, 0) }));
    g.apply_legal(build);
    let city = &g.players[0].city;
    assert_eq!(city.tile_at(cell(2, 0)), Some(WEST_WALL));
    assert_eq!(city.gates(), &[(cell(1, 0), EAST)]);
    assert!(g.players[0].reserve.is_empty() && g.players[0].hand.is_empty());
    assert_eq!(g.gates.played.as_slice(), &[4]);
    assert_eq!((g.phase, g.decider), (Phase::Turn, Some(1)));
}

#[test]
fn r_gate_6_a_gated_side_is_open_for_walking_and_r_gate_7_its_two_tiles_stay() {
    // (2, 0) reached through the gate between (1, 0) and (2, 0) only, and a tile of the same
    // walls in the reserve
    let mut g = gates_table(&[], &[(1, 0, EAST_WALL), (2, 0, WEST_WALL), (0, 1, OPEN)], &[30]);
    g.players[0].city.open_side(cell(2, 0), WEST);
    assert_eq!(g.players[0].city.gates(), &[(cell(1, 0), EAST)]);
    // without R-GATE-7, (2, 0) would be a leaf of the walks: it stays, as (1, 0) does
    assert_eq!(removals(&mut g), vec![cell(0, 1)]);
    let swaps: Vec<Action> = legal(&mut g).into_iter().filter(|a| matches!(a, Action::Swap { .. })).collect();
    assert_eq!(swaps, vec![Action::Swap { tile: 30, cell: cell(0, 1) }]);
    // the frontier beyond (2, 0) is reached through the gate (R-PLACE-5 with R-GATE-6)
    let mut cells = vec![];
    g.players[0].city.place_cells(0, &mut |c| cells.push(c));
    assert!(cells.contains(&cell(2, 1)) && cells.contains(&cell(3, 0)));
}

#[test]
fn r_gate_5_ruling_a_gate_played_on_a_turn_opens_the_way_for_a_removal_and_commits_to_it() {
    // (0, 1) links (1, 1) to the fountain; a gate between (1, 0) and (1, 1) lets it go
    let mut g = gates_table(&[gate(6)], &[(0, 1, OPEN), (1, 0, SOUTH_WALL), (1, 1, NORTH_WALL)], &[]);
    assert_eq!(removals(&mut g), vec![cell(1, 0), cell(1, 1)]);
    let gate_first = Action::PlayGate { card: gate(6), cell: cell(1, 0), side: SOUTH };
    assert_eq!(gate_actions(&mut g), vec![gate_first]);
    g.apply_legal(gate_first);
    assert_eq!((g.phase, g.decider), (Phase::Gates, Some(0)));
    assert_eq!((g.gates.window, g.gates.then), (Window::Removal, After::Nothing));
    // committed: only the removals, which the gate's two tiles are not among (R-GATE-7)
    assert_eq!(legal(&mut g), vec![Action::Remove { cell: cell(0, 1) }]);
    g.apply_legal(Action::Remove { cell: cell(0, 1) });
    assert_eq!(g.players[0].reserve.as_slice(), &[OPEN]);
    assert_eq!((g.phase, g.decider, g.gates.window), (Phase::Turn, Some(1), Window::None));
}

#[test]
fn r_gate_5_ruling_no_gate_for_a_removal_that_needs_more_gates_than_the_cards_in_hand() {
    // removing (0, 1) cuts off (1, 1) and (-1, 1), each across its own double wall
    let city = [(0, 1, OPEN), (1, 0, SOUTH_WALL), (1, 1, NORTH_WALL), (-1, 0, SOUTH_WALL), (-1, 1, NORTH_WALL)];
    let mut g = gates_table(&[gate(1)], &city, &[]);
    assert!(gate_actions(&mut g).is_empty());
    let mut g = gates_table(&[gate(1), gate(2)], &city, &[]);
    let walls = vec![
        Action::PlayGate { card: gate(1), cell: cell(-1, 0), side: SOUTH },
        Action::PlayGate { card: gate(1), cell: cell(1, 0), side: SOUTH },
    ];
    assert_eq!(gate_actions(&mut g), walls);
    g.apply_legal(walls[1]);
    // committed to a removal: the second gate is listed, and so are the removals legal now
    // (any removal meets the commitment)
    assert_eq!(
        legal(&mut g),
        vec![
            Action::PlayGate { card: gate(2), cell: cell(-1, 0), side: SOUTH },
            Action::Remove { cell: cell(-1, 0) },
            Action::Remove { cell: cell(-1, 1) },
        ]
    );
    g.apply_legal(Action::PlayGate { card: gate(2), cell: cell(-1, 0), side: SOUTH });
    assert_eq!(removals(&mut g), vec![cell(0, 1)]);
}

#[test]
fn r_gate_8_gate_cards_are_no_money_and_a_vizier_is_not_asked_for_them() {
    let mut g = table(GATES | VIZIER, &[gate(1), gate(2)], &[money(0, 2)]);
    assert!(!g.can_pay_exactly(0));
    assert_eq!(value(gate(1)), 0);
    assert!(!is_money(gate(1)) && !is_cash(gate(1)));
    assert!(!legal(&mut g).iter().any(|a| matches!(a, Action::Take { cards, .. } if is_gate(cards[0]))));
}

#[test]
fn r_gate_4_to_r_gate_6_action_codes_name_the_card_cell_and_side_and_come_back() {
    for a in [
        Action::TakeGate { card: gate(6) },
        Action::PlayGate { card: gate(2), cell: cell(-3, 4), side: SOUTH },
        Action::FinishGates,
        Action::BuildThroughGate { card: gate(1), tile: 54, cell: cell(5, -5), side: WEST },
    ] {
        assert_eq!(Action::from_code(a.code()), Some(a));
    }
    // a side a gate is not kept on, a card that is no gate card, a stray bit: no action
    let play = Action::PlayGate { card: gate(2), cell: cell(0, 1), side: SOUTH }.code();
    assert_eq!(Action::from_code(play & !(0xff << 24) | (WEST as u64) << 24), None);
    assert_eq!(Action::from_code(play & !(0xff << 32) | (money(0, 1) as u64) << 32), None);
    assert_eq!(Action::from_code(Action::FinishGates.code() | 1), None);
    assert_eq!(card_of_code("gate-6"), Some(gate(6)));
    assert_eq!(card_of_code("gate-7"), None);
    assert_eq!(card_code(gate(1)), "gate-1");
}

/// A hut of the game's layout whose walls include `with` and exclude `without` (R-HUT-1).
fn hut_with(g: &Game, with: u8, without: u8) -> u8 {
    let walls = &g.players[0].city.hut_walls;
    let k = walls.iter().position(|&w| w & with == with && w & without == 0).expect("such a hut");
    alhambra_kernel::huts::HUT_FIRST + k as u8
}

#[test]
fn r_gate_9_gates_work_on_huts_walls_like_any_tiles() {
    use alhambra_kernel::game::BUILDING_HUTS;
    // a hut walled west meets (1, 0), walled east, only wall against wall: built through a gate
    let mut g = table(GATES | BUILDING_HUTS, &[gate(4)], &[money(0, 2), money(1, 3), money(2, 4), money(3, 5)]);
    let hut = hut_with(&g, WEST, 0);
    g.players[0].city.place(EAST_WALL, cell(1, 0));
    g.players[0].reserve = Stack::from_slice(&[hut]);
    let build = Action::BuildThroughGate { card: gate(4), tile: hut, cell: cell(2, 0), side: WEST };
    assert_eq!(gate_actions(&mut g), vec![build]);
    assert_eq!(Action::from_code(build.code()), Some(build));
    g.apply_legal(build);
    assert_eq!(g.players[0].city.tile_at(cell(2, 0)), Some(hut));
    assert_eq!(g.players[0].city.gates(), &[(cell(1, 0), EAST)]);
    // a hut walled north built below (1, 0), walled south, makes a double wall a gate can take
    let mut g = table(GATES | BUILDING_HUTS, &[gate(1)], &[money(0, 2), money(1, 3), money(2, 4), money(3, 5)]);
    let hut = hut_with(&g, NORTH, WEST);
    g.players[0].city.place(OPEN, cell(0, 1));
    g.players[0].city.place(SOUTH_WALL, cell(1, 0));
    g.players[0].reserve = Stack::from_slice(&[hut]);
    g.apply_legal(Action::Build { tile: hut, cell: cell(1, 1) });
    assert_eq!((g.phase, g.gates.window), (Phase::Gates, Window::Change));
    let wall = Action::PlayGate { card: gate(1), cell: cell(1, 0), side: SOUTH };
    assert!(legal(&mut g).contains(&wall));
}
