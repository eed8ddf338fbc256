"""Tests of the module "diamonds" (Die Diamanten) of the second expansion, R-DIA-1 … R-DIA-7.

Hand-built situations move cards between the deck, the display and the hands so that every
card stays accounted for (``check_invariants`` holds)."""

from __future__ import annotations

import random

import pytest

import alhambra
import alhambra_diamonds as dia
from alhambra import Buy, ConfigError, IllegalActionError, MoneyCard, TakeMoney
from alhambra.testing import check_invariants, expected_money
from alhambra_diamonds import BuyWithDiamonds, Diamond
from helpers import assert_refused, deck_arranged_by_hand, save_and_load, take_from


def new(players=3, seed=1, modules=("diamonds",), **kw):
    return alhambra.new_game(players, modules=list(modules), seed=seed, **kw)


def give(g, seat, cards):
    """``seat``'s hand becomes ``cards`` (taken from wherever they lie); its old cards go to
    the bottom of the deck."""
    st = g.state
    p = st.players[seat]
    st.deck[:0] = p.hand
    p.hand = []
    for c in cards:
        take_from([st.deck, st.display, st.discard] + [q.hand for q in st.players], c, "card")
        p.hand.append(c)
    deck_arranged_by_hand(g)
    alhambra.operations.invalidate(g)


def put_on_market(g, space, tile):
    st = g.state
    old = st.market[space - 1]
    if tile in st.bag:
        st.bag.remove(tile)
    elif tile in st.market:
        st.market[st.market.index(tile)] = None
    st.market[space - 1] = tile
    if old is not None and old != tile:
        st.bag.insert(0, old)
    alhambra.operations.invalidate(g)


def tile_of_price(price, avoid=()):
    return next(b.id for b in alhambra.BUILDINGS if b.price == price and b.id not in avoid)


def test_r_dia_1_the_ten_cards_and_the_values_option():
    assert [d.code for d in dia.diamonds_for(dia.DEFAULT_VALUES)] == [
        "diamond-3a", "diamond-4a", "diamond-5a", "diamond-5b", "diamond-6a",
        "diamond-6b", "diamond-7a", "diamond-7b", "diamond-8a", "diamond-9a",
    ]  # fmt: skip
    assert Diamond(5, 2) is Diamond(5, 2) and Diamond(5, 2).currency == "diamond"
    g = new(options={"diamonds.values": [1, 9, 9]})
    assert sorted(c.code for c in expected_money(g) if type(c) is Diamond) == ["diamond-1a", "diamond-9a", "diamond-9b"]
    for bad in ([0], [10], "3,4", [], [3.0]):
        with pytest.raises(ConfigError, match="diamonds.values"):
            new(options={"diamonds.values": bad})
    with pytest.raises(ConfigError):
        Diamond(10)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_r_dia_2_in_the_money_deck_before_the_starting_deal(players):
    g = new(players, seed=3)
    money = expected_money(g)
    assert sum(n for c, n in money.items() if type(c) is Diamond) == 10  # R-TWO-1 removes none
    check_invariants(g, expected_cards=money)
    for p in g.state.players:  # R-SET-3: diamonds count towards the 20
        total = sum(c.value for c in p.hand if c.is_money)
        assert total >= 20 and total - p.hand[-1].value < 20
    # over some seeds, a starting hand holds a diamond and diamonds lie in the display
    dealt = shown = 0
    for seed in range(30):
        h = new(4, seed=seed)
        dealt += sum(type(c) is Diamond for p in h.state.players for c in p.hand)
        shown += sum(type(c) is Diamond for c in h.state.display)
    assert dealt > 0 and shown > 0


def test_r_dia_3_taken_like_money_alone_or_up_to_five():
    g = new()
    seat = g.current_player
    display = [Diamond(3), MoneyCard("florin", 2), Diamond(9), MoneyCard("dinar", 4)]
    st = g.state
    st.deck[:0] = st.display
    st.display = []
    for c in display:
        take_from([st.deck] + [p.hand for p in st.players], c)
        st.display.append(c)
    deck_arranged_by_hand(g)
    alhambra.operations.invalidate(g)
    legal = set(g.legal_actions())
    assert TakeMoney((Diamond(9),)) in legal
    assert TakeMoney((Diamond(3), MoneyCard("florin", 2))) in legal  # total 5
    assert TakeMoney((Diamond(3), MoneyCard("dinar", 4))) not in legal  # total 7
    g.apply(TakeMoney((Diamond(3), MoneyCard("florin", 2))))
    assert Diamond(3) in st.players[seat].hand
    check_invariants(g)


