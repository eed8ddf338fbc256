"""OpenSpiel's ISMCTS with an evaluator of ``alhambra.env.openspiel`` against the greedy bot:
two players, seats rotated (each seed played with ISMCTS in both seats), the ISMCTS seat's
share of victories with a Wilson 95 % interval.

    python benchmarks/ismcts_vs_greedy.py --games 10 --simulations 16 --evaluator heuristic --uct-c 2.0
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms.ismcts import ISMCTSBot

from alhambra.bots import make_bot
from alhambra.env.openspiel import HeuristicEvaluator, ScoreEvaluator


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / d
    return max(0.0, c - h), min(1.0, c + h)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--simulations", type=int, default=16)
    ap.add_argument("--evaluator", choices=["heuristic", "score"], default="heuristic")
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--uct-c", type=float, default=2.0)
    a = ap.parse_args(argv)
    share = 0.0
    t0 = time.process_time()
    for k in range(a.games):
        seed, seat = a.seed + k // 2, k % 2
        game = pyspiel.load_game("python_alhambra", {"players": 2, "seed": seed})
        ev = HeuristicEvaluator() if a.evaluator == "heuristic" else ScoreEvaluator()
        bot = ISMCTSBot(game, ev, a.uct_c, a.simulations, random_state=np.random.RandomState(seed))
        greedy = make_bot("greedy", seed=seed)
        rng = random.Random(seed)
        state = game.new_initial_state()
        queue: list[int] = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.current_player() == seat:
                state.apply_action(bot.step(state))
            else:
                if not queue:
                    g, p = state.session.game, state.current_player()
                    queue = list(state.session.encode(greedy.choose(g, p, g.legal_actions())))
                state.apply_action(queue.pop(0))
        share += state.returns()[seat]
    lo, hi = wilson(share, a.games)
    print(
        f"ISMCTS ({a.simulations} simulations, uct_c {a.uct_c}, {a.evaluator} evaluator) vs greedy, 2 players: "
        f"{share:g} of {a.games} games, share {share / a.games:.3f} [{lo:.3f}, {hi:.3f}] "
        f"({time.process_time() - t0:.0f}s CPU)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
