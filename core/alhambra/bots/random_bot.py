"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Bot

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.actions import Action
    from ..game import Game


class RandomBot(Bot):
    """Chooses uniformly among the legal actions, with its own seeded generator."""

    name = "random"

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """Return one of ``legal`` (the legal actions of ``seat`` in ``game``)."""
        return legal[self.rng.randrange(len(legal))]
