"""What a page shows: a seat's (or a spectator's) table as plain data, built from
``game.view(seat)`` and public records only.

:func:`table_data` is the one source of both the play page (HTML) and its JSON twin, so the
hidden-information tests of one hold for the other. Besides the view it carries: the public
scoring breakdowns (R-SCORE-2 … R-SCORE-5: scorings are done openly), Dirk's buildings
(R-TWO-3: public), the log in words, and, for the seat that decides, its legal actions as
``{"index", "kind", "label", fields...}``: the action is sent back as its index with the
table's version.
"""

from __future__ import annotations

from typing import Any

import attrs

from .. import BUILDING_TYPES, MARKET_CURRENCIES
from .tables import Table
from ..engine.components import SCORING_TABLE, known_card
from ..engine.scoring import majority_table
from .words import action_label, card_words

CURRENCY_ORDER = {c: i for i, c in enumerate(MARKET_CURRENCIES)}


def _plain(value: Any) -> Any:
    """An action field as JSON-ready data: cards as codes, positions as lists."""
    if hasattr(value, "code"):
        return value.code
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def action_data(
    game: Any, seat: int, index: int, action: Any, prices: list[int | None] | None = None
) -> dict[str, Any]:
    """One legal action for the page: ``index`` (its place in ``legal_actions()``), ``kind``
    (the class name), ``label`` (words) and its fields as plain data (``space``, ``cards``,
    ``via``, ``tile``, ``pos``, ``hut``, ...). ``prices``: the market's prices (the view's)."""
    out: dict[str, Any] = {
        "index": index,
        "kind": type(action).__name__,
        "label": action_label(game, seat, action, prices),
    }
    if attrs.has(type(action)):
        for f in attrs.fields(type(action)):
            out[f.name] = _plain(getattr(action, f.name))
    return out


def sorted_hand(codes: list[str]) -> list[dict[str, Any]]:
    """A hand's card codes sorted by currency (market order) then value, as
    ``{"code", "currency", "value", "words"}`` (``currency`` None for cards that are no
    money; a module's money, a diamond, has its own currency and comes after the four)."""
    cards = []
    for code in codes:
        cur, _, value = code.partition("-")
        card = known_card(code)
        worth = getattr(card, "value", None)
        if cur in CURRENCY_ORDER and value.isdigit():
            cards.append({"code": code, "currency": cur, "value": int(value), "words": card_words(code)})
        elif card is not None and card.is_money and type(worth) is int:
            # a module's money (a diamond, R-DIA-1): its own currency, after the market's four
            cur = str(getattr(card, "currency", "other"))
            cards.append({"code": code, "currency": cur, "value": worth, "words": card_words(code)})
        else:
            cards.append({"code": code, "currency": None, "value": 0, "words": card_words(code)})
    order = len(CURRENCY_ORDER)
    return sorted(
        cards,
        key=lambda c: (CURRENCY_ORDER.get(c["currency"], order if c["currency"] else order + 1), c["value"], c["code"]),
    )


def scoring_data(game: Any) -> list[dict[str, Any]]:
    """Every scoring so far, per participant: buildings and majority points per type, the
    longest outer wall, module columns and the total (R-SCORE-2 … R-SCORE-5, R-TWO-4)."""
    out = []
    n = game.num_players
    for rec in game.state.scorings:
        rows = []
        for k, who in enumerate(rec.participants):
            rows.append(
                {
                    "name": game.state.players[who].name if who < n else "Dirk",
                    "counts": [rec.counts[k].get(t, 0) for t in BUILDING_TYPES],
                    "majority": [rec.majority[k].get(t, 0) for t in BUILDING_TYPES],
                    "walls": rec.walls[k],
                    "extra": [col[k] for col in rec.extra.values()],
                    "total": rec.totals[k],
                }
            )
        out.append({"number": rec.number, "extra_names": list(rec.extra), "rows": rows})
    return out


#: placements previewed at most per page (each builds a copy of the Alhambra)
MAX_PREVIEWS = 400


def _position(action: dict[str, Any]) -> tuple[int, int] | None:
    """The cell an action builds on (``pos``, or ``x`` and ``y`` of a gate's action)."""
    if isinstance(action.get("pos"), list):
        return tuple(action["pos"])  # type: ignore[return-value]
    if type(action.get("x")) is int and type(action.get("y")) is int:
        return action["x"], action["y"]
    return None


