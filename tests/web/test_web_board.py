"""The play page's pictures: one tile element per tile with its id, walls exactly on the sides
the rules data gives (R-COMP-2), empty cells beside the Alhambra as targets (R-PLACE-1)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import alhambra
from alhambra.components import BUILDINGS, EAST, NORTH, SOUTH, WEST
from alhambra.web import board

NS = {"s": "http://www.w3.org/2000/svg"}
SIDES = {"north": NORTH, "east": EAST, "south": SOUTH, "west": WEST}


def test_city_svg_has_each_tile_with_its_walls() -> None:
    catalog = alhambra.get_ruleset([]).catalog
    walled = [b for b in BUILDINGS if b.walls][:3]
    tiles = [[0, 0, 0], [1, 0, walled[0].id], [0, 1, walled[1].id], [-1, 0, walled[2].id]]
    root = ET.fromstring(board.city_svg(catalog, tiles, size=40))
    groups = root.findall("s:g", NS)
    assert [(g.get("data-pos"), g.get("data-tile")) for g in groups] == [(f"{x},{y}", str(t)) for x, y, t in tiles]
    for g, (_, _, t) in zip(groups, tiles):
        walls = sum(SIDES[line.get("data-side")] for line in g.findall("s:line", NS))
        assert walls == catalog[t].walls
        kind = "fountain" if t == 0 else "building"
        assert g.get("class") == f"tile {kind}"
        if t:
            assert g.find("s:rect", NS).get("fill") == board.FILL[alhambra.components.COLOURS[catalog[t].type]]
    cells = {c.get("data-pos") for c in root.findall("s:rect", NS)}
    assert cells == {"0,-1", "1,-1", "-1,-1", "2,0", "1,1", "-1,1", "0,2", "-2,0"}
    assert int(root.get("width")) == 5 * 40 and int(root.get("height")) == 4 * 40


def test_tile_svg_marks_what_can_be_picked() -> None:
    catalog = alhambra.get_ruleset([]).catalog
    root = ET.fromstring(board.tile_svg(catalog, 17, pick="tile:17"))
    g = root.find("s:g", NS)
    assert g.get("data-pick") == "tile:17" and g.get("data-tile") == "17"
    assert g.find("s:text", NS).text == str(catalog[17].price)
