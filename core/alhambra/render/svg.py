"""SVG pictures of one Alhambra, the building market and rows of cards.

Every function here is a pure function of plain data (an :class:`~alhambra.Alhambra` or the
parts of ``Game.view(seat)``) and returns the text of one standalone ``<svg>`` element. The
element ids, classes and data attributes are a stable interface (the web app and the tests
read them); ``docs/render.md`` lists them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from alhambra import (
    CURRENCIES,
    EAST,
    FOUNTAIN,
    NORTH,
    SOUTH,
    WEST,
    Alhambra,
    ConfigError,
    TileCatalog,
    TileSpec,
)

from alhambra.engine.components import known_card
from alhambra.rules.ruleset import installed_hook

from .palette import BUILDING_FILL, BUILDING_INK, COLOURS_MISC, CURRENCY_FILL, FONT

SVG_NS = "http://www.w3.org/2000/svg"
#: The base game's tile catalogue: the fountain and the 54 buildings (R-COMP-1, R-COMP-2).
BASE_CATALOG: TileCatalog = Alhambra().catalog
Pos = tuple[int, int]

#: Side of one Alhambra cell in SVG user units (pixels at scale 1).
CELL = 64
#: Thickness of a drawn wall, as a fraction of the cell.
WALL_FRACTION = 0.13
#: Width and height of a drawn card.
CARD_W, CARD_H = 46, 66

#: (wall bit, side name, (dx, dy) towards the neighbour on that side)
_SIDES: tuple[tuple[int, str, Pos], ...] = (
    (NORTH, "north", (0, -1)),
    (EAST, "east", (1, 0)),
    (SOUTH, "south", (0, 1)),
    (WEST, "west", (-1, 0)),
)


# -- XML-safe text and the checks of the input (every public function's arguments) ----------

#: A character XML 1.0 cannot hold (outside its ``Char`` production): control characters,
#: lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: An attribute name this package writes (``data-*``): ASCII letters, digits, ``_ . -``.
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9._-]*\Z")
#: The farthest cell drawn from the fountain, as the engine's grid (``GRID_LIMIT``).
POS_LIMIT = 1000
#: The largest side of a cell, tile or card drawn, in SVG user units.
SIZE_LIMIT = 10_000


def xml_safe(s: str) -> str:
    """``s`` with every character XML 1.0 cannot hold replaced by U+FFFD. Every text and
    attribute value of every picture passes here (in :func:`el`), so the output always parses
    and encodes as UTF-8, whatever names, titles or codes it is given."""
    return _NOT_XML.sub("\ufffd", s)


def _short(v: object) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def check_str(where: str, name: str, v: object, *, optional: bool = False) -> None:
    """:class:`ConfigError` ``"<where>: <name> must be a string"`` unless ``v`` is a str
    (or ``None`` when ``optional``)."""
    if not (isinstance(v, str) or (optional and v is None)):
        raise ConfigError(f"{where}: {name} must be a string{' or None' if optional else ''}, not {_short(v)}")


def check_size(where: str, name: str, v: object) -> float:
    """``v`` as a float: a number (not a bool) from 1 to :data:`SIZE_LIMIT`; else ConfigError."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not (1 <= v <= SIZE_LIMIT):
        raise ConfigError(f"{where}: {name} must be a number from 1 to {SIZE_LIMIT}, not {_short(v)}")
    return float(v)


def check_catalog(where: str, catalog: object) -> TileCatalog | None:
    """``catalog`` when it is a :class:`~alhambra.TileCatalog` or ``None``; else ConfigError."""
    if catalog is not None and not isinstance(catalog, TileCatalog):
        raise ConfigError(
            f"{where}: catalog must be a TileCatalog (game.state.players[0].city.catalog), not {_short(catalog)}"
        )
    return catalog


def check_codes(where: str, name: str, codes: object) -> list[str]:
    """``codes`` as a list of card codes: a list or tuple of strings, a money card's value a
    short number (R-COMP-3); else ConfigError naming the entry."""
    if not isinstance(codes, (list, tuple)):
        raise ConfigError(f"{where}: {name} must be a list of card codes (such as 'florin-7'), not {_short(codes)}")
    for i, code in enumerate(codes):
        if not isinstance(code, str):
            raise ConfigError(
                f"{where}: {name}[{i}]: cards are given by their codes (such as 'florin-7'), not {_short(code)}"
            )
        parts = code.split("-")
        if len(parts) == 2 and parts[0] in CURRENCY_FILL and parts[1].isdigit() and not _short_number(parts[1]):
            raise ConfigError(f"{where}: {name}[{i}] {_short(code)} is no money card: values are 1-9 (R-COMP-3)")
    return list(codes)


def _short_number(digits: str) -> bool:
    return digits.isascii() and digits.isdigit() and len(digits) <= 3


def check_highlight(where: str, highlight: object) -> list[Pos]:
    """``highlight`` as a list of (x, y) int cells within :data:`POS_LIMIT`; else ConfigError."""
    if highlight is None:
        return []
    if isinstance(highlight, (str, bytes, Mapping)) or not isinstance(highlight, Iterable):
        raise ConfigError(f"{where}: highlight takes a list of (x, y) cells, not {_short(highlight)}")
    out: list[Pos] = []
    for p in highlight:
        try:
            ok = len(p) == 2 and type(p[0]) is int and type(p[1]) is int
        except (TypeError, IndexError, KeyError):
            ok = False
        if not ok:
            raise ConfigError(f"{where}: highlight takes (x, y) int pairs, not {_short(p)}")
        if max(abs(p[0]), abs(p[1])) > POS_LIMIT:
            raise ConfigError(f"{where}: highlight cell {_short(p)} lies beyond {POS_LIMIT} cells of the fountain")
        out.append((p[0], p[1]))
    return out


