"""A house rule that changes what the bots buy: towers score no majority points.

At every scoring each participant's majority points for towers (R-SCORE-2 ... R-SCORE-4) are
taken back, as a "towers pay nothing" column of the scoring record. The greedy and search bots
value buildings by what the rule set's own scoring pays, so under this rule they stop buying
towers for their majorities. Compare it with the base game:
``alhambra compare examples/base.toml examples/no_tower_points.toml --bots greedy --games 40``.
"""

from alhambra import hookimpl

NAME = "no_tower_points"
DESCRIPTION = "House rule: towers score no majority points."
RULES = ()


@hookimpl
def alhambra_scoring_adjust(game, record):
    record.add_points("towers pay nothing", [-points.get("tower", 0) for points in record.majority])
