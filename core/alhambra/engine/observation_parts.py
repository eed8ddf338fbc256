"""A plugin's part of the environments' observation tensor (hook ``alhambra_observation_parts``).

The environments of :mod:`alhambra.env` hand each seat a flat ``float32`` vector: the core's
slices, then one part per plugin view entry that the vector shows (``docs/env.md``). A plugin
declares each of its parts with an :class:`ObservationPart`: the slices it adds, how they are
written from the seat's view (the reference, which defines them) and, optionally, how they
are kept up to date from the game's state without building the view (the environments' fast
path, ``alhambra.env.incremental``). The declaration lives here, below the environments, so
that built-in rules (Dirk) and modules declare their parts with the core alone: nothing here
needs numpy, gymnasium or the environments.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from attrs import field, frozen

from ..errors import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


__all__ = ["ObservationLayout", "ObservationPart", "mirrored_part"]


class ObservationLayout(Protocol):
    """The observation layout of one rule set and player count, as a part sees it
    (``alhambra.env.ObservationEncoder`` is one): the indices a part writes at."""

    @property
    def num_players(self) -> int:
        """The number of seats ``n``; a part's per-player rows are in observer-relative order."""

    @property
    def tiles(self) -> tuple[Any, ...]:
        """The tile ids of a tile axis (``T`` entries): the catalogue without the fountain."""

    @property
    def tile_index(self) -> dict[Any, int]:
        """A tile id's index on a tile axis."""

    @property
    def cards(self) -> tuple[Any, ...]:
        """The cards of a card axis (``K`` entries): money cards, then module cards (no scoring cards)."""

    @property
    def card_index(self) -> dict[str, int]:
        """A card's index on a card axis, by its ``code``."""

    @property
    def slots(self) -> int:
        """The cell slots of an Alhambra's block (the ``cities`` slice's second axis)."""

    def city_slots(self, city: Any) -> tuple[tuple[int, int], ...]:
        """The cell slots of an Alhambra (an :class:`alhambra.Alhambra`, or its positions), in
        the order of its rows in ``cities`` (``alhambra.env.city_slots``)."""
        ...


#: ``encode(out, part, view, order, layout)``: write the arrays ``out[name]`` (zeroed, of the
#: declared shapes) from ``part`` (the plugin's view entry), ``view`` (the seat's whole view),
#: ``order`` (the absolute seats in observer-relative order) and ``layout``.
Encode = Callable[[dict[str, "np.ndarray"], Any, dict[str, Any], Sequence[int], ObservationLayout], None]
#: ``snapshot(game, seat, layout, cache) -> value``: what ``seat`` sees of the part now, read
#: from the state.
Snapshot = Callable[[Any, int, ObservationLayout, dict[Any, Any]], Any]  # (game, seat, layout, memo)
#: ``write(out, value, order, layout)``: write the arrays ``out[name]`` (zeroed) from a snapshot's value.
Write = Callable[[dict[str, "np.ndarray"], Any, Sequence[int], ObservationLayout], None]


def _shapes(value: Any) -> dict[str, tuple[int, ...]]:
    if not isinstance(value, Mapping) or not value:
        raise ConfigError(
            f"an observation part's shapes must be a non-empty dict of slice name -> shape, not {value!r}"
        )
    out: dict[str, tuple[int, ...]] = {}
    for name, shape in value.items():
        dims = tuple(shape) if isinstance(shape, (tuple, list)) else None
        if type(name) is not str or not name or not dims or any(type(d) is not int or d < 1 for d in dims):
            raise ConfigError(
                f"an observation part's slice must be a name and a shape of positive ints, not {name!r}: {shape!r}"
            )
        out[name] = dims
    return out


def _high(value: Mapping[str, float]) -> dict[str, float]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"an observation part's high must be a dict of slice name -> bound, not {value!r}")
    return dict(value)


def _check_key(_self: Any, _attr: Any, key: Any) -> None:
    if type(key) is not str or not key:
        raise ConfigError(f"an observation part's key must be a non-empty str (its view key), not {key!r}")