@pytest.mark.parametrize("space", [1, 2, 3, 4])
def test_r_dia_4_any_space_all_diamonds_exact_earns_an_extra_action(space):
    g = new()
    seat = g.current_player
    tile = tile_of_price(7)
    put_on_market(g, space, tile)
    give(g, seat, [Diamond(3), Diamond(4), Diamond(9), MoneyCard("florin", 1)])
    price = g.rules.space_prices[space - 1][tile]
    assert price == 7
    buys = [a for a in g.legal_actions() if type(a) is BuyWithDiamonds and a.space == space]
    assert set(buys) == {BuyWithDiamonds(space, (Diamond(3), Diamond(4))), BuyWithDiamonds(space, (Diamond(9),))}
    g.apply(BuyWithDiamonds(space, (Diamond(3), Diamond(4))))
    st = g.state
    assert st.market[space - 1] is None and [p.tile for p in st.pending] == [tile]
    assert Diamond(3) in st.discard and Diamond(4) in st.discard
    assert g.phase == "turn" and g.current_player == seat  # R-TURN-4: another action
    check_invariants(g)


def test_r_dia_4_overpaying_ends_the_actions_and_refusals():
    g = new()
    seat = g.current_player
    tile = tile_of_price(7)
    put_on_market(g, 2, tile)
    give(g, seat, [Diamond(9), Diamond(3), MoneyCard("florin", 5), MoneyCard(alhambra.MARKET_CURRENCIES[1], 2)])
    assert_refused(
        g,
        BuyWithDiamonds(2, (Diamond(3),)),  # too little
        BuyWithDiamonds(2, (Diamond(3), MoneyCard(alhambra.MARKET_CURRENCIES[1], 2))),  # R-DIA-4: no mix
        BuyWithDiamonds(2, (Diamond(8),)),  # not in hand
        Buy(2, (MoneyCard(alhambra.MARKET_CURRENCIES[1], 2), Diamond(9))),  # no mix
        Buy(2, (Diamond(3),)),  # too little
    )
    g.apply(BuyWithDiamonds(2, (Diamond(9),)))
    assert g.phase == "place" and g.current_player == seat
    check_invariants(g)


def test_r_dia_4_a_plain_buy_paid_in_diamonds_is_refused_for_buy_with_diamonds():
    """R-DIA-4: the turn's purchase in diamonds is the listed BuyWithDiamonds; a plain Buy paid
    all in diamonds used to be accepted beside it (overpaying or exact). Now it is refused,
    naming R-DIA-4 and BuyWithDiamonds, and no listed Buy ever holds a diamond."""
    g = new()
    seat = g.current_player
    put_on_market(g, 2, tile_of_price(7))
    give(g, seat, [Diamond(9), Diamond(3), Diamond(4), MoneyCard("florin", 5)])
    assert not any(type(a) is Buy and any(type(c) is Diamond for c in a.cards) for a in g.legal_actions())
    for bad in (Buy(2, (Diamond(9),)), Buy(2, (Diamond(3), Diamond(4))), Buy(2, (Diamond(3),))):
        assert_refused(g, bad, match=r"^R-DIA-4: a building is bought with diamonds by BuyWithDiamonds\(2, \.\.\.\)")
    assert BuyWithDiamonds(2, (Diamond(3), Diamond(4))) in g.legal_actions()
    g.apply(BuyWithDiamonds(2, (Diamond(9),)))  # overpaying, unlisted: still accepted
    check_invariants(g)


