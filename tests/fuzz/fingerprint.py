"""Fingerprint of seeded random games: which games a change of the engine changes.

``python tests/fuzz/fingerprint.py [GAMES] [--modules-order canonical|given]`` plays GAMES
seeded games (seed k: 2 + k % 5 players, the k % 16-th module combination, uniformly random
legal actions from ``random.Random(k)``, at most 5,000 actions) and prints one SHA-256 over
every game's action log and scores, then the seeds of games that did not end.
"""

from __future__ import annotations

import hashlib
import random
import sys

import alhambra

try:
    from .common import COMBINATIONS
except ImportError:  # run as a script: python tests/fuzz/fingerprint.py
    from common import COMBINATIONS  # type: ignore[no-redef]


def play(seed: int, max_steps: int = 5_000) -> tuple[str, bool]:
    """One game's log (actions and final scores) as text, and whether it ended."""
    g = alhambra.new_game(2 + seed % 5, modules=list(COMBINATIONS[seed % 16]), seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over and steps < max_steps:
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
    return "|".join(map(str, g.history)) + f"#{g.scores}", g.is_over


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 300
    digest = hashlib.sha256()
    unfinished = []
    for seed in range(games):
        log, over = play(seed)
        digest.update(log.encode())
        if not over:
            unfinished.append(seed)
    print(f"{games} games: fingerprint {digest.hexdigest()[:16]}; not ended: {unfinished or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
