"""Load cost of a save: ``Game.from_json`` with the history check (the default: the history
replayed from the seed and compared with the saved state) and without it
(``check_history=False``), on end-of-game saves of random games, all four modules, 6 players.

    nice -n 10 python benchmarks/load_cost.py [--games 5] [--loads 10]

Prints milliseconds per load for each, and their ratio (within one run).
"""

from __future__ import annotations

import argparse
import random
import time

import alhambra

MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]


def finished_save(seed: int, players: int = 6) -> tuple[str, int]:
    """The save of a random game played to its end, and its number of actions."""
    game = alhambra.new_game(players, modules=MODULES, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game.to_json(), len(game.history)


def per_load(text: str, loads: int, check_history: bool) -> float:
    """Seconds per ``Game.from_json(text, check_history=...)``, best of three rounds."""
    alhambra.Game.from_json(text, check_history=check_history)  # warm: rule set and converter
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(loads):
            alhambra.Game.from_json(text, check_history=check_history)
        best = min(best, (time.perf_counter() - start) / loads)
    return best


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--loads", type=int, default=10)
    args = p.parse_args()
    with_check = without = 0.0
    actions = size = 0
    for seed in range(args.games):
        text, n = finished_save(seed)
        actions += n
        size += len(text)
        with_check += per_load(text, args.loads, True)
        without += per_load(text, args.loads, False)
    g = args.games
    print(
        f"{g} end-of-game saves, 6 players, all modules: {actions / g:.0f} actions, {size / g / 1000:.1f} kB on average"
    )
    print(f"  check_history=False: {without / g * 1000:.1f} ms per load")
    print(f"  checked (default):   {with_check / g * 1000:.1f} ms per load ({with_check / without:.1f}x)")


if __name__ == "__main__":
    main()
