"""Tests of the module "exchange_offices" (Wechselstuben), rules R-EXC-1 … R-EXC-6.

Hand-built situations start from ``alhambra.new_game(..., modules=["exchange_offices"])`` and
edit ``game.state`` so that every card and tile stays accounted for: cards put into a hand or
the display are pulled out of the deck (or wherever they are) and the cards they replace go to
the bottom of the deck; market tiles are swapped with the bag. So ``check_invariants`` holds in
every situation built here. A deck arranged by hand no longer follows the piles of R-SET-6, so
those helpers drop the pile record (``state.pile_sizes = []``: no pile information), which
keeps such situations loadable from a save.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import alhambra
import alhambra_exchange_offices as exc
from alhambra import Buy, ConfigError, IllegalActionError, MoneyCard, Reserve, TakeMoney
from alhambra.rules.setup import split_piles
from alhambra.testing import check_invariants, random_playout
from alhambra_exchange_offices import OFFICES, ExchangeOffice, TakeOffice
from helpers import (
    advance,
    assert_refused,
    continue_alike,
    deck_arranged_by_hand,
    empty_the_bag,
    save_and_load,
    take_from,
)
from helpers import dinar as n
from helpers import dirham as d
from helpers import ducat as u
from helpers import florin as f

FD = ExchangeOffice("florin", "dirham")
FDIN = ExchangeOffice("florin", "dinar")
FDUC = ExchangeOffice("florin", "ducat")
DD = ExchangeOffice("dirham", "dinar")
DDUC = ExchangeOffice("dirham", "ducat")
DINDUC = ExchangeOffice("dinar", "ducat")


def tile_of_price(price: int, avoid=()) -> int:
    return next(b.id for b in alhambra.BUILDINGS if b.price == price and b.id not in avoid)


# ---------------------------------------------------------------------------------------------
# Situation building (keeps every card and tile accounted for)
# ---------------------------------------------------------------------------------------------


def new(players=3, seed=1, **kw):
    return alhambra.new_game(players, modules=["exchange_offices"], seed=seed, **kw)


def pull(game, card):
    """Remove one copy of ``card`` from wherever it is (deck first) and return it."""
    stt = game.state
    return take_from([stt.deck, stt.display, stt.discard] + [p.hand for p in stt.players], card, "card")


def _refill(game, place, cards):
    """Make ``place`` (a hand or the display) hold exactly ``cards``, pulled from wherever they
    are; the cards it held go to the bottom of the deck."""
    old = list(place)
    place.clear()
    game.state.deck[0:0] = old
    for c in cards:
        place.append(pull(game, c))
    deck_arranged_by_hand(game)
    alhambra.operations.invalidate(game)


def give(game, seat, cards):
    """Set ``seat``'s hand to exactly ``cards``; the old hand goes to the bottom of the deck."""
    _refill(game, game.state.players[seat].hand, cards)


def set_display(game, cards):
    """Set the money display to exactly ``cards``; the old display goes to the bottom of the deck."""
    _refill(game, game.state.display, cards)


def put_on_deck_top(game, cards):
    """Put ``cards`` on top of the deck, the first of them drawn first."""
    for c in cards:
        pull(game, c)
    game.state.deck.extend(reversed(cards))
    deck_arranged_by_hand(game)
    alhambra.operations.invalidate(game)


def set_market(game, tiles):
    """Put ``tiles`` on spaces 1-4; the tiles they replace go back into the bag."""
    stt = game.state
    for t in stt.market:
        if t is not None:
            stt.bag.append(t)
    for t in tiles:
        stt.bag.remove(t)
    stt.market = list(tiles)
    alhambra.operations.invalidate(game)


def standard_market(game, price1=7):
    """Space 1 (florin) costs ``price1``; spaces 2-4 hold the three dearest buildings (12, 12,
    13), beyond the hands built in these tests unless they want them."""
    t1 = tile_of_price(price1)
    set_market(game, [t1, 43, 53, 54])
    return t1


