"""R-COMP: the components encoded as package data (COMPONENTS.md)."""

from collections import Counter

import alhambra
from alhambra import BUILDINGS, EAST, NORTH, SOUTH, WEST
from alhambra.components import BASE_CATALOG, SCORING_TABLE, money_deck


def test_r_comp_1_fountain_has_no_walls_and_player_counts():
    assert BASE_CATALOG[alhambra.FOUNTAIN].walls == 0
    assert alhambra.game.MIN_PLAYERS == 2 and alhambra.game.MAX_PLAYERS == 6


def test_r_comp_2_fifty_four_buildings_with_agreed_walls():
    assert len(BUILDINGS) == 54
    assert [b.id for b in BUILDINGS] == list(range(1, 55))
    by_type = Counter(b.type for b in BUILDINGS)
    assert [by_type[t] for t in alhambra.BUILDING_TYPES] == [7, 7, 9, 9, 11, 11]
    sides = Counter()
    for b in BUILDINGS:
        for bit in (NORTH, EAST, SOUTH, WEST):
            sides[bit] += bool(b.walls & bit)
        assert b.walls != 15
        # COMPONENTS.md says "no tile has two opposite walls"; three-wall tiles necessarily do,
        # so the check that holds is: no TWO-wall tile has opposite walls (they are corners).
        if bin(b.walls).count("1") == 2:
            assert b.walls not in (NORTH | SOUTH, EAST | WEST)
    assert sum(sides.values()) == 80 and set(sides.values()) == {20}
    assert len({(b.type, b.price, b.walls) for b in BUILDINGS}) == 54
    assert [b.id for b in BUILDINGS if b.walls == 0] == [7, 14, 22, 23, 31, 32, 41, 42, 52, 53]
    # spot checks against COMPONENTS.md
    assert BASE_CATALOG[1].price == 2 and BASE_CATALOG[1].walls == NORTH | EAST | WEST
    assert BASE_CATALOG[21].type == "arcades" and BASE_CATALOG[21].walls == EAST
    assert BASE_CATALOG[54].price == 13 and BASE_CATALOG[54].walls == EAST
    prices = {t: sorted(b.price for b in BUILDINGS if b.type == t) for t in alhambra.BUILDING_TYPES}
    assert (prices["pavilion"][0], prices["pavilion"][-1]) == (2, 8)
    assert (prices["tower"][0], prices["tower"][-1]) == (7, 13)


def test_r_comp_3_money_cards_and_scoring_table():
    deck = money_deck()
    assert len(deck) == 108
    assert Counter(c.currency for c in deck) == {c: 27 for c in alhambra.CURRENCIES}
    assert Counter(deck)[alhambra.MoneyCard("dinar", 9)] == 3
    assert SCORING_TABLE["pavilion"] == ((1,), (8, 1), (16, 8, 1))
    assert SCORING_TABLE["tower"] == ((6,), (13, 6), (21, 13, 6))
    assert alhambra.components.SCORING_A.number == 1 and alhambra.components.SCORING_B.number == 2


def test_r_comp_4_market_currencies():
    assert alhambra.MARKET_CURRENCIES == ("florin", "dirham", "dinar", "ducat")


def test_r_comp_5_reserve_is_unbounded():
    g = alhambra.new_game(2, seed=3)
    g.state.players[0].reserve = list(range(1, 30))
    assert len(g.view(0)["players"][0]["reserve"]) == 29


def test_r_comp_3_r_exc_1_cards_are_one_instance_per_value():
    """R-COMP-3, R-EXC-1: a money card and an exchange office exist once per value
    (``InternedCard``): built again, with keywords, copied, deep-copied or unpickled, it is the
    same object, and calling ``__init__`` again changes nothing."""
    import copy
    import pickle

    from alhambra import InternedCard, MoneyCard
    from alhambra_exchange_offices import ExchangeOffice

    for card, again in (
        (MoneyCard("florin", 7), MoneyCard(currency="florin", value=7)),
        (ExchangeOffice("florin", "dinar"), ExchangeOffice(first="florin", second="dinar")),
    ):
        assert isinstance(card, InternedCard) and again is card
        assert copy.copy(card) is card and copy.deepcopy([card])[0] is card
        assert all(
            pickle.loads(pickle.dumps(card, protocol)) is card for protocol in range(pickle.HIGHEST_PROTOCOL + 1)
        )
        before = card.code
        card.__init__("dirham", "ducat")
        assert card.code == before
