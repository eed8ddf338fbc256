"""R-TURN-1 … R-TURN-9: a player's turn."""

import types

import pytest

import alhambra
from alhambra import ConfigError, hookimpl
from alhambra import BuildFromReserve, Buy, IllegalActionError, Pass, Place, RemoveToReserve, Reserve, Swap, TakeMoney
from helpers import advance, cards, situation

# space 1 florin: tile 5 (pavilion 6, north wall); space 2 dirham: 13 (seraglio 8, south wall)
# space 3 dinar: 22 (arcades 9); space 4 ducat: 31 (chambers 10)
MARKET = [5, 13, 22, 31]


def kinds(actions):
    return {type(a).__name__ for a in actions}


def test_r_turn_1_exactly_one_of_three_actions():
    g = situation(
        3, seat=0, market=MARKET, hands={0: cards("florin-6", "dinar-2")}, cities={0: {(1, 0): 7}}, reserves={0: [14]}
    )
    assert kinds(g.legal_actions()) == {"TakeMoney", "Buy", "BuildFromReserve", "RemoveToReserve", "Swap"}
    g.apply(TakeMoney((g.state.display[0],)))
    assert g.current_player == 1 and g.phase == "turn"


def test_r_turn_2_take_one_card_or_several_totalling_at_most_five():
    disp = cards("florin-1", "dinar-2", "ducat-3", "dirham-9")
    g = situation(3, seat=0, display=disp)
    takes = {a for a in g.legal_actions() if isinstance(a, TakeMoney)}
    expected = {TakeMoney((c,)) for c in disp} | {
        TakeMoney(cards("florin-1", "dinar-2")),
        TakeMoney(cards("florin-1", "ducat-3")),
        TakeMoney(cards("dinar-2", "ducat-3")),
    }
    assert takes == expected
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="R-TURN-2"):
        g.apply(TakeMoney(cards("ducat-3", "dirham-9")))
    with pytest.raises(IllegalActionError, match="R-TURN-2"):
        g.apply(TakeMoney(cards("florin-5")))
    assert g.to_json() == before
    hand = list(g.state.players[0].hand)
    g.apply(TakeMoney(cards("florin-1", "dinar-2")))
    assert g.state.players[0].hand == hand + cards("dinar-2", "florin-1")
    assert len(g.state.display) == 4  # refilled at the end of the turn


def _take_limit(limit, name="money_six"):
    """A house rule changing R-TURN-2's total through the ``alhambra_take_limit`` hook."""
    return types.SimpleNamespace(NAME=name, alhambra_take_limit=hookimpl(lambda limit, v=limit: v))


def test_r_turn_2_take_limit_hook_changes_the_total_of_several_cards():
    """R-TURN-2 under a house rule: the rule set's total (``rules.take_limit``, 5 without the
    hook) decides which takes are listed and why one is refused; house rules chain."""
    assert alhambra.new_game(2, seed=1).rules.take_limit == 5
    disp = cards("florin-1", "dinar-2", "ducat-4", "dirham-9")
    g = situation(3, seat=0, display=disp, plugins=[_take_limit(6)])
    assert g.rules.take_limit == 6
    takes = {a for a in g.legal_actions() if isinstance(a, TakeMoney)}
    assert TakeMoney(cards("dinar-2", "ducat-4")) in takes  # 6: listed under the house rule
    assert TakeMoney(cards("florin-1", "dinar-2", "ducat-4")) not in takes  # 7
    with pytest.raises(IllegalActionError, match="R-TURN-2: .* at most 6 .*total 7"):
        g.apply(TakeMoney(cards("florin-1", "dinar-2", "ducat-4")))
    g.apply(TakeMoney(cards("dinar-2", "ducat-4")))
    plus_one = types.SimpleNamespace(NAME="plus_one", alhambra_take_limit=hookimpl(lambda limit: limit + 1))
    assert alhambra.new_game(2, plugins=[_take_limit(6), plus_one], seed=1).rules.take_limit == 7
    assert alhambra.new_game(2, plugins=[plus_one], seed=1).rules.take_limit == 6


@pytest.mark.parametrize("bad", [-1, 101, 6.0, True, "6"])
def test_r_turn_2_take_limit_hook_refuses_what_is_not_a_total(bad):
    with pytest.raises(ConfigError, match="alhambra_take_limit of 'bad' returned .* an int from 0 to 100"):
        alhambra.new_game(2, plugins=[_take_limit(bad, "bad")], seed=1)


