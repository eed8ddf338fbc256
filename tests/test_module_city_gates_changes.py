"""City gates played with every change of an Alhambra, and only with one (R-GATE-5 and its
ruling, R-GATE-6, R-GATE-7): hand-built situations with exact outcomes.

After any change of a player's own Alhambra (a placement, the turn's last included, a build
from the reserve, a swap, a removal, a hut, a building received at the end of the game), a
player holding a gate card whose Alhambra has a double wall gets the window for gates (phase
"gates"): any number of ``PlayGate`` on the Alhambra as it stands after the change, then
``FinishGates``. A gate played on a turn to open the way for a removal commits the player to a
removal. Walls: NORTH 1, EAST 2, SOUTH 4, WEST 8; tiles 6 (east wall), 12 (west wall), 13 (south
wall), 5 and 20 (north wall), 29 (south wall), 7, 14 and 22 (no wall).

The city most tests start from (``DOUBLE``)::

    x:   -1   0   1   2
    y 0:      F   6 | 12        6 and 12 meet wall against wall: the double wall (1, 0) east
    y 1:          7   14        reached from below, through 7 and 14
"""

from __future__ import annotations

import json

import pytest

import alhambra
import alhambra_city_gates as cg
from alhambra import (
    EAST,
    SOUTH,
    BuildFromReserve,
    IllegalActionError,
    MoneyCard,
    Place,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
)
from alhambra.testing import check_invariants
from alhambra_city_gates import FinishGates, GateCard, PlayGate
from helpers import assert_refused, empty_the_bag, save_and_load
from test_module_city_gates import _turn_with_gates, buy_into_place_phase, gates_of, give, new, set_city

DOUBLE = {(1, 0): 6, (1, 1): 7, (2, 1): 14, (2, 0): 12}
FINISH = FinishGates()


def _gates(g, seat):
    return g.state.modules["city_gates"].gates[seat]


def _window(g):
    gs = g.state.modules["city_gates"]
    return (g.phase, g.current_player, gs.window, gs.then)


def _place_with_gate_card(tiles, bought, seed=1):
    """A 3-player game whose current seat has the Alhambra ``tiles``, one gate card (and the
    money for the purchase) and ``bought`` bought, waiting to be placed."""
    g = new(3, seed=seed)
    seat = g.current_player
    set_city(g, seat, tiles)
    card = next(c for c in g.state.deck if type(c) is GateCard)
    give(g, seat, [card])
    buy_into_place_phase(g, seat, bought)
    return g, seat, card


# -- the three ways a gate card was spent without a change, or refused one --------------------


def test_r_gate_5_a_gate_played_for_a_removal_commits_the_player_to_a_removal():
    """Failure 1: a gate played on a turn to open the way for a removal (R-GATE-6) was a free
    step, after which the player could take money instead: a card spent and two tiles locked
    (R-GATE-7) with no change. Now the player is committed: only the removal (or more gates it
    needs) follows, in phase "gates"."""
    # fountain; 7 at (0,1) below it, open all round; 5 at (1,1) east of 7 (north wall); 13 at
    # (1,0) east of the fountain (south wall): 13 and 5 meet wall against wall, so 5 is reached
    # only through 7, which R-TURN-6 keeps in place
    g, seat, (card,) = _turn_with_gates({(1, 0): 13, (1, 1): 5, (0, 1): 7})
    take = next(a for a in g.legal_actions() if type(a) is TakeMoney)
    g.apply(PlayGate(card, 1, 0, SOUTH))
    assert _window(g) == ("gates", seat, "removal", "")
    assert g.legal_actions() == [RemoveToReserve((0, 1))]
    assert_refused(g, take, match="cannot be played in phase 'gates'")
    assert_refused(g, FINISH, match="R-GATE-5: a gate card played to open the way for a removal commits")
    loaded = save_and_load(g)  # the commitment is saved
    assert _window(loaded) == ("gates", seat, "removal", "")
    g.apply(RemoveToReserve((0, 1)))
    assert g.phase == "turn" and g.current_player != seat  # the removal was the turn's action
    p = g.state.players[seat]
    assert p.reserve == [7] and sorted(p.city.tiles) == [(0, 0), (1, 0), (1, 1)]
    assert _gates(g, seat) == [[1, 0, SOUTH]] and g.state.modules["city_gates"].played == [card.number]
    assert _window(g)[2:] == ("", "")
    check_invariants(g)


