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
        old = [t for t in st.market if t is not None and t not in market]
        _take_out(g, [t for t in market if t is not None])
        st.market = list(market)
        st.bag[:0] = old  # the replaced market tiles go to the bottom of the bag
    if hands is not None:
        for s, h in hands.items():
            st.players[s].hand = list(h)
    if display is not None:
        st.display = list(display)
    if cities is not None:
        for s, tiles in cities.items():
            _take_out(g, list(tiles.values()))
            st.players[s].city = alhambra.Alhambra.from_tiles(tiles, catalog=g.rules.catalog,
                                                              holes=g.options["holes"])
    if reserves is not None:
        for s, r in reserves.items():
            _take_out(g, list(r))
            st.players[s].reserve = list(r)
    g.invalidate()
    return g


def _take_out(g, tiles) -> None:
    """Remove ``tiles`` from the bag, market and Dirk so a hand-built situation keeps each
    building in one place."""
    st = g.state
    for t in tiles:
        if t in st.bag:
            st.bag.remove(t)
        if t in st.market:
            st.market[st.market.index(t)] = None
        d = st.modules.get("dirk")
        if d is not None and t in d.tiles:
            d.tiles.remove(t)
