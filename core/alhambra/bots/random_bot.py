"""The random bot: a uniform choice among the legal actions."""

from __future__ import annotations

from .base import Bot


class RandomBot(Bot):
    """Chooses uniformly among the legal actions, with its own seeded generator."""

    name = "random"

    def choose(self, game, seat: int, legal: list):
        """Return one of ``legal`` (the legal actions of ``seat`` in ``game``)."""
        return legal[self.rng.randrange(len(legal))]
