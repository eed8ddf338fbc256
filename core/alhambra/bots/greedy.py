"""The greedy bot: one ply, the best action by the heuristic of :mod:`.evaluate`."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .. import kernel
from ..kernel import (
    KERNEL_GREEDY_MODULES as KERNEL_GREEDY_MODULES,
    weight_row as weight_row,
)  # both kept importable from here
from .base import Bot, BotSpecError
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, named_weights, weights_name

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.actions import Action
    from ..game import Game


def kernel_greedy(game: Any) -> bool:
    """True if ``game`` is played by the compiled kernel and its modules are ones the kernel's
    greedy evaluation values (:data:`KERNEL_GREEDY_MODULES`)."""
    return getattr(game, "_kernel", None) is not None and set(game.rules.modules) <= kernel.KERNEL_GREEDY_MODULES


class GreedyBot(Bot):
    """Chooses the legal action that raises its heuristic position value most.

    The value (:class:`~alhambra.bots.evaluate.Evaluator`) weighs majorities against the other
    players' current counts per building type by the scoring table, the longest outer wall,
    exact payments (the extra action), money in hand and how well it pays for the market,
    a reserve penalty, and module actions (huts, offices, the vizier). It reads only what its
    seat may know. Ties go to the action listed first; ``noise`` (points, default 0) adds a
    random jitter from the bot's own generator; ``weights`` names a weight set
    (``greedy:weights=tuned``, :data:`~alhambra.bots.evaluate.WEIGHT_SETS`).

    On a game the compiled kernel plays (:func:`kernel_greedy`) the values come from the
    kernel's copy of the evaluator, which gives the same values; :func:`alhambra.simulate.play`
    then plays whole games of greedy and random bots inside the kernel.
    """

    name = "greedy"
    params = {"noise": float, "weights": named_weights}

    def __init__(self, seed: int | None = None, noise: float = 0.0, weights: Weights = DEFAULT_WEIGHTS):
        if type(noise) not in (int, float) or not math.isfinite(noise):
            raise BotSpecError(f"greedy bot: the noise must be a finite number of points, not {noise!r}")
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

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        vals = None
        if kernel_greedy(game) and (legal is game._legal or legal == game.legal_actions()):
            row = weight_row(self.weights)
            if row is not None:
                vals = game._kernel.greedy_values(row)
        if vals is None:
            vals = Evaluator(game, seat, self.weights).action_values(legal)
        if self.noise:
            vals = [v + self.rng.uniform(-self.noise, self.noise) for v in vals]
        best = 0
        for i in range(1, len(vals)):
            if vals[i] > vals[best]:
                best = i
        return legal[best]
