"""Tests of the module "building_huts" (Bauhütten): R-HUT-1 … R-HUT-6 (RULES.md section 9).

Each rule gets hand-built situations with exact outcomes: a game is created with the module,
then ``game.state`` is edited directly (Alhambras, reserves, hut stacks, money), actions are
applied and the results checked. Hypothesis properties play random legal games to the end.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from alhambra import operations
import alhambra
import alhambra_building_huts as huts
from alhambra import (
    BUILDING_TYPES,
    EAST,
    MARKET_CURRENCIES,
    NORTH,
    SOUTH,
    WEST,
    Alhambra,
    BuildFromReserve,
    Buy,
    ConfigError,
    GiveToDirk,
    IllegalActionError,
    MoneyCard,
    Place,
    RemoveToReserve,
    Reserve,
    Swap,
    TileCatalog,
    TileSpec,
)
from alhambra.components import BASE_CATALOG, wall_names
from alhambra.testing import check_invariants, random_playout
from alhambra_building_huts import TakeHut, hut_counts, hut_value, huts_owned
from helpers import advance, continue_alike, save_and_load

MOD = ["building_huts"]

# COMPONENTS.md, "Building huts": the shipped layout (the project's own ruling).
COMPONENTS_TABLE = {
    "H1": ("pavilion", ("north",)),
    "H2": ("pavilion", ("south", "west")),
    "H3": ("pavilion", ("east",)),
    "H4": ("seraglio", ("east",)),
    "H5": ("seraglio", ("north", "west")),
    "H6": ("seraglio", ("south",)),
    "H7": ("arcades", ("south",)),
    "H8": ("arcades", ("north", "east")),
    "H9": ("arcades", ("west",)),
    "H10": ("arcades", ("east",)),
    "H11": ("chambers", ("west",)),
    "H12": ("chambers", ("east", "south")),
    "H13": ("chambers", ("north",)),
    "H14": ("chambers", ("south",)),
    "H15": ("garden", ("north",)),
    "H16": ("garden", ("east",)),
    "H17": ("garden", ("south", "west")),
    "H18": ("garden", ("north", "east")),
    "H19": ("garden", ("west",)),
    "H20": ("tower", ("south",)),
    "H21": ("tower", ("west",)),
    "H22": ("tower", ("east", "south")),
    "H23": ("tower", ("north", "west")),
    "H24": ("tower", ("north",)),
}
ALL_HUTS = sorted(COMPONENTS_TABLE)


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def _game(n: int = 3, seed: int = 11, **kw) -> alhambra.Game:
    """A fresh game with the module, seat 0 to act (turn player)."""
    g = alhambra.new_game(n, modules=MOD, seed=seed, **kw)
    _set_turn(g, 0)
    return g


def _set_turn(g, seat: int) -> None:
    """Make it ``seat``'s turn (phase "turn"). The game caches its legal actions until the
    next apply, so a direct state edit must drop that cache."""
    g.state.phase = "turn"
    g.state.turn_player = g.state.decider = seat
    alhambra.operations.invalidate(g)


def _stacks(g) -> dict[str, list[str]]:
    return g.state.modules["building_huts"].stacks


def _claim(g, tile) -> None:
    """Take ``tile`` out of wherever it lies (bag, market, Dirk, hut stacks), keeping every
    tile accounted for (a market space or Dirk's tile is replaced from the bag)."""
    st = g.state
    if tile in st.bag:
        st.bag.remove(tile)
        return
    if tile in st.market:
        st.market[st.market.index(tile)] = st.bag.pop()
        return
    dirk = st.modules.get("dirk")
    if dirk is not None and tile in dirk.tiles:
        dirk.tiles[dirk.tiles.index(tile)] = st.bag.pop()
        return
    for s in _stacks(g).values():
        if tile in s:
            s.remove(tile)
            return
    raise AssertionError(f"tile {tile!r} not found")


def _give(g, seat: int, city: dict | None = None, reserve=()) -> None:
    """Give ``seat`` an Alhambra ``{pos: tile}`` (fountain implied) and a reserve."""
    p = g.state.players[seat]
    for t in [*(city or {}).values(), *reserve]:
        _claim(g, t)
    if city is not None:
        p.city = Alhambra.from_tiles(city, catalog=g.rules.catalog)
    p.reserve = list(reserve)


def _set_stack(g, colour: str, order: list[str]) -> None:
    """Reorder one stack (a permutation of its huts): ``order`` bottom first, top last."""
    assert sorted(order) == sorted(_stacks(g)[colour])
    _stacks(g)[colour][:] = order


def _exact_buy(g, seat: int, space: int = 1) -> Buy:
    """Move money cards from the deck into ``seat``'s hand paying market ``space`` exactly."""
    st = g.state
    price = g.rules.catalog[st.market[space - 1]].price
    cur = MARKET_CURRENCIES[space - 1]
    picked, rest = [], price
    for c in sorted((c for c in st.deck if type(c) is MoneyCard and c.currency == cur), key=lambda c: -c.value):
        if c.value <= rest:
            picked.append(c)
            rest -= c.value
        if rest == 0:
            break
    assert rest == 0
    for c in picked:
        st.deck.remove(c)
    st.players[seat].hand.extend(picked)
    return Buy(space, picked)


def _take_huts(g) -> list[TakeHut]:
    return [a for a in g.legal_actions() if isinstance(a, TakeHut)]


def _hut_ids_in(obj) -> set[str]:
    """Every hut id appearing as a value anywhere in a plain-data structure."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= _hut_ids_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            out |= _hut_ids_in(v)
    elif isinstance(obj, str) and obj in COMPONENTS_TABLE:
        out.add(obj)
    return out


def _all_hut_places(g) -> list:
    return [t for tiles in alhambra.tile_locations(g).values() for t in tiles if isinstance(t, str)]


# ---------------------------------------------------------------------------------------------
# the module object
# ---------------------------------------------------------------------------------------------


def test_module_metadata():
    assert huts.NAME == "building_huts"
    assert huts.RULES == ("R-HUT-1", "R-HUT-2", "R-HUT-3", "R-HUT-4", "R-HUT-5", "R-HUT-6")
    assert isinstance(huts.DESCRIPTION, str) and huts.DESCRIPTION and "\n" not in huts.DESCRIPTION
    g = alhambra.new_game(2, modules=MOD, seed=1)
    assert g.rules.modules == ("building_huts",)
    assert g.rules.options["building_huts.layout"] is None
    assert str(TakeHut("H7")) == "take building hut H7"


# ---------------------------------------------------------------------------------------------
# R-HUT-1: 24 huts in six shuffled stacks, top face up
# ---------------------------------------------------------------------------------------------


def test_r_hut_1_shipped_layout_is_the_components_table():
    """R-HUT-1 / COMPONENTS.md: 24 huts, 3/3/4/4/5/5 by type, walls as in the table: every
    hut one or two walls, 8 on each side."""
    g = alhambra.new_game(3, modules=MOD, seed=1)
    cat = g.rules.catalog
    hut_specs = [s for s in cat.values() if s.kind == "hut"]
    assert sorted(s.id for s in hut_specs) == ALL_HUTS
    for s in hut_specs:
        assert (s.type, wall_names(s.walls)) == COMPONENTS_TABLE[s.id]
        assert s.price == 0 and not s.is_building
        assert 1 <= bin(s.walls).count("1") <= 2
    by_type = {t: sum(1 for s in hut_specs if s.type == t) for t in BUILDING_TYPES}
    assert by_type == {"pavilion": 3, "seraglio": 3, "arcades": 4, "chambers": 4, "garden": 5, "tower": 5}
    for side in (NORTH, EAST, SOUTH, WEST):
        assert sum(1 for s in hut_specs if s.walls & side) == 8
    # the buildings are untouched: hut ids are strings, never clashing with buildings (ints)
    assert all(cat[i] == BASE_CATALOG[i] for i in BASE_CATALOG)
    assert len(cat) == len(BASE_CATALOG) + 24


def test_r_hut_1_six_stacks_by_colour_top_face_up():
    """R-HUT-1: one stack per colour holding exactly that colour's huts; the top is face up
    and the view shows it with each stack's size."""
    g = alhambra.new_game(4, modules=MOD, seed=3)
    stacks = _stacks(g)
    assert list(stacks) == list(BUILDING_TYPES)
    for t, s in stacks.items():
        assert sorted(s) == sorted(h for h, (ty, _) in COMPONENTS_TABLE.items() if ty == t)
    view = g.view(0)["modules"]["building_huts"]
    assert view == {
        "stacks": {
            t: {"colour": c, "face_up": stacks[t][-1], "size": len(stacks[t])}
            for t, c in zip(BUILDING_TYPES, ("blue", "red", "brown", "white", "green", "purple"))
        }
    }
    assert {a.hut for a in _take_huts(g)} == {s[-1] for s in stacks.values()}
    check_invariants(g)


def test_r_hut_1_stacks_are_shuffled_with_the_game_seed():
    """R-HUT-1: the stacks are shuffled (with the game's own generator: same seed, same order)."""
    orders = {tuple(_stacks(alhambra.new_game(3, modules=MOD, seed=s))["tower"]) for s in range(30)}
    assert len(orders) > 10
    a = alhambra.new_game(3, modules=MOD, seed=99)
    b = alhambra.new_game(3, modules=MOD, seed=99)
    assert _stacks(a) == _stacks(b)


def test_r_hut_1_view_hides_face_down_huts():
    """R-HUT-1: face-down huts stay secret: no view (any seat, spectator) names them."""
    g = alhambra.new_game(3, modules=MOD, seed=5)
    face_up = {s[-1] for s in _stacks(g).values()}
    for seat in (None, 0, 1, 2):
        v = g.view(seat)
        assert _hut_ids_in(v) == face_up
        assert json.loads(json.dumps(v)) == v


# ---------------------------------------------------------------------------------------------
# R-HUT-2: taking a face-up hut
# ---------------------------------------------------------------------------------------------


def test_r_hut_2_take_face_up_hut_next_turns_up_free_of_charge():
    """R-HUT-2: the face-up hut is taken for nothing, the next of its stack turns face up, and
    the turn's actions are over (placement follows, R-HUT-3)."""
    g = _game(3)
    _set_stack(g, "garden", ["H19", "H18", "H17", "H16", "H15"])
    hand, display = list(g.state.players[0].hand), list(g.state.display)
    assert TakeHut("H15") in g.legal_actions()
    g.apply(TakeHut("H15"))
    assert _stacks(g)["garden"] == ["H19", "H18", "H17", "H16"]
    assert g.view(1)["modules"]["building_huts"]["stacks"]["garden"] == {"colour": "green", "face_up": "H16", "size": 4}
    assert [p.tile for p in g.state.pending] == ["H15"]
    assert not g.state.pending[0].dirk_ok
    assert g.phase == "place" and g.current_player == 0
    assert g.state.players[0].hand == hand and g.state.display == display
    assert g.history[-1] == TakeHut("H15")
    check_invariants(g)


def test_r_hut_2_only_face_up_huts_can_be_taken():
    """R-HUT-2: a face-down hut, a hut already taken, a building or an unknown id cannot be
    taken; the game is unchanged after the refusal."""
    g = _game(3)
    _set_stack(g, "garden", ["H19", "H18", "H17", "H16", "H15"])
    _give(g, 1, reserve=["H1"])
    before = g.to_json()
    for bad, words in [
        (TakeHut("H16"), "face down"),
        (TakeHut("H1"), "already taken"),
        (TakeHut("H99"), "not a building hut"),
        (TakeHut(7), "not a building hut"),
    ]:
        with pytest.raises(IllegalActionError, match="R-HUT-2") as exc:
            g.apply(bad)
        assert words in str(exc.value)
        assert g.to_json() == before


def test_r_hut_2_empty_stack_offers_nothing():
    """R-HUT-2: once the last hut of a colour is taken, that stack offers no more huts."""
    g = _game(3)
    _give(g, 1, reserve=["H2"])
    _give(g, 2, reserve=["H3"])
    assert _stacks(g)["pavilion"] == ["H1"]
    g.apply(TakeHut("H1"))
    g.apply(Reserve("H1"))
    assert _stacks(g)["pavilion"] == []
    assert g.view(None)["modules"]["building_huts"]["stacks"]["pavilion"] == {
        "colour": "blue",
        "face_up": None,
        "size": 0,
    }
    assert g.current_player == 1 and g.phase == "turn"
    offered = {a.hut for a in _take_huts(g)}
    assert len(offered) == 5 and not offered & {"H1", "H2", "H3"}
    with pytest.raises(IllegalActionError, match="R-HUT-2"):
        g.apply(TakeHut("H1"))
    check_invariants(g)


def test_r_hut_2_taking_a_hut_ends_the_actions_even_after_an_exact_purchase():
    """R-HUT-2 / R-TURN-4: an exact purchase earns another action; taking a hut as that action
    ends the turn's actions (no further action), then both tiles are placed."""
    g = _game(3)
    buy = _exact_buy(g, 0, space=1)
    building = g.state.market[0]
    g.apply(buy)
    assert g.phase == "turn" and g.current_player == 0  # R-TURN-4: another action
    hut = _stacks(g)["tower"][-1]
    g.apply(TakeHut(hut))
    assert g.phase == "place" and g.current_player == 0
    assert [p.tile for p in g.state.pending] == [building, hut]
    assert not any(isinstance(a, (Buy, TakeHut)) for a in g.legal_actions())
    g.apply(Reserve(building))
    g.apply(Reserve(hut))
    assert g.state.players[0].reserve == [building, hut]
    assert g.phase == "turn" and g.state.turn_player == 1 and g.current_player == 1
    check_invariants(g)


def test_r_hut_2_take_hut_only_on_a_turn():
    """R-HUT-2: taking a hut is a turn action; it is not available while placing."""
    g = _game(3)
    g.apply(TakeHut(_stacks(g)["arcades"][-1]))
    assert g.phase == "place"
    with pytest.raises(IllegalActionError, match="phase 'place'"):
        g.apply(TakeHut(_stacks(g)["tower"][-1]))


# ---------------------------------------------------------------------------------------------
# R-HUT-3: placed or reserved at the end of the turn, never to Dirk; redesign applies
# ---------------------------------------------------------------------------------------------


def test_r_hut_3_hut_built_at_end_of_turn_by_placement_rules():
    """R-HUT-3 / R-PLACE-7: the hut is built by the placement rules (its walls must match)."""
    g = _game(3)
    _set_stack(g, "garden", ["H15", "H16", "H17", "H18", "H19"])  # H19 (west wall) on top
    g.apply(TakeHut("H19"))
    city = g.state.players[0].city
    assert set(g.legal_actions()) == {Reserve("H19")} | {Place("H19", p) for p in city.placements("H19")}
    # east of the fountain its west wall would face the fountain's open side
    assert Place("H19", (1, 0)) not in g.legal_actions()
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="R-PLACE-3"):
        g.apply(Place("H19", (1, 0)))
    assert g.to_json() == before
    g.apply(Place("H19", (-1, 0)))
    assert g.state.players[0].city.tile_at((-1, 0)) == "H19"
    assert g.state.turn_player == 1 and g.phase == "turn"
    check_invariants(g)


