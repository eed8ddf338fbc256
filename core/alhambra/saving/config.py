"""Game configuration files (TOML): players, modules, options, and the user's own modules.

Example (``examples/all_modules.toml``)::

    players = 4
    modules = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]
    module_paths = ["golden_fountain.py"]   # a user's own module file, relative to this file

    [options]
    holes = "region"
    # "building_huts.layout" = "my_huts.toml"  # file options are relative to this file too

``modules`` are names of installed modules (entry-point group ``alhambra.modules``) or of the
modules loaded from ``module_paths``; ``"all"`` enables every installed module. Loading a
config imports the Python files it names (a config is code you chose to run); loading a saved
game never does.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable

from attrs import define, field

from ..errors import ConfigError
from ..engine.ruleset import available_modules, load_module, module_name
from ..engine.state import game_seed

KNOWN_KEYS = {"players", "modules", "module_paths", "options", "seed"}


@define(slots=True)
class GameConfig:
    """A game configuration: ``players`` (count or names), ``modules`` (names),
    ``options`` (dict), ``seed`` (int or None), ``module_objects`` (loaded user modules)."""

    players: int | list[str] = 4
    modules: list[str] = field(factory=list)
    options: dict[str, Any] = field(factory=dict)
    seed: int | None = None
    module_objects: list[Any] = field(factory=list)

    def resolved_modules(self) -> list[Any]:
        """Module objects for :func:`alhambra.new_game`: user modules by their NAME, the rest
        from the installed entry points. ``"all"`` expands to every installed module."""
        users = {module_name(m): m for m in self.module_objects}
        names = expand_module_names(self.modules)
        return [users[n] if n in users else load_module(n) for n in names]


def expand_module_names(names: Iterable[str]) -> list[str]:
    """Expand ``"all"`` into every installed module name (sorted); keep other names in order."""
    out: list[str] = []
    for n in names:
        for m in sorted(available_modules()) if n == "all" else [n]:
            if m not in out:
                out.append(m)
    return out


def parse_module_list(text: str | None) -> list[str]:
    """``"vizier,bonus_cards"`` -> ``["vizier", "bonus_cards"]``; empty or None -> ``[]``."""
    if not text:
        return []
    return [part.strip() for part in text.split(",") if part.strip()]


def load_module_file(path: str | Path) -> ModuleType:
    """Import a Python file that defines a module (``NAME`` and hook implementations)."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"module file {str(path)!r} does not exist")
    name = f"alhambra_user_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ConfigError(f"cannot import module file {str(path)!r}")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception as exc:
        del sys.modules[name]
        raise ConfigError(f"module file {str(path)!r} failed to load: {type(exc).__name__}: {exc}") from None
    module_name(mod)  # must have a NAME
    return mod


def load_config(path: str | Path) -> GameConfig:
    """Read a TOML game configuration; :class:`ConfigError` says what is wrong with it."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {str(path)!r} does not exist") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, ValueError) as exc:  # ValueError: an integer too long
        raise ConfigError(f"config file {str(path)!r} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"config file {str(path)!r} is nested too deeply") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {str(path)!r}: {exc.strerror or exc}") from None
    unknown = set(data) - KNOWN_KEYS
    if unknown:
        raise ConfigError(f"unknown config keys {sorted(unknown)}; known keys: {sorted(KNOWN_KEYS)}")
    players = data.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, (int, list)):
        raise ConfigError("'players' must be a number or a list of names")
    modules = data.get("modules", [])
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        raise ConfigError("'modules' must be a list of module names")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ConfigError("'[options]' must be a table")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ConfigError("'seed' must be an integer")
    if seed is not None:
        game_seed(seed)  # the range every entry point accepts (refused here, at the door)
    paths = data.get("module_paths", [])
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise ConfigError("'module_paths' must be a list of file paths")
    objs = [load_module_file(path.parent / p) for p in paths]
    installed = available_modules()
    named = set(expand_module_names(modules))
    for p, obj in zip(paths, objs):
        name = module_name(obj)
        if name in installed:
            raise ConfigError(
                f"module_paths: {p} defines module {name!r}, which clashes with the installed module "
                f"{name!r} ({installed[name].value}); give yours another NAME"
            )
        if name not in named:
            raise ConfigError(
                f"module_paths: {p} defines module {name!r}, which 'modules' does not name "
                f"({sorted(named)}): add it there or drop the path"
            )
    config = GameConfig(players=players, modules=list(modules), options=dict(options), seed=seed, module_objects=objs)
    config.options = resolve_path_options(config.options, config.resolved_modules(), path.parent)
    return config


def resolve_path_options(options: dict[str, Any], plugins: Iterable[Any], base: str | Path) -> dict[str, Any]:
    """``options`` with the value of every option that ``plugins`` declare with ``path=True``
    (:func:`path_options`, e.g. ``building_huts.layout``) made absolute against ``base`` when
    it is a relative path (the directory of the config or position file it was read from); a
    new dict, the other values as they were."""
    out = dict(options)
    for name in path_options(plugins):
        value = out.get(name)
        if isinstance(value, str) and value and not Path(value).is_absolute():
            out[name] = os.path.abspath(Path(base) / value)
    return out


def path_options(modules: Iterable[Any]) -> set[str]:
    """The names of the options that ``modules`` (module objects) declare with ``path=True``:
    their relative values in a config file are relative to that file."""
    names: set[str] = set()
    for plugin in modules:
        declare = getattr(plugin, "alhambra_options", None)
        if callable(declare):
            names.update(o.name for o in (declare() or ()) if getattr(o, "path", False))
    return names
