"""Sphinx-style roles in docstrings (``:class:`~alhambra.Game```) as Markdown for the site.

The engine's docstrings were written with reStructuredText roles. mkdocstrings renders Markdown,
where such a role shows as its raw text, so the site turns each role into a mkdocstrings
cross-reference (``[`Game`][alhambra.game.Game]``) when its target is a public object of the
documented packages (one the API reference renders), and into plain code otherwise (private
helpers, the standard library, pluggy). Targets are looked up by importing, relative to the
object whose docstring holds the role, as Sphinx does. A ``text::`` line introducing a literal
block becomes ``text:`` (the indented block after it is already code in Markdown).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

#: ``:role:`target``` or ``:role:`title <target>```; roles: class, func, meth, mod, attr, data,
#: exc, obj, ref (the py: domain prefix is optional).
ROLE = re.compile(r":(?:py:)?(class|func|meth|mod|attr|data|exc|obj|ref|const):`([^`]+)`")
LITERAL_INTRO = re.compile(r"(?m)(\S)::[ \t]*$")


def _import(path: str) -> tuple[ModuleType, list[str]] | None:
    """The longest importable module prefix of ``path`` and the attribute names after it."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            module = importlib.import_module(name)
        except Exception:  # noqa: BLE001 - not importable here (an optional extra missing): not found
            continue
        return module, parts[cut:]
    return None


def lookup(path: str) -> str | None:
    """The documented path of the object named ``path`` (its home, not an alias), or None if
    there is no such object. ``alhambra.Game`` gives ``alhambra.game.Game``."""
    found = _import(path)
    if found is None:
        return None
    module, attrs = found
    obj: Any = module
    home = module.__name__
    for name in attrs:
        owner = obj
        try:
            obj = getattr(obj, name)
        except Exception:  # noqa: BLE001 - no such attribute, or a lazy one whose import fails here
            return None
        home = f"{home}.{name}"
        if isinstance(obj, ModuleType):
            home = obj.__name__
        elif _has_home(obj):
            home = f"{obj.__module__}.{obj.__qualname__}"
        elif isinstance(owner, ModuleType):
            home_module = _defining_module(owner, name, obj)
            if home_module is None:
                return None  # e.g. ``A, B = ...``: no attribute the API reference documents
            home = f"{home_module}.{name}"
    return home


def _has_home(obj: Any) -> bool:
    """Whether ``obj`` is a class or function that names its own module and qualified name."""
    qual = getattr(obj, "__qualname__", None)
    mod = getattr(obj, "__module__", None)
    return (
        (isinstance(obj, type) or inspect.isroutine(obj))
        and isinstance(qual, str)
        and isinstance(mod, str)
        and "<" not in qual
    )


def assigned_names(node: ast.stmt, unpacked: bool = True) -> list[str]:
    """The names a top-level statement assigns: ``A = ...``, ``A: T = ...`` and, if
    ``unpacked``, ``A, B = ...``."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    else:
        return []
    out: list[str] = []
    for t in targets:
        elts = t.elts if unpacked and isinstance(t, (ast.Tuple, ast.List)) else [t]
        out.extend(e.id for e in elts if isinstance(e, ast.Name))
    return out


def _assigned(module: ModuleType, unpacked: bool = False) -> frozenset[str]:
    """The names a module assigns at its top level (``A = ...``, ``A: T = ...``; with
    ``unpacked``, also ``A, B = ...``)."""
    key = (module.__name__, unpacked)
    if key not in _ASSIGNED:
        names: set[str] = set()
        try:
            tree = ast.parse(inspect.getsource(module))
        except (OSError, TypeError, SyntaxError):
            tree = ast.Module(body=[], type_ignores=[])
        for node in tree.body:
            names.update(assigned_names(node, unpacked=unpacked))
        _ASSIGNED[key] = frozenset(names)
    return _ASSIGNED[key]


_ASSIGNED: dict[tuple[str, bool], frozenset[str]] = {}


def _defining_module(owner: ModuleType, name: str, obj: Any, unpacked: bool = False) -> str | None:
    """The module of ``owner``'s package that assigns ``name`` on its own (a re-exported
    constant's home), or None if no module does (names bound by unpacking a tuple, which the
    API reference does not list, unless ``unpacked``; names bound by an import from elsewhere)."""
    top = owner.__name__.split(".")[0]
    for mod_name, mod in sorted(sys.modules.items()):
        ours = (mod_name == top or mod_name.startswith(top + ".")) and isinstance(mod, ModuleType)
        if ours and mod.__dict__.get(name) is obj and name in _assigned(mod, unpacked):
            return mod.__name__  # an alias entry of sys.modules names the module's own place
    return None


def home_module(module: str, name: str) -> str | None:
    """The module of the package that binds ``module.name`` itself, tuple unpacking included
    (``alhambra.EAST`` -> the components module), or None."""
    found = _import(module)
    if found is None or found[1]:
        return None
    owner = found[0]
    try:
        value = getattr(owner, name)
    except Exception:  # noqa: BLE001 - as in lookup
        return None
    return _defining_module(owner, name, value, unpacked=True)


def is_rendered(path: str, packages: Iterable[str]) -> bool:
    """Whether the API reference shows ``path``: inside a documented package, no private part."""
    parts = path.split(".")
    if parts[0] not in set(packages):
        return False
    return not any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in parts)


def _candidates(target: str, scope: str) -> list[str]:
    """Where ``target`` may live, seen from the object ``scope`` (dotted path), nearest first."""
    if target.startswith("."):
        found = _import(scope)
        if found is None:
            return []
        module = found[0]
        package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
        dots = len(target) - len(target.lstrip("."))
        # ``.plugin`` means the sibling module (in a package's docstring: its submodule);
        # each further dot goes one package up
        root = package.split(".")[: max(1, package.count(".") + 2 - dots)]
        return [".".join(root + [target.lstrip(".")])]
    scopes = scope.split(".")
    out = [".".join(scopes[:cut] + [target]) for cut in range(len(scopes), 0, -1)]
    return out + [target]


def resolve(target: str, scope: str, packages: Iterable[str]) -> str | None:
    """The documented path ``target`` names from ``scope``, if the API reference renders it."""
    packages = tuple(packages)
    for cand in _candidates(target, scope):
        home = lookup(cand)
        if home is not None:
            return home if is_rendered(home, packages) else None
    return None


def convert(text: str, scope: str, packages: Iterable[str]) -> str:
    """``text`` with every role turned into a cross-reference or plain code (see the module)."""
    packages = tuple(packages)

    def one(match: re.Match[str]) -> str:
        body = match.group(2).strip()
        title = None
        explicit = re.fullmatch(r"(.*?)\s*<([^>]+)>", body)
        if explicit:
            title, body = explicit.group(1), explicit.group(2)
        short = body.startswith("~")
        target = body.lstrip("~")
        if title is None:
            title = target.rsplit(".", 1)[-1] if short else target.lstrip(".")
        home = resolve(target, scope, packages) if match.group(1) != "ref" else None
        return f"[`{title}`][{home}]" if home else f"`{title}`"

    return LITERAL_INTRO.sub(r"\1:", ROLE.sub(one, text))
