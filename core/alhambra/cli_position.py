"""``alhambra replay --position FILE``: load a position (docs/positions.md), check it, and print
it: every Alhambra, the scores, who decides now and their legal actions; with ``--svg DIR``, its
Alhambras and table as SVG files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game


def cmd_replay_position(args: Any) -> int:
    """Print the position in ``args.position`` (a ``.toml`` or ``.json`` file); the modules of
    ``args.config`` (its ``module_paths``) are available to it. Raises :class:`ConfigError`
    naming the file for a position that is malformed or that no game can reach."""
    from .saving.config import load_config
    from .game import Game

    extra = load_config(args.config).module_objects if args.config else []
    svg = getattr(args, "svg", None)
    if svg is not None and not svg.strip():
        raise ConfigError("--svg needs a directory, not an empty name")
    path = Path(args.position)
    try:
        game = Game.from_position(path, modules=extra)
    except ConfigError as exc:
        message = str(exc)
        raise ConfigError(message if message.startswith(str(path)) else f"{path}: {message}") from None
    print_game(game)
    if not game.is_over:
        seat = game.current_player
        name = game.state.players[seat].name if seat is not None else "nobody"
        actions = game.legal_actions()
        print(
            f"\nphase {game.phase!r}, turn {game.state.turn}: {name} (seat {seat}) decides, "
            f"{len(actions)} legal action(s):"
        )
        for a in actions[:40]:
            print(f"  {a}")
        if len(actions) > 40:
            print(f"  … and {len(actions) - 40} more")
    if svg is not None:
        from .render import write_position_svgs

        paths = write_position_svgs(game, svg)
        print(f"\nwrote {len(paths)} SVG file(s) to {svg}")
    return 0


def print_game(game: Game) -> None:
    """Print every Alhambra as a text grid with walls, and the scores per scoring."""
    st = game.state
    print(
        f"{game.num_players} players, modules {list(game.rules.modules) or 'none'}, seed {game.seed}, "
        f"{len(game.history)} actions, {'over' if game.is_over else 'in progress'}"
    )
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
