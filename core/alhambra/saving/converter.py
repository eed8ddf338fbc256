"""The cattrs converter of saves and positions: cards as their codes, Alhambras as
``[[x, y, tile], ...]``, module states by their declared classes, actions as
``{"type": name, ...fields}``; built once per rule set (:func:`converter_of`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from attrs import fields, resolve_types
from cattrs import BaseValidationError, Converter, transform_error
from cattrs.v import format_exception

from ..engine.city import Alhambra
from ..engine.components import EAST, SOUTH
from ..engine.components import Card
from ..errors import AlhambraError, SaveFormatError, shown
from ..engine.state import GameState

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.protocol import RulesLike


def _is_card_type(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, Card)


def converter_of(rules: RulesLike) -> Converter:
    """The cattrs converter of ``rules`` (:func:`make_converter`), built on first use and kept
    with the rule set."""
    conv: Converter | None = rules.converter_cache
    if conv is None:
        conv = rules.converter_cache = make_converter(rules)
    return conv


def make_converter(rules: RulesLike) -> Converter:
    """A cattrs converter for one rule set: cards as their codes, Alhambras as
    ``[[x, y, tile], ...]``, module states by their declared classes, actions as
    ``{"type": name, ...fields}``."""
    conv = Converter()
    cards = rules.cards

    # strict scalars: a save holding "12" for 12, 3.9 for 3 or "no" for False is malformed
    def strict(kind: type) -> Callable[[Any, Any], Any]:
        def hook(value: Any, _type: Any) -> Any:
            if type(value) is not kind:
                raise SaveFormatError(f"expected {kind.__name__}, not {value!r}")
            return value

        return hook

    for kind in (int, str, bool):
        conv.register_structure_hook(kind, strict(kind))
    holes = rules.options.get("holes", "cell")

    def card_in(value: Any, _type: Any) -> Card:
        if not isinstance(value, str) or value not in cards:
            raise SaveFormatError(f"unknown card {value!r}")
        return cards[value]

    conv.register_unstructure_hook_func(_is_card_type, lambda c: c.code)
    conv.register_structure_hook_func(_is_card_type, card_in)

    def city_out(city: Alhambra) -> list[list[Any]]:
        # sides declared open (city gates, R-GATE-6) follow the tiles as [x, y, side, "open"],
        # each side once (named from its west or north cell); a city without any saves as before
        out: list[list[Any]] = [[x, y, t] for (x, y), t in sorted(city.tiles.items())]
        out += [[x, y, side, "open"] for (x, y), side in sorted(city.open_sides) if side in (EAST, SOUTH)]
        return out

    def city_in(value: Any, _type: Any) -> Alhambra:
        if not isinstance(value, list) or not all(
            isinstance(e, list) and (len(e) == 3 or (len(e) == 4 and e[3] == "open")) for e in value
        ):
            raise SaveFormatError(f'an Alhambra is a list of [x, y, tile] (and [x, y, side, "open"]), not {value!r}')
        try:
            city = Alhambra.from_tiles(
                {(e[0], e[1]): e[2] for e in value if len(e) == 3},
                catalog=rules.catalog,
                holes=holes,
                rules=rules.placement_rules,
                check=False,
            )
            for e in value:
                if len(e) == 4:
                    city.open_side((e[0], e[1]), e[2])
            problem = city.why_invalid()
            if problem:
                raise SaveFormatError(problem)
            return city
        except AlhambraError as exc:
            raise SaveFormatError(f"invalid Alhambra in save: {exc}") from None

    conv.register_unstructure_hook(Alhambra, city_out)
    conv.register_structure_hook(Alhambra, city_in)

    def modules_out(mods: dict[str, Any]) -> dict[str, Any]:
        return {k: conv.unstructure(v, unstructure_as=type(v)) for k, v in mods.items()}

    def modules_in(value: Any, _type: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise SaveFormatError(f"state.modules: the plugins' parts of the state are an object, not {shown(value)}")
        out: dict[str, Any] = {}
        for k, v in value.items():
            cls = rules.state_classes.get(k)
            if cls is None:
                raise SaveFormatError(f"state {k!r} belongs to no enabled plugin")
            if not isinstance(v, dict):
                raise SaveFormatError(
                    f"state.modules.{k}: the {k} part of the state is an object of its fields, not {shown(v)}"
                )
            resolve_types(cls)
            known = [f.name for f in fields(cls)]
            extra = [name for name in v if name not in known]
            if extra:  # cattrs would drop it unread: a misspelt field would load as its default
                raise SaveFormatError(
                    f"state.modules.{k}: {shown(extra[0])} is no field of the {k} part of the state "
                    f"(its fields: {', '.join(known)})"
                )
            out[k] = _structure(conv, v, cls, f"state.modules.{k}")
        return out

    conv.register_unstructure_hook(GameState, _state_out(conv, modules_out))
    conv.register_structure_hook(GameState, _state_in(conv, modules_in))
    return conv


def _state_fields() -> list[tuple[str, Any]]:
    """GameState's fields except ``modules``, with their (resolved) types."""
    from ..engine.state import Pending, PlayerState, ScoringRecord

    for cls in (GameState, PlayerState, Pending, ScoringRecord):
        resolve_types(cls)
    return [(f.name, f.type) for f in fields(GameState) if f.name != "modules"]


