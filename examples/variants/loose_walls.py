"""House rule: walls need not match (R-PLACE-3 off). Any two sides may touch; one still walks
only across a side walled on neither tile, so R-PLACE-5 (reachable on foot) and R-PLACE-6
(no holes) hold, and so does R-TURN-6 for removals.

Hook ``alhambra_placement_rules``: the built-in rules with ``walls_match=False``.
"""

import attrs

from alhambra import PlacementRules, hookimpl

NAME = "loose_walls"
DESCRIPTION = "House rule: walls need not match."
RULES = ("R-PLACE-3",)


@hookimpl
def alhambra_placement_rules(rules: PlacementRules) -> PlacementRules:
    return attrs.evolve(rules, walls_match=False)
