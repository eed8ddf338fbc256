"""Illegal-action fuzzing: actions built from the legal ones with a field changed, or of the
wrong kind, or of junk, must be refused with an IllegalActionError leaving the game exactly
as it was, or be played as a legal action.

``nice -n 10 python tests/fuzz/illegal_actions.py --seconds 600 [--seed S]`` runs for a while
and prints the counts; ``run(...)`` is the same for the test suite (``tests/test_fuzz.py``).
A failure is any other exception (also at building or printing the action), a refused action
that changed the game, or an accepted one after which an invariant breaks.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

import attrs

import alhambra
from alhambra import AlhambraError, IllegalActionError, MoneyCard
from alhambra.testing import check_invariants

try:
    from .common import COMBINATIONS, fuzz_main
except ImportError:  # run as a script: python tests/fuzz/...
    from common import COMBINATIONS, fuzz_main  # type: ignore[no-redef]

JUNK: list[Any] = [
    None,
    True,
    0,
    1,
    -1,
    4,
    5,
    54,
    55,
    10**30,
    2.0,
    float("nan"),
    "",
    "7",
    "H1",
    "florin-3",
    (0, 1),
    (1, 0, 2),
    [0, 1],
    (10**9, 0),
    ((0, 1),),
    MoneyCard,
    MoneyCard("florin", 3),
    MoneyCard("ducat", 9),
    object(),
    [],
    {},
    frozenset(),
]


def _variant(action: Any, rng: random.Random, game: alhambra.Game) -> Any:
    """A near miss of ``action``: one field replaced by junk, a neighbour value, or another
    field's value; sometimes an action of another class with the same fields."""
    cls = type(action)
    fields = attrs.fields(cls) if attrs.has(cls) else ()
    if not fields or rng.random() < 0.15:
        classes = sorted(set(game.rules.action_types.values()), key=lambda c: c.__name__)
        other = rng.choice(classes)
        return other(*[rng.choice(JUNK) for _ in attrs.fields(other)])
    values = [getattr(action, f.name) for f in fields]
    k = rng.randrange(len(values))
    old = values[k]
    roll = rng.random()
    if roll < 0.4:
        values[k] = rng.choice(JUNK)
    elif roll < 0.7 and type(old) is int:
        values[k] = old + rng.choice([-1, 1, 3, -5])
    elif roll < 0.85 and isinstance(old, tuple) and old and all(type(v) is int for v in old):
        values[k] = tuple(v + rng.choice([-1, 0, 1]) for v in old)
    elif isinstance(old, tuple):
        values[k] = old + (rng.choice(JUNK),) if rng.random() < 0.5 else old[1:]
    else:
        values[k] = rng.choice(JUNK)
    return cls(*values)


def check_one(game: alhambra.Game, rng: random.Random) -> str:
    """Try one near-miss action on a copy of ``game``: ``"refused"``, ``"refused at
    construction"`` or ``"accepted"``; raises on anything else."""
    legal = game.legal_actions()
    try:
        action = _variant(rng.choice(legal), rng, game)
    except AlhambraError:
        return "refused at construction"
    str(action), repr(action)
    g = game.clone()
    before = g.to_json()
    try:
        g.apply(action)
    except IllegalActionError as exc:
        str(exc)
        if g.to_json() != before:
            raise AssertionError(f"the refused action {action!r} changed the game") from None
        return "refused"
    check_invariants(g)
    return "accepted"


def run(*, iterations: int | None = None, seconds: float | None = None, seed: int = 0, out=sys.stdout) -> Counter:
    """Try near-miss actions in random games until ``iterations`` or ``seconds`` are used up;
    return the counts (``refused``, ``accepted``, ``failed``, games)."""
    rng = random.Random(seed)
    counts: Counter = Counter()
    start = time.monotonic()
    game = None
    play = random.Random(0)
    for i in itertools.count():
        if iterations is not None and i >= iterations:
            break
        if seconds is not None and time.monotonic() - start >= seconds:
            break
        if game is None or game.is_over:
            gseed = rng.randrange(2**32)
            game = alhambra.new_game(rng.randint(2, 6), modules=list(rng.choice(COMBINATIONS)), seed=gseed)
            play = random.Random(gseed)
            counts["games"] += 1
        try:
            counts[check_one(game, rng)] += 1
        except Exception as exc:
            counts["failed"] += 1
            print(f"FAIL (iteration {i}, seed {seed}, game {game!r}): {type(exc).__name__}: {exc}", file=out)
            traceback.print_exc(limit=4, file=out)
        game.apply(play.choice(game.legal_actions()))
    counts["seconds"] = round(time.monotonic() - start)
    return counts


def main(argv: list[str]) -> int:
    return fuzz_main(run, "illegal actions", __doc__, argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