def test_r_dia_4_r_dia_5_a_diamond_mixed_with_money_is_refused_as_a_mix():
    """R-DIA-4: one payment is all diamonds or in the space's currency, never a mix; it used to
    be refused as "not a money card". R-DIA-5: never with an exchange office. The vizier's
    payments (R-DIA-6) get the same reasons."""
    g = new(modules=("diamonds", "vizier"))
    seat = g.current_player
    currency = alhambra.MARKET_CURRENCIES[1]
    put_on_market(g, 2, tile_of_price(7))
    give(g, seat, [Diamond(5), MoneyCard(currency, 2), MoneyCard(currency, 5)])
    mix = r"^R-DIA-4: one payment is either all diamonds \(BuyWithDiamonds\) or in the space's currency, never a mix"
    assert_refused(g, Buy(2, (Diamond(5), MoneyCard(currency, 2))), match=mix)
    assert_refused(g, BuyWithDiamonds(2, (Diamond(5), MoneyCard(currency, 2))), match="R-DIA-4: .*never mixed")
    with pytest.raises(IllegalActionError, match=mix):  # the check the vizier's UseVizier passes (R-VIZ-2)
        g.rules.purchase.check_payment(g, seat, Buy(2, (Diamond(5), MoneyCard(currency, 2))))
    assert g.rules.purchase.check_payment(g, seat, Buy(2, (MoneyCard(currency, 2), MoneyCard(currency, 5)))) == 7


def test_r_dia_5_no_exchange_office_with_diamonds():
    import alhambra_exchange_offices as exc

    g = new(modules=("diamonds", "exchange_offices"))
    seat = g.current_player
    tile = tile_of_price(7)
    put_on_market(g, 1, tile)
    office = exc.OFFICES[0]
    give(g, seat, [office, Diamond(9), Diamond(7)])
    assert_refused(g, Buy(1, (Diamond(7),), office), match="^R-DIA-5: an exchange office cannot be played together")
    assert_refused(g, Buy(1, (Diamond(7), Diamond(9)), office), match="^R-DIA-5")
    assert not [a for a in g.legal_actions() if type(a) is Buy]
    assert BuyWithDiamonds(1, (Diamond(7),)) in g.legal_actions()


def test_r_dia_7_no_money_at_the_end_of_the_game():
    from alhambra.rules.end import market_recipient

    hands = [[Diamond(9), Diamond(8), MoneyCard("florin", 1)], [MoneyCard("florin", 2)]]
    assert market_recipient(hands, "florin") == 1
    assert market_recipient([[Diamond(9)], [MoneyCard("dinar", 1)]], "florin") is None


def test_saves_round_trip_and_unknown_diamonds_are_refused():
    g = new(4, seed=2)
    rng = random.Random(2)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions()))
    loaded = save_and_load(g)
    assert loaded.legal_actions() == g.legal_actions()
    text = g.to_json()
    seat_hand = next(p.hand for p in g.state.players if any(type(c) is Diamond for c in p.hand) or True)
    assert seat_hand is not None
    bad = text.replace('"diamond-9a"', '"diamond-9c"', 1)
    if bad != text:
        with pytest.raises(alhambra.SaveFormatError):
            alhambra.Game.from_json(bad, check_history=False)
    twice = alhambra.new_game(4, modules=["diamonds"], seed=2, options={"diamonds.values": [3, 4]})
    assert "diamond-9a" not in twice.rules.cards


def test_view_shows_only_own_diamonds():
    g = new(4, seed=5)
    for seat in range(4):
        part = g.view(seat)["modules"]["diamonds"]
        assert part["hand"] == [c.code for c in g.state.players[seat].hand if type(c) is Diamond]
    assert "hand" not in g.view(None)["modules"]["diamonds"]


def test_determinize_keeps_diamonds_accounted():
    g = new(4, seed=6)
    rng = random.Random(6)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    money = expected_money(g)
    seen = set()
    for k in range(20):
        d = g.determinize(g.current_player, random.Random(k), recall=False)
        check_invariants(d, expected_cards=money)
        seen.add(tuple(c.code for c in d.state.deck[-5:]))
    assert len(seen) > 1
    assert d.view(g.current_player)["modules"] == g.view(g.current_player)["modules"]


def test_bad_values_option_is_refused_with_its_name():
    with pytest.raises(ConfigError, match="1-9"):
        new(options={"diamonds.values": [3, 12]})
    with pytest.raises(IllegalActionError):
        BuyWithDiamonds(5, (Diamond(3),))


