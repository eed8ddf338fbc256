"""The core's helpers for a module's own cards and money: ``value_payments``, ``made_cards``,
``ActionKind.checked``, ``check_paid``, ``apply_purchase``, ``AnySpaceMoney`` (a money paying
for any market space alone, R-DIA-4 … R-DIA-6 for the diamonds), ``display_take_kind``
(R-EXC-3 for the offices) and an observed ``DeckKind``, each tried on a money or a card kind
of a test's own."""

from __future__ import annotations

import types

import numpy as np
import pytest
from attrs import field, frozen

import alhambra
from alhambra import (
    Action,
    AnySpaceMoney,
    Buy,
    Declared,
    DeckKind,
    IllegalActionError,
    InternedCard,
    MoneyCard,
    apply_purchase,
    canonical_cards,
    check_paid,
    display_take_kind,
    hookimpl,
    interned,
    made_cards,
    value_payments,
)
from alhambra.actions import ActionKind
from helpers import take_from


@frozen(slots=True, eq=False, init=False)
class Pearl(InternedCard):
    """A test's money: pearls of ``value`` 1-9, ``copy`` telling equal values apart."""

    value: int
    copy: int
    is_money = True
    currency = "pearl"

    def __new__(cls, value: int, copy: int = 1) -> Pearl:
        found = next((p for p in made_cards(cls) if (p.value, p.copy) == (value, copy)), None)
        return found if found is not None else interned(cls, value=value, copy=copy)

    @property
    def code(self) -> str:
        return f"pearl-{self.value}{'abc'[self.copy - 1]}"


@frozen(slots=True, cache_hash=True)
class BuyWithPearls(Action):
    space: int
    cards: tuple[Pearl, ...] = field(converter=canonical_cards)

    @property
    def via(self) -> None:
        return None


PEARLS = [Pearl(3), Pearl(4), Pearl(4, 2), Pearl(9)]
MONEY = AnySpaceMoney(
    Pearl,
    BuyWithPearls,
    none="R-PEARL-1: pay with a pearl",
    other="R-PEARL-1: pearls only: {card!r}",
    mixed="R-PEARL-2: {own} never with {others}",
    via="R-PEARL-3: no office with pearls",
    by_action="R-PEARL-4: pearls buy by BuyWithPearls({space}, ...)",
)


def pearls_plugin() -> types.ModuleType:
    plugin = types.ModuleType("pearls")
    plugin.NAME = "pearls"

    @hookimpl
    def alhambra_cards(options):
        return list(PEARLS)

    @hookimpl
    def alhambra_money_deck(game, cards):
        cards.extend(PEARLS)

    @hookimpl
    def alhambra_action_kinds():
        return [MONEY.kind()]

    @hookimpl
    def alhambra_action_kind(options, kind):
        return kind.checked(MONEY.buy_refusal) if kind.action is Buy else None

    @hookimpl
    def alhambra_purchase_rule(options, rule):
        return MONEY.rule(rule)

    for f in (alhambra_cards, alhambra_money_deck, alhambra_action_kinds, alhambra_action_kind, alhambra_purchase_rule):
        setattr(plugin, f.__name__, f)
    return plugin


def hand_of(g, seat, cards):
    st = g.state
    st.deck[:0] = st.players[seat].hand
    st.players[seat].hand = []
    for c in cards:
        take_from([st.deck, st.display, st.discard] + [p.hand for p in st.players], c, "card")
        st.players[seat].hand.append(c)
    st.pile_sizes = []
    alhambra.operations.invalidate(g)


def market_of(g, space, price):
    st = g.state
    tile = next(b.id for b in alhambra.BUILDINGS if b.price == price and b.id in st.bag)
    st.bag.remove(tile)
    if st.market[space - 1] is not None:
        st.bag.insert(0, st.market[space - 1])
    st.market[space - 1] = tile
    alhambra.operations.invalidate(g)
    return tile


def test_value_payments_non_dominated_equal_values_once_by_total_then_values():
    assert value_payments(PEARLS, 7) == [(Pearl(3), Pearl(4)), (Pearl(4), Pearl(4, 2)), (Pearl(9),)]
    assert value_payments(PEARLS, 8, exact=True) == [(Pearl(4), Pearl(4, 2))]
    assert value_payments(PEARLS, 30) == []
    assert value_payments([Pearl(4, 2), Pearl(4)], 4) == [(Pearl(4, 2),)]  # the first of a value given


def test_made_cards_holds_every_interned_card_of_its_class_in_one_growing_set():
    made = made_cards(Pearl)
    assert set(PEARLS) <= made and made is made_cards(Pearl)
    assert made.isdisjoint([MoneyCard("florin", 3)])
    Pearl(2, 3)
    assert Pearl(2, 3) in made and Pearl(2, 3) is Pearl(2, 3)


def test_action_kind_checked_refuses_before_the_check_and_keeps_the_listing():
    seen = []

    def legal(game, seat):
        return ["listed"]

    base = ActionKind(Buy, {"turn"}, legal, lambda g, s, a: None, lambda g, s, a: seen.append(a))
    kind = base.checked(lambda g, s, a: "R-X-1: no" if a == "bad" else None)
    assert kind.legal is legal
    with pytest.raises(IllegalActionError, match="^R-X-1: no$"):
        kind.check(None, 0, "bad")
    kind.check(None, 0, "good")
    assert seen == ["good"]