def _state_out(
    conv: Converter, modules_out: Callable[[dict[str, Any]], dict[str, Any]]
) -> Callable[[GameState], dict[str, Any]]:
    typed = _state_fields()

    def out(st: GameState) -> dict[str, Any]:
        d = {n: conv.unstructure(getattr(st, n), unstructure_as=t) for n, t in typed}
        d["modules"] = modules_out(st.modules)
        return d

    return out


#: State fields that older saves of the same format version may lack; loading leaves them at
#: their defaults (``pile_sizes``: no pile record, see ``Game.pile_range``).
OPTIONAL_STATE_FIELDS = frozenset({"pile_sizes"})


def _state_in(conv: Converter, modules_in: Callable[[Any, Any], dict[str, Any]]) -> Callable[[Any, Any], GameState]:
    typed = _state_fields()

    def inp(value: Any, _type: Any) -> GameState:
        if not isinstance(value, dict):
            raise SaveFormatError("the state must be an object")
        missing = [n for n, _ in typed if n not in value and n not in OPTIONAL_STATE_FIELDS]
        if missing:
            raise SaveFormatError(f"the state lacks {missing}")
        piles = value.get("pile_sizes", [])
        if not isinstance(piles, list) or not all(type(n) is int for n in piles):
            raise SaveFormatError(f"bad pile record {piles!r}: pile_sizes is a list of pile sizes (integers >= 0)")
        kwargs = {n: _structure(conv, value[n], t, f"state.{n}") for n, t in typed if n in value}
        kwargs["modules"] = modules_in(value.get("modules", {}), None)
        return GameState(**kwargs)

    return inp


def _structure(conv: Converter, value: Any, cls: Any, path: str) -> Any:
    """``conv.structure(value, cls)``; a failure is a :class:`SaveFormatError` naming where
    in the save (``path``, e.g. ``state.players``) and what was wrong."""
    try:
        return conv.structure(value, cls)
    except (SaveFormatError, RecursionError):
        raise
    except Exception as exc:
        raise SaveFormatError(f"bad game state: {_describe(exc, path)}") from None


def _leaf_message(exc: BaseException, type_: Any) -> str:
    """One structuring failure: our own errors say what they found, cattrs' say what it wanted."""
    return str(exc) if isinstance(exc, AlhambraError) else format_exception(exc, type_)


def _describe(exc: Exception, root: str) -> str:
    """What went wrong, for a :class:`SaveFormatError`: cattrs' grouped structuring errors
    become their paths and reasons (``invalid value for type, expected int @
    state.players[0].score``), at most three; anything else its type and message."""
    if isinstance(exc, BaseValidationError):
        found = transform_error(exc, path=root, format_exception=_leaf_message)
        return "; ".join(found[:3]) + (f"; and {len(found) - 3} more" if len(found) > 3 else "")
    return f"{type(exc).__name__}: {exc} @ {root}"