# -- small builders -------------------------------------------------------------------------


def _num(v: float) -> str:
    """A coordinate as short text: ``12``, ``12.5``."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def el(tag: str, parent: ET.Element | None = None, text: str | None = None, **attrs: Any) -> ET.Element:
    """An SVG element (``parent``'s last child when given); ``attrs`` with ``_`` for ``-`` in
    names (``data_x`` -> ``data-x``, ``class_`` -> ``class``), numbers shortened, ``None`` left out."""
    a = {}
    for k, v in attrs.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        a[name] = _num(v) if isinstance(v, float) else xml_safe(str(v))
    e = ET.Element(tag, a) if parent is None else ET.SubElement(parent, tag, a)
    if text is not None:
        e.text = xml_safe(text)
    return e


def svg_root(width: float, height: float, css_class: str, title: str, *, id: str | None = None) -> ET.Element:
    """A standalone ``<svg>`` of ``width`` x ``height`` user units with an accessible
    ``<title>`` first (``role="img"``, ``aria-label`` the same text)."""
    root = el(
        "svg",
        xmlns=SVG_NS,
        width=float(width),
        height=float(height),
        viewBox=f"0 0 {_num(width)} {_num(height)}",
        class_=f"alh-svg {css_class}",
        id=id,
        role="img",
        aria_label=title,
        font_family=FONT,
    )
    el("title", root, title)
    return root


def to_text(root: ET.Element) -> str:
    """The SVG text of ``root`` (UTF-8 without an XML declaration, ready to inline in HTML)."""
    return ET.tostring(root, encoding="unicode")


def text(
    parent: ET.Element,
    x: float,
    y: float,
    s: str,
    *,
    size: float = 12,
    fill: str | None = None,
    anchor: str = "middle",
    weight: str | None = None,
    **attrs: Any,
) -> ET.Element:
    """A text element centred (``anchor``) on ``x`` with its baseline adjusted to ``y``."""
    return el(
        "text",
        parent,
        s,
        x=float(x),
        y=float(y),
        font_size=float(size),
        fill=fill or COLOURS_MISC["ink"],
        text_anchor=anchor,
        dominant_baseline="central",
        font_weight=weight,
        **attrs,
    )


# -- tiles ----------------------------------------------------------------------------------


def tile_label(spec: TileSpec, price: int | None = None) -> str:
    """Words for a tile, as in its ``<title>``: ``"pavilion, price 2, walls north, east"``;
    with ``price`` (the price paid, R-TURN-3) other than the printed one:
    ``"pavilion, price 3 (printed 2), ..."``."""
    if spec.kind == "fountain":
        return "Lion Fountain"
    walls = [name for bit, name, _ in _SIDES if spec.walls & bit]
    wall_words = f"walls {', '.join(walls)}" if walls else "no walls"
    if spec.kind == "building":
        if price is not None and price != spec.price:
            return f"{spec.type}, price {price} (printed {spec.price}), {wall_words}"
        return f"{spec.type}, price {spec.price}, {wall_words}"
    return f"{spec.type} {spec.kind} {spec.id}, {wall_words}"


def draw_tile(
    parent: ET.Element,
    spec: TileSpec,
    x0: float,
    y0: float,
    size: float,
    *,
    hut_value: int | None = None,
    label: str | None = None,
    price: int | None = None,
    **data: Any,
) -> ET.Element:
    """Draw ``spec`` as a ``<g class="alh-tile ...">`` in the square at ``(x0, y0)`` of side
    ``size``: the type's colour, the price (buildings), a hut mark (huts; with ``hut_value``
    printed), the fountain's basin; its own walls as ``<rect class="alh-wall">`` with
    ``data-side``. ``data`` become ``data-*`` attributes of the group and of each wall.
    ``price``: the price paid for a building on a market space (R-TURN-3), drawn and in
    ``data-price`` instead of the printed one, which is then kept as ``data-printed-price``."""
    paid = spec.price if price is None else price
    kind = spec.kind
    cls = f"alh-tile alh-{kind}" + (f" alh-type-{spec.type}" if spec.type else "")
    walls = ",".join(name for bit, name, _ in _SIDES if spec.walls & bit)
    g = el(
        "g",
        parent,
        class_=cls,
        data_tile=spec.id,
        data_kind=kind,
        data_type=spec.type or "fountain",
        data_price=paid if kind == "building" else None,
        data_printed_price=spec.price if kind == "building" and paid != spec.price else None,
        data_walls=walls,
        data_hut_value=hut_value,
        **data,
    )
    el("title", g, label or tile_label(spec, paid))
    fill = BUILDING_FILL.get(spec.type or "", COLOURS_MISC["fountain"])
    ink = BUILDING_INK.get(spec.type or "", COLOURS_MISC["ink"])
    pad = size * 0.02
    el(
        "rect",
        g,
        x=x0 + pad,
        y=y0 + pad,
        width=size - 2 * pad,
        height=size - 2 * pad,
        rx=size * 0.06,
        fill=fill,
        stroke=COLOURS_MISC["tile-edge"],
        stroke_width=max(1.0, size / 48),
    )
    cx, cy = x0 + size / 2, y0 + size / 2
    if kind == "fountain":
        el(
            "circle",
            g,
            cx=cx,
            cy=cy,
            r=size * 0.3,
            fill=COLOURS_MISC["fountain-water"],
            stroke=COLOURS_MISC["tile-edge"],
            stroke_width=max(1.0, size / 64),
        )
        el("circle", g, cx=cx, cy=cy, r=size * 0.13, fill="#ffffff", fill_opacity=0.85)
        el("circle", g, cx=cx, cy=cy, r=size * 0.05, fill=COLOURS_MISC["fountain-water"])
    elif kind == "building":
        # a dome and door, faint, so that the price reads first
        el("path", g, d=_arch_path(cx, y0 + size * 0.2, size * 0.62, size * 0.62), fill=ink, fill_opacity=0.16)
        text(g, cx, cy - size * 0.02, str(paid), size=size * 0.36, fill=ink, weight="bold", class_="alh-price")
        text(g, cx, y0 + size * 0.78, spec.type or "", size=size * 0.13, fill=ink, class_="alh-type-name")
    else:  # a module's tile, e.g. a building hut (R-HUT-1): a hut mark with what it counts as
        el(
            "rect",
            g,
            x=x0 + size * 0.14,
            y=y0 + size * 0.14,
            width=size * 0.72,
            height=size * 0.72,
            fill="none",
            stroke=ink,
            stroke_width=max(1.0, size / 40),
            stroke_dasharray=f"{_num(size / 12)}",
            rx=size * 0.05,
        )
        hx, hy, hw = cx, cy - size * 0.02, size * 0.4
        el(
            "path",
            g,
            class_="alh-hut-mark",
            fill=ink,
            fill_opacity=0.85,
            d=f"M{_num(hx - hw / 2)},{_num(hy)} L{_num(hx)},{_num(hy - hw * 0.55)} L{_num(hx + hw / 2)},{_num(hy)} "
            f"L{_num(hx + hw / 2)},{_num(hy + hw * 0.5)} L{_num(hx - hw / 2)},{_num(hy + hw * 0.5)} Z",
        )
        if hut_value is not None:
            text(g, cx, y0 + size * 0.8, f"counts {hut_value}", size=size * 0.13, fill=ink, class_="alh-hut-value")
    t = size * WALL_FRACTION
    for bit, name, _ in _SIDES:
        if spec.walls & bit:
            x, y, w, h = {
                "north": (x0, y0, size, t),
                "south": (x0, y0 + size - t, size, t),
                "west": (x0, y0, t, size),
                "east": (x0 + size - t, y0, t, size),
            }[name]
            el(
                "rect",
                g,
                class_="alh-wall",
                data_side=name,
                x=x,
                y=y,
                width=w,
                height=h,
                fill=COLOURS_MISC["wall"],
                **data,
            )
    return g


def _arch_path(cx: float, top: float, w: float, h: float) -> str:
    """A building's outline: a dome on a block, ``w`` wide and ``h`` high from ``top``."""
    left, right, base = cx - w / 2, cx + w / 2, top + h
    shoulder = top + h * 0.42
    return (
        f"M{_num(left)},{_num(base)} L{_num(left)},{_num(shoulder)} "
        f"Q{_num(left)},{_num(top)} {_num(cx)},{_num(top)} Q{_num(right)},{_num(top)} {_num(right)},{_num(shoulder)} "
        f"L{_num(right)},{_num(base)} Z"
    )


