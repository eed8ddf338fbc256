"""House rule: every segment of the longest outer wall scores 2 points, not 1 (R-SCORE-5).

One hook, ``alhambra_scoring_adjust``: the wall points of each participant once more, as a
"walls x2" column of the scoring record.
"""

from alhambra import Game, ScoringRecord, hookimpl

NAME = "wall_points"
DESCRIPTION = "House rule: each outer wall segment scores 2."
RULES = ("R-SCORE-5",)


@hookimpl
def alhambra_scoring_adjust(game: Game, record: ScoringRecord) -> None:
    record.add_points("walls x2", list(record.walls))
