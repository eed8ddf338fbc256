"""Which plugin an exception came from: the name ``Game.apply`` reports in a
:class:`~alhambra.errors.PluginError`.

The traceback is read from the innermost frame outwards. A frame belongs to a plugin when it
runs one of the plugin's hook implementations, a function of a plugin that is a module (an
action kind's ``apply``, a helper), or a method of a plugin object. The innermost frame of a
plugin that is not built-in is blamed (a house rule that passes a bad value to a built-in
rule's function is the culprit, not the built-in); without one, the innermost built-in's.
"""

from __future__ import annotations

import types
from typing import Any

from .ruleset import Ruleset, plugin_name


def _code_of(function: Any) -> types.CodeType | None:
    code = getattr(function, "__code__", None)
    if code is None:
        code = getattr(getattr(function, "__func__", None), "__code__", None)
    return code if isinstance(code, types.CodeType) else None


def _registered_name(rules: Ruleset, plugin: Any) -> str:
    """The name a plugin is known by: a built-in's or a module's registration name, else the
    name saves record for a house rule (its ``NAME``, else its class name)."""
    name = rules.pm.get_name(plugin)
    if name in rules.builtins or name in rules.modules:
        return str(name)
    return plugin_name(plugin)


def culprit(rules: Ruleset, exc: BaseException) -> tuple[str, str] | None:
    """``(plugin name, where)`` for the plugin of ``rules`` whose code raised ``exc``:
    ``where`` is the hook whose implementation was running (``alhambra_after_scoring``), or
    the plugin's function that raised when no hook implementation of that plugin was on the
    way (an action kind's ``apply``). ``None`` when no plugin's code is in the traceback."""
    hooks: dict[types.CodeType, tuple[str, str]] = {}
    modules: dict[int, str] = {}  # id of a plugin module's globals -> plugin name
    objects: dict[int, str] = {}  # id of a plugin object -> plugin name
    for plugin in rules.pm.get_plugins():
        name = _registered_name(rules, plugin)
        if isinstance(plugin, types.ModuleType):
            modules[id(vars(plugin))] = name
        else:
            objects[id(plugin)] = name
        for caller in rules.pm.get_hookcallers(plugin) or ():
            for impl in caller.get_hookimpls():
                code = _code_of(impl.function)
                if impl.plugin is plugin and code is not None:
                    hooks[code] = (name, caller.name)
    # the functions a plugin hands the engine: its action kinds' and its phases'
    offered: dict[types.CodeType, str] = {}
    callers: tuple[tuple[Any, tuple[str, ...]], ...] = (
        (rules.hook.alhambra_action_kinds, ("legal", "apply", "check")),
        (rules.hook.alhambra_phases, ("after_placement",)),
    )
    for caller, parts in callers:
        for impl in caller.get_hookimpls():
            try:
                given: Any = impl.function() or ()
            except Exception:  # a plugin failing here failed when the rule set was made
                continue
            for item in given:
                for part in parts:
                    code = _code_of(getattr(item, part, None))
                    if code is not None:
                        offered.setdefault(code, _registered_name(rules, impl.plugin))
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    found: list[tuple[str, str, bool]] = []  # innermost first: (plugin, function, is a hook)
    for frame in reversed(frames):
        code = frame.f_code
        if code in hooks:
            found.append((*hooks[code], True))
            continue
        owner_name = offered.get(code) or modules.get(id(frame.f_globals))
        if owner_name is None:
            owner = frame.f_locals.get("self")
            owner_name = objects.get(id(owner)) if owner is not None else None
        if owner_name is not None:
            found.append((owner_name, code.co_qualname, False))
    if not found:
        return None
    outside = [f for f in found if f[0] not in rules.builtins]
    name = (outside or found)[0][0]
    mine = [f for f in found if f[0] == name]
    hook = next((f for f in mine if f[2]), mine[0])
    return name, hook[1]
