"""Playing whole games between bots, for the command line and for users' experiments."""

from __future__ import annotations

import random
from typing import Any, Iterable

from attrs import define, field

from .game import Game, new_game


class RandomBot:
    """Chooses uniformly among the legal actions, with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int, legal: list):
        """Return one of ``legal`` (the legal actions of ``seat`` in ``game``)."""
        return legal[self.rng.randrange(len(legal))]


@define(slots=True)
class GameResult:
    """The outcome of one simulated game: ``seed``, final ``scores`` per seat, ``winners``,
    number of ``actions``, which ``scorings`` happened, and the action counts by type."""

    seed: int
    players: int
    modules: list[str]
    scores: list[int]
    winners: list[int]
    actions: int
    scorings: list[int]
    action_counts: dict[str, int] = field(factory=dict)


def play(game: Game, bots: list, *, max_actions: int = 100_000) -> Game:
    """Let ``bots`` (one per seat) play ``game`` to the end; returns the game.

    Raises RuntimeError if the game is still running after ``max_actions`` actions."""
    n = 0
    while not game.is_over:
        if n >= max_actions:
            raise RuntimeError(f"game not over after {max_actions} actions")
        seat = game.current_player
        game.apply(bots[seat].choose(game, seat, game.legal_actions()))
        n += 1
    return game


def result_of(game: Game) -> GameResult:
    """Summarise a finished game as a :class:`GameResult`."""
    counts: dict[str, int] = {}
    for a in game.history:
        counts[type(a).__name__] = counts.get(type(a).__name__, 0) + 1
    return GameResult(
        seed=game.seed,
        players=game.num_players,
        modules=list(game.modules),
        scores=list(game.scores),
        winners=list(game.winners),
        actions=len(game.history),
        scorings=[r.number for r in game.state.scorings],
        action_counts=counts,
    )


def simulate_one(players, seed: int, *, modules: Iterable = (), options: dict[str, Any] | None = None) -> Game:
    """Play one game between random bots; the bots' seeds derive from ``seed``."""
    game = new_game(players, modules=modules, seed=seed, options=options)
    bots = [RandomBot(seed * 1000 + i) for i in range(game.num_players)]
    return play(game, bots)
