"""A user's own module (a house rule): the Lion Fountain counts as one extra building.

At every scoring each player's fountain counts as ``golden_fountain.extra`` buildings of the
type chosen by ``golden_fountain.type`` (default: one pavilion). Enabled like any module, by
name, once loaded from a config's ``module_paths`` (see ``golden_fountain.toml``) or passed as
an object: ``alhambra.new_game(4, modules=[golden_fountain])``.
"""

from alhambra import BUILDING_TYPES, Option, hookimpl

NAME = "golden_fountain"
DESCRIPTION = "House rule: each fountain counts as one extra building of a chosen type at every scoring."
RULES = ()


def _count(value):
    return None if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3 else "an integer 0-3"


@hookimpl
def alhambra_options():
    return [
        Option("golden_fountain.type", "pavilion", "building type the fountain counts as", choices=BUILDING_TYPES),
        Option("golden_fountain.extra", 1, "how many buildings the fountain counts as", check=_count),
    ]


@hookimpl
def alhambra_building_counts(game, number, counts):
    kind = game.options["golden_fountain.type"]
    for seat in range(game.num_players):
        counts[seat][kind] += game.options["golden_fountain.extra"]
