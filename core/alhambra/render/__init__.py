"""Pictures of a game as SVG: pure functions of the state, no browser needed.

* :func:`city_svg` - one Alhambra: tiles in their type's colour with prices, the fountain,
  every wall on its side, huts marked, empty cells highlighted on request;
* :func:`tile_svg` - one tile alone; :func:`market_svg` - the building market; :func:`display_svg` - the money display;
  :func:`hand_svg` - a player's own hand, sorted by currency;
* :func:`table_svg` - a whole table as one seat may see it (from ``Game.view(seat)`` only);
* :func:`write_replay_svgs` - the Alhambras of a saved game at each scoring and at the end
  (``alhambra replay FILE --svg DIR``); :func:`write_position_svgs` - those of a position and
  its table (``alhambra replay --position FILE --svg DIR``).

:data:`PALETTE` and :data:`CSS` are the colours, for the web app. The ids, classes and data
attributes of the pictures are listed in ``docs/render.md``.
"""

from .palette import BUILDING_FILL, CSS, CURRENCY_FILL, FONT, PALETTE
from .replay import moments, write_position_svgs, write_replay_svgs
from .svg import (
    CELL,
    card_facts,
    city_svg,
    display_svg,
    hand_svg,
    hut_values,
    market_svg,
    sorted_hand,
    tile_svg,
)
from .table import TABLE_WIDTH, table_svg

__all__ = [
    "BUILDING_FILL",
    "CELL",
    "CSS",
    "CURRENCY_FILL",
    "FONT",
    "PALETTE",
    "TABLE_WIDTH",
    "card_facts",
    "city_svg",
    "display_svg",
    "hand_svg",
    "hut_values",
    "market_svg",
    "moments",
    "sorted_hand",
    "table_svg",
    "tile_svg",
    "write_position_svgs",
    "write_replay_svgs",
]