def test_r_hut_3_never_given_to_dirk_with_two_players():
    """R-HUT-3 / R-TWO-5: with two players a bought building may go to Dirk, a hut never."""
    g = _game(2)
    buy = _exact_buy(g, 0, space=2)
    building = g.state.market[1]
    g.apply(buy)
    hut = _stacks(g)["chambers"][-1]
    g.apply(TakeHut(hut))
    legal = g.legal_actions()
    assert GiveToDirk(building) in legal
    assert GiveToDirk(hut) not in legal
    assert Reserve(hut) in legal and any(isinstance(a, Place) and a.tile == hut for a in legal)
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="R-TWO-5"):
        g.apply(GiveToDirk(hut))
    assert g.to_json() == before
    g.apply(GiveToDirk(building))
    assert building in g.state.modules["dirk"].tiles
    assert [a for a in g.legal_actions() if isinstance(a, GiveToDirk)] == []
    g.apply(Reserve(hut))
    assert g.state.players[0].reserve == [hut] and g.state.turn_player == 1
    check_invariants(g)


def test_r_hut_3_redesign_builds_removes_and_swaps_huts():
    """R-HUT-3 / R-TURN-5: huts take part in the redesign like buildings: built from the
    reserve, removed to it, swapped with a building (each ends the turn)."""
    g = _game(3)
    _give(g, 0, city={(1, 0): 41}, reserve=["H15"])
    legal = g.legal_actions()
    assert BuildFromReserve("H15", (2, 0)) in legal
    assert Swap("H15", (1, 0)) in legal

    b = g.clone()
    b.apply(BuildFromReserve("H15", (2, 0)))
    assert b.state.players[0].city.tile_at((2, 0)) == "H15" and b.state.players[0].reserve == []
    assert b.state.turn_player == 1
    check_invariants(b)
    # next time round, remove it again (R-TURN-5 ii)
    _set_turn(b, 0)
    assert RemoveToReserve((2, 0)) in b.legal_actions()
    b.apply(RemoveToReserve((2, 0)))
    assert b.state.players[0].reserve == ["H15"] and b.state.players[0].city.tile_at((2, 0)) is None
    check_invariants(b)

    s = g.clone()
    s.apply(Swap("H15", (1, 0)))  # R-TURN-5 iii: the hut takes the garden's place
    assert s.state.players[0].city.tiles == {(0, 0): 0, (1, 0): "H15"}
    assert s.state.players[0].reserve == [41]
    check_invariants(s)
    # a hut that does not fit (west wall against the fountain) cannot be swapped in
    _set_turn(s, 0)
    s.state.players[0].reserve.append("H19")
    _claim(s, "H19")
    with pytest.raises(IllegalActionError, match="R-PLACE-3"):
        s.apply(Swap("H19", (1, 0)))


