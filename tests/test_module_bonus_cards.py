"""Tests of the module "bonus_cards" (R-BON-1 … R-BON-5), one or more per rule, with hand-built
situations and exact outcomes, plus hypothesis properties over random legal games."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from alhambra import operations
from alhambra.engine import sequence
import alhambra
import alhambra_bonus_cards as bonus
from alhambra import (
    Alhambra,
    BuildFromReserve,
    Game,
    IllegalActionError,
    RemoveToReserve,
    Swap,
    TakeMoney,
)
from alhambra.testing import check_invariants, random_playout
from alhambra_bonus_cards import BONUS_CARDS, RevealBonus, bonus_card_locations
from helpers import advance, continue_alike, save_and_load

MOD = ["bonus_cards"]


# ---------------------------------------------------------------------------------------------
# Helpers that build situations by editing the state (before any legal_actions() call)
# ---------------------------------------------------------------------------------------------


def take_tiles(game, *tiles) -> None:
    """Take ``tiles`` out of the bag, the market or Dirk's collection so a test can put them
    elsewhere; emptied market spaces and Dirk's slots are refilled from the bag."""
    s = game.state
    dirk = s.modules.get("dirk")
    for t in tiles:
        if t in s.bag:
            s.bag.remove(t)
    for t in tiles:
        if t in s.market:
            s.market[s.market.index(t)] = s.bag.pop()
        if dirk is not None and t in dirk.tiles:
            dirk.tiles[dirk.tiles.index(t)] = s.bag.pop()


def situation(game, *, cities=None, reserves=None, hands=None, revealed=None) -> None:
    """Give seats Alhambras (``{seat: {pos: tile}}``), reserves (``{seat: [tiles]}``) and bonus
    cards (``hands``/``revealed``: ``{seat: [buildings]}``, every other card out of play)."""
    cities, reserves = cities or {}, reserves or {}
    take_tiles(game, *[t for c in cities.values() for t in c.values()], *[t for r in reserves.values() for t in r])
    for seat, tiles in cities.items():
        game.state.players[seat].city = Alhambra.from_tiles(tiles, catalog=game.rules.catalog)
    for seat, tiles in reserves.items():
        game.state.players[seat].reserve = list(tiles)
    if hands is not None or revealed is not None:
        hands, revealed = hands or {}, revealed or {}
        n = game.num_players
        bs = bonus.bonus_state(game)
        bs.hands = [sorted(hands.get(i, [])) for i in range(n)]
        bs.revealed = [sorted(revealed.get(i, [])) for i in range(n)]
        used = {b for h in bs.hands + bs.revealed for b in h}
        bs.out_of_play = sorted(set(BONUS_CARDS) - used)
    check_invariants(game)
    check_bonus_accounting(game)


def check_bonus_accounting(game) -> None:
    """Every bonus card is in exactly one place (a hand, revealed, out of play)."""
    locs = bonus_card_locations(game)
    everything = [b for cards in locs.values() for b in cards]
    assert sorted(everything) == sorted(BONUS_CARDS), locs
    n = game.num_players
    assert set(locs) == {f"hand:{i}" for i in range(n)} | {f"revealed:{i}" for i in range(n)} | {"out_of_play"}


def check_revealed_in_city(game) -> None:
    """R-BON-4: a revealed card's building always stands in its owner's Alhambra."""
    bs = bonus.bonus_state(game)
    for seat, shown in enumerate(bs.revealed):
        for b in shown:
            assert game.state.players[seat].city.position_of(b) is not None, (seat, b)


def next_turn_of(game, seat) -> None:
    """Let the other players take money until it is ``seat``'s turn again (no scoring may
    happen meanwhile: the tests' seeds are chosen so)."""
    scorings = len(game.state.scorings)
    while game.current_player != seat:
        game.apply(next(a for a in game.legal_actions() if isinstance(a, TakeMoney)))
    assert game.phase == "turn"
    assert len(game.state.scorings) == scorings