def test_check_paid_refuses_in_order_and_returns_the_price():
    g = alhambra.new_game(3, seed=2)
    seat = g.current_player
    hand_of(g, seat, [MoneyCard("florin", 3), MoneyCard("florin", 4)])
    market_of(g, 1, 7)
    ok = lambda c: None  # noqa: E731
    assert check_paid(g, seat, 1, [MoneyCard("florin", 3), MoneyCard("florin", 4)], ok, "none") == 7
    for cards, refuse, match in (
        ([], ok, "^none$"),
        ([MoneyCard("florin", 3)], lambda c: "R-X-2: not this", "^R-X-2: not this$"),
        ([MoneyCard("florin", 9)], ok, r"^R-TURN-3: florin-9 is not in the player's hand$"),
        ([MoneyCard("florin", 3)], ok, r"^R-TURN-3: 3 does not cover the price 7 of tile"),
    ):
        with pytest.raises(IllegalActionError, match=match):
            check_paid(g, seat, 1, cards, refuse, "none")
    g.state.bag.insert(0, g.state.market[1])
    g.state.market[1] = None
    with pytest.raises(IllegalActionError, match="^R-TURN-3: market space 2 is empty$"):
        check_paid(g, seat, 2, [MoneyCard("florin", 3)], ok, "none")
    assert g.rules.kinds[Buy].apply is apply_purchase


def test_any_space_money_lists_checks_applies_and_pays_the_vizier_exactly():
    g = alhambra.new_game(3, modules=["vizier", pearls_plugin()], seed=3)
    seat = g.current_player
    for s in range(3):
        hand_of(g, s, [])
    hand_of(g, seat, [Pearl(3), Pearl(4), Pearl(4, 2), Pearl(9), MoneyCard("florin", 1)])
    tile = market_of(g, 2, 7)
    mine = [a for a in g.legal_actions() if type(a) is BuyWithPearls and a.space == 2]
    assert mine == [BuyWithPearls(2, p) for p in value_payments(PEARLS, 7)]
    assert not any(type(a) is Buy and any(type(c) is Pearl for c in a.cards) for a in g.legal_actions())
    exact = [b for b in g.rules.purchase.purchases(g, seat, exact=True) if b.space == 2]
    assert Buy(2, (Pearl(3), Pearl(4))) in exact and Buy(2, (Pearl(9),)) not in exact
    assert g.rules.purchase.first_exact_payer(g, [(seat + 1) % 3, seat]) == seat
    for bad, match in (
        (Buy(2, (Pearl(9),)), r"^R-PEARL-4: pearls buy by BuyWithPearls\(2, \.\.\.\)$"),
        (Buy(2, (Pearl(9), MoneyCard("florin", 1))), "^R-PEARL-2: pearl-9a never with florin-1$"),
        (BuyWithPearls(2, (Pearl(9), MoneyCard("florin", 1))), "^R-PEARL-1: pearls only"),
        (BuyWithPearls(2, ()), "^R-PEARL-1: pay with a pearl$"),
        (BuyWithPearls(2, (Pearl(3),)), "^R-TURN-3: 3 does not cover the price 7"),
    ):
        with pytest.raises(IllegalActionError, match=match):
            g.apply(bad)
    assert g.rules.purchase.check_payment(g, seat, Buy(2, (Pearl(3), Pearl(4)))) == 7
    g.apply(BuyWithPearls(2, (Pearl(3), Pearl(4))))  # exact: another action (R-TURN-4)
    assert g.state.market[1] is None and [p.tile for p in g.state.pending] == [tile]
    assert Pearl(3) in g.state.discard and g.phase == "turn" and g.current_player == seat


@frozen(slots=True, cache_hash=True)
class TakeFlorin(Action):
    coin: MoneyCard


def test_display_take_kind_lists_each_card_once_refuses_and_moves_it_to_the_hand():
    g = alhambra.new_game(3, seed=4)
    st = g.state
    three = MoneyCard("florin", 3)
    st.deck[:0] = st.display
    st.display = []
    for c in (three, MoneyCard("dinar", 2), three):
        take_from([st.deck] + [p.hand for p in st.players], c)
        st.display.append(c)
    st.pile_sizes = []
    alhambra.operations.invalidate(g)
    kind = display_take_kind(TakeFlorin, {three}, "R-X-3: {code} is not shown")
    assert kind.phases == frozenset({"turn"}) and kind.legal(g, 0) == [TakeFlorin(three)]
    with pytest.raises(IllegalActionError, match="^R-X-3: florin-9 is not shown$"):
        kind.check(g, 0, TakeFlorin(MoneyCard("florin", 9)))
    kind.apply(g, 0, TakeFlorin(three))
    assert st.display.count(three) == 1 and st.players[0].hand[-1] is three
    st.display.remove(three)
    assert kind.legal(g, 0) == []


def test_an_observed_deck_kind_counts_each_players_cards_and_the_deck():
    declared = Declared("pearls", deck=DeckKind(Pearl, "pearl", observed=True), view=("hands", "display", "in_deck"))
    layout = types.SimpleNamespace(
        num_players=2, cards=["pearl-3a", "pearl-9a"], card_index={"pearl-3a": 0, "pearl-9a": 1}
    )
    shapes = declared.deck_shapes(layout)
    assert shapes == {"held": (2, 2), "in_deck": (1,)}
    out = {k: np.zeros(v) for k, v in shapes.items()}
    declared.deck_observe(out, {"hands": [["pearl-9a"], ["pearl-3a", "pearl-9a"]], "in_deck": 5}, [1, 0], layout)
    assert out["held"].tolist() == [[1, 1], [0, 1]] and out["in_deck"].tolist() == [5]
    assert Declared("p", deck=DeckKind(Pearl, "pearl"), view=("hands",)).observation(layout) == []
