"""Position-mutation fuzzing: mutated positions (``Game.position()`` of random games, one to
three random changes) must be refused with a ConfigError, or build a game that keeps every
invariant while it is played on and whose own position builds it again.

``nice -n 10 python tests/fuzz/position_mutation.py --seconds 600 [--seed S]``; ``run(...)``
for the test suite (``tests/test_fuzz.py``).
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter

import alhambra
from alhambra import ConfigError
from alhambra.testing import check_invariants

try:
    from .common import COMBINATIONS, fuzz_main
    from .save_mutation import run as mutation_run
except ImportError:  # run as a script: python tests/fuzz/...
    from common import COMBINATIONS, fuzz_main  # type: ignore[no-redef]
    from save_mutation import run as mutation_run  # type: ignore[no-redef]


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
    """The save fuzzer's loop (:func:`save_mutation.run`) over positions; counts ``refused``,
    ``built``, ``failed``."""
    return mutation_run(
        iterations=iterations,
        seconds=seconds,
        seed=seed,
        out=out,
        sample=_sample,
        check=check_one,
        changes=(0, 1, 1, 2, 3),
    )


def main(argv: list[str]) -> int:
    return fuzz_main(run, "position mutation", __doc__, argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
