"""Fingerprint of seeded games, to show a refactoring changes no game (issue 12, purchases).

Plays random-action games for all 16 module combinations and 2-6 players (``--seeds`` per
configuration), plus a few greedy-bot games, and prints one SHA-256 over, per game, the
history, the final ``to_json()`` and the market part of every seat's view at the end. Run it
before and after a change: the same digest means the same games.

    python benchmarks/purchase_fingerprint.py --seeds 3
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random

import alhambra
from alhambra.bots import make_bot

MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices")


def combos() -> list[tuple[str, ...]]:
    """All 16 subsets of the four modules."""
    return [c for k in range(5) for c in itertools.combinations(MODULES, k)]


def game_digest(game: alhambra.Game) -> bytes:
    """Digest of one finished game: history, final save, and the views' market entries."""
    h = hashlib.sha256()
    h.update(repr(game.history).encode())
    h.update(game.to_json().encode())
    for seat in range(game.num_players):
        h.update(json.dumps(game.view(seat)["market"], sort_keys=True, default=str).encode())
    return h.digest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="random games per configuration")
    parser.add_argument("--bot-games", type=int, default=8, help="greedy-bot games (all modules and none)")
    args = parser.parse_args()
    total = hashlib.sha256()
    games = 0
    for mods, players, seed in itertools.product(combos(), range(2, 7), range(args.seeds)):
        game = alhambra.new_game(players, modules=list(mods), seed=seed)
        rng = random.Random(seed * 1000 + players)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        total.update(game_digest(game))
        games += 1
    for k in range(args.bot_games):
        mods = list(MODULES) if k % 2 else []
        game = alhambra.new_game(2 + k % 5, modules=mods, seed=k)
        bots = [make_bot("greedy", seed=k * 10 + s) for s in range(game.num_players)]
        while not game.is_over:
            seat = game.current_player
            game.apply(bots[seat].choose(game, seat, game.legal_actions()))
        total.update(game_digest(game))
        games += 1
    print(f"{games} games  fingerprint {total.hexdigest()}")


if __name__ == "__main__":
    main()
