"""A module's data file read onto attrs classes: the file's shape is declared once, as the
classes' fields (types) and their attrs validators (rules), and cattrs structures the parsed
TOML onto them (:func:`read_data`, :func:`read_data_file`).

Every failure is a :class:`~alhambra.ConfigError` naming the file and the place in it
(``huts #3.walls``: the key ``walls`` of the third ``[[huts]]`` table, counted from 1): a
missing key, an unknown one, a value of the wrong type (no conversion: ``"2"`` is not an
integer, ``"west"`` is not a list), or a validator's refusal, which says the rule itself."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
from cattrs import ClassValidationError, Converter, ForbiddenExtraKeysError, IterableValidationError
from cattrs.cols import is_sequence, list_structure_factory
from cattrs.gen import make_dict_structure_fn

from ..errors import AlhambraError, ConfigError, shown
from .files import read_toml_file

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable

T = TypeVar("T")
#: How many of a file's problems one refusal lists.
SHOWN_PROBLEMS = 3
_KINDS = {str: "a string", int: "an integer", float: "a number", bool: "true or false"}


def read_data(data: Any, cls: type[T], what: str) -> T:
    """``data`` (parsed TOML: tables, arrays, strings, numbers) structured onto the attrs
    class ``cls``: a table's keys are exactly the fields (a key with a default may be left
    out), each value of the field's type (``str``, ``int``, ``float``, ``bool``, ``list[X]``,
    ``tuple[X, ...]``, another attrs class), and the fields' validators pass (they raise
    :class:`~alhambra.ConfigError` saying the rule). Raises :class:`ConfigError`
    ``"<what>: <place>: <problem>"`` otherwise, up to :data:`SHOWN_PROBLEMS` problems."""
    try:
        return _converter().structure(data, cls)
    except (ClassValidationError, IterableValidationError) as exc:
        found = _problems(exc, "")
    except (AlhambraError, ForbiddenExtraKeysError) as exc:  # a check of the outermost table
        found = [_problem(exc, "")]
    more = f"; and {len(found) - SHOWN_PROBLEMS} more" if len(found) > SHOWN_PROBLEMS else ""
    raise ConfigError(f"{what}: " + "; ".join(found[:SHOWN_PROBLEMS]) + more) from None


def read_data_file(path: Any, cls: type[T], what: str, limit: int = 1_000_000) -> T:
    """The TOML data file at ``path`` (read by :func:`~alhambra.read_toml_file`, at most
    ``limit`` bytes) structured onto ``cls`` by :func:`read_data`; every refusal names
    ``what`` and ``path`` (``hut layout '/home/me/huts.toml': huts #3.walls: ...``)."""
    return read_data(read_toml_file(path, what, limit), cls, f"{what} {path!r}")


def _problems(exc: BaseException, place: str) -> list[str]:
    """The problems of a cattrs validation error, each with its place (keys joined by ``.``,
    a list's items as ``#n``, from 1)."""
    if isinstance(exc, ClassValidationError):
        noted, other = exc.group_exceptions()
        notes = [(e, f"{place}.{n.name}" if place else n.name) for e, n in noted]
    elif isinstance(exc, IterableValidationError):
        noted_items, other = exc.group_exceptions()
        notes = [
            (e, f"{place} #{n.index + 1}" if isinstance(n.index, int) else f"{place}.{n.index}") for e, n in noted_items
        ]
    else:
        return [_problem(exc, place)]
    return [_problem(e, place) for e in other] + [p for e, at in notes for p in _problems(e, at)]


def _problem(exc: BaseException, place: str) -> str:
    """One problem at ``place`` (``""``: the file's outermost table)."""
    if isinstance(exc, ForbiddenExtraKeysError):
        allowed = ", ".join(f.name for f in attrs.fields(exc.cl))
        text = f"unknown keys {sorted(exc.extra_fields)} (allowed: {allowed})"
    elif isinstance(exc, KeyError):
        text = "a required key is missing"
    elif isinstance(exc, AlhambraError):
        text = str(exc)
    else:
        text = f"{type(exc).__name__}: {exc}"
    return f"{place}: {text}" if place else text


def _exactly(kind: type, name: str) -> Callable[[Any, Any], Any]:
    """A structure hook taking a value of exactly ``kind`` as it is (no conversion)."""

    def hook(value: Any, _type: Any) -> Any:
        if type(value) is not kind:
            raise ConfigError(f"expected {name}, not {shown(value)}")
        return value

    return hook


def _shaped(kind: type, name: str, inner: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """A structure hook refusing anything but a ``kind`` (a string is not a list) before
    ``inner`` structures it."""

    def hook(value: Any, type_: Any) -> Any:
        if not isinstance(value, kind):
            raise ConfigError(f"expected {name}, not {shown(value)}")
        return inner(value, type_)

    return hook


@lru_cache(maxsize=1)
def _converter() -> Converter:
    """The data files' converter: exact scalars, lists for sequences, tables with exactly the
    class's keys, every problem collected."""
    conv = Converter(forbid_extra_keys=True, detailed_validation=True)
    for kind, name in _KINDS.items():
        conv.register_structure_hook(kind, _exactly(kind, name))
    conv.register_structure_hook_factory(is_sequence, lambda t: _shaped(list, "a list", _sequence(conv, t)))
    conv.register_structure_hook_factory(
        attrs.has, lambda cl: _shaped(dict, "a table", make_dict_structure_fn(cl, conv, _cattrs_forbid_extra_keys=True))
    )
    return conv


def _sequence(conv: Converter, type_: Any) -> Callable[[Any, Any], Any]:
    """cattrs' own structuring of a list (or a tuple: the list made one)."""
    if getattr(type_, "__origin__", None) is tuple:
        items = list_structure_factory(list[type_.__args__[0]], conv)
        return lambda value, _t: tuple(items(value, _t))
    return list_structure_factory(type_, conv)
