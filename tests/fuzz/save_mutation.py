"""Save-mutation fuzzing: mutated saves must be refused with a SaveFormatError, or load into a
game that keeps every invariant while it is played on and saved again.

``nice -n 10 python tests/fuzz/save_mutation.py --seconds 600 [--seed S]`` runs for a while and
prints the counts; ``run(...)`` is the same for the test suite (``tests/test_fuzz.py``). A
failure is any exception other than the project's own (``AlhambraError``) at loading, any
exception at all while a loaded game is played on, an invariant broken, a save of the
loaded game that does not load again, or a loaded game that is not the one its history leads
to (``alhambra.replay`` of the mutated save from its seed or start position: an edited state
with an untouched history must be refused). A quarter of the saves are of games built from a
position (``start_position``). The counts: ``refused`` (of them ``by history``, refused by
the loader's history check), ``loaded``, ``failed``.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

import alhambra
from alhambra import SaveFormatError
from alhambra.testing import check_invariants

try:
    from .common import COMBINATIONS, fuzz_main
except ImportError:  # run as a script: python tests/fuzz/...
    from common import COMBINATIONS, fuzz_main  # type: ignore[no-redef]

#: values a mutation may put anywhere
JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2,
    3,
    5,
    54,
    55,
    99,
    10**6,
    10**30,
    -(10**9),
    0.5,
    "",
    "x",
    "turn",
    "place",
    "over",
    "vizier",
    "distribution",
    "florin-3",
    "scoring-A",
    "office-florin-dinar",
    "H1",
    [],
    [0],
    [1, 1],
    [[0, 1, 5]],
    {},
    {"a": 1},
]


def _copy(value: Any) -> Any:
    """A copy of plain data (a shared reference when it is nested too deeply to copy)."""
    try:
        return json.loads(json.dumps(value))
    except (RecursionError, ValueError):
        return value


def _paths(value: Any) -> list[tuple]:
    """Every path (keys and indices) into ``value`` down to 40 levels, skipping the random
    generator's state."""
    out: list[tuple] = []
    stack: list[tuple[Any, tuple]] = [(value, ())]
    while stack:
        v, path = stack.pop()
        out.append(path)
        if len(path) >= 40:
            continue
        if isinstance(v, dict):
            stack.extend((item, path + (k,)) for k, item in v.items() if not (path == () and k == "rng"))
        elif isinstance(v, list):
            stack.extend((item, path + (i,)) for i, item in enumerate(v))
    return out


def _get(value: Any, path: tuple) -> Any:
    for k in path:
        value = value[k]
    return value


def _brief(value: Any) -> str:
    """The first 40 characters of ``value`` as text (a placeholder when it is nested too
    deeply to print: an earlier "deep" mutation)."""
    try:
        return str(value)[:40]
    except RecursionError:
        return "<nested too deeply to print>"


def mutate(data: dict, rng: random.Random) -> str:
    """Change ``data`` (a save as plain data) in place in one random way; return what was done."""
    paths = [p for p in _paths(data) if p]
    path = rng.choice(paths)
    parent = _get(data, path[:-1])
    key = path[-1]
    old = parent[key]
    kind = rng.choice(["junk", "junk", "delete", "duplicate", "swap", "nudge", "deep", "other"])
    if kind == "delete":
        del parent[key]
    elif kind == "duplicate" and isinstance(parent, list):
        parent.insert(key, _copy(old))
    elif kind == "swap":
        other = rng.choice(paths)
        try:
            other_parent = _get(data, other[:-1])
            parent[key], other_parent[other[-1]] = _copy(other_parent[other[-1]]), _copy(old)
        except (KeyError, IndexError, TypeError):
            parent[key] = rng.choice(JUNK)
    elif kind == "nudge" and type(old) is int:
        parent[key] = old + rng.choice([-1, 1, 2, -2, 53, 4])
    elif kind == "deep":
        deep: Any = old
        for _ in range(rng.choice([30, 200, 600])):
            deep = [deep]
        parent[key] = deep
    elif kind == "other" and isinstance(old, str):
        parent[key] = rng.choice([s for s in JUNK if isinstance(s, str)])
    else:
        kind = "junk"
        parent[key] = _copy(rng.choice(JUNK))
    return f"{kind} at {'.'.join(map(str, path))}: {_brief(old)!r}"


