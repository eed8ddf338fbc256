"""The engine against the rulings of RULES.md: uneven piles (R-SET-6), every game
ends (R-END-1), reactivating the vizier as the extra action (R-VIZ-4), huts never to Dirk
(R-HUT-3). Each a hand-built situation with its exact outcome."""

from __future__ import annotations

import pytest

import alhambra
from alhambra import operations
from alhambra import GiveToDirk, IllegalActionError, MoneyCard, Pass, Place, Reserve
from alhambra.components import SCORING_A, SCORING_B

from helpers import situation


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("modules", [[], ["exchange_offices"]])
def test_r_set_6_uneven_piles_the_lower_numbered_take_the_extra_cards(players, modules):
    """R-SET-6 ruling: the money cards left after dealing split into 5 piles differing by at
    most one card, the lower-numbered piles taking the extra ones; A lies in pile 2, B in
    pile 4, two offices each in piles 2, 3 and 4 (R-EXC-1)."""
    g = alhambra.new_game(players, modules=modules, seed=players)
    st = g.state
    piles: dict[int, list] = {k: [] for k in range(1, 6)}
    for i, c in enumerate(st.deck):
        piles[operations.pile_of(g, i)].append(c)
    money = [sum(type(c) is MoneyCard for c in piles[k]) for k in range(1, 6)]
    total = sum(money)
    q, r = divmod(total, 5)
    assert money == [q + 1] * r + [q] * (5 - r)
    assert SCORING_A in piles[2] and SCORING_B in piles[4]
    others = {k: [c for c in piles[k] if type(c) not in (MoneyCard, alhambra.ScoringCard)] for k in piles}
    assert [len(others[k]) for k in range(1, 6)] == ([0, 2, 2, 2, 0] if modules else [0] * 5)


def test_r_end_1_empty_bag_and_full_market_play_goes_on_until_a_space_stays_empty():
    """R-END-1 ruling: with the bag empty and the market full, a turn that takes money ends
    normally; the next turn that buys leaves a space empty and the game ends."""
    g = situation(
        3,
        seat=0,
        market=[1, 8, 24, 44],
        hands={0: [MoneyCard("florin", 2)], 1: [MoneyCard("florin", 9)]},
        display=[MoneyCard("ducat", 1), MoneyCard("ducat", 2), MoneyCard("dinar", 1), MoneyCard("dinar", 2)],
    )
    st = g.state
    st.out_of_play.extend(st.bag)  # the bag is empty (tiles kept out of the way)
    st.bag = []
    alhambra.operations.invalidate(g)
    g.apply(alhambra.TakeMoney([MoneyCard("ducat", 1)]))
    assert not g.is_over and g.phase == "turn" and g.current_player == 1 and st.market == [1, 8, 24, 44]
    g.apply(alhambra.Buy(1, [MoneyCard("florin", 9)]))  # overpays building 1 (price 2): no extra action
    assert g.phase == "place" and g.current_player == 1
    g.apply(Reserve(1))
    assert g.state.phase in ("place", "over")  # the market was not refilled: the game has ended
    assert g.state.market[0] is None
    for _ in range(20):
        if g.is_over:
            break
        g.apply(g.legal_actions()[-1])
    assert [r.number for r in g.state.scorings] == [3]


def test_r_end_1_a_round_in_which_everyone_could_only_pass_ends_the_game():
    """R-END-1 ruling: empty display, deck and discard, nothing affordable, no redesign: every
    player can only pass (R-TURN-9); after the whole round the game ends (it used to go on
    for ever). Two passes do not end it."""
    g = situation(3, seat=1, hands={0: [MoneyCard("florin", 1)], 1: [MoneyCard("dirham", 1)], 2: []}, display=[])
    st = g.state
    st.deck, st.discard = [], []
    alhambra.operations.invalidate(g)
    assert all(alhambra.components.BUILDINGS[t - 1].price > 1 for t in st.market)
    for k in range(2):
        assert g.legal_actions() == [Pass()]
        g.apply(Pass())
        assert not g.is_over and g.phase == "turn" and g.current_player == (2 + k) % 3
    assert g.legal_actions() == [Pass()]
    g.apply(Pass())
    for _ in range(20):  # buildings of a tied market leave the game; anything received is placed
        if g.is_over:
            break
        g.apply(g.legal_actions()[-1])
    assert g.is_over and [r.number for r in st.scorings] == [3]
    assert all(t is None for t in st.market)