def test_r_gate_5_no_gate_while_a_tile_waits_so_none_with_a_tile_put_into_the_reserve():
    """Failure 2: a gate could be played while a bought tile waited, and the tile then put into
    the reserve: a card spent with no change. Now no gate is offered before the placement, and
    a tile put into the reserve changes nothing, so no window follows."""
    g, seat, card = _place_with_gate_card(DOUBLE, 20)
    legal = g.legal_actions()
    assert not any(type(a) is PlayGate for a in legal) and Reserve(20) in legal
    assert_refused(g, PlayGate(card, 1, 0, EAST), match="R-GATE-5")
    g.apply(Reserve(20))
    assert g.phase == "turn" and g.current_player != seat
    p = g.state.players[seat]
    assert p.reserve == [20] and card in p.hand and _gates(g, seat) == []
    assert gates_of(p.city) == [] and p.city.can_remove((2, 0))
    check_invariants(g)


def test_r_gate_5_a_double_wall_made_by_the_turns_last_placement_takes_a_gate():
    """Failure 3: placing the turn's last tile ended the phase at once, so a double wall it made
    could never take a gate. Now the window follows it, on the Alhambra as it stands after."""
    # 12 (west wall) goes to (2, 0): reached from 14 below, and facing 6's east wall
    g, seat, card = _place_with_gate_card({(1, 0): 6, (1, 1): 7, (2, 1): 14}, 12)
    assert g.state.players[seat].city.double_walls() == []  # no gate before the change
    assert Place(12, (2, 0)) in g.legal_actions()
    g.apply(Place(12, (2, 0)))
    assert _window(g) == ("gates", seat, "change", "place")
    assert (g.state.place_context, g.state.pending) == ("turn", [])
    assert g.legal_actions() == [PlayGate(card, 1, 0, EAST), FINISH]
    g.apply(PlayGate(card, 1, 0, EAST))
    assert g.phase == "turn" and g.current_player != seat and g.state.place_context == ""
    city = g.state.players[seat].city
    assert city.tile_at((2, 0)) == 12 and gates_of(city) == [((1, 0), EAST)]
    assert _gates(g, seat) == [[1, 0, EAST]] and card not in g.state.players[seat].hand
    assert not city.can_remove((2, 0))  # R-GATE-7: the two tiles stay
    check_invariants(g)


# -- gates with every change, on any double wall -------------------------------------------


def test_r_gate_5_gates_between_two_placements_then_the_placement_goes_on():
    """The window after the first of two placements goes back to the placement; the last
    placement has its own window (here with a second card)."""
    g = new(3, seed=1, options={"city_gates.cards": 6})
    seat = g.current_player
    set_city(g, seat, DOUBLE)
    cards = [c for c in g.state.deck if type(c) is GateCard][:2]
    give(g, seat, cards)
    st = g.state
    if 22 in st.bag:  # a second tile to place (a hut taken, say): set aside before the purchase
        st.bag.remove(22)
    else:
        st.market[st.market.index(22)] = st.bag.pop()
    st.pending.append(alhambra.Pending(22))
    buy_into_place_phase(g, seat, 20)
    assert {p.tile for p in st.pending} == {20, 22}
    g.apply(Place(20, (-1, 0)))
    assert _window(g) == ("gates", seat, "change", "place") and len(st.pending) == 1
    g.apply(FINISH)
    assert (g.phase, g.current_player, [p.tile for p in st.pending]) == ("place", seat, [22])
    g.apply(Place(22, (0, 1)))
    assert _window(g) == ("gates", seat, "change", "place")
    g.apply(PlayGate(cards[0], 1, 0, EAST))
    assert g.phase == "turn" and g.current_player != seat  # no double wall left: the window closed
    assert _gates(g, seat) == [[1, 0, EAST]] and cards[1] in st.players[seat].hand


def test_r_gate_5_gates_with_a_build_from_the_reserve():
    g, seat, (card,) = _turn_with_gates(DOUBLE, reserve=[20])
    # on the turn the gate is offered only to open the way for a removal (of 7: 14 and 12 then
    # reached through it); with the build it goes on any double wall, in the window after it
    assert [a for a in g.legal_actions() if type(a) is PlayGate] == [PlayGate(card, 1, 0, EAST)]
    g.apply(BuildFromReserve(20, (-1, 0)))
    assert _window(g) == ("gates", seat, "change", "done")
    assert g.legal_actions() == [PlayGate(card, 1, 0, EAST), FINISH]  # a double wall away from the change
    g.apply(PlayGate(card, 1, 0, EAST))
    assert g.phase == "turn" and g.current_player != seat
    p = g.state.players[seat]
    assert p.reserve == [] and p.city.tile_at((-1, 0)) == 20 and _gates(g, seat) == [[1, 0, EAST]]
    check_invariants(g)