def three_player_game(seed=11):
    game = alhambra.new_game(3, modules=MOD, seed=seed)
    p = game.current_player
    return game, p, (p + 1) % 3, (p + 2) % 3


# ---------------------------------------------------------------------------------------------
# R-BON-1: the components
# ---------------------------------------------------------------------------------------------


def test_r_bon_1_cards_are_the_ten_wall_less_buildings():
    """R-BON-1: one bonus card per building without walls, and no other."""
    wall_less = sorted(b.id for b in alhambra.BUILDINGS if b.walls == 0)
    assert sorted(BONUS_CARDS) == wall_less
    assert len(BONUS_CARDS) == len(set(BONUS_CARDS)) == 10
    assert Counter(alhambra.BUILDINGS[b - 1].type for b in BONUS_CARDS) == {
        "pavilion": 1,
        "seraglio": 1,
        "arcades": 2,
        "chambers": 2,
        "garden": 2,
        "tower": 2,
    }


def test_r_bon_1_module_metadata():
    """The module names its rules R-BON-1 … R-BON-5 and is enabled by name."""
    assert bonus.NAME == "bonus_cards"
    assert bonus.RULES == ("R-BON-1", "R-BON-2", "R-BON-3", "R-BON-4", "R-BON-5")
    assert isinstance(bonus.DESCRIPTION, str) and "\n" not in bonus.DESCRIPTION
    game = alhambra.new_game(4, modules=MOD, seed=1)
    assert game.rules.modules == ("bonus_cards",)
    assert isinstance(game.state.modules["bonus_cards"], bonus.BonusCardsState)


# ---------------------------------------------------------------------------------------------
# R-BON-2: the deal
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, each, out", [(2, 3, 4), (3, 3, 1), (4, 2, 2), (5, 2, 0), (6, 1, 4)])
def test_r_bon_2_deal_sizes(players, each, out):
    """R-BON-2: 3 cards each with 2-3 players, 2 with 4-5, 1 with 6; the rest out of play;
    nothing revealed at the start."""
    for seed in range(5):
        game = alhambra.new_game(players, modules=MOD, seed=seed)
        bs = bonus.bonus_state(game)
        assert [len(h) for h in bs.hands] == [each] * players
        assert bs.revealed == [[] for _ in range(players)]
        assert len(bs.out_of_play) == out
        check_bonus_accounting(game)


def test_r_bon_2_dirk_gets_no_cards():
    """R-BON-2: with 2 players Dirk receives no bonus card: only the two seats hold cards, and
    Dirk's scoring counts are his buildings only."""
    game = alhambra.new_game(2, modules=MOD, seed=3)
    bs = bonus.bonus_state(game)
    assert len(bs.hands) == len(bs.revealed) == 2
    assert len(bs.out_of_play) == 10 - 2 * 3
    dirk_tiles = list(game.state.modules["dirk"].tiles)
    operations.run_scoring(game, 1)
    record = game.state.scorings[-1]
    assert record.participants == [0, 1, 2]
    expected = Counter(alhambra.BUILDINGS[t - 1].type for t in dirk_tiles)
    assert {k: v for k, v in record.counts[2].items() if v} == dict(expected)


def test_r_bon_2_deal_is_seeded_and_shuffled():
    """R-BON-2: the deal uses the game's random generator: same seed, same deal; the deal
    varies with the seed."""

    def deal(seed):
        return bonus.bonus_state(alhambra.new_game(4, modules=MOD, seed=seed)).hands

    assert deal(5) == deal(5)
    assert len({json.dumps(deal(s)) for s in range(20)}) > 10


# ---------------------------------------------------------------------------------------------
# R-BON-3: revealing, and counting as one more building
# ---------------------------------------------------------------------------------------------


