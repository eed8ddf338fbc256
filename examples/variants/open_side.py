"""House rule: one chosen side of every Alhambra counts as open for walking (R-PLACE-5,
R-TURN-6), walls or not, as a city gate makes it (R-GATE-6). Option ``open_side.side``:
``"x,y,side"``, the side of cell (x, y) (default ``"1,0,west"``: between the fountain and the
cell east of it, so a west-walled tile can be built there).

Hook ``alhambra_placement_rules``: the built-in rules with :meth:`side_open` widened.
"""

from typing import Any

import attrs

from alhambra import SIDE_BITS, Alhambra, Option, PlacementRules, hookimpl, side_cells

NAME = "open_side"
DESCRIPTION = "House rule: one side of the Alhambra counts as open for walking."
RULES = ("R-PLACE-5", "R-TURN-6")


@attrs.frozen
class OneOpenSide(PlacementRules):
    gate: frozenset[tuple[int, int]] = frozenset()  # the two cells the open side lies between

    def side_open(self, city: Alhambra, pos: tuple[int, int], side: int, mine: bool, theirs: bool) -> bool:
        return super().side_open(city, pos, side, mine, theirs) or side_cells(pos, side) == self.gate


@hookimpl
def alhambra_options() -> list[Option]:
    return [Option("open_side.side", "1,0,west", "x,y,side: the side that counts as open", rule="R-PLACE-5")]


@hookimpl
def alhambra_placement_rules(options: dict[str, Any], rules: PlacementRules) -> PlacementRules:
    x, y, word = options["open_side.side"].split(",")
    return OneOpenSide(rules.holes, rules.walls_match, side_cells((int(x), int(y)), SIDE_BITS[word.strip()]))
