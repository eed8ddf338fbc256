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

from alhambra import BUILDING_TYPES, SIDE_BITS, ConfigError, TileSpec, read_toml_file, walls_mask

#: Tile kind of the huts in the tile catalogue (buildings are ``"building"``).
HUT_KIND = "hut"
#: Number of huts per building type (R-HUT-1).
HUT_COUNTS: dict[str, int] = {"pavilion": 3, "seraglio": 3, "arcades": 4, "chambers": 4, "garden": 5, "tower": 5}
TOTAL_HUTS = sum(HUT_COUNTS.values())  # 24
_KEYS = {"id", "type", "walls"}
#: the longest hut id: a save's actions hold strings of at most 64 characters
MAX_ID_LENGTH = 64
_SHIPPED = "huts.toml"


def parse_layout(data: object, source: str = "hut layout") -> tuple[TileSpec, ...]:
    """Check a parsed layout (``{"huts": [{"id", "type", "walls"}, ...]}``) and return its
    huts as :class:`~alhambra.TileSpec` values (kind ``"hut"``, price 0), in file order.

    Rules checked (R-HUT-1): exactly 24 huts; 3/3/4/4/5/5 of pavilion, seraglio, arcades,
    chambers, garden, tower; ids are distinct non-empty strings; walls name known sides
    (north, east, south, west) at most once each; every hut has at least one wall and not
    four. Raises :class:`ConfigError` naming ``source`` and the offending hut otherwise."""
    if not isinstance(data, dict) or "huts" not in data:
        raise ConfigError(f"{source}: expected a list of [[huts]] tables")
    extra = sorted(set(data) - {"huts"})
    if extra:
        raise ConfigError(f"{source}: unknown top-level keys {extra}; only [[huts]] tables are allowed")
    huts = data["huts"]
    if not isinstance(huts, list) or not all(isinstance(h, dict) for h in huts):
        raise ConfigError(f"{source}: 'huts' must be a list of tables ([[huts]])")
    specs: list[TileSpec] = []
    seen: set[str] = set()
    for i, h in enumerate(huts, start=1):
        where = f"{source}: hut #{i}"
        missing = sorted(_KEYS - set(h))
        if missing:
            raise ConfigError(f"{where} lacks {missing} (each hut needs id, type and walls)")
        unknown = sorted(set(h) - _KEYS)
        if unknown:
            raise ConfigError(f"{where} has unknown keys {unknown} (allowed: id, type, walls)")
        hid, htype, walls = h["id"], h["type"], h["walls"]
        if not isinstance(hid, str) or not hid or len(hid) > MAX_ID_LENGTH:
            raise ConfigError(
                f'{where}: id must be a non-empty string of at most {MAX_ID_LENGTH} characters (like "H1"), not {hid!r}'
            )
        where = f"{source}: hut {hid!r}"
        if hid in seen:
            raise ConfigError(f"{where} appears twice")
        seen.add(hid)
        if htype not in HUT_COUNTS:
            raise ConfigError(f"{where}: unknown type {htype!r}; expected one of {list(BUILDING_TYPES)}")
        if not isinstance(walls, list) or not all(isinstance(w, str) for w in walls):
            raise ConfigError(f"{where}: walls must be a list of side names, not {walls!r}")
        bad = [w for w in walls if w not in SIDE_BITS]
        if bad:
            raise ConfigError(f"{where}: unknown wall side {bad[0]!r}; expected one of {list(SIDE_BITS)}")
        if len(set(walls)) != len(walls):
            raise ConfigError(f"{where}: a wall side is listed twice in {walls}")
        if not walls:
            raise ConfigError(f"{where} has no wall; every hut has at least one (R-HUT-1)")
        if len(walls) == 4:
            raise ConfigError(f"{where} has walls on all four sides; it could never be reached (R-PLACE-5)")
        specs.append(TileSpec(hid, HUT_KIND, htype, 0, walls_mask(walls)))
    if len(specs) != TOTAL_HUTS:
        raise ConfigError(f"{source}: {len(specs)} huts, but the module has {TOTAL_HUTS} (R-HUT-1)")
    counts = Counter(str(s.type) for s in specs)
    if counts != HUT_COUNTS:
        wrong = ", ".join(f"{t} {counts[t]} (expected {n})" for t, n in HUT_COUNTS.items() if counts[t] != n)
        raise ConfigError(f"{source}: wrong number of huts per type: {wrong} (R-HUT-1)")
    return tuple(specs)


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
    :func:`parse_layout`."""
    if path is None:
        return shipped_layout()
    return parse_layout(read_toml_file(path, "hut layout", MAX_LAYOUT_BYTES), f"hut layout {path!r}")


def check_layout_option(value: Any) -> str | None:
    """``check`` of the option ``building_huts.layout``: the problem with ``value``, or None."""
    try:
        load_layout(value)
    except ConfigError as exc:
        return str(exc)
    return None