def test_r_bon_3_revealed_card_wins_the_majority_scoring_1():
    """R-BON-3: a revealed card counts as one more arcade: 2 against 1, seat p takes the
    3 points of scoring 1 alone (without the card the two would share 3 // 2 = 1)."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 22}, q: {(1, 0): 23}}, hands={p: [22]})
    game.apply(RevealBonus(22))
    assert bonus.bonus_state(game).revealed[p] == [22]
    operations.run_scoring(game, 1)
    rec = game.state.scorings[-1]
    assert rec.counts[p]["arcades"] == 2 and rec.counts[q]["arcades"] == 1 and rec.counts[r]["arcades"] == 0
    assert rec.majority[p]["arcades"] == 3 and rec.majority[q]["arcades"] == 0
    assert rec.walls == [0, 0, 0]
    assert rec.totals[p] == 3 and rec.totals[q] == 0 and rec.totals[r] == 0
    assert game.scores[p] == 3 and game.scores[q] == 0


def test_r_bon_3_control_without_card_the_tie_is_shared():
    """R-SCORE-3 control for the test above: with the card out of play, 1 arcade each, the
    3 points of scoring 1 are shared, 1 each."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 22}, q: {(1, 0): 23}}, hands={})
    operations.run_scoring(game, 1)
    rec = game.state.scorings[-1]
    assert rec.counts[p]["arcades"] == rec.counts[q]["arcades"] == 1
    assert rec.totals[p] == 1 and rec.totals[q] == 1 and rec.totals[r] == 0


def test_r_bon_3_card_counts_at_scoring_3():
    """R-BON-3 at the third scoring: 2 arcades (one a card) against 1: 18 and 10 points
    instead of sharing (18 + 10) // 2 = 14 each."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 22}, q: {(1, 0): 23}}, revealed={p: [22]})
    operations.run_scoring(game, 3)
    rec = game.state.scorings[-1]
    assert rec.majority[p]["arcades"] == 18 and rec.majority[q]["arcades"] == 10
    assert game.scores == tuple(18 if s == p else 10 if s == q else 0 for s in range(3))


def test_r_bon_3_card_with_building_in_reserve_does_not_count():
    """R-BON-3 / R-SCORE-2: a card whose building is in the reserve counts nothing and stays
    hidden at a scoring: q's single chambers takes the 4 points of scoring 1 alone."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 23}, q: {(1, 0): 31}}, reserves={p: [32]}, hands={p: [32]})
    operations.run_scoring(game, 1)
    rec = game.state.scorings[-1]
    assert rec.counts[p]["chambers"] == 0 and rec.counts[q]["chambers"] == 1
    assert rec.majority[q]["chambers"] == 4 and rec.majority[p]["chambers"] == 0
    assert bonus.bonus_state(game).hands[p] == [32] and bonus.bonus_state(game).revealed[p] == []


def test_r_bon_3_reveal_is_a_free_action_in_turn_phase():
    """R-BON-3/R-BON-5: revealing is free: the same player decides again in the same phase and
    turn; only the module state and the history change; every other action stays legal."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 22, (-1, 0): 41}}, hands={p: [22, 41, 7]})
    before = game.legal_actions()
    assert RevealBonus(22) in before and RevealBonus(41) in before and RevealBonus(7) not in before
    data = json.loads(game.to_json())
    game.apply(RevealBonus(22))
    assert game.current_player == p and game.phase == "turn"
    assert game.state.turn_player == p and game.state.turn == data["state"]["turn"]
    assert game.history == [RevealBonus(22)]
    assert game.legal_actions() == [a for a in before if a != RevealBonus(22)]
    after = json.loads(game.to_json())
    assert after["state"]["modules"]["bonus_cards"] == {
        "hands": [[7, 41] if s == p else [] for s in range(3)],
        "revealed": [[22] if s == p else [] for s in range(3)],
        "out_of_play": sorted(set(BONUS_CARDS) - {7, 22, 41}),
        "owned": [[22] if s == p else [] for s in range(3)],
        "not_held": [[], [], []],
    }
    for d in (data, after):
        del d["state"]["modules"]["bonus_cards"], d["history"]
    assert after == data
    game.apply(RevealBonus(41))
    assert game.current_player == p and game.phase == "turn" and len(game.history) == 2
    assert not any(isinstance(a, RevealBonus) for a in game.legal_actions())


def test_r_bon_3_reveal_is_free_in_place_phase():
    """R-BON-3 ("at any moment"): the player placing bought tiles may reveal too; the phase
    and the pending tiles are unchanged."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 31}}, hands={p: [31]})
    take_tiles(game, 32)
    sequence.place_tiles(game, p, "turn", [32])
    check_invariants(game)
    assert game.phase == "place" and RevealBonus(31) in game.legal_actions()
    game.apply(RevealBonus(31))
    assert game.phase == "place" and game.current_player == p
    assert [x.tile for x in game.state.pending] == [32]
    assert bonus.bonus_state(game).revealed[p] == [31]
    check_invariants(game)


