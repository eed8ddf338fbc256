"""The hooks that change a base rule as a whole: the placement rules (R-PLACE-3, R-PLACE-5,
R-PLACE-6, R-TURN-5, R-TURN-6, ``alhambra_placement_rules``) and the purchase rule (R-TURN-3,
R-TURN-4, R-VIZ-2, ``alhambra_purchase_rule``), reached by every caller."""

from __future__ import annotations

import types

import attrs
import pytest

import alhambra
from alhambra import EAST, WEST, Alhambra, ConfigError, PlacementRules, PurchaseRule, hookimpl

# tile 2: walls on the west side only? (found from the catalogue, not assumed)
WALLS = alhambra.Alhambra().catalog.walls


def _tile(mask: int) -> int:
    return next(t for t in range(1, 55) if WALLS[t] == mask)


def _plugin(name: str, **hooks: object) -> object:
    return types.SimpleNamespace(NAME=name, **{k: hookimpl(v) for k, v in hooks.items()})


def test_r_place_3_off_lets_unmatched_sides_touch_r_place_5_still_holds():
    """walls_match=False: a tile walled on its west side may touch an open east side of the
    fountain's row; one still walks only where neither side is walled."""
    loose = PlacementRules(walls_match=False)
    west = _tile(WEST)
    city = Alhambra(rules=loose)
    # the fountain has no walls: a west-walled tile east of it touches across a wall: not walkable
    assert city.why_not_place(west, (1, 0)).startswith("R-PLACE-5")
    assert Alhambra().why_not_place(west, (1, 0)).startswith("R-PLACE-3")
    east = _tile(EAST)
    # an east-walled tile east of the fountain: its west side is open, matching the fountain
    city.place(east, (1, 0))
    # next to it, a tile open on the west touches the east wall: unmatched, allowed without R-PLACE-3,
    # but it cannot be reached across that wall (R-PLACE-5)
    open_tile = _tile(0) if 0 in WALLS.values() else _tile(NORTH_ONLY)
    assert city.why_not_place(open_tile, (2, 0)).startswith("R-PLACE-5")
    assert Alhambra.from_tiles({(1, 0): east}).why_not_place(open_tile, (2, 0)).startswith("R-PLACE-3")


NORTH_ONLY = alhambra.NORTH


def test_r_gate_6_a_side_declared_open_can_be_walked():
    """A side declared open (Alhambra.open_side) counts as walkable for R-PLACE-5."""
    west = _tile(WEST)
    city = Alhambra(rules=PlacementRules(walls_match=False))
    assert not city.can_place(west, (1, 0))
    city.open_side((0, 0), EAST)
    assert city.is_open_side((1, 0), WEST)
    assert city.can_place(west, (1, 0))
    assert city.copy().open_sides == city.open_sides == {((0, 0), EAST), ((1, 0), WEST)}


def test_placement_rules_hook_is_chained_from_the_built_in_rules():
    seen = []

    def alhambra_placement_rules(options, rules):
        seen.append(rules)
        return attrs.evolve(rules, walls_match=False)

    game = alhambra.new_game(3, plugins=[_plugin("loose", alhambra_placement_rules=alhambra_placement_rules)], seed=2)
    assert seen == [PlacementRules(holes="cell")]
    assert all(p.city.rules == PlacementRules(walls_match=False) for p in game.state.players)
    alhambra.testing.random_playout(game, 5)
    again = alhambra.Game.from_json(
        game.to_json(), plugins=[_plugin("loose", alhambra_placement_rules=alhambra_placement_rules)]
    )
    assert again.to_json() == game.to_json()
    with pytest.raises(ConfigError, match="not a PlacementRules"):
        alhambra.new_game(3, plugins=[_plugin("bad", alhambra_placement_rules=lambda rules: 3)])


class _Plus2(PurchaseRule):
    """Every building costs 2 more."""

    def market_price(self, game, space):
        price = super().market_price(game, space)
        return None if price is None else price + 2


def test_a_replaced_purchase_rule_is_asked_by_every_caller():
    called = []

    class Spy(PurchaseRule):
        def first_exact_payer(self, game, seats):
            called.append("first_exact_payer")
            return super().first_exact_payer(game, seats)

        def cached_purchases(self, game, seat, exact=False):
            called.append("cached_purchases")
            return super().cached_purchases(game, seat, exact)

    plugin = _plugin("spy", alhambra_purchase_rule=lambda rule: Spy())
    game = alhambra.new_game(3, modules=["vizier"], plugins=[plugin], seed=4)
    assert isinstance(game.rules.purchase, Spy)
    alhambra.testing.random_playout(game, 5)
    assert {"first_exact_payer", "cached_purchases"} <= set(called)  # the vizier's round, the Buy kind


