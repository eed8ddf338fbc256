"""Tests of the module "city gates" (Die Tore der Stadt) of the second expansion, R-GATE-1 … 9.

Walls: NORTH 1, EAST 2, SOUTH 4, WEST 8. Tile 6 has a wall on its east side only, tile 12 on
its west side only: with 6 at (1, 0) beside the fountain, 12 at (2, 0) meets the Alhambra only
wall against wall, so R-PLACE-5 forbids it, and a gate on that double wall allows it."""

from __future__ import annotations

import random

import pytest

import alhambra
import alhambra_city_gates as cg
from alhambra import EAST, SOUTH, WEST, Alhambra, ConfigError, IllegalActionError, MoneyCard, Place, RemoveToReserve
from alhambra.testing import check_invariants, expected_money
from alhambra_city_gates import BuildThroughGate, GateCard, PlayGate, TakeGate
from helpers import assert_refused, deck_arranged_by_hand, save_and_load, take_from

G1, G2 = GateCard(1), GateCard(2)


def pile_slice(g, pile):
    """Deck indices of setup pile ``pile`` (0-based, pile 1 on top of the deck), R-SET-6."""
    sizes = g.state.pile_sizes
    top = len(g.state.deck)
    return top - sum(sizes[: pile + 1]), top - sum(sizes[:pile])


def gates_of(city):
    """The gates of ``city`` (sides declared open), each once."""
    return sorted(p for p in city.open_sides if p[1] in (EAST, SOUTH))


def new(players=3, seed=1, modules=("city_gates",), **kw):
    return alhambra.new_game(players, modules=list(modules), seed=seed, **kw)


def card_places(g):
    st = g.state
    return [st.deck, st.display, st.discard] + [p.hand for p in st.players]


def give(g, seat, cards):
    st = g.state
    p = st.players[seat]
    st.deck[:0] = p.hand
    p.hand = []
    gs = st.modules["city_gates"]
    for c in cards:
        if type(c) is GateCard and c.number == gs.space:
            gs.space = 0
        elif type(c) is GateCard and c.number in gs.unused:
            gs.unused.remove(c.number)
            st.deck.insert(0, c)  # now used: it was put into the deck
            st.deck.remove(c)
        else:
            take_from(card_places(g), c, "card")
        p.hand.append(c)
    deck_arranged_by_hand(g)
    alhambra.operations.invalidate(g)


def set_city(g, seat, tiles):
    st = g.state
    for t in tiles.values():
        if t in st.bag:
            st.bag.remove(t)
        if t in st.market:
            st.market[st.market.index(t)] = st.bag.pop()
    st.players[seat].city = Alhambra.from_tiles(tiles, catalog=g.rules.catalog, rules=g.rules.placement_rules)
    alhambra.operations.invalidate(g)


def buy_into_place_phase(g, seat, tile):
    """``seat`` buys ``tile`` from space 1 overpaying (the turn's actions end): the
    placement phase follows."""
    st = g.state
    cur = alhambra.MARKET_CURRENCIES[0]
    if tile in st.bag:
        st.bag.remove(tile)
        st.bag.insert(0, st.market[0])
    st.market[0] = tile
    price = g.rules.space_prices[0][tile]
    hand = [c for c in st.players[seat].hand if type(c) is GateCard]
    pay = MoneyCard(cur, 9) if price < 9 else None
    give(g, seat, [*hand, pay])
    g.apply(alhambra.Buy(1, (pay,)))
    assert g.phase == "place" and g.current_player == seat


@pytest.mark.parametrize("players, cards", [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6)])
def test_r_gate_1_one_card_per_player_two_with_two(players, cards):
    g = new(players)
    assert cg.card_count(g) == cards
    gs = g.state.modules["city_gates"]
    assert gs.unused == list(range(cards + 1, 7))
    assert sum(type(c) is GateCard for c in g.state.deck) == cards
    check_invariants(g)


