"""``alhambra replay FILE --svg DIR``: the Alhambras at each scoring and at the end, as SVG files."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from alhambra import AlhambraError, ConfigError, Game, SaveFormatError, replay
from alhambra.replay import replay_save

from .svg import city_svg


def moments(save: str, *, modules: Iterable[Any] = (), plugins: Iterable[Any] = ()) -> list[tuple[str, Game]]:
    """The game of the save ``save`` (JSON text) at each scoring (R-SCORE-1: right after the
    action that brought it) and at its last action: ``[("scoring-1", game), ...,
    ("end", game)]``, each an independent game. The game is rebuilt from its seed and history
    (``modules`` and ``plugins`` as for :func:`alhambra.replay`) and checked against the saved
    state, as ``alhambra replay`` checks it. Raises :class:`SaveFormatError` for a save that
    is not JSON text or cannot be read, or whose history does not lead to its saved state,
    and :class:`~alhambra.IllegalActionError` naming ``history[i]`` for an entry that does
    not fit the replayed game."""
    modules, plugins = list(modules), list(plugins)
    if not isinstance(save, str):
        raise SaveFormatError(f"moments: a save is its JSON text (Game.to_json()), not {type(save).__name__}")
    try:
        data = json.loads(save)
    except ValueError as exc:
        raise SaveFormatError(f"not a JSON save: {exc}") from None
    if not isinstance(data, dict):
        raise SaveFormatError("a save is a JSON object")
    history = replay_save(save, modules=modules, plugins=plugins).history
    game: Any = replay({**data, "history": []}, modules=modules, plugins=plugins)
    out: list[tuple[str, Game]] = []
    seen = 0
    for action in history:
        game.apply(action)
        done = len(game.view(None)["scorings"])
        while seen < done:
            seen += 1
            out.append((f"scoring-{seen}", game.clone()))
    out.append(("end", game))
    return out


#: The file names of the pictures :func:`write_replay_svgs` and :func:`write_position_svgs`
#: write (and remove when stale).
_OURS = re.compile(r"(scoring-[0-9]+-seat-[0-9]+|end-seat-[0-9]+|position-seat-[0-9]+|position-table)\.svg\Z")


def write_replay_svgs(
    save: str, directory: str | Path, *, modules: Iterable[Any] = (), plugins: Iterable[Any] = ()
) -> list[Path]:
    """Write every Alhambra of the save at each scoring and at the end into ``directory``
    (created if missing): ``scoring-<n>-seat-<i>.svg`` and ``end-seat-<i>.svg``, titled with
    the player's name and points. Pictures of that naming already in the directory (of an
    earlier replay, e.g. with more players or scorings) are removed first, once the save has
    been read; no other file is touched. Returns the paths written, in that order. Raises
    :class:`ConfigError` when ``directory`` is not a non-empty path, :class:`AlhambraError`
    when the directory cannot be made or written, and as :func:`moments` does (nothing is
    written then)."""
    _check_directory(directory)
    return _write(moments(save, modules=modules, plugins=plugins), directory)


def write_position_svgs(game: Game, directory: str | Path) -> list[Path]:
    """``alhambra replay --position FILE --svg DIR``: write every Alhambra of ``game`` (a game
    built from a position) as it stands, ``position-seat-<i>.svg``, and the whole table as a
    spectator sees it, ``position-table.svg``, into ``directory`` (created if missing; stale
    pictures of :func:`write_replay_svgs`'s naming are removed first). Returns the paths
    written; raises as :func:`write_replay_svgs` does."""
    _check_directory(directory)
    from .table import table_svg

    written = _write([("position", game)], directory)
    path = Path(directory) / "position-table.svg"
    _write_text(path, table_svg(game, None))
    return [*written, path]


def _check_directory(directory: Any) -> None:
    if not isinstance(directory, (str, Path)) or not str(directory).strip():
        raise ConfigError(f"write_replay_svgs: the directory is a non-empty path, not {directory!r}")


def _write_text(path: Path, svg: str) -> None:
    try:
        path.write_text(svg, "utf-8")
    except OSError as exc:
        raise AlhambraError(f"cannot write {path}: {exc.strerror or exc}") from None


def _write(found: list[tuple[str, Game]], directory: str | Path) -> list[Path]:
    """Write the Alhambras of each ``(label, game)`` of ``found`` as ``<label>-seat-<i>.svg``
    into ``directory``, after removing the stale pictures of our naming there."""
    target = Path(directory)
    try:
        target.mkdir(parents=True, exist_ok=True)
        for old in target.iterdir():
            if _OURS.match(old.name) and old.is_file():
                old.unlink()
    except OSError as exc:
        raise AlhambraError(
            f"--svg {directory}: cannot make the directory or clear its old pictures: {exc.strerror or exc}"
        ) from None
    written: list[Path] = []
    game: Any
    for label, game in found:
        for i, p in enumerate(game.view(None)["players"]):
            catalog = game.state.players[i].city.catalog
            when = {"end": "at the end", "position": "in the position"}.get(label, f"at {label.replace('-', ' ')}")
            svg = city_svg(
                p["city"], catalog=catalog, title=f"Alhambra of {p['name']} (seat {i}) {when}: {p['score']} points"
            )
            path = target / f"{label}-seat-{i}.svg"
            _write_text(path, svg)
            written.append(path)
    return written