def _sample_save(rng: random.Random) -> tuple[str, str]:
    players = rng.randint(2, 6)
    modules = list(rng.choice(COMBINATIONS))
    seed = rng.randrange(2**32)
    g = alhambra.new_game(players, modules=modules, seed=seed)
    play = random.Random(seed)
    about = f"{players}p {modules} seed {seed}"
    for _ in range(rng.choice([0, 5, 40, 150, 400, 2000])):
        if g.is_over:
            break
        g.apply(play.choice(g.legal_actions()))
    if rng.random() < 0.25 and not g.is_over:  # a game built from a position, played on from there
        about += f", from its position after {len(g.history)} actions"
        g = alhambra.Game.from_position(g.position())
        for _ in range(rng.choice([0, 5, 40])):
            if g.is_over:
                break
            g.apply(play.choice(g.legal_actions()))
    return g.to_json(), f"{about}, after {len(g.history)} actions"


def check_one(text: str, rng: random.Random, steps: int = 60) -> str:
    """Load ``text``: ``"refused"`` (a SaveFormatError; ``"refused:by history"`` when the
    history check refused it), ``"loaded"`` (and played on soundly); raises on anything else."""
    try:
        game = alhambra.Game.from_json(text)
    except SaveFormatError as exc:
        message = str(exc)
        if "its history does not lead to its saved state" in message or "does not fit the replayed game" in message:
            return "refused:by history"
        return "refused"
    check_invariants(game)
    _check_is_its_history(game, text)
    play = random.Random(rng.randrange(2**32))
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(play.choice(game.legal_actions()))
        check_invariants(game)
    again = alhambra.Game.from_json(game.to_json())
    if again.to_json() != game.to_json():
        raise AssertionError("a loaded game's save does not load to the same game")
    return "loaded"


def _check_is_its_history(game: alhambra.Game, text: str) -> None:
    """``game`` (loaded from ``text``) must be the game its history leads to: rebuilt with
    ``alhambra.replay`` (not the loader's own check) and compared as a whole."""
    if alhambra.replay(text).to_json() != game.to_json():
        raise AssertionError("a loaded save is not the game its history leads to")


def run(
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    out=sys.stdout,
    sample=None,
    check=None,
    changes=(1, 1, 1, 2, 3),
) -> Counter:
    """Mutate saves until ``iterations`` or ``seconds`` are used up; return the counts
    (``refused``, ``loaded``, ``failed``). Failures are printed to ``out`` with their seed.
    ``sample(rng) -> (text, about)`` and ``check(text, rng) -> outcome`` replace the save's
    (the position fuzzer uses this loop); ``changes``: how many mutations, drawn per try."""
    sample = sample or _sample_save
    check = check or check_one
    rng = random.Random(seed)
    counts: Counter = Counter()
    start = time.monotonic()
    for i in itertools.count():
        if iterations is not None and i >= iterations:
            break
        if seconds is not None and time.monotonic() - start >= seconds:
            break
        if i % 20 == 0:
            text, about = sample(rng)
        data = json.loads(text)
        what = [mutate(data, rng) for _ in range(rng.choice(changes))]
        try:
            mutated = json.dumps(data)
        except (ValueError, RecursionError):
            counts["unwritable"] += 1
            continue
        try:
            outcome, _, detail = check(mutated, rng).partition(":")
            counts[outcome] += 1
            if detail:
                counts[detail] += 1
        except Exception as exc:  # the project's own error too: after loading, a broken state got in
            counts["failed"] += 1
            print(f"FAIL (iteration {i}, seed {seed}; {about}; {what}): {type(exc).__name__}: {exc}", file=out)
            traceback.print_exc(limit=3, file=out)
    counts["seconds"] = round(time.monotonic() - start)
    return counts


def main(argv: list[str]) -> int:
    return fuzz_main(run, "save mutation", __doc__, argv)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