def test_r_dia_6_the_vizier_may_pay_exactly_in_diamonds():
    from alhambra_vizier import UseVizier

    g = new(3, modules=("diamonds", "vizier"), seed=4)
    seat = g.current_player
    other = (seat + 1) % 3
    tile = tile_of_price(7)
    put_on_market(g, 3, tile)
    for s in range(3):
        give(g, s, [])
    give(g, other, [Diamond(3), Diamond(4), Diamond(9)])
    assert g.rules.purchase.can_pay_exactly(g, other) and not g.rules.purchase.can_pay_exactly(g, seat)
    # the turn player takes money: the turn ends, and the vizier's asking round begins
    take = next(a for a in g.legal_actions() if type(a) is TakeMoney and not any(type(c) is Diamond for c in a.cards))
    g.apply(take)
    while g.phase == "vizier" and g.current_player != other:
        g.apply(next(a for a in g.legal_actions() if type(a).__name__ == "DeclineVizier"))
    assert g.phase == "vizier" and g.current_player == other
    uses = [a for a in g.legal_actions() if type(a) is UseVizier]
    assert UseVizier(3, (Diamond(3), Diamond(4)), None) in uses
    assert not any(a.space == 3 and a.cards == (Diamond(9),) for a in uses)  # exact only (R-VIZ-2)
    g.apply(UseVizier(3, (Diamond(3), Diamond(4)), None))
    assert Diamond(3) in g.state.discard and Diamond(9) in g.state.players[other].hand
    check_invariants(g)


def _reference_payments(diamonds, price, exact):
    """Every way to pay ``price`` with some of ``diamonds`` from which no card can be left
    out (R-DIA-4), one per multiset of values (the lowest copies), only exact totals with
    ``exact``; by total, then values. Written plainly, to check the module's listing."""
    cards = sorted(diamonds, key=lambda d: (d.value, d.copy))
    ways = {}
    for mask in range(1, 1 << len(cards)):
        chosen = [cards[k] for k in range(len(cards)) if mask >> k & 1]
        total = sum(d.value for d in chosen)
        if total < price or (exact and total != price):
            continue
        if any(total - d.value >= price for d in chosen):
            continue  # a card could be left out: dominated
        values = tuple(d.value for d in chosen)
        lowest = []
        for v in values:  # the lowest copies of each value
            lowest.append(next(d for d in cards if d.value == v and d not in lowest))
        ways.setdefault(values, tuple(lowest))
    return [ways[v] for v in sorted(ways, key=lambda v: (sum(v), v))]


@pytest.mark.parametrize("modules", [("diamonds",), ("diamonds", "vizier", "exchange_offices")])
def test_r_dia_4_r_dia_6_listed_payments_match_a_plain_reference_on_random_states(modules):
    """On many states of random games: the turn's purchases in diamonds (R-DIA-4), the
    exact ones among the vizier's purchases (R-DIA-6) and the vizier's asking round
    (``first_exact_payer``) are exactly what the plain reference gives."""
    rng = random.Random(23)
    checked = exact_seen = 0
    for seed in range(12):
        g = new(3 + seed % 4, seed=seed, modules=modules)
        n = g.num_players
        while not g.is_over:
            legal = g.legal_actions()
            prices = [(i + 1, g.rules.purchase.market_price(g, i + 1)) for i in range(4)]
            for seat in range(n):
                mine = [c for c in g.state.players[seat].hand if type(c) is Diamond]
                exact = [
                    Buy(space, combo, None)
                    for space, price in prices
                    if price is not None
                    for combo in _reference_payments(mine, price, True)
                ]
                listed = [
                    b
                    for b in g.rules.purchase.purchases(g, seat, exact=True)
                    if b.cards and type(b.cards[0]) is Diamond
                ]
                assert listed == exact
                exact_seen += bool(exact)
            if g.phase == "turn":
                seat = g.current_player
                mine = [c for c in g.state.players[seat].hand if type(c) is Diamond]
                want = [
                    BuyWithDiamonds(space, combo)
                    for space, price in prices
                    if price is not None
                    for combo in _reference_payments(mine, price, False)
                ]
                assert [a for a in legal if type(a) is BuyWithDiamonds] == want
                checked += 1
            order = rng.sample(range(n), n)
            assert g.rules.purchase.first_exact_payer(g, order) == next(
                (s for s in order if g.rules.purchase.purchases(g, s, exact=True)), None
            )
            g.apply(legal[rng.randrange(len(legal))])
    assert checked > 500 and exact_seen > 100
