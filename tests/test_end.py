"""R-END-1 … R-END-4: the end of the game."""

import pytest

from alhambra.engine import sequence
import alhambra
from alhambra import Buy, Place, Reserve
from alhambra.rules.end import market_recipient
from helpers import cards, empty_the_bag, situation


def test_r_end_1_game_ends_when_the_market_cannot_be_refilled():
    g = situation(
        3,
        seat=0,
        market=[5, 13, 22, 31],
        hands={0: cards("florin-6", "dinar-9"), 1: cards("florin-9"), 2: cards("dirham-1")},
    )
    st = g.state
    empty_the_bag(g, keep=1)
    last = st.bag[0]
    g.apply(Buy(1, cards("florin-6")))  # exact: again
    g.apply(Buy(3, cards("dinar-9")))  # exact: again
    g.apply(next(a for a in g.legal_actions() if isinstance(a, alhambra.TakeMoney)))
    g.apply(Reserve(5))
    g.apply(Reserve(22))
    # space 1 was refilled with the last building, space 3 could not be: the game ends
    assert g.phase in ("place", "over")
    assert st.bag == []
    # space 1 (florin, the last bag tile) goes to seat 1 (florin 9, the most)
    assert last in st.players[1].reserve + [p.tile for p in st.pending] + list(st.players[1].city.tiles.values())


def test_r_end_2_market_goes_to_most_money_of_its_currency_ties_get_nothing():
    hands = [cards("florin-9", "dirham-3", "ducat-1"), cards("florin-5", "dirham-3"), cards("dinar-2")]
    assert market_recipient(hands, "florin") == 0
    assert market_recipient(hands, "dirham") is None  # tie for most
    assert market_recipient(hands, "dinar") == 2
    assert market_recipient(hands, "ducat") == 0
    assert market_recipient([[], []], "ducat") is None  # nobody has any: tied at 0


def test_r_end_2_3_distribution_then_placement_then_final_scoring():
    g = situation(
        3,
        seat=2,
        market=[5, 13, 22, 31],
        hands={0: cards("florin-9", "dirham-3"), 1: cards("florin-5", "dirham-3"), 2: cards("dinar-2")},
    )
    st = g.state
    sequence.end_game(g)
    # 13 (dirham: tie) and 31 (ducat: nobody) leave the game; 5 to seat 0, 22 to seat 2
    assert set(st.out_of_play) >= {13, 31}
    assert st.market == [None] * 4
    # recipients place in seat order from the player after the one who finished (seat 2)
    assert g.phase == "place" and g.current_player == 0 and [p.tile for p in st.pending] == [5]
    assert not any(isinstance(a, alhambra.GiveToDirk) for a in g.legal_actions())
    g.apply(Place(5, (0, -1)))
    assert g.current_player == 2 and [p.tile for p in st.pending] == [22]
    g.apply(Reserve(22))
    assert g.is_over and [r.number for r in st.scorings] == [3]
    # 5 is a pavilion in seat 0's Alhambra: 1st place pavilion in scoring 3 = 16, plus its wall
    assert st.scorings[-1].totals[0] == 16 + 1
    assert g.current_player is None and g.legal_actions() == []
    with pytest.raises(alhambra.IllegalActionError, match="over"):
        g.apply(Reserve(22))


def test_r_end_4_most_points_wins_ties_share():
    g = situation(3)
    sequence.end_game(g)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    st = g.state
    for p, s in zip(st.players, (50, 61, 61)):
        p.score = s
    assert g.winners == (1, 2)
    assert alhambra.returns(g) == (0.0, 0.5, 0.5)


def test_r_end_4_money_tiebreak_variant():
    g = situation(3, options={"tiebreak": "money"})
    sequence.end_game(g)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    st = g.state
    for p, s, h in zip(st.players, (61, 61, 61), (cards("florin-3"), cards("dinar-9"), cards("ducat-4", "ducat-5"))):
        p.score, p.hand = s, h
    assert g.winners == (1, 2)  # 9 = 9: still shared
    st.players[2].hand = cards("ducat-4")
    assert g.winners == (1,)


def test_r_end_5_no_vizier_during_the_end_of_game_distribution():
    """R-END-5 / R-VIZ-7: when the game ends, players with an active vizier and an exact
    payment are not asked: the distribution and the final scoring follow directly."""
    g = situation(
        3,
        seat=0,
        market=[5, 13, 22, 31],
        hands={0: cards("florin-9"), 1: cards("dirham-8"), 2: cards("dinar-9")},
        modules=["vizier"],
    )
    st = g.state
    empty_the_bag(g)
    assert all(st.modules["vizier"].active)
    g.apply(Buy(1, cards("florin-9")))  # overpaid: the turn's actions end
    g.apply(Reserve(5))
    # the market cannot be refilled: the game ends; seats 1 and 2 receive buildings at once
    assert g.phase == "place" and st.place_context == "distribution"
    while not g.is_over:
        assert g.phase == "place"  # never the vizier's phase
        g.apply(next(a for a in g.legal_actions() if isinstance(a, Reserve)))
    assert [r.number for r in st.scorings] == [3]
    assert 13 in st.players[1].reserve and 22 in st.players[2].reserve
