"""A variant that REPLACES a base rule: walls score double.

It blocks the built-in plugin ``core.scoring`` and provides its own scoring, reusing the base
scoring (``alhambra.base_scoring``, the public API). Run: ``python examples/replace_scoring.py``.
"""

import random

import alhambra
from alhambra import base_scoring, hookimpl


class DoubleWalls:
    """Scores like the base game, then adds the wall points a second time."""

    @hookimpl
    def alhambra_scoring(self, game, number):
        record = base_scoring(game, number)
        record.add_points("double walls", list(record.walls))
        return record


if __name__ == "__main__":
    game = alhambra.new_game(3, seed=4, plugins=[DoubleWalls()], blocked=["core.scoring"])
    rng = random.Random(4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    for record in game.state.scorings:
        print(record.number, record.walls, record.extra, record.totals)
    print("scores", game.scores, "winners", game.winners)