def test_r_gate_1_option_and_refusals():
    assert cg.card_count(new(3, options={"city_gates.cards": 6})) == 6
    for bad in (0, 7, "2", 2.0):
        with pytest.raises(ConfigError, match="city_gates.cards"):
            new(options={"city_gates.cards": bad})


@pytest.mark.parametrize("players, per_pile", [(4, [2, 1, 1]), (5, [2, 2, 1]), (6, [2, 2, 2]), (2, [1, 1, 0])])
def test_r_gate_2_dealt_in_turn_into_piles_3_to_5(players, per_pile):
    for seed in range(5):
        g = new(players, seed=seed)
        st = g.state
        counts = []
        for pile in (2, 3, 4):
            lo, hi = pile_slice(g, pile)
            counts.append(sum(type(c) is GateCard for c in st.deck[lo:hi]))
        assert counts == per_pile


def _draw_next(g, cards):
    """Put ``cards`` on top of the deck (the first drawn first) and empty one display slot."""
    st = g.state
    for c in cards:
        if type(c) is GateCard:
            st.deck.remove(c)
    st.deck.extend(reversed(cards))
    deck_arranged_by_hand(g)
    st.deck[:0] = [st.display.pop()]


def test_r_gate_3_a_drawn_gate_card_goes_to_the_gate_space_and_another_is_drawn():
    g = new(4, seed=2)
    st = g.state
    gates = [c for c in st.deck if type(c) is GateCard]
    _draw_next(g, [gates[0]])
    alhambra.operations.refill_display(g)
    assert st.modules["city_gates"].space == gates[0].number
    assert len(st.display) == 4 and not any(type(c) is GateCard for c in st.display)
    # a second one while the first waits: to the discard pile, and another card drawn
    _draw_next(g, [gates[1]])
    alhambra.operations.refill_display(g)
    assert st.modules["city_gates"].space == gates[0].number
    assert gates[1] in st.discard and len(st.display) == 4
    check_invariants(g)
    assert g.view(None)["modules"]["city_gates"]["space"] == gates[0].code


def test_r_gate_4_take_the_waiting_card_instead_of_money():
    g = new(4, seed=2)
    st = g.state
    seat = g.current_player
    assert not any(type(a) is TakeGate for a in g.legal_actions())
    card = next(c for c in st.deck if type(c) is GateCard)
    st.deck.remove(card)
    st.modules["city_gates"].space = card.number
    deck_arranged_by_hand(g)
    alhambra.operations.invalidate(g)
    assert TakeGate(card) in g.legal_actions()
    other = next(c for c in GATE_CARDS_OF(g) if c != card)
    assert_refused(g, TakeGate(other), match="R-GATE-4")
    g.apply(TakeGate(card))
    assert card in st.players[seat].hand and st.modules["city_gates"].space == 0
    assert g.current_player != seat  # the whole action: the turn is over
    assert g.view((seat + 1) % 4)["modules"]["city_gates"]["hands"][seat] == [card.code]  # public
    check_invariants(g)


def wall_against_wall() -> tuple[alhambra.Game, int, GateCard]:
    """A 3-player game (seed 1) whose current seat has tile 6 east of the fountain, a gate
    card in hand and tile 12 bought and waiting: 12 fits east of 6 only wall against wall
    (R-PLACE-5), so only a gate lets it in (R-GATE-6). Returns ``(game, seat, card)``."""
    g = new(3, seed=1)
    seat = g.current_player
    set_city(g, seat, {(1, 0): 6})
    card = next(c for c in g.state.deck if type(c) is GateCard)
    give(g, seat, [card])
    buy_into_place_phase(g, seat, 12)
    return g, seat, card


def GATE_CARDS_OF(g):
    return [GateCard(k) for k in range(1, 7)]


