"""Tiles a rule holds in place (``PlacementRules.held_cells`` and ``why_held``): neither moved
to the reserve nor swapped (R-TURN-5), while the built-in tables keep deciding the rest, as the
city gates' R-GATE-7 uses them."""

from __future__ import annotations

import random
from typing import Any

import attrs

import alhambra
from alhambra import Alhambra, PlacementRules, RemoveToReserve, Swap, hookimpl
from alhambra.engine.city import BASE_CATALOG, cell_position

EAST_OF_FOUNTAIN = (1, 0)


@attrs.frozen
class EastStays(PlacementRules):
    """A house rule: the tile east of the fountain stays where it is."""

    def held_cells(self, city: Alhambra) -> frozenset[int]:
        return frozenset(c for c in city.tile_facts if cell_position(c) == EAST_OF_FOUNTAIN)

    def why_held(self, city: Alhambra, pos: Any) -> str | None:
        return "house rule: the tile east of the fountain stays" if tuple(pos) == EAST_OF_FOUNTAIN else None


class EastStaysPlugin:
    NAME = "east_stays"

    @hookimpl
    def alhambra_placement_rules(self, options: dict[str, Any], rules: PlacementRules) -> PlacementRules:
        return EastStays(rules.holes, rules.walls_match)


def _line(rules: PlacementRules) -> Alhambra:
    # the fountain, an open tile east of it and one east of that: a line of three (R-PLACE-5)
    tiles = {}
    free = [t for t, spec in BASE_CATALOG.items() if spec.walls == 0 and spec.kind == "building"]
    tiles[(1, 0)], tiles[(2, 0)] = free[0], free[1]
    return Alhambra.from_tiles(tiles, rules=rules)


def test_a_rule_that_only_holds_tiles_keeps_the_tables():
    assert EastStays().tables and PlacementRules().tables


def test_a_held_tile_is_neither_removed_nor_swapped_r_turn_5():
    plain, held = _line(PlacementRules()), _line(EastStays())
    east = [c for c in plain.tile_facts if cell_position(c) == EAST_OF_FOUNTAIN]
    assert set(east) <= set(plain.swap_cells(0))  # the built-in rules would swap it
    assert plain.why_not_remove((2, 0)) is None and held.why_not_remove((2, 0)) is None  # the leaf goes
    assert held.why_not_remove(EAST_OF_FOUNTAIN) == "house rule: the tile east of the fountain stays"
    assert (
        held.why_not_swap(held.tile_at((2, 0)), EAST_OF_FOUNTAIN) == "house rule: the tile east of the fountain stays"
    )
    assert held.swap_cells(0) == [c for c in plain.swap_cells(0) if c not in east]
    assert held.removable_cells() == [c for c in plain.removable_cells() if c not in east]


def test_listed_redesigns_never_move_a_held_tile_and_match_the_rules_cell_by_cell():
    """Over random games with the house rule, no listed removal or swap touches (1, 0), and the
    listing is exactly what the rules give tile by tile."""
    seen = 0
    for seed in range(10):
        game = alhambra.new_game(3, seed=seed, plugins=[EastStaysPlugin()])
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            seat = game.current_player
            city = game.state.players[seat].city
            for a in legal:
                if type(a) in (RemoveToReserve, Swap):
                    assert tuple(a.pos) != EAST_OF_FOUNTAIN
            if game.state.phase == "turn":
                removals = sorted(tuple(a.pos) for a in legal if type(a) is RemoveToReserve)
                expected = sorted(p for p in city.tiles if p != (0, 0) and city.why_not_remove(p) is None)
                assert removals == expected
                if city.tile_at(EAST_OF_FOUNTAIN) is not None:
                    seen += 1
            game.apply(legal[rng.randrange(len(legal))])
    assert seen > 50