def buyer(hand, *, seed=2, price1=7):
    """A three-player game (``seed``) with the standard market (space 1 costing ``price1``)
    whose turn player holds exactly ``hand``: ``(game, seat, the tile on space 1)``."""
    game = new(3, seed)
    seat = game.state.turn_player
    t1 = standard_market(game, price1)
    give(game, seat, hand)
    return game, seat, t1


def office_locations(game):
    """``{office: [place, ...]}`` from ``alhambra.card_locations(game)``."""
    out = {o: [] for o in OFFICES}
    for place, cards in alhambra.card_locations(game).items():
        for c in cards:
            if type(c) is ExchangeOffice:
                out[c].append(place)
    return out


def assert_offices_once(game):
    locs = office_locations(game)
    bad = {o.code: where for o, where in locs.items() if len(where) != 1}
    assert not bad, f"offices not accounted for exactly once: {bad}"


def check_all(game, action=None):
    check_invariants(game)
    assert_offices_once(game)


# ---------------------------------------------------------------------------------------------
# The cards and the module object
# ---------------------------------------------------------------------------------------------


def test_r_exc_1_six_offices_one_per_pair():
    """R-EXC-1 / COMPONENTS.md: six offices, one per pair of the four currencies, currencies in
    CURRENCIES order, codes ``office-<a>-<b>``, registered so that saves can name them."""
    assert len(OFFICES) == 6
    assert {frozenset(o.currencies) for o in OFFICES} == {frozenset(p) for p in combinations(alhambra.CURRENCIES, 2)}
    assert [o.code for o in OFFICES] == [
        "office-florin-dirham",
        "office-florin-dinar",
        "office-florin-ducat",
        "office-dirham-dinar",
        "office-dirham-ducat",
        "office-dinar-ducat",
    ]
    for o in OFFICES:
        assert isinstance(o, alhambra.Card)
        assert alhambra.CURRENCIES.index(o.first) < alhambra.CURRENCIES.index(o.second)
        assert o.first in str(o) and o.second in str(o)
        assert hash(o) == hash(ExchangeOffice(o.first, o.second)) and o == ExchangeOffice(o.first, o.second)
    game = new()
    for o in OFFICES:
        assert game.rules.cards[o.code] is o or game.rules.cards[o.code] == o
    assert exc.NAME == "exchange_offices" and exc.RULES == tuple(f"R-EXC-{i}" for i in range(1, 7))
    assert isinstance(exc.DESCRIPTION, str) and "\n" not in exc.DESCRIPTION
    assert game.rules.modules == ("exchange_offices",)


@pytest.mark.parametrize("a,b", [("dirham", "florin"), ("florin", "florin"), ("florin", "euro")])
def test_r_exc_1_bad_office_rejected(a, b):
    """R-EXC-1: an office shows two different currencies, in CURRENCIES order."""
    with pytest.raises(ConfigError):
        ExchangeOffice(a, b)


def test_r_exc_3_take_office_action_value():
    """R-EXC-3: TakeOffice names an office; anything else is refused at construction."""
    a = TakeOffice(FD)
    assert str(a) == "take office-florin-dirham"
    assert a == TakeOffice(ExchangeOffice("florin", "dirham")) and hash(a) == hash(TakeOffice(FD))
    with pytest.raises(IllegalActionError, match="R-EXC-3"):
        TakeOffice(f(3))


# ---------------------------------------------------------------------------------------------
# R-EXC-1: setup
# ---------------------------------------------------------------------------------------------