# ---------------------------------------------------------------------------------------------
# R-HUT-4: at most 3 huts, reserve included
# ---------------------------------------------------------------------------------------------


def test_r_hut_4_third_hut_allowed():
    """R-HUT-4: a player owning 2 huts may take a third (and then owns 3)."""
    g = _game(3)
    _give(g, 0, city={(1, 0): "H15"}, reserve=["H1"])
    assert huts_owned(g, 0) == 2
    assert len(_take_huts(g)) == 6
    g.apply(_take_huts(g)[0])
    assert huts_owned(g, 0) == 3  # the pending hut counts
    check_invariants(g)


@pytest.mark.parametrize(
    "city, reserve",
    [
        ({(1, 0): "H15"}, ["H1", "H4"]),  # Alhambra + reserve
        ({}, ["H1", "H4", "H15"]),  # all in the reserve
        ({(1, 0): "H15", (2, 0): "H16", (-1, 0): "H24"}, []),  # all built
    ],
)
def test_r_hut_4_fourth_hut_refused(city, reserve):
    """R-HUT-4: with 3 huts (reserve included) no TakeHut is legal; applying one raises
    IllegalActionError citing R-HUT-4 and leaves the game unchanged."""
    g = _game(3)
    _give(g, 0, city=city, reserve=reserve)
    assert huts_owned(g, 0) == 3
    assert _take_huts(g) == []
    before = g.to_json()
    face_up = _stacks(g)["arcades"][-1]
    with pytest.raises(IllegalActionError, match="R-HUT-4") as exc:
        g.apply(TakeHut(face_up))
    assert "at most 3" in str(exc.value)
    assert g.to_json() == before
    # another player's huts are theirs: the next player may still take one
    _set_turn(g, 1)
    assert len(_take_huts(g)) == 6
    check_invariants(g)


