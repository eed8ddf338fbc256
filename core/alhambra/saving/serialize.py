"""Saving and loading games as JSON through cattrs. Loading never executes anything from the
file: cards and actions are looked up in the rule set's catalogues by name, modules among the
installed ones, and every structure is checked (:class:`SaveFormatError` otherwise)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Iterable, get_origin

from attrs import fields, resolve_types

from ..engine.actions import Action, Pass
from ..errors import AlhambraError, ConfigError, SaveFormatError, shown

from ..engine.state import MAX_PLAYERS, MIN_PLAYERS, GameState, game_seed, player_names
from .converter import OPTIONAL_STATE_FIELDS as OPTIONAL_STATE_FIELDS, _describe, converter_of as converter_of
from .converter import make_converter as make_converter
from .position import start_of as start_of  # kept importable from here
from .validate import check_nesting, validate_game

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.protocol import RulesLike
    from ..engine.protocol import G, GameLike

FORMAT = "alhambra-save"
VERSION = 1
#: The most bytes a file of saves may hold (``alhambra replay FILE``): one save is at most
#: some 35 kB (6 players, every module, a whole game), so this is thousands of games of JSON
#: Lines; a larger file, or one that never ends, is refused after reading one byte more.
MAX_SAVE_FILE_BYTES = 256_000_000


def action_to_data(rules: RulesLike, action: Action) -> dict[str, Any]:
    """An action as plain data: ``{"type": name, ...fields}``."""
    if isinstance(action, Pass):
        return {"type": "Pass"}
    kind = rules.kinds[type(action)]
    data = converter_of(rules).unstructure(action, unstructure_as=type(action))
    return {"type": kind.type_name, **data}


def action_from_data(rules: RulesLike, data: Any) -> Action:
    """The action named by ``data`` (see :func:`action_to_data`); :class:`SaveFormatError` if
    the type is not an action of this rule set or the fields do not fit it."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise SaveFormatError(f"an action is an object with a 'type', not {data!r}")
    data = dict(data)
    name = data.pop("type")
    if name == "Pass":
        if data:
            raise SaveFormatError(f"a Pass action has no fields, not {sorted(data)}")
        return Pass()
    cls = rules.action_types.get(name)
    if cls is None:
        raise SaveFormatError(f"unknown action type {name!r} for modules {list(rules.modules)}")
    for f in fields(resolve_types(cls)):  # cattrs would read "florin-2" as the list of its letters
        value = data.get(f.name)
        if isinstance(value, (str, bytes, dict)) and get_origin(f.type) in (list, tuple):
            raise SaveFormatError(f"bad {name} action {data!r}: {f.name} must be a list, not {value!r}")
    try:
        action: Action = converter_of(rules).structure(data, cls)
        return action
    except SaveFormatError:
        raise
    except Exception as exc:  # cattrs reports structure errors as exception groups
        raise SaveFormatError(f"bad {name} action {data!r}: {_describe(exc, 'action')}") from None


def history_from_data(rules: RulesLike, records: list[Any]) -> list[Action]:
    """The actions of a save's ``history``; a bad one is a :class:`SaveFormatError` that says
    which (``history[12]``)."""
    out = []
    for i, record in enumerate(records):
        try:
            out.append(action_from_data(rules, record))
        except SaveFormatError as exc:
            raise SaveFormatError(f"history[{i}]: {exc}") from None
    return out


def game_to_data(game: GameLike) -> dict[str, Any]:
    """The whole game as plain data (see :func:`game_to_json`)."""
    version, internal, gauss = game._rng.getstate()
    return {
        "format": FORMAT,
        "version": VERSION,
        **game.config,
        "rng": {"version": version, "state": list(internal), "gauss": gauss},
        "state": converter_of(game.rules).unstructure(game.state, unstructure_as=GameState),
        "history": [action_to_data(game.rules, a) for a in game.history],
        **({} if game._origin is None else {"start_position": game._origin}),
    }


def game_to_json(game: GameLike) -> str:
    """The game as JSON text (format ``alhambra-save`` version 1)."""
    return json.dumps(game_to_data(game), separators=(",", ":"))


