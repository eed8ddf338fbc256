"""The play page's pictures, drawn by :mod:`alhambra.render` with the hooks the page points at.

An Alhambra's tiles carry ``data-pos="x,y"`` and ``data-tile`` (R-PLACE-1: the fountain at
``0,0``, x to the east, y to the south); with ``cells``, the empty cells beside it are drawn
too (``<rect class="alh-cell" data-pos=...>``) so the page can highlight where a chosen tile
may go. A lone tile (market, pending, reserve, huts, bonus cards) may carry ``data-pick``,
what the page selects when it is clicked. Pure functions of public data.
"""

from __future__ import annotations

from typing import Any

from .. import TileCatalog
from ..render import PALETTE
from ..render import city_svg as render_city
from ..render import tile_svg as render_tile

#: fill colour of each building type, as :mod:`alhambra.render` paints it (COMPONENTS.md colours)
FILL: dict[str, str] = dict(PALETTE["building"])


def city_svg(
    catalog: TileCatalog,
    tiles: list[list[Any]],
    *,
    size: int = 44,
    cells: bool = True,
    label: str = "",
    prefix: str = "city",
    open_sides: list[list[Any]] | None = None,
) -> str:
    """An Alhambra as SVG: ``tiles`` as in ``view["players"][i]["city"]`` (``[[x, y, tile],
    ...]``), ``size`` units per cell; with ``cells``, the empty cells beside it as targets.
    ``label``: its title; ``prefix``: the ids' prefix (one per picture on a page);
    ``open_sides``: the view's ``players[i]["open_sides"]``, its gates drawn on the walls
    (R-GATE-6). Raises :class:`~alhambra.errors.ConfigError` for a tile the catalogue does
    not hold."""
    return render_city(
        tiles, catalog=catalog, cell=size, frontier=cells, title=label or None, prefix=prefix, open_sides=open_sides
    )


def tile_svg(catalog: TileCatalog, tile: Any, *, size: int = 44, pick: str = "") -> str:
    """One tile as a standalone SVG; ``pick``: its ``data-pick`` (``"tile:17"``), or none."""
    return render_tile(tile, catalog=catalog, size=size, **({"pick": pick} if pick else {}))
