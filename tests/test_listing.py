"""The engine's fast turn listing equals the rules asked one question at a time.

``legal_actions`` builds the redesign actions in one pass over the Alhambra (R-TURN-5,
R-TURN-6, R-PLACE-1 … -6) and the purchases from memos keyed by the hand's money code
(R-TURN-3, R-TURN-4, R-EXC-4). These tests play random legal games, with every module
combination, 2-6 players and both R-PLACE-6 variants, and at every turn compare the listed
actions with the slow, public queries: ``Alhambra.placements``/``removable``/
``swap_positions`` and ``Game.payments`` per market space.
"""

from __future__ import annotations

import itertools
import random
import types
import unittest.mock

import pytest
from attrs import frozen
from hypothesis import given, settings
from hypothesis import strategies as hst

import alhambra
from alhambra import BuildFromReserve, Buy, RemoveToReserve, Swap
from alhambra.components import MoneyCard
from alhambra.rules import purchase
from helpers import M, modules_st, players_st, seeds_st, situation


def _expected_turn_actions(game, seat):
    """The redesign actions and purchases of ``seat``, from the public one-question APIs."""
    p = game.state.players[seat]
    city = p.city
    builds = [BuildFromReserve(t, pos) for t in p.reserve for pos in city.placements(t)]
    removals = [RemoveToReserve(pos) for pos in city.removable()]
    swaps = [Swap(t, pos) for t in p.reserve for pos in city.swap_positions(t)]
    buys = [b for space in (1, 2, 3, 4) for b in game.rules.purchase.payments(game, seat, space)]
    return builds, removals, swaps, buys


def _brute_payments(game, seat, space, exact=False):
    """The non-dominated payments for ``space`` found by trying every set of cards in hand
    (R-TURN-3, R-TURN-4, R-EXC-4), as ``{(via code or None, sorted card codes)}``: plain ones
    in the space's currency, and through each means those with a card of another currency."""
    from itertools import combinations

    st = game.state
    tile = st.market[space - 1]
    if tile is None:
        return set()
    price = game.rules.catalog[tile].price
    cur = alhambra.components.MARKET_CURRENCIES[space - 1]
    hand = [c for c in st.players[seat].hand if type(c) is MoneyCard]
    ways = [(None, frozenset([cur]))]
    if game.rules.has_payment_means:
        others = sum(type(c) is not MoneyCard for c in st.players[seat].hand)
        ways += [(m.via, m.currencies) for m in purchase._means_of(game, seat, others) if cur in m.currencies]
    found = set()
    for via, curs in ways:
        cards = [c for c in hand if c.currency in curs]
        for k in range(1, len(cards) + 1):
            for combo in combinations(cards, k):
                total = sum(c.value for c in combo)
                if total < price or total - min(c.value for c in combo) >= price or (exact and total != price):
                    continue
                if via is not None and all(c.currency == cur for c in combo):
                    continue  # the plain payment offers it
                found.add((getattr(via, "code", None), tuple(sorted(c.code for c in combo))))
    return found


def _as_ways(buys):
    return {(getattr(b.via, "code", None), tuple(sorted(c.code for c in b.cards))) for b in buys}


def _check_turn_listing(game):
    seat = game.current_player
    legal = game.legal_actions()
    builds, removals, swaps, buys = _expected_turn_actions(game, seat)
    assert [a for a in legal if type(a) is BuildFromReserve] == builds
    assert [a for a in legal if type(a) is RemoveToReserve] == removals
    assert [a for a in legal if type(a) is Swap] == swaps
    assert [a for a in legal if type(a) is Buy] == buys
    for space in (1, 2, 3, 4):  # R-TURN-3: against every set of cards in hand
        listed = [b for b in buys if b.space == space]
        assert len(listed) == len(_as_ways(listed)) and _as_ways(listed) == _brute_payments(game, seat, space)
    city = game.state.players[seat].city
    # every removal really is one the rules allow (R-TURN-6), checked tile by tile
    assert removals == [RemoveToReserve(pos) for pos in sorted(city.tiles) if city.why_not_remove(pos) is None]
    payers = []
    for s in range(game.num_players):  # the vizier's test: some exact payment (R-VIZ-2)
        exact = [b for space in (1, 2, 3, 4) for b in game.rules.purchase.payments(game, s, space, exact=True)]
        assert _as_ways(exact) == set().union(*(_brute_payments(game, s, space, True) for space in (1, 2, 3, 4)))
        assert game.rules.purchase.can_pay_exactly(game, s) == bool(exact)
        assert game.rules.purchase.purchases(game, s, exact=True) == exact
        if exact:
            payers.append(s)
    order = [(seat - k) % game.num_players for k in range(game.num_players)]  # R-VIZ-5 order
    assert game.rules.purchase.first_exact_payer(game, order) == next((s for s in order if s in payers), None)