def test_r_hut_4_hut_given_by_another_plugin_counts_after_invalidate():
    """R-HUT-4 with the module's kept listing: a hut put into a reserve directly (as another
    plugin's action would), followed by ``alhambra.operations.invalidate(game)`` as the module guide asks,
    counts at once: the listing is that of a fresh copy of the game."""
    g = _game(3)
    _give(g, 0, city={(1, 0): "H15"}, reserve=["H1"])
    assert len(_take_huts(g)) == 6  # listed, and kept in alhambra.operations.memo(game)
    hut = _stacks(g)["garden"][-1]
    _claim(g, hut)
    g.state.players[0].reserve.append(hut)
    alhambra.operations.invalidate(g)
    assert huts_owned(g, 0) == 3
    assert _take_huts(g) == [] == _take_huts(save_and_load(g))
    _set_turn(g, 1)
    assert _take_huts(g) == _take_huts(save_and_load(g)) and len(_take_huts(g)) == 6


def test_r_hut_4_pending_hut_counts():
    """R-HUT-4: a hut taken this turn and not yet placed counts toward the limit."""
    g = _game(3)
    _give(g, 0, reserve=["H1", "H4"])
    hut = _stacks(g)["garden"][-1]
    _claim(g, hut)
    operations.add_pending(g, hut)  # as if taken this turn (seat 0 is the turn player)
    assert huts_owned(g, 0) == 3
    assert _take_huts(g) == []
    with pytest.raises(IllegalActionError, match="R-HUT-4"):
        g.apply(TakeHut(_stacks(g)["tower"][-1]))


