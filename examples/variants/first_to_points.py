"""House rule: the game ends after the turn in which a player reaches ``first_to_points.points``
points (default 60).

Hook ``alhambra_game_ends`` is asked after every turn, once its scorings are added to the
scores. Its answer ``True`` ends the game there as an empty bag would (R-END-1): the buildings
left on the market are handed out (R-END-2), their recipients place them, then the third
scoring (R-END-3) and the winners, the most points (R-END-4).
"""

from typing import Any

from alhambra import Game, Option, hookimpl

NAME = "first_to_points"
DESCRIPTION = "House rule: the game ends once a player has N points."
RULES = ("R-END-1",)


@hookimpl
def alhambra_options() -> list[Option]:
    return [Option("first_to_points.points", 60, "the points that end the game", rule="R-END-1")]


@hookimpl
def alhambra_game_ends(game: Game, finished: int) -> bool | None:
    goal: Any = game.rules.options["first_to_points.points"]
    return True if max(game.scores) >= goal else None