def test_r_gate_5_6_build_across_a_double_wall_through_a_gate():
    g, seat, card = wall_against_wall()
    legal = g.legal_actions()
    assert Place(12, (2, 0)) not in legal  # R-PLACE-5: only wall against wall
    assert BuildThroughGate(card, 12, 2, 0, WEST) in legal
    assert_refused(g, Place(12, (2, 0)), match="R-PLACE-5")
    g.apply(BuildThroughGate(card, 12, 2, 0, WEST))
    city = g.state.players[seat].city
    assert city.tile_at((2, 0)) == 12 and gates_of(city) == [((1, 0), EAST)]
    gs = g.state.modules["city_gates"]
    assert gs.gates[seat] == [[1, 0, EAST]] and gs.played == [card.number]
    assert card not in g.state.players[seat].hand
    # R-GATE-6: still a wall side for scoring; both sides face tiles: no outer wall there
    assert city.why_invalid() is None
    check_invariants(g)
    # R-GATE-7: the two tiles stay
    assert not city.can_remove((1, 0)) and not city.can_remove((2, 0))
    assert "R-GATE-7" in city.why_not_remove((2, 0))
    assert not city.can_swap(12, (2, 0))
    loaded = save_and_load(g)
    assert loaded.state.players[seat].city == city
    assert gates_of(loaded.state.players[seat].city) == [((1, 0), EAST)]


def test_r_gate_5_gates_on_any_double_wall_after_a_placement_never_before_it():
    """R-GATE-5: no gate while a bought tile waits (a gate card is never played without a
    change); once it is placed, the window for gates: one per double wall of the Alhambra as it
    stands after the placement, or none (FinishGates); the last card played closes it."""
    g = new(3, seed=1)
    seat = g.current_player
    # fountain - 6 at (1, 0) (east wall) - 12 at (2, 0) (west wall) - reached from below
    set_city(g, seat, {(1, 0): 6, (1, 1): 7, (2, 1): 14, (2, 0): 12})
    city = g.state.players[seat].city
    assert city.double_walls() == [((1, 0), EAST)]
    assert city.can_remove((2, 0))
    card = next(c for c in g.state.deck if type(c) is GateCard)
    give(g, seat, [card])
    buy_into_place_phase(g, seat, 20)
    assert not any(type(a) is PlayGate for a in g.legal_actions())
    assert_refused(g, PlayGate(card, 1, 0, EAST), match="R-GATE-5: a gate card is played only with a change")
    g.apply(Place(20, (-1, 0)))  # the turn's last placement
    assert (g.phase, g.current_player, g.state.place_context) == ("gates", seat, "turn")
    assert g.state.modules["city_gates"].window == "change"
    assert g.legal_actions() == [PlayGate(card, 1, 0, EAST), cg.FinishGates()]
    h = g.clone()
    h.apply(cg.FinishGates())  # no gate: the card stays, the turn is over
    assert h.current_player != seat and h.phase == "turn" and card in h.state.players[seat].hand
    assert h.state.modules["city_gates"].gates[seat] == [] and h.state.modules["city_gates"].window == ""
    g.apply(PlayGate(card, 1, 0, EAST))  # the last gate card: the window closes, the turn is over
    assert g.current_player != seat and g.phase == "turn"
    city = g.state.players[seat].city
    assert city.tile_at((-1, 0)) == 20 and gates_of(city) == [((1, 0), EAST)]
    assert g.state.modules["city_gates"].gates[seat] == [[1, 0, EAST]] and card not in g.state.players[seat].hand
    assert not city.can_remove((2, 0))  # R-GATE-7
    check_invariants(g)


def test_r_gate_5_refusals_leave_the_game_unchanged():
    g, seat, card = wall_against_wall()
    other = next(c for c in GATE_CARDS_OF(g) if c != card)
    assert_refused(
        g,
        PlayGate(card, 0, 0, EAST),  # fountain/6: open against open
        PlayGate(other, 1, 0, EAST),  # not in hand
        BuildThroughGate(other, 12, 2, 0, WEST),
        BuildThroughGate(card, 12, 0, 1, SOUTH),  # not next to that side
    )
    with pytest.raises(IllegalActionError):
        PlayGate(card, 0, 0, WEST)  # sides are kept as east or south


def test_r_gate_8_gate_cards_are_no_money():
    from alhambra.rules.end import market_recipient

    assert market_recipient([[G1, G2], [MoneyCard("florin", 1)]], "florin") == 1