def _check_callable(_self: Any, attr: Any, value: Any) -> None:
    if value is not None and not callable(value):
        raise ConfigError(f"an observation part's {attr.name} must be callable, not {value!r}")


@frozen(slots=True)
class ObservationPart:
    """One part of the observation tensor, declared by the plugin whose view entry it shows
    (hook ``alhambra_observation_parts``; ``docs/env.md``, "Your own module's observation").

    ``key``: the view entry, ``view["modules"][key]`` (or a top-level ``view[key]``, as
    Dirk's); the slices are named ``"<key>.<name>"`` and lie after the core's slices, the
    parts sorted by key. ``shapes``: ``{name: shape}``, in the order of the slices.

    ``encode(out, part, view, order, layout)``: the reference, which defines the slices:
    fill the arrays ``out[name]`` (zeroed, of their shapes) from ``part`` (the view entry, as
    ``view(seat)`` gives it), ``view`` (the seat's whole view), ``order`` (the absolute seats
    in observer-relative order: per-player rows are written at ``k`` for seat ``order[k]``)
    and ``layout`` (:class:`ObservationLayout`, for ``tile_index``, ``card_index``, ...).

    ``snapshot`` and ``write`` (both or neither): how the part is kept up to date from the
    state, without ``view(seat)``. ``snapshot(game, seat, layout, cache)`` returns plain values
    (tuples, numbers, cards; copies, never the state's live lists) that are equal whenever
    ``seat``'s view of the part is the same, holding everything the slices show; it reads only
    what ``view(seat)`` shows. ``cache`` is a dict of this part's own, kept for one game and
    shared by its seats (for counts worth keeping between calls; the state may have changed in
    any way since, so check what a kept value was made from). ``write(out, value, order,
    layout)`` fills the zeroed arrays from a snapshot's ``value``. The environments call
    ``snapshot`` at every observation of a seat and ``write`` only when the value differs from
    the one last written for that seat (the project's property test checks every shipped
    part against ``encode`` at every step of random games; check your own the same way). A
    part without them is written by ``encode`` from ``view(seat)`` at every step, and so is
    every part of its rule set (correct, a few times slower).

    ``high``: ``{name: bound}``, the upper bound of a slice's entries where it is not 200
    (the Gymnasium space's ``high``; every entry is at least 0).
    """

    key: str = field(validator=_check_key)
    shapes: dict[str, tuple[int, ...]] = field(converter=_shapes)
    encode: Encode = field(validator=_check_callable)
    snapshot: Snapshot | None = field(default=None, validator=_check_callable)
    write: Write | None = field(default=None, validator=_check_callable)
    high: dict[str, float] = field(factory=dict, converter=_high)

    def __attrs_post_init__(self) -> None:
        if self.encode is None:
            raise ConfigError(f"observation part {self.key!r}: encode must be callable, not None")
        if (self.snapshot is None) != (self.write is None):
            raise ConfigError(f"observation part {self.key!r}: give both snapshot and write, or neither")
        for name, bound in self.high.items():
            if name not in self.shapes or isinstance(bound, bool) or not isinstance(bound, (int, float)):
                raise ConfigError(
                    f"observation part {self.key!r}: high names a slice and its bound, not {name!r}: {bound!r}"
                )

    @property
    def incremental(self) -> bool:
        """True if the part is kept up to date from the state (``snapshot`` and ``write``)."""
        return self.snapshot is not None


def mirrored_part(
    key: str, shapes: dict[str, tuple[int, ...]], write: Write, snapshot: Snapshot, **kw: Any
) -> ObservationPart:
    """An :class:`ObservationPart` whose ``snapshot`` returns the part's view entry as
    ``view(seat)`` would show it (or the entries its slices read, as plain values), so that
    ``write(out, entry, order, layout)`` fills the slices from either: it is also the part's
    reference ``encode``. ``kw``: the part's other fields (``high``)."""

    def encode(out: Any, part: Any, view: dict[str, Any], order: Sequence[int], layout: ObservationLayout) -> None:
        write(out, part, order, layout)

    return ObservationPart(key, shapes, encode, snapshot, write, **kw)
