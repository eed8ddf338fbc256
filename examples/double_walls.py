"""A house rule that obviously changes the game: the longest outer wall scores twice.

At every scoring each participant gets its wall points (R-SCORE-5) a second time, as a
"double walls" column of the scoring record. Compare it with the base game:
``alhambra compare examples/base.toml examples/double_walls.toml --bots greedy --games 200``.
"""

from alhambra import hookimpl

NAME = "double_walls"
DESCRIPTION = "House rule: the longest outer wall scores twice at every scoring."
RULES = ()


@hookimpl
def alhambra_scoring_adjust(game, record):
    record.add_points("double walls", list(record.walls))
