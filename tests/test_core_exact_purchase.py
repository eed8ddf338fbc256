"""The core's ``ExactPurchase``: a module's own action buying a market building with an exact
payment, placed at once (the vizier's use, R-VIZ-2/R-VIZ-3), tried on an action of a test's
own: its listing mirrors the purchase rule's exact purchases, its check refuses in order, its
apply pays through the rule and places the building. And ``Purchase``, the fields that action
shares with ``Buy`` (R-TURN-3, R-EXC-4)."""

from __future__ import annotations

import pytest
import attrs
from attrs import frozen

import alhambra
from alhambra import Action, Buy, ExactPurchase, IllegalActionError, MoneyCard, PlaceTiles, Purchase
from helpers import take_from

F3, F4, F9 = MoneyCard("florin", 3), MoneyCard("florin", 4), MoneyCard("florin", 9)


@frozen(slots=True, cache_hash=True)
class Favour(Purchase):
    def __str__(self) -> str:
        return f"favour: space {self.space}"


RECORDED: list[int] = []
FAVOUR = ExactPurchase(
    Favour,
    ["turn"],
    "R-FAV-2: exactly, please: {total} paid for {price}",
    lambda game, seat: None if seat == 0 else f"R-FAV-1: only seat 0 buys so, not seat {seat}",
    lambda game, seat: RECORDED.append(seat),
    then="turn",
)


def situation() -> alhambra.Game:
    """Seat 0 holds florins 3, 4 and 9, the others nothing; a building of price 7 on space 1."""
    g = alhambra.new_game(3, seed=2)
    st = g.state
    for seat in range(3):
        st.deck[:0] = st.players[seat].hand
        st.players[seat].hand = []
    for c in (F3, F4, F9):
        take_from([st.deck, st.display, st.discard], c, "card")
        st.players[0].hand.append(c)
    tile = next(b.id for b in alhambra.BUILDINGS if b.price == 7 and b.id in st.bag)
    st.bag.remove(tile)
    st.bag.insert(0, st.market[0])
    st.market[0] = tile
    st.pile_sizes = []
    alhambra.operations.invalidate(g)
    return g


def test_exact_purchase_lists_the_rules_exact_purchases_as_its_actions_shared():
    g = situation()
    kind = FAVOUR.kind()
    assert kind.action is Favour and kind.phases == frozenset({"turn"}) and kind.unlisted
    listed = kind.legal(g, 0)
    exact = g.rules.purchase.purchases(g, 0, exact=True)
    assert list(listed) == [Favour(b.space, b.cards, b.via) for b in exact]
    assert Favour(1, (F3, F4)) in listed and Favour(1, (F9,)) not in listed  # 9 overpays the 7
    assert kind.legal(g, 0) is listed  # kept with the rule's cached list
    assert listed[0] is alhambra.action_table(Favour)[listed[0].space, listed[0].cards, listed[0].via]
    assert list(kind.legal(g, 1)) == []  # refused: nothing listed


def test_exact_purchase_check_refuses_in_order_and_returns_the_price():
    g = situation()
    for seat, action, match in (
        (1, Favour(1, (F3, F4)), "^R-FAV-1: only seat 0 buys so, not seat 1$"),
        (0, Favour(1, (F3,)), "^R-TURN-3: 3 does not cover the price 7"),
        (0, Favour(2, (F3, F4)), "^R-TURN-3: space 2 is paid in dirham, not florin$"),
        (0, Favour(1, (F9,)), "^R-FAV-2: exactly, please: 9 paid for 7$"),
        (0, Favour(1, (F3, F4, F9)), "^R-FAV-2: exactly, please: 16 paid for 7$"),
    ):
        with pytest.raises(IllegalActionError, match=match):
            FAVOUR.kind().check(g, seat, action)
    assert FAVOUR.check(g, 0, Favour(1, (F4, F3))) == 7


def test_exact_purchase_pays_through_the_rule_records_and_places_at_once():
    g = situation()
    RECORDED.clear()
    tile = g.state.market[0]
    then = FAVOUR.kind().apply(g, 0, Favour(1, (F3, F4)))
    assert then == PlaceTiles(0, (tile,), then="turn", dirk_ok=True) and RECORDED == [0]
    assert g.state.market[0] is None and g.state.players[0].hand == [F9]
    assert g.state.discard[-2:] == [F3, F4]


def test_purchase_gives_buy_and_a_modules_action_the_same_fields_never_equal():
    assert [f.name for f in attrs.fields(Buy)] == [f.name for f in attrs.fields(Favour)] == ["space", "cards", "via"]
    buy, favour = Buy(1, [F4, F3]), Favour(1, [F4, F3])
    assert buy.cards == favour.cards == (F3, F4) and buy.via is favour.via is None  # canonical order
    assert isinstance(buy, Purchase) and isinstance(favour, Purchase) and not isinstance(favour, Buy)
    assert buy != favour and buy == Buy(1, (F3, F4)) and hash(buy) == hash(Buy(1, (F3, F4)))
    assert favour == Favour(1, (F3, F4)) and hash(favour) == hash(Favour(1, (F3, F4)))
    assert str(buy) == "buy space 1 paying florin-3+florin-4" and str(favour) == "favour: space 1"
    assert isinstance(Action, type) and issubclass(Purchase, Action)