# ---------------------------------------------------------------------------------------------
# R-HUT-5: scoring
# ---------------------------------------------------------------------------------------------

# Garden hut H15 (wall north). Gardens: 41, 42 (no walls), 38 (east wall), 43 (south wall).
HUT_CASES = [
    # 0: only the fountain beside it (the fountain is no building)
    ("alone_by_fountain", {(1, 0): "H15"}, (1, 0), 0),
    # 0: a building of another type (tower 52) is no neighbour of its type
    ("other_type", {(1, 0): 52, (2, 0): "H15"}, (2, 0), 0),
    # 1: one garden to the west
    ("one_garden", {(1, 0): 41, (2, 0): "H15"}, (2, 0), 1),
    # 2: gardens west and east; a third garden north is separated by the wall
    ("wall_between", {(1, 0): 41, (2, 0): "H15", (3, 0): 42, (1, -1): 52, (2, -1): 43}, (2, 0), 2),
    # 3: gardens west, east and south; the walled one north still does not count
    (
        "three",
        {(1, 0): 41, (2, 0): "H15", (3, 0): 42, (2, 1): 38, (1, -1): 52, (2, -1): 43},
        (2, 0),
        3,
    ),
    # 1: another garden hut beside it is no building (R-HUT-5 ruling)
    ("hut_neighbour", {(1, 0): 41, (2, 0): "H15", (3, 0): "H16"}, (2, 0), 1),
    # 0: the second hut has only a hut and empty cells around its open sides
    ("hut_neighbour_other", {(1, 0): 41, (2, 0): "H15", (3, 0): "H16"}, (3, 0), 0),
    # 0: a tower hut beside a garden counts nothing (only its own colour)
    ("tower_hut_by_gardens", {(1, 0): 41, (2, 0): "H24"}, (2, 0), 0),
]


@pytest.mark.parametrize("name, tiles, pos, value", HUT_CASES, ids=[c[0] for c in HUT_CASES])
def test_r_hut_5_hut_value(name, tiles, pos, value):
    """R-HUT-5: a hut counts one building of its colour per orthogonally adjacent building of
    that type not separated by a wall; other types, other huts and the fountain count nothing."""
    g = alhambra.new_game(3, modules=MOD, seed=2)
    city = Alhambra.from_tiles(tiles, catalog=g.rules.catalog)
    assert hut_value(city, pos) == value


def test_r_hut_5_wall_on_either_side_separates():
    """R-HUT-5: a wall between the hut and the neighbour separates them. (In a valid Alhambra
    the walls match, R-PLACE-3; even in an unchecked grid either wall separates.)"""
    g = alhambra.new_game(3, modules=MOD, seed=2)
    cat = g.rules.catalog
    # 43 (south wall) directly north of H15 (north wall): the matched double wall
    city = Alhambra.from_tiles({(1, 0): 52, (1, -1): 53, (2, -1): 43, (2, 0): "H15"}, catalog=cat)
    assert hut_value(city, (2, 0)) == 0
    # unchecked: garden 40 (west wall) east of H15: the wall is only on the garden's side
    city = Alhambra.from_tiles({(1, 0): "H15", (2, 0): 40}, catalog=cat, check=False)
    assert hut_value(city, (1, 0)) == 0
    city = Alhambra.from_tiles({(1, 0): "H15", (2, 0): 41}, catalog=cat, check=False)
    assert hut_value(city, (1, 0)) == 1


def test_r_hut_5_capped_at_three():
    """R-HUT-5: at most 3, even for a (hypothetical) hut with four open sides and four
    neighbouring buildings of its type."""
    cat = TileCatalog((*BASE_CATALOG.values(), TileSpec("HX", "hut", "garden", 0, 0)))
    # gardens 41 (west), 42 (east), 38 (south, open north side), 39 (north, open south side)
    city = Alhambra.from_tiles(
        {(1, 0): 41, (2, 0): "HX", (3, 0): 42, (2, 1): 38, (2, -1): 39}, catalog=cat, check=False
    )
    assert cat[39].type == "garden" and not cat[39].walls & SOUTH
    assert hut_value(city, (2, 0)) == 3
    assert hut_counts(city)["garden"] == 3


def test_r_hut_5_value_needs_a_hut():
    g = alhambra.new_game(3, modules=MOD, seed=2)
    city = Alhambra.from_tiles({(1, 0): 41}, catalog=g.rules.catalog)
    with pytest.raises(ValueError):
        hut_value(city, (1, 0))
    with pytest.raises(ValueError):
        hut_value(city, (5, 5))