def test_r_bon_3_reveal_refused_when_building_not_in_alhambra():
    """R-BON-3: with the pictured building in the reserve the card cannot be revealed; the
    error names the rule and the game is exactly as before."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 23}}, reserves={p: [22]}, hands={p: [22, 23]})
    assert RevealBonus(22) not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="R-BON-3"):
        game.apply(RevealBonus(22))
    assert game.to_json() == before
    game.apply(RevealBonus(23))  # the other card is fine
    assert bonus.bonus_state(game).revealed[p] == [23]


@pytest.mark.parametrize(
    "building, rule",
    [(21, "R-BON-1"), (0, "R-BON-1"), ("H1", "R-BON-1"), (True, "R-BON-1"), (23, "R-BON-2"), (22, "R-BON-3")],
)
def test_r_bon_3_reveal_refusals_name_the_rule(building, rule):
    """R-BON-1/2/3: not a bonus card (R-BON-1); another player's card, even with the building
    in one's own Alhambra (R-BON-2: cards are the owner's); already revealed (R-BON-3)."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 22, (-1, 0): 23}, q: {(1, 0): 31}}, hands={q: [23, 31]}, revealed={p: [22]})
    before = game.to_json()
    with pytest.raises(IllegalActionError, match=rule):
        game.apply(RevealBonus(building))
    assert game.to_json() == before


def test_r_bon_3_only_the_player_to_decide_reveals():
    """Engine ruling on R-BON-3: a player reveals when they decide; another seat's eligible
    card is not among the current player's actions (it is revealed at the scoring, R-BON-5)."""
    game, p, q, r = three_player_game()
    situation(game, cities={q: {(1, 0): 31}}, hands={q: [31]})
    assert RevealBonus(31) not in game.legal_actions()
    with pytest.raises(IllegalActionError):
        game.apply(RevealBonus(31))
    next_turn_of(game, q)
    assert RevealBonus(31) in game.legal_actions()


def test_r_bon_3_action_str_and_save():
    """RevealBonus reads well in a log and survives saving (history and module state)."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 52}}, hands={p: [52]})
    game.apply(RevealBonus(52))
    assert str(RevealBonus(52)) == "reveal bonus card 52"
    text = game.to_json()
    assert {"type": "RevealBonus", "building": 52} in json.loads(text)["history"]
    loaded = Game.from_json(text, check_history=False)  # a situation set by hand: no history from the set-up
    assert loaded.history == [RevealBonus(52)]
    assert loaded.state.modules["bonus_cards"] == game.state.modules["bonus_cards"]
    assert loaded.to_json() == text


def test_r_bon_3_clone_is_independent():
    """The module state is cloned with the game: revealing in a clone leaves the original."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 52}}, hands={p: [52]})
    copy = game.clone()
    copy.apply(RevealBonus(52))
    assert bonus.bonus_state(copy).revealed[p] == [52]
    assert bonus.bonus_state(game).revealed[p] == [] and bonus.bonus_state(game).hands[p] == [52]


