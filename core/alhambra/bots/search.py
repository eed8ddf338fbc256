"""The search bot: :class:`~alhambra.bots.mcts.MCTSBot` with its own defaults (more playouts
per candidate, fewer candidates) and the weight set ``tuned`` of ``benchmarks/tune_bot.py``
(Optuna; so far equal to the defaults).

``search`` takes every parameter ``mcts`` takes (``search:iterations=64``, ``search:0.5s``);
only the defaults differ (:data:`SEARCH_DEFAULTS`). Its measured win rates, the budget per
decision and the tuning procedure are in ``docs/bots.md``.
"""

from __future__ import annotations

from typing import Any

from .evaluate import TUNED_WEIGHTS, Weights
from .mcts import MCTSBot

#: The defaults of the search bot (``docs/bots.md`` says how they were chosen and measured).
SEARCH_DEFAULTS: dict[str, Any] = {
    "iterations": 48,
    "top_k": 4,
    "c": 0.04,
    "bias": 0.1,
    "horizon": None,
    "scale": 12.0,
    "anchor": 0.0,
}


class SearchBot(MCTSBot):
    """Determinized MCTS with greedy playouts, 48 playouts over the 4 best actions (the
    strongest bot here; its win rates against greedy are in ``docs/bots.md``).

    Parameters as :class:`~alhambra.bots.mcts.MCTSBot`'s, with the defaults of
    :data:`SEARCH_DEFAULTS` and the tuned weights (``weights=default`` for the others)."""

    name = "search"
    _WEIGHTS = TUNED_WEIGHTS
    _DEFAULTS = {**MCTSBot._DEFAULTS, **{k: v for k, v in SEARCH_DEFAULTS.items() if k != "iterations"}}

    def __init__(self, seed: int | None = None, weights: Weights = TUNED_WEIGHTS, **params: Any):
        merged = {**SEARCH_DEFAULTS, **params}
        super().__init__(seed, weights=weights, **merged)