def _scoring_situation(hut_in_city: bool) -> alhambra.Game:
    """Seat 0: gardens 41 and 42 with hut H15 between them (value 2) or in the reserve.
    Seat 1: three gardens (39, 38, 40). Seat 2: nothing built; hut H16 and garden 33 reserved."""
    g = _game(3)
    if hut_in_city:
        _give(g, 0, city={(1, 0): 41, (2, 0): "H15", (3, 0): 42})
    else:
        _give(g, 0, city={(1, 0): 41, (2, 0): 42}, reserve=["H15"])
    _give(g, 1, city={(1, 0): 39, (2, 0): 38, (-1, 0): 40})
    _give(g, 2, reserve=["H16", 33])
    check_invariants(g)
    return g


def test_r_hut_5_hut_wins_the_majority_in_scoring_1():
    """R-HUT-5 / R-SCORE-2: seat 0 counts 2 gardens + 2 for the hut = 4 against seat 1's 3,
    so seat 0 takes the garden's 5 points of scoring 1. Walls (R-SCORE-5): 1, 1, 0."""
    g = _scoring_situation(hut_in_city=True)
    assert g.scores == (0, 0, 0)
    operations.run_scoring(g, 1)
    rec = g.state.scorings[-1]
    assert rec.participants == [0, 1, 2]
    assert [c["garden"] for c in rec.counts] == [4, 3, 0]
    assert all(c[t] == 0 for c in rec.counts for t in BUILDING_TYPES if t != "garden")
    assert [m["garden"] for m in rec.majority] == [5, 0, 0]
    assert rec.walls == [1, 1, 0]
    assert rec.totals == [6, 1, 0]
    assert g.scores == (6, 1, 0)


def test_r_hut_5_hut_in_scoring_3():
    """R-HUT-5: scoring 3 with the same Alhambras: 1st garden 20, 2nd 12."""
    g = _scoring_situation(hut_in_city=True)
    operations.run_scoring(g, 3)
    rec = g.state.scorings[-1]
    assert [m["garden"] for m in rec.majority] == [20, 12, 0]
    assert rec.totals == [21, 13, 0]
    assert g.scores == (21, 13, 0)


def test_r_hut_5_reserve_hut_counts_nothing():
    """R-HUT-5: the same hut in the reserve counts nothing: seat 0 has 2 gardens, seat 1 wins
    with 3 (5 points); seat 2's reserved hut and garden count nothing either."""
    g = _scoring_situation(hut_in_city=False)
    operations.run_scoring(g, 1)
    rec = g.state.scorings[-1]
    assert [c["garden"] for c in rec.counts] == [2, 3, 0]
    assert [m["garden"] for m in rec.majority] == [0, 5, 0]
    assert rec.walls == [0, 1, 0]
    assert g.scores == (0, 6, 0)


def test_r_hut_5_building_counts_hook():
    """R-HUT-5: the hook adds exactly the huts' values to the counts of the seats."""
    g = _scoring_situation(hut_in_city=True)
    counts = {i: p.city.type_counts() for i, p in enumerate(g.state.players)}
    assert counts[0]["garden"] == 2
    huts.alhambra_building_counts(game=g, number=1, counts=counts)
    assert counts[0]["garden"] == 4 and counts[1]["garden"] == 3 and counts[2]["garden"] == 0


def test_r_hut_5_removing_the_hut_to_the_reserve_loses_its_value():
    """R-HUT-5 / R-TURN-5: after a redesign moves the hut to the reserve it counts nothing."""
    g = _game(3)
    _give(g, 0, city={(1, 0): 41, (2, 0): "H15"})
    assert hut_counts(g.state.players[0].city)["garden"] == 1
    g.apply(RemoveToReserve((2, 0)))
    assert g.state.players[0].reserve == ["H15"]
    operations.run_scoring(g, 1)
    assert g.state.scorings[-1].counts[0]["garden"] == 1


# ---------------------------------------------------------------------------------------------
# R-HUT-6: hut walls in the longest wall
# ---------------------------------------------------------------------------------------------


def test_r_hut_6_hut_walls_count_for_the_longest_wall():
    """R-HUT-6 / R-SCORE-5: pavilion 5 (north wall) and hut H1 (north wall) side by side make
    one outer wall of 2; without the hut it is 1. The hut also counts 1 pavilion (R-HUT-5)."""
    g = _game(3)
    cat = g.rules.catalog
    assert Alhambra.from_tiles({(1, 0): 5}, catalog=cat).longest_outer_wall() == 1
    _give(g, 0, city={(1, 0): 5, (2, 0): "H1"})
    assert g.state.players[0].city.longest_outer_wall() == 2
    operations.run_scoring(g, 1)
    rec = g.state.scorings[-1]
    assert rec.walls[0] == 2
    assert rec.counts[0]["pavilion"] == 2
    assert rec.majority[0]["pavilion"] == 1
    assert g.scores[0] == 3


def test_r_hut_6_inner_hut_wall_does_not_count():
    """R-HUT-6 / R-SCORE-5: a hut wall facing another tile is an inner wall."""
    g = _game(3)
    # H15 (north wall) with garden 43 (south wall) above it: double inner wall; 43 reached via 52
    _give(g, 0, city={(1, 0): 52, (2, 0): "H15", (1, -1): 53, (2, -1): 43})
    assert g.state.players[0].city.longest_outer_wall() == 0


# ---------------------------------------------------------------------------------------------
# the layout option (R-HUT-1: the printed layout loaded from a file)
# ---------------------------------------------------------------------------------------------


def _layout_rows() -> list[dict]:
    return [{"id": h, "type": t, "walls": list(w)} for h, (t, w) in COMPONENTS_TABLE.items()]