def test_r_gate_5_gates_with_a_swap():
    g, seat, (card,) = _turn_with_gates(DOUBLE, reserve=[22])
    assert Swap(22, (1, 1)) in g.legal_actions()
    g.apply(Swap(22, (1, 1)))
    assert _window(g) == ("gates", seat, "change", "done")
    g.apply(PlayGate(card, 1, 0, EAST))
    assert g.phase == "turn" and g.current_player != seat
    p = g.state.players[seat]
    assert p.reserve == [7] and p.city.tile_at((1, 1)) == 22 and _gates(g, seat) == [[1, 0, EAST]]
    assert not p.city.can_swap(7, (1, 0)) and not p.city.can_remove((2, 0))  # R-GATE-7
    check_invariants(g)


def test_r_gate_5_gates_with_a_removal_that_needs_none():
    g, seat, (card,) = _turn_with_gates({**DOUBLE, (-1, 0): 22})
    assert RemoveToReserve((-1, 0)) in g.legal_actions()
    g.apply(RemoveToReserve((-1, 0)))
    assert _window(g) == ("gates", seat, "change", "done")
    assert g.legal_actions() == [PlayGate(card, 1, 0, EAST), FINISH]
    assert_refused(g, RemoveToReserve((2, 0)), match="R-GATE-5: the change is made")
    g.apply(FINISH)
    assert g.phase == "turn" and g.current_player != seat
    p = g.state.players[seat]
    assert p.reserve == [22] and card in p.hand and _gates(g, seat) == []


def test_r_gate_5_a_removal_gate_then_more_gates_with_the_removal():
    """Two cards: one gate opens the removal, and once it is made the window for gates on the
    Alhambra as it stands after it follows (the second card, the other double wall)."""
    # as in the first test on the east; on the west 12 (west wall) at (-1, 0) and 6 (east wall)
    # at (-2, 0) meet wall against wall, 6 reached round through 22 and 14 above them
    tiles = {(1, 0): 13, (1, 1): 5, (0, 1): 7, (-1, 0): 12, (-2, 0): 6, (-2, -1): 14, (-1, -1): 22}
    g, seat, (c1, c2) = _turn_with_gates(tiles, cards=2)
    city = g.state.players[seat].city
    assert city.double_walls() == [((-2, 0), EAST), ((1, 0), SOUTH)]
    # each opens a removal: of 22 (6 and 14 then reached through the west gate), of 7
    assert cg.removal_gates(city, 2) == [((-2, 0), EAST), ((1, 0), SOUTH)]
    g.apply(PlayGate(c1, 1, 0, SOUTH))
    g.apply(RemoveToReserve((0, 1)))
    assert _window(g) == ("gates", seat, "change", "done")
    assert g.legal_actions() == [PlayGate(c2, -2, 0, EAST), FINISH]
    g.apply(PlayGate(c2, -2, 0, EAST))
    assert g.phase == "turn" and g.current_player != seat
    assert _gates(g, seat) == [[1, 0, SOUTH], [-2, 0, EAST]] and g.state.players[seat].reserve == [7]
    check_invariants(g)


def test_r_gate_5_an_extra_action_then_the_placement_each_with_its_window():
    """An exact payment earns another action (R-TURN-4); a build from the reserve as that action
    opens a window, after which the bought tile is placed (R-TURN-7), with a window of its own."""
    g, seat, (c1, c2) = _turn_with_gates(DOUBLE, cards=2, reserve=[22])
    st = g.state
    cur = alhambra.MARKET_CURRENCIES[0]
    if 20 in st.bag:
        st.bag.remove(20)
        st.bag.insert(0, st.market[0])
    else:
        st.market[st.market.index(20)] = st.market[0]
    st.market[0] = 20
    price = g.rules.space_prices[0][20]
    pay = MoneyCard(cur, price)
    give(g, seat, [c1, c2, pay])
    g.apply(alhambra.Buy(1, (pay,)))  # exact: another action
    assert (g.phase, g.current_player) == ("turn", seat)
    g.apply(BuildFromReserve(22, (0, 1)))
    assert _window(g) == ("gates", seat, "change", "done")
    g.apply(FINISH)
    assert (g.phase, g.current_player, [p.tile for p in st.pending]) == ("place", seat, [20])
    g.apply(Place(20, (-1, 0)))
    assert _window(g) == ("gates", seat, "change", "place")
    g.apply(PlayGate(c1, 1, 0, EAST))
    assert g.phase == "turn" and g.current_player != seat
    assert _gates(g, seat) == [[1, 0, EAST]] and c2 in st.players[seat].hand


