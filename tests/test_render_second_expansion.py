"""Pictures with the second expansion's modules: gates on the walls of an Alhambra (text and
SVG, R-GATE-5/6), the gate space beside the market (R-GATE-3) and diamond cards (R-DIA-1), all
drawn from what the view and the cards themselves say (the renderers know no module)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import alhambra
from alhambra import EAST, SOUTH, ConfigError
from alhambra.render import card_facts, city_svg, display_svg, hand_svg, sorted_hand, table_svg

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"
NS = {"s": "http://www.w3.org/2000/svg"}


def gated_example() -> alhambra.Game:
    """examples/positions/city_gate.toml after Ana builds the seraglio 12 through a gate on
    the double wall with the pavilion 6: a gate on the east side of (1, 0)."""
    g = alhambra.Game.from_position(EXAMPLES / "city_gate.toml")
    g.apply(g.legal_actions()[0])  # BuildThroughGate(gate-1, 12 at (2, 0), west side)
    assert g.state.players[0].city.is_open_side((1, 0), EAST)
    return g


def test_text_grid_marks_a_gate_G_on_both_walls():
    g = gated_example()
    assert g.state.players[0].city.render() == "+---++---++---+\n| F || 6 GG 12|\n+---++---++---+"


def test_text_grid_gate_on_a_south_side():
    city = alhambra.Alhambra.from_tiles({(1, 0): 13, (1, 1): 1}, check=False)  # 13: wall S; 1: N, E, W
    assert city.catalog.walls[13] == SOUTH
    city.open_side((1, 0), SOUTH)
    assert city.render().splitlines()[2:4] == ["+---++#G#+", "     +#G#+"]


def test_view_names_open_sides_only_where_there_are_some():
    g = gated_example()
    v = g.view(None)
    assert v["players"][0]["open_sides"] == [[1, 0, "east"]]
    assert "open_sides" not in v["players"][1]
    assert "open_sides" not in alhambra.new_game(3, seed=1).view(None)["players"][0]


def test_city_svg_draws_the_gate_across_the_double_wall():
    g = gated_example()
    root = ET.fromstring(city_svg(g.state.players[0].city, prefix="c"))
    gates = root.findall(".//s:rect[@class='alh-open-side']", NS)
    assert [(r.get("id"), r.get("data-x"), r.get("data-y"), r.get("data-side")) for r in gates] == [
        ("c-open-1_0-east", "1", "0", "east")
    ]
    assert "open for walking" in gates[0].find("s:title", NS).text
    # drawn from a view's list as well, named from either cell
    view_city = g.view(None)["players"][0]["city"]
    again = ET.fromstring(city_svg(view_city, prefix="c", open_sides=[[2, 0, "west"]]))
    assert [r.get("id") for r in again.findall(".//s:rect[@class='alh-open-side']", NS)] == ["c-open-1_0-east"]
    plain = ET.fromstring(city_svg(view_city, prefix="c"))
    assert plain.findall(".//s:rect[@class='alh-open-side']", NS) == []


@pytest.mark.parametrize("bad", ["east", [[1, 0]], [[1, 0, "up"]], [[1.5, 0, "east"]], [[5000, 0, "east"]]])
def test_malformed_open_sides_are_refused(bad):
    with pytest.raises(ConfigError, match=r"city_svg: .*open side"):
        city_svg({(1, 0): 6}, open_sides=bad)


def test_table_svg_draws_gates_gate_space_and_diamonds():
    g = gated_example()
    svg = table_svg(g, 1)
    root = ET.fromstring(svg)
    [space] = root.findall(".//s:g[@class='alh-beside-market']", NS)
    assert (space.get("id"), space.get("data-name"), space.get("data-rule"), space.get("data-size")) == (
        "beside-0",
        "gate space",
        "R-GATE-3",
        "1",
    )
    [card] = space.findall("s:g", NS)
    assert (card.get("data-code"), card.get("data-name"), card.get("class")) == (
        "gate-3",
        "gate card 3",
        "alh-card alh-other",
    )
    assert [t.text for t in card.findall("s:text", NS)] == ["gate", "card", "3"]
    assert [
        r.get("id") for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "alh-open-side"
    ] == ["p0-city-open-1_0-east"]
    hand = [c for c in root.iter("{http://www.w3.org/2000/svg}g") if (c.get("id") or "").startswith("hand-card-")]
    assert [c.get("data-code") for c in hand] == ["dirham-6", "ducat-2", "diamond-5a"]  # the module's money last
    diamond = hand[2]
    assert (diamond.get("class"), diamond.get("data-currency"), diamond.get("data-value")) == (
        "alh-card alh-money alh-currency-diamond",
        "diamond",
        "5",
    )
    assert diamond.find("s:title", NS).text == "diamond 5"
    assert "unknown" not in svg and "GateCard(" not in svg and "Diamond(" not in svg


def test_an_empty_gate_space_is_drawn_empty():
    g = alhambra.new_game(3, modules=["city_gates"], seed=2)
    root = ET.fromstring(table_svg(g, None))
    [space] = root.findall(".//s:g[@class='alh-beside-market']", NS)
    assert space.get("data-size") == "0"
    assert [t.text for t in space.findall("s:text", NS)] == ["gate space", "empty"]


def test_a_malformed_beside_market_is_refused():
    g = gated_example()
    view = g.view(0)
    view["beside_market"] = [{"cards": ["gate-3"]}]
    with pytest.raises(ConfigError, match=r"table_svg: malformed view: beside_market\[0\] is a place with a name"):
        table_svg(view, 0, catalog=g.state.players[0].city.catalog)


def test_cards_describe_themselves_to_the_pictures():
    alhambra.new_game(2, modules=["city_gates", "diamonds"], seed=1)  # their cards are known by code
    assert card_facts("diamond-7b") == {"kind": "money", "currency": "diamond", "value": 7, "name": "diamond 7"}
    assert card_facts("gate-2") == {"kind": "other", "name": "gate card 2"}
    assert card_facts("no-such-card") == {"kind": "other"}
    assert sorted_hand(["gate-1", "diamond-3a", "office-florin-dinar", "ducat-9", "florin-1"]) == [
        "florin-1",
        "ducat-9",
        "diamond-3a",
        "office-florin-dinar",
        "gate-1",
    ]
    assert re.search(r'data-code="diamond-9a"[^>]*data-currency="diamond"', display_svg(["diamond-9a"]))
    assert 'data-name="gate card 4"' in hand_svg(["gate-4"])


@pytest.mark.parametrize("seed", [2, 5])
def test_an_all_six_table_shows_only_what_the_seat_may_see(seed):
    """The card codes of a seat's table are exactly the display, its own hand, the offices
    and gate cards held openly (R-GATE-4) and the places beside the market (the gate space): a
    diamond or money card in another hand never appears (R-SET-3)."""
    import random
    from collections import Counter

    six = ["vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds"]
    g = alhambra.new_game(4, modules=six, seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):  # until a gate card waits on the gate space and a diamond is in sight
        if g.is_over or (
            g.state.modules["city_gates"].space and any(c.code.startswith("diamond") for c in g.state.display)
        ):
            break
        g.apply(rng.choice(g.legal_actions()))
    assert not g.is_over
    for seat in (0, 1, None):
        view = g.view(seat)
        root = ET.fromstring(table_svg(g, seat))
        codes = Counter(e.get("data-code") for e in root.iter() if e.get("data-code") is not None)
        seen = Counter(view["display"])
        if seat is not None:
            seen.update(view["players"][seat]["hand"])
        for i, held in enumerate(view["modules"]["exchange_offices"]["hands"]):
            if i != seat:
                seen.update(held)
        for place in view["beside_market"]:
            seen.update(place["cards"])
        for i, p in enumerate(view["players"]):
            if i != seat:
                seen.update(p.get("shown", []))  # gate cards in hand are public (R-GATE-4)
        assert codes == seen
        assert any(c.startswith("gate-") for c in codes) and any(c.startswith("diamond-") for c in codes)


def test_gate_cards_in_a_hand_are_shown_in_that_seats_panel():
    """R-GATE-4: gate cards in hand are public: drawn in the holder's panel for the others."""
    g = alhambra.Game.from_position(EXAMPLES / "city_gate.toml")  # Ana holds gate-1
    assert g.view(1)["players"][0]["shown"] == ["gate-1"]
    assert "shown" not in g.view(1)["players"][1]
    root = ET.fromstring(table_svg(g, 1))
    [shown] = [e for e in root.iter() if e.get("id") == "p0-shown"]
    assert [c.get("data-code") for c in shown] == ["gate-1"]
    mine = ET.fromstring(table_svg(g, 0))
    assert not [e for e in mine.iter() if e.get("id") == "p0-shown"]  # in Ana's own hand row instead