def test_save_refuses_a_gate_without_double_wall_and_a_card_in_two_places():
    g, seat, card = wall_against_wall()
    g.apply(BuildThroughGate(card, 12, 2, 0, WEST))
    text = g.to_json()
    # a gate (opened side) where the walls do not meet
    bad = text.replace('[1,0,2,"open"]', '[0,0,2,"open"]')
    assert bad != text
    with pytest.raises(alhambra.SaveFormatError):
        alhambra.Game.from_json(bad, check_history=False)
    # the played card also in a hand
    import json

    data = json.loads(text)
    data["state"]["players"][(seat + 1) % 3]["hand"].append(card.code)
    with pytest.raises(alhambra.SaveFormatError):
        alhambra.Game.from_json(json.dumps(data), check_history=False)


@pytest.mark.parametrize("entry", [[1, 0], [], [1, 0, 2, 0], [1, 0, 3]])
def test_r_gate_5_a_save_whose_gate_is_not_x_y_side_is_refused_naming_it(entry):
    """A gate entry of a save that is not ``[x, y, 2|4]`` is refused saying so (R-GATE-5),
    never with an error of the checks that read the well-formed ones."""
    import json

    g, seat, card = wall_against_wall()
    g.apply(BuildThroughGate(card, 12, 2, 0, WEST))
    data = json.loads(g.to_json())
    gates = data["state"]["modules"]["city_gates"]["gates"]
    assert gates[seat] == [[1, 0, EAST]]
    gates[seat][0] = entry
    with pytest.raises(alhambra.SaveFormatError) as refused:
        alhambra.Game.from_json(json.dumps(data), check_history=False)
    assert str(refused.value) == (
        f"inconsistent save: city gates: gates: seat {seat}: a gate is [x, y, 2|4], not {entry!r}"
    )


@pytest.mark.parametrize("entry", [[[1], 0, 2], [1, 0, "east"], "1,0,2"])
def test_r_gate_5_a_save_whose_gate_holds_no_ints_is_refused_naming_the_place(entry):
    import json

    g, seat, card = wall_against_wall()
    g.apply(BuildThroughGate(card, 12, 2, 0, WEST))
    data = json.loads(g.to_json())
    data["state"]["modules"]["city_gates"]["gates"][seat][0] = entry
    with pytest.raises(alhambra.SaveFormatError, match=rf"@ state\.modules\.city_gates\.gates\[{seat}\]\[0\]"):
        alhambra.Game.from_json(json.dumps(data), check_history=False)


@pytest.mark.parametrize("check_history", [False, True])
def test_r_gate_3_save_refuses_a_gate_card_in_the_money_display(check_history):
    """As a position does: the save's own check names the display and R-GATE-3 (whether or
    not the history is replayed)."""
    import json

    data = json.loads(alhambra.new_game(3, modules=["city_gates"], seed=1).to_json())
    st = data["state"]
    i = next(i for i, c in enumerate(st["deck"]) if c.startswith("gate-"))
    st["deck"][i], st["display"][0] = st["display"][0], st["deck"][i]  # every card still once
    with pytest.raises(
        alhambra.SaveFormatError, match=rf"state.display: {st['display'][0]} never lies in the money display.*R-GATE-3"
    ):
        alhambra.Game.from_json(json.dumps(data), check_history=check_history)


@pytest.mark.parametrize(
    ("field", "value", "place"),
    [
        ("space", -1, "gate space"),
        ("space", 7, "gate space"),
        ("played", [0], "gate cards played"),
        ("unused", [99], "gate cards unused"),
    ],
)
def test_a_gate_card_number_no_card_has_is_refused_naming_its_place(field, value, place):
    """Used to surface as "bad game state: ConfigError: R-GATE-1: gate cards are numbered 1-6,
    not -1 @ state": the card was made before the module's own check read the number."""
    import json

    data = json.loads(alhambra.new_game(3, modules=["city_gates"], seed=1).to_json())
    data["state"]["modules"]["city_gates"][field] = value
    for check_history in (False, True):
        with pytest.raises(alhambra.SaveFormatError, match=rf"^{place}: unknown card "):
            alhambra.Game.from_json(json.dumps(data), check_history=check_history)