# -- one Alhambra -----------------------------------------------------------------------------


def city_tiles(
    city: Alhambra | Mapping[Pos, int | str] | Iterable[Sequence[Any]], where: str = "city_svg"
) -> dict[Pos, int | str]:
    """``{(x, y): tile id}`` of an Alhambra given as an :class:`~alhambra.Alhambra`, a mapping,
    or a view's ``[[x, y, tile], ...]`` list; the fountain at ``(0, 0)`` is added when missing.
    Raises :class:`ConfigError` (``"<where>: ..."``) for anything else."""
    if isinstance(city, Alhambra):
        return dict(city.tiles)
    shape = f"{where}: an Alhambra is an Alhambra, {{(x, y): tile}} or [[x, y, tile], ...], not {_short(city)}"
    if isinstance(city, (str, bytes)) or not isinstance(city, (Mapping, Iterable)):
        raise ConfigError(shape)
    entries = list(city.items()) if isinstance(city, Mapping) else list(city)
    out: dict[Pos, int | str] = {}
    for entry in entries:
        try:
            if isinstance(city, Mapping):
                (x, y), t = entry[0], entry[1]
                ok = len(entry[0]) == 2
            else:
                x, y, t = entry[0], entry[1], entry[2]
                ok = len(entry) == 3
        except (TypeError, IndexError, KeyError, ValueError):
            raise ConfigError(shape) from None
        if not ok:
            raise ConfigError(f"{where}: an Alhambra's cells are (x, y) with a tile, not {_short(entry)}")
        if type(x) is not int or type(y) is not int:
            raise ConfigError(f"{where}: cell positions are int pairs, not {_short((x, y))}")
        out[(x, y)] = t
    out.setdefault((0, 0), FOUNTAIN)
    return out


def _catalog_of(city: object, catalog: TileCatalog | None) -> TileCatalog:
    if catalog is not None:
        return catalog
    return city.catalog if isinstance(city, Alhambra) else BASE_CATALOG


def _spec(catalog: TileCatalog, tile: int | str) -> TileSpec:
    try:
        if type(tile) is not int and type(tile) is not str:  # not True for 1
            raise TypeError
        return catalog[tile]
    except (KeyError, TypeError):
        raise ConfigError(
            f"tile {tile!r} is not in the tile catalogue: pass catalog= (a module's tiles, "
            f"such as huts, are in the game's: game.state.players[0].city.catalog)"
        ) from None


def hut_values(tiles: Mapping[Pos, int | str], catalog: TileCatalog) -> dict[Pos, int]:
    """What each building hut of an Alhambra counts as (R-HUT-5), by position, as the
    installed modules say (``alhambra_tile_values``); empty when no hut stands there."""
    kinds = {p: getattr(catalog.get(t), "kind", None) for p, t in tiles.items()}
    if "hut" not in kinds.values():
        return {}
    city = Alhambra.from_tiles(tiles, catalog=catalog, check=False)
    out: dict[Pos, int] = {}
    for found in installed_hook().alhambra_tile_values(city=city):
        out.update(found or {})
    return out