# ---------------------------------------------------------------------------------------------
# R-BON-4: the building leaves the Alhambra
# ---------------------------------------------------------------------------------------------


def test_r_bon_4_removed_card_returns_to_hand_and_counts_again_once_rebuilt_and_revealed():
    """R-BON-4: reveal, remove the building to the reserve: the card is back in the hand and
    does not count; rebuilt, it stays hidden until revealed again, then counts again."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 22}}, hands={p: [22]})
    bs = bonus.bonus_state(game)
    game.apply(RevealBonus(22))
    assert bs.revealed[p] == [22] and bs.hands[p] == []
    game.apply(RemoveToReserve((1, 0)))
    assert game.state.players[p].reserve == [22]
    bs = bonus.bonus_state(game)
    assert bs.hands[p] == [22] and bs.revealed[p] == []
    operations.run_scoring(game, 1)
    rec = game.state.scorings[-1]
    assert rec.counts[p]["arcades"] == 0 and rec.totals[p] == 0
    assert bs.hands[p] == [22] and bs.revealed[p] == []  # not eligible: not revealed at scoring

    next_turn_of(game, p)
    game.apply(BuildFromReserve(22, (1, 0)))
    assert bs.hands[p] == [22] and bs.revealed[p] == []  # rebuilt, still hidden
    assert game.view(q)["modules"]["bonus_cards"]["players"][p] == {"revealed": [], "hidden": 1}
    next_turn_of(game, p)
    game.apply(RevealBonus(22))
    assert bs.revealed[p] == [22]
    operations.run_scoring(game, 1)
    rec = game.state.scorings[-1]
    assert rec.counts[p]["arcades"] == 2 and rec.majority[p]["arcades"] == 3
    check_invariants(game)
    check_bonus_accounting(game)


def test_r_bon_4_swapped_out_building_returns_card():
    """R-BON-4: swapping the pictured building out (R-TURN-5 iii) returns its card to the hand;
    the building swapped in does not reveal its own card by itself."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 41}}, reserves={p: [42]}, hands={p: [41, 42]})
    game.apply(RevealBonus(41))
    game.apply(Swap(42, (1, 0)))
    bs = bonus.bonus_state(game)
    assert game.state.players[p].city.tile_at((1, 0)) == 42 and game.state.players[p].reserve == [41]
    assert bs.hands[p] == [41, 42] and bs.revealed[p] == []
    operations.run_scoring(game, 2)  # R-BON-5: now 42 is revealed automatically, 41 (reserve) is not
    rec = game.state.scorings[-1]
    assert bs.revealed[p] == [42] and bs.hands[p] == [41]
    assert rec.counts[p]["garden"] == 2 and rec.majority[p]["garden"] == 12


def test_r_bon_4_other_changes_keep_the_card_revealed():
    """R-BON-4 applies only to the pictured building: removing another one keeps the card
    revealed and counting."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 53, (-1, 0): 52}}, hands={p: [53]})
    game.apply(RevealBonus(53))
    game.apply(RemoveToReserve((-1, 0)))
    bs = bonus.bonus_state(game)
    assert bs.revealed[p] == [53] and bs.hands[p] == []
    operations.run_scoring(game, 1)
    assert game.state.scorings[-1].counts[p]["tower"] == 2


def test_r_bon_4_unannounced_city_change_is_caught_at_scoring():
    """R-BON-4 defensively at scoring: if an Alhambra lost the building without the
    ``alhambra_city_changed`` hook, the scoring still returns the card and does not count it."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 7}}, revealed={p: [7]})
    game.state.players[p].city = Alhambra.from_tiles({}, catalog=game.rules.catalog)
    game.state.players[p].reserve.append(7)
    operations.run_scoring(game, 1)
    bs = bonus.bonus_state(game)
    assert game.state.scorings[-1].counts[p]["pavilion"] == 0
    assert bs.hands[p] == [7] and bs.revealed[p] == []


