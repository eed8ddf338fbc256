"""An A/A control for the balance lab: the same game, another deal.

It changes no rule; it only shuffles the building bag again after the set-up, so that a
comparison against the base game on the same seeds measures how often the lab finds a
difference where there is none (``benchmarks/lab_false_findings.py``)::

    # b.toml
    players = 2
    modules = ["reshuffle"]
    module_paths = ["reshuffle.py"]
"""

import random

from alhambra import hookimpl

NAME = "reshuffle"
DESCRIPTION = "Deals the building bag again: the same game, another deal."
RULES = ()


@hookimpl(trylast=True)
def alhambra_setup(game):
    random.Random(game.seed * 7919 + 1).shuffle(game.state.bag)
