"""A game to play, as plain picklable data: what :mod:`alhambra.simulate` hands its workers and
:mod:`alhambra.lab.rotation` builds line-up by line-up."""

from __future__ import annotations

from typing import Any

from attrs import frozen


@frozen
class SimTask:
    """One game to play: everything a worker process needs, as plain picklable data.

    ``modules`` are module names: installed ones, or ones defined by the files of the game
    configuration at ``config_path`` (its ``module_paths``). ``save``: also return the game's
    JSON save. ``rotation`` and ``variant`` are copied into the result record. ``honest``:
    the bots decide on determinized worlds (:func:`alhambra.simulate.play`). ``engine``: which engine plays the
    game (``new_game``'s keyword: ``"auto"``, ``"python"`` or ``"kernel"``)."""

    index: int
    seed: int
    players: Any
    modules: tuple[Any, ...] = ()
    options: tuple[tuple[str, Any], ...] = ()
    bots: tuple[str, ...] = ()
    config_path: str | None = None
    save: bool = False
    rotation: int = 0
    variant: str = ""
    honest: bool = False
    engine: str = "auto"