def piles_after_setup(game):
    """The five piles of R-SET-6 as they lie right after setup (pile 1 first, top card first)."""
    order = list(reversed(game.state.deck))  # drawing order
    base = len(order) - 2 - 6  # the money cards split into piles, without scoring cards and offices
    sizes = [len(p) for p in split_piles(list(range(base)))]
    extra = [0, 1 + 2, 2, 1 + 2, 0]  # A and two offices into pile 2; two into pile 3; B and two into pile 4
    piles, i = [], 0
    for s, e in zip(sizes, extra):
        piles.append(order[i : i + s + e])
        i += s + e
    assert i == len(order)
    return piles


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_r_exc_1_two_offices_in_each_of_piles_2_3_4(players, seed):
    """R-EXC-1 / R-SET-6: right after setup every office is in the deck, two in each of piles
    2, 3 and 4, none in piles 1 and 5, none dealt to a hand or the display; the scoring cards
    are still in piles 2 (A) and 4 (B)."""
    game = new(players, seed)
    piles = piles_after_setup(game)
    per_pile = [sum(type(c) is ExchangeOffice for c in p) for p in piles]
    assert per_pile == [0, 2, 2, 2, 0]
    assert Counter(c for p in piles for c in p if type(c) is ExchangeOffice) == Counter(OFFICES)
    assert [c.code for c in piles[1] if type(c) is alhambra.ScoringCard] == ["scoring-A"]
    assert [c.code for c in piles[3] if type(c) is alhambra.ScoringCard] == ["scoring-B"]
    assert all(type(c) is MoneyCard for c in game.state.display)
    assert all(type(c) is MoneyCard for p in game.state.players for c in p.hand)
    check_all(game)


def test_r_exc_1_offices_at_random_depths_and_pairings():
    """R-EXC-1: which offices go into which pile, and how deep, depends on the shuffle."""
    depths, pairs = set(), set()
    for seed in range(40):
        piles = piles_after_setup(new(4, seed))
        for k in (1, 2, 3):
            for depth, c in enumerate(piles[k]):
                if type(c) is ExchangeOffice:
                    depths.add((k, depth))
            pairs.add((k, frozenset(c for c in piles[k] if type(c) is ExchangeOffice)))
    assert len({dep for k, dep in depths if k == 2}) > 5
    assert len(pairs) > 10


def test_r_exc_1_setup_is_deterministic_per_seed():
    """R-EXC-1: the offices are shuffled with the game's own generator: same seed, same deck."""
    assert new(4, 99).to_json() == new(4, 99).to_json()


# ---------------------------------------------------------------------------------------------
# R-EXC-2: the display
# ---------------------------------------------------------------------------------------------


def test_r_exc_2_office_drawn_into_display_counts_among_the_four():
    """R-EXC-2: a drawn office lies in the display like any card; the display refills to 4
    cards in all, offices included."""
    game = new(3, 5)
    seat = game.state.turn_player
    set_display(game, [f(1), d(2), n(9), u(8)])
    put_on_deck_top(game, [DD, FDUC, n(1)])
    deck_before = len(game.state.deck)
    game.apply(TakeMoney((f(1), d(2))))  # two cards totalling 3 (R-TURN-2): the turn ends
    assert game.state.turn_player == (seat + 1) % 3
    assert game.state.display == [n(9), u(8), DD, FDUC]
    assert len(game.state.deck) == deck_before - 2
    assert TakeOffice(DD) in game.legal_actions() and TakeOffice(FDUC) in game.legal_actions()
    check_all(game)


def test_r_exc_2_display_of_offices_only():
    """R-EXC-2: the display may hold only offices; then no money can be taken but offices can."""
    game = new(3, 5)
    set_display(game, [FD, DD, DINDUC, FDIN])
    acts = game.legal_actions()
    assert not [a for a in acts if isinstance(a, TakeMoney)]
    assert {a for a in acts if isinstance(a, TakeOffice)} == {TakeOffice(o) for o in (FD, DD, DINDUC, FDIN)}
    view = game.view(None)
    assert view["display"] == [o.code for o in (FD, DD, DINDUC, FDIN)]
    assert view["modules"]["exchange_offices"]["display"] == view["display"]


# ---------------------------------------------------------------------------------------------
# R-EXC-3: taking an office
# ---------------------------------------------------------------------------------------------


