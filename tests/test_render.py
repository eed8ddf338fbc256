"""alhambra.render: the SVG pictures, parsed back and compared with the rules data."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import alhambra
import pytest
from alhambra import MARKET_CURRENCIES, Alhambra, ConfigError
from alhambra.cli import main
from alhambra.components import BASE_CATALOG, BUILDING_TYPES, SIDE_BITS
from alhambra.render import (
    CSS,
    PALETTE,
    city_svg,
    display_svg,
    hand_svg,
    hut_values,
    market_svg,
    moments,
    sorted_hand,
    table_svg,
    tile_svg,
    write_replay_svgs,
)
from helpers import MODULES, modules_st, players_st, seeds_st
from hypothesis import given, settings

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def tiles_of(root: ET.Element) -> dict[tuple[int, int], ET.Element]:
    out = {}
    for g in by_class(root, "alh-tile"):
        if g.get("data-x") is not None:
            pos = (int(g.get("data-x")), int(g.get("data-y")))
            assert pos not in out, f"two tile elements at {pos}"
            out[pos] = g
    return out


def walls_of(root: ET.Element) -> set[tuple[int, int, str]]:
    found = [(int(w.get("data-x")), int(w.get("data-y")), w.get("data-side")) for w in by_class(root, "alh-wall")]
    assert len(found) == len(set(found)), "a wall segment drawn twice"
    return set(found)


def expected_walls(city: Alhambra) -> set[tuple[int, int, str]]:
    """From the rules data: every side of every tile whose wall mask has that side (R-COMP-2)."""
    return {
        (x, y, side)
        for (x, y), t in city.tiles.items()
        for side, bit in SIDE_BITS.items()
        if city.catalog[t].walls & bit
    }


def huts_catalog():
    return alhambra.new_game(2, modules=["building_huts"], seed=1).state.players[0].city.catalog


#: one tile of every building type (walls on one, two, three and no sides) and three huts,
#: checked by Alhambra.from_tiles against the placement rules (R-PLACE-2…6)
HAND_BUILT = {
    (0, -1): 1,
    (-1, 0): 7,
    (-1, -1): 21,
    (-2, -1): 30,
    (-2, -2): 40,
    (-2, -3): 50,
    (-1, -3): 9,
    (-3, -3): "H1",
    (-3, -2): "H4",
    (-4, -3): 22,
    (-1, 1): "H3",
}


@pytest.fixture
def hand_built() -> Alhambra:
    return Alhambra.from_tiles(HAND_BUILT, catalog=huts_catalog())


def test_r_comp_2_one_element_per_tile_with_its_type_kind_and_price(hand_built):
    root = parse(city_svg(hand_built))
    tiles = tiles_of(root)
    assert set(tiles) == set(hand_built.tiles) == set(HAND_BUILT) | {(0, 0)}
    types = {hand_built.catalog[t].type for t in HAND_BUILT.values()}
    assert types == set(BUILDING_TYPES)  # every type is in the picture
    for pos, g in tiles.items():
        spec = hand_built.catalog[hand_built.tiles[pos]]
        assert g.get("data-tile") == str(spec.id)
        assert g.get("data-kind") == spec.kind
        assert g.get("data-type") == (spec.type or "fountain")
        assert (f"alh-type-{spec.type}" if spec.type else "alh-fountain") in g.get("class").split()
        assert g.get("data-price") == (str(spec.price) if spec.kind == "building" else None)
        assert g.get("id") == f"city-tile-{pos[0]}_{pos[1]}"
        assert g.find(f"{NS}title").text.endswith(f"at ({pos[0]}, {pos[1]})")
    assert tiles[(0, -1)].get("data-price") == "2" and tiles[(0, -1)].get("data-type") == "pavilion"
    assert tiles[(0, 0)].get("data-kind") == "fountain"
    assert {pos for pos, g in tiles.items() if g.get("data-kind") == "hut"} == {(-3, -3), (-3, -2), (-1, 1)}


def test_r_comp_2_walls_drawn_exactly_on_the_tile_sides_that_have_walls(hand_built):
    root = parse(city_svg(hand_built))
    assert walls_of(root) == expected_walls(hand_built)
    # by hand, from COMPONENTS.md: tile 1 walls north, east, west; 7 and 22 none; H1 north
    walls = walls_of(root)
    assert {s for x, y, s in walls if (x, y) == (0, -1)} == {"north", "east", "west"}
    assert not {s for x, y, s in walls if (x, y) in ((-1, 0), (-4, -3), (0, 0))}
    assert {s for x, y, s in walls if (x, y) == (-3, -3)} == {"north"}
    # each tile's data-walls says the same
    for pos, g in tiles_of(root).items():
        assert set(filter(None, g.get("data-walls").split(","))) == {s for x, y, s in walls if (x, y) == pos}


def test_r_score_5_outer_walls_marked_as_the_outer_wall_segments(hand_built):
    root = parse(city_svg(hand_built))
    outer = set()
    for w in by_class(root, "alh-wall"):
        if w.get("data-outer") == "true":
            x, y, side = int(w.get("data-x")), int(w.get("data-y")), w.get("data-side")
            outer.add(
                {
                    "north": ((x, y), (x + 1, y)),
                    "east": ((x + 1, y), (x + 1, y + 1)),
                    "south": ((x, y + 1), (x + 1, y + 1)),
                    "west": ((x, y), (x, y + 1)),
                }[side]
            )
    assert outer == set(hand_built.outer_wall_segments())
    inner = {
        (int(w.get("data-x")), int(w.get("data-y")), w.get("data-side"))
        for w in by_class(root, "alh-wall")
        if w.get("data-outer") == "false"
    }
    assert (-1, -1, "east") in inner and (0, -1, "west") in inner  # 21 against 1: a double wall


def test_r_hut_5_huts_marked_with_what_they_count_as(hand_built):
    import alhambra_building_huts as huts

    values = hut_values(hand_built.tiles, hand_built.catalog)
    assert values == {p: huts.hut_value(hand_built, p) for p in ((-3, -3), (-3, -2), (-1, 1))}
    assert values[(-1, 1)] == 1  # H3 (pavilion) below 7 (pavilion), no wall between
    tiles = tiles_of(parse(city_svg(hand_built, huts=values)))
    assert {p: int(g.get("data-hut-value")) for p, g in tiles.items() if g.get("data-kind") == "hut"} == values
    assert all(g.get("data-hut-value") is None for g in tiles.values() if g.get("data-kind") != "hut")
    assert city_svg(hand_built) == city_svg(hand_built, huts=values)  # computed by default
    assert all(g.get("data-hut-value") is None for g in tiles_of(parse(city_svg(hand_built, huts=False))).values())


def test_r_place_highlight_cells_equal_the_given_set(hand_built):
    cells = hand_built.placements(52)
    assert cells  # a wall-less tower fits somewhere
    root = parse(city_svg(hand_built, highlight=cells))
    marks = by_class(root, "alh-cell-highlight")
    assert {(int(m.get("data-x")), int(m.get("data-y"))) for m in marks} == set(cells)
    assert len(marks) == len(set(cells))
    assert {m.get("id") for m in marks} == {f"city-cell-{x}_{y}" for x, y in cells}
    assert by_class(parse(city_svg(hand_built)), "alh-cell-highlight") == []


def test_frontier_draws_every_empty_cell_beside_the_alhambra_once(hand_built):
    cells = set(hand_built.placements(52))
    root = parse(city_svg(hand_built, highlight=cells, frontier=True))
    drawn = {(int(c.get("data-x")), int(c.get("data-y"))): c for c in by_class(root, "alh-cell")}
    assert len(by_class(root, "alh-cell")) == len(drawn)
    assert set(drawn) == set(hand_built.frontier())
    assert {p for p, c in drawn.items() if "alh-cell-highlight" in c.get("class").split()} == cells
    assert all(c.get("data-pos") == f"{x},{y}" for (x, y), c in drawn.items())


def test_tile_svg_draws_one_tile_with_extra_data():
    root = parse(tile_svg(21, pick="tile:21"))
    (g,) = by_class(root, "alh-tile")
    assert (g.get("data-tile"), g.get("data-type"), g.get("data-price"), g.get("data-pick")) == (
        "21",
        "arcades",
        "8",
        "tile:21",
    )
    assert [w.get("data-side") for w in by_class(root, "alh-wall")] == ["east"]
    assert root.find(f"{NS}title").text == "arcades, price 8, walls east"


def test_highlighting_a_built_cell_or_a_bad_cell_is_a_config_error(hand_built):
    with pytest.raises(ConfigError, match="a tile stands there"):
        city_svg(hand_built, highlight=[(0, -1)])
    with pytest.raises(ConfigError, match="int pairs"):
        city_svg(hand_built, highlight=[("a", 1)])
    with pytest.raises(ConfigError, match="not in the tile catalogue"):
        city_svg([[1, 0, "H1"]])  # a hut needs the game's catalogue
    with pytest.raises(ConfigError):
        city_svg(42)


def test_city_from_a_view_list_equals_city_from_the_alhambra(hand_built):
    listed = [[x, y, t] for (x, y), t in sorted(hand_built.tiles.items())]
    assert city_svg(listed, catalog=hand_built.catalog) == city_svg(hand_built)
    assert city_svg(dict(hand_built.tiles), catalog=hand_built.catalog) == city_svg(hand_built)


def test_titles_are_accessible_and_names_are_escaped():
    root = parse(city_svg(Alhambra(), title='<Ana & "Bo">'))
    assert root.find(f"{NS}title").text == '<Ana & "Bo">'
    assert root.get("role") == "img"


def test_r_comp_4_market_spaces_with_currencies_and_prices():
    game = alhambra.new_game(3, seed=5)
    market = game.view(0)["market"]
    root = parse(market_svg(market))
    spaces = by_class(root, "alh-market-space")
    assert [s.get("data-currency") for s in spaces] == list(MARKET_CURRENCIES)
    assert [s.get("id") for s in spaces] == ["market-space-1", "market-space-2", "market-space-3", "market-space-4"]
    for s, m in zip(spaces, market):
        assert s.get("data-tile") == str(m["tile"])
        assert s.get("data-price") == str(BASE_CATALOG[m["tile"]].price)
        small = by_class(s, "alh-tile")
        assert [t.get("data-tile") for t in small] == [str(m["tile"])]
    empty = [dict(m, tile=None, price=None) if m["space"] == 2 else m for m in market]
    space2 = by_class(parse(market_svg(empty)), "alh-market-space")[1]
    assert space2.get("data-tile") is None and by_class(space2, "alh-tile") == []
    with pytest.raises(ConfigError, match="unknown currency"):
        market_svg([dict(market[0], currency="euro")])


def test_r_exc_2_display_cards_with_currency_value_and_offices():
    codes = ["florin-7", "office-dirham-ducat", "dinar-1", "ducat-9"]
    cards = by_class(parse(display_svg(codes)), "alh-card")
    assert [c.get("data-code") for c in cards] == codes
    assert [(c.get("data-currency"), c.get("data-value")) for c in cards] == [
        ("florin", "7"),
        (None, None),
        ("dinar", "1"),
        ("ducat", "9"),
    ]
    assert cards[1].get("data-currencies") == "dirham ducat" and "alh-office" in cards[1].get("class")
    assert [c.get("id") for c in cards] == [f"display-card-{i}" for i in range(4)]


def test_hand_sorted_by_currency_then_value():
    hand = ["ducat-2", "florin-9", "office-florin-dinar", "florin-3", "dirham-5"]
    assert sorted_hand(hand) == ["florin-3", "florin-9", "dirham-5", "ducat-2", "office-florin-dinar"]
    assert [c.get("data-code") for c in by_class(parse(hand_svg(hand)), "alh-card")] == sorted_hand(hand)


def test_palette_colours_every_type_and_currency_and_css_uses_it():
    assert set(PALETTE["building"]) == set(BUILDING_TYPES)
    assert set(PALETTE["currency"]) == set(MARKET_CURRENCIES)
    for t, colour in PALETTE["building"].items():
        assert f".alh-type-{t} {{ fill: {colour};" in CSS
    rect = next(parse(city_svg(Alhambra.from_tiles({(1, 0): 21}))).iter(f"{NS}rect"))
    assert rect.get("class") == "alh-background"
    tile = tiles_of(parse(city_svg(Alhambra.from_tiles({(1, 0): 21}))))[(1, 0)]
    assert tile.find(f"{NS}rect").get("fill") == PALETTE["building"]["arcades"]


# -- the table: only what the seat may see --------------------------------------------------


def play(game, steps: int, seed: int):
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def visible_codes(view) -> Counter:
    """The cards a seat may see: the display, its own hand and the offices others hold openly."""
    seen = Counter(view["display"])
    me = view["seat"]
    if me is not None:
        seen.update(view["players"][me]["hand"])
    offices = view["modules"].get("exchange_offices", {}).get("hands", [])
    for i, held in enumerate(offices):
        if i != me:
            seen.update(held)
    return seen


def check_table(game, seat):
    root = parse(table_svg(game, seat))
    view = game.view(seat)
    codes = Counter(e.get("data-code") for e in root.iter() if e.get("data-code") is not None)
    assert codes == visible_codes(view)
    st = game.state
    players = by_class(root, "alh-player")
    assert [int(p.get("data-seat")) for p in players] == list(range(game.num_players))
    assert [int(p.get("data-score")) for p in players] == list(game.scores)
    assert [int(p.get("data-hand-size")) for p in players] == [len(p.hand) for p in st.players]
    for i, p in enumerate(st.players):
        sub = next(e for e in root.iter() if e.get("id") == f"p{i}-city")
        assert set(tiles_of(sub)) == set(p.city.tiles)
        assert walls_of(sub) == expected_walls(p.city)
        reserve = [g for g in by_class(players[i], "alh-tile") if g.get("data-reserve-index") is not None]
        assert [g.get("data-tile") for g in reserve] == [str(t) for t in p.reserve]
    bonus = [e.get("data-bonus-tile") for e in root.iter() if e.get("data-bonus-tile") is not None]
    assert bonus == [str(t) for t in view["modules"].get("bonus_cards", {}).get("hand", [])]
    return root


def test_table_of_a_seat_shows_its_hand_and_no_other_seats_hand():
    game = play(alhambra.new_game(4, modules=list(MODULES), seed=11), 120, 3)
    for seat in (0, 1, 2, 3, None):
        root = check_table(game, seat)
        hand = [c.get("data-code") for c in by_class(root, "alh-card") if (c.get("id") or "").startswith("hand-card-")]
        assert hand == (sorted_hand(c.code for c in game.state.players[seat].hand) if seat is not None else [])
    # seat 1's hand holds a card that seat 0 cannot see anywhere: it is not in seat 0's table
    secret = Counter(c.code for c in game.state.players[1].hand) - visible_codes(game.view(0))
    assert secret, "the example should have a secret card"
    assert not set(secret) & {e.get("data-code") for e in parse(table_svg(game, 0)).iter()}


def test_r_score_1_r_two_4_table_shows_each_scorings_points_and_dirks():
    game = play(alhambra.new_game(2, seed=9), 10_000, 9)
    root = parse(table_svg(game, 1))
    records = game.state.scorings
    assert len(records) == 3
    for i, panel in enumerate(by_class(root, "alh-player")):
        assert panel.get("data-scorings") == " ".join(str(r.totals[r.participants.index(i)]) for r in records)
    (dirk,) = by_class(root, "alh-dirk")
    assert dirk.get("data-scorings") == " ".join(str(r.totals[r.participants.index(2)]) for r in records)
    assert sum(int(v) for v in by_class(root, "alh-player")[0].get("data-scorings").split()) == game.scores[0]
    # R-TWO-3/5: Dirk's buildings are in sight of both players, by type
    tiles = game.view(1)["dirk"]["tiles"]
    assert dirk.get("data-tiles") == " ".join(map(str, tiles)) and len(tiles) >= 12
    kinds = Counter(game.state.players[0].city.catalog[t].type for t in tiles)
    words = "".join(dirk.itertext())
    assert words.startswith(f"Dirk holds {len(tiles)} buildings (") and all(
        f"{n} {k}" in words for k, n in kinds.items()
    )


def test_table_from_a_view_equals_table_from_the_game():
    game = play(alhambra.new_game(3, modules=["building_huts", "vizier"], seed=2), 80, 1)
    cat = game.state.players[0].city.catalog
    assert table_svg(game.view(2), catalog=cat) == table_svg(game, 2)
    with pytest.raises(ConfigError, match="seat 2's, not seat 1's"):
        table_svg(game.view(2), 1, catalog=cat)
    with pytest.raises(ConfigError, match="draws a Game"):
        table_svg("game", 0)


def test_table_highlights_the_seats_own_cells():
    game = alhambra.new_game(2, seed=4)
    cells = game.state.players[0].city.placements(7)
    root = parse(table_svg(game, 0, highlight=cells))
    marks = by_class(root, "alh-cell-highlight")
    assert {(int(m.get("data-x")), int(m.get("data-y"))) for m in marks} == set(cells)
    assert all(m.get("id").startswith("p0-city-cell-") for m in marks)


@settings(max_examples=12)
@given(players=players_st, modules=modules_st, seed=seeds_st)
def test_property_table_and_cities_match_the_state_over_random_play(players, modules, seed):
    game = alhambra.new_game(players, modules=list(modules), seed=seed)
    rng = random.Random(seed)
    for step in range(400):
        if game.is_over:
            break
        if step % 97 == 0:
            check_table(game, game.current_player)
        game.apply(rng.choice(game.legal_actions()))
    check_table(game, 0)


# -- alhambra replay --svg --------------------------------------------------------------------


def test_replay_svg_writes_the_alhambras_at_each_scoring_and_at_the_end(tmp_path, capsys):
    save = tmp_path / "g.json"
    assert main(["simulate", "--players", "3", "--modules", "all", "--seed", "4", "--save", str(save), "--quiet"]) == 0
    out = tmp_path / "svgs"
    assert main(["replay", str(save), "--svg", str(out)]) == 0
    game = alhambra.Game.from_json(save.read_text())
    scorings = len(game.view(None)["scorings"])
    assert scorings == 3 and game.is_over
    expected = {f"scoring-{n}-seat-{i}.svg" for n in range(1, scorings + 1) for i in range(3)}
    expected |= {f"end-seat-{i}.svg" for i in range(3)}
    assert {p.name for p in out.iterdir()} == expected
    assert f"wrote {len(expected)} SVG file(s)" in capsys.readouterr().out
    for i, p in enumerate(game.state.players):
        root = parse((out / f"end-seat-{i}.svg").read_text())
        assert set(tiles_of(root)) == set(p.city.tiles)
        assert walls_of(root) == expected_walls(p.city)
        assert f"{p.score} points" in root.find(f"{NS}title").text


def test_moments_are_the_game_right_after_each_scoring():
    game = play(alhambra.new_game(2, seed=9), 10_000, 9)
    found = moments(game.to_json())
    assert [label for label, _ in found] == ["scoring-1", "scoring-2", "scoring-3", "end"]
    for n, (_label, g) in enumerate(found[:3], 1):
        assert len(g.view(None)["scorings"]) == n
        # the scoring came with the last action applied: one action earlier it had not happened
        earlier = alhambra.replay(g.history[:-1], players=game.config["players"], seed=game.seed)
        assert len(earlier.view(None)["scorings"]) == n - 1
    assert found[-1][1].to_json() == game.to_json()


def test_replay_svg_into_an_unusable_directory_is_a_clear_error(tmp_path, capsys):
    save = tmp_path / "g.json"
    save.write_text(alhambra.new_game(2, seed=1).to_json())
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["replay", str(save), "--svg", str(blocker / "sub")]) == 2
    assert "cannot make the directory" in capsys.readouterr().err
    with pytest.raises(alhambra.SaveFormatError):
        write_replay_svgs("[1, 2]", tmp_path / "x")


# -- the documentation ------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def test_docs_render_examples_run_and_make_the_committed_pictures(tmp_path, monkeypatch):
    import re
    import runpy

    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "render.md").read_text(), re.DOTALL)
    assert len(blocks) == 2
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs" / "img").mkdir(parents=True)
    for k, code in enumerate(blocks):  # run as scripts, as a reader would
        script = tmp_path / f"render_md_{k}.py"
        script.write_text(code)
        runpy.run_path(str(script), run_name="__main__")
    for name in ("alhambra.svg", "table.svg"):
        assert (tmp_path / "docs" / "img" / name).read_text() == (ROOT / "docs" / "img" / name).read_text()


# -- review 1 (break-it) findings 1-10 ---------------------------------------------------------

BAD_CHARS = ["\x00", "\x01a", "\x07", "\x1b[31m", "\ufffe", "\ud800"]


@pytest.mark.parametrize("bad", BAD_CHARS)
def test_review1_1_text_xml_cannot_hold_is_replaced_so_the_svg_parses(bad):
    """Finding 1: every text and attribute goes through one XML-safe function; a character
    XML 1.0 cannot hold becomes U+FFFD, so the output always parses (and encodes as UTF-8)."""
    game = alhambra.new_game(2, seed=1)
    view = game.view(0)
    edited = {**view, "players": [{**view["players"][0], "name": bad}, view["players"][1]]}
    for svg in (
        city_svg({}, title=bad),
        tile_svg(5, title=bad),
        city_svg({}, prefix=bad),
        hand_svg([bad]),
        display_svg([bad]),
        table_svg(edited, title=None),
        market_svg(view["market"], title=bad),
    ):
        svg.encode("utf-8")
        parse(svg)
        assert bad not in svg
    assert "\ufffd" in parse(city_svg({}, title=bad)).find(f"{NS}title").text


def test_review1_1_replay_of_a_save_with_a_bad_name_is_a_clear_error(tmp_path, capsys):
    """Finding 1: a save whose player name XML cannot hold (here a lone surrogate) is refused
    by ``alhambra replay`` (exit 2, naming the player), not a UnicodeEncodeError."""
    save = tmp_path / "sur.json"
    save.write_text(alhambra.new_game(["xq", "b"], seed=1).to_json().replace('"xq"', '"\\ud800"'))
    assert main(["replay", str(save), "--svg", str(tmp_path / "out")]) == 2
    assert "player 1's name" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("key", ["a b", "<x", "", "1a", "a\x00"])
def test_review1_2_data_names_must_be_xml_names(key):
    with pytest.raises(ConfigError, match=r"tile_svg: .* is not a valid data-\* attribute name"):
        tile_svg(5, **{key: 1})
    assert parse(tile_svg(5, pick="tile:5", **{"x.y-z": 2})).find(f"{NS}g").get("data-x.y-z") == "2"


GAME = alhambra.new_game(2, seed=1)
MALFORMED = {
    "display_svg([1])": lambda: display_svg([1]),
    "hand_svg([1])": lambda: hand_svg([1]),
    "hand_svg(None)": lambda: hand_svg(None),
    "display_svg(None)": lambda: display_svg(None),
    "market_svg([{}])": lambda: market_svg([{}]),
    "market_svg([1])": lambda: market_svg([1]),
    "market_svg(None)": lambda: market_svg(None),
    "market_svg(currency list)": lambda: market_svg([{"currency": [1], "tile": None}]),
    "market_svg(bool tile)": lambda: market_svg([{"currency": "florin", "tile": True, "price": 1}]),
    "market_svg(str price)": lambda: market_svg([{"currency": "florin", "tile": 5, "price": "4"}]),
    "city_svg(highlight=5)": lambda: city_svg({}, highlight=5),
    "table_svg(highlight=5)": lambda: table_svg(GAME, 0, highlight=5),
    "city_svg(huge pos)": lambda: city_svg({(10**400, 0): 5}),
    "city_svg(huge highlight)": lambda: city_svg({}, highlight=[(10**400, 0)]),
    "city_svg(title=5)": lambda: city_svg({}, title=5),
    "city_svg(prefix=5)": lambda: city_svg({}, prefix=5),
    "city_svg(catalog='x')": lambda: city_svg({}, catalog="x"),
    "city_svg(cell='64')": lambda: city_svg({}, cell="64"),
    "city_svg(cell=inf)": lambda: city_svg({}, cell=float("inf")),
    "tile_svg(size='4')": lambda: tile_svg(5, size="4"),
    "tile_svg(size=0)": lambda: tile_svg(5, size=0),
    "market_svg(tile_size=True)": lambda: market_svg([], tile_size=True),
    "display_svg(long value)": lambda: display_svg(["florin-" + "9" * 5000]),
    "hand_svg(long value)": lambda: hand_svg(["florin-" + "9" * 5000]),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_review1_3_malformed_input_is_a_config_error(case):
    """Finding 3: one input-checking layer at the render API: every malformed argument is a
    ConfigError naming the function and the argument, never a raw TypeError & co."""
    fn = case.split("(")[0]
    with pytest.raises(ConfigError, match=rf"^{fn}: "):
        MALFORMED[case]()


def test_review1_4_5_hand_edited_views_are_config_errors():
    """Finding 4: a malformed view is a ConfigError "malformed view"; finding 5: a bool seat
    with a view is refused as with a Game."""
    game = alhambra.new_game(2, seed=1)
    v = game.view(1)
    cat = game.state.players[0].city.catalog
    for bad in (
        {**v, "players": []},
        {**v, "seat": 7},
        {**v, "seat": "1"},
        {**v, "current_player": True},
        {**v, "players": [1, 2]},
        {**v, "display": None},
        {**v, "market": [1]},
    ):
        with pytest.raises(ConfigError, match=r"^table_svg: malformed view"):
            table_svg(bad, catalog=cat)
    for seat in (True, False, 1.0):
        with pytest.raises(ConfigError, match=r"^table_svg: a seat is an int"):
            table_svg(v, seat, catalog=cat)
        with pytest.raises(ConfigError, match=r"^table_svg: a seat is an int"):
            table_svg(game, seat)
    assert parse(table_svg(v, 1, catalog=cat)).get("id") == "table"


@pytest.mark.parametrize(
    "city, problem",
    [
        ({(1, 0): 5, (2, 0): 5}, "appears twice"),
        ({(0, 0): 21}, "holds the fountain"),
        ({(3, 3): 0}, "unknown tile id 0"),
        ({(1, 0): True}, "tile True is not in the tile catalogue"),
        ([[1, 0, 5], [2, 0, 5]], "appears twice"),
    ],
)
def test_review1_6_a_malformed_city_is_always_refused(city, problem):
    """Finding 6: the same checks as Alhambra.from_tiles, with or without a hut."""
    with pytest.raises(ConfigError, match=rf"^city_svg: .*{problem}"):
        city_svg(city)


def test_review1_7_taxed_market_draws_the_price_paid(tmp_path):
    """Finding 7 (R-TURN-3): with a price hook the market's big number, data-price and title
    are the price paid; the printed price is kept as data-printed-price and said as such."""
    from alhambra.config import load_config

    (tax,) = [m for m in load_config(ROOT / "examples" / "market_tax.toml").module_objects if m.NAME == "market_tax"]
    game = alhambra.new_game(3, modules=[tax], seed=1)
    market = game.view(0)["market"]
    root = parse(market_svg(market, catalog=game.state.players[0].city.catalog))
    for space in market:
        g = next(e for e in by_class(root, "alh-market-space") if e.get("data-space") == str(space["space"]))
        tile = next(iter(by_class(g, "alh-tile")))
        printed = BASE_CATALOG[space["tile"]].price
        assert space["price"] == printed + 1
        assert tile.get("data-price") == str(space["price"]) and tile.get("data-printed-price") == str(printed)
        assert [t.text for t in by_class(tile, "alh-price")] == [str(space["price"])]
        assert f"price {space['price']} (printed {printed})" in tile.find(f"{NS}title").text
    plain = parse(market_svg(alhambra.new_game(3, seed=1).view(0)["market"]))
    assert all(t.get("data-printed-price") is None for t in by_class(plain, "alh-tile"))


def _finished_save() -> str:
    return play(alhambra.new_game(2, seed=9), 10_000, 9).to_json()


def test_review1_8_moments_check_the_history_against_the_saved_state(tmp_path):
    """Finding 8: a save whose history does not lead to its saved state is a SaveFormatError
    (the CLI's check, shared); extra entries name the entry."""
    import json

    data = json.loads(_finished_save())
    short = json.dumps({**data, "history": data["history"][:5]})
    with pytest.raises(alhambra.SaveFormatError, match="its history does not lead to its saved state"):
        moments(short)
    with pytest.raises(alhambra.SaveFormatError, match="its history does not lead to its saved state"):
        write_replay_svgs(short, tmp_path / "out")
    longer = json.dumps({**data, "history": data["history"] + data["history"][:1]})
    with pytest.raises(alhambra.AlhambraError, match=rf"history\[{len(data['history'])}\]"):
        moments(longer)
    assert not (tmp_path / "out").exists()


def test_review1_9_bad_arguments_of_moments_and_write_replay_svgs(tmp_path, capsys, monkeypatch):
    save = alhambra.new_game(2, seed=1).to_json()
    for bad in ({}, None, 5):
        with pytest.raises(alhambra.SaveFormatError, match="moments: a save is its JSON text"):
            moments(bad)
    monkeypatch.chdir(tmp_path)
    for bad in (None, 5, ""):
        with pytest.raises(ConfigError, match="write_replay_svgs: the directory is a non-empty path"):
            write_replay_svgs(save, bad)
    f = tmp_path / "g.json"
    f.write_text(save)
    assert main(["replay", str(f), "--svg", ""]) == 2
    assert "--svg needs a directory" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [f]


def test_review1_10_stale_pictures_are_removed(tmp_path):
    """Finding 10: writing into a directory removes the pictures of an earlier replay
    (scoring-*-seat-*.svg, end-seat-*.svg) and leaves every other file alone."""
    out = tmp_path / "out"
    six = play(alhambra.new_game(6, seed=2), 10_000, 2).to_json()
    write_replay_svgs(six, out)
    assert (out / "end-seat-5.svg").exists()
    (out / "notes.txt").write_text("mine")
    (out / "end-seat-x.svg").write_text("not ours")
    two = alhambra.new_game(2, seed=1).to_json()
    written = write_replay_svgs(two, out)
    assert sorted(p.name for p in out.iterdir()) == sorted([p.name for p in written] + ["end-seat-x.svg", "notes.txt"])
    assert [p.name for p in written] == ["end-seat-0.svg", "end-seat-1.svg"]


class _Banners:
    """A house rule with its own table part: a banner per seat, shown openly as facts and
    cards, drawn without the picture knowing the plugin (``alhambra_table_part``)."""

    NAME = "banners"

    @alhambra.hookimpl
    def alhambra_view(self, game, seat, view):
        view["modules"]["banners"] = {"raised": [s % 2 == 0 for s in range(game.num_players)]}

    @alhambra.hookimpl
    def alhambra_table_part(self, view, seat):
        part = view["modules"].get("banners")
        if part is None:
            return None
        facts = tuple("banner raised" if r else None for r in part["raised"])
        cards = tuple(("florin-3",) if r else () for r in part["raised"])
        return alhambra.TablePart("banner", facts=facts, cards=cards)


def test_table_draws_a_plugins_table_part_in_each_panel():
    game = alhambra.new_game(3, plugins=[_Banners()], seed=4)
    root = parse(table_svg(game, 1))
    panels = {p.get("data-seat"): ET.tostring(p, encoding="unicode") for p in by_class(root, "alh-player")}
    assert "banner raised" in panels["0"] and "banner raised" in panels["2"]
    assert "banner raised" not in panels["1"]
    assert [g.get("id") for g in by_class(root, "alh-banner")] == ["p0-banner", "p2-banner"]
