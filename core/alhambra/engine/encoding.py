"""How the environments write an action kind as integers (:class:`ActionEncoding` and its
fields): plain declarations, which the environments' codec (:mod:`alhambra.env.codec`, where
they are documented with the layout) reads, and which a plugin returns from the hook
``alhambra_action_encodings``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from attrs import field, frozen


def _tuple(values: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(values)


@frozen(slots=True)
class Field:
    """One sub-decision of an action: which of ``values`` its attributes ``attrs`` hold.

    ``values``: tuples, one entry per attribute, in a fixed order (their index is the integer
    within the field's segment). ``shared``: a segment name; fields with the same ``shared``
    name and the same ``values`` use one segment (the cell of a placement, say). Only a field
    that is not the first of its encoding may be shared (the first integer names the kind)."""

    attrs: tuple[str, ...] = field(converter=_tuple)
    values: tuple[tuple[Any, ...], ...] = field(converter=_tuple)
    shared: str | None = None


@frozen(slots=True)
class CellField:
    """A sub-decision that is a cell of the Alhambra of the player to move, attribute ``attr``
    (a position ``(x, y)``, or a pair of attribute names such as ``("x", "y")`` for an action
    that holds the two coordinates apart): one integer per cell slot (:func:`city_slots`, ``slots`` of them,
    the encoding factory's second argument). ``shared``: as for :class:`Field` (the base game's
    placements share ``"cell"``)."""

    attr: str | tuple[str, str]
    slots: int
    shared: str | None = None

    @property
    def name(self) -> str:
        """The attribute's name in segment names: ``"pos"``, or ``"x,y"`` for a pair."""
        return self.attr if isinstance(self.attr, str) else ",".join(self.attr)

    def cell(self, action: Any) -> tuple[int, int]:
        """The cell ``action`` names: its ``attr``, or its two attributes ``(x, y)``."""
        if isinstance(self.attr, str):
            cell: tuple[int, int] = getattr(action, self.attr)
            return cell
        return (getattr(action, self.attr[0]), getattr(action, self.attr[1]))

    def set(self, kw: dict[str, Any], pos: tuple[int, int]) -> None:
        """Write cell ``pos`` into the keyword arguments ``kw`` of the action being decoded."""
        if isinstance(self.attr, str):
            kw[self.attr] = pos
        else:
            kw[self.attr[0]], kw[self.attr[1]] = pos


@frozen(slots=True)
class CardsField:
    """A sub-decision that is a multiset of cards, attribute ``attr`` (a canonical tuple of
    cards, see :func:`alhambra.canonical_cards`): one integer per card of ``cards`` in
    canonical order, then one "done" integer. Never the first field of an encoding."""

    attr: str
    cards: tuple[Any, ...] = field(converter=_tuple)


@frozen(slots=True)
class ActionEncoding:
    """How one action class is written as integers: its ``fields`` in order.

    An action with no fields (``Pass``) is one integer. ``build(**attrs)`` makes the action
    from its attribute values (default: the class itself)."""

    action: type
    fields: tuple[Field | CardsField | CellField, ...] = field(converter=_tuple)
    build: Callable[..., Any] | None = None  # returns an Action
