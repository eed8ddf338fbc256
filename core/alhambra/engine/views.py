"""Per-player observations as plain data (``Game.view``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .components import EAST, MARKET_CURRENCIES, SOUTH
from .sequence import decider_hidden

#: an open side in a view, named from its west or north cell (each side once)
_SIDE_WORDS = {EAST: "east", SOUTH: "south"}

if TYPE_CHECKING:  # pragma: no cover
    from .protocol import GameLike


def build_view(game: GameLike, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: a spectator), as JSON-ready plain data.

    Public: market (space, currency, tile, price), money display, discard pile, bag and deck
    sizes, every Alhambra (``[[x, y, tile], ...]``) and reserve, scores, scorings, hand sizes,
    pending tiles, phase and who decides (``current_player``; in a phase that hides who
    decides, ``PhaseSpec.hidden_decider``, ``None`` to everyone but the seat deciding); an Alhambra with sides open for walking whatever
    their walls (city gates, R-GATE-6) lists them as ``"open_sides": [[x, y, "east"|"south"],
    ...]`` (named from the west or north cell). Private: ``seat``'s own hand only. Modules add
    theirs under ``view["modules"]`` through ``alhambra_view`` (and public places of the table
    a picture draws beside the market under ``view["beside_market"]``, see the hook)."""
    st = game.state
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players):
        from ..errors import ConfigError

        raise ConfigError(f"seat must be 0..{game.num_players - 1} or None, not {seat!r}")
    price = game.rules.purchase.market_price  # the purchase rule's price (alhambra_purchase_rule)
    view: dict[str, Any] = {
        "seat": seat,
        "phase": st.phase,
        "current_player": game.current_player if seat == game.current_player or not decider_hidden(game) else None,
        "turn_player": st.turn_player,
        "turn": st.turn,
        "start_player": st.start_player,
        "market": [
            {"space": i + 1, "currency": MARKET_CURRENCIES[i], "tile": t, "price": price(game, i + 1)}
            for i, t in enumerate(st.market)
        ],
        "display": [c.code for c in st.display],
        "discard": [c.code for c in st.discard],
        "deck_size": len(st.deck),
        "bag_size": len(st.bag),
        "scoring_cards_drawn": [c.code for c in st.scoring_cards],
        "pending": [p.tile for p in st.pending],
        "scorings": [
            {"number": r.number, "participants": list(r.participants), "totals": r.totals} for r in st.scorings
        ],
        "players": [],
        "modules": {},
    }
    for i, p in enumerate(st.players):
        entry = {
            "name": p.name,
            "score": p.score,
            "city": [[x, y, t] for (x, y), t in sorted(p.city.tiles.items())],
            "reserve": list(p.reserve),
            "hand_size": len(p.hand),
        }
        opened = p.city.open_sides
        if opened:  # sides open for walking whatever their walls (a city gate, R-GATE-6): public
            entry["open_sides"] = [[x, y, _SIDE_WORDS[side]] for (x, y), side in sorted(opened) if side in _SIDE_WORDS]
        if seat == i:
            entry["hand"] = [c.code for c in p.hand]
        view["players"].append(entry)
    game.rules.hook.alhambra_view(game=game, seat=seat, view=view)
    return view
