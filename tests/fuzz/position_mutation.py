"""Position-mutation fuzzing: mutated positions (``Game.position()`` of random games, one to
three random changes) must be refused with a ConfigError, or build a game that keeps every
invariant while it is played on and whose own position builds it again.

``nice -n 10 python tests/fuzz/position_mutation.py --seconds 600 [--seed S]``; ``run(...)``
for the test suite (``tests/test_fuzz.py``).
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
import traceback
from collections import Counter

import alhambra
from alhambra import ConfigError
from alhambra.testing import check_invariants

try:
    from .common import COMBINATIONS, fuzz_main
    from .save_mutation import mutate
except ImportError:  # run as a script: python tests/fuzz/...
    from common import COMBINATIONS, fuzz_main  # type: ignore[no-redef]
    from save_mutation import mutate  # type: ignore[no-redef]


def _sample(rng: random.Random) -> tuple[str, str]:
    seed = rng.randrange(2**32)
    g = alhambra.new_game(rng.randint(2, 6), modules=list(rng.choice(COMBINATIONS)), seed=seed)
    play = random.Random(seed)
    for _ in range(rng.choice([0, 5, 40, 150, 400])):
        if g.is_over:
            break
        g.apply(play.choice(g.legal_actions()))
    data = g.position()
    if rng.random() < 0.5:  # a hand-written-like position: drop whole parts to be filled in
        for key in rng.sample(sorted(data), rng.randint(1, 6)):
            if key not in ("players", "modules"):
                data.pop(key)
    return json.dumps(data), f"{g!r}"


def check_one(text: str, rng: random.Random, steps: int = 40) -> str:
    try:
        game = alhambra.Game.from_position(text)
    except ConfigError:
        return "refused"
    check_invariants(game)
    again = alhambra.Game.from_position(game.position())
    if again.position() != game.position():
        raise AssertionError("a built position does not build the same game again")
    play = random.Random(rng.randrange(2**32))
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(play.choice(game.legal_actions()))
        check_invariants(game)
    return "built"


def run(*, iterations: int | None = None, seconds: float | None = None, seed: int = 0, out=sys.stdout) -> Counter:
    rng = random.Random(seed)
    counts: Counter = Counter()
    start = time.monotonic()
    for i in itertools.count():
        if iterations is not None and i >= iterations:
            break
        if seconds is not None and time.monotonic() - start >= seconds:
            break
        if i % 20 == 0:
            text, about = _sample(rng)
        data = json.loads(text)
        what = [mutate(data, rng) for _ in range(rng.choice([0, 1, 1, 2, 3]))]
        try:
            mutated = json.dumps(data)
        except (ValueError, RecursionError):
            counts["unwritable"] += 1
            continue
        try:
            counts[check_one(mutated, rng)] += 1
        except Exception as exc:
            counts["failed"] += 1
            print(f"FAIL (iteration {i}, seed {seed}; {about}; {what}): {type(exc).__name__}: {exc}", file=out)
            traceback.print_exc(limit=3, file=out)
    counts["seconds"] = round(time.monotonic() - start)
    return counts


def main(argv: list[str]) -> int:
    return fuzz_main(run, "position mutation", __doc__, argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
