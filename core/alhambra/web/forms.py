"""The new-game form: seats, modules, options, seed and a TOML game config, checked and turned
into :meth:`~alhambra.web.tables.TableStore.create` arguments (:func:`parse_new_game`), and
the modules and options the form offers. Everything wrong is a :class:`BadRequest` saying
what."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from starlette.datastructures import FormData

from .. import MAX_NAME_LENGTH, SEED_LIMIT, ConfigError, available_modules, get_ruleset
from ..errors import shown
from .tables import BOT_KINDS, PERSON, BadRequest, Seat, TableStore, integer_field

MAX_MCTS_BUDGET = 5000
#: characters of a TOML game config sent from the browser (a config takes a few hundred; the
#: TOML reader's time grows faster than the length with deeply dotted keys)
MAX_CONFIG = 20_000


def module_name(module: Any) -> str:
    """A module's ``NAME`` (as saves record it); :class:`ConfigError` when it has none."""
    name = getattr(module, "NAME", None)
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{module!r} is not an Alhambra module: it has no NAME")
    return name


def load_module(name: str) -> Any:
    """The installed module ``name`` (entry point group ``alhambra.modules``)."""
    found = available_modules().get(name)
    if found is None:
        raise ConfigError(f"no module {name!r} is installed")
    return found.load()


def module_choices(store: TableStore) -> list[tuple[str, str]]:
    """``(name, description)`` of every module a new game may enable: the installed ones
    (entry points, including a user's own installed modules) and those loaded by
    ``alhambra play --config``."""
    out: dict[str, str] = {}
    for name in sorted(available_modules()):
        try:
            out[name] = (getattr(load_module(name), "DESCRIPTION", "") or "").strip()
        except Exception:  # noqa: BLE001, S112 -- a broken installed module is left out of the form, not fatal
            continue
    for mod in store.modules:
        out[module_name(mod)] = (getattr(mod, "DESCRIPTION", "") or "").strip()
    return sorted(out.items())


def option_choices(store: TableStore) -> list[Any]:
    """The options the form offers: the base game's and every module's that have a list of
    choices (file options are set with ``alhambra play --config``, not from a browser)."""
    found: list[Any] = [o for group in get_ruleset([]).hook.alhambra_options() for o in group or ()]
    for name, _ in module_choices(store):
        mod = _module_object(store, name)
        declare = getattr(mod, "alhambra_options", None)
        if callable(declare):
            found.extend(declare() or ())
    return [o for o in found if o.choices and not o.path]


def _module_object(store: TableStore, name: str) -> Any:
    for mod in store.modules:
        if module_name(mod) == name:
            return mod
    return load_module(name)


def _bounded_name(name: str, where: str) -> str:
    """``name`` if it has at most :data:`~alhambra.MAX_NAME_LENGTH` characters, the engine's
    limit (``new_game``, positions, saves); else :class:`BadRequest` saying so."""
    if len(name) > MAX_NAME_LENGTH:
        raise BadRequest(
            f"{where}: a name is {len(name)} characters long; a player name has at most {MAX_NAME_LENGTH} characters"
        )
    return name


def parse_new_game(form: FormData, store: TableStore) -> dict[str, Any]:
    """The new-game form as :meth:`TableStore.create` arguments (``seats``, ``modules``,
    ``options``, ``seed``). Fields: ``kind0`` … ``kind5`` (empty, ``person``, ``random``,
    ``greedy``, ``mcts``), ``name0`` …, ``budget0`` … (mcts playouts per decision), ``module``
    (repeated), ``opt:<name>``, ``seed``, and ``config`` (TOML text: ``players``, ``modules``,
    ``options``, ``seed``; it wins over the fields). Raises :class:`BadRequest`."""
    seats = []
    unnamed: dict[str, int] = {}
    for i in range(6):
        kind = str(form.get(f"kind{i}") or "").strip()
        if not kind:
            continue
        if kind != PERSON and kind not in BOT_KINDS:
            raise BadRequest(f"seat {i + 1}: {kind!r} is neither a person nor a bot ({', '.join(BOT_KINDS)})")
        name = _bounded_name(str(form.get(f"name{i}") or "").strip(), f"seat {i + 1}")
        if not name and kind == PERSON:
            name = f"Player {i + 1}"
        elif not name:  # bots of one kind, unnamed: "greedy bot", "greedy bot 2", ...
            unnamed[kind] = unnamed.get(kind, 0) + 1
            name = f"{kind} bot" + (f" {unnamed[kind]}" if unnamed[kind] > 1 else "")
        bot = None
        if kind == "mcts":
            budget = integer_field(str(form.get(f"budget{i}") or "32"), f"seat {i + 1}'s budget")
            if not 1 <= budget <= MAX_MCTS_BUDGET:
                raise BadRequest(f"seat {i + 1}: an mcts budget is 1-{MAX_MCTS_BUDGET} playouts, not {budget}")
            bot = f"mcts:{budget}"
        elif kind != PERSON:
            bot = kind
        seats.append(Seat(name, kind, bot))
    known = dict(module_choices(store))
    modules = [str(m) for m in form.getlist("module")]
    for m in modules:
        if m not in known:
            raise BadRequest(f"unknown module {m!r}; known modules: {', '.join(known) or 'none'}")
    options: dict[str, Any] = {}
    declared = {o.name: o for o in option_choices(store)}
    for key, value in form.multi_items():
        if key.startswith("opt:"):
            name = key[4:]
            if name not in declared:
                raise BadRequest(f"unknown option {name!r}")
            owner = name.split(".", 1)[0] if "." in name else None
            if owner is None or owner in modules:
                choice = next((c for c in declared[name].choices if str(c) == value), None)
                if choice is None:
                    raise BadRequest(
                        f"option {name!r} must be one of {list(declared[name].choices)}, not {shown(value)}"
                    )
                options[name] = choice
    seed_text = str(form.get("seed") or "").strip()
    seed = _seed_field(seed_text) if seed_text else None
    config = str(form.get("config") or "").strip()
    if config:
        seats, modules, options, seed = _apply_config(config, seats, modules, options, seed, known, store)
    if not 2 <= len(seats) <= 6:
        raise BadRequest(f"choose 2 to 6 seats (R-COMP-1), not {len(seats)}")
    if seed is not None and not 0 <= seed < SEED_LIMIT:  # one range everywhere (alhambra.SEED_LIMIT)
        raise BadRequest(f"seed must be from 0 to 2**63 - 1 = {SEED_LIMIT - 1}, not {shown(seed)}")
    return {"seats": seats, "modules": [_module_object(store, m) for m in modules], "options": options, "seed": seed}


