"""Bot strength: win rates of one bot against another over seeded games with seats rotated.

Each matchup ``A:B`` (e.g. ``greedy:random``) plays ``--games`` games. With P players, game k
uses seed ``seed + k // P`` and puts bot A in seat ``k % P`` and bot B in every other seat, so
every seed is played with A in each seat (paired comparison, first-player advantage cancels).
Prints A's win rate (shared victories count 1/k) with its Wilson 95% interval, its mean score
margin over the best other seat, and the time taken. ``--time-decisions N`` also plays N games
in this process and times every decision of bot A (mean, 95th percentile, maximum).

    python benchmarks/bot_strength.py --games 200 --workers 2
    python benchmarks/bot_strength.py --matchups "mcts:200:greedy" --players 4 --modules all

A bot with parameters is written with its colons, the matchup split at the last name:
``mcts:100:greedy`` is mcts:100 against greedy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from alhambra.bots import bot_names
from alhambra.saving.config import expand_module_names, parse_module_list
from alhambra import new_game
from alhambra.bots import make_bot
from alhambra.lab.stats import wilson
from alhambra.simulate import SimTask, bot_seed, default_workers, play, run_games, write_results


def split_matchup(text: str) -> tuple[str, str]:
    """``"mcts:100:greedy"`` -> ``("mcts:100", "greedy")``: B starts at the last part that
    names a bot."""
    parts = text.split(":")
    known = set(bot_names())
    for i in range(len(parts) - 1, 0, -1):
        if parts[i].lower() in known:
            return ":".join(parts[:i]), ":".join(parts[i:])
    raise SystemExit(f"cannot read matchup {text!r}: write it as BOT_A:BOT_B, e.g. mcts:100:greedy")


def matchup_tasks(a: str, b: str, games: int, players: int, seed: int, modules, start: int = 0):
    tasks = []
    for k in range(games):
        seat = k % players
        bots = [b] * players
        bots[seat] = a
        tasks.append(SimTask(start + k, seed + k // players, players, tuple(modules), (), tuple(bots)))
    return tasks


class _Timed:
    """A bot wrapper that records the seconds of every ``choose``: CPU time of this process
    (``cpu``, what the decision costs on a shared machine) and wall-clock time (``wall``)."""

    def __init__(self, bot):
        self.bot = bot
        self.cpu: list[float] = []
        self.wall: list[float] = []

    def choose(self, game, seat, legal):
        t0, c0 = time.perf_counter(), time.process_time()
        action = self.bot.choose(game, seat, legal)
        self.cpu.append(time.process_time() - c0)
        self.wall.append(time.perf_counter() - t0)
        return action


def time_decisions(a: str, b: str, games: int, players: int, seed: int, modules) -> str:
    """Seconds per decision of bot ``a`` (with more than one legal action) over ``games`` games."""
    cpu: list[float] = []
    wall: list[float] = []
    for k in range(games):
        s = seed + k // players
        seat = k % players
        bots = [make_bot(b, bot_seed(s, i)) for i in range(players)]
        timed = _Timed(make_bot(a, bot_seed(s, seat)))
        bots[seat] = timed
        play(new_game(players, modules=modules, seed=s), bots)
        cpu.extend(timed.cpu)
        wall.extend(timed.wall)
    lines = []
    for what, times in (("CPU", sorted(cpu)), ("wall-clock", sorted(wall))):
        p95 = times[int(0.95 * (len(times) - 1))]
        lines.append(
            f"  {a}: {len(times)} decisions over {games} games, {what} time: mean {statistics.fmean(times):.3f}s, "
            f"95th percentile {p95:.3f}s, max {times[-1]:.3f}s per decision"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--matchups",
        default="greedy:random,mcts:greedy",
        help="comma-separated A:B pairs (default greedy:random,mcts:greedy; mcts = mcts:32)",
    )
    p.add_argument("--games", type=int, default=200, help="games per matchup (default 200)")
    p.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    p.add_argument("--modules", default="", help="comma-separated module names, or 'all'")
    p.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("--out", help="write every game's result record here (JSON Lines)")
    p.add_argument("--progress", action="store_true", help="show a progress bar")
    p.add_argument(
        "--time-decisions",
        type=int,
        default=0,
        metavar="N",
        help="also time every decision of bot A over N games in this process",
    )
    args = p.parse_args(argv)
    modules = expand_module_names(parse_module_list(args.modules))
    workers = args.workers or default_workers()
    all_results = []
    print(
        f"{args.games} games per matchup, {args.players} players, modules {modules or 'none'}, "
        f"seats rotated, {workers} workers"
    )
    for text in [m.strip() for m in args.matchups.split(",") if m.strip()]:
        a, b = split_matchup(text)
        tasks = matchup_tasks(a, b, args.games, args.players, args.seed, modules, start=0)
        t0 = time.perf_counter()
        wins, margins, sa, sb, actions = [], [], [], [], []
        for task, (r, _) in zip(tasks, run_games(tasks, workers=workers, progress=args.progress)):
            seat = task.bots.index(a) if task.bots.count(a) == 1 else task.index % args.players
            ret = r.returns()
            wins.append(ret[seat])
            best_other = max(s for i, s in enumerate(r.scores) if i != seat)
            margins.append(r.scores[seat] - best_other)
            sa.append(r.scores[seat])
            sb.extend(s for i, s in enumerate(r.scores) if i != seat)
            actions.append(r.actions)
            all_results.append(r)
        dt = time.perf_counter() - t0
        n = len(wins)
        rate = wilson(sum(wins), n)
        fair = 1 / args.players
        print(
            f"{a} vs {b}: {a} win rate {rate.value:.3f} [{rate.low:.3f}, {rate.high:.3f}] (Wilson 95%; "
            f"chance {fair:.2f}) over {n} games; "
            f"mean score {statistics.fmean(sa):.1f} vs {statistics.fmean(sb):.1f}, "
            f"margin over best other {statistics.fmean(margins):+.1f}; "
            f"{statistics.fmean(actions):.0f} actions/game; {dt:.0f}s ({dt / n:.2f}s/game wall)"
        )
        sys.stdout.flush()
        if args.time_decisions:
            print(time_decisions(a, b, args.time_decisions, args.players, args.seed, modules))
    if args.out:
        write_results(args.out, all_results)
        print(f"wrote {len(all_results)} records to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
