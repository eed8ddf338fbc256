"""The differential oracle: games played in lockstep on the Python engine and the compiled
rules kernel, compared after every action.

Each game draws its random actions from a seeded generator and plays each on both engines;
after every action the legal actions (in their order) must be equal, and, with ``views``, every
seat's ``view``; at the end (or every 25 actions) the two saves must be equal, byte for byte.
A difference is a bug in one of the engines, reported with the game, the step and what differs.

    python benchmarks/kernel_oracle.py --games 1000          # every player count and option set
    python benchmarks/kernel_oracle.py --games 200 --views   # also every view after every action

Games with the building huts alternate, round by round, between the shipped hut layout and a
layout of the option ``building_huts.layout`` (:func:`hut_layout_file`: other ids, walls and
order). Games with the city gates go through every number of gate cards (R-GATE-1), and every
other round prefer the gates' actions (:data:`GATE_ACTIONS`); the two alternations are offset,
so games with both modules meet every pairing of layout and preference.

The test suite (``tests/test_kernel.py``) runs a few games of every kind on each run.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import alhambra

#: the modules the kernel plays, in every combination
KERNEL_MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds")
COMBINATIONS: list[tuple[str, ...]] = [
    c for k in range(len(KERNEL_MODULES) + 1) for c in itertools.combinations(KERNEL_MODULES, k)
]
OPTION_SETS: list[dict[str, Any]] = [
    {"holes": h, "tiebreak": t, "start_player": s}
    for h, t, s in itertools.product(("cell", "region"), ("shared", "money"), ("seat", "random"))
]
#: the values of ``city_gates.cards`` (R-GATE-1) the games with the city gates go through
GATE_CARDS: tuple[int | None, ...] = (None, 1, 2, 3, 4, 5, 6)
#: the actions a game that prefers the city gates' actions picks first, when one is legal, at
#: three decisions out of four (random play alone rarely plays a gate)
GATE_ACTIONS = frozenset({"TakeGate", "PlayGate", "BuildThroughGate"})

#: R-HUT-1: a layout other than the shipped one: 3/3/4/4/5/5 huts per type in a mixed order, one
#: to three walls each, ids that need escaping in JSON
_TYPES = ("tower", "garden", "pavilion", "chambers", "arcades", "seraglio")
_COUNTS = {"pavilion": 3, "seraglio": 3, "arcades": 4, "chambers": 4, "garden": 5, "tower": 5}
_SIDES = ("north", "east", "south", "west")


@functools.cache
def hut_layout_file() -> str:
    """The path of a hut layout file (written once per process to a temporary folder)."""
    left = dict(_COUNTS)
    rows, k = [], 0
    while any(left.values()):
        for t in _TYPES:
            if left[t]:
                left[t] -= 1
                k += 1
                mask = 1 + (k * 5) % 14  # 1..14: never no wall, never four
                walls = [s for i, s in enumerate(_SIDES) if mask >> i & 1]
                hid = f"{t[:3]}-{left[t]}" if k != 7 else 'Hütte "7"\\x'
                rows.append((hid, t, walls))
    lines = []
    for hid, t, walls in rows:
        lines += ["[[huts]]", f"id = {json.dumps(hid)}", f'type = "{t}"', f"walls = {json.dumps(walls)}", ""]
    path = Path(tempfile.mkdtemp(prefix="alhambra-oracle-")) / "huts.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


def lockstep(
    players: int,
    seed: int,
    options: dict[str, Any],
    *,
    modules: tuple[str, ...] = (),
    choices: int | None = None,
    views: bool = False,
    max_actions: int = 100_000,
    prefer: frozenset[str] = frozenset(),
) -> str | None:
    """Play one game on both engines; ``None`` when they agree throughout, else what differs.
    ``prefer``: names of action classes picked first, when one is legal, at three decisions
    out of four."""
    py = alhambra.new_game(players, modules=list(modules), seed=seed, options=options, engine="python")
    k = alhambra.new_game(players, modules=list(modules), seed=seed, options=options, engine="kernel")
    rng = random.Random(seed if choices is None else choices)
    where = f"{players} players, modules {list(modules)}, seed {seed}, options {options}"
    for step in range(max_actions):
        if py.is_over or k.is_over:
            break
        lp, lk = py.legal_actions(), k.legal_actions()
        if lp != lk:
            return f"{where}, step {step}: legal actions differ: python {lp[:8]}... kernel {lk[:8]}..."
        action = rng.choice(lp)
        if prefer and rng.random() < 0.75:
            liked = [a for a in lp if type(a).__name__ in prefer]
            if liked:
                action = rng.choice(liked)
        py.apply(action)
        k.apply(action)
        if views:
            for seat in (*range(players), None):
                if py.view(seat) != k.view(seat):
                    return f"{where}, step {step} ({action}): the view of seat {seat} differs"
        if step % 25 == 24 and py.to_json() != k.to_json():
            return f"{where}, step {step} ({action}): the saves differ"
    if py.is_over != k.is_over or py.to_json() != k.to_json():
        return f"{where}: the final saves differ"
    if alhambra.engine_of(k) != "kernel":
        return f"{where}: the kernel game was handed over to Python"
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--views", action="store_true", help="compare every seat's view after every action")
    args = ap.parse_args(argv)
    from alhambra.kernel import native

    if native is None:
        print("the rules kernel is not installed (pip install ./kernel): nothing to compare", file=sys.stderr)
        return 2
    start, failures = time.perf_counter(), 0
    # consecutive games go through every module combination first, then player counts, then options
    kinds = [(p, o, m) for o in OPTION_SETS for p in range(2, 7) for m in COMBINATIONS]
    for i in range(args.games):
        players, options, modules = kinds[i % len(kinds)]
        prefer: frozenset[str] = frozenset()
        if "city_gates" in modules:
            # every number of gate cards in turn; every other game plays the gates first
            options = {**options, "city_gates.cards": GATE_CARDS[(i // len(COMBINATIONS)) % len(GATE_CARDS)]}
            prefer = GATE_ACTIONS if (i // len(COMBINATIONS)) % 2 else frozenset()
        if "building_huts" in modules and (i // len(COMBINATIONS)) % 4 in (1, 2):
            # a layout of the option every other round, with and without the gates played first
            options = {**options, "building_huts.layout": hut_layout_file()}
        report = lockstep(players, args.seed + i, options, modules=modules, views=args.views, prefer=prefer)
        if report is not None:
            failures += 1
            print("DIFFERENCE:", report)
    print(
        f"{args.games} lockstep games ({len(kinds)} kinds: {len(COMBINATIONS)} module combinations x 2-6 players "
        f"x {len(OPTION_SETS)} option sets; with the city gates, city_gates.cards {list(GATE_CARDS)} in turn and "
        f"the gates' actions preferred in every other round; with the building huts, a layout of the option in "
        f"every other round), "
        f"{failures} with a difference, {time.perf_counter() - start:.0f} s"
    )
    print(json.dumps({"games": args.games, "differences": failures}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
