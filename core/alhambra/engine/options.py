"""Configuration options declared by plugins (base rules and modules)."""

from __future__ import annotations

from typing import Any, Callable

from attrs import frozen

from ..errors import ConfigError, shown


@frozen(slots=True)
class Option:
    """One option a plugin understands.

    ``name``: ``"holes"`` for base rules, ``"<module>.<name>"`` for a module's option.
    ``default``: used when the game config does not set it. ``choices``: the allowed values, or
    ``None`` for a free value checked by ``check`` (a callable returning an error sentence or
    ``None``). With neither, a value must have the type of a ``bool``, ``int``, ``float`` or
    ``str`` default (an ``int`` passes for a ``float``; a ``bool`` never for a number), so a
    house rule's ``Option("x.points", 1, ...)`` refuses ``"x"`` with a :class:`ConfigError`
    instead of failing mid-game. ``rule``: the rule id the option flips. ``doc``: one line for ``alhambra modules``.
    ``path``: the value names a file; a relative path given in a TOML game configuration is
    taken relative to that file (as ``module_paths`` are), not to the working directory.
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    rule: str | None = None
    check: Callable[[Any], str | None] | None = None
    path: bool = False

    def validate(self, value: Any) -> Any:
        """Return ``value`` if allowed, else raise :class:`ConfigError` naming the choices."""
        if self.choices is not None and value not in self.choices:
            raise ConfigError(f"option {self.name!r} must be one of {list(self.choices)}, not {shown(value)}")
        if self.check is not None:
            try:
                problem = self.check(value)
            except ValueError:  # a message that printed an integer too long to print
                problem = f"not {shown(value)}"
            if problem:
                raise ConfigError(f"option {self.name!r}: {problem}")
        elif self.choices is None and not _same_kind(self.default, value):
            raise ConfigError(
                f"option {self.name!r} must be {_KIND_WORDS.get(type(self.default), 'of the kind of')} "
                f"like its default {self.default!r}, not {shown(value)}"
            )
        return value


#: how an error names the kind of a plain default
_KIND_WORDS = {bool: "true or false", int: "an integer", float: "a number", str: "text"}


def _same_kind(default: Any, value: Any) -> bool:
    """Is ``value`` of the kind of a plain ``bool``/``int``/``float``/``str`` default (any value
    is, for another default such as ``None``)?"""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, (int, float)):
        wanted = (int, float) if isinstance(default, float) else int
        return isinstance(value, wanted) and not isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str)
    return True


def resolve_options(declared: list[Option], given: dict[str, Any] | None) -> dict[str, Any]:
    """Merge ``given`` over the declared defaults; raise :class:`ConfigError` for an unknown
    option (listing the known ones) or a bad value."""
    by_name = {o.name: o for o in declared}
    out = {o.name: o.default for o in declared}
    for name, value in (given or {}).items():
        if type(name) is not str:
            raise ConfigError(f"an option's name is text, not {shown(name)}")
        if name not in by_name:
            module = name.split(".", 1)[0] if "." in name else None
            hint = f" (an option of the module {shown(module)}? enable it with the game's modules)" if module else ""
            raise ConfigError(f"unknown option {shown(name)}{hint}; known options: {sorted(by_name)}")
        out[name] = by_name[name].validate(value)
    return out