def read_save(text: Any) -> dict[str, Any]:
    """Parse and check the envelope of a save; :class:`SaveFormatError` if it is not one."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise SaveFormatError("a save file is UTF-8 JSON text") from None
    if isinstance(text, dict):
        data = text
    else:
        if not isinstance(text, str):
            raise SaveFormatError(f"a save is JSON text, not {type(text).__name__}")
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SaveFormatError(f"not JSON: {exc}") from None
        except RecursionError:
            raise SaveFormatError("not a save: JSON nested too deeply") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveFormatError(f"not an alhambra save (expected format {FORMAT!r})")
    if type(data.get("version")) is not int or data.get("version") != VERSION:
        raise SaveFormatError(f"unsupported save version {data.get('version')!r} (this engine reads {VERSION})")
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise SaveFormatError("'players' must be a list of names")
    if not isinstance(data.get("modules", []), list) or not all(isinstance(m, str) for m in data.get("modules", [])):
        raise SaveFormatError("'modules' must be a list of module names")
    if not isinstance(data.get("options", {}), dict):
        raise SaveFormatError("'options' must be an object")
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SaveFormatError("'seed' must be an integer")
    if not isinstance(data.get("history", []), list):
        raise SaveFormatError("'history' must be a list")
    for key in ("blocked", "plugins"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SaveFormatError(f"'{key}' must be a list of names")
    return data


def check_plugins(data: dict[str, Any], plugins: Iterable[Any]) -> None:
    """The house-rule plugins passed must be the ones the save was played with (by name)."""
    from ..engine.ruleset import plugin_name

    given = sorted(plugin_name(p) for p in plugins)
    needed = sorted(data.get("plugins", []))
    if given != needed:
        raise SaveFormatError(
            f"this save was played with plugins {shown(needed)}, but {shown(given)} were passed: "
            "pass the same plugin objects (plugins=[...]) to load or replay it"
        )


def resolve_modules(names: list[str], given: Iterable[Any] = ()) -> list[Any]:
    """Map saved module names to objects: those passed in ``given`` (by ``NAME``) first, then
    the installed entry points. An unknown name is a :class:`SaveFormatError`."""
    from ..engine.ruleset import load_module, module_name

    by_name = {module_name(m): m for m in given}
    out = []
    for n in names:
        if n in by_name:
            out.append(by_name[n])
        else:
            try:
                out.append(load_module(n))
            except AlhambraError as exc:
                raise SaveFormatError(f"the save needs module {shown(n)}: {exc}") from None
    return out


def game_from_json(
    text: Any,
    blank: Callable[[Any, list[str], int], G],  # (rules, names, seed): an empty game
    *,
    modules: Iterable[Any] = (),
    plugins: Iterable[Any] = (),
    check_history: bool = True,
) -> G:
    """Load a game saved by :func:`game_to_json`; see ``Game.from_json``. ``blank(rules,
    names, seed)`` makes the empty game the state is loaded into (``Game._blank``);
    ``check_history``: replay the history and compare (:func:`check_history_leads_to_state`)."""
    from ..rules.ruleset import get_ruleset

    data = read_save(text)
    check_nesting(data, "save")
    mods = resolve_modules(data.get("modules", []), modules)
    plugins = list(plugins)
    check_plugins(data, plugins)
    start = data.get("start_position")
    if start is not None and not isinstance(start, dict):
        raise SaveFormatError(f"start_position: the position the history starts from (a table), not {start!r}")
    try:
        rules = get_ruleset(mods, data.get("options") or {}, plugins=plugins, blocked=data.get("blocked", []))
    except AlhambraError as exc:
        raise SaveFormatError(f"the save's configuration is invalid: {exc}") from None
    if not MIN_PLAYERS <= len(data["players"]) <= MAX_PLAYERS:
        raise SaveFormatError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(data['players'])}")
    try:  # what new_game accepts, and nothing else: names a page can show, a seed >= 0
        player_names(data["players"])
        game_seed(data["seed"])
    except ConfigError as exc:
        raise SaveFormatError(f"the save's configuration is invalid: {exc}") from None
    game = blank(rules, data["players"], data["seed"])
    conv = converter_of(rules)
    try:
        game.state = conv.structure(data.get("state"), GameState)
        rng: Any = data.get("rng")  # not a dict: the TypeError below is a SaveFormatError
        internal = rng["state"]
        if (
            not isinstance(internal, list)
            or len(internal) != 625
            or not all(type(x) is int and 0 <= x < 2**32 for x in internal)
            or not any(internal[:624])
            or rng.get("version") != 3
            or rng.get("gauss") is not None
        ):
            raise SaveFormatError("bad random-generator state")
        game._rng.setstate((3, tuple(internal), None))
        game.history = history_from_data(rules, data.get("history", []))
        game._origin = start
        validate_game(game, data["players"])
        # the state must be playable: list what the player to decide may do, and a view
        game.legal_actions()
        game.view(None)
        if check_history:  # the game its history leads to (the same, with every field an older save lacks)
            game = check_history_leads_to_state(
                game, blank, modules=mods, plugins=plugins, saved_state=data.get("state")
            )
    except SaveFormatError:
        raise
    except RecursionError:
        raise SaveFormatError("the save is nested too deeply") from None
    except Exception as exc:  # cattrs' exception groups, and whatever a broken state raises
        raise SaveFormatError(f"bad game state: {_describe(exc, 'state')}") from None
    return game


def check_history_leads_to_state(
    game: GameLike,
    blank: Callable[[Any, list[str], int], G],  # (rules, names, seed): an empty game
    *,
    modules: Iterable[Any] = (),
    plugins: Iterable[Any] = (),
    saved_state: Any = None,
) -> G:
    """Replay ``game.history`` from where it starts and compare with ``game`` (a loaded save):
    the start is the set-up of the game's configuration and seed (R-SET-1 … R-SET-7), or the
    position ``game.origin`` for a game built with ``Game.from_position``. Only a state that
    its history leads to is accepted: an edited hand, a swapped tile or a history from another
    seed is refused.

    Raises :class:`SaveFormatError` naming the first history entry that cannot be played
    (``history[12] (buy space 3 paying florin-2) does not fit the replayed game: ...``) or,
    when every entry can be, the first part of the state that differs (``its history does not
    lead to its saved state (they differ in state.players[1].hand: ...)``). ``modules``,
    ``plugins``: the objects the save was loaded with; ``saved_state``: the save's ``state``
    as plain data, if known (fields it lacks, as older saves do, are left out of the
    comparison: loading gave them their defaults). Returns the replayed game: equal to
    ``game`` in everything the save holds, and with what an older save lacks as the engine
    has it now (so its own save loads again). Costs a replay of the whole history
    (``benchmarks/load_cost.py``)."""
    replayed = start_of(game, blank, modules=modules, plugins=plugins)
    for i, action in enumerate(game.history):
        try:
            replayed.apply(action)
        except AlhambraError as exc:
            raise SaveFormatError(f"history[{i}] ({action}) does not fit the replayed game: {exc}") from None
    conv = converter_of(game.rules)
    found = first_difference(
        {
            "state": conv.unstructure(replayed.state, unstructure_as=GameState),
            "rng": list(replayed._rng.getstate()[1]),
        },
        {"state": conv.unstructure(game.state, unstructure_as=GameState), "rng": list(game._rng.getstate()[1])},
        saved={"state": saved_state, "rng": None},
    )
    if found is not None:
        path, theirs, ours = found
        raise SaveFormatError(
            f"its history does not lead to its saved state (they differ in {path}: the history gives "
            f"{_short(theirs)}, the save holds {_short(ours)})"
        )
    return replayed


def first_difference(a: Any, b: Any, path: str = "", saved: Any = None) -> tuple[str, Any, Any] | None:
    """The first place (``state.players[1].hand``) where two pieces of plain data differ, with
    both values there; ``None`` if they are equal. ``saved``: the save's own data at this
    place, when known: an object's keys that it lacks (fields older saves do not have, which
    loading leaves at their defaults) are not compared."""
    if a == b:
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        keys = [*a, *(k for k in b if k not in a)]
        if isinstance(saved, dict):
            keys = [k for k in keys if str(k) in saved or k in saved]
        for k in keys:
            if a.get(k) != b.get(k):
                inner = saved.get(k, saved.get(str(k))) if isinstance(saved, dict) else None
                return first_difference(a.get(k), b.get(k), f"{path}.{k}" if path else str(k), inner)
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                inner = saved[i] if isinstance(saved, list) and i < len(saved) else None
                return first_difference(x, y, f"{path}[{i}]", inner)
    return path, a, b


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