def test_random_games_keep_every_card_and_tile_accounted():
    used = 0
    for seed in range(6):
        mods = ["city_gates", "diamonds"] + (["building_huts", "vizier"] if seed % 2 else ["exchange_offices"])
        g = alhambra.new_game(2 + seed % 5, modules=mods, seed=seed)
        money = expected_money(g)
        rng = random.Random(seed)
        while not g.is_over:
            a = rng.choice(g.legal_actions())
            used += type(a) in (PlayGate, BuildThroughGate)
            g.apply(a)
            check_invariants(g, expected_cards=money)
        save_and_load(g)
    assert used > 0


def test_determinize_keeps_gates_in_their_piles():
    g = new(4, seed=3)
    for k in range(10):
        d = g.determinize(0, random.Random(k))
        for pile in (2, 3, 4):
            lo, hi = pile_slice(g, pile)
            assert sum(type(c) is GateCard for c in d.state.deck[lo:hi]) == sum(
                type(c) is GateCard for c in g.state.deck[lo:hi]
            )
        check_invariants(d)


def _turn_with_gates(tiles, cards=1, reserve=(), seed=1):
    """A 3-player game whose current player has the Alhambra ``tiles``, ``cards`` gate cards
    in hand (nothing else) and ``reserve`` in the reserve, on its turn."""
    g = new(3, seed=seed, options={"city_gates.cards": 6})
    seat = g.current_player
    set_city(g, seat, tiles)
    st = g.state
    for t in reserve:
        if t in st.bag:
            st.bag.remove(t)
        elif t in st.market:
            st.market[st.market.index(t)] = st.bag.pop()
        st.players[seat].reserve.append(t)
    gate_cards = [c for c in st.deck if type(c) is GateCard][:cards]
    give(g, seat, gate_cards)
    assert g.phase == "turn" and len(gate_cards) == cards
    return g, seat, gate_cards


def test_r_gate_5_6_7_on_a_turn_a_gate_played_before_the_removal_it_makes_possible():
    # fountain (0,0); 7 at (0,1) below it, open all round; 5 at (1,1) east of 7 (north wall);
    # 13 at (1,0) east of the fountain (south wall): 13 and 5 meet wall against wall, so 5 is
    # reached only through 7, which R-TURN-6 keeps in place
    g, seat, (card,) = _turn_with_gates({(1, 0): 13, (1, 1): 5, (0, 1): 7})
    city = g.state.players[seat].city
    assert city.double_walls() == [((1, 0), SOUTH)]
    assert city.removable() == [(1, 0), (1, 1)] and "R-TURN-6" in city.why_not_remove((0, 1))
    assert cg.removal_gates(city) == [((1, 0), SOUTH)]
    legal = g.legal_actions()
    assert [a for a in legal if type(a) is PlayGate] == [PlayGate(card, 1, 0, SOUTH)]
    assert RemoveToReserve((0, 1)) not in legal
    g.apply(PlayGate(card, 1, 0, SOUTH))  # committed to the removal (R-GATE-5 ruling)
    assert g.current_player == seat and g.phase == "gates"
    city = g.state.players[seat].city
    assert gates_of(city) == [((1, 0), SOUTH)] and card not in g.state.players[seat].hand
    # R-GATE-6: 5 is now reached across the gate, so 7 may go; R-GATE-7: 13 and 5 stay
    assert g.legal_actions() == [RemoveToReserve((0, 1))]
    g.apply(RemoveToReserve((0, 1)))
    assert g.current_player != seat  # the redesign was the turn's action
    p = g.state.players[seat]
    assert p.reserve == [7] and p.city.tile_at((0, 1)) is None and p.city.tile_at((1, 1)) == 5
    assert g.state.modules["city_gates"].gates[seat] == [[1, 0, SOUTH]]
    check_invariants(g)
    save_and_load(g)


