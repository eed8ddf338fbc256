"""Engine speed: random 4-player playouts, side by side with catanatron, and per-module cost.

    python benchmarks/engine_speed.py                 # about a minute and a half
    python benchmarks/engine_speed.py --seconds 3 --rounds 5

Everything is measured in this one process, in interleaved rounds (alhambra, catanatron,
alhambra with modules, ...), so that machine noise hits every contender alike; the ratios are
the figures to compare. Each configuration first plays ``--warmup`` seconds uncounted: the
engine's caches shared between games (payments by hand and price, action instances) fill
over the first hundred or so games, and a long simulation runs warm. Times are CPU time of this process (``time.process_time``), which a
busy machine disturbs less than wall-clock time. catanatron comes with the ``bench`` extra
(``pip install -e ".[bench]"``); without it that column is skipped.

Also printed: the cost of ``legal_actions()`` and ``apply()`` as met in play (a new state each
step; timed call by call in a separate pass, so that the timers do not slow the main loop),
and of ``clone()``, in microseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import alhambra

MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices")
CONFIGS = {"base": (), **{m: (m,) for m in MODULES}, "all modules": MODULES}


def alhambra_block(modules, seconds: float, seed0: int) -> tuple[int, int, float]:
    """Play random 4-player games for about ``seconds``: games, actions, time. The loop is
    the same as catanatron's (list the legal actions, pick one at random, apply it), with no
    timer inside it."""
    games = actions = 0
    clock = time.process_time
    start = clock()
    seed = seed0
    while clock() - start < seconds:
        game = alhambra.new_game(4, modules=modules, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        games += 1
        actions += len(game.history)
    return games, actions, clock() - start


def split_cost(modules, games: int = 30) -> tuple[float, float]:
    """Mean µs of ``legal_actions()`` and of ``apply()`` as met in play (a new state each
    step), timed one call at a time over ``games`` random 4-player games."""
    clock = time.perf_counter
    t_legal = t_apply = 0.0
    actions = 0
    for seed in range(games):
        game = alhambra.new_game(4, modules=modules, seed=10_000 + seed)
        rng = random.Random(seed)
        while not game.is_over:
            t0 = clock()
            legal = game.legal_actions()
            t1 = clock()
            game.apply(legal[rng.randrange(len(legal))])
            t_legal += t1 - t0
            t_apply += clock() - t1
        actions += len(game.history)
    return t_legal / actions * 1e6, t_apply / actions * 1e6


def catanatron_block(seconds: float):
    """Random 4-player catanatron games for about ``seconds``: games, actions, time."""
    from catanatron import Color, Game, RandomPlayer

    players = [RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)]
    games = actions = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        g = Game(players)
        g.play()
        games += 1
        actions += len(g.state.actions)
    return games, actions, clock() - start


def clone_cost(samples: int = 300) -> tuple[float, float]:
    """Mean µs of ``clone()`` and ``clone(seed=...)`` over states from random games."""
    rng = random.Random(1)
    states = []
    for seed in range(6):
        game = alhambra.new_game(4, modules=MODULES, seed=seed)
        while not game.is_over:
            if rng.random() < 0.05:
                states.append(game)
            game.apply(rng.choice(game.legal_actions()))
            if rng.random() < 0.05:
                game = game.clone()
    states = states[:samples]
    t0 = time.process_time()
    for _ in range(5):
        for s in states:
            s.clone()
    t1 = time.process_time()
    for _ in range(5):
        for k, s in enumerate(states):
            s.clone(seed=k)
    t2 = time.process_time()
    n = 5 * len(states)
    return (t1 - t0) / n * 1e6, (t2 - t1) / n * 1e6


def _median_range(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.2f}x [{min(ratios):.2f}, {max(ratios):.2f}]"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per block (default 2)")
    ap.add_argument("--rounds", type=int, default=4, help="interleaved rounds (default 4)")
    ap.add_argument("--warmup", type=float, default=3.0,
                    help="uncounted seconds each configuration plays first (default 3)")
    args = ap.parse_args(argv)
    try:
        import catanatron  # noqa: F401

        have_catan = True
    except ImportError:
        have_catan = False
        print("catanatron not installed (pip install -e '.[bench]'): skipping the comparison", file=sys.stderr)

    for name, modules in CONFIGS.items():  # warm the caches shared between games; not counted
        alhambra_block(modules, args.warmup, seed0=-1_000_000)
    if have_catan:
        catanatron_block(args.warmup)
    totals = {k: [0, 0, 0.0] for k in CONFIGS}
    catan = [0, 0, 0.0]
    per_round: dict[str, list[float]] = {k: [] for k in (*CONFIGS, "catanatron")}
    for r in range(args.rounds):
        for name, modules in CONFIGS.items():
            secs = args.seconds if name in ("base", "all modules") else args.seconds / 2
            g, a, t = alhambra_block(modules, secs, seed0=1000 * r)
            for i, v in enumerate((g, a, t)):
                totals[name][i] += v
            per_round[name].append(a / t)
            if name == "base" and have_catan:
                cg, ca, ct = catanatron_block(args.seconds)
                catan[0] += cg
                catan[1] += ca
                catan[2] += ct
                per_round["catanatron"].append(ca / ct)

    print(f"python {sys.version.split()[0]}, alhambra {alhambra.__version__}, {args.rounds} rounds x {args.seconds}s "
          f"after {args.warmup}s of warm-up per configuration, CPU time")
    print("ratios: median over the rounds [lowest, highest] of each round's own ratio, so that a")
    print("slow spell of the machine, which hits the blocks of one round alike, cancels out")
    print(f"{'engine':<28}{'games/s':>9}{'actions/s':>11}{'spread':>9}{'us/action':>11}   x base (per round)")
    for name, (g, a, t) in totals.items():
        us = t / a * 1e6
        spread = statistics.pstdev(per_round[name]) / statistics.mean(per_round[name]) * 100
        rel = [b / m for m, b in zip(per_round[name], per_round["base"])]  # time per action vs base
        print(f"{'alhambra ' + name:<28}{g / t:>9.1f}{a / t:>11.0f}{spread:>8.1f}%{us:>11.1f}   {_median_range(rel)}")
    if have_catan:
        g, a, t = catan
        spread = statistics.pstdev(per_round["catanatron"]) / statistics.mean(per_round["catanatron"]) * 100
        print(f"{'catanatron (4 random)':<28}{g / t:>9.1f}{a / t:>11.0f}{spread:>8.1f}%{t / a * 1e6:>11.1f}")
        rel = [b / c for b, c in zip(per_round["base"], per_round["catanatron"])]
        print(f"alhambra base / catanatron actions per second: {_median_range(rel)} "
              f"(all rounds pooled: {(totals['base'][1] / totals['base'][2]) / (a / t):.2f}x)")
    for name in ("base", "all modules"):
        tl, ta = split_cost(CONFIGS[name])
        print(f"in play ({name}): legal_actions() {tl:.1f} us, apply() {ta:.1f} us per action")
    copy_us, seeded_us = clone_cost()
    print(f"clone(): {copy_us:.1f} us (generator copied), {seeded_us:.1f} us (clone(seed=...))")
    return 0


if __name__ == "__main__":
    sys.exit(main())
