"""The ``alhambra`` command line: ``simulate``, ``replay``, ``modules``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .config import GameConfig, expand_module_names, load_config, parse_module_list
from .errors import AlhambraError
from .game import Game
from .replay import replay
from .ruleset import available_modules
from .serialize import read_save
from .simulate import result_of, simulate_one


def _parse_options(pairs):
    out = {}
    for pair in pairs or []:
        if "=" not in pair:
            raise AlhambraError(f"--option takes NAME=VALUE, not {pair!r}")
        name, value = pair.split("=", 1)
        try:
            out[name] = json.loads(value)
        except ValueError:
            out[name] = value
    return out


def cmd_simulate(args) -> int:
    cfg = load_config(args.config) if args.config else GameConfig()
    if args.players is not None:
        cfg.players = args.players
    if args.modules is not None:
        cfg.modules = parse_module_list(args.modules)
    cfg.modules = expand_module_names(cfg.modules)
    cfg.options.update(_parse_options(args.option))
    seed0 = args.seed if args.seed is not None else (cfg.seed if cfg.seed is not None else 1)
    modules = cfg.resolved_modules()
    saves = []
    results = []
    start = time.perf_counter()
    for i in range(args.games):
        game = simulate_one(cfg.players, seed0 + i, modules=modules, options=cfg.options)
        r = result_of(game)
        results.append(r)
        if args.save:
            saves.append(game.to_json())
        if not args.quiet:
            print(
                f"game {i + 1} seed {r.seed}: scores {r.scores} winners {r.winners} "
                f"actions {r.actions} scorings {','.join(map(str, r.scorings))}"
            )
    elapsed = time.perf_counter() - start
    _summary(results, elapsed, cfg)
    if args.save:
        Path(args.save).write_text(saves[0] if len(saves) == 1 else "\n".join(saves) + "\n", "utf-8")
        print(f"saved {len(saves)} game(s) to {args.save}")
    return 0


def _summary(results, elapsed, cfg) -> None:
    n = len(results)
    if not n:
        return
    seats = results[0].players
    wins = [0.0] * seats
    for r in results:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    mean = [sum(r.scores[s] for r in results) / n for s in range(seats)]
    actions = sum(r.actions for r in results)
    scorings = {k: sum(k in r.scorings for r in results) for k in (1, 2, 3)}
    used: dict[str, int] = {}
    for r in results:
        for k, v in r.action_counts.items():
            used[k] = used.get(k, 0) + v
    print(f"summary: {n} games, {seats} players, modules {list(results[0].modules) or 'none'}")
    print("  win share per seat: " + ", ".join(f"{w / n:.2f}" for w in wins))
    print("  mean score per seat: " + ", ".join(f"{m:.1f}" for m in mean))
    print(f"  actions per game: {actions / n:.1f}; scorings held: " + ", ".join(f"#{k} in {v}" for k, v in scorings.items()))
    print("  actions by type: " + ", ".join(f"{k} {v}" for k, v in sorted(used.items())))
    print(f"  time {elapsed:.2f}s: {n / elapsed:.1f} games/s, {actions / elapsed:.0f} actions/s")


def _read_saves(path: str) -> list[str]:
    text = Path(path).read_text("utf-8")
    stripped = text.strip()
    try:
        json.loads(stripped)
        return [stripped]
    except ValueError:
        return [line for line in text.splitlines() if line.strip()]


def cmd_replay(args) -> int:
    saves = _read_saves(args.file)
    if not 1 <= args.game <= len(saves):
        raise AlhambraError(f"{args.file} holds {len(saves)} game(s); --game must be 1..{len(saves)}")
    extra = load_config(args.config).module_objects if args.config else []
    data = read_save(saves[args.game - 1])
    game = replay(data, modules=extra)
    print_game(game)
    return 0


def print_game(game: Game) -> None:
    """Print every Alhambra as a text grid with walls, and the scores per scoring."""
    st = game.state
    print(f"{game.num_players} players, modules {list(game.modules) or 'none'}, seed {game.seed}, "
          f"{len(game.history)} actions, {'over' if game.is_over else 'in progress'}")
    for i, p in enumerate(st.players):
        print(f"\n{p.name} (seat {i}): {p.score} points, longest outer wall {p.city.longest_outer_wall()}")
        print(p.city.render())
        print(f"reserve: {p.reserve or 'empty'}")
    if "dirk" in st.modules:
        d = st.modules["dirk"]
        print(f"\nDirk: {d.score} points, buildings {d.tiles}")
    for rec in st.scorings:
        print(f"\nscoring {rec.number}:")
        for k, who in enumerate(rec.participants):
            name = st.players[who].name if who < game.num_players else "Dirk"
            maj = ", ".join(f"{t} {v}" for t, v in rec.majority[k].items() if v)
            extra = "".join(f", {col} {vals[k]}" for col, vals in rec.extra.items() if vals[k])
            print(f"  {name}: majorities [{maj or '-'}], walls {rec.walls[k]}{extra}, total {rec.totals[k]}")
    if game.is_over:
        print(f"\nwinners: {[st.players[w].name for w in game.winners]}")


def cmd_modules(args) -> int:
    found = available_modules()
    if not found:
        print("no modules installed")
    for name in sorted(found):
        mod = found[name].load()
        print(f"{name}: {getattr(mod, 'DESCRIPTION', '').strip()}")
        rules = getattr(mod, "RULES", ())
        if rules:
            print(f"  rules: {', '.join(rules)}")
        opts = mod.alhambra_options() if hasattr(mod, "alhambra_options") else []
        for o in opts or []:
            choices = f" (one of {list(o.choices)})" if o.choices else ""
            print(f"  option {o.name} = {o.default!r}{choices}: {o.doc}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="alhambra", description="Alhambra rules engine: simulate, replay, list modules.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("simulate", help="play full games between random players")
    s.add_argument("--players", type=int, help="number of players, 2-6 (default 4 or the config's)")
    s.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    s.add_argument("--seed", type=int, help="seed of the first game; game k uses seed+k-1 (default 1)")
    s.add_argument("--modules", help="comma-separated module names, or 'all'")
    s.add_argument("--config", help="TOML game configuration (players, modules, options)")
    s.add_argument("--option", action="append", metavar="NAME=VALUE", help="set an option (repeatable)")
    s.add_argument("--save", metavar="FILE", help="save the game(s): one JSON save, or JSON Lines for several")
    s.add_argument("--quiet", action="store_true", help="print only the summary")
    s.set_defaults(func=cmd_simulate)

    r = sub.add_parser("replay", help="replay a saved game and print its Alhambras and scorings")
    r.add_argument("file")
    r.add_argument("--game", type=int, default=1, help="which game of a JSON Lines file (1-based)")
    r.add_argument("--config", help="config whose module_paths provide user modules the save needs")
    r.set_defaults(func=cmd_replay)

    m = sub.add_parser("modules", help="list the installed modules with their rules and options")
    m.set_defaults(func=cmd_modules)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "games", 1) is not None and getattr(args, "games", 1) < 0:
        print("alhambra: error: --games must be >= 0", file=sys.stderr)
        return 2
    try:
        return args.func(args)
    except AlhambraError as exc:
        print(f"alhambra: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"alhambra: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