def test_r_gate_5_on_a_turn_a_gate_that_frees_no_tile_is_refused():
    # as above, with 14 at (-1,1) and 22 at (0,2) beside 7: removing 7 would leave a hole
    # (R-TURN-6) gate or no gate, and every other tile is a removable leaf already
    g, seat, (card,) = _turn_with_gates({(1, 0): 13, (1, 1): 5, (0, 1): 7, (-1, 1): 14, (0, 2): 22})
    city = g.state.players[seat].city
    assert city.double_walls() == [((1, 0), SOUTH)] and cg.removal_gates(city) == []
    assert "hole" in city.why_not_remove((0, 1))
    assert not any(type(a) is PlayGate for a in g.legal_actions())
    assert_refused(g, PlayGate(card, 1, 0, SOUTH), match="R-GATE-5")


def test_r_gate_5_6_a_removal_that_needs_two_gates_is_reached_gate_by_gate():
    # 7 at (0,1) holds 5 at (1,1) and 20 at (-1,1), each meeting 13 at (1,0) / 29 at (-1,0)
    # wall against wall: removing 7 needs a gate on both double walls
    tiles = {(1, 0): 13, (1, 1): 5, (0, 1): 7, (-1, 0): 29, (-1, 1): 20}
    g, seat, (c1, c2) = _turn_with_gates(tiles, cards=2)
    city = g.state.players[seat].city
    walls = [((-1, 0), SOUTH), ((1, 0), SOUTH)]
    assert city.double_walls() == walls and cg.removal_gates(city) == walls
    plays = [a for a in g.legal_actions() if type(a) is PlayGate]
    assert plays == [PlayGate(c1, -1, 0, SOUTH), PlayGate(c1, 1, 0, SOUTH)]
    g.apply(plays[0])
    assert (g.phase, g.current_player) == ("gates", seat)  # committed to a removal
    legal = g.legal_actions()
    assert PlayGate(c2, 1, 0, SOUTH) in legal and RemoveToReserve((0, 1)) not in legal  # 5 would still be cut off
    # (the removals open without gates stay open: the gate played stands with any of them)
    assert [a for a in legal if type(a) is RemoveToReserve] == [RemoveToReserve((1, 0)), RemoveToReserve((1, 1))]
    g.apply(PlayGate(c2, 1, 0, SOUTH))
    assert g.legal_actions() == [RemoveToReserve((0, 1))]  # 13, 5, 29 and 20 are held now (R-GATE-7)
    g.apply(RemoveToReserve((0, 1)))
    assert g.current_player != seat
    p = g.state.players[seat]
    assert p.reserve == [7] and sorted(p.city.tiles) == [(-1, 0), (-1, 1), (0, 0), (1, 0), (1, 1)]
    assert gates_of(p.city) == walls and not any(type(c) is GateCard for c in p.hand)
    check_invariants(g)


def test_r_gate_5_6_a_reserve_tile_built_through_a_gate_on_a_turn():
    g, seat, (card,) = _turn_with_gates({(1, 0): 6}, reserve=[12])
    legal = g.legal_actions()
    assert alhambra.BuildFromReserve(12, (2, 0)) not in legal  # R-PLACE-5: wall against wall
    builds = [a for a in legal if type(a) is BuildThroughGate]
    assert builds == [BuildThroughGate(card, 12, 2, 0, WEST)]
    assert_refused(g, BuildThroughGate(card, 13, 2, 0, WEST), match="R-TURN-5")  # not in the reserve
    g.apply(builds[0])
    assert g.current_player != seat  # a redesign: the turn's action (R-TURN-5 i)
    p = g.state.players[seat]
    assert p.reserve == [] and p.city.tile_at((2, 0)) == 12 and gates_of(p.city) == [((1, 0), EAST)]
    gs = g.state.modules["city_gates"]
    assert gs.gates[seat] == [[1, 0, EAST]] and gs.played == [card.number]
    check_invariants(g)
    save_and_load(g)