# ---------------------------------------------------------------------------------------------
# R-BON-5: automatic reveal at scoring
# ---------------------------------------------------------------------------------------------


def test_r_bon_5_scoring_reveals_every_eligible_card():
    """R-BON-5: at a scoring every hidden card whose building is in its owner's Alhambra is
    revealed and counts; the others stay hidden. Arcades 2 (p, one a card) vs 2 (q, one a
    card) vs 0: p and q share 3 // 2 = 1 in scoring 1."""
    game, p, q, r = three_player_game()
    situation(
        game,
        cities={p: {(1, 0): 22}, q: {(1, 0): 23}, r: {(1, 0): 14}},
        reserves={r: [31]},
        hands={p: [22, 42], q: [23], r: [31, 53]},
    )
    operations.run_scoring(game, 1)
    bs = bonus.bonus_state(game)
    assert bs.revealed == [[22] if s == p else [23] if s == q else [] for s in range(3)]
    assert bs.hands[p] == [42] and bs.hands[q] == [] and bs.hands[r] == [31, 53]
    rec = game.state.scorings[-1]
    assert rec.counts[p]["arcades"] == rec.counts[q]["arcades"] == 2
    assert rec.totals[p] == rec.totals[q] == 1
    # r's seraglio 14 has no card of r's: 1 seraglio, 2 points
    assert rec.counts[r]["seraglio"] == 1 and rec.totals[r] == 2
    check_bonus_accounting(game)


def test_r_bon_5_revealed_before_or_at_scoring_gives_the_same_points():
    """R-BON-5: an explicit earlier reveal only changes what others see: the same scoring
    with and without it gives the same record."""
    records = []
    for reveal in (True, False):
        game, p, q, r = three_player_game()
        situation(game, cities={p: {(1, 0): 31, (2, 0): 32}, q: {(1, 0): 7}}, hands={p: [31, 32], q: [7]})
        if reveal:
            game.apply(RevealBonus(32))
        operations.run_scoring(game, 2)
        records.append((game.state.scorings[-1], bonus.bonus_state(game)))
    assert records[0] == records[1]
    rec = records[0][0]
    assert rec.counts[p]["chambers"] == 4 and rec.majority[p]["chambers"] == 11


# ---------------------------------------------------------------------------------------------
# Views: hidden cards are secret (R-BON-2), revealed ones public (R-BON-3)
# ---------------------------------------------------------------------------------------------


def test_r_bon_2_view_secrecy():
    """R-BON-2/R-BON-3: each seat sees its own hidden cards, everyone sees revealed cards and
    how many cards the others hold; a spectator sees no hidden card."""
    game, p, q, r = three_player_game()
    situation(game, cities={p: {(1, 0): 22}}, hands={p: [22, 31], q: [23]})
    game.apply(RevealBonus(22))
    public = [
        {"revealed": [22], "hidden": 1} if s == p else {"revealed": [], "hidden": 1 if s == q else 0} for s in range(3)
    ]
    assert game.view(p)["modules"]["bonus_cards"] == {"players": public, "out_of_play": 7, "hand": [31]}
    assert game.view(q)["modules"]["bonus_cards"] == {"players": public, "out_of_play": 7, "hand": [23]}
    assert game.view(r)["modules"]["bonus_cards"] == {"players": public, "out_of_play": 7, "hand": []}
    assert game.view(None)["modules"]["bonus_cards"] == {"players": public, "out_of_play": 7}
    json.dumps(game.view(None))  # plain data


# ---------------------------------------------------------------------------------------------
# Properties over random legal games
# ---------------------------------------------------------------------------------------------


