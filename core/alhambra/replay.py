"""Rebuilding a game from its configuration and action log."""

from __future__ import annotations

from typing import Any, Iterable

from .errors import ConfigError, IllegalActionError, SaveFormatError


def replay(
    source: Any,
    *,
    players=None,
    modules: Iterable = (),
    seed: int | None = None,
    options: dict | None = None,
    plugins: Iterable = (),
    blocked: Iterable[str] = (),
):
    """Rebuild a game by replaying its actions from the start.

    ``source`` is either a :class:`~alhambra.game.Game` (its ``config`` and ``history``), the
    JSON text (or parsed dict) of a save (pass the house-rule ``plugins`` it was played with,
    and module objects that are not installed in ``modules``), or a list of actions — then
    ``players``, ``seed`` (required), ``modules``, ``options``, ``plugins`` and ``blocked``
    give the configuration. Because chance comes only
    from the seeded generator, the result equals the original game. Raises
    :class:`~alhambra.errors.IllegalActionError` naming the first action of the history that
    does not fit the replayed game (``history[12] (...)``), and
    :class:`~alhambra.errors.SaveFormatError` for a save that cannot be read.
    """
    from .game import Game, new_game
    from .saving.serialize import check_plugins, history_from_data, read_save, resolve_modules

    if isinstance(source, Game):
        cfg = source.config
        game = new_game(
            cfg["players"],
            modules=source.rules.module_objects,
            seed=cfg["seed"],
            options=cfg["options"],
            plugins=source.rules.plugins,
            blocked=source.rules.blocked,
        )
        actions = source.history
    elif isinstance(source, (str, bytes, dict)):
        data = read_save(source)
        mods = resolve_modules(data.get("modules", []), modules)
        plugins = list(plugins)
        check_plugins(data, plugins)
        game = new_game(
            data["players"],
            modules=mods,
            seed=data["seed"],
            options=data.get("options") or {},
            plugins=plugins,
            blocked=data.get("blocked", []),
        )
        actions = history_from_data(game.rules, data.get("history", []))
    else:
        if players is None or seed is None:
            raise ConfigError("replaying a list of actions needs players= and seed=")
        game = new_game(players, modules=modules, seed=seed, options=options, plugins=plugins, blocked=blocked)
        actions = list(source)
    for i, a in enumerate(actions):
        try:
            game.apply(a)
        except IllegalActionError as exc:
            raise IllegalActionError(f"history[{i}] ({a}) does not fit the replayed game: {exc}") from None
    return game


def replay_save(text: str, *, modules: Iterable = (), plugins: Iterable = ()):
    """The game of the save ``text`` (JSON), rebuilt from its seed and history and checked
    against its saved state: ``Game.from_json`` reads the state, :func:`replay` rebuilds it.
    Raises :class:`~alhambra.errors.SaveFormatError` ``"its history does not lead to its saved
    state (they differ in state.players)"`` when the two differ, and what those two raise
    (an :class:`IllegalActionError` naming ``history[i]`` for an entry that does not fit)."""
    from .game import Game

    modules, plugins = list(modules), list(plugins)
    saved = Game.from_json(text, modules=modules, plugins=plugins)
    game = replay(text, modules=modules, plugins=plugins)
    if game.to_json() != saved.to_json():
        raise SaveFormatError(
            f"its history does not lead to its saved state (they differ in {_first_difference(game, saved)})"
        )
    return game


def _first_difference(a: Any, b: Any) -> str:
    """The first top-level part of the save (``state.players``, ``rng``, …) where two games differ."""
    import json

    da, db = json.loads(a.to_json()), json.loads(b.to_json())
    for k in da["state"]:  # the state first: it says most
        if da["state"][k] != db["state"].get(k):
            return f"state.{k}"
    for key in da:
        if da[key] != db.get(key):
            return key
    return "the order of their fields"