def _open_one(city, wall):
    trial = city.copy()
    trial.open_side(*wall)
    return trial


def _frontier_walls(city, pos):
    """The sides of empty cell ``pos`` facing a tile, as (cell, side) pairs."""
    x, y = pos
    steps = {1: (0, -1), 2: (1, 0), 4: (0, 1), 8: (-1, 0)}
    return [(pos, side) for side, (dx, dy) in steps.items() if city.tile_at((x + dx, y + dy)) is not None]


def _changed(before, after) -> bool:
    return before.tiles != after.tiles or before.open_sides != after.open_sides


@pytest.mark.parametrize("seed", range(3))
def test_r_gate_5_6_listed_steps_reach_every_change_one_gate_allows(seed):
    """On random states where the player to decide holds a gate card: every placement, build
    from the reserve and removal that one gate makes legal (found by brute force over the
    double walls and the frontier) is reached through the listed actions: directly, through
    BuildThroughGate, or after a listed PlayGate; after every change of the decider's own
    Alhambra (whatever action made it) the window for gates opens exactly when a gate can be
    played, and offers every double wall; a gate is never played while placing, and one played
    on a turn is followed by the removal it was played for (R-GATE-5 and its ruling)."""
    rng = random.Random(seed)
    checked = windows = 0
    g = alhambra.new_game(3 + seed, modules=["city_gates", "building_huts"], seed=seed, options={"city_gates.cards": 6})
    while not g.is_over:
        legal = g.legal_actions()
        st = g.state
        seat = st.decider
        hand = st.players[seat].hand
        gs = st.modules["city_gates"]
        city = st.players[seat].city
        walls = city.double_walls()
        gate_cards = sum(type(c) is GateCard for c in hand)
        if st.phase == "place":
            assert not any(type(a) is PlayGate for a in legal)
        if st.phase == "gates" and gs.window == "change":
            assert {((a.x, a.y), a.side) for a in legal if type(a) is PlayGate} == set(walls) != set()
            assert cg.FinishGates() in legal and gate_cards > 0
        if st.phase == "gates" and gs.window == "removal":  # committed: gates or the removal, nothing else
            assert {type(a) for a in legal} <= {PlayGate, RemoveToReserve} and legal
        if gate_cards and st.phase in ("turn", "place"):
            after_play = {}
            for a in legal:
                if type(a) is PlayGate:
                    h = g.clone()
                    h.apply(a)
                    assert (h.phase, h.state.modules["city_gates"].window) == ("gates", "removal")
                    after_play[a] = set(h.legal_actions())
            if st.phase == "place":
                tiles = {p.tile for p in st.pending}
            else:
                tiles = set(st.players[seat].reserve)
                now = set(city.removable())
                for wall in walls:
                    for pos in set(_open_one(city, wall).removable()) - now:
                        assert any(RemoveToReserve(pos) in after for after in after_play.values()), (pos, wall)
                        checked += 1
            for tile in tiles:
                for pos in city.frontier():
                    if city.can_place(tile, pos):
                        continue
                    for wall in _frontier_walls(city, pos):
                        if _open_one(city, wall).can_place(tile, pos):
                            side = wall[1]
                            assert any(
                                type(a) is BuildThroughGate and (a.tile, a.x, a.y, a.side) == (tile, *pos, side)
                                for a in legal
                            ), (tile, pos, side)
                            checked += 1
        a = legal[rng.randrange(len(legal))]
        before = city.copy()
        phase = st.phase
        g.apply(a)
        st = g.state
        if type(a) in (PlayGate, cg.FinishGates) or g.is_over:
            continue
        if _changed(before, st.players[seat].city):  # a change of the decider's own Alhambra
            can = any(type(c) is GateCard for c in st.players[seat].hand) and st.players[seat].city.double_walls()
            assert (st.phase == "gates" and st.decider == seat) == bool(can), (a, phase)
            windows += bool(can)
        else:
            assert st.phase != "gates", a
    assert checked > 0 and windows > 0