def test_r_turn_3_buy_overpaying_no_change_and_turn_ends():
    g = situation(3, seat=0, market=MARKET, hands={0: cards("florin-4", "florin-5", "dirham-3")})
    buys = {a for a in g.legal_actions() if isinstance(a, Buy)}
    assert buys == {Buy(1, cards("florin-4", "florin-5"))}  # the only non-dominated payment
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="R-TURN-3"):
        g.apply(Buy(1, cards("florin-4")))  # too little
    with pytest.raises(IllegalActionError, match="R-TURN-3"):
        g.apply(Buy(1, cards("florin-4", "dirham-3")))  # wrong currency
    with pytest.raises(IllegalActionError, match="R-TURN-3"):
        g.apply(Buy(1, cards("florin-9")))  # not in hand
    assert g.to_json() == before
    discard = list(g.state.discard)
    g.apply(Buy(1, cards("florin-4", "florin-5")))
    st = g.state
    assert st.players[0].hand == cards("dirham-3")
    assert st.discard == discard + cards("florin-4", "florin-5")
    assert st.market[0] is None  # not replaced during the turn
    assert [p.tile for p in st.pending] == [5]
    assert g.phase == "place" and g.current_player == 0


def test_r_turn_3_overpaying_beyond_the_listed_payments_is_accepted():
    g = situation(3, seat=0, market=MARKET, hands={0: cards("florin-4", "florin-5", "florin-1")})
    a = Buy(1, cards("florin-4", "florin-5", "florin-1"))  # 10 for 6: dominated but legal
    assert a not in g.legal_actions()
    g.apply(a)
    assert g.state.players[0].hand == [] and g.phase == "place"


def test_r_turn_4_exact_payment_gives_another_action_repeatedly():
    g = situation(3, seat=0, market=MARKET, hands={0: cards("florin-6", "dirham-5", "dirham-3", "dinar-9", "ducat-2")})
    assert Buy(1, cards("florin-6")) in g.legal_actions()
    g.apply(Buy(1, cards("florin-6")))
    assert g.phase == "turn" and g.current_player == 0 and g.state.market[0] is None
    g.apply(Buy(2, cards("dirham-5", "dirham-3")))
    assert g.phase == "turn" and g.current_player == 0
    g.apply(Buy(3, cards("dinar-9")))
    assert g.phase == "turn" and g.current_player == 0
    assert [p.tile for p in g.state.pending] == [5, 13, 22]
    assert g.state.market == [None, None, None, 31]  # nothing refilled during the turn
    # the extra action may be any action, here taking money; then the turn's actions end
    g.apply(next(a for a in g.legal_actions() if isinstance(a, TakeMoney)))
    assert g.phase == "place"


def test_r_turn_5_redesign_three_forms_and_no_extra_action():
    # (i) build from the reserve
    g = situation(3, seat=0, cities={0: {(1, 0): 21}}, reserves={0: [22, 6]})
    g.apply(BuildFromReserve(22, (0, 1)))
    assert g.state.players[0].city.tile_at((0, 1)) == 22 and g.state.players[0].reserve == [6]
    assert g.current_player == 1
    # (ii) remove into the reserve
    g = situation(3, seat=0, cities={0: {(1, 0): 21}}, reserves={0: []})
    g.apply(RemoveToReserve((1, 0)))
    assert g.state.players[0].city.tile_at((1, 0)) is None and g.state.players[0].reserve == [21]
    assert g.current_player == 1
    # (iii) swap: same position, the old tile goes to the reserve
    g = situation(3, seat=0, cities={0: {(1, 0): 21}}, reserves={0: [6]})
    assert Swap(6, (1, 0)) in g.legal_actions()
    g.apply(Swap(6, (1, 0)))
    assert g.state.players[0].city.tile_at((1, 0)) == 6 and g.state.players[0].reserve == [21]
    assert g.current_player == 1
    # the fountain can never be removed or swapped
    g = situation(3, seat=0, reserves={0: [22]})
    with pytest.raises(IllegalActionError, match="R-TURN-5"):
        g.apply(RemoveToReserve((0, 0)))
    with pytest.raises(IllegalActionError, match="R-TURN-5"):
        g.apply(Swap(22, (0, 0)))
    with pytest.raises(IllegalActionError, match="R-TURN-5"):
        g.apply(BuildFromReserve(23, (1, 0)))  # 23 is not in the reserve


