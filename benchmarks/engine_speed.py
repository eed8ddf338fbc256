"""Engine speed: random 4-player playouts on both engines, side by side with catanatron, and
per-module cost.

    python benchmarks/engine_speed.py                 # about three minutes
    python benchmarks/engine_speed.py --seconds 3 --rounds 5

Everything is measured in this one process, interleaved: each cycle lets every configuration
(alhambra base, each module alone, all modules, catanatron) play games one after another for
about 50 ms of CPU time (:data:`SLICE`; every contender plays the seeds from the round's first
on), timing each game as a whole, so that a slow spell of the shared machine (it wanders by
10-20 % from one second to the next) hits every contender alike; the ratios are the figures to
compare. A round is about ``--seconds`` per configuration; each ratio is
reported as the median over the rounds with the lowest and highest round. Each
configuration first plays ``--warmup`` seconds uncounted: the engine's caches shared between
games (payments by hand and price, action instances) fill over the first hundred or so
games, and a long simulation runs warm. Times are CPU time of this process
(``time.process_time``), which a busy machine disturbs less than wall-clock time; the clock is
read before ``new_game`` and after the last action, never inside the game loop. catanatron
comes with the ``bench`` extra (``pip install -e ".[bench]"``); without it that column is
skipped.

The contenders: the Python engine (``engine="python"``: the base game, each module, all six);
the compiled rules kernel (``engine="kernel"``) through the public ``Game`` API (the same loop:
``legal_actions()``, then ``apply()`` of an action object); the kernel playing random players
itself as ``alhambra simulate --bots random --engine kernel`` does, once as the whole of one
simulated game (``run_task``: set-up, play, the result record) and once the play alone
(``KernelGame.play_random``); and catanatron.

Also printed: the cost of ``legal_actions()`` and ``apply()`` as met in play (a new state each
step; timed call by call in a separate pass, so that the timers do not slow the main loop),
and of ``clone()``, in microseconds, on both engines.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import alhambra

#: CPU seconds each contender plays in a row within a cycle: games follow one another as in a
#: simulation of many games (one game each in turn would charge the fastest contenders for
#: refilling the processor's caches after another contender's game, which a long run of one
#: configuration does not pay), and a slow spell of the machine still hits every contender
SLICE = 0.05

FIRST = ("vizier", "building_huts", "bonus_cards", "exchange_offices")
#: the first expansion's four modules and the second expansion's two
MODULES = (*FIRST, "city_gates", "diamonds")
CONFIGS = {"base": (), **{m: (m,) for m in MODULES}, "first four": FIRST, "all modules": MODULES}


def kernel_installed() -> bool:
    from alhambra.kernel import native

    return native is not None


def kernel_configs() -> list[str]:
    """The configurations of :data:`CONFIGS` with modules that the kernel plays every one of."""
    from alhambra.kernel import KERNEL_MODULES

    return [name for name, mods in CONFIGS.items() if mods and all(m in KERNEL_MODULES for m in mods)]


def alhambra_game(modules, seed: int, engine: str = "python") -> int:
    """Play one random 4-player game; returns its number of actions. The loop is the same
    as catanatron's (list the legal actions, pick one at random, apply it)."""
    game = alhambra.new_game(4, modules=modules, seed=seed, engine=engine)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return len(game.history)


def kernel_simulated(seed: int, modules: tuple[str, ...] = ()) -> int:
    """One game as ``alhambra simulate --bots random --engine kernel`` plays it (set-up, the
    random players inside the kernel, the result record); returns its actions."""
    from alhambra.simulate import SimTask, run_task

    record, _ = run_task(SimTask(0, seed, 4, modules=modules, bots=("random",) * 4, engine="kernel"))
    return int(record["actions"])


def kernel_random(seed: int) -> int:
    """The kernel's own random play of one game (``KernelGame.play_random``), set-up included."""
    game = alhambra.new_game(4, seed=seed, engine="kernel")
    return game.play_random([random.Random(seed * 1000 + s) for s in range(4)])


