"""Built-in plugin ``core.end``: end of game (R-END-1 … R-END-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.components import MARKET_CURRENCIES, MoneyCard
from ..hookspec import hookimpl
from ..engine.options import Option

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable, Sequence
    from typing import Any
    from ..engine.protocol import GameLike


@hookimpl
def alhambra_options() -> list[Option]:
    return [
        Option(
            "tiebreak",
            "shared",
            "players tied on points share the victory, or the most money left wins",
            choices=("shared", "money"),
            rule="R-END-4",
        ),
    ]


def market_recipient(hands: Sequence[Iterable[Any]], currency: str) -> int | None:
    """Seat holding the most money value in ``currency`` (R-END-2), or None on a tie for most.

    ``hands``: per seat, the cards in hand; only money cards count (R-EXC-6)."""
    totals = [sum(c.value for c in h if type(c) is MoneyCard and c.currency == currency) for h in hands]
    best = max(totals)
    return totals.index(best) if totals.count(best) == 1 else None


@hookimpl(trylast=True)
def alhambra_distribution(game: GameLike) -> list[tuple[int, list[Any]]] | None:
    """R-END-2: each building left on the market goes to the holder of the most money in its
    space's currency; on a tie it leaves the game. Recipients place in seat order from the
    player after the one who finished the last turn (engine ruling)."""
    st = game.state
    hands = [p.hand for p in st.players]
    received: dict[int, list[Any]] = {}
    for i, tile in enumerate(st.market):
        if tile is None:
            continue
        st.market[i] = None
        seat = market_recipient(hands, MARKET_CURRENCIES[i])
        if seat is None:
            st.out_of_play.append(tile)
        else:
            received.setdefault(seat, []).append(tile)
    n = game.num_players
    order = [(st.turn_player + 1 + k) % n for k in range(n)]
    return [(s, received[s]) for s in order if s in received]


@hookimpl(trylast=True)
def alhambra_winners(game: GameLike) -> tuple[int, ...] | None:
    """R-END-4: the most points wins; ties share the victory, or (``tiebreak = "money"``,
    source 004) the most money value left in hand breaks them."""
    st = game.state
    best = max(p.score for p in st.players)
    tied = [s for s, p in enumerate(st.players) if p.score == best]
    if game.rules.options["tiebreak"] == "money" and len(tied) > 1:
        money = {s: sum(c.value for c in st.players[s].hand if type(c) is MoneyCard) for s in tied}
        most = max(money.values())
        tied = [s for s in tied if money[s] == most]
    return tuple(tied)