def test_r_turn_6_illegal_removal_leaves_state_unchanged():
    g = situation(3, seat=0, cities={0: {(1, 0): 22, (2, 0): 23}})
    assert RemoveToReserve((1, 0)) not in g.legal_actions()
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="R-TURN-6"):
        g.apply(RemoveToReserve((1, 0)))
    assert g.to_json() == before


def test_r_turn_7_end_of_turn_placement_any_order_build_or_reserve():
    g = situation(3, seat=0, market=MARKET, hands={0: cards("florin-6", "dirham-8", "dinar-1")})
    g.apply(Buy(1, cards("florin-6")))
    g.apply(Buy(2, cards("dirham-8")))
    g.apply(next(a for a in g.legal_actions() if isinstance(a, TakeMoney)))
    assert g.phase == "place"
    legal = g.legal_actions()
    assert Reserve(5) in legal and Reserve(13) in legal
    assert Place(13, (0, 1)) in legal and Place(13, (0, -1)) not in legal  # 13's south wall
    assert Place(5, (0, -1)) in legal and Place(5, (0, 1)) not in legal  # 5's north wall
    assert not any(isinstance(a, alhambra.GiveToDirk) for a in legal)  # only with 2 players
    # place the later purchase first
    g.apply(Place(5, (0, -1)))
    assert g.state.players[0].city.tile_at((0, -1)) == 5
    assert g.phase == "place" and [p.tile for p in g.state.pending] == [13]
    g.apply(Reserve(13))
    assert g.state.players[0].reserve[-1] == 13
    assert g.current_player == 1 and g.phase == "turn"


def test_r_turn_8_refill_lowest_space_first_then_money_display():
    g = situation(3, seat=0, market=MARKET, hands={0: cards("dirham-8", "ducat-9", "ducat-1")})
    st = g.state
    top, second = st.bag[-1], st.bag[-2]
    g.apply(Buy(2, cards("dirham-8")))  # exact: again
    g.apply(Buy(4, cards("ducat-9", "ducat-1")))  # exact: again
    g.apply(next(a for a in g.legal_actions() if isinstance(a, TakeMoney) and len(a.cards) == 1))
    while g.phase == "place":
        g.apply(next(a for a in g.legal_actions() if isinstance(a, Reserve)))
    assert st.market[1] == top and st.market[3] == second
    assert len(st.display) == 4


def test_r_turn_8_discard_reshuffled_when_deck_empty_and_display_may_stay_short():
    g = situation(3, seat=0, display=cards("florin-1", "florin-2", "florin-3", "florin-4"))
    st = g.state
    st.deck = []
    st.discard = cards("dinar-7", "dinar-8")
    g.apply(TakeMoney(cards("florin-1", "florin-2")))
    assert sorted(st.display) == sorted(cards("florin-3", "florin-4", "dinar-7", "dinar-8"))
    assert st.deck == [] and st.discard == []
    g.apply(TakeMoney(cards("florin-4")))  # deck and discard empty: the display stays short
    assert len(st.display) == 3


def test_r_turn_9_no_possible_action_means_pass():
    g = situation(3, seat=0, market=MARKET, display=[], hands={0: []})
    g.state.deck, g.state.discard = [], []
    alhambra.operations.invalidate(g)
    assert g.legal_actions() == [Pass()]
    g.apply(Pass())
    assert g.current_player == 1
    # passing is not allowed when something else is possible
    with pytest.raises(IllegalActionError, match="R-TURN-9"):
        g.apply(Pass())


def test_bad_actions_are_clear_errors():
    g = situation(3, seat=0, market=MARKET)
    for bad in ("take", None, 3):
        with pytest.raises(IllegalActionError, match="not an action"):
            g.apply(bad)
    with pytest.raises(IllegalActionError, match="phase"):
        g.apply(Place(22, (1, 0)))
    with pytest.raises(IllegalActionError, match="1-4"):
        g.apply(Buy(7, cards("florin-6")))
    with pytest.raises(IllegalActionError):
        g.apply(BuildFromReserve(22, "north"))


def test_can_pay_exactly_agrees_with_listed_exact_payments():
    """Game.can_pay_exactly (a subset sum) says yes exactly when an exact payment is listed."""
    import random

    rng = random.Random(3)
    for seed in range(30):
        g = alhambra.new_game(3, seed=seed)
        advance(g, rng, rng.randrange(5, 60))
        if g.is_over:
            continue
        for seat in range(3):
            assert g.rules.purchase.can_pay_exactly(g, seat) == bool(g.rules.purchase.purchases(g, seat, exact=True))
