"""Helpers to build rule situations by hand."""

from __future__ import annotations

import alhambra
from alhambra import MoneyCard


def M(code: str) -> MoneyCard:
    """``M("florin-5")`` -> MoneyCard("florin", 5)."""
    cur, val = code.split("-")
    return MoneyCard(cur, int(val))


def cards(*codes: str) -> list[MoneyCard]:
    return [M(c) for c in codes]


def fresh(players: int = 3, seed: int = 1, **kw) -> alhambra.Game:
    """A new game; the start player decides."""
    return alhambra.new_game(players, seed=seed, **kw)


def situation(players: int = 3, *, seed: int = 1, seat: int = 0, market=None, hands=None, display=None,
              cities=None, reserves=None, **kw) -> alhambra.Game:
    """A game whose turn player is ``seat`` with the given market, hands, display, Alhambras
    and reserves (anything not given stays as dealt)."""
    g = alhambra.new_game(players, seed=seed, **kw)
    st = g.state
    st.turn_player = st.decider = seat
    if market is not None:
        st.market = list(market)
    if hands is not None:
        for s, h in hands.items():
            st.players[s].hand = list(h)
    if display is not None:
        st.display = list(display)
    if cities is not None:
        for s, tiles in cities.items():
            st.players[s].city = alhambra.Alhambra.from_tiles(tiles, catalog=g.rules.catalog,
                                                              holes=g.options["holes"])
    if reserves is not None:
        for s, r in reserves.items():
            st.players[s].reserve = list(r)
    g._legal = None
    g._legal_set = None
    return g