def previews(game: Any, seat: int, actions: list[dict[str, Any]]) -> None:
    """Add ``preview`` to each building action of ``actions`` (a placement, a build from the
    reserve, a swap, a build through a gate): ``{"wall": the longest outer wall after it
    (R-SCORE-5), "counts": the seat's buildings per type after it}``, what the page shows
    when the person points at the highlighted cell."""
    city = game.state.players[seat].city
    seen: dict[tuple[str, Any, Any], dict[str, Any] | None] = {}
    done = 0
    for a in actions:
        kind, pos = a["kind"], _position(a)
        if pos is None or "tile" not in a or kind not in ("Place", "BuildFromReserve", "Swap", "BuildThroughGate"):
            continue
        key = ("swap" if kind == "Swap" else "build", a["tile"], pos)
        if key not in seen:
            if done >= MAX_PREVIEWS:
                break
            done += 1
            try:
                after = city.copy()
                if kind == "Swap":
                    after.swap(a["tile"], pos, checked=True)
                else:
                    after.place(a["tile"], pos, checked=True)
                seen[key] = {"wall": after.longest_outer_wall(), "counts": after.type_counts()}
            except Exception:  # noqa: BLE001 -- a preview is a courtesy: none rather than no page
                seen[key] = None
        if seen[key] is not None:
            a["preview"] = seen[key]


def standings(game: Any) -> dict[str, Any]:
    """Where every participant stands before the next scoring (R-SCORE-2 … R-SCORE-5): the
    buildings per type, the longest outer wall, and the majority points the next scoring
    would give if it came now (Dirk too, in a two-player game, R-TWO-4)."""
    players = game.state.players
    rows = [
        {"name": p.name, "counts": p.city.type_counts(), "wall": p.city.longest_outer_wall(), "seat": i}
        for i, p in enumerate(players)
    ]
    dirk = game.state.modules.get("dirk")
    if dirk is not None:
        catalog = players[0].city.catalog
        counts = dict.fromkeys(BUILDING_TYPES, 0)
        for t in dirk.tiles:
            spec = catalog[t]
            if spec.kind == "building":
                counts[str(spec.type)] += 1
        rows.append({"name": "Dirk", "counts": counts, "wall": 0, "seat": None})
    number = min(len(game.state.scorings) + 1, 3)
    points = majority_table([r["counts"] for r in rows], number)
    for r, pts in zip(rows, points):
        r["points"] = pts
        r["total"] = sum(pts.values()) + r["wall"]
    return {
        "number": number,
        "types": list(BUILDING_TYPES),
        "values": {t: list(SCORING_TABLE[t][number - 1]) for t in BUILDING_TYPES},
        "rows": rows,
    }


def table_data(table: Table, seat: int | None, *, can_undo: bool = False, thinking: bool = False) -> dict[str, Any]:
    """The table as ``seat`` may see it (``None``: a spectator): ``view`` (``game.view(seat)``),
    ``version``, ``seats`` (names and kinds, never tokens), ``scorings``, ``dirk`` (his
    buildings in a two-player game), ``log``, ``since`` (what the others did since the seat's last action), ``actions`` (the seat's legal actions when it
    decides, else empty), ``hand`` (the seat's own hand sorted by currency), ``undo``,
    ``over``, ``winners``, ``take_limit`` (the most several money cards taken at once may total in
    the rule set, R-TURN-2: the page's hints name it)."""
    game = table.game
    view = game.view(seat)  # whom the vizier asks is the asked seat's alone (R-VIZ-5)
    actions = []
    if seat is not None and game.current_player == seat:
        prices = [m["price"] for m in view["market"]]
        actions = [action_data(game, seat, i, a, prices) for i, a in enumerate(game.legal_actions())]
        previews(game, seat, actions)
    dirk = game.state.modules.get("dirk")
    hand = view["players"][seat].get("hand", []) if seat is not None else []
    log = [{"step": e.step, "seat": e.seat, "text": e.text} for e in table.log]
    mine = [k for k, e in enumerate(table.log) if e.seat == seat] if seat is not None else []
    since = log[mine[-1] + 1 :] if mine else (log if seat is not None else [])
    return {
        "game": table.id,
        "version": table.version_for(seat),
        "seat": seat,
        "vizier_round": table.in_vizier_round,
        "thinking": thinking and view["current_player"] is not None,
        "trouble": table.trouble,
        "view": view,
        "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in table.seats],
        "scorings": scoring_data(game),
        "dirk": None if dirk is None else {"tiles": list(dirk.tiles)},
        "log": log,
        "since": [e for e in since if e["seat"] != seat][-12:],
        "actions": actions,
        "hand": sorted_hand(hand),
        "undo": can_undo,
        "over": game.is_over,
        "winners": list(game.winners),
        "known": [
            {"cards": sorted_hand(list(h)), "unknown": max(0, p["hand_size"] - len(h))}
            for h, p in zip(table.known or [[] for _ in view["players"]], view["players"])
        ],
        "distribution": [e.text for e in table.log if e.seat is None and e.text.startswith("Distribution")],
        "scores": list(game.scores),
        "standings": standings(game),
        "take_limit": game.rules.take_limit,  # R-TURN-2's total in this rule set (the hints say it)
    }
