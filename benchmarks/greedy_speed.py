"""Greedy bots on both engines: the per-game speed ratio of ``simulate`` with greedy bots on the
compiled kernel (the whole game played inside it, ``kernel/core/src/greedy.rs``) against the
Python engine and evaluator.

    python benchmarks/greedy_speed.py                 # about 20 seconds
    python benchmarks/greedy_speed.py --games 100 --players 3 --modules vizier diamonds

One run, interleaved: the same seeds are played game by game on one engine then the other (the
order alternating), each game timed whole as a simulation task (``run_task``: set-up, play,
the result record), in CPU time of this process; so a slow spell of the shared machine hits
both engines alike. The records of each pair are checked equal (the ``engine`` field aside).
The bots: four greedy seats, one of them with noise (``greedy``, ``greedy:noise=1``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from alhambra.simulate import SimTask, run_task


def one(engine: str, seed: int, players: int, modules: tuple, bots: tuple) -> tuple[float, str]:
    task = SimTask(index=0, seed=seed, players=players, modules=modules, bots=bots, engine=engine)
    t = time.process_time()
    record, _ = run_task(task)
    dt = time.process_time() - t
    assert record.pop("engine") == engine
    return dt, json.dumps(record, sort_keys=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=120, help="games per engine (default 120)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--modules", nargs="*", default=["vizier", "bonus_cards", "exchange_offices", "diamonds"])
    ap.add_argument("--warmup", type=int, default=10, help="games per engine played first, uncounted")
    args = ap.parse_args(argv)
    bots = tuple((["greedy", "greedy:noise=1"] * args.players)[: args.players])
    modules = tuple(args.modules)
    times: dict[str, list[float]] = {"python": [], "kernel": []}
    for k in range(args.warmup + args.games):
        seed = 1 + k
        order = ("python", "kernel") if k % 2 == 0 else ("kernel", "python")
        got = {e: one(e, seed, args.players, modules, bots) for e in order}
        if got["python"][1] != got["kernel"][1]:
            raise SystemExit(f"seed {seed}: the records differ between the engines")
        if k >= args.warmup:
            for e in order:
                times[e].append(got[e][0])
    py, ke = (sum(times[e]) / len(times[e]) for e in ("python", "kernel"))
    med = statistics.median(p / q for p, q in zip(times["python"], times["kernel"]) if q > 0)
    print(
        f"greedy {args.players}p, modules {', '.join(modules) or 'none'}, {args.games} games per engine "
        f"(records equal): python {py * 1000:.1f} ms/game, kernel {ke * 1000:.2f} ms/game, "
        f"kernel {py / ke:.1f}x faster per game (median of per-seed ratios {med:.1f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
