"""The MCTS bot: determinized Monte Carlo tree search over the hidden information.

Each decision is searched with a fixed budget of playouts (``iterations``; or ``seconds`` of
wall-clock time, which is not reproducible). The hidden information (other players' hands,
the order of the money deck and of the bag, face-down module pieces) is sampled into
*worlds* with :func:`~alhambra.bots.base.observe` (``Game.determinize``); the search never
reads the true hidden state. The tree is an information-set tree over the deciding seat's own
consecutive decisions (its whole turn: chained exact purchases, placements, free actions),
which are the same in every world. Below it a playout lets every player act greedily until
the searching seat's next turn begins (``horizon`` turns ahead), and is cut off there with
the heuristic evaluation of :mod:`.evaluate`: the seat's value minus the mean of the other
seats' values (at the end of the game: the victory share and the final score margin).

Children are selected by UCB1 with the greedy value as a progressive-bias prior, among the
``top_k`` best actions by the greedy heuristic. The *n*-th visit of every root child is
played in world *n* (common random numbers), so the candidates are compared on the same
samples of the hidden information and of chance.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, Container

from ..engine.components import ScoringCard
from ..game import returns
from .base import Bot, observe

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.actions import Action
    from ..engine.state import GameState
    from ..game import Game
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, named_weights, play_greedy_step, weights_name


class _Node:
    __slots__ = ("action", "prior", "visits", "total", "children")

    def __init__(self, action: Action, prior: float) -> None:
        self.action = action
        self.prior = prior
        self.visits = 0
        self.total = 0.0
        self.children: list[_Node] | None = None

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def _squash(margin: float, scale: float) -> float:
    x = margin / scale
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def _scoring_near(st: GameState, reach: int) -> bool:
    """True if scoring card A or B (R-SET-6) lies among the top ``reach`` cards of the money
    deck of ``st``, or a scoring is already due (R-SCORE-1)."""
    if reach <= 0:
        return False
    if st.pending_scorings:
        return True
    deck = st.deck
    for card in deck[-reach:]:
        if type(card) is ScoringCard:
            return True
    return False


class MCTSBot(Bot):
    """Determinized MCTS with greedy playouts cut off by the heuristic evaluation.

    Parameters (all optional, also from a specification such as ``"mcts:200"``,
    ``"mcts:2s"`` or ``"mcts:iterations=100:top_k=4"``):

    ``iterations``: playouts per decision (default 32). ``seconds``: a time budget per decision
    instead (not reproducible). ``top_k``: candidate actions per node, the best by the greedy
    heuristic (default 6). ``c``: UCB exploration constant (default 0.04: rewards are close
    together and the candidates are compared on the same worlds, so little exploration pays).
    ``bias``: weight of the greedy prior (default 0.1). ``worlds``: distinct samples of the
    hidden information per decision (default: as many as the most visited child needs).
    ``horizon``: the playout stops when the searching seat begins its ``horizon``-th next turn
    (default 2 with 2-3 players, 1 with more). ``scale``: points of margin that move the
    playout reward from 0.5 to 0.73 (default 12). ``versus``: the playout reward compares the
    seat's value with the ``mean`` of the other seats' values (default; less noisy with many
    players) or with the ``best`` of them. ``anchor``: keep the greedy choice unless the
    search's choice has a mean reward at least this much higher (default 0). ``weights``: the
    heuristic's weight set by name (``mcts:weights=tuned``). ``max_seconds``: a wall-clock cap
    on top of either budget (the search stops after at least one playout once it is reached;
    the web app gives every bot one), None for none.
    """

    name = "mcts"
    params = {
        "iterations": int,
        "seconds": float,
        "top_k": int,
        "c": float,
        "bias": float,
        "worlds": int,
        "horizon": int,
        "scale": float,
        "anchor": float,
        "versus": str,
        "weights": named_weights,
        "reach": int,
        "endgame": int,
    }
    positional = "iterations"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = 32,
        seconds: float | None = None,
        top_k: int = 6,
        c: float = 0.04,
        bias: float = 0.1,
        worlds: int | None = None,
        horizon: int | None = None,
        scale: float = 12.0,
        anchor: float = 0.0,
        versus: str = "mean",
        weights: Weights = DEFAULT_WEIGHTS,
        max_playout: int = 400,
        reach: int = 0,
        endgame: int = 0,
        max_seconds: float | None = None,
    ):
        super().__init__(seed)
        if iterations < 1 or top_k < 1 or (horizon is not None and horizon < 0) or (worlds is not None and worlds < 1):
            from .base import BotSpecError

            raise BotSpecError("mcts: iterations, top_k and worlds must be at least 1, horizon at least 0")
        if seconds is not None and seconds <= 0:
            from .base import BotSpecError

            raise BotSpecError("mcts: seconds must be positive")
        self.iterations = iterations
        self.seconds = seconds
        self.max_seconds = max_seconds
        self.top_k = top_k
        self.c = c
        self.bias = bias
        self.worlds = worlds
        self.horizon = horizon
        self.scale = scale
        if versus not in ("best", "mean"):
            from .base import BotSpecError

            raise BotSpecError(f"mcts: versus must be 'best' or 'mean', not {versus!r}")
        self.anchor = anchor
        self.versus = versus
        self.weights = weights
        self.max_playout = max_playout
        if reach < 0 or endgame < 0:
            from .base import BotSpecError

            raise BotSpecError("mcts: reach and endgame must be at least 0")
        self.reach = reach
        self.endgame = endgame
        #: statistics of the last search: {"iterations": n, "children": [(action, visits, mean)]}
        self.last_search: dict[str, Any] = {}

    #: the weights a specification need not name
    _WEIGHTS = DEFAULT_WEIGHTS
    _DEFAULTS = {
        "top_k": 6,
        "c": 0.04,
        "bias": 0.1,
        "worlds": None,
        "horizon": None,
        "scale": 12.0,
        "anchor": 0.0,
        "versus": "mean",
        "reach": 0,
        "endgame": 0,
    }

    def spec(self) -> str:
        """``"mcts:32"``, ``"mcts:0.5s"``, plus the parameters that differ from the defaults."""
        parts = [f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)]
        for key, default in self._DEFAULTS.items():
            value = getattr(self, key)
            if value != default:
                parts.append(f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}")
        if self.weights != self._WEIGHTS:
            parts.append(f"weights={weights_name(self.weights)}")
        return ":".join([self.name, *parts])

    # -- search -----------------------------------------------------------------------------------

    def _candidates(self, game: Game, seat: int, legal: list[Action]) -> list[_Node]:
        vals = Evaluator(game, seat, self.weights).action_values(legal)
        order = sorted(range(len(legal)), key=lambda i: (-vals[i], i))[: self.top_k]
        best, worst = vals[order[0]], vals[order[-1]]
        spread = best - worst
        return [_Node(legal[i], (vals[i] - worst) / spread if spread > 1e-9 else 1.0) for i in order]

    def _select(
        self, nodes: list[_Node], parent_visits: int, available: Container[Action] | None = None
    ) -> _Node | None:
        best = None
        best_score = -math.inf
        log_n = math.log(parent_visits + 1)
        for node in nodes:
            if available is not None and node.action not in available:
                continue
            if node.visits == 0:
                return node  # unvisited first, in greedy order
            score = node.mean + self.c * math.sqrt(log_n / node.visits) + self.bias * node.prior / (node.visits + 1)
            if score > best_score:
                best, best_score = node, score
        return best

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        root = self._candidates(game, seat, legal)
        if len(root) == 1:
            return root[0].action
        base = self.rng.getrandbits(62)
        worlds: list[Game] = []
        turn0 = game.state.turn
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        visits = 0
        cap = time.perf_counter() + self.max_seconds if self.max_seconds is not None else None
        while True:
            if cap is not None and visits > 0 and time.perf_counter() >= cap:
                break
            if deadline is not None:
                if visits >= len(root) and time.perf_counter() >= deadline:
                    break
            elif visits >= self.iterations:
                break
            child = self._select(root, visits)
            if child is None:  # no action to try (the root has children whenever it is searched)
                break
            j = child.visits if self.worlds is None else child.visits % self.worlds
            while len(worlds) <= j:
                worlds.append(observe(game, seat, random.Random(base + len(worlds))))
            g = worlds[j].clone()
            self._iterate(g, seat, child, turn0)
            visits += 1
        best = max(root, key=lambda n: (n.visits, n.mean))
        if self.anchor and best is not root[0] and best.mean - root[0].mean < self.anchor:
            best = root[0]  # not clearly better than the greedy choice: keep that
        self.last_search = {
            "iterations": visits,
            "worlds": len(worlds),
            "children": [(n.action, n.visits, round(n.mean, 4)) for n in root],
        }
        return best.action

    def _iterate(self, g: Game, seat: int, child: _Node, turn0: int) -> float:
        path = [child]
        g.apply(child.action)
        node = child
        depth = 0
        while not g.is_over and g.current_player == seat and depth < 12:
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            if node.children is None:
                node.children = self._candidates(g, seat, legal)
            nxt = self._select(node.children, node.visits, set(legal))
            if nxt is None:
                break
            g.apply(nxt.action)
            path.append(nxt)
            node = nxt
            depth += 1
        reward = self._playout(g, seat, turn0)
        for n in path:
            n.visits += 1
            n.total += reward
        return reward

    def _playout(self, g: Game, seat: int, turn0: int) -> float:
        """Greedy play until ``seat`` begins its ``horizon``-th next turn (or the game ends);
        the reward of ``seat`` in [0, 1]."""
        turns_seen = 0
        last_turn = turn0
        horizon = self.horizon if self.horizon is not None else (2 if g.num_players <= 3 else 1)
        steps = 0
        weights = self.weights
        to_end = self.endgame and len(g.state.bag) <= self.endgame
        scorings0 = len(g.state.scorings)
        while not g.is_over and steps < self.max_playout:
            st = g.state
            if not to_end and horizon == 0 and st.decider != seat:
                break
            if st.phase == "turn" and st.decider == seat and st.turn != last_turn:
                turns_seen += 1
                last_turn = st.turn
                if turns_seen >= horizon and not to_end:
                    if self.endgame and len(st.bag) <= self.endgame:
                        to_end = True
                    elif not (len(st.scorings) == scorings0 and _scoring_near(st, self.reach)):
                        break
            play_greedy_step(g, weights)
            steps += 1
        if g.is_over:
            scores = g.scores
            margin: float = scores[seat] - max(v for i, v in enumerate(scores) if i != seat)
            return 0.5 * returns(g)[seat] + 0.5 * _squash(margin, self.scale)
        ev = Evaluator(g, seat, weights)
        if self.versus == "mean":
            vals = [ev.seat_value(s) for s in range(g.num_players)]
            margin = vals[seat] - (sum(vals) - vals[seat]) / (len(vals) - 1)
        else:
            margin = ev.margin(seat)
        return _squash(margin, self.scale)