def alhambra_block(modules, seconds: float, seed0: int, engine: str = "python") -> tuple[int, int, float]:
    """Play random 4-player games for about ``seconds``: games, actions, time (used for the
    warm-up, and by other scripts)."""
    games = actions = 0
    clock = time.process_time
    start = clock()
    seed = seed0
    while clock() - start < seconds:
        actions += alhambra_game(modules, seed, engine)
        seed += 1
        games += 1
    return games, actions, clock() - start


def split_cost(modules, games: int = 30, engine: str = "python") -> tuple[float, float]:
    """Mean µs of ``legal_actions()`` and of ``apply()`` as met in play (a new state each
    step), timed one call at a time over ``games`` random 4-player games."""
    clock = time.perf_counter
    t_legal = t_apply = 0.0
    actions = 0
    for seed in range(games):
        game = alhambra.new_game(4, modules=modules, seed=10_000 + seed, engine=engine)
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


def catanatron_game() -> int:
    """Play one random 4-player catanatron game; returns its number of actions."""
    from catanatron import Color, Game, RandomPlayer

    g = Game([RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.ORANGE, Color.WHITE)])
    g.play()
    return len(g.state.actions)


def catanatron_block(seconds: float):
    """Random 4-player catanatron games for about ``seconds``: games, actions, time."""
    games = actions = 0
    clock = time.process_time
    start = clock()
    while clock() - start < seconds:
        actions += catanatron_game()
        games += 1
    return games, actions, clock() - start


def interleaved_round(players: dict, seconds: float, seed0: int, slice_s: float = SLICE) -> dict:
    """One round: cycles in which each contender (``players``: name -> a function of the seed
    that plays one game and returns its actions) plays games one after another for about
    ``slice_s`` CPU seconds, in an order rotated by one each cycle, until about ``seconds`` per
    contender have passed. Returns name -> [games, actions, CPU seconds]."""
    clock = time.process_time
    totals = {name: [0, 0, 0.0] for name in players}
    start = clock()
    seed = seed0
    names = list(players)
    cycle = 0
    while clock() - start < seconds * len(names):
        # each cycle starts one contender later, so that no contender always follows the same one
        k = cycle % len(names)
        for name in names[k:] + names[:k]:
            play = players[name]
            row = totals[name]
            t0 = clock()
            t = 0.0
            while t < slice_s:
                row[1] += play(seed + row[0])
                row[0] += 1
                t = clock() - t0
            row[2] += t
        cycle += 1
    return totals


def clone_cost(samples: int = 300, modules=MODULES, engine: str = "python") -> tuple[float, float]:
    """Mean µs of ``clone()`` and ``clone(seed=...)`` over states from random games."""
    rng = random.Random(1)
    states = []
    for seed in range(6):
        game = alhambra.new_game(4, modules=modules, seed=seed, engine=engine)
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


def native_clone_cost(samples: int = 300) -> float:
    """Mean µs of the kernel's own clone (``alhambra_kernel.KernelGame.clone``: the whole state
    copied), over states from random base games."""
    rng = random.Random(1)
    states = []
    for seed in range(6):
        game = alhambra.new_game(4, seed=seed, engine="kernel")
        while not game.is_over:
            if rng.random() < 0.05:
                states.append(game._kernel.clone())
            game.apply(rng.choice(game.legal_actions()))
    states = states[:samples]
    t0 = time.process_time()
    for _ in range(20):
        for s in states:
            s.clone()
    return (time.process_time() - t0) / (20 * len(states)) * 1e6


