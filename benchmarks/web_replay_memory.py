"""Memory of the web app's replay viewer for a long game: a save of about 10,000 actions is
opened (``alhambra.web.replays.build_replay``) and the memory it keeps is measured with
``tracemalloc``; then every 500th step is shown. The replay keeps the history once and a
state snapshot every ``CHECKPOINT`` steps, so its memory grows linearly with the history
(a replay that kept a game per step copied the whole history each time: quadratic).

    PYTHONPATH=core:modules python benchmarks/web_replay_memory.py [--actions 10000]

A game that long is made by players who keep redesigning their Alhambras (moving tiles to
and from the reserve, R-TURN-5) instead of buying."""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

import alhambra
from alhambra.web.replays import CHECKPOINT, build_replay

REDESIGN = ("RemoveToReserve", "BuildFromReserve", "Swap")


def long_game(actions: int, seed: int = 1) -> alhambra.Game:
    """A game of about ``actions`` actions: random for its first 150, then redesigns first."""
    game = alhambra.new_game(3, seed=seed)
    rng = random.Random(seed)
    while len(game.history) < actions and not game.is_over:
        legal = game.legal_actions()
        redesign = [a for a in legal if type(a).__name__ in REDESIGN]
        if len(game.history) > 150 and redesign:
            game.apply(rng.choice(redesign))
        else:
            game.apply(rng.choice(legal))
    return game


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--actions", type=int, default=10_000)
    args = p.parse_args()
    game = long_game(args.actions)
    text = game.to_json()
    print(f"game: {len(game.history)} actions, save {len(text) / 1e6:.2f} MB")
    tracemalloc.start()
    t0 = time.perf_counter()
    replay = build_replay(text)
    built = time.perf_counter() - t0
    kept, peak = tracemalloc.get_traced_memory()
    print(
        f"replay: {len(replay.snapshots)} snapshots (every {CHECKPOINT} steps), built in {built:.2f} s; "
        f"memory kept {kept / 1e6:.1f} MB, peak while building {peak / 1e6:.1f} MB"
    )
    t0 = time.perf_counter()
    steps = range(0, replay.last + 1, 500)
    for step in steps:
        replay.game_at(step)
    print(f"game_at: {(time.perf_counter() - t0) / len(steps) * 1000:.1f} ms per step shown")
    tracemalloc.stop()


if __name__ == "__main__":
    main()