@settings(max_examples=40, deadline=None)
@given(players=players_st, modules=modules_st, seed=seeds_st, holes=hst.sampled_from(["cell", "region"]))
def test_r_turn_5_6_r_turn_3_4_listing_equals_the_rules_asked_one_by_one(players, modules, seed, holes):
    game = alhambra.new_game(players, modules=modules, seed=seed, options={"holes": holes})
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and steps < 400:
        if game.phase == "turn":
            _check_turn_listing(game)
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        steps += 1


def test_r_turn_3_purchases_of_a_hand_of_sixteen_or_more_cards():
    """A hand too big for the money code (16+ cards, edited by hand) is listed by the slow
    path and still agrees with ``payments``; so does the same hand cut back to 15 cards."""
    big = [
        M(code)
        for code in ["florin-1"] * 3
        + ["florin-2"] * 3
        + ["dirham-3"] * 3
        + ["dinar-4"] * 3
        + ["ducat-5"] * 3
        + ["florin-9"]
    ]
    for hand in (big, big[:15]):
        game = situation(2, market=[1, 2, 3, 4], hands={0: list(hand)})
        alhambra.operations.invalidate(game)
        expected = [b for space in (1, 2, 3, 4) for b in game.rules.purchase.payments(game, 0, space)]
        assert expected, "these hands can buy something"
        for space in (1, 2, 3, 4):
            assert _as_ways([b for b in expected if b.space == space]) == _brute_payments(game, 0, space)
        assert game.rules.purchase.purchases(game, 0) == expected
        assert [a for a in game.legal_actions() if type(a) is Buy] == expected


def test_r_turn_3_equal_hands_in_any_order_share_the_payments():
    """The memo key is the hand's money code: the same cards in another order (and with
    other cards among them) give the same purchases."""
    one = [M("florin-3"), M("dinar-5"), M("florin-4"), M("florin-3")]
    two = [M("florin-3"), M("florin-4"), M("dinar-5"), M("florin-3")]
    first = situation(2, market=[1, 2, 3, 4], hands={0: one})
    second = situation(2, market=[1, 2, 3, 4], hands={0: two})
    assert first.rules.purchase.purchases(first, 0) == second.rules.purchase.purchases(second, 0)
    assert first.rules.purchase.purchases(first, 0) == [
        b for space in (1, 2, 3, 4) for b in first.rules.purchase.payments(first, 0, space)
    ]


def test_money_lanes_count_each_card_per_currency():
    """MONEY_LANE: a card's market space (the index of its currency) and a number that,
    summed over a hand's cards of that currency, counts each value in 4 bits."""
    from alhambra.components import MARKET_CURRENCIES, MONEY_LANE
    from alhambra.rules.purchase import _money_keys

    hand = [MoneyCard("dirham", 7)] * 3 + [MoneyCard("ducat", 1), MoneyCard("dirham", 2)]
    dirham = MARKET_CURRENCIES.index("dirham")
    assert MONEY_LANE[MoneyCard("dirham", 7)] == (dirham, 1 << 28)
    keys = _money_keys(hand)
    assert keys[dirham] >> 28 & 15 == 3 and keys[dirham] >> 8 & 15 == 1
    assert keys[dirham] == 3 << 28 | 1 << 8
    assert keys[MARKET_CURRENCIES.index("ducat")] == 1 << 4
    assert keys[MARKET_CURRENCIES.index("florin")] == 0
    assert _money_keys(list(reversed(hand)))[:4] == keys[:4]


