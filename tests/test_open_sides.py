"""Sides opened in the Alhambras, declared (``declared.opened_sides``) and held in place
(``alhambra.OpenSidesHeld``), and two more derived checks of a declared state: a field set
exactly while the module's phase is on (``during``) and fields annotated ``int`` or ``str``
holding one; tried on a house rule of a test's own, doors on double walls."""

from __future__ import annotations

from typing import Any

import pytest
from attrs import define, field

import alhambra
from alhambra import EAST, ConfigError, Declared, DeclaredState, OpenSidesHeld, declared, hookimpl


def _double_wall(city: Any, pos: tuple[int, int], side: int) -> str | None:
    return city.why_not_double_wall(pos, side)


@define(slots=True)
class Doors(DeclaredState):
    doors: list[list[list[int]]] = field(
        metadata=declared.public(**declared.opened_sides(_double_wall, "R-DOOR-1", "door"))
    )
    knocking: str = field(default="", metadata=declared.public(during="R-DOOR-2", omit=True))


class DoorRule:
    """A house rule: doors on double walls, open for walking, holding their tiles."""

    NAME = "doors"
    DECLARED = Declared("doors", Doors, label="doors", phase="knock", view=("doors",))

    @hookimpl
    def alhambra_setup(self, game: Any) -> None:
        game.state.modules.setdefault("doors", Doors([[] for _ in range(game.num_players)]))

    @hookimpl
    def alhambra_placement_rules(self, options: dict[str, Any], rules: Any) -> Any:
        return OpenSidesHeld(rules.holes, rules.walls_match, "R-DOOR-3: {pos} has a door")


GRID = 'players = [{ name = "Ana", alhambra = """\nF 6 12\n""" }, "Bo"]\nseed = 1\n'


def _read(doors: str) -> alhambra.Game:
    return alhambra.Game.from_position(GRID + f"[doors]\ndoors = {doors}\n", plugins=[DoorRule()])


def test_a_positions_doors_open_their_sides_and_are_written_back():
    game = _read('[[[2, 0, "west"]], []]')
    assert game.state.modules["doors"].doors == [[[1, 0, EAST]], []]
    assert game.state.players[0].city.is_open_side((1, 0), EAST)
    assert game.position()["doors"] == {"doors": [[[1, 0, "east"]], []]}
    assert game.view(0)["modules"]["doors"] == {"doors": [[[1, 0, "east"]], []]}


def test_a_door_its_rule_refuses_and_a_bad_list_are_named():
    with pytest.raises(ConfigError, match=r"^doors\.doors\[0\]\[0\] \(seat 0's Alhambra\): the east side of \(0, 0\)"):
        _read('[[[0, 0, "east"]], []]')
    with pytest.raises(ConfigError, match=r"^doors\.doors\[0\]\[0\]: a door is \[x, y, side\]"):
        _read('[[[1, 0, "up"]], []]')
    with pytest.raises(ConfigError, match=r"^doors\.doors: one list of doors per seat \(2 lists\)"):
        _read('[[[1, 0, "east"]]]')


def test_a_loaded_games_doors_are_exactly_the_sides_open_in_its_alhambras():
    game = _read('[[[1, 0, "east"]], []]')
    state = game.state.modules["doors"]
    assert DoorRule.DECLARED.problem(game) is None
    state.doors[0] = []
    assert DoorRule.DECLARED.problem(game) == (
        "doors: doors: R-DOOR-1: seat 0's doors [] do not match the sides open in its Alhambra [((1, 0), 2)]"
    )
    state.doors[0] = [[1, 0, 3]]
    assert DoorRule.DECLARED.problem(game) == "doors: doors: seat 0: a door is [x, y, 2|4], not [1, 0, 3]"


def test_a_field_set_only_during_the_phase_and_a_str_field_holding_a_number_are_refused():
    game = _read('[[[1, 0, "east"]], []]')
    state = game.state.modules["doors"]
    state.knocking = "Bo"
    assert DoorRule.DECLARED.problem(game) == (
        "doors: phase 'turn' and the knocking 'Bo' disagree (R-DOOR-2: set exactly while phase 'knock' is on)"
    )
    state.knocking = 5
    assert DoorRule.DECLARED.problem(game) == "doors: knocking: a str expected, not 5"


def test_open_sides_hold_their_tiles():
    game = _read('[[[1, 0, "east"]], []]')
    city = game.state.players[0].city
    assert city.rules.held_cells(city) == city.open_cells() != frozenset()
    assert city.why_not_remove((2, 0)) == "R-DOOR-3: (2, 0) has a door"
    assert city.rules.why_held(city, (0, 0)) is None


def test_a_copy_with_sides_open_leaves_the_alhambra_as_it_was():
    """``Alhambra.with_open_sides``: the copy walks across the side opened, the original does
    not (F 6 12: 12 is reached only across the double wall between 6 and 12)."""
    game = _read('[[[1, 0, "east"]], []]')
    city = game.state.players[0].city.copy()
    city.open_side((1, 0), EAST, open=False)
    assert city.why_invalid() is not None and not city.is_open_side((1, 0), EAST)
    opened = city.with_open_sides([((2, 0), alhambra.WEST)])
    assert opened.is_open_side((1, 0), EAST) and opened.why_invalid() is None
    assert not city.is_open_side((1, 0), EAST) and city.why_invalid() is not None