def test_r_exc_3_taking_an_office_is_the_whole_action():
    """R-EXC-3: taking an office ends the turn; the office goes to the hand; the display is
    refilled (R-TURN-8)."""
    game = new(3, 7)
    seat = game.state.turn_player
    give(game, seat, [f(2)])
    set_display(game, [FD, d(1), d(2), n(3)])
    put_on_deck_top(game, [u(9)])
    game.apply(TakeOffice(FD))
    assert game.state.players[seat].hand == [f(2), FD]
    assert game.state.turn_player == (seat + 1) % 3 and game.phase == "turn"
    assert game.state.display == [d(1), d(2), n(3), u(9)]
    assert game.history[-1] == TakeOffice(FD)
    check_all(game)


def test_r_exc_3_offices_in_hand_unlimited():
    """R-EXC-3: a player may hold any number of offices and still take another."""
    game = new(3, 7)
    seat = game.state.turn_player
    give(game, seat, [FD, FDIN, FDUC, DD, DDUC])
    set_display(game, [DINDUC, d(1), d(2), n(3)])
    assert TakeOffice(DINDUC) in game.legal_actions()
    game.apply(TakeOffice(DINDUC))
    assert Counter(game.state.players[seat].hand) == Counter(OFFICES)
    check_all(game)


def test_r_exc_3_office_taken_as_extra_action_after_exact_purchase():
    """R-EXC-3 with R-TURN-4: after an exact purchase the extra action may be taking an office;
    that ends the turn's actions (the bought building then waits to be placed)."""
    game, seat, t1 = buyer([f(7)], seed=8)
    set_display(game, [DDUC, d(1), d(2), n(3)])
    game.apply(Buy(1, (f(7),)))
    assert game.phase == "turn" and game.current_player == seat
    game.apply(TakeOffice(DDUC))
    assert game.phase == "place" and game.current_player == seat
    assert [p.tile for p in game.state.pending] == [t1]
    assert game.state.players[seat].hand == [DDUC]
    check_all(game)


def test_r_exc_3_office_not_in_display_is_illegal():
    """R-EXC-3: only an office lying in the display can be taken; the state is unchanged."""
    game = new(3, 7)
    set_display(game, [FD, d(1), d(2), n(3)])
    assert_refused(game, TakeOffice(DD), match="R-EXC-3")


def test_r_exc_3_take_money_cannot_take_an_office():
    """R-EXC-3 / R-TURN-2: offices are not money: TakeMoney never lists or accepts one, alone
    or with money; the state is unchanged."""
    game = new(3, 7)
    set_display(game, [FD, f(1), d(2), n(3)])
    takes = [a for a in game.legal_actions() if isinstance(a, TakeMoney)]
    assert takes and all(type(c) is MoneyCard for a in takes for c in a.cards)
    assert_refused(game, TakeMoney((FD,)), TakeMoney((FD, f(1))), TakeMoney((FD, f(1), d(2))), match="R-TURN-2")


def test_r_exc_3_take_office_only_on_a_turn():
    """R-EXC-3: taking an office is a turn action, not possible while placing."""
    game, _, _ = buyer([f(9)], seed=8)
    set_display(game, [DDUC, d(1), d(2), n(3)])
    game.apply(Buy(1, (f(9),)))  # overpaid: placing follows
    assert game.phase == "place"
    assert not [a for a in game.legal_actions() if isinstance(a, TakeOffice)]
    assert_refused(game, TakeOffice(DDUC))


# ---------------------------------------------------------------------------------------------
# R-EXC-4: paying with an office
# ---------------------------------------------------------------------------------------------


def test_r_exc_4_pay_florin_space_with_dirham_only_exact():
    """R-EXC-4: with the florin+dirham office, a florin space (price 7) is paid with dirham
    cards 4 + 3 only; the exact total earns another action (R-TURN-4); cards and office go to
    the discard pile (R-EXC-5)."""
    game, seat, t1 = buyer([d(4), d(3), f(1), FD])
    discard_before = list(game.state.discard)
    buy = Buy(1, (d(4), d(3)), via=FD)
    assert buy in game.legal_actions()
    game.apply(buy)
    assert game.phase == "turn" and game.current_player == seat and game.state.turn_player == seat
    assert game.state.players[seat].hand == [f(1)]
    assert game.state.discard == discard_before + [d(3), d(4), FD]
    assert game.state.market[0] is None and [p.tile for p in game.state.pending] == [t1]
    assert str(game.history[-1]) == "buy space 1 paying dirham-3+dirham-4 via office-florin-dirham"
    check_all(game)