def test_r_turn_5_listing_follows_hand_edits_after_invalidate():
    """Editing the reserve or the Alhambra by hand: the listing follows (the redesign cache
    is kept with a copy of the reserve and with the layout)."""
    game = situation(3, cities={0: {(1, 0): 21, (0, 1): 7}}, reserves={0: [44]})
    _check_turn_listing(game)
    before = [a for a in game.legal_actions() if type(a) is BuildFromReserve]
    st = game.state
    extra = st.bag.pop()
    st.players[0].reserve.append(extra)
    alhambra.operations.invalidate(game)
    _check_turn_listing(game)
    after = [a for a in game.legal_actions() if type(a) is BuildFromReserve]
    assert any(a.tile == extra for a in after) and len(after) > len(before)
    city = st.players[0].city
    city.place(44, city.placements(44)[0])
    st.players[0].reserve.remove(44)
    alhambra.operations.invalidate(game)
    _check_turn_listing(game)
    assert not any(a.tile == 44 for a in game.legal_actions() if type(a) in (BuildFromReserve, Swap))


@frozen
class Joker(alhambra.Card):
    """A plugin's card that is not money, for the payment-means tests."""

    code = "joker"


JOKER = Joker()


def _game_with_means(means, name: str):
    """A 2-player game with a plugin whose ``alhambra_payment_means`` is ``means``, and a
    building priced 3 on the florin space. Returns the game and that space's number."""
    plugin = types.SimpleNamespace(alhambra_payment_means=alhambra.hookimpl(means), __name__=name)
    game = alhambra.new_game(2, seed=5, plugins=[plugin])
    space = 1 + alhambra.components.MARKET_CURRENCIES.index("florin")
    tile = next(t for t, spec in game.rules.catalog.items() if t != alhambra.FOUNTAIN and spec.price == 3)
    game.state.market[space - 1] = tile
    return game, space


def test_r_exc_4_one_card_offering_two_means_lists_both():
    """A plugin's card may open two payment means (any answer depending on the hand alone is
    allowed): purchases through each are listed, as ``payments`` lists them."""

    def alhambra_payment_means(game, seat):
        if JOKER in game.state.players[seat].hand:
            return [
                alhambra.PaymentMeans(JOKER, frozenset({"florin", "dinar"})),
                alhambra.PaymentMeans(JOKER, frozenset({"florin", "dirham"})),
            ]
        return []

    game, space = _game_with_means(alhambra_payment_means, "joker")
    game.state.players[0].hand = [M("dinar-3"), M("dirham-3"), JOKER]
    alhambra.operations.invalidate(game)
    listed = [b for b in game.rules.purchase.purchases(game, 0) if b.space == space]
    assert listed == game.rules.purchase.payments(game, 0, space)
    assert sorted(b.cards[0].currency for b in listed) == ["dinar", "dirham"]


def test_r_exc_4_money_alone_opens_no_means_and_the_plugins_are_not_asked():
    """A payment means is a card that is not money (``alhambra_payment_means``): a hand of
    money cards alone has none, so the hook is not called for it. Once the hand holds another
    card, it is asked; a plugin offering a money card as a means is a ConfigError."""
    asked = []

    def alhambra_payment_means(game, seat):
        asked.append(list(game.state.players[seat].hand))
        return [
            alhambra.PaymentMeans(c, frozenset({"florin", "dinar"}))
            for c in game.state.players[seat].hand
            if c in (JOKER, M("dinar-3"))
        ]

    game, space = _game_with_means(alhambra_payment_means, "means_probe")
    game.state.players[0].hand = [M("dinar-3"), M("dirham-3")]
    alhambra.operations.invalidate(game)
    assert [b for b in game.rules.purchase.purchases(game, 0) if b.space == space] == []  # no florin, no means
    assert game.rules.purchase.payments(game, 0, space) == [] and not game.rules.purchase.can_pay_exactly(game, 0)
    assert game.rules.purchase.payment_cards(game, 0, space) == [(None, frozenset({"florin"}))]
    assert asked == []
    game.state.players[0].hand = [M("dinar-3"), M("dirham-3"), JOKER]
    alhambra.operations.invalidate(game)
    with pytest.raises(alhambra.ConfigError, match="money card dinar-3 as a payment means"):
        game.rules.purchase.purchases(game, 0)
    assert asked == [[M("dinar-3"), M("dirham-3"), JOKER]]
    game.state.players[0].hand = [M("dirham-3"), JOKER, M("dinar-5")]
    alhambra.operations.invalidate(game)
    listed = [b for b in game.rules.purchase.purchases(game, 0) if b.space == space]
    assert listed == [Buy(space, (M("dinar-5"),), JOKER)] == game.rules.purchase.payments(game, 0, space)
    assert asked[1:] == [[M("dirham-3"), JOKER, M("dinar-5")]]


