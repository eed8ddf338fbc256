"""The ``alhambra`` command line: ``simulate``, ``replay``, ``modules``; the balance lab's
``compare``, ``tournament`` and ``bots`` (:mod:`alhambra.lab.commands`)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any
from pathlib import Path

from . import __version__
from .cli_checks import add_progress_flags, check_lab, check_output, check_plot_format, check_ray_address
from .cli_simulate import play_and_report, resume_tasks
from .saving.config import GameConfig, expand_module_names, load_config, parse_module_list
from .saving.files import read_limited
from .saving.serialize import MAX_SAVE_FILE_BYTES
from .errors import AlhambraError, ConfigError, SaveFormatError
from .engine.state import MAX_PLAYERS, MIN_PLAYERS, SEED_LIMIT, game_seed
from .game import engine_of, new_game
from .replay import replay_save
from .cli_position import cmd_replay_position, print_game
from .engine.ruleset import available_modules, load_module
from .kernel import add_engine_flag
from .simulate import (
    BACKENDS,
    GameResult,
    SimTask,
    default_workers,
    make_tasks,
    ray_available,
    register_config_modules,
)


def _parse_options(pairs: list[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise AlhambraError(f"--option takes NAME=VALUE, not {pair!r}")
        name, value = pair.split("=", 1)
        try:
            out[name] = json.loads(value)
        except (ValueError, RecursionError):  # not JSON (or nested too deeply): the text itself
            out[name] = value
    return out


#: games per worker process when the kernel plays them whole: a kernel game of random or greedy
#: bots takes a millisecond or so, and starting a worker (a new interpreter importing the
#: package) about a second, so a pool pays only for thousands of games each
KERNEL_GAMES_PER_WORKER = 5000


def _kernel_workers(game: Any, tasks: list[SimTask]) -> int:
    """The default number of workers for ``tasks`` whose first game is ``game``: one per
    :data:`KERNEL_GAMES_PER_WORKER` games when the kernel plays them whole (random bots, and
    greedy bots where its evaluation values the modules), else no limit."""
    from .bots.greedy import kernel_greedy

    if engine_of(game) != "kernel":
        return len(tasks) or 1
    kinds = {spec.split(":")[0] for spec in tasks[0].bots}
    if not kinds <= {"random", "greedy"} or ("greedy" in kinds and not kernel_greedy(game)):
        return len(tasks) or 1
    return max(1, len(tasks) // KERNEL_GAMES_PER_WORKER)


def cmd_simulate(args: argparse.Namespace) -> int:
    cfg = load_config(args.config) if args.config else GameConfig()
    if args.players is not None:
        cfg.players = args.players
    if args.modules is not None:
        cfg.modules = parse_module_list(args.modules)
    cfg.modules = expand_module_names(cfg.modules)
    cfg.options.update(_parse_options(args.option))
    seed0 = args.seed if args.seed is not None else (cfg.seed if cfg.seed is not None else 1)
    cfg.resolved_modules()  # unknown module names fail here, with the list of known ones
    players = cfg.players
    count = players if isinstance(players, int) else len(players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise AlhambraError(f"Alhambra is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {count} (R-COMP-1)")
    workers = args.workers if args.workers is not None else default_workers()
    if workers < 1:
        raise AlhambraError(f"--workers must be at least 1, not {workers}")
    if args.backend == "ray" and not ray_available():
        raise AlhambraError("--backend ray needs Ray: pip install 'alhambra-engine[ray]'")
    if args.plot:
        _check_plotting()
    if args.report:
        check_lab("--report", "report")  # the lab extra, before the games are played
    for flag, path in (("--save", args.save), ("--out", args.out), ("--plot", args.plot), ("--report", args.report)):
        check_output(flag, path)  # fail before the games are played, not after (cli_checks)
    check_plot_format(args.plot)
    if args.backend == "ray":
        check_ray_address(args.ray_address)
    config_path = str(Path(args.config).resolve()) if args.config else None
    if config_path:
        register_config_modules(config_path, cfg.module_objects)
    tasks = make_tasks(
        args.games,
        seed0,
        players=players,
        modules=cfg.modules,
        options=cfg.options,
        bots=args.bots,
        config_path=config_path,
        save=bool(args.save),
        rotate_seats=args.rotate_seats,
        variant=Path(args.config).stem if args.config else "",
        engine=args.engine,
    )
    if args.rotate_seats and len(tasks) != args.games:
        print(f"--rotate-seats: {len(tasks)} games (whole rounds of every seat rotation)", file=sys.stderr)
    if tasks:  # the first game in this process: a bad option or module fails here, as a message
        first = new_game(players, modules=cfg.resolved_modules(), seed=seed0, options=cfg.options, engine=args.engine)
        if args.workers is None and args.backend == "local":
            workers = min(workers, _kernel_workers(first, tasks))
    previous: list[GameResult] = []
    resume_end: int | None = None
    if args.resume:  # play only the seeds the file lacks, append to it (cli_simulate)
        if args.out and Path(args.out).resolve() != Path(args.resume).resolve():
            raise AlhambraError(f"--resume {args.resume} appends to that file; --out {args.out} would be another")
        tasks, previous, resume_end = resume_tasks(args.resume, tasks)
    return play_and_report(args, tasks, workers=workers, previous=previous, resume_end=resume_end)


def _check_plotting() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise AlhambraError("--plot needs matplotlib: pip install 'alhambra-engine[plot]'") from None


def _read_saves(path: str) -> list[tuple[int, str]]:
    """The saved games in ``path`` with the line each starts on: one JSON document, or one per
    line (JSON Lines, as ``simulate --save`` writes). Raises :class:`SaveFormatError` for a
    file larger than :data:`~alhambra.saving.serialize.MAX_SAVE_FILE_BYTES` or one that never
    ends, :class:`AlhambraError` for one that cannot be read or is no UTF-8 text."""
    try:
        text = read_limited(path, MAX_SAVE_FILE_BYTES, "save", SaveFormatError).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AlhambraError(f"{path} is not a saved game (not UTF-8 text: {exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise AlhambraError(f"cannot read {path}: {exc.strerror or exc}") from None
    stripped = text.strip()
    if not stripped:
        raise AlhambraError(f"{path} is empty: no saved game in it")
    try:
        json.loads(stripped)
        return [(text[: text.index(stripped[0])].count("\n") + 1, stripped)]
    except (ValueError, RecursionError):  # not one document (too deep: read_save says so)
        return [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.strip()]


def cmd_replay(args: argparse.Namespace) -> int:
    if args.position:  # a position file instead of a save (alhambra.cli_position)
        if args.file or args.game != 1:
            raise ConfigError("--position FILE replays one position: give no save file and no --game with it")

        return cmd_replay_position(args)
    if not args.file:
        raise ConfigError("replay needs a save file, or --position FILE")
    saves = _read_saves(args.file)
    if not 1 <= args.game <= len(saves):
        raise AlhambraError(f"{args.file} holds {len(saves)} game(s); --game must be 1..{len(saves)}")
    extra = load_config(args.config).module_objects if args.config else []
    line, text = saves[args.game - 1]
    where = f"{args.file}, game {args.game}" + (f" (line {line})" if len(saves) > 1 else "")
    if args.svg is not None and not args.svg.strip():
        raise ConfigError("--svg needs a directory, not an empty name")
    try:
        game = replay_save(text, modules=extra)  # rebuilt from its seed and history, checked against the save
    except SaveFormatError as exc:
        hint = " (a module of your own? pass the config that loads it: --config FILE)"
        raise SaveFormatError(
            f"{where}: {exc}{hint if not args.config and 'needs module' in str(exc) else ''}"
        ) from None
    except AlhambraError as exc:
        raise type(exc)(f"{where}: {exc}") from None
    if len(saves) > 1:  # which of the file's games this is, and how to see another
        print(f"{args.file}: game {args.game} of {len(saves)} (line {line}); --game 1..{len(saves)} shows another\n")
    print_game(game)
    if args.svg is not None:
        from .render import write_replay_svgs

        paths = write_replay_svgs(text, args.svg, modules=extra)
        print(f"\nwrote {len(paths)} SVG file(s) to {args.svg}")
    return 0


def cmd_modules(args: argparse.Namespace) -> int:
    found = available_modules()
    if not found:
        print("no modules installed")
    for name in sorted(found):
        try:
            mod = load_module(name)
        except ConfigError as exc:  # e.g. its NAME differs from the entry point's name
            print(f"{name}: cannot be enabled: {exc}")
            continue
        except Exception as exc:  # a broken installed module: say so, list the others
            print(f"{name}: cannot be loaded: {type(exc).__name__}: {exc}")
            continue
        print(f"{name}: {getattr(mod, 'DESCRIPTION', '').strip()}")
        rules = getattr(mod, "RULES", ())
        if rules:
            print(f"  rules: {', '.join(rules)}")
        opts = mod.alhambra_options() if hasattr(mod, "alhambra_options") else []
        for o in opts or []:
            choices = f" (one of {list(o.choices)})" if o.choices else ""
            default = "(none)" if o.default is None else repr(o.default)  # None: the doc says what is used
            print(f"  option {o.name} = {default}{choices}: {o.doc}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="alhambra",
        description="Alhambra rules engine: play bot games (simulate), replay saves and positions, "
        "list the modules and bots, measure rules (compare, tournament) and play in the browser (play).",
    )
    p.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help="print the installed version and exit"
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    from .bots import bot_names

    bots = ", ".join(bot_names())  # the installed bots (entry points) and those registered here

    s = sub.add_parser(
        "simulate",
        help="play full games between bots and summarise the results",
        description=f"Play full games between bots ({bots}) and summarise the results: "
        "win rates per bot and per seat, scores, game length, module action use.",
    )
    s.add_argument("--players", type=int, help="number of players, 2-6 (default 4 or the config's)")
    s.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    s.add_argument("--seed", type=int, help="seed of the first game; game k uses seed+k-1 (default 1)")
    s.add_argument("--modules", help="comma-separated module names, or 'all'")
    s.add_argument("--config", help="TOML game configuration (players, modules, options)")
    s.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help='set an option (repeatable); VALUE is read as JSON (2, true, "3"), else taken as text (region)',
    )
    s.add_argument("--save", metavar="FILE", help="save the game(s): one JSON save, or JSON Lines for several")
    s.add_argument("--quiet", action="store_true", help="print only the summary")
    s.add_argument(
        "--bots",
        metavar="BOT[,BOT...]",
        default=None,
        help=f"bot per seat, or one for all seats (default random): {bots}; "
        "budgets as mcts:200 (playouts per decision) or mcts:0.5s; parameters as mcts:top_k=4",
    )
    s.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="worker processes (default: all cores; games the kernel plays whole: one per 5,000 games); results do not depend on it",
    )
    s.add_argument(
        "--backend", choices=BACKENDS, default="local", help="local processes (default) or ray (the 'ray' extra)"
    )
    add_engine_flag(s)
    s.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help="with --backend ray: the Ray cluster to join (default: start a local instance)",
    )
    s.add_argument(
        "--rotate-seats",
        action="store_true",
        help="play every seed with the line-up of bots in every seat rotation (games rounded up to whole rounds)",
    )
    s.add_argument("--out", metavar="FILE.jsonl", help="write one JSON record per game (JSON Lines), as each finishes")
    s.add_argument(
        "--resume",
        metavar="FILE.jsonl",
        help="continue the run whose --out FILE this is: play only the seeds not in it, append to it",
    )
    s.add_argument(
        "--plot", metavar="FILE.png", help="plot score distributions and win rates per bot (the 'plot' extra)"
    )
    s.add_argument("--report", metavar="FILE.html", help="write a self-contained HTML report (the 'lab' extra)")
    add_progress_flags(s)
    s.set_defaults(func=cmd_simulate)

    r = sub.add_parser("replay", help="replay a saved game and print its Alhambras and scorings")
    r.add_argument("file", nargs="?", help="a saved game: one JSON save, or JSON Lines of several (simulate --save)")
    r.add_argument("--position", metavar="FILE", help="print a position (TOML or JSON, docs/positions.md) instead")
    r.add_argument("--game", type=int, default=1, help="which game of a JSON Lines file (1-based; not with --position)")
    r.add_argument("--config", help="config whose module_paths provide user modules the save needs")
    r.add_argument(
        "--svg",
        metavar="DIR",
        help="write every Alhambra at each scoring and at the end as SVG files into DIR "
        "(with --position: every Alhambra of the position and its table)",
    )
    r.set_defaults(func=cmd_replay)

    m = sub.add_parser("modules", help="list the installed modules with their rules and options")
    m.set_defaults(func=cmd_modules)

    from .web.command import add_parser as add_play_parser  # the command itself lives with the web app

    add_play_parser(sub)

    from .lab.commands import add_commands

    add_commands(sub)  # compare, tournament, bots
    return p


def check_seed_flag(args: argparse.Namespace) -> None:
    """Refuse a ``--seed`` outside ``0 <= seed < SEED_LIMIT`` before anything runs, and a first
    seed whose last game (``seed + games - 1``) would leave that range. Raises
    :class:`ConfigError`."""
    seed = getattr(args, "seed", None)
    if seed is None:
        return
    try:
        game_seed(seed)
    except ConfigError as exc:
        raise ConfigError(f"--seed: {exc}") from None
    games = getattr(args, "games", None)
    if isinstance(games, int) and games > 0 and seed + games - 1 >= SEED_LIMIT:
        raise ConfigError(f"--seed {seed} with --games {games}: the last game's seed would reach 2**63 = {SEED_LIMIT}")


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # ``alhambra`` alone: what it can do
        parser.print_help()
        return 0
    if getattr(args, "games", 1) is not None and getattr(args, "games", 1) < 0:
        print("alhambra: error: --games must be >= 0", file=sys.stderr)
        return 2
    try:
        check_seed_flag(args)
        status: int = args.func(args)
        return status
    except AlhambraError as exc:
        print(f"alhambra: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (``alhambra modules | head``): stop quietly, like other tools
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except OSError as exc:
        print(f"alhambra: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