def test_r_exc_4_mixed_currencies_exact():
    """R-EXC-4: any mix of the office's two currencies: florin 3 + dirham 4 for a florin 7."""
    game, seat, _ = buyer([f(3), d(4), FD])
    game.apply(Buy(1, (f(3), d(4)), via=FD))
    assert game.phase == "turn" and game.current_player == seat
    assert game.state.players[seat].hand == []
    check_all(game)


def test_r_exc_4_office_for_the_second_currency_of_its_pair():
    """R-EXC-4: the office works for either of its currencies: florin+dirham pays a dirham
    space (space 2) with florin cards."""
    game = new(3, 2)
    seat = game.state.turn_player
    t2 = tile_of_price(8)
    set_market(game, [43, t2, 53, 54])
    give(game, seat, [f(5), f(3), FD])
    game.apply(Buy(2, (f(5), f(3)), via=FD))
    assert game.phase == "turn" and [p.tile for p in game.state.pending] == [t2]
    assert game.state.discard[-1] == FD
    check_all(game)


def test_r_exc_4_overpaying_via_office_ends_the_turn():
    """R-EXC-4 / R-TURN-4: an overpayment through an office buys the building but earns no
    extra action; the office is spent all the same."""
    game, seat, t1 = buyer([d(9), f(2), FD])
    game.apply(Buy(1, (d(9),), via=FD))
    assert game.phase == "place" and game.current_player == seat
    assert game.state.players[seat].hand == [f(2)]
    assert game.state.discard[-2:] == [d(9), FD]
    game.apply(Reserve(t1))
    assert game.state.players[seat].reserve == [t1]
    assert game.state.turn_player == (seat + 1) % 3 and game.phase == "turn"
    check_all(game)


def test_r_exc_4_overpayment_not_listed_still_accepted():
    """R-EXC-4: a dominated overpayment via an office (dirham 9 + dirham 1 for 7) is not listed
    but is accepted, and ends the turn."""
    game, seat, _ = buyer([d(9), d(1), FD])
    buy = Buy(1, (d(9), d(1)), via=FD)
    assert buy not in game.legal_actions()
    game.apply(buy)
    assert game.phase == "place" and game.state.players[seat].hand == []
    check_all(game)


def test_r_exc_4_office_spent_even_if_second_currency_unused():
    """R-EXC-4: paying only in the space's own currency via an office is allowed, and the office
    is spent although its second currency was not used."""
    game, seat, _ = buyer([f(7), FD])
    buy = Buy(1, (f(7),), via=FD)
    # listed once, without the office (the office adds nothing); applying it via the office
    # is still legal and spends the office
    assert Buy(1, (f(7),)) in game.legal_actions() and buy not in game.legal_actions()
    game.apply(buy)
    assert game.state.players[seat].hand == []
    assert game.state.discard[-2:] == [f(7), FD]
    assert game.phase == "turn"  # exact: extra action
    check_all(game)


def test_r_exc_4_office_without_space_currency_is_illegal():
    """R-EXC-4: an office that does not show the space's currency cannot pay for it (dinar+
    ducat office, florin space); the state is exactly unchanged."""
    game, _, _ = buyer([n(4), n(3), d(4), d(3), DINDUC, DD])
    assert not [a for a in game.legal_actions() if isinstance(a, Buy) and a.space == 1]
    assert_refused(game, Buy(1, (n(4), n(3)), via=DINDUC), Buy(1, (d(4), d(3)), via=DD), match="R-EXC-4")


def test_r_exc_4_office_not_in_hand_is_illegal():
    """R-EXC-4: only an office in the buyer's own hand can be played."""
    game, seat, _ = buyer([d(4), d(3)])
    other = (seat + 1) % 3
    give(game, other, [FD])
    set_display(game, [FDIN, f(1), f(2), f(3)])
    assert_refused(game, Buy(1, (d(4), d(3)), via=FD), Buy(1, (d(4), d(3)), via=FDIN), match="R-EXC-4")


