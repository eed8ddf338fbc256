"""The balance lab's subcommands of ``alhambra``: ``compare``, ``sweep``, ``tournament`` and ``bots``.

:func:`add_commands` registers them on the main parser's subparsers; each ``cmd_*`` takes the
parsed arguments and returns the exit status. Errors are :class:`AlhambraError` subclasses,
which the main program prints as ``alhambra: error: ...``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from attrs import evolve

from ..cli_checks import add_progress_flags, check_lab, check_output, wants_progress
from ..errors import AlhambraError
from ..kernel import add_engine_flag


def _workers(value: int | None) -> int:
    from ..simulate import default_workers

    workers = value if value is not None else default_workers()
    if workers < 1:
        raise AlhambraError(f"--workers must be at least 1, not {workers}")
    return workers


def _add_common(p: argparse.ArgumentParser, games: str, seed: str) -> None:
    p.add_argument("--games", type=int, default=100, help=f"{games} (default 100)")
    p.add_argument("--seed", type=int, default=1, help=f"first seed (default 1); {seed}")
    p.add_argument(
        "--workers", type=int, metavar="N", help="worker processes (default: all cores); results do not depend on it"
    )
    add_engine_flag(p)
    add_progress_flags(p)


def add_commands(sub: Any) -> None:
    """Add ``compare``, ``sweep``, ``tournament`` and ``bots`` to ``sub`` (``add_subparsers()``'s result)."""
    c = sub.add_parser(
        "compare",
        help="play variants (TOML configs) on the same seeds and bots; what differs",
        description="Play every variant (a TOML game config) with the same bots on the same seeds and "
        "show, per figure, each variant's mean with its 95% interval, the paired difference "
        "from the first variant and a plain verdict.",
    )
    c.add_argument("configs", nargs="+", metavar="CONFIG.toml", help="two or more game configurations")
    c.add_argument(
        "--bots", metavar="BOT[,BOT...]", default="greedy", help="bot per seat, or one for all seats (default greedy)"
    )
    c.add_argument("--rotate-seats", action="store_true", help="play every seed in every rotation of the line-up")
    c.add_argument(
        "--honest",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="every bot decides on a world consistent with what its seat may know (default on)",
    )
    c.add_argument(
        "--out", metavar="FILE.jsonl", help="write every game's result record (JSON Lines, with variant labels)"
    )
    c.add_argument(
        "--primary",
        metavar="FIGURE",
        help="one figure (its name as the table prints it) tested on its own, outside Holm's correction",
    )
    c.add_argument(
        "--games-needed",
        metavar="DIFF",
        type=float,
        help="print how many seeds detect a difference DIFF in the primary figure (or the winning score) "
        "with 80%% power",
    )
    c.add_argument("--plot", metavar="FILE.png", help="plot points by source, scores, differences, start player")
    c.add_argument("--report", metavar="FILE.html", help="write a self-contained HTML report (tables and plots)")
    _add_common(c, "games per variant", "every variant plays the same seeds")
    c.set_defaults(func=cmd_compare)

    w = sub.add_parser(
        "sweep",
        help="compare a variant with its base over several player counts and line-ups of bots",
        description="Compare VARIANT.toml with BASE.toml (default: the base game) at every player count of "
        "--players and with every line-up of --bots, the same seeds everywhere, and report each comparison "
        "and a summary; all the differences of the sweep are tested together (Holm's method, Bonferroni's "
        "simultaneous intervals).",
    )
    w.add_argument("variant", metavar="VARIANT.toml", help="the variant (its player count is set by --players)")
    w.add_argument("base", metavar="BASE.toml", nargs="?", help="what it is compared with (default: the base game)")
    w.add_argument("--players", default="2-6", metavar="COUNTS", help="player counts, e.g. 2-6, 3,5 or 4 (default 2-6)")
    w.add_argument(
        "--bots",
        metavar="BOT[,BOT...]",
        action="append",
        help="a line-up: the bots of the first seats, the last one filling the seats left (search,greedy: one "
        "search among greedy bots); repeat for several line-ups (default greedy)",
    )
    w.add_argument("--rotate-seats", action="store_true", help="play every seed in every rotation of the line-up")
    w.add_argument(
        "--honest",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="every bot decides on a world consistent with what its seat may know (default on)",
    )
    w.add_argument("--out", metavar="FILE.jsonl", help="write every game's result record (JSON Lines)")
    w.add_argument("--report", metavar="FILE.html", help="write a self-contained HTML report (every comparison)")
    _add_common(w, "games per variant and comparison", "every comparison plays the same seeds")
    w.set_defaults(func=cmd_sweep)

    t = sub.add_parser(
        "tournament",
        help="line-ups drawn over several bots, seats rotated, openskill ratings",
        description="Draw line-ups over the bots (every bot the same number of games and seats, every pairing "
        "met), play each in every seat rotation on the same seed, and rate the bots with openskill "
        "(Plackett-Luce), with win rates and a head-to-head table, 95% intervals clustered by seed.",
    )
    t.add_argument("--bots", metavar="BOT,BOT[,...]", required=True, help="two or more bots")
    t.add_argument("--players", type=int, default=None, help="players per game, 2-6 (default: the config's, else 4)")
    t.add_argument("--modules", help="comma-separated module names, or 'all'")
    t.add_argument("--config", help="TOML game configuration (players, modules, options)")
    t.add_argument("--out", metavar="FILE.jsonl", help="write every game's result record (JSON Lines)")
    t.add_argument(
        "--honest",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="every bot decides on a world consistent with what its seat may know (default on)",
    )
    _add_common(
        t, "games in all (rounded up to whole rounds of line-ups)", "line-up k plays seed + k in every seat rotation"
    )
    t.set_defaults(func=cmd_tournament)

    b = sub.add_parser("bots", help="list the bots (entry-point group alhambra.bots) with their parameters")
    b.set_defaults(func=cmd_bots)


def _command_line() -> str:
    return "alhambra " + " ".join(sys.argv[1:])


def cmd_compare(args: argparse.Namespace) -> int:
    """``alhambra compare A.toml B.toml [...]``: see :mod:`alhambra.lab.compare`."""
    check_lab("compare", "compare", *(["plot"] if args.plot else []), *(["report"] if args.report else []))
    from ..simulate import seat_bots, write_results
    from .compare import (
        check_primary,
        compare_results,
        compare_tasks,
        figure_names,
        format_comparison,
        load_variant,
        power_line,
        run_compare,
        unique_labels,
    )

    if len(args.configs) < 2:
        raise AlhambraError("compare needs at least two game configurations")
    if args.games < 1:
        raise AlhambraError(f"--games must be at least 1, not {args.games}")
    for flag, path in (("--out", args.out), ("--plot", args.plot), ("--report", args.report)):
        check_output(flag, path)
    workers = _workers(args.workers)
    variants = unique_labels([load_variant(p) for p in args.configs])
    for v in variants:
        count = v.players if isinstance(v.players, int) else len(v.players)
        seat_bots(args.bots, count)  # a line-up that does not fit a variant fails here
    if args.primary is not None:  # an unknown figure fails here, before any game is played
        check_primary(args.primary, figure_names(variants, args.bots, seed=args.seed))
    tasks = compare_tasks(variants, bots=args.bots, games=args.games, seed=args.seed, rotate_seats=args.rotate_seats)
    tasks = [[evolve(t, honest=args.honest, engine=args.engine) for t in ts] for ts in tasks]
    start = time.perf_counter()
    results = run_compare(tasks, workers=workers, progress=wants_progress(args, sum(map(len, tasks))))
    elapsed = time.perf_counter() - start
    cmp = compare_results(results, [v.label for v in variants], primary=args.primary)
    for line in format_comparison(cmp):
        print(line)
    if args.games_needed is not None:
        print(power_line(cmp, args.primary or "winning score", args.games_needed))
    print(f"  time {elapsed:.1f}s for {sum(map(len, results))} games")
    if args.out:
        n = write_results(args.out, [r for rs in results for r in rs])
        print(f"wrote {n} result record(s) to {args.out}")
    if args.plot:
        from .report import comparison_png

        Path(args.plot).write_bytes(comparison_png(cmp))
        print(f"plotted the comparison to {args.plot}")
    if args.report:
        from .report import write_comparison_report

        write_comparison_report(cmp, args.report, variants=variants, command=_command_line())
        print(f"wrote the report to {args.report}")
    return 0


def cmd_sweep(args: argparse.Namespace) -> int:
    """``alhambra sweep VARIANT.toml [BASE.toml] --players 2-6 --bots ...``: see :mod:`.sweep`."""
    check_lab("sweep", "compare", *(["report"] if args.report else []))
    from ..simulate import write_results
    from .compare import load_variant
    from .sweep import format_sweep, parse_players, run_sweep, sweep_cells

    if args.games < 1:
        raise AlhambraError(f"--games must be at least 1, not {args.games}")
    for flag, path in (("--out", args.out), ("--report", args.report)):
        check_output(flag, path)
    workers = _workers(args.workers)
    players = parse_players(args.players)
    variant = load_variant(args.variant)
    base = load_variant(args.base) if args.base else None
    cells = sweep_cells(
        variant,
        base,
        players=players,
        lineups=args.bots or ["greedy"],
        games=args.games,
        seed=args.seed,
        rotate_seats=args.rotate_seats,
    )
    for c in cells:
        c.tasks = [[evolve(t, honest=args.honest, engine=args.engine) for t in ts] for ts in c.tasks]
    total = sum(len(ts) for c in cells for ts in c.tasks)
    titles = "; ".join(c.title for c in cells)
    print(f"sweep schedule: {len(cells)} comparisons ({titles}), {total} games in all", file=sys.stderr)
    start = time.perf_counter()
    results = run_sweep(cells, workers=workers, progress=wants_progress(args, total))
    elapsed = time.perf_counter() - start
    for line in format_sweep(cells):
        print(line)
    print(f"  time {elapsed:.1f}s for {len(results)} games")
    if args.out:
        n = write_results(args.out, results)
        print(f"wrote {n} result record(s) to {args.out}")
    if args.report:
        from .report import write_sweep_report

        write_sweep_report(cells, args.report, command=_command_line())
        print(f"wrote the report to {args.report}")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """``alhambra tournament --bots a,b,c --players P --games N``: see :mod:`.tournament`."""
    check_lab("tournament", "tournament")
    from ..saving.config import GameConfig, expand_module_names, load_config, parse_module_list
    from ..simulate import register_config_modules, write_results
    from .tournament import format_pairwise, format_tournament, pairwise, rate_tournament, tournament_tasks

    if args.games < 1:
        raise AlhambraError(f"--games must be at least 1, not {args.games}")
    check_output("--out", args.out)
    cfg = load_config(args.config) if args.config else GameConfig()
    if args.modules is not None:
        cfg.modules = parse_module_list(args.modules)
    cfg.modules = expand_module_names(cfg.modules)
    cfg.resolved_modules()
    config_path = str(Path(args.config).resolve()) if args.config else None
    if config_path:
        register_config_modules(config_path, cfg.module_objects)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.players is not None:
        players = args.players
    elif args.config:
        players = cfg.players if isinstance(cfg.players, int) else len(cfg.players)
    else:
        players = 4
    tasks = tournament_tasks(
        bots,
        players=players,
        games=args.games,
        seed=args.seed,
        modules=cfg.modules,
        options=cfg.options,
        config_path=config_path,
    )
    from ..simulate import run_games
    from .tournament import schedule_line

    print(schedule_line(tasks, args.games), file=sys.stderr)
    tasks = [evolve(t, honest=args.honest, engine=args.engine) for t in tasks]
    start = time.perf_counter()
    results = [
        r for r, _ in run_games(tasks, workers=_workers(args.workers), progress=wants_progress(args, len(tasks)))
    ]
    elapsed = time.perf_counter() - start
    table = rate_tournament(results)
    for line in format_tournament(table):
        print(line)
    for line in format_pairwise(table, pairwise(results, [s.bot for s in table])):
        print(line)
    print(f"  time {elapsed:.1f}s for {len(results)} games")
    if args.out:
        n = write_results(args.out, results)
        print(f"wrote {n} result record(s) to {args.out}")
    return 0


def cmd_bots(args: argparse.Namespace) -> int:
    """``alhambra bots``: every bot found (entry points and in-process registrations)."""
    from ..bots import describe_bots

    for line in describe_bots():
        print(line)
    return 0
