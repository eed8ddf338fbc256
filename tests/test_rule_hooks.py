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
