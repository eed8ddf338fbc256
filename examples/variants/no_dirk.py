"""House rule for two players: Dirk never scores (R-TWO-4 off).

Dirk still takes buildings (R-TWO-3), but hook ``alhambra_building_counts`` counts none of
them: the built-in rules add him first (``core.dirk`` runs before house rules), so this
implementation sees his counts and sets them to 0. He stays a participant with 0 points.
"""

from alhambra import Game, hookimpl

NAME = "no_dirk"
DESCRIPTION = "House rule: Dirk never scores."
RULES = ("R-TWO-4",)


@hookimpl
def alhambra_building_counts(game: Game, number: int, counts: dict[int, dict[str, int]]) -> None:
    for kind in counts.get(game.num_players, {}):  # Dirk's participant number
        counts[game.num_players][kind] = 0  # he counts no building, so wins no majority
