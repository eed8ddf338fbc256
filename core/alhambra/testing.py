"""Helpers for tests of the engine, of modules and of users' variants.

``random_playout`` plays uniformly random legal actions; ``check_invariants`` asserts what must
hold after every action, for any combination of modules: every tile and card accounted for
exactly once, every Alhambra valid under the placement rules, and a decider on turn.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable

from .engine.accounting import InvariantError, check_invariants, expected_money

if TYPE_CHECKING:  # pragma: no cover
    from .engine.actions import Action
    from .game import Game

__all__ = ["InvariantError", "check_invariants", "expected_money", "random_playout"]


def random_playout(
    game: Game,
    rng: random.Random | int = 0,
    *,
    max_steps: int = 20_000,
    each_step: Callable[[Game, Action], object] | None = None,
) -> int:
    """Play uniformly random legal actions until the game ends; return the number of actions.

    ``each_step(game, action)`` is called after every action (e.g. ``check_invariants``).
    Raises :class:`InvariantError` if the game has not ended after ``max_steps`` actions."""
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    steps = 0
    while not game.is_over:
        if steps >= max_steps:
            raise InvariantError(f"game not over after {max_steps} actions")
        action = rng.choice(game.legal_actions())
        game.apply(action)
        steps += 1
        if each_step is not None:
            each_step(game, action)
    return steps