def test_r_turn_4_exact_look_alikes_mean_their_truth():
    """``purchases(seat, exact=...)`` with a non-bool: its truth value, never another seat's
    cached answer."""
    hand = [MoneyCard(c, v) for c in alhambra.CURRENCIES for v in (2, 5, 9)]
    game = situation(2, hands={0: list(hand), 1: list(hand)})
    everything, exact = game.rules.purchase.purchases(game, 1), game.rules.purchase.purchases(game, 1, exact=True)
    assert len(everything) > len(exact)
    for flag in (2, -1, None, "", "yes"):
        alhambra.operations.invalidate(game)
        assert game.rules.purchase.purchases(game, 0, exact=flag) == (exact if flag else everything)
        assert game.rules.purchase.can_pay_exactly(game, 0) == bool(exact)
        assert game.rules.purchase.purchases(game, 1) == everything


def test_r_turn_6_open_link_count_follows_an_unchecked_city():
    """The open-link count behind the tree test stays the sum over the tiles even in a city
    built without checks (walls that do not match), so removals agree with a fresh build."""
    from alhambra import Alhambra

    city = Alhambra.from_tiles({(1, 0): 2, (2, 0): 1}, check=False)
    city.remove((2, 0))
    fresh = Alhambra.from_tiles(city.tiles, check=False)
    assert city.is_tree() == fresh.is_tree()
    assert city.removable() == fresh.removable()


def test_r_viz_2_r_viz_5_first_exact_payer_in_priority_order():
    """R-VIZ-2: only a seat holding an exact payment for some market building may use the
    vizier; R-VIZ-5: asked in priority order. Hand-built: space 1 (florin) costs 5, the
    others are empty; seat 0 holds florin 2+3 (exact), seat 1 florin 6 (only overpays),
    seat 2 florin 5 (exact), seat 3 dinar 5 (wrong currency)."""
    from alhambra.components import BASE_CATALOG

    five = next(t for t in range(1, 55) if BASE_CATALOG[t].price == 5)
    game = situation(
        4,
        market=[five, None, None, None],
        hands={0: [M("florin-2"), M("florin-3")], 1: [M("florin-6")], 2: [M("florin-5")], 3: [M("dinar-5")]},
    )
    assert [game.rules.purchase.can_pay_exactly(game, s) for s in range(4)] == [True, False, True, False]
    assert game.rules.purchase.first_exact_payer(game, [1, 0, 3, 2]) == 0
    assert game.rules.purchase.first_exact_payer(game, [3, 2, 1, 0]) == 2
    assert game.rules.purchase.first_exact_payer(game, [1, 3]) is None
    game.state.players[2].hand = [M("florin-4")]  # the cached bitset follows the hand
    assert game.rules.purchase.first_exact_payer(game, [3, 2, 1]) is None
    # seats are read lazily, in order: the first payer ends the round, whatever follows
    assert game.rules.purchase.first_exact_payer(game, [1, 0, "x"]) == 0
    assert game.rules.purchase.first_exact_payer(game, itertools.cycle([3, 0])) == 0
    with pytest.raises(alhambra.ConfigError):
        game.rules.purchase.first_exact_payer(game, [1, 99, 0])


class _FakeInt:
    """Claims to be an int (``__class__``) without being one."""

    @property
    def __class__(self):
        return int