def test_r_exc_4_cards_outside_the_pair_are_illegal():
    """R-EXC-4: via florin+dirham, a dinar card cannot be part of the payment."""
    game, _, _ = buyer([d(4), n(3), FD])
    assert_refused(game, Buy(1, (d(4), n(3)), via=FD), match="R-TURN-3")


def test_r_exc_4_only_one_office_per_purchase():
    """R-EXC-4 (ruling: one office per purchase): holding florin+dirham and florin+dinar, a
    florin space cannot be paid with dirham and dinar together; each listed purchase spends at
    most one office, and a purchase via one office leaves the other in hand."""
    game, seat, _ = buyer([d(4), n(3), FD, FDIN])
    buys = [a for a in game.legal_actions() if isinstance(a, Buy)]
    assert buys == []  # 4 dirham or 3 dinar alone cannot cover 7, and the two offices do not combine
    assert_refused(game, Buy(1, (d(4), n(3)), via=FD), Buy(1, (d(4), n(3)), via=FDIN))
    # with enough dirham, one office is spent and the other stays
    give(game, seat, [d(4), d(3), n(3), FD, FDIN])
    game.apply(Buy(1, (d(4), d(3)), via=FD))
    assert game.state.players[seat].hand == [n(3), FDIN]
    check_all(game)


def test_r_exc_4_legal_actions_list_via_payments():
    """R-EXC-4: the legal purchases are exactly the non-dominated payments with each means: for
    a florin 7 (other spaces out of reach) and hand florin 3, dirham 4, dirham 2, florin+dirham
    office, only florin 3 + dirham 4 via the office."""
    game, _, _ = buyer([f(3), d(4), d(2), FD])
    buys = [a for a in game.legal_actions() if isinstance(a, Buy)]
    assert buys == [Buy(1, (f(3), d(4)), via=FD)]


def test_r_exc_4_legal_actions_list_each_office():
    """R-EXC-4: with two usable offices, payments are listed via each of them (where the office
    adds a currency), and plain ones; an office payment in the space's own currency only is not
    listed again (it is still legal: see test_r_exc_4_office_spent_even_if_second_currency_unused)."""
    game, seat, _ = buyer([f(5), d(5), n(5), FD, FDIN], price1=5)
    buys = {a for a in game.legal_actions() if isinstance(a, Buy)}
    assert buys == {
        Buy(1, (f(5),)),
        Buy(1, (d(5),), via=FD),
        Buy(1, (n(5),), via=FDIN),
    }
    assert all(
        game.rules.purchase.check_payment(game, seat, b) == 5
        for b in (Buy(1, (f(5),), via=FD), Buy(1, (f(5),), via=FDIN))
    )


def test_r_exc_4_view_and_save_of_a_via_purchase():
    """R-EXC-4: a purchase via an office is saved and loaded with its office (by code)."""
    game, _, _ = buyer([d(4), d(3), FD])
    game.apply(Buy(1, (d(4), d(3)), via=FD))
    text = game.to_json()
    assert '"via":"office-florin-dirham"' in text
    loaded = alhambra.Game.from_json(text, check_history=False)  # a hand set by hand: no history from the set-up
    assert loaded.history[-1] == Buy(1, (d(4), d(3)), via=FD)
    assert loaded.to_json() == text


# ---------------------------------------------------------------------------------------------
# R-EXC-5: back through the discard pile
# ---------------------------------------------------------------------------------------------