def test_purchase_rule_price_reaches_view():
    game = alhambra.new_game(3, plugins=[_plugin("plus2", alhambra_purchase_rule=lambda rule: _Plus2())], seed=1)
    base = alhambra.new_game(3, seed=1)
    assert [m["price"] for m in game.view()["market"]] == [m["price"] + 2 for m in base.view()["market"]]
    assert game.rules.purchase.market_price(game, 1) == base.rules.purchase.market_price(base, 1) + 2


def test_a_module_object_named_like_an_installed_module_is_refused():
    fake = types.SimpleNamespace(NAME="vizier")
    with pytest.raises(ConfigError, match="the name of the installed module 'alhambra_vizier'"):
        alhambra.new_game(3, modules=[fake])
    import alhambra_vizier

    assert alhambra.new_game(3, modules=[alhambra_vizier], seed=1).rules.modules == ("vizier",)


@attrs.frozen
class _EastWestGates(PlacementRules):
    """House rule: the east and west sides of every tile may be walked through, walls or not
    (R-PLACE-5); nothing else changes."""

    def side_open(self, city: Alhambra, pos: tuple[int, int], side: int, mine: bool, theirs: bool) -> bool:
        return side in (EAST, WEST) or super().side_open(city, pos, side, mine, theirs)


class _EastWestPlugin:
    NAME = "east_west_gates"

    @hookimpl
    def alhambra_placement_rules(self, rules: PlacementRules) -> PlacementRules:
        return _EastWestGates(rules.holes, rules.walls_match)


def test_r_place_5_one_overridden_method_changes_the_tables_and_the_legal_builds():
    """A plugin overriding only ``side_open`` (through ``alhambra_placement_rules``, nothing
    else registered): its tables are built from the override, and a hand-built Alhambra lists
    exactly one more place. The fountain with an east-walled tile at (1, 0): a west-walled tile
    meets that tile wall against wall at (2, 0), matching (R-PLACE-3) but walled off under the
    built-in rules (R-PLACE-5); under the house rule it may be walked through."""
    game = alhambra.new_game(3, plugins=[_EastWestPlugin()], seed=4)
    rules = game.rules.placement_rules
    assert type(rules) is _EastWestGates
    assert rules.tables is not None and rules.tables.place_ok != PlacementRules().tables.place_ok
    assert not rules.tables.walks_links  # a tile behind a walled side stays linked: removals judged tile by tile
    east, west = _tile(EAST), _tile(WEST)
    builtin = [(-1, 0), (0, -1), (0, 1), (1, -1), (1, 1)]
    assert Alhambra.from_tiles({(1, 0): east}).placements(west) == builtin
    city = Alhambra.from_tiles({(1, 0): east}, rules=rules)
    assert city.placements(west) == sorted([*builtin, (2, 0)])
    assert city.why_not_place(west, (2, 0)) is None
    # the listing of a turn's builds from the reserve (R-TURN-5 i) goes through the same rules
    seat = game.current_player
    player = game.state.players[seat]
    player.city, player.reserve = city, [west]
    from alhambra.rules.redesign import redesign_actions

    builds = redesign_actions(game, seat)[0]
    assert sorted(tuple(a.pos) for a in builds) == sorted([*builtin, (2, 0)])
    city.place(west, (2, 0))
    assert city.removable() == [(2, 0)] and city.why_invalid() is None


def test_rules_reading_the_position_have_no_tables_and_are_judged_cell_by_cell():
    """``side_open`` that asks where the side lies (the ``open_side`` example) cannot be a
    table over one side's facts: the rules keep no tables and judge every cell themselves."""

    @attrs.frozen
    class OneSide(PlacementRules):
        def side_open(self, city: Alhambra, pos: tuple[int, int], side: int, mine: bool, theirs: bool) -> bool:
            return super().side_open(city, pos, side, mine, theirs) or alhambra.side_cells(pos, side) == frozenset(
                {(1, 0), (2, 0)}
            )

    rules = OneSide()
    assert rules.tables is None
    east, west = _tile(EAST), _tile(WEST)
    city = Alhambra.from_tiles({(1, 0): east}, rules=rules)
    assert city.placements(west) == [(-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (2, 0)]
    assert not city.fast_rules()
