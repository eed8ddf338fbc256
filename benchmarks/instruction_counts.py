"""Instructions per action under valgrind: the engine-speed ratios without machine noise.

    python benchmarks/instruction_counts.py               # about nine minutes
    python benchmarks/instruction_counts.py --games 3     # quicker, a little less exact
    python benchmarks/instruction_counts.py --engine kernel   # the compiled kernel's games

CPU time on a shared machine wanders by 10-20 % from one second to the next (see
``engine_speed.py``, which therefore compares ratios within one round). Instruction counts do
not: ``valgrind --tool=callgrind`` counts the instructions a run executes, the same every time
for the same program, input and hash seed (``PYTHONHASHSEED=0``), whatever else the machine
does. Each workload runs twice in a child process, once playing ``--warmup`` random 4-player
games and once playing those and ``--games`` more; the difference divided by the actions of
the extra games is the cost of one action once start-up is over and the caches are warm. Both engines run on the same interpreter, so the ratio of
instructions per action compares the work each does per action; it is not a time (memory
stalls count for nothing), but it has tracked the CPU-time ratio of ``engine_speed.py``.

Needs ``valgrind`` on the PATH (Debian: ``apt-get install valgrind``) and, for the
comparison, catanatron (``pip install -e ".[bench]"``).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys

FIRST = ("vizier", "building_huts", "bonus_cards", "exchange_offices")
#: the first expansion's four modules and the second expansion's two (as engine_speed.py)
MODULES = (*FIRST, "city_gates", "diamonds")
CONFIGS = {"base": (), **{m: (m,) for m in MODULES}, "first four": FIRST, "all modules": MODULES}


def play_alhambra(modules: tuple, games: int, engine: str = "python") -> int:
    """Random 4-player games on ``engine`` (the loop of engine_speed.py); returns the actions
    played."""
    import alhambra

    actions = 0
    for seed in range(games):
        game = alhambra.new_game(4, modules=modules, seed=seed, engine=engine)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        actions += len(game.history)
    return actions


def play_catanatron(games: int) -> int:
    """Random 4-player catanatron games; returns the actions played."""
    from catanatron import Color, Game, RandomPlayer

    actions = 0
    for seed in range(games):
        players = [RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)]
        game = Game(players, seed=seed)
        game.play()
        actions += len(game.state.actions)
    return actions


def _child(engine: str, config: str, games: int) -> None:
    if engine == "catanatron":
        random.seed(0)  # catanatron's random players draw from the global generator
        print("ACTIONS", play_catanatron(games))
    else:
        print("ACTIONS", play_alhambra(CONFIGS[config], games, engine.removeprefix("alhambra-")))


def instructions(engine: str, config: str, games: int) -> tuple[int, int]:
    """(instructions, actions) of one child run under callgrind."""
    cmd = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        engine,
        config,
        str(games),
    ]
    env = dict(os.environ, PYTHONHASHSEED="0")
    run = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    collected = re.search(r"Collected : (\d+)", run.stderr)
    actions = re.search(r"ACTIONS (\d+)", run.stdout)
    if not collected or not actions:
        raise SystemExit(f"could not read the callgrind run of {engine} {config}:\n{run.stderr[-2000:]}")
    return int(collected.group(1)), int(actions.group(1))


def per_action(engine: str, config: str, games: int, warmup: int) -> tuple[float, int]:
    """Instructions per action of ``games`` games played after ``warmup`` others (the same
    seeds in both runs, so the difference is exactly those games): start-up and the filling
    of the engines' caches are left out, as in a long simulation."""
    start, before = instructions(engine, config, warmup)
    total, actions = instructions(engine, config, warmup + games)
    return (total - start) / (actions - before), actions - before


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="games counted per workload (default 6)")
    ap.add_argument("--warmup", type=int, default=3, help="games played first, not counted (default 3)")
    ap.add_argument(
        "--engine",
        choices=("python", "kernel"),
        default="python",
        help="the engine alhambra's games are played on (default python, the reference engine)",
    )
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child[0], args.child[1], int(args.child[2]))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count", file=sys.stderr)
        return 1
    try:
        import catanatron  # noqa: F401

        have_catan = True
    except ImportError:
        have_catan = False
        print("catanatron not installed (pip install -e '.[bench]'): skipping the comparison", file=sys.stderr)

    print(
        f"python {sys.version.split()[0]}, {args.games} random 4-player games per workload counted "
        f"after {args.warmup} played first, PYTHONHASHSEED=0, alhambra on the {args.engine} engine"
    )
    print(f"{'engine':<28}{'actions':>9}{'instructions/action':>22}{'x base':>8}")
    base = None
    for name in CONFIGS:
        ipa, actions = per_action(f"alhambra-{args.engine}", name, args.games, args.warmup)
        base = base or ipa
        print(f"{'alhambra ' + name:<28}{actions:>9}{ipa:>22,.0f}{ipa / base:>8.2f}")
    if have_catan:
        ipa, actions = per_action("catanatron", "-", args.games, args.warmup)
        print(f"{'catanatron (4 random)':<28}{actions:>9}{ipa:>22,.0f}")
        print(f"catanatron / alhambra base instructions per action: {ipa / base:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
