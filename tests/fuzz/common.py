"""What the fuzz scripts share: the module combinations and the command line."""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from typing import Callable

MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices")
#: the 16 combinations of the four modules
COMBINATIONS = [c for k in range(len(MODULES) + 1) for c in itertools.combinations(MODULES, k)]


def fuzz_main(run: Callable[..., Counter], label: str, doc: str | None, argv: list[str]) -> int:
    """``--seconds N`` (default 60) or ``--iterations N``, ``--seed S``: run the fuzzer, print
    its counts after ``label``; exit status 1 if anything failed."""
    p = argparse.ArgumentParser(description=doc)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--iterations", type=int)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    counts = run(iterations=args.iterations, seconds=None if args.iterations else args.seconds, seed=args.seed)
    print(f"{label}:", dict(counts))
    return 1 if counts["failed"] else 0