def city_element(
    city: Alhambra | Mapping[Pos, int | str] | Iterable[Sequence[Any]],
    *,
    catalog: TileCatalog | None = None,
    highlight: Iterable[Pos] | None = None,
    huts: Mapping[Pos, int] | bool = True,
    title: str | None = None,
    prefix: str = "city",
    cell: float = CELL,
    frontier: bool = False,
    where: str = "city_svg",
    open_sides: Iterable[Sequence[Any]] | None = None,
) -> ET.Element:
    """:func:`city_svg` as an element (for composing pictures); same arguments (``where``: the
    public function named in errors)."""
    check_catalog(where, catalog)
    check_str(where, "title", title, optional=True)
    check_str(where, "prefix", prefix)
    cell = check_size(where, "cell", cell)
    if not (isinstance(huts, bool) or isinstance(huts, Mapping)):
        raise ConfigError(f"{where}: huts is True, False or {{(x, y): value}}, not {_short(huts)}")
    tiles = city_tiles(city, where)
    cat = _catalog_of(city, catalog)
    try:
        specs = {p: _spec(cat, t) for p, t in tiles.items()}
        if not isinstance(city, Alhambra):  # the same checks whatever the tiles (R-COMP-1, R-COMP-2)
            Alhambra.from_tiles(tiles, catalog=cat, check=False)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if huts is True:
        huts = hut_values(tiles, cat)
    marked: list[Pos] = []
    for q in check_highlight(where, highlight):
        if q in tiles:
            raise ConfigError(f"{where}: cannot highlight {q}: a tile stands there (only empty cells are highlighted)")
        if q not in marked:
            marked.append(q)
    empty = list(marked)
    if frontier:
        beside = {(x + dx, y + dy) for x, y in tiles for _, _, (dx, dy) in _SIDES}
        empty += sorted((beside - set(tiles)) - set(marked), key=lambda q: (q[1], q[0]))
    cells = list(tiles) + empty
    xs = [p[0] for p in cells]
    ys = [p[1] for p in cells]
    margin = cell * 0.25
    x_min, y_min = min(xs), min(ys)
    width = (max(xs) - x_min + 1) * cell + 2 * margin
    height = (max(ys) - y_min + 1) * cell + 2 * margin
    n = sum(1 for s in specs.values() if s.kind != "fountain")
    words = title or f"Alhambra of {n} tile{'s' if n != 1 else ''} around the Lion Fountain"
    root = svg_root(width, height, "alh-city", words, id=prefix)
    el(
        "rect",
        root,
        x=0,
        y=0,
        width=float(width),
        height=float(height),
        rx=cell * 0.12,
        fill=COLOURS_MISC["panel"],
        class_="alh-background",
    )

    def origin(p: Pos) -> tuple[float, float]:
        return margin + (p[0] - x_min) * cell, margin + (p[1] - y_min) * cell

    lit = set(marked)
    for q in empty:
        x0, y0 = origin(q)
        on = q in lit
        r = el(
            "rect",
            root,
            class_="alh-cell alh-cell-highlight" if on else "alh-cell",
            id=f"{prefix}-cell-{q[0]}_{q[1]}",
            data_x=q[0],
            data_y=q[1],
            data_pos=f"{q[0]},{q[1]}",
            x=x0 + cell * 0.06,
            y=y0 + cell * 0.06,
            width=cell * 0.88,
            height=cell * 0.88,
            rx=cell * 0.08,
            fill=COLOURS_MISC["highlight"] if on else "none",
            fill_opacity=0.55 if on else None,
            stroke=COLOURS_MISC["highlight-edge"] if on else COLOURS_MISC["panel-edge"],
            stroke_width=max(1.0, cell / 32),
            stroke_dasharray=_num(cell / 10),
        )
        el("title", r, f"empty cell ({q[0]}, {q[1]})" + (" (highlighted)" if on else ""))
    for (x, y), spec in sorted(specs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        x0, y0 = origin((x, y))
        value = huts.get((x, y)) if isinstance(huts, Mapping) else None
        g = draw_tile(
            root,
            spec,
            x0,
            y0,
            cell,
            hut_value=value,
            label=f"{tile_label(spec)} at ({x}, {y})",
            data_x=x,
            data_y=y,
            data_pos=f"{x},{y}",
        )
        g.set("id", xml_safe(f"{prefix}-tile-{x}_{y}"))
        for wall in g.iter("rect"):
            if wall.get("class") == "alh-wall":
                dx, dy = next(d for _, name, d in _SIDES if name == wall.get("data-side"))
                wall.set("data-outer", "false" if (x + dx, y + dy) in tiles else "true")
    sides = check_open_sides(
        where, city.open_sides if open_sides is None and isinstance(city, Alhambra) else open_sides
    )
    for x, y, side in sides:
        _draw_open_side(root, origin((x, y)), cell, x, y, side, prefix)
    return root


#: an open side as a picture names it: from its west or north cell
_OPEN_SIDE_NAMES = {EAST: "east", SOUTH: "south"}


def check_open_sides(where: str, sides: object) -> list[tuple[int, int, str]]:
    """The sides open for walking of an Alhambra (a city gate, R-GATE-6) as ``(x, y, "east" |
    "south")``, sorted, each once, named from the west or north cell: from an Alhambra's
    ``open_sides`` (``((x, y), side bit)``) or a view's ``[[x, y, side name], ...]`` (any of
    ``north``, ``east``, ``south``, ``west``); ``None`` for none. :class:`ConfigError` else."""
    if sides is None:
        return []
    if isinstance(sides, (str, bytes)) or not isinstance(sides, Iterable):
        raise ConfigError(f"{where}: open sides are [[x, y, side], ...], not {_short(sides)}")
    bits = {name: bit for bit, name, _ in _SIDES}
    out: set[tuple[int, int, str]] = set()
    for e in sides:
        if isinstance(e, tuple) and len(e) == 2 and isinstance(e[0], tuple):
            (x, y), side = e
        elif isinstance(e, (list, tuple)) and len(e) == 3:
            x, y, side = e
        else:
            raise ConfigError(f"{where}: an open side is [x, y, side], not {_short(e)}")
        bit = bits.get(side) if isinstance(side, str) else side
        if type(x) is not int or type(y) is not int or bit not in (NORTH, EAST, SOUTH, WEST) or type(bit) is not int:
            raise ConfigError(f"{where}: an open side is [x, y, 'north'|'east'|'south'|'west'], not {_short(e)}")
        if abs(x) > POS_LIMIT or abs(y) > POS_LIMIT:
            raise ConfigError(f"{where}: an open side lies beyond {POS_LIMIT} cells: {_short(e)}")
        if bit == WEST:
            x, bit = x - 1, EAST
        elif bit == NORTH:
            y, bit = y - 1, SOUTH
        out.add((x, y, _OPEN_SIDE_NAMES[bit]))
    return sorted(out)


def _draw_open_side(
    root: ET.Element, at: tuple[float, float], cell: float, x: int, y: int, side: str, prefix: str
) -> None:
    """A gate in the double wall on the ``side`` (east or south) of cell ``(x, y)``, drawn at
    cell origin ``at``: a bright passage across both walls with the wall's colour round it."""
    x0, y0 = at
    t = cell * WALL_FRACTION
    box: dict[str, Any]
    if side == "east":
        box = {"x": x0 + cell - t * 1.4, "y": y0 + cell * 0.28, "width": t * 2.8, "height": cell * 0.44}
        other = (x + 1, y)
    else:
        box = {"x": x0 + cell * 0.28, "y": y0 + cell - t * 1.4, "width": cell * 0.44, "height": t * 2.8}
        other = (x, y + 1)
    r = el(
        "rect",
        root,
        class_="alh-open-side",
        id=xml_safe(f"{prefix}-open-{x}_{y}-{side}"),
        data_x=x,
        data_y=y,
        data_side=side,
        rx=t * 0.5,
        fill=COLOURS_MISC["open-side"],
        stroke=COLOURS_MISC["wall"],
        stroke_width=max(1.0, cell / 40),
        **box,
    )
    el("title", r, f"gate: the double wall between ({x}, {y}) and {other} is open for walking")


def city_svg(
    city: Alhambra | Mapping[Pos, int | str] | Iterable[Sequence[Any]],
    *,
    highlight: Iterable[Pos] | None = None,
    huts: Mapping[Pos, int] | bool = True,
    title: str | None = None,
    catalog: TileCatalog | None = None,
    prefix: str = "city",
    cell: float = CELL,
    frontier: bool = False,
    open_sides: Iterable[Sequence[Any]] | None = None,
) -> str:
    """One Alhambra as a standalone SVG document (text).

    ``city``: an :class:`~alhambra.Alhambra`, ``{(x, y): tile id}``, or a view's
    ``view["players"][i]["city"]`` list ``[[x, y, tile], ...]`` (x grows east, y south, the
    fountain at ``(0, 0)``, R-PLACE-1). ``catalog`` gives the tiles' types, prices and walls
    (default: the Alhambra's own, else the base game's; a game with building huts needs the
    game's catalogue). ``highlight``: empty cells to mark, e.g. ``city.placements(tile)``
    (the legal places of a tile, R-PLACE-2…6). ``huts``: what each building hut counts as
    (R-HUT-5), printed on it: ``True`` (default) computes it with the building huts module,
    a mapping ``{(x, y): n}`` gives it, ``False`` prints none; huts are marked in any case.
    ``title``: the accessible ``<title>`` (default: "Alhambra of N tiles ..."). ``frontier``:
    also draw every other empty cell beside the Alhambra (faint), as targets for a page.

    The picture is ``cell`` units per grid cell plus a margin. Each tile is a
    ``<g class="alh-tile alh-<kind> alh-type-<type>" id="<prefix>-tile-<x>_<y>">`` with
    ``data-x``, ``data-y``, ``data-tile``, ``data-kind`` (building, fountain, hut),
    ``data-type`` (``fountain`` for the fountain), ``data-price`` (buildings), ``data-walls``
    (the wall sides, comma-separated), ``data-hut-value`` (huts given in ``huts``);
    each wall on a side of a tile is its own ``<rect class="alh-wall">`` with ``data-x``,
    ``data-y``, ``data-side`` (north/east/south/west) and ``data-outer`` (``true`` where it
    faces an empty cell, R-SCORE-5). An empty cell drawn is
    ``<rect class="alh-cell" id="<prefix>-cell-<x>_<y>">``, with class ``alh-cell-highlight``
    too when highlighted; tiles and cells also carry ``data-pos="<x>,<y>"``. A side open for
    walking in a double wall (a city gate, R-GATE-6: ``open_sides``, a view's
    ``players[i]["open_sides"]``, by default an Alhambra's own) is a
    ``<rect class="alh-open-side" id="<prefix>-open-<x>_<y>-<east|south>">`` across both
    walls, with ``data-x``, ``data-y`` and ``data-side`` (named from its west or north cell).

    Raises :class:`ConfigError` (``"city_svg: ..."``) for a tile not in the catalogue, a
    malformed city (as :meth:`Alhambra.from_tiles` with ``check=False``: a tile twice, a
    second fountain, a tile at the fountain's cell, a cell beyond 1000 cells), a malformed
    highlight cell, a highlighted cell that holds a tile, a ``cell`` that is not a number from
    1 to 10000, a title or prefix that is not a string, a catalog that is not a TileCatalog.
    """
    return to_text(
        city_element(
            city,
            catalog=catalog,
            highlight=highlight,
            huts=huts,
            title=title,
            prefix=prefix,
            cell=cell,
            frontier=frontier,
            open_sides=open_sides,
        )
    )


def tile_svg(
    tile: int | str, *, catalog: TileCatalog | None = None, size: float = 48, title: str | None = None, **data: Any
) -> str:
    """One tile alone as a standalone SVG document (text), ``size`` units square: for market
    spaces, tiles to place, reserves, hut stacks and bonus cards on a page. ``data``: more
    ``data-*`` attributes of its ``alh-tile`` group (``pick="tile:17"`` -> ``data-pick``).
    Raises :class:`ConfigError` for a tile not in ``catalog`` (default: the base game's), a
    ``data`` name that is not an XML name (ASCII letters, digits, ``_ . -``, not first a
    digit, ``.`` or ``-``), a ``size`` that is not a number from 1 to 10000 or a title that is
    not a string."""
    where = "tile_svg"
    check_catalog(where, catalog)
    size = check_size(where, "size", size)
    check_str(where, "title", title, optional=True)
    for k in data:
        if not _XML_NAME.match(k):
            raise ConfigError(
                f"{where}: {_short(k)} is not a valid data-* attribute name "
                f"(ASCII letters, digits, '_', '.', '-', not first a digit, '.' or '-')"
            )
    try:
        spec = _spec(catalog or BASE_CATALOG, tile)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    root = svg_root(size, size, "alh-tile-picture", title or tile_label(spec))
    draw_tile(root, spec, 0, 0, size, **{f"data_{k}": v for k, v in data.items()})
    return to_text(root)


# -- the building market --------------------------------------------------------------------


def check_market(where: str, market: object, catalog: TileCatalog) -> list[Mapping[str, Any]]:
    """``market`` as a list of market spaces ``{"space", "currency", "tile", "price"}`` as in
    ``Game.view(seat)["market"]`` (``space`` defaults to its place, 1-4; ``tile`` and
    ``price`` ``None`` for an empty space); else ConfigError naming the space."""
    if not isinstance(market, (list, tuple)):
        raise ConfigError(f"{where}: the market is a view's list of spaces, not {_short(market)}")
    shape = "a market space is a view's {'space', 'currency', 'tile', 'price'}"
    for i, space in enumerate(market):
        if not isinstance(space, Mapping) or "currency" not in space:
            raise ConfigError(f"{where}: market[{i}]: {shape}, not {_short(space)}")
        number, currency, tile, price = (
            space.get("space", i + 1),
            space["currency"],
            space.get("tile"),
            space.get("price"),
        )
        if type(number) is not int:
            raise ConfigError(f"{where}: market[{i}]: the space's number is an int, not {_short(number)}")
        if not isinstance(currency, str) or currency not in CURRENCY_FILL:
            raise ConfigError(
                f"{where}: unknown currency {_short(currency)} at market space {number} (R-COMP-4: {list(CURRENCIES)})"
            )
        if tile is not None:
            try:
                _spec(catalog, tile)
            except ConfigError as exc:
                raise ConfigError(f"{where}: market space {number}: {exc}") from None
        if not (price is None or (type(price) is int and price >= 0)):
            raise ConfigError(f"{where}: market space {number}: a price is an int >= 0 or None, not {_short(price)}")
    return list(market)


def market_element(
    market: Sequence[Mapping[str, Any]],
    *,
    catalog: TileCatalog | None = None,
    title: str | None = None,
    prefix: str = "market",
    tile_size: float = 52,
    where: str = "market_svg",
) -> ET.Element:
    """:func:`market_svg` as an element; same arguments (``where``: the function named in errors)."""
    cat = check_catalog(where, catalog) or BASE_CATALOG
    check_str(where, "title", title, optional=True)
    check_str(where, "prefix", prefix)
    tile_size = check_size(where, "tile_size", tile_size)
    market = check_market(where, market, cat)
    w_space, h_space, gap = tile_size * 1.5, tile_size * 2.05, tile_size * 0.16
    width = gap + len(market) * (w_space + gap)
    height = h_space + 2 * gap
    words = title or "Building market: " + "; ".join(
        f"space {s.get('space', i + 1)} ({s['currency']}): "
        + ("empty" if s.get("tile") is None else f"{_spec(cat, s['tile']).type} for {s.get('price')}")
        for i, s in enumerate(market)
    )
    root = svg_root(width, height, "alh-market", words, id=prefix)
    for i, space in enumerate(market):
        currency = space["currency"]
        number = space.get("space", i + 1)
        tile = space.get("tile")
        price = space.get("price")
        x0, y0 = gap + i * (w_space + gap), gap
        g = el(
            "g",
            root,
            class_=f"alh-market-space alh-currency-{currency}",
            id=f"{prefix}-space-{number}",
            data_space=number,
            data_currency=currency,
            data_tile=tile,
            data_price=price,
        )
        el(
            "title",
            g,
            f"space {number}, paid in {currency}: "
            + ("empty" if tile is None else tile_label(_spec(cat, tile), price)),
        )
        el(
            "rect",
            g,
            x=x0,
            y=y0,
            width=w_space,
            height=h_space,
            rx=tile_size * 0.12,
            fill=CURRENCY_FILL[currency],
            stroke=COLOURS_MISC["card-edge"],
            stroke_width=1.5,
        )
        text(g, x0 + w_space / 2, y0 + tile_size * 0.24, f"{number} · {currency}", size=tile_size * 0.22, weight="bold")
        tx, ty = x0 + (w_space - tile_size) / 2, y0 + tile_size * 0.48
        if tile is None:
            el(
                "rect",
                g,
                x=tx,
                y=ty,
                width=tile_size,
                height=tile_size,
                fill="none",
                stroke=COLOURS_MISC["ink"],
                stroke_dasharray="4",
                stroke_opacity=0.5,
                rx=tile_size * 0.06,
            )
            text(g, tx + tile_size / 2, ty + tile_size / 2, "empty", size=tile_size * 0.2, fill_opacity=0.6)
        else:
            spec = _spec(cat, tile)
            draw_tile(g, spec, tx, ty, tile_size, price=price)
            printed = f" (printed {spec.price})" if price is not None and price != spec.price else ""
            text(
                g,
                x0 + w_space / 2,
                y0 + h_space - tile_size * 0.2,
                f"price {price}{printed}",
                size=tile_size * (0.16 if printed else 0.22),
                class_="alh-price",
            )
    return root


def market_svg(
    market: Sequence[Mapping[str, Any]],
    *,
    catalog: TileCatalog | None = None,
    title: str | None = None,
    prefix: str = "market",
    tile_size: float = 52,
) -> str:
    """The building market (R-COMP-4, R-TURN-2) as a standalone SVG document (text).

    ``market``: ``game.view(seat)["market"]``, four ``{"space": 1-4, "currency", "tile",
    "price"}`` (``tile`` ``None`` for an empty space). ``catalog`` as for :func:`city_svg`.
    Each space is a ``<g class="alh-market-space alh-currency-<currency>"
    id="<prefix>-space-<n>">`` with ``data-space``, ``data-currency``, ``data-tile`` and
    ``data-price`` (the last two absent for an empty space), in the currency's colour with
    its tile drawn small (an ``alh-tile`` group as in :func:`city_svg`, without ``data-x``).
    The tile's big number, its ``data-price`` and ``<title>`` are the price paid on that
    space (R-TURN-3, after any ``alhambra_building_price`` hook); where that differs from the
    printed price (R-COMP-2), the tile also has ``data-printed-price`` and the title and
    caption say "(printed N)".
    Raises :class:`ConfigError` (``"market_svg: ..."``) for a market that is not a list, a
    malformed space, an unknown currency or tile, a price that is not an int >= 0.
    """
    return to_text(market_element(market, catalog=catalog, title=title, prefix=prefix, tile_size=tile_size))


# -- cards ------------------------------------------------------------------------------------


def card_facts(code: str) -> dict[str, Any]:
    """What a card code says: ``{"kind": "money", "currency", "value"}`` for ``"florin-7"``,
    ``{"kind": "office", "currencies": (a, b)}`` for ``"office-florin-dirham"`` (R-EXC-1),
    ``{"kind": "scoring", "which"}`` for ``"scoring-A"``. A module's card says it itself
    (:func:`alhambra.engine.components.known_card`: any enabled module's card): money of
    another currency ``{"kind": "money", "currency", "value", "name"}`` (a diamond,
    ``"diamond-5a"``: currency ``"diamond"``, name ``"diamond 5"``, R-DIA-1), any other card
    ``{"kind": "other", "name"}`` (``"gate-1"``: ``"gate card 1"``); an unknown code
    ``{"kind": "other"}``."""
    parts = code.split("-")
    if len(parts) == 2 and parts[0] in CURRENCY_FILL and _short_number(parts[1]):
        return {"kind": "money", "currency": parts[0], "value": int(parts[1])}
    if len(parts) == 3 and parts[0] == "office" and parts[1] in CURRENCY_FILL and parts[2] in CURRENCY_FILL:
        return {"kind": "office", "currencies": (parts[1], parts[2])}
    if len(parts) == 2 and parts[0] == "scoring":
        return {"kind": "scoring", "which": parts[1]}
    card = known_card(code)
    if card is None:
        return {"kind": "other"}
    name = str(card)
    currency, value = getattr(card, "currency", None), getattr(card, "value", None)
    if card.is_money and type(currency) is str and type(value) is int:
        return {"kind": "money", "currency": currency, "value": value, "name": name}
    return {"kind": "other", "name": name}


def draw_card(
    parent: ET.Element, code: str, x0: float, y0: float, *, w: float = CARD_W, h: float = CARD_H, **attrs: Any
) -> ET.Element:
    """Draw the card ``code`` as ``<g class="alh-card alh-<kind>" data-code=...>`` at ``(x0, y0)``:
    a money card in its currency's colour with its value (``data-currency``, ``data-value``),
    an exchange office split in its two currencies (``data-currencies="a b"``), any other
    card grey with its code."""
    f = card_facts(code)
    kind = f["kind"]
    cls = f"alh-card alh-{kind}" + (f" alh-currency-{f['currency']}" if kind == "money" else "")
    g = el(
        "g",
        parent,
        class_=cls,
        data_code=code,
        data_currency=f.get("currency"),
        data_value=f.get("value"),
        data_currencies=" ".join(f["currencies"]) if kind == "office" else None,
        **attrs,
    )
    edge: dict[str, Any] = {"stroke": COLOURS_MISC["card-edge"], "stroke_width": 1.5}
    if kind == "money":
        el("title", g, f.get("name") or f"{f['currency']} {f['value']}")
        fill = CURRENCY_FILL.get(f["currency"], COLOURS_MISC["other-money"])
        el("rect", g, x=x0, y=y0, width=w, height=h, rx=w * 0.12, fill=fill, **edge)
        el(
            "rect",
            g,
            x=x0 + w * 0.12,
            y=y0 + h * 0.1,
            width=w * 0.76,
            height=h * 0.8,
            rx=w * 0.08,
            fill="#ffffff",
            fill_opacity=0.35,
        )
        text(g, x0 + w / 2, y0 + h * 0.45, str(f["value"]), size=h * 0.42, weight="bold")
        text(g, x0 + w / 2, y0 + h * 0.8, f["currency"], size=h * 0.14)
    elif kind == "office":
        a, b = f["currencies"]
        el("title", g, f"exchange office: {a} or {b}")
        el("path", g, d=f"M{_num(x0)},{_num(y0)} h{_num(w)} L{_num(x0)},{_num(y0 + h)} Z", fill=CURRENCY_FILL[a])
        el("path", g, d=f"M{_num(x0 + w)},{_num(y0)} v{_num(h)} h{_num(-w)} Z", fill=CURRENCY_FILL[b])
        el("rect", g, x=x0, y=y0, width=w, height=h, rx=w * 0.12, fill="none", **edge)
        text(g, x0 + w / 2, y0 + h * 0.5, "⇄", size=h * 0.36, weight="bold")
        text(g, x0 + w * 0.3, y0 + h * 0.16, a[:3], size=h * 0.13)
        text(g, x0 + w * 0.7, y0 + h * 0.86, b[:3], size=h * 0.13)
    else:
        name = f.get("name")
        el("title", g, name or code)
        el("rect", g, x=x0, y=y0, width=w, height=h, rx=w * 0.12, fill=COLOURS_MISC["other-card"], **edge)
        if name is None:
            text(g, x0 + w / 2, y0 + h / 2, code, size=h * 0.12)
        else:  # what the card says of itself, a word a line ("gate card 1")
            g.set("data-name", xml_safe(name))
            words = name.split()[:4]
            for k, word in enumerate(words):
                text(g, x0 + w / 2, y0 + h * (0.5 + 0.17 * (k - (len(words) - 1) / 2)), word, size=h * 0.14)
    return g


def cards_element(
    codes: Sequence[str], *, title: str, css_class: str, prefix: str, per_row: int = 12, where: str = "display_svg"
) -> ET.Element:
    """A row (or rows of ``per_row``) of cards, ``<g ... id="<prefix>-card-<i>" data-index=i>``."""
    codes = check_codes(where, "cards", codes)
    gap = 8
    cols = max(1, min(per_row, len(codes)))
    rows = max(1, -(-len(codes) // per_row))
    width = gap + cols * (CARD_W + gap)
    height = gap + rows * (CARD_H + gap)
    root = svg_root(width, height, css_class, title, id=prefix)
    if not codes:
        text(root, width / 2, height / 2, "no cards", size=11, fill_opacity=0.6)
    for i, code in enumerate(codes):
        r, c = divmod(i, per_row)
        draw_card(root, code, gap + c * (CARD_W + gap), gap + r * (CARD_H + gap), id=f"{prefix}-card-{i}", data_index=i)
    return root


def display_svg(display: Sequence[str], *, title: str | None = None, prefix: str = "display") -> str:
    """The money display (R-SET-5, R-TURN-1) as a standalone SVG document (text).

    ``display``: ``game.view(seat)["display"]``, card codes (money ``"florin-7"``, exchange
    offices ``"office-florin-dirham"`` with that module, R-EXC-2). Each card is a
    ``<g class="alh-card alh-money alh-currency-<c>" id="<prefix>-card-<i>">`` with
    ``data-code``, ``data-index``, ``data-currency`` and ``data-value`` (offices:
    ``alh-office`` and ``data-currencies``). Raises :class:`ConfigError` (``"display_svg: ..."``)
    for a display that is not a list of strings, a money card with a value of more than three
    digits, a title or prefix that is not a string."""
    display = check_codes("display_svg", "display", display)
    check_str("display_svg", "title", title, optional=True)
    check_str("display_svg", "prefix", prefix)
    words = title or ("Money display: " + (", ".join(display) if display else "empty"))
    return to_text(cards_element(display, title=words, css_class="alh-display", prefix=prefix, per_row=6))


def sorted_hand(hand: Iterable[str]) -> list[str]:
    """Card codes sorted by currency (R-COMP-3 order), then value; a module's money
    (diamonds) next, offices and others last."""

    def key(code: str) -> tuple[int, int, str]:
        f = card_facts(code)
        if f["kind"] == "money":  # a module's money (diamonds) after the four currencies
            cur = f["currency"]
            return (CURRENCIES.index(cur) if cur in CURRENCIES else len(CURRENCIES), f["value"], code)
        return (len(CURRENCIES) + (1 if f["kind"] == "office" else 2), 0, code)

    return sorted(hand, key=key)


def hand_svg(hand: Sequence[str], *, title: str | None = None, prefix: str = "hand") -> str:
    """A player's own hand, sorted by currency then value (:func:`sorted_hand`), drawn like
    :func:`display_svg` (ids ``<prefix>-card-<i>`` in the sorted order). Only ever pass the
    hand of the seat that may see it: ``game.view(seat)["players"][seat]["hand"]``. Raises
    :class:`ConfigError` (``"hand_svg: ..."``) as :func:`display_svg` does."""
    cards = sorted_hand(check_codes("hand_svg", "hand", hand))
    check_str("hand_svg", "title", title, optional=True)
    check_str("hand_svg", "prefix", prefix)
    total = {c: sum(card_facts(x)["value"] for x in cards if card_facts(x).get("currency") == c) for c in CURRENCIES}
    words = title or ("Hand: " + (", ".join(f"{c} {v}" for c, v in total.items() if v) or "no money"))
    return to_text(cards_element(cards, title=words, css_class="alh-hand", prefix=prefix, per_row=12, where="hand_svg"))
