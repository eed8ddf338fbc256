"""Rebuilding a game from its configuration and action log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .errors import ConfigError, IllegalActionError, SaveFormatError

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game


def replay(
    source: Any,
    *,
    players: int | Sequence[str] | None = None,
    modules: Iterable[Any] = (),
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    plugins: Iterable[Any] = (),
    blocked: Iterable[str] = (),
    engine: str = "auto",
) -> Game:
    """Rebuild a game by replaying its actions from the start.

    ``source`` is either a :class:`~alhambra.game.Game` (its ``config`` and ``history``; from
    its start position, ``origin``, when it was built with ``Game.from_position``), the
    JSON text (or parsed dict) of a save (from its ``start_position`` if it has one) (pass the house-rule ``plugins`` it was played with,
    and module objects that are not installed in ``modules``), or a list of actions — then
    ``players``, ``seed`` (required), ``modules``, ``options``, ``plugins`` and ``blocked``
    give the configuration. Because chance comes only
    from the seeded generator, the result equals the original game. Raises
    :class:`~alhambra.errors.IllegalActionError` naming the first action of the history that
    does not fit the replayed game (``history[12] (...)``), and
    :class:`~alhambra.errors.SaveFormatError` for a save that cannot be read. ``engine``: which
    engine replays it, as for :func:`~alhambra.new_game` (``"auto"``, ``"python"``,
    ``"kernel"``); the game returned runs on it.
    """
    from .game import Game, new_game
    from .saving.serialize import check_plugins, history_from_data, read_save, resolve_modules, start_of

    if isinstance(source, Game):  # from its set-up, or from its start position (``origin``)
        game = start_of(source, Game._blank, modules=source.rules.module_objects, plugins=source.rules.plugins)
        actions = source.history
    elif isinstance(source, (str, bytes, dict)):
        data = read_save(source)
        mods = resolve_modules(data.get("modules", []), modules)
        plugins = list(plugins)
        check_plugins(data, plugins)
        start = data.get("start_position")
        if start is not None:  # a game built from a position: replayed from there
            try:
                game = Game.from_position(start, modules=mods, plugins=plugins)
            except ConfigError as exc:
                raise SaveFormatError(f"start_position: {exc}") from None
        else:
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
    game = on_engine(game, engine)
    for i, a in enumerate(actions):
        try:
            game.apply(a)
        except IllegalActionError as exc:
            raise IllegalActionError(f"history[{i}] ({a}) does not fit the replayed game: {exc}") from None
    return game


def on_engine(game: Game, engine: str) -> Game:
    """``game`` on ``engine`` (see :func:`~alhambra.new_game`): a Python game handed to the kernel
    where that engine plays it, a kernel game handed over to Python for ``"python"``."""
    from .game import KernelGame
    from .kernel import use_kernel

    if isinstance(game, KernelGame) and engine == "python":
        return game._to_python()
    if use_kernel(engine, game.rules) and not isinstance(game, KernelGame):
        return KernelGame._adopt_for(engine, game)
    return game


def replay_save(text: str, *, modules: Iterable[Any] = (), plugins: Iterable[Any] = ()) -> Game:
    """The game of the save ``text`` (JSON), its history checked against its saved state:
    ``Game.from_json`` replays the history from the seed (or the save's start position) and
    compares. Raises :class:`~alhambra.errors.SaveFormatError` ``"its history does not lead to
    its saved state (they differ in state.players[0].hand: ...)"`` when the two differ, and
    ``"history[12] (...) does not fit the replayed game: ..."`` for an entry that cannot be
    played there."""
    from .game import Game

    return Game.from_json(text, modules=list(modules), plugins=list(plugins))