def test_r_exc_5_spent_office_returns_when_discard_reshuffled():
    """R-EXC-5: a spent office lies in the discard pile; when the deck is empty at the refill,
    the discard pile (office included) becomes the new deck and the office is drawn again."""
    game, seat, t1 = buyer([d(4), d(3), FD], seed=4)
    other = (seat + 1) % 3
    set_display(game, [f(1)])
    # empty deck and discard (their cards parked in another hand, so all stay accounted for)
    stt = game.state
    stt.players[other].hand.extend(stt.deck + stt.discard)
    stt.deck, stt.discard = [], []
    alhambra.operations.invalidate(game)
    check_all(game)
    game.apply(Buy(1, (d(4), d(3)), via=FD))  # exact: another action
    assert stt.discard == [d(3), d(4), FD]
    game.apply(TakeMoney((f(1),)))
    game.apply(Reserve(t1))  # end of turn: refill from the reshuffled discard pile
    assert stt.turn_player == other
    assert Counter(stt.display) == Counter([d(3), d(4), FD])  # deck and discard now empty: display short
    assert stt.deck == [] and stt.discard == []
    assert TakeOffice(FD) in game.legal_actions()
    check_all(game)


def test_r_exc_5_office_in_discard_is_shuffled_into_new_deck():
    """R-EXC-5: when the discard pile (with offices) has more cards than needed, the offices
    become part of the new deck."""
    game = new(3, 4)
    seat = game.state.turn_player
    other = (seat + 1) % 3
    stt = game.state
    set_display(game, [f(1), f(2), f(3), f(9)])
    stt.players[other].hand.extend(stt.deck + stt.discard)
    stt.deck, stt.discard = [], []
    for c in (DD, FD, n(1), n(2), n(3), n(4), n(5), n(6)):
        stt.discard.append(pull(game, c))
    alhambra.operations.invalidate(game)
    game.apply(TakeMoney((f(9),)))
    assert len(stt.display) == 4 and stt.discard == [] and len(stt.deck) == 7
    assert sum(type(c) is ExchangeOffice for c in stt.deck + stt.display) == 2
    check_all(game)


# ---------------------------------------------------------------------------------------------
# R-EXC-6: end of game
# ---------------------------------------------------------------------------------------------


def test_r_exc_6_offices_ignored_in_end_distribution():
    """R-EXC-6 / R-END-2: at the end, offices neither count as money nor convert currencies.
    Space 2 (dirham): seat A holds dirham 3, florin 9 and the florin+dirham and dirham+dinar
    offices, seat B dirham 4: B gets it. Space 3 (dinar): A dinar 2 + dinar+ducat office, B
    dinar 2: tied, nobody gets it. Space 4 (ducat): nobody holds ducats: nobody gets it."""
    game = new(3, 11)
    seat = game.state.turn_player
    a, b = (seat + 1) % 3, (seat + 2) % 3
    t1 = tile_of_price(7)
    t2, t3, t4 = tile_of_price(8), tile_of_price(9), tile_of_price(10)
    set_market(game, [t1, t2, t3, t4])
    give(game, seat, [f(9)])
    give(game, a, [d(3), f(8), n(2), FD, DD, DINDUC])
    give(game, b, [d(4), n(2)])
    stt = game.state
    empty_the_bag(game)  # the game ends after this turn (R-END-1)
    game.apply(Buy(1, (f(9),)))  # overpaid: the turn ends
    game.apply(Reserve(t1))
    # distribution: only b receives (space 2); a's offices did not count
    assert game.phase == "place" and game.current_player == b
    assert [p.tile for p in stt.pending] == [t2]
    assert t3 in stt.out_of_play and t4 in stt.out_of_play
    game.apply(Reserve(t2))
    assert game.is_over
    assert stt.players[b].reserve == [t2] and stt.players[a].reserve == []
    check_all(game)


def test_r_exc_6_offices_cannot_be_used_in_distribution():
    """R-EXC-6: an office does not let its holder count its other currency: with the
    florin+dirham office, florin 9 + dirham 1 loses space 2 (dirham) to dirham 2."""
    game = new(3, 12)
    seat = game.state.turn_player
    a, b = (seat + 1) % 3, (seat + 2) % 3
    t1, t2 = tile_of_price(7), tile_of_price(8)
    set_market(game, [t1, t2, tile_of_price(9), tile_of_price(10)])
    give(game, seat, [f(9)])
    give(game, a, [f(9), d(1), FD])
    give(game, b, [d(2)])
    stt = game.state
    empty_the_bag(game)
    game.apply(Buy(1, (f(9),)))
    game.apply(Reserve(t1))
    assert game.current_player == b and [p.tile for p in stt.pending] == [t2]


