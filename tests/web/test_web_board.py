"""The play page's pictures (drawn by ``alhambra.render``) carry what the page points at: each
tile of the seat's Alhambra with its position and id, the empty cells beside it as targets
(R-PLACE-1), each tile to place and each reserve tile pickable."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from alhambra.web import board
from starlette.testclient import TestClient

from .conftest import act, create, seat_url

NS = {"s": "http://www.w3.org/2000/svg"}


def _svg(html: str, svg_id: str) -> ET.Element:
    found = re.search(rf'<svg [^>]*id="{svg_id}".*?</svg>', html, re.DOTALL)
    assert found, svg_id
    return ET.fromstring(found.group(0))


def test_the_own_alhambra_has_every_tile_and_the_cells_beside_it(client: TestClient) -> None:
    table = create(client, ["person", "random"], seed=19)
    while len(table.game.state.players[0].city.tiles) < 4 or table.decider != 0:
        legal = table.game.legal_actions()
        picks = [i for i, a in enumerate(legal) if type(a).__name__ in ("Buy", "Place")]
        assert act(client, table, table.decider, picks[0] if picks else 0).status_code == 303
    html = client.get(seat_url(table, 0)).text
    root = _svg(html, "mine")
    city = table.game.view(0)["players"][0]["city"]
    tiles = {
        (g.get("data-pos"), g.get("data-tile"))
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "alh-tile" in (g.get("class") or "")
    }
    assert tiles == {(f"{x},{y}", str(t)) for x, y, t in city}
    cells = {r.get("data-pos") for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "alh-cell"}
    assert cells == {f"{x},{y}" for x, y in board_frontier(city)}
    for t in table.game.state.players[0].reserve:
        assert f'data-pick="tile:{t}"' in html


def board_frontier(city: list[list[int]]) -> set[tuple[int, int]]:
    taken = {(x, y) for x, y, _ in city}
    return {(x + dx, y + dy) for x, y in taken for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))} - taken


def test_a_lone_tile_is_pickable() -> None:
    import alhambra

    catalog = alhambra.get_ruleset([]).catalog
    root = ET.fromstring(board.tile_svg(catalog, 17, pick="tile:17"))
    g = root.find("s:g", NS)
    assert g is not None and g.get("data-pick") == "tile:17" and g.get("data-tile") == "17"
    assert g.get("data-price") == str(catalog[17].price)
    assert "data-pick" not in board.tile_svg(catalog, 17)