def _median_range(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.2f}x [{min(ratios):.2f}, {max(ratios):.2f}]"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    ap.add_argument(
        "--seconds", type=float, default=2.0, help="seconds per configuration and round, on average (default 2)"
    )
    ap.add_argument("--rounds", type=int, default=4, help="interleaved rounds (default 4)")
    ap.add_argument(
        "--warmup", type=float, default=3.0, help="uncounted seconds each configuration plays first (default 3)"
    )
    args = ap.parse_args(argv)
    try:
        import catanatron  # noqa: F401

        have_catan = True
    except ImportError:
        have_catan = False
        print("catanatron not installed (pip install -e '.[bench]'): skipping the comparison", file=sys.stderr)

    kernel = kernel_installed()
    if not kernel:
        print("the rules kernel is not installed (pip install ./kernel): Python only", file=sys.stderr)
    players = {f"python {name}": (lambda seed, m=modules: alhambra_game(m, seed)) for name, modules in CONFIGS.items()}
    if kernel:
        players["kernel base (Game API)"] = lambda seed: alhambra_game((), seed, "kernel")
        players["kernel base (simulate)"] = kernel_simulated
        players["kernel base (random play)"] = kernel_random
        for name in kernel_configs():
            players[f"kernel {name} (simulate)"] = lambda seed, m=CONFIGS[name]: kernel_simulated(seed, m)
    if have_catan:
        players["catanatron"] = lambda seed: catanatron_game()
    for play in players.values():  # warm the caches shared between games; not counted
        clock, seed, start = time.process_time, 1_000_000_000, time.process_time()
        while clock() - start < args.warmup:  # seeds apart from the measured ones
            play(seed)
            seed += 1
    totals = {k: [0, 0, 0.0] for k in players}
    per_round: dict[str, list[float]] = {k: [] for k in players}
    for r in range(args.rounds):
        got = interleaved_round(players, args.seconds, seed0=100_000 * r)
        for name, (g, a, t) in got.items():
            row = totals[name]
            row[0] += g
            row[1] += a
            row[2] += t
            per_round[name].append(a / t)

    print(
        f"python {sys.version.split()[0]}, alhambra {alhambra.__version__}, {args.rounds} rounds of about "
        f"{args.seconds}s per configuration, after {args.warmup}s of warm-up each, CPU time"
    )
    print(
        f"games interleaved in slices (each contender plays games in a row for about {SLICE * 1000:.0f} ms per cycle);"
    )
    print("ratios: median over the rounds [lowest, highest] of each round's own ratio")
    print(f"{'engine':<34}{'games/s':>9}{'actions/s':>11}{'spread':>9}{'us/action':>11}   x python base (per round)")
    for name, (g, a, t) in totals.items():
        us = t / a * 1e6
        spread = statistics.pstdev(per_round[name]) / statistics.mean(per_round[name]) * 100
        rel = [b / m for m, b in zip(per_round[name], per_round["python base"])]  # time per action vs base
        shown = name if name.startswith(("kernel", "catanatron")) else "alhambra " + name
        print(f"{shown:<34}{g / t:>9.1f}{a / t:>11.0f}{spread:>8.1f}%{us:>11.2f}   {_median_range(rel)}")

    def ratio(a: str, b: str) -> str:
        return _median_range([x / y for x, y in zip(per_round[a], per_round[b])])

    print("ratios of actions per second (median over rounds [lowest, highest]):")
    if have_catan:
        print(f"  python base / catanatron: {ratio('python base', 'catanatron')}")
    if kernel:
        print(f"  kernel Game API / python base: {ratio('kernel base (Game API)', 'python base')}")
        if have_catan:
            for name in ("kernel base (simulate)", "kernel base (random play)"):
                print(f"  {name} / catanatron: {ratio(name, 'catanatron')}")
        print("cost per action of the kernel's modules (simulate), x kernel base (simulate):")
        for name in kernel_configs():
            print(f"  {name}: {ratio('kernel base (simulate)', f'kernel {name} (simulate)')}")
    for name in ("base", "all modules"):
        tl, ta = split_cost(CONFIGS[name])
        print(f"in play (python {name}): legal_actions() {tl:.1f} us, apply() {ta:.1f} us per action")
    if kernel:
        tl, ta = split_cost((), engine="kernel")
        print(f"in play (kernel base, Game API): legal_actions() {tl:.2f} us, apply() {ta:.2f} us per action")
    copy_us, seeded_us = clone_cost()
    print(f"clone() (python, all modules): {copy_us:.1f} us (generator copied), {seeded_us:.1f} us (clone(seed=...))")
    if kernel:
        copy_us, _ = clone_cost(modules=(), engine="kernel")
        print(f"clone() (kernel base, Game API): {copy_us:.2f} us; the kernel's own copy: {native_clone_cost():.2f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