def test_r_exc_6_offices_ignored_by_money_tiebreak():
    """R-EXC-6 / R-END-4 (tiebreak = "money"): players tied on points are separated by the money
    left in hand; offices add nothing (A: 5 money + 3 offices loses to B: 6 money)."""
    game = new(3, 13, options={"tiebreak": "money"})
    a, b, c = 0, 1, 2
    give(game, a, [f(5), FD, DD, DINDUC])
    give(game, b, [u(6)])
    give(game, c, [f(9)])
    stt = game.state
    stt.players[a].score = stt.players[b].score = 40
    stt.players[c].score = 10
    stt.phase, stt.decider = "over", None
    assert game.winners == (b,)
    # and offices alone never beat real money
    give(game, b, [u(5)])
    assert game.winners == (a, b)


# ---------------------------------------------------------------------------------------------
# Views
# ---------------------------------------------------------------------------------------------


def test_view_offices_are_public_money_stays_secret():
    """R-EXC-3: offices are taken openly: every view (a spectator's too) shows who holds which
    office, the display's and discard's offices; other players' money stays secret."""
    game = new(3, 3)
    give(game, 0, [f(3), FD, DINDUC])
    give(game, 1, [d(2)])
    game.state.discard.append(pull(game, DD))
    set_display(game, [FDUC, f(1), d(1), n(1)])
    for viewer in (None, 0, 1, 2):
        v = game.view(viewer)
        mod = v["modules"]["exchange_offices"]
        assert mod["hands"] == [["office-florin-dirham", "office-dinar-ducat"], [], []]
        assert mod["display"] == ["office-florin-ducat"]
        assert mod["discard"] == ["office-dirham-dinar"]
        assert mod["in_deck"] == 2
        if viewer != 0:
            assert "hand" not in v["players"][0]
            assert "florin-3" not in repr(mod)
    assert game.view(0)["players"][0]["hand"] == ["florin-3", "office-florin-dirham", "office-dinar-ducat"]


# ---------------------------------------------------------------------------------------------
# Random play (properties)
# ---------------------------------------------------------------------------------------------


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), play=st.integers(0, 2**32))
def test_random_games_keep_invariants_and_offices_accounted(players, seed, play):
    """Random legal games with offices, 2-6 players: every invariant holds after every action,
    and each of the six offices is in exactly one place (R-EXC-1 … R-EXC-5)."""
    game = new(players, seed)
    check_all(game)
    random_playout(game, play, each_step=check_all)
    assert game.is_over and game.winners


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), steps=st.integers(0, 400))
def test_save_load_mid_game_continues_identically(players, seed, steps):
    """Saving and loading mid-game (offices anywhere: deck, display, hands, discard, history
    with TakeOffice and via purchases) gives the same game, which continues identically."""
    game = new(players, seed)
    advance(game, random.Random(seed), steps)
    loaded = save_and_load(game)
    assert loaded.legal_actions() == game.legal_actions()
    assert loaded.view(None) == game.view(None)
    continue_alike(game, loaded, steps)


def test_random_play_takes_spends_and_recycles_offices():
    """Random play really exercises the module: offices are taken (R-EXC-3), spent on
    purchases (R-EXC-4), and come back from the discard pile after a reshuffle (R-EXC-5)."""
    taken = spent = returned = 0
    for seed in range(4):
        game = new(4, seed)
        rng = random.Random(seed)
        was_discarded: set = set()
        while not game.is_over:
            a = rng.choice(game.legal_actions())
            game.apply(a)
            if isinstance(a, TakeOffice):
                taken += 1
                if a.office in was_discarded:
                    returned += 1
                    was_discarded.discard(a.office)
            elif isinstance(a, Buy) and a.via is not None:
                spent += 1
                assert game.state.discard[-1] == a.via
                was_discarded.add(a.via)
    assert taken > 5 and spent > 5 and returned > 0