def test_r_gate_5_gates_with_a_building_received_at_the_end_of_the_game():
    """R-END-2/R-END-3: the last buildings of the market are handed out and placed; the window
    follows that placement too, then the final scoring (R-GATE-8: the card left is no money)."""
    g = new(3, seed=1)
    seat = g.current_player
    set_city(g, seat, DOUBLE)
    st = g.state
    card = next(c for c in st.deck if type(c) is GateCard)
    cur = alhambra.MARKET_CURRENCIES[0]
    give(g, seat, [card, MoneyCard(cur, 9)])
    for other in range(3):
        if other != seat:
            give(g, other, [])
    if 20 in st.market:
        st.market[st.market.index(20)] = st.market[0]
    else:
        st.bag.remove(20)
        st.bag.append(st.market[0])
    st.market[0] = 20
    st.out_of_play.extend(t for t in st.market[1:])
    st.market[1:] = [None, None, None]
    empty_the_bag(g)
    alhambra.engine.sequence.end_game(g)
    assert (g.phase, g.current_player, st.place_context, [p.tile for p in st.pending]) == (
        "place",
        seat,
        "distribution",
        [20],
    )
    g.apply(Place(20, (-1, 0)))
    assert _window(g) == ("gates", seat, "change", "place") and st.place_context == "distribution"
    save_and_load(g)
    g.apply(PlayGate(card, 1, 0, EAST))
    assert g.is_over and _gates(g, seat) == [[1, 0, EAST]]
    assert len(st.scorings) == 1 and st.scorings[-1].number == 3


def test_r_gate_5_gates_with_a_building_bought_through_the_vizier():
    """R-VIZ-2/3: between two turns the next seat buys through its vizier with an exact payment
    and places the building at once; the window follows that placement, then the vizier's
    asking round goes on (and the next turn begins)."""
    g = new(3, seed=1, modules=("city_gates", "vizier"))
    st = g.state
    first = g.current_player
    seat = (first + 1) % 3
    set_city(g, seat, DOUBLE)
    card = next(c for c in st.deck if type(c) is GateCard)
    tile = st.market[0]
    pay = MoneyCard(alhambra.MARKET_CURRENCIES[0], g.rules.space_prices[0][tile])
    give(g, seat, [card, pay])
    for other in (first, (first + 2) % 3):
        give(g, other, [])
    g.apply(TakeMoney((min(st.display, key=lambda c: c.value),)))  # the turn is over
    assert (g.phase, g.current_player) == ("vizier", seat)
    use = next(a for a in g.legal_actions() if type(a).__name__ == "UseVizier")
    g.apply(use)
    assert (g.phase, g.current_player, st.place_context, [p.tile for p in st.pending]) == (
        "place",
        seat,
        "vizier",
        [tile],
    )
    place = next(a for a in g.legal_actions() if type(a) is Place)
    g.apply(place)
    assert _window(g) == ("gates", seat, "change", "place") and st.place_context == "vizier"
    assert g.legal_actions() == [PlayGate(card, 1, 0, EAST), FINISH]
    g.apply(PlayGate(card, 1, 0, EAST))
    assert (g.phase, g.current_player, st.turn_player) == ("turn", seat, seat)  # the next turn: this seat's
    city = st.players[seat].city
    assert city.tile_at(place.pos) == tile and _gates(g, seat) == [[1, 0, EAST]]
    check_invariants(g)


def test_r_gate_9_gates_with_a_hut():
    """R-HUT-3: a hut taken is placed at the end of the turn; its placement opens the window
    like any other (R-GATE-9: gates work with huts like with any tile)."""
    g = new(3, seed=1, modules=("city_gates", "building_huts"))
    seat = g.current_player
    set_city(g, seat, DOUBLE)
    card = next(c for c in g.state.deck if type(c) is GateCard)
    give(g, seat, [card])
    take = next(a for a in g.legal_actions() if type(a).__name__ == "TakeHut")
    g.apply(take)
    assert (g.phase, g.current_player) == ("place", seat)
    place = next(a for a in g.legal_actions() if type(a) is Place)
    g.apply(place)
    assert _window(g) == ("gates", seat, "change", "place")
    g.apply(PlayGate(card, 1, 0, EAST))
    assert g.phase == "turn" and g.current_player != seat
    assert g.state.players[seat].city.tile_at(place.pos) == take.hut and _gates(g, seat) == [[1, 0, EAST]]


