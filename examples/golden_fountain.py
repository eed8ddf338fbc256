"""A user's own module (a house rule): buildings beside the Lion Fountain earn gold.

At every scoring, each player scores ``golden_fountain.points`` points (default 1) for each
building that shares a side with their fountain, shown as a "golden fountain" column in the
scoring record. Enabled like any module, by name once loaded from a config's ``module_paths``
(see ``golden_fountain.toml``) or passed as an object:
``alhambra.new_game(4, modules=[golden_fountain])``.
"""

from alhambra import Option, hookimpl

NAME = "golden_fountain"
DESCRIPTION = "House rule: each building beside the fountain scores extra points at every scoring."
RULES = ()
NEIGHBOURS = ((0, -1), (1, 0), (0, 1), (-1, 0))


def _points(value):
    ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 5
    return None if ok else "an integer 0-5"


@hookimpl
def alhambra_options():
    return [Option("golden_fountain.points", 1, "points per building beside the fountain", check=_points)]


def fountain_neighbours(city) -> int:
    """How many buildings share a side with the fountain of ``city``."""
    return sum(
        1
        for pos in NEIGHBOURS
        if city.catalog.get(city.tile_at(pos)) is not None and city.catalog[city.tile_at(pos)].kind == "building"
    )


@hookimpl
def alhambra_scoring_adjust(game, record):
    per = game.rules.options["golden_fountain.points"]
    n = game.num_players
    record.add_points(
        "golden fountain",
        [per * fountain_neighbours(game.state.players[who].city) if who < n else 0 for who in record.participants],
    )
