"""The greedy bot: one ply, the best action by the heuristic of :mod:`.evaluate`."""

from __future__ import annotations

from .base import Bot
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, named_weights, weights_name


class GreedyBot(Bot):
    """Chooses the legal action that raises its heuristic position value most.

    The value (:class:`~alhambra.bots.evaluate.Evaluator`) weighs majorities against the other
    players' current counts per building type by the scoring table, the longest outer wall,
    exact payments (the extra action), money in hand and how well it pays for the market,
    a reserve penalty, and module actions (huts, offices, the vizier). It reads only what its
    seat may know. Ties go to the action listed first; ``noise`` (points, default 0) adds a
    random jitter from the bot's own generator; ``weights`` names a weight set
    (``greedy:weights=tuned``, :data:`~alhambra.bots.evaluate.WEIGHT_SETS`).
    """

    name = "greedy"
    params = {"noise": float, "weights": named_weights}

    def __init__(self, seed: int | None = None, noise: float = 0.0, weights: Weights = DEFAULT_WEIGHTS):
        super().__init__(seed)
        self.noise = noise
        self.weights = weights

    def spec(self) -> str:
        parts = [self.name]
        if self.noise:
            parts.append(f"noise={self.noise:g}")
        if self.weights != DEFAULT_WEIGHTS:
            parts.append(f"weights={weights_name(self.weights)}")
        return ":".join(parts)

    def choose(self, game, seat: int, legal: list):
        if len(legal) == 1:
            return legal[0]
        vals = Evaluator(game, seat, self.weights).action_values(legal)
        if self.noise:
            vals = [v + self.rng.uniform(-self.noise, self.noise) for v in vals]
        best = 0
        for i in range(1, len(vals)):
            if vals[i] > vals[best]:
                best = i
        return legal[best]
