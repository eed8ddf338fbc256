"""``alhambra replay FILE --svg DIR``: the Alhambras at each scoring and at the end, as SVG files."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from alhambra import AlhambraError, Game, SaveFormatError, replay

from .svg import city_svg


def moments(save: str, *, modules: Iterable[Any] = (), plugins: Iterable[Any] = ()) -> list[tuple[str, Game]]:
    """The game of the save ``save`` (JSON text) at each scoring (R-SCORE-1: right after the
    action that brought it) and at its last action: ``[("scoring-1", game), ...,
    ("end", game)]``, each an independent game. The game is rebuilt from its seed and history
    (``modules`` and ``plugins`` as for :func:`alhambra.replay`). Raises
    :class:`SaveFormatError` for a save that cannot be read, and what :func:`alhambra.replay`
    raises for one whose history does not fit."""
    modules, plugins = list(modules), list(plugins)
    try:
        data = json.loads(save)
    except ValueError as exc:
        raise SaveFormatError(f"not a JSON save: {exc}") from None
    if not isinstance(data, dict):
        raise SaveFormatError("a save is a JSON object")
    loaded: Any = Game.from_json(save, modules=modules, plugins=plugins)
    history = loaded.history
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


def write_replay_svgs(save: str, directory: str | Path, *, modules: Iterable[Any] = (),
                      plugins: Iterable[Any] = ()) -> list[Path]:
    """Write every Alhambra of the save at each scoring and at the end into ``directory``
    (created if missing): ``scoring-<n>-seat-<i>.svg`` and ``end-seat-<i>.svg``, titled with
    the player's name and points. Returns the paths written, in that order. Raises
    :class:`AlhambraError` when the directory cannot be made or written, and as
    :func:`moments` does."""
    target = Path(directory)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AlhambraError(f"--svg {directory}: cannot make the directory: {exc.strerror or exc}") from None
    written: list[Path] = []
    game: Any
    for label, game in moments(save, modules=modules, plugins=plugins):
        for i, p in enumerate(game.view(None)["players"]):
            catalog = game.state.players[i].city.catalog
            when = "at the end" if label == "end" else f"at {label.replace('-', ' ')}"
            svg = city_svg(p["city"], catalog=catalog,
                           title=f"Alhambra of {p['name']} (seat {i}) {when}: {p['score']} points")
            path = target / f"{label}-seat-{i}.svg"
            try:
                path.write_text(svg, "utf-8")
            except OSError as exc:
                raise AlhambraError(f"cannot write {path}: {exc.strerror or exc}") from None
            written.append(path)
    return written