def _write_layout(path, rows, top: str = "") -> str:
    lines = [top] if top else []
    for r in rows:
        lines.append("[[huts]]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in r.items()]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


def test_r_hut_1_custom_layout_file_is_used(tmp_path):
    """R-HUT-1: a user's layout file replaces the shipped walls; saves keep the option."""
    rows = _layout_rows()
    rows[0]["walls"] = ["east", "south", "west"]  # H1
    rows[14]["walls"] = ["south"]  # H15
    path = _write_layout(tmp_path / "printed.toml", rows)
    g = alhambra.new_game(3, modules=MOD, seed=4, options={"building_huts.layout": path})
    cat = g.rules.catalog
    assert cat["H1"].walls == EAST | SOUTH | WEST
    assert cat["H15"].walls == SOUTH
    assert cat["H2"].walls == SOUTH | WEST
    assert g.config["options"]["building_huts.layout"] == path
    advance(g, random.Random(4), 30)
    assert not g.is_over
    loaded = alhambra.Game.from_json(g.to_json())
    assert loaded.rules.catalog["H1"].walls == EAST | SOUTH | WEST
    assert loaded.to_json() == g.to_json()


def test_r_hut_1_layout_path_with_a_nul_byte_is_a_config_error():
    with pytest.raises(alhambra.ConfigError, match="cannot read hut layout"):
        alhambra.new_game(3, modules=MOD, seed=1, options={"building_huts.layout": "huts\x00.toml"})


def test_r_hut_1_layout_in_a_config_file_is_relative_to_it(tmp_path, monkeypatch):
    """R-HUT-1: in a TOML game configuration the layout path is relative to the config file
    (as ``module_paths`` are), whatever the working directory; absolute paths stay as given."""
    from alhambra.config import load_config

    rows = _layout_rows()
    rows[0]["walls"] = ["east", "south", "west"]  # H1
    (tmp_path / "conf").mkdir()
    _write_layout(tmp_path / "conf" / "printed.toml", rows)
    config = tmp_path / "conf" / "game.toml"
    config.write_text('modules = ["building_huts"]\n[options]\n"building_huts.layout" = "printed.toml"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    loaded = load_config(Path("..") / "conf" / "game.toml")  # the config named relative to the cwd
    assert loaded.options["building_huts.layout"] == str(tmp_path / "conf" / "printed.toml")  # made absolute
    g = alhambra.new_game(3, modules=loaded.resolved_modules(), options=loaded.options, seed=1)
    assert g.rules.catalog["H1"].walls == EAST | SOUTH | WEST
    monkeypatch.chdir(tmp_path)  # a save made with it loads from anywhere
    assert alhambra.Game.from_json(g.to_json()).rules.catalog["H1"].walls == EAST | SOUTH | WEST
    absolute = str(tmp_path / "conf" / "printed.toml")
    config.write_text(f'modules = ["building_huts"]\n[options]\n"building_huts.layout" = {json.dumps(absolute)}\n')
    assert load_config(config).options["building_huts.layout"] == absolute
    config.write_text('modules = ["vizier"]\n[options]\nholes = "region"\n')
    assert load_config(config).options == {"holes": "region"}  # other options untouched


def _drop_last(rows):
    return rows[:-1]


def _add_one(rows):
    return rows + [{"id": "H25", "type": "garden", "walls": ["north"]}]


def _setter(i, key, value):
    def f(rows):
        rows[i][key] = value
        return rows

    return f


def _del_key(i, key):
    def f(rows):
        del rows[i][key]
        return rows

    return f


LAYOUT_ERRORS = [
    ("too_few", _drop_last, "23 huts, but the module has 24"),
    ("too_many", _add_one, "25 huts, but the module has 24"),
    ("counts", _setter(0, "type", "tower"), "pavilion 2 (expected 3), tower 6 (expected 5)"),
    ("unknown_type", _setter(3, "type", "palace"), "hut 'H4': unknown type 'palace'"),
    ("unknown_side", _setter(5, "walls", ["up"]), "hut 'H6': unknown wall side 'up'"),
    ("no_wall", _setter(6, "walls", []), "hut 'H7' has no wall"),
    ("four_walls", _setter(7, "walls", ["north", "east", "south", "west"]), "hut 'H8' has walls on all four sides"),
    ("side_twice", _setter(8, "walls", ["west", "west"]), "hut 'H9': a wall side is listed twice"),
    ("walls_not_list", _setter(8, "walls", "west"), "huts #9.walls: expected a list, not 'west'"),
    ("duplicate_id", _setter(1, "id", "H1"), "hut 'H1' appears twice"),
    ("id_not_string", _setter(1, "id", 2), "huts #2.id: expected a string, not 2"),
    ("id_empty", _setter(1, "id", ""), "huts #2: id must be a non-empty string of at most 64 characters"),
    ("id_too_long", _setter(1, "id", "H" * 65), "huts #2: id must be a non-empty string of at most 64 characters"),
    ("missing_key", _del_key(2, "walls"), "huts #3.walls: a required key is missing"),
    ("unknown_key", _setter(2, "wall", ["east"]), "huts #3: unknown keys ['wall'] (allowed: id, type, walls)"),
]


@pytest.mark.parametrize("name, change, message", LAYOUT_ERRORS, ids=[e[0] for e in LAYOUT_ERRORS])
def test_r_hut_1_layout_file_validation(tmp_path, name, change, message):
    """R-HUT-1: a layout file must hold 24 huts, 3/3/4/4/5/5 by type, known types and sides,
    each hut at least one wall and not four; otherwise ConfigError says what is wrong."""
    path = _write_layout(tmp_path / f"{name}.toml", change(_layout_rows()))
    with pytest.raises(ConfigError) as exc:
        alhambra.new_game(3, modules=MOD, seed=1, options={"building_huts.layout": path})
    assert message in str(exc.value)
    assert "building_huts.layout" in str(exc.value) and path in str(exc.value)


def test_r_hut_1_layout_file_unreadable(tmp_path):
    """R-HUT-1: a missing file, a file that is not TOML, a file without huts, a value that is
    not a path: all ConfigError."""
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("[[huts]\nid = ", encoding="utf-8")
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    extra = tmp_path / "extra.toml"
    _write_layout(extra, _layout_rows(), top='title = "my huts"')
    cases = [
        (str(tmp_path / "missing.toml"), "cannot read hut layout"),
        (str(bad_toml), "is not valid TOML"),
        (str(empty), "huts: a required key is missing"),
        (str(extra), "unknown keys ['title'] (allowed: huts)"),
        (42, "a path to a TOML file"),
        ("", "a path to a TOML file"),
    ]
    for value, message in cases:
        with pytest.raises(ConfigError) as exc:
            alhambra.new_game(3, modules=MOD, seed=1, options={"building_huts.layout": value})
        assert message in str(exc.value), (value, str(exc.value))


def test_r_hut_1_shipped_file_passes_its_own_validation():
    """The shipped huts.toml is read through the same checks as a user's file."""
    from importlib import resources

    text = resources.files("alhambra_building_huts").joinpath("huts.toml").read_text("utf-8")
    import tomllib

    specs = huts.parse_layout(tomllib.loads(text))
    assert specs == huts.shipped_layout() == huts.load_layout(None)
    assert [s.id for s in specs] == [f"H{i}" for i in range(1, 25)]


# ---------------------------------------------------------------------------------------------
# properties: random legal games
# ---------------------------------------------------------------------------------------------


def _check_huts(game, action=None) -> None:
    """Engine invariants plus the module's: every hut exactly once (R-HUT-1), stacks hold only
    their colour, nobody owns more than 3 huts (R-HUT-4), pending huts never to Dirk (R-HUT-3)."""
    check_invariants(game)
    assert sorted(_all_hut_places(game)) == ALL_HUTS
    cat = game.rules.catalog
    for t, s in _stacks(game).items():
        assert all(cat[h].type == t for h in s)
    for seat in range(game.num_players):
        assert huts_owned(game, seat) <= 3
    for p in game.state.pending:
        if isinstance(p.tile, str):
            assert not p.dirk_ok
    dirk = game.state.modules.get("dirk")
    if dirk is not None:
        assert not any(isinstance(t, str) for t in dirk.tiles)


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_property_random_games_keep_invariants(players, seed):
    """Random legal games with huts (2-6 players) to the end: invariants after every action;
    the final scoring counts exactly buildings plus hut values (R-HUT-5)."""
    g = alhambra.new_game(players, modules=MOD, seed=seed)
    random_playout(g, seed, each_step=_check_huts)
    assert g.is_over
    final = g.state.scorings[-1]
    assert final.number == 3
    for seat, p in enumerate(g.state.players):
        base, extra = p.city.type_counts(), hut_counts(p.city)
        assert final.counts[final.participants.index(seat)] == {t: base[t] + extra[t] for t in BUILDING_TYPES}
        for pos, tile in p.city.tiles.items():
            if isinstance(tile, str):
                assert 0 <= hut_value(p.city, pos) <= 3


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 400))
def test_property_save_round_trip_mid_game(players, seed, steps):
    """to_json/from_json mid-game round-trips exactly, and the loaded game continues
    identically (same legal actions, same outcome) when fed the same choices."""
    g = alhambra.new_game(players, modules=MOD, seed=seed)
    advance(g, random.Random(seed), steps)
    loaded = save_and_load(g)
    assert loaded.state.modules["building_huts"] == g.state.modules["building_huts"]
    continue_alike(g, loaded, seed + 1)


def test_random_play_takes_and_builds_huts():
    """Random play does take huts (R-HUT-2), builds them and scores with them (R-HUT-5)."""
    taken = built = valued = 0
    for players in range(2, 7):
        g = alhambra.new_game(players, modules=MOD, seed=100 + players)
        random_playout(g, players)
        taken += sum(1 for a in g.history if isinstance(a, TakeHut))
        for p in g.state.players:
            built += sum(1 for t in p.city.tiles.values() if isinstance(t, str))
            valued += sum(hut_counts(p.city).values())
    assert taken >= 10
    assert built >= 3
    assert valued >= 1


def test_clone_is_independent():
    """The module state is cloned with the game: taking a hut in a clone leaves the original."""
    g = _game(3)
    c = g.clone()
    top = _stacks(c)["tower"][-1]
    c.apply(TakeHut(top))
    assert _stacks(g)["tower"][-1] == top
    assert _stacks(c)["tower"][-1] != top
