"""The PIMC bot: perfect-information Monte Carlo, with its playouts in the compiled kernel.

Each decision samples ``worlds`` determinized copies of the game (:func:`~.base.observe`:
everything the seat cannot see drawn anew as it could believe it; the bot never reads the true
hidden state) and plays each of the ``top_k`` best actions by the greedy heuristic in every
world, then lets every seat play as the greedy bot until the deciding seat begins its
``horizon``-th next turn, or to the end of the game (``horizon=0``). Playouts are scored as
:mod:`alhambra.kernel`'s ``search`` module says (``kernel/core/src/search.rs``): at the end of the
game the share of the victory and the score margin, before it the heuristic value of the seat
against the other seats'. The action with the best mean reward is played. World *k* is the
same for every candidate (common random numbers).

The playouts run in the kernel (``kernel/core/src/search.rs``), which is what pays for many
of them: a world of a Python game is loaded into the kernel, so the bot chooses the same on
either engine. Where the kernel cannot play a game or its greedy bot cannot value it
(third-party rules, a module outside :data:`alhambra.kernel.KERNEL_GREEDY_MODULES`), or the
kernel is not installed, the bot decides as the search bot (:class:`~.search.SearchBot`) does.
"""

from __future__ import annotations

import math
import random
from typing import Any

from .. import kernel
from .base import Bot, BotSpecError, observe
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, named_weights, weights_name
from .greedy import kernel_greedy
from .search import SearchBot


def _native_world(world: Any) -> Any:
    """The kernel's game of a determinized ``world`` (a kernel game's own, or a Python game
    loaded into the kernel)."""
    native = getattr(world, "_kernel", None)
    if native is not None:
        return native
    from ..engine import operations
    from ..engine.actions import passes_in_a_row

    return kernel.load(world.state, operations.rng(world).getstate(), passes_in_a_row(world.history), world.rules)


class PIMCBot(Bot):
    """Perfect-information Monte Carlo over determinized worlds, with greedy playouts in the
    compiled kernel (falls back to the search bot where the kernel cannot play the game).

    Parameters (also from a specification such as ``"pimc:32"`` or ``"pimc:worlds=24:horizon=0"``):
    ``worlds``: determinized worlds per decision, each candidate played in every one (default
    48). ``top_k``: candidate actions, the best by the greedy heuristic (default 4).
    ``horizon``: the deciding seat's turns to play ahead, 0 for the end of the game (default 3).
    ``scale``: points of margin that move a playout's reward from 0.5 to 0.73 (default 12).
    ``noise``: the greedy players' jitter in the playouts, points (default 0). ``weights``:
    the heuristic's weight set by name."""

    name = "pimc"
    params = {
        "worlds": int,
        "top_k": int,
        "horizon": int,
        "scale": float,
        "noise": float,
        "weights": named_weights,
    }
    positional = "worlds"
    _DEFAULTS: dict[str, Any] = {"worlds": 48, "top_k": 4, "horizon": 3, "scale": 12.0, "noise": 0.0}

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 48,
        top_k: int = 4,
        horizon: int = 3,
        scale: float = 12.0,
        noise: float = 0.0,
        weights: Weights = DEFAULT_WEIGHTS,
        max_playout: int = 1000,
    ):
        if type(worlds) is not int or type(top_k) is not int or type(horizon) is not int:
            raise BotSpecError("pimc: worlds, top_k and horizon are whole numbers")
        if worlds < 1 or top_k < 1 or horizon < 0:
            raise BotSpecError("pimc: worlds and top_k must be at least 1, horizon at least 0")
        for label, v in (("scale", scale), ("noise", noise)):
            if type(v) not in (int, float) or not math.isfinite(v):
                raise BotSpecError(f"pimc: {label} must be a finite number, not {v!r}")
        if scale <= 0:
            raise BotSpecError(f"pimc: scale must be positive, not {scale!r}")
        super().__init__(seed)
        self.worlds = worlds
        self.top_k = top_k
        self.horizon = horizon
        self.scale = float(scale)
        self.noise = float(noise)
        self.weights = weights
        self.max_playout = max_playout
        #: the search bot that decides where the kernel cannot (made on first use)
        self._fallback: SearchBot | None = None
        #: statistics of the last decision: {"worlds": n, "children": [(action, mean reward)]}
        self.last_search: dict[str, Any] = {}

    def spec(self) -> str:
        """``"pimc"`` plus the parameters that differ from the defaults."""
        parts = [self.name]
        for key, default in self._DEFAULTS.items():
            value = getattr(self, key)
            if value != default:
                parts.append(f"{key}={value:g}")
        if self.weights != DEFAULT_WEIGHTS:
            parts.append(f"weights={weights_name(self.weights)}")
        return ":".join(parts)

    def _searchable(self, game: Any) -> bool:
        if kernel.native is None or not set(game.rules.modules) <= kernel.KERNEL_GREEDY_MODULES:
            return False
        return getattr(game, "_kernel", None) is not None or kernel.kernel_reason(game.rules) is None

    def choose(self, game: Any, seat: int, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        row = kernel.weight_row(self.weights)
        if row is None or not self._searchable(game):
            if self._fallback is None:
                self._fallback = SearchBot(weights=self.weights)
                self._fallback.rng = self.rng
            return self._fallback.choose(game, seat, legal)
        if kernel_greedy(game) and (legal is game._legal or legal == game.legal_actions()):
            vals = game._kernel.greedy_values(list(row))
        else:
            vals = Evaluator(game, seat, self.weights).action_values(legal)
        order = sorted(range(len(legal)), key=lambda i: (-vals[i], i))[: self.top_k]
        if len(order) == 1:
            return legal[order[0]]
        codes = [kernel.code_of(legal[i], game.rules) for i in order]
        if any(c is None for c in codes):
            return legal[order[0]]
        base = self.rng.getrandbits(62)
        worlds = [_native_world(observe(game, seat, random.Random(base + k))) for k in range(self.worlds)]
        rewards = kernel.native.pimc_rewards(
            worlds, codes, seat, list(row), self.noise, self.horizon, self.scale, base, self.max_playout
        )
        n = len(order)
        means = []
        for c in range(n):
            got = [r for r in rewards[c::n] if r == r]  # NaN: not legal in that world
            means.append(sum(got) / len(got) if got else -1.0)
        best = max(range(n), key=lambda c: (means[c], -c))
        self.last_search = {
            "worlds": len(worlds),
            "children": [(legal[i], round(m, 4)) for i, m in zip(order, means)],
        }
        return legal[order[best]]
