"""A whole table as one seat may see it, drawn from ``Game.view(seat)`` only."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from alhambra import BUILDING_TYPES, ConfigError, Game, TablePart, TileCatalog
from alhambra.rules.ruleset import installed_hook

from .palette import COLOURS_MISC
from .svg import (
    BASE_CATALOG,
    CARD_H,
    CARD_W,
    CELL,
    Pos,
    _short,
    _spec,
    cards_element,
    check_catalog,
    check_codes,
    check_highlight,
    check_str,
    city_element,
    city_tiles,
    draw_card,
    draw_tile,
    el,
    market_element,
    sorted_hand,
    svg_root,
    text,
    to_text,
    xml_safe,
)

#: Width of a table picture, in SVG user units.
TABLE_WIDTH = 1240
_GAP = 16
#: a panel's height above its Alhambra (name, facts, reserve), and the tallest Alhambra drawn
_PANEL_HEAD = 88
_CITY_MAX_H = 420


def _nest(parent: ET.Element, child: ET.Element, x: float, y: float, scale: float = 1.0) -> tuple[float, float]:
    """Place a standalone picture (an ``<svg>`` element) inside ``parent`` at ``(x, y)``,
    scaled; returns its drawn width and height."""
    w, h = float(child.get("width", "0")) * scale, float(child.get("height", "0")) * scale
    child.attrib.pop("xmlns", None)
    child.set("x", f"{x:g}")
    child.set("y", f"{y:g}")
    child.set("width", f"{w:.2f}")
    child.set("height", f"{h:.2f}")
    parent.append(child)
    return w, h


_WHERE = "table_svg"


def _view_and_catalog(
    game_or_view: Game | Mapping[str, Any], seat: int | None, catalog: TileCatalog | None
) -> tuple[Mapping[str, Any], TileCatalog, Any]:
    """The view to draw, its tile catalogue and the hooks that say what the plugins' parts
    of it show (the game's rule set's, else the installed modules')."""
    check_catalog(_WHERE, catalog)
    if seat is not None and type(seat) is not int:  # not True for seat 1
        raise ConfigError(f"{_WHERE}: a seat is an int (0 to the number of players - 1) or None, not {_short(seat)}")
    if isinstance(game_or_view, Game):
        game: Any = game_or_view
        if seat is not None and not 0 <= seat < game.num_players:
            raise ConfigError(f"{_WHERE}: a seat is an int (0 to {game.num_players - 1}) or None, not {seat}")
        view = game.view(seat)
        cat = catalog or game.state.players[0].city.catalog
        return view, cat, game.rules.hook
    if isinstance(game_or_view, Mapping) and "players" in game_or_view and "market" in game_or_view:
        check_view(game_or_view)
        if seat is not None and game_or_view.get("seat") != seat:
            raise ConfigError(f"{_WHERE}: this view is seat {game_or_view.get('seat')!r}'s, not seat {seat}'s")
        return game_or_view, catalog or BASE_CATALOG, installed_hook()
    raise ConfigError(f"{_WHERE} draws a Game or a Game.view(seat) dict, not {type(game_or_view).__name__}")


def check_view(view: Mapping[str, Any]) -> None:
    """ConfigError ``"table_svg: malformed view: ..."`` unless ``view`` has the parts of a
    ``Game.view(seat)`` the table reads, of the right kinds: ``players`` (2-6 dicts with
    ``name``, ``city``, ``reserve``, ``score``, ``hand_size``), ``seat`` and
    ``current_player`` (``None`` or a seat), ``market``, ``display`` (card codes), ``pending``."""

    def bad(what: str) -> ConfigError:
        return ConfigError(f"{_WHERE}: malformed view: {what}")

    players = view.get("players")
    if not isinstance(players, (list, tuple)) or not 2 <= len(players) <= 6:
        raise bad(f"'players' is a list of 2-6 players, not {_short(players)}")
    for i, p in enumerate(players):
        if not isinstance(p, Mapping):
            raise bad(f"players[{i}] is a dict, not {_short(p)}")
        for key, kind in (
            ("name", str),
            ("score", int),
            ("hand_size", int),
            ("reserve", (list, tuple)),
            ("city", (list, tuple)),
        ):
            if not isinstance(p.get(key), kind) or isinstance(p.get(key), bool):
                raise bad(f"players[{i}][{key!r}] is {_short(p.get(key))}")
    for key in ("seat", "current_player"):
        v = view.get(key)
        if v is not None and (type(v) is not int or not 0 <= v < len(players)):
            raise bad(f"{key!r} is None or a seat 0-{len(players) - 1}, not {_short(v)}")
    try:
        check_codes(_WHERE, "display", view.get("display"))
    except ConfigError as exc:
        raise bad(str(exc).removeprefix(f"{_WHERE}: ")) from None
    if not isinstance(view.get("pending", []), (list, tuple)):
        raise bad(f"'pending' is a list of tiles, not {_short(view.get('pending'))}")
    if not isinstance(view.get("modules", {}), Mapping):
        raise bad(f"'modules' is a dict, not {_short(view.get('modules'))}")


def table_svg(
    game_or_view: Game | Mapping[str, Any],
    seat: int | None = None,
    *,
    catalog: TileCatalog | None = None,
    highlight: Iterable[Pos] | None = None,
    frontier: bool = False,
    title: str | None = None,
) -> str:
    """A whole table as ``seat`` may see it, as a standalone SVG document (text).

    ``game_or_view``: a :class:`~alhambra.Game` (then ``game.view(seat)`` is drawn, never the
    state itself, so nothing secret can appear; ``seat`` ``None`` is a spectator) or such a
    view dict (then ``catalog`` is needed for module tiles such as huts, and ``seat`` must be
    the view's or ``None``). ``highlight``: empty cells of ``seat``'s own Alhambra to mark
    (e.g. the legal placements of a pending tile); ``frontier``: also draw the other empty
    cells beside it (see :func:`~alhambra.render.city_svg`).

    Drawn, ``TABLE_WIDTH`` units wide: whose turn and the phase; the building market
    (``id="market"``, see :func:`~alhambra.render.market_svg`), the money display
    (``id="display"``), tiles still to place, the hut stacks' face-up huts with that module;
    the seat's own hand sorted by currency (``id="hand"``; other seats only as
    ``data-hand-size``); then one ``<g class="alh-player" id="player-<i>">`` per seat with
    ``data-seat``, ``data-name``, ``data-score``, ``data-hand-size``, holding its reserve
    (``id="p<i>-reserve"``, tiles with ``data-reserve-index``), its Alhambra (a nested
    ``<svg id="p<i>-city">``, ids ``p<i>-city-tile-<x>_<y>`` as in
    :func:`~alhambra.render.city_svg`) and module facts (vizier, revealed bonus cards,
    exchange offices). Every card drawn has ``data-code``: only the display's, the seat's own
    and openly held offices'. Raises :class:`ConfigError` (``"table_svg: ..."``) for anything
    else than a game or a view, a seat that is not ``None`` or an int seat (a bool is not), a
    malformed view (``"table_svg: malformed view: ..."``), or as
    :func:`~alhambra.render.city_svg` does.
    """
    view, cat, hook = _view_and_catalog(game_or_view, seat, catalog)
    check_str(_WHERE, "title", title, optional=True)
    highlight = check_highlight(_WHERE, highlight)
    try:
        parts = hook.alhambra_table_part(view=view, seat=view.get("seat"))[::-1]  # the modules' order
        return _draw_table(view, cat, highlight, frontier, title, parts)
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:  # a hand-edited view
        raise ConfigError(f"{_WHERE}: malformed view: {type(exc).__name__}: {exc}") from None


def _draw_table(
    view: Mapping[str, Any],
    cat: TileCatalog,
    highlight: list[Pos],
    frontier: bool,
    title: str | None,
    parts: list[TablePart],
) -> str:
    """The drawing of :func:`table_svg`, once the view is checked (``parts``: what the plugins'
    parts of it show, ``alhambra_table_part``)."""
    me = view.get("seat")
    players = view["players"]
    root = svg_root(TABLE_WIDTH, 100, "alh-table", "", id="table")
    el("rect", root, x=0, y=0, width=TABLE_WIDTH, height=100, fill="#efe7d6", class_="alh-background")
    decider = view.get("current_player")
    who = players[decider]["name"] if isinstance(decider, int) and 0 <= decider < len(players) else None
    seen = "a spectator" if me is None else f"{players[me]['name']} (seat {me})"
    phase = view.get("phase")
    status = "game over" if phase == "over" else f"turn {view.get('turn')}, phase {phase}"
    if phase != "over" and who is not None:  # None: the vizier's asking round, to others (R-VIZ-5)
        status += f", {who} to decide"
    words = title or f"Alhambra table seen by {seen}: {status}"
    root.find("title").text = xml_safe(words)  # type: ignore[union-attr]
    root.set("aria-label", xml_safe(words))
    g_head = el(
        "g",
        root,
        class_="alh-status",
        id="status",
        data_phase=phase,
        data_current_player=decider,
        data_seat="" if me is None else me,
    )
    text(g_head, _GAP, 22, status, size=18, weight="bold", anchor="start")
    drawn = ", ".join(view.get("scoring_cards_drawn", [])) or "none"
    dirk = [
        rec["totals"][rec["participants"].index(len(players))]
        for rec in view.get("scorings", [])
        if len(players) in rec["participants"]
    ]  # R-TWO-4: Dirk scores as seat n
    dirk_tiles = list((view.get("dirk") or {}).get("tiles", []))  # R-TWO-2/3/5: Dirk's buildings, in sight of both
    if dirk or dirk_tiles:
        counts = Counter(cat[t].type for t in dirk_tiles)  # KeyError (a malformed view) for a tile not in the catalogue
        held = ", ".join(
            f"{n} {kind}" for kind, n in sorted(counts.items(), key=lambda kv: BUILDING_TYPES.index(kv[0]))
        )
        n = len(dirk_tiles)
        words_dirk = f"Dirk holds {n} building{'' if n == 1 else 's'}" + (f" ({held})" if held else "")
        if dirk:
            words_dirk += " · scored " + " ".join(f"+{d}" for d in dirk)
        text(
            g_head,
            _GAP,
            40,
            words_dirk,
            size=12,
            anchor="start",
            class_="alh-dirk",
            data_scorings=" ".join(map(str, dirk)),
            data_tiles=" ".join(map(str, dirk_tiles)),
        )
    text(
        g_head,
        TABLE_WIDTH - _GAP,
        22,
        f"seen by {seen} · deck {view.get('deck_size')} cards · bag {view.get('bag_size')} tiles · "
        f"scoring cards drawn: {drawn}",
        size=12,
        anchor="end",
    )
    y = 58.0
    # market, display, tiles to place, hut stacks
    try:
        market = market_element(view["market"], catalog=cat, where=_WHERE)
    except ConfigError as exc:
        raise ConfigError(f"{_WHERE}: malformed view: {str(exc).removeprefix(_WHERE + ': ')}") from None
    mw, mh = _nest(root, market, _GAP, y)
    dx = _GAP + mw + _GAP
    text(root, dx, y - 4, "money display", size=12, anchor="start", weight="bold")
    dw, dh = _nest(
        root,
        cards_element(
            view["display"],
            title="Money display: " + (", ".join(view["display"]) or "empty"),
            css_class="alh-display",
            prefix="display",
            per_row=6,
            where=_WHERE,
        ),
        dx,
        y + 4,
    )
    x = dx + dw + _GAP
    pending = view.get("pending", [])
    if pending:
        g = el("g", root, class_="alh-pending", id="pending")
        text(g, x, y - 4, "to place", size=12, anchor="start", weight="bold")
        for k, t in enumerate(pending):
            draw_tile(g, _spec(cat, t), x + k * 48, y + 6, 44, data_pending_index=k)
        x += max(1, len(pending)) * 48 + _GAP
    x = _beside_market(root, view.get("beside_market", []), x, y, cat)
    for part in parts:
        if not part.stacks_title:
            continue
        g = el("g", root, class_=f"alh-{part.name}-stacks", id=f"{part.name}-stacks")
        text(g, x, y - 4, part.stacks_title, size=12, anchor="start", weight="bold")
        for k, (t, size, face_up) in enumerate(part.stacks):
            hx, hy = x + (k % 3) * 44, y + 6 + (k // 3) * 56
            sg = el("g", g, class_=f"alh-{part.name}-stack", data_type=t, data_size=size, data_face_up=face_up)
            if face_up is not None:
                draw_tile(sg, _spec(cat, face_up), hx, hy, 40)
            text(sg, hx + 20, hy + 47, f"{size} left", size=9)
    y += max(mh, dh + 8) + _GAP
    # the own hand
    if me is not None:
        hand = sorted_hand(players[me].get("hand", []))
        text(root, _GAP, y + 4, f"your hand ({len(hand)} cards)", size=13, anchor="start", weight="bold")
        hw, hh = _nest(
            root,
            cards_element(
                hand,
                title=f"Hand of {players[me]['name']}",
                css_class="alh-hand",
                prefix="hand",
                per_row=22,
                where=_WHERE,
            ),
            _GAP,
            y + 12,
        )
        for part in parts:
            if not part.hand_tiles:
                continue
            bx = _GAP + hw + _GAP
            g = el("g", root, class_=f"alh-{part.name}-hand", id=f"{part.name}-hand")
            text(g, bx, y + 4, part.hand_title, size=13, anchor="start", weight="bold")
            for k, t in enumerate(part.hand_tiles):
                draw_tile(g, _spec(cat, t), bx + k * 50, y + 16, 46, **{f"data_{part.name}_tile": t})
        y += hh + 12 + _GAP
    # one panel per seat, a row of up to three as tall as its tallest Alhambra needs
    cols = min(3, len(players))
    pw = (TABLE_WIDTH - _GAP * (cols + 1)) / cols
    cities = []
    for i, p in enumerate(players):
        tiles = city_tiles(p["city"], _WHERE)
        city = city_element(
            tiles,
            catalog=cat,
            highlight=highlight if i == me else None,
            frontier=frontier and i == me,
            title=f"Alhambra of {p['name']}",
            prefix=f"p{i}-city",
            where=_WHERE,
            open_sides=p.get("open_sides"),
        )
        w, h = float(city.get("width", "1")), float(city.get("height", "1"))
        cities.append((city, min(1.0, (pw - 20) / w, _CITY_MAX_H / h)))
    for r0 in range(0, len(players), cols):
        row = range(r0, min(r0 + cols, len(players)))
        ph = _PANEL_HEAD + 10 + max(float(cities[i][0].get("height", "1")) * cities[i][1] for i in row)
        for i in row:
            px = _GAP + (i - r0) * (pw + _GAP)
            _player_panel(root, view, i, players[i], cat, px, y, pw, ph, cities[i], parts)
        y += ph + _GAP
    height = y
    root.set("height", f"{height:g}")
    root.set("viewBox", f"0 0 {TABLE_WIDTH} {height:g}")
    root.find("rect").set("height", f"{height:g}")  # type: ignore[union-attr]
    return to_text(root)


def _beside_market(root: ET.Element, places: Any, x: float, y: float, cat: TileCatalog) -> float:
    """The places the plugins put beside the building market (``view["beside_market"]``: the
    gate space of the city gates, R-GATE-3), from ``x``: each a ``<g class="alh-beside-market"
    id="beside-<i>" data-name=...>`` with its name and its cards (``data-code``) or tiles, or
    "empty". Returns the ``x`` after them."""
    if not isinstance(places, (list, tuple)):
        raise ConfigError(f"{_WHERE}: malformed view: 'beside_market' is a list of places, not {_short(places)}")
    for k, place in enumerate(places):
        if not isinstance(place, Mapping) or not isinstance(place.get("name"), str):
            raise ConfigError(
                f"{_WHERE}: malformed view: beside_market[{k}] is a place with a name, not {_short(place)}"
            )
        codes = check_codes(_WHERE, f"beside_market[{k}].cards", place.get("cards", []))
        tiles = place.get("tiles", [])
        if not isinstance(tiles, (list, tuple)):
            raise ConfigError(f"{_WHERE}: malformed view: beside_market[{k}].tiles is a list, not {_short(tiles)}")
        g = el(
            "g",
            root,
            class_="alh-beside-market",
            id=f"beside-{k}",
            data_name=place["name"],
            data_rule=place.get("rule") if isinstance(place.get("rule"), str) else None,
            data_size=len(codes) + len(tiles),
        )
        el("title", g, f"{place['name']}: " + (", ".join([*codes, *map(str, tiles)]) or "empty"))
        text(g, x, y - 4, place["name"], size=12, anchor="start", weight="bold")
        n = len(codes) + len(tiles)
        w = max(CARD_W, n * (CARD_W + 6) - 6)
        el(
            "rect",
            g,
            x=x - 4,
            y=y + 2,
            width=w + 8,
            height=CARD_H + 8,
            rx=6,
            fill="none",
            stroke=COLOURS_MISC["panel-edge"],
            stroke_dasharray="4",
        )
        for j, code in enumerate(codes):
            draw_card(g, code, x + j * (CARD_W + 6), y + 6, data_index=j)
        for j, t in enumerate(tiles):
            draw_tile(g, _spec(cat, t), x + (len(codes) + j) * (CARD_W + 6), y + 6, CARD_W)
        if not n:
            text(g, x + w / 2, y + 6 + CARD_H / 2, "empty", size=10, fill_opacity=0.6)
        x += w + 8 + _GAP
    return x


def _player_panel(
    root: ET.Element,
    view: Mapping[str, Any],
    i: int,
    p: Mapping[str, Any],
    cat: TileCatalog,
    px: float,
    py: float,
    pw: float,
    ph: float,
    city: tuple[ET.Element, float],
    parts: list[TablePart],
) -> None:
    """Seat ``i``'s panel at ``(px, py)``, ``pw`` x ``ph``: name, score, cards in hand, module
    facts and cards held openly (``parts``), reserve, and its Alhambra (a city element and
    the scale to draw it at)."""
    me = view.get("seat")
    deciding = view.get("current_player") == i
    won = [rec["totals"][rec["participants"].index(i)] for rec in view.get("scorings", []) if i in rec["participants"]]
    g = el(
        "g",
        root,
        class_="alh-player" + (" alh-deciding" if deciding else ""),
        id=f"player-{i}",
        data_seat=i,
        data_name=p["name"],
        data_score=p["score"],
        data_hand_size=p["hand_size"],
        data_scorings=" ".join(map(str, won)),
    )
    el("title", g, f"{p['name']} (seat {i}): {p['score']} points, {p['hand_size']} cards in hand")
    el(
        "rect",
        g,
        x=px,
        y=py,
        width=pw,
        height=ph,
        rx=10,
        fill=COLOURS_MISC["panel"],
        stroke=COLOURS_MISC["highlight-edge"] if deciding else COLOURS_MISC["panel-edge"],
        stroke_width=3 if deciding else 1.5,
    )
    you = " (you)" if me == i else ""
    text(g, px + 12, py + 18, f"{p['name']}{you}", size=16, weight="bold", anchor="start")
    text(g, px + pw - 12, py + 18, f"{p['score']} points", size=15, weight="bold", anchor="end", class_="alh-score")
    facts = [f"{p['hand_size']} cards in hand"]
    if won:
        facts.append("scorings " + " ".join(f"+{w}" for w in won))
    facts += [fact for part in parts if part.facts and (fact := part.facts[i]) is not None]
    text(g, px + 12, py + 38, " · ".join(facts), size=11, anchor="start")
    line_y = py + 50
    left = px + pw - 12
    for part in parts:
        held = part.cards[i] if part.cards else ()
        if held and me != i:  # the seat's own cards are in its hand row already (offices, R-EXC-3)
            og = el("g", g, class_=f"alh-{part.name}", id=f"p{i}-{part.name}")
            for k, code in enumerate(held):
                draw_card(og, code, left - (k + 1) * (CARD_W * 0.6 + 4), py + 28, w=CARD_W * 0.6, h=CARD_H * 0.6)
            left -= len(held) * (CARD_W * 0.6 + 4)
    shown = check_codes(_WHERE, f"players[{i}].shown", p.get("shown", []))
    if shown and me != i:  # cards of its hand every player sees (gate cards, R-GATE-4)
        sg = el("g", g, class_="alh-shown", id=f"p{i}-shown")
        for k, code in enumerate(shown):
            draw_card(sg, code, left - (k + 1) * (CARD_W * 0.6 + 4), py + 28, w=CARD_W * 0.6, h=CARD_H * 0.6)
    # reserve
    rg = el("g", g, class_="alh-reserve", id=f"p{i}-reserve", data_size=len(p["reserve"]))
    text(rg, px + 12, line_y + 14, "reserve:" if p["reserve"] else "reserve: empty", size=11, anchor="start")
    for k, t in enumerate(p["reserve"]):
        draw_tile(rg, _spec(cat, t), px + 70 + k * 34, line_y, 30, data_reserve_index=k)
    element, scale = city
    cw = float(element.get("width", "1")) * scale
    _nest(g, element, px + (pw - cw) / 2, py + _PANEL_HEAD, scale)


__all__ = ["CELL", "TABLE_WIDTH", "table_svg"]