def test_r_viz_4_reactivation_may_be_the_extra_action_and_ends_the_turns_actions():
    """R-VIZ-4 ruling: after an exact payment (R-TURN-4) the extra action may be reactivating
    the vizier; it ends the turn's actions, so the bought building is placed next."""
    g = situation(
        3, seat=0, market=[2, 8, 24, 44], hands={0: [MoneyCard("florin", 3), MoneyCard("ducat", 9)]}, modules=["vizier"]
    )
    vs = g.state.modules["vizier"]
    vs.active[0] = False
    alhambra.operations.invalidate(g)
    import alhambra_vizier as vz

    g.apply(alhambra.Buy(1, [MoneyCard("florin", 3)]))  # building 2, price 3: exact
    assert g.phase == "turn" and g.current_player == 0 and vz.ReactivateVizier() in g.legal_actions()
    g.apply(vz.ReactivateVizier())
    assert vs.active[0] is True
    assert g.phase == "place" and g.current_player == 0 and [p.tile for p in g.state.pending] == [2]
    assert not any(isinstance(a, (alhambra.Buy, alhambra.TakeMoney)) for a in g.legal_actions())


def test_r_hut_3_a_hut_never_goes_to_dirk():
    """R-HUT-3 (R-TWO-5 is for bought buildings): with two players a taken hut is built or
    reserved, never given to Dirk; a bought building may be."""
    g = situation(2, seat=0, modules=["building_huts"])
    from alhambra_building_huts import TakeHut

    take = next(a for a in g.legal_actions() if isinstance(a, TakeHut))
    g.apply(take)
    assert g.phase == "place" and [p.tile for p in g.state.pending] == [take.hut]
    legal = g.legal_actions()
    assert Reserve(take.hut) in legal and any(isinstance(a, Place) for a in legal)
    assert not any(isinstance(a, GiveToDirk) for a in legal)
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="R-TWO-5"):
        g.apply(GiveToDirk(take.hut))
    assert g.to_json() == before


def _vizier_round(seat1_hand):
    """Seat 0 ends its turn by taking money; only seat 1 has an active vizier (R-VIZ-5 asks
    0, then 2, then 1). Returns the game at the start of seat 1's turn and the actions seat 1
    took in between."""
    import alhambra_vizier as vz

    g = situation(
        3,
        seat=0,
        market=[2, 9, 24, 44],
        modules=["vizier"],
        hands={0: [MoneyCard("florin", 9)], 1: seat1_hand, 2: [MoneyCard("ducat", 1)]},
        display=[MoneyCard("ducat", 2), MoneyCard("ducat", 3), MoneyCard("dinar", 1), MoneyCard("dinar", 2)],
    )
    g.state.modules["vizier"].active = [False, True, False]
    alhambra.operations.invalidate(g)
    g.apply(alhambra.TakeMoney([MoneyCard("ducat", 2)]))
    between = []
    while g.phase == "vizier":
        assert g.legal_actions()[-1] == vz.DeclineVizier()
        between.append(g.current_player)
        g.apply(vz.DeclineVizier())
    return g, between


def test_r_viz_5_a_seat_that_cannot_pay_looks_to_the_others_like_one_that_declines():
    """R-VIZ-5 ruling: seat 1 holding an exact payment (dirham 4 for building 9) is asked and
    declines; holding dirham 5 (no exact payment) it is not asked. Afterwards every other
    seat's view, the spectator's and the vizier state are the same in both games."""
    declined, asked = _vizier_round([MoneyCard("dirham", 4)])
    skipped, not_asked = _vizier_round([MoneyCard("dirham", 5)])
    assert asked == [1] and not_asked == []
    for g in (declined, skipped):
        assert g.phase == "turn" and g.current_player == 1 and g.state.turn == 2
    for seat in (0, 2, None):
        assert declined.view(seat) == skipped.view(seat)
    assert declined.state.modules["vizier"] == skipped.state.modules["vizier"]
