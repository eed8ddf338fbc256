"""The base game's rule sets: :class:`Ruleset` and :func:`get_ruleset` with the built-in
plugins of :mod:`alhambra.rules` (:data:`BUILTINS`).

The engine's :class:`alhambra.engine.ruleset.Ruleset` resolves any plugins against any hook
specifications; this layer, which holds the rules, names the ones of the base game: the
hook specifications of :mod:`alhambra.hookspec`, the built-in plugins (``core.setup``,
``core.turn`` … as listed in :data:`~alhambra.engine.ruleset.BUILTIN_PLUGINS`), the built-in
purchase rule and the built-in placement rules. Nothing is entered anywhere when a module is
imported: the rule set is handed what it is built on.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

import pluggy

from .. import hookspec
from ..engine import ruleset as _engine
from ..engine.ruleset import Builtins, _frozen, _thawed
from ..errors import ConfigError
from . import dirk, end, placement, placement_rules, purchase, redesign, scoring, setup, turn

#: The base game's hook specifications, built-in plugins (in registration order: core.purchase
#: before core.turn, so that its Buy kind is listed after core.turn's TakeMoney, as ever),
#: built-in purchase rule and built-in placement rules.
BUILTINS = Builtins(
    specs=hookspec,
    plugins=(
        ("core.setup", setup),
        ("core.purchase", purchase),
        ("core.turn", turn),
        ("core.redesign", redesign),
        ("core.placement", placement),
        ("core.scoring", scoring),
        ("core.end", end),
        ("core.dirk", dirk),
    ),
    purchase=purchase.BASE_PURCHASE_RULE,
    placement=placement_rules.BASE_RULES,
)


@lru_cache(maxsize=1)
def installed_hook() -> Any:
    """The hooks of every installed module that loads, registered in the canonical order (a
    ``pluggy`` hook relay), for tools that work without a game: a picture of a saved view
    or of an Alhambra's tiles asks the modules that could have put something there."""
    pm = pluggy.PluginManager(BUILTINS.specs.PROJECT)
    pm.add_hookspecs(BUILTINS.specs)
    found = []
    for name in _engine.available_modules():
        try:
            found.append(_engine.load_module(name))
        except (ConfigError, ImportError):  # a broken module draws nothing
            continue
    for module in _engine.canonical_order(found):
        pm.register(module, name=_engine.module_name(module))
    return pm.hook


class Ruleset(_engine.Ruleset):
    """The resolved plugins of one game configuration, on the base game's built-in plugins
    (:data:`BUILTINS`); see :class:`alhambra.engine.ruleset.Ruleset` for the arguments and
    attributes."""

    def __init__(
        self,
        modules: Iterable[Any] = (),
        options: dict[str, Any] | None = None,
        *,
        plugins: Iterable[Any] = (),
        blocked: Iterable[str] = (),
    ):
        super().__init__(modules, options, plugins=plugins, blocked=blocked, builtins=BUILTINS)


@lru_cache(maxsize=64)
def _cached(
    modules: tuple[Any, ...],
    options: tuple[tuple[str, str, Any], ...],
    plugins: tuple[Any, ...],
    blocked: tuple[str, ...],
) -> Ruleset:
    return Ruleset(modules, {name: _thawed(value) for name, _kind, value in options}, plugins=plugins, blocked=blocked)


def get_ruleset(
    modules: Iterable[Any] = (),
    options: dict[str, Any] | None = None,
    *,
    plugins: Iterable[Any] = (),
    blocked: Iterable[str] = (),
) -> Ruleset:
    """A (cached) :class:`Ruleset` for this configuration; see :class:`Ruleset` for arguments."""
    if isinstance(modules, str):
        raise ConfigError("modules must be a list of module names, not a string")
    for label, value in (("modules", modules), ("plugins", plugins), ("blocked", blocked)):
        if value is None or isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            raise ConfigError(f"{label} must be a list, not {value!r}")
    if options is not None and not isinstance(options, dict):
        raise ConfigError(f"options must be a dict of option values, not {options!r}")
    try:
        # each value with its repr: 2, 2.0 and True (or (3, 4) and (3.0, 4.0)) are equal as keys
        # but not the same option value (one may be refused where the other is not); a list
        # (a save's JSON gives every sequence as one) is keyed frozen and given to the rule set
        # as a copy, so that equal games share one rule set and the caller keeps its list
        key_opts = tuple(sorted((name, repr(value), _frozen(value)) for name, value in (options or {}).items()))
        hash(key_opts)
        return _cached(tuple(modules), key_opts, tuple(plugins), tuple(sorted(blocked)))
    except (TypeError, ValueError):  # unhashable values or module objects, a value too long to print: afresh
        return Ruleset(modules, options, plugins=plugins, blocked=blocked)
