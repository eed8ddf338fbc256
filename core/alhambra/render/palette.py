"""The colours and the font of every picture, shared with the web app.

The building colours follow the game (R-COMP-2, ``COMPONENTS.md``): pavilion blue, seraglio
red, arcades brown, chambers white, garden green, tower purple; the currencies follow the
money cards and the market board (R-COMP-4): florin yellow, dirham green, dinar blue, ducat
orange. Every SVG carries its colours as presentation attributes (so a file looks right
anywhere); :data:`CSS` gives the same colours to classes, for HTML around the pictures.
"""

from __future__ import annotations

from typing import Final

from alhambra import BUILDING_TYPES, CURRENCIES

#: Fill colour per building type (R-COMP-2), as CSS hex colours.
BUILDING_FILL: Final[dict[str, str]] = {
    "pavilion": "#3a78c9",
    "seraglio": "#c7402f",
    "arcades": "#9a6532",
    "chambers": "#f3efe3",
    "garden": "#3f9a4a",
    "tower": "#7a4ea6",
}
#: Text colour drawn on a tile of each type (dark on the white chambers, light elsewhere).
BUILDING_INK: Final[dict[str, str]] = {t: ("#2b2118" if t == "chambers" else "#ffffff") for t in BUILDING_FILL}
#: Fill colour per currency (R-COMP-4: the colour of its money cards and market space).
CURRENCY_FILL: Final[dict[str, str]] = {
    "florin": "#f1c232",
    "dirham": "#4caf50",
    "dinar": "#3d7fd6",
    "ducat": "#ee8a2b",
}
#: Everything else the pictures paint: walls, the fountain, highlighted cells, text, panels.
COLOURS_MISC: Final[dict[str, str]] = {
    "wall": "#4a2f17",
    "tile-edge": "#2b2118",
    "fountain": "#efe2bf",
    "fountain-water": "#4aa3df",
    "highlight": "#f7d154",
    "highlight-edge": "#b8860b",
    "ink": "#2b2118",
    "panel": "#fbf7ee",
    "panel-edge": "#c9b99a",
    "card-edge": "#5a4a33",
    "other-card": "#d9d3c7",
    "other-money": "#cde6ee",  # a module's money of another currency (diamonds, R-DIA-1)
    "open-side": "#f3e3b5",  # a side open for walking in a double wall (a city gate, R-GATE-6)
}
#: Font stack of every text element.
FONT: Final[str] = "DejaVu Sans, Verdana, Arial, sans-serif"

#: One palette: ``PALETTE["building"][type]``, ``PALETTE["currency"][currency]``,
#: ``PALETTE["ink"][type]`` and ``PALETTE["misc"][name]``.
PALETTE: Final[dict[str, dict[str, str]]] = {
    "building": BUILDING_FILL,
    "ink": BUILDING_INK,
    "currency": CURRENCY_FILL,
    "misc": COLOURS_MISC,
}

if set(BUILDING_FILL) != set(BUILDING_TYPES):  # pragma: no cover
    raise RuntimeError("the palette must colour exactly the building types of R-COMP-2")
if set(CURRENCY_FILL) != set(CURRENCIES):  # pragma: no cover
    raise RuntimeError("the palette must colour exactly the currencies of R-COMP-3")


def _css() -> str:
    lines = [f".alh-svg text {{ font-family: {FONT}; }}"]
    for t, fill in BUILDING_FILL.items():
        lines.append(f".alh-type-{t} {{ fill: {fill}; color: {BUILDING_INK[t]}; background-color: {fill}; }}")
    for c, fill in CURRENCY_FILL.items():
        lines.append(f".alh-currency-{c} {{ fill: {fill}; background-color: {fill}; }}")
    lines.append(f".alh-wall {{ fill: {COLOURS_MISC['wall']}; }}")
    lines.append(
        f".alh-cell-highlight {{ fill: {COLOURS_MISC['highlight']}; stroke: {COLOURS_MISC['highlight-edge']}; }}"
    )
    return "\n".join(lines) + "\n"


#: CSS giving the palette to classes: ``.alh-type-<building type>``,
#: ``.alh-currency-<currency>`` (fill for SVG, background-color for HTML), ``.alh-wall``,
#: ``.alh-cell-highlight``; ``.alh-svg text`` sets the font.
CSS: Final[str] = _css()