def _seed_field(text: str) -> int:
    """The form's seed as an int (any number of digits: the range is checked after)."""
    if not re.fullmatch(r"-?[0-9]{1,40}", text):
        raise BadRequest(f"seed must be an integer from 0 to 2**63 - 1, not {text[:40]!r}")
    return int(text)


def _apply_config(
    text: str,
    seats: list[Seat],
    modules: list[str],
    options: dict[str, Any],
    seed: int | None,
    known: dict[str, str],
    store: TableStore,
) -> tuple[list[Seat], list[str], dict[str, Any], int | None]:
    """A TOML game config from the form over the fields (see :func:`parse_new_game`); at most
    :data:`MAX_CONFIG` characters."""
    if len(text) > MAX_CONFIG:
        raise BadRequest(f"the game config has {len(text)} characters, more than this server reads ({MAX_CONFIG})")
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError) as exc:  # ValueError: an integer too long to read
        raise BadRequest(f"the game config is not valid TOML: {exc}") from None
    except RecursionError:
        raise BadRequest("the game config is not valid TOML: nested too deeply") from None
    unknown = set(data) - {"players", "modules", "options", "seed"}
    if "module_paths" in unknown:
        raise BadRequest(
            "module_paths would run code sent by a browser: start the server with "
            "`alhambra play --config FILE` to load your own modules"
        )
    if unknown:
        raise BadRequest(f"unknown config keys {sorted(unknown)}; known: players, modules, options, seed")
    players = data.get("players")
    if isinstance(players, list) and all(isinstance(n, str) for n in players):
        if len(players) != len(seats):
            raise BadRequest(f"the config names {len(players)} players, the form has {len(seats)} seats")
        for k, (s, n) in enumerate(zip(seats, players)):
            s.name = _bounded_name(n, f"the config's players[{k}]")
    elif isinstance(players, int) and not isinstance(players, bool):
        if players != len(seats):
            raise BadRequest(f"the config is for {players} players, the form has {len(seats)} seats")
    elif players is not None:
        raise BadRequest("'players' must be a number or a list of names")
    if "modules" in data:
        mods = data["modules"]
        if not isinstance(mods, list) or not all(isinstance(m, str) for m in mods):
            raise BadRequest("'modules' must be a list of module names")
        modules = sorted(known) if mods == ["all"] else mods
        for m in modules:
            if m not in known:
                raise BadRequest(f"unknown module {m!r}; known modules: {', '.join(known) or 'none'}")
    if "options" in data:
        if not isinstance(data["options"], dict):
            raise BadRequest("'[options]' must be a table")
        files = {o.name for o in _all_options(store) if o.path}
        for name in data["options"]:
            if name in files:
                raise BadRequest(
                    f"option {name!r} names a file on the server: set it with `alhambra play --config FILE`"
                )
        options = {k: v for k, v in options.items() if k.split(".", 1)[0] in modules or "." not in k}
        options.update(data["options"])
    if "seed" in data:
        if isinstance(data["seed"], bool) or not isinstance(data["seed"], int):
            raise BadRequest("'seed' must be an integer")
        seed = data["seed"]
    return seats, modules, options, seed


def _all_options(store: TableStore) -> list[Any]:
    found: list[Any] = []
    for name, _ in module_choices(store):
        declare = getattr(_module_object(store, name), "alhambra_options", None)
        if callable(declare):
            found.extend(declare() or ())
    return found