@pytest.mark.parametrize("seats", [1, None, [True], [-1], [4], [2.0], [_FakeInt()], [unittest.mock.Mock(spec=int)]])
def test_first_exact_payer_bad_seats_are_config_errors(seats):
    """Anything but an iterable of int seats 0 … players-1 is a ConfigError (a bool, a float,
    an object posing as an int), and the game is unchanged."""
    game = situation(4, hands={0: [M("florin-2"), M("florin-3")]})
    before = game.to_json()
    with pytest.raises(alhambra.ConfigError, match="seat"):
        game.rules.purchase.first_exact_payer(game, seats)
    assert game.to_json() == before


@pytest.mark.parametrize("modules", [(), ("vizier", "exchange_offices")])
def test_small_payment_memos_change_nothing(modules):
    """The payment memos shared by a rule set's games are bounded (``memo_limit``): cleared
    over and over, they give the same games as when they never fill."""

    def play(seed):
        game = alhambra.new_game(4, modules=modules, seed=seed)
        rng = random.Random(seed)
        lists = []
        while not game.is_over:
            legal = game.legal_actions()
            lists.append(legal)
            game.apply(legal[rng.randrange(len(legal))])
        return lists, [p.score for p in game.state.players]

    rules = alhambra.new_game(4, modules=modules, seed=0).rules
    normal = [play(seed) for seed in range(3)]
    limit = rules.memo_limit
    try:
        rules.memo_limit = 8
        rules.memo.clear()
        for group in rules.buy_memo:
            for memo in group:
                memo.clear()
        small = [play(seed) for seed in range(3)]
        assert all(len(m) <= 2 for group in rules.buy_memo for m in group)
        assert len(rules.memo) <= 8
    finally:
        rules.memo_limit = limit
    assert small == normal


def test_r_turn_3_minimal_payments_as_a_pure_function():
    """R-TURN-3/4: every non-dominated payment, each multiset once; junk is a ConfigError."""
    from alhambra import ConfigError, minimal_payments

    f3, f4, f5 = MoneyCard("florin", 3), MoneyCard("florin", 4), MoneyCard("florin", 5)
    # 3+3+4 = 10 is dominated (drop a 3: 7 still pays); the two 3s are one payment, not two
    assert minimal_payments([f3, f3, f4, f5], 7) == [(f5, f4), (f5, f3), (f4, f3)]
    assert minimal_payments([f3, f3, f4, f5], 7, exact=True) == [(f4, f3)]
    assert minimal_payments([f3], 7) == []
    for cards, price in (([f3, "x"], 3), ([f3, None], 3), ([f3], "7"), ([f3], -1), ([f3], True)):
        with pytest.raises(ConfigError):
            minimal_payments(cards, price)


def test_r_turn_3_r_viz_2_price_zero_tile_has_no_exact_payment():
    """R-TURN-3: a purchase needs at least one money card, so a tile priced 0 (a hut put on
    the market by a variant) has no exact payment: ``can_pay_exactly`` says no, with or
    without cards, and agrees with the exact purchases listed (none)."""
    game = new_game_with_huts_on_market()
    for hand in ([], [M("florin-1")], [M("florin-1"), M("dinar-2")]):
        game.state.players[0].hand = list(hand)
        alhambra.operations.invalidate(game)
        assert game.rules.purchase.purchases(game, 0, exact=True) == []
        assert game.rules.purchase.can_pay_exactly(game, 0) is False
        assert game.rules.purchase.first_exact_payer(game, [0]) is None
    game.state.players[0].hand = [M("florin-1")]
    alhambra.operations.invalidate(game)
    assert [b.cards for b in game.rules.purchase.purchases(game, 0)] == [(M("florin-1"),)]  # overpaying stays possible


def new_game_with_huts_on_market():
    from alhambra_building_huts import hut_ids

    game = alhambra.new_game(2, modules=["building_huts"], seed=3)
    hut = min(hut_ids(game.rules.catalog))
    assert game.rules.catalog[hut].price == 0
    game.state.market = [hut, None, None, None]
    alhambra.operations.invalidate(game)
    return game