def check_new_scoring(game) -> None:
    """The scoring that just happened revealed every eligible card (R-BON-5) and counted each
    revealed card as one more building of its type (R-BON-3)."""
    rec = game.state.scorings[-1]
    bs = bonus.bonus_state(game)
    for seat in range(game.num_players):
        city = game.state.players[seat].city
        expected = Counter(city.type_counts())
        for b in bs.revealed[seat]:
            expected[alhambra.BUILDINGS[b - 1].type] += 1
        assert all(city.position_of(b) is None for b in bs.hands[seat])
        assert rec.counts[rec.participants.index(seat)] == dict(expected)


def check_listed_reveals(game) -> None:
    """R-BON-3: the listed reveals are exactly the deciding player's hidden cards whose
    building stands in their Alhambra now (the module keeps that list between changes)."""
    if game.phase not in ("turn", "place"):
        return
    seat = game.current_player
    city = game.state.players[seat].city
    want = sorted(b for b in bonus.bonus_state(game).hands[seat] if city.position_of(b) is not None)
    assert sorted(a.building for a in game.legal_actions() if isinstance(a, RevealBonus)) == want


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_games_keep_invariants(players, seed):
    """Random legal games with bonus cards end, with every invariant holding after every
    action: all tiles and cards accounted for, every bonus card exactly once, revealed cards'
    buildings in the Alhambra (R-BON-4), the listed reveals exactly the eligible cards
    (R-BON-3), scorings counting revealed cards (R-BON-3/5)."""
    game = alhambra.new_game(players, modules=MOD, seed=seed)
    seen = [0]

    def each(g, a):
        check_invariants(g)
        check_bonus_accounting(g)
        check_revealed_in_city(g)
        check_listed_reveals(g)
        if len(g.state.scorings) != seen[0]:
            check_new_scoring(g)
            seen[0] = len(g.state.scorings)
        if isinstance(a, RevealBonus):
            assert g.history[-1] == a and a.building in bonus.bonus_state(g).revealed[g.current_player]

    random_playout(game, seed, each_step=each)
    assert game.is_over and len(game.state.scorings) >= 2
    # after the final scoring no eligible card is left hidden (R-BON-5)
    bs = bonus.bonus_state(game)
    for seat in range(players):
        assert all(game.state.players[seat].city.position_of(b) is None for b in bs.hands[seat])


def _game_cut_at(players, seed, cut):
    """A random game (``seed``) stopped after the fraction ``cut`` of the actions it takes to
    its end."""
    game = alhambra.new_game(players, modules=MOD, seed=seed)
    total = random_playout(game.clone(), seed)
    advance(game, random.Random(seed), int(total * cut))  # the same choices as the playout above
    return game


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_json_round_trip_mid_game_continues_identically(players, seed, cut):
    """A game saved mid-way (module state and RevealBonus history included) loads equal and
    continues exactly like the original under the same choices."""
    game = _game_cut_at(players, seed, cut)
    assert not game.is_over or cut == 1
    loaded = save_and_load(game)
    assert loaded.state.modules["bonus_cards"] == game.state.modules["bonus_cards"]
    continue_alike(game, loaded, seed)


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_reveal_changes_only_the_cards_and_history(players, seed, cut):
    """R-BON-5: at any point of a random game, every legal reveal leaves everything but the
    bonus-card state and the history as it was, and keeps the same player deciding."""
    game = _game_cut_at(players, seed, cut)
    before = json.loads(game.to_json())
    del before["state"]["modules"]["bonus_cards"], before["history"]
    for action in [a for a in game.legal_actions() if isinstance(a, RevealBonus)]:
        g = game.clone()
        g.apply(action)
        after = json.loads(g.to_json())
        assert action.building in after["state"]["modules"]["bonus_cards"]["revealed"][game.current_player]
        del after["state"]["modules"]["bonus_cards"], after["history"]
        assert after == before and g.current_player == game.current_player
