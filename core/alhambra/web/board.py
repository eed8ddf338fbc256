"""SVG pictures of the table for the play page, with the hooks the page points at.

Every drawn tile carries ``data-tile`` (its id) and, in an Alhambra, ``data-pos`` (``"x,y"``,
R-PLACE-1: the fountain at ``0,0``, x to the east, y to the south); empty cells next to the
Alhambra are drawn as ``<rect class="cell" data-pos="x,y">`` so the page can highlight where a
chosen tile may go. Walls (R-COMP-2) are thick lines on the sides the tile's wall mask names.
Pure functions of public data (tile catalogue and positions); the page's own drawing, kept
small so that ``alhambra.render`` can take over the pictures themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from ..components import COLOURS, EAST, NORTH, SOUTH, WEST, TileCatalog

#: fill colour of each tile colour (COMPONENTS.md colours), light enough for dark text
FILL = {"blue": "#5b8bd6", "red": "#d4574f", "brown": "#a8743f", "white": "#f4f1e8",
        "green": "#5fae57", "purple": "#8d62b5"}
WALL_COLOUR = "#3b2a1a"
FOUNTAIN_FILL = "#a9dcef"


def _attr(value: Any) -> str:
    return escape(str(value), quote=True)


def tile_fill(catalog: TileCatalog, tile: Any) -> str:
    """The fill colour of ``tile`` (by its building type's colour); grey for unknown kinds."""
    spec = catalog.get(tile)
    if spec is None or spec.type is None:
        return FOUNTAIN_FILL
    return FILL.get(COLOURS.get(spec.type, ""), "#cccccc")


def tile_shape(catalog: TileCatalog, tile: Any, x: float, y: float, size: float, extra: str = "") -> str:
    """One tile as an SVG ``<g class="tile">`` at pixel ``(x, y)``, ``size`` pixels square:
    the coloured square, its walls as ``<line class="wall" data-side=...>``, the price (a
    building), ``H`` (a building hut) or a basin (the fountain). ``extra``: more attributes
    for the group (already escaped)."""
    spec = catalog.get(tile)
    kind = spec.kind if spec is not None else "unknown"
    out = [f'<g class="tile {kind}" data-tile="{_attr(tile)}" {extra}>']
    if spec is not None:
        name = "fountain" if kind == "fountain" else f"{spec.type} {kind} {tile}, price {spec.price}"
        out.append(f"<title>{_attr(name)}</title>")
    out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{size - 2}" height="{size - 2}" rx="3" '
               f'fill="{tile_fill(catalog, tile)}" stroke="#6b5b4b" stroke-width="1"/>')
    if kind == "fountain":
        out.append(f'<circle cx="{x + size / 2}" cy="{y + size / 2}" r="{size / 3}" fill="#3f8fc0" stroke="#fff"/>')
    elif spec is not None:
        label = str(spec.price) if kind == "building" else "H"
        dark = spec.type in ("chambers",)
        out.append(f'<text x="{x + size / 2}" y="{y + size / 2 + 5}" text-anchor="middle" font-size="{size * 0.36:.0f}" '
                   f'font-weight="bold" fill="{"#333" if dark else "#fff"}">{_attr(label)}</text>')
        if kind != "building":  # a hut: a small roof
            out.append(f'<path d="M{x + 6} {y + 14} L{x + size / 2} {y + 5} L{x + size - 6} {y + 14}" '
                       f'fill="none" stroke="#fff" stroke-width="2"/>')
        walls = spec.walls
        w = max(3.0, size / 9)
        for bit, side, (x1, y1, x2, y2) in (
            (NORTH, "north", (x, y + w / 2, x + size, y + w / 2)),
            (EAST, "east", (x + size - w / 2, y, x + size - w / 2, y + size)),
            (SOUTH, "south", (x, y + size - w / 2, x + size, y + size - w / 2)),
            (WEST, "west", (x + w / 2, y, x + w / 2, y + size)),
        ):
            if walls & bit:
                out.append(f'<line class="wall" data-side="{side}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                           f'stroke="{WALL_COLOUR}" stroke-width="{w}" stroke-linecap="square"/>')
    out.append("</g>")
    return "".join(out)


def frontier(cells: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The empty cells beside the occupied ``cells`` (sorted): where a tile might go."""
    taken = set(cells)
    out = {(x + dx, y + dy) for x, y in taken for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))}
    return sorted(out - taken, key=lambda p: (p[1], p[0]))


def city_svg(catalog: TileCatalog, tiles: list[list[Any]], *, size: int = 44, cells: bool = True,
             label: str = "") -> str:
    """An Alhambra as SVG: ``tiles`` as in ``view["players"][i]["city"]`` (``[[x, y, tile],
    ...]``), ``size`` pixels per cell; with ``cells``, the empty cells beside it as targets.
    ``label``: the ``aria-label`` of the picture."""
    occupied = [(int(x), int(y)) for x, y, _ in tiles]
    empty = frontier(occupied) if cells else []
    every = occupied + empty or [(0, 0)]
    x0 = min(p[0] for p in every)
    y0 = min(p[1] for p in every)
    x1 = max(p[0] for p in every)
    y1 = max(p[1] for p in every)
    width, height = (x1 - x0 + 1) * size, (y1 - y0 + 1) * size
    out = [(f'<svg class="city" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" role="img" aria-label="{_attr(label)}">')]
    for x, y in empty:
        out.append(f'<rect class="cell" data-pos="{x},{y}" x="{(x - x0) * size + 2}" y="{(y - y0) * size + 2}" '
                   f'width="{size - 4}" height="{size - 4}" rx="4"/>')
    for x, y, tile in tiles:
        out.append(tile_shape(catalog, tile, (x - x0) * size, (y - y0) * size, size, f'data-pos="{int(x)},{int(y)}"'))
    out.append("</svg>")
    return "".join(out)


def tile_svg(catalog: TileCatalog, tile: Any, *, size: int = 44, pick: str = "") -> str:
    """One tile as a standalone SVG (market spaces, pending tiles, reserves, huts). ``pick``:
    the ``data-pick`` value that makes it selectable on the page (``"tile:17"``), or empty."""
    extra = f'data-pick="{_attr(pick)}"' if pick else ""
    return (f'<svg class="chip" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" '
            f'height="{size}">{tile_shape(catalog, tile, 0, 0, size, extra)}</svg>')