def test_r_gate_5_no_window_without_a_gate_card_or_without_a_double_wall():
    g, seat, _ = _place_with_gate_card({(1, 0): 6}, 20)  # a gate card, but no double wall after
    g.apply(Place(20, (-1, 0)))
    assert g.phase == "turn" and g.current_player != seat
    g = new(3, seed=1)
    seat = g.current_player
    set_city(g, seat, DOUBLE)
    give(g, seat, [])
    buy_into_place_phase(g, seat, 20)  # a double wall, but no gate card
    g.apply(Place(20, (-1, 0)))
    assert g.phase == "turn" and g.current_player != seat


# -- removals that need gates -----------------------------------------------------------------


def test_r_gate_6_a_removal_needing_more_gates_than_cards_in_hand_offers_none():
    # 7 at (0,1) holds 5 at (1,1) and 20 at (-1,1), each meeting 13 / 29 wall against wall
    tiles = {(1, 0): 13, (1, 1): 5, (0, 1): 7, (-1, 0): 29, (-1, 1): 20}
    g, seat, (card,) = _turn_with_gates(tiles, cards=1)
    city = g.state.players[seat].city
    assert cg.removal_gates(city, 1) == [] and cg.removal_gates(city, 2) == [((-1, 0), SOUTH), ((1, 0), SOUTH)]
    assert not any(type(a) is PlayGate for a in g.legal_actions())
    assert_refused(g, PlayGate(card, 1, 0, SOUTH), match="with the 1 gate card")


# -- the window in saves, positions and checks -------------------------------------------------


def _in_window():
    g, seat, card = _place_with_gate_card({(1, 0): 6, (1, 1): 7, (2, 1): 14}, 12)
    g.apply(Place(12, (2, 0)))
    return g, seat, card


def test_r_gate_5_a_game_saved_or_written_as_a_position_in_the_window_continues_alike():
    g, seat, card = _in_window()
    loaded = save_and_load(g)
    again = alhambra.Game.from_position(g.position())
    part = g.position()["city_gates"]
    assert (part["window"], part["then"]) == ("change", "place")
    for h in (g, loaded, again):
        assert _window(h) == ("gates", seat, "change", "place")
        assert h.legal_actions() == [PlayGate(card, 1, 0, EAST), FINISH]
        h.apply(PlayGate(card, 1, 0, EAST))
        assert h.phase == "turn" and h.current_player != seat and _gates(h, seat) == [[1, 0, EAST]]
    assert loaded.to_json() == g.to_json()


@pytest.mark.parametrize(
    ("window", "then", "match"),
    [
        ("", "place", "disagree"),
        ("change", "", "goes on with 'done' or a phase"),
        ("change", "done", "keeps that placement's context"),
        ("removal", "", "only by the turn player, on the turn"),
        ("open", "place", "window: each of .* not 'open'"),
    ],
)
def test_r_gate_5_a_save_whose_window_does_not_fit_its_phase_is_refused(window, then, match):
    g, seat, card = _in_window()
    data = json.loads(g.to_json())
    data["state"]["modules"]["city_gates"].update(window=window, then=then)
    with pytest.raises(alhambra.SaveFormatError, match=match):
        alhambra.Game.from_json(json.dumps(data), check_history=False)


def test_r_gate_5_unlisted_gate_steps_are_refused_naming_the_rule():
    g, seat, card = _in_window()
    other = next(c for c in cg.GATE_CARDS if c != card)
    assert_refused(g, PlayGate(other, 1, 0, EAST), match="R-GATE-5: gate-")
    assert_refused(g, PlayGate(card, 0, 0, EAST), match="R-GATE-5")  # fountain/6: no double wall
    g.apply(FINISH)
    with pytest.raises(IllegalActionError, match="phase 'turn'"):
        g.apply(FINISH)


def test_r_gate_5_the_window_s_actions_have_codes_in_the_environments():
    """The environments' codec lists FinishGates (one integer) beside PlayGate: every action of
    the window encodes and decodes back (docs/env.md)."""
    pytest.importorskip("numpy")
    from alhambra.env.codec import ActionCodec

    g, seat, card = _in_window()
    codec = ActionCodec(g)
    legal = g.legal_actions()
    codes = [codec.encode(a, g) for a in legal]
    assert [codec.decode(c, g) for c in codes] == legal
    assert len(codes[-1]) == 1 and codec.describe(codes[-1][0]) == "FinishGates"
