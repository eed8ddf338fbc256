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
    #: playouts per decision with four or more players (three or more opponents' turns per
    #: playout; measured in docs/bots.md), unless a budget is named
    "iterations_many": 96,
    "top_k": 4,
    "c": 0.04,
    "bias": 0.1,
    "horizon": None,
    "scale": 12.0,
    "anchor": 0.0,
}


class SearchBot(MCTSBot):
    """Determinized MCTS with greedy playouts, 48 playouts (96 with four or more players)
    over the 4 best actions (the strongest bot in pure Python; its win rates against greedy are in ``docs/bots.md``).

    Parameters as :class:`~alhambra.bots.mcts.MCTSBot`'s, with the defaults of
    :data:`SEARCH_DEFAULTS` and the tuned weights (``weights=default`` for the others)."""

    name = "search"
    _WEIGHTS = TUNED_WEIGHTS
    _DEFAULTS = {
        **MCTSBot._DEFAULTS,
        **{k: v for k, v in SEARCH_DEFAULTS.items() if k not in ("iterations", "iterations_many")},
    }

    def __init__(self, seed: int | None = None, weights: Weights = TUNED_WEIGHTS, **params: Any):
        #: no budget named: 48 playouts with 2-3 players, 96 with more (SEARCH_DEFAULTS)
        self.auto_budget = "iterations" not in params and "seconds" not in params
        merged = {k: v for k, v in {**SEARCH_DEFAULTS, **params}.items() if k != "iterations_many"}
        super().__init__(seed, weights=weights, **merged)

    def spec(self) -> str:
        """``"search"`` (the budget by player count), ``"search:64"``, plus the parameters
        that differ from the defaults."""
        text = super().spec()
        if self.auto_budget:
            head, _, rest = text.partition(":")
            rest = rest.partition(":")[2]
            return ":".join(p for p in (head, rest) if p)
        return text

    def choose(self, game: Any, seat: int, legal: list[Any]) -> Any:
        if self.auto_budget:
            many = game.num_players >= 4
            self.iterations = SEARCH_DEFAULTS["iterations_many"] if many else SEARCH_DEFAULTS["iterations"]
        return super().choose(game, seat, legal)
