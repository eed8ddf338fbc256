"""The hut layout as data (R-HUT-1): the 24 huts, their type (colour) and walls.

The shipped layout is ``huts.toml`` in this package (the project's own ruling, see
``COMPONENTS.md``). A user who has the printed huts loads theirs through the option
``building_huts.layout`` (a path to a TOML file with the same structure); it is checked here
and a :class:`~alhambra.ConfigError` says exactly what is wrong.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from functools import lru_cache
from typing import Any
from importlib import resources

from attrs import field, frozen

from alhambra import BUILDING_TYPES, SIDE_BITS, ConfigError, TileSpec, read_data, read_data_file, walls_mask

#: Tile kind of the huts in the tile catalogue (buildings are ``"building"``).
HUT_KIND = "hut"
#: Number of huts per building type (R-HUT-1).
HUT_COUNTS: dict[str, int] = {"pavilion": 3, "seraglio": 3, "arcades": 4, "chambers": 4, "garden": 5, "tower": 5}
TOTAL_HUTS = sum(HUT_COUNTS.values())  # 24
#: the longest hut id: a save's actions hold strings of at most 64 characters
MAX_ID_LENGTH = 64
_SHIPPED = "huts.toml"


def _id_ok(hut: HutRow, _attribute: Any, hid: str) -> None:
    if not hid or len(hid) > MAX_ID_LENGTH:
        raise ConfigError(
            f'id must be a non-empty string of at most {MAX_ID_LENGTH} characters (like "H1"), not {hid!r}'
        )


def _type_ok(hut: HutRow, _attribute: Any, htype: str) -> None:
    if htype not in HUT_COUNTS:
        raise ConfigError(f"hut {hut.id!r}: unknown type {htype!r}; expected one of {list(BUILDING_TYPES)}")


def _walls_ok(hut: HutRow, _attribute: Any, walls: list[str]) -> None:
    where = f"hut {hut.id!r}"
    bad = [w for w in walls if w not in SIDE_BITS]
    if bad:
        raise ConfigError(f"{where}: unknown wall side {bad[0]!r}; expected one of {list(SIDE_BITS)}")
    if len(set(walls)) != len(walls):
        raise ConfigError(f"{where}: a wall side is listed twice in {walls}")
    if not walls:
        raise ConfigError(f"{where} has no wall; every hut has at least one (R-HUT-1)")
    if len(walls) == 4:
        raise ConfigError(f"{where} has walls on all four sides; it could never be reached (R-PLACE-5)")


@frozen(slots=True)
class HutRow:
    """One ``[[huts]]`` table: a non-empty ``id`` of at most :data:`MAX_ID_LENGTH`
    characters, a building ``type`` and its ``walls``, known sides at most once each, at
    least one and not four (R-HUT-1, R-PLACE-5)."""

    id: str = field(validator=_id_ok)
    type: str = field(validator=_type_ok)
    walls: list[str] = field(validator=_walls_ok)


def _huts_ok(layout: HutLayout, _attribute: Any, huts: list[HutRow]) -> None:
    ids = [h.id for h in huts]
    twice = next((h for k, h in enumerate(ids) if h in ids[:k]), None)
    if twice is not None:
        raise ConfigError(f"hut {twice!r} appears twice")
    if len(huts) != TOTAL_HUTS:
        raise ConfigError(f"{len(huts)} huts, but the module has {TOTAL_HUTS} (R-HUT-1)")
    counts = Counter(h.type for h in huts)
    if counts != HUT_COUNTS:
        wrong = ", ".join(f"{t} {counts[t]} (expected {n})" for t, n in HUT_COUNTS.items() if counts[t] != n)
        raise ConfigError(f"wrong number of huts per type: {wrong} (R-HUT-1)")


@frozen(slots=True)
class HutLayout:
    """A layout file: its ``[[huts]]`` tables and nothing else; distinct ids, exactly 24 huts,
    3/3/4/4/5/5 of pavilion, seraglio, arcades, chambers, garden, tower (R-HUT-1)."""

    huts: list[HutRow] = field(validator=_huts_ok)

    def specs(self) -> tuple[TileSpec, ...]:
        """The huts as :class:`~alhambra.TileSpec` values (kind ``"hut"``, price 0), in file order."""
        return tuple(TileSpec(h.id, HUT_KIND, h.type, 0, walls_mask(h.walls)) for h in self.huts)


def parse_layout(data: object, source: str = "hut layout") -> tuple[TileSpec, ...]:
    """Check a parsed layout (``{"huts": [{"id", "type", "walls"}, ...]}``, see
    :class:`HutLayout`) and return its huts as :class:`~alhambra.TileSpec` values, in file
    order. Raises :class:`ConfigError` naming ``source``, the hut and the rule otherwise."""
    return read_data(data, HutLayout, source).specs()


@lru_cache(maxsize=1)
def shipped_layout() -> tuple[TileSpec, ...]:
    """The 24 huts of the shipped layout (``huts.toml``, COMPONENTS.md)."""
    text = resources.files(__package__).joinpath(_SHIPPED).read_text("utf-8")
    return parse_layout(tomllib.loads(text), f"shipped {_SHIPPED}")


#: A layout file is a few kilobytes; anything far larger is refused unread (saves name the file).
MAX_LAYOUT_BYTES = 1_000_000


def load_layout(path: str | None = None) -> tuple[TileSpec, ...]:
    """The huts of the layout file at ``path``, or the shipped layout for ``None``.

    Raises :class:`ConfigError` if the file cannot be read, is not TOML, or breaks a rule of
    :class:`HutLayout` (see :func:`parse_layout`)."""
    if path is None:
        return shipped_layout()
    return read_data_file(path, HutLayout, "hut layout", MAX_LAYOUT_BYTES).specs()


def check_layout_option(value: Any) -> str | None:
    """``check`` of the option ``building_huts.layout``: the problem with ``value``, or None."""
    try:
        load_layout(value)
    except ConfigError as exc:
        return str(exc)
    return None
