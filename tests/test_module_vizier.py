"""Tests of the module "vizier" (Die Gunst des Wesirs), rules R-VIZ-1 … R-VIZ-7.

Hand-built situations: a game is created with ``modules=["vizier"]`` and its state edited
directly (market, hands, money display, vizier tokens); every edit moves tiles and cards
between their places, so the accounting invariants keep holding. Then actions are applied and
the exact outcome checked. Hypothesis properties play random legal games with the module on.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from attrs import frozen
from hypothesis import given, strategies as st

import alhambra
from alhambra import (
    Buy,
    GiveToDirk,
    IllegalActionError,
    MoneyCard,
    PaymentMeans,
    Place,
    Reserve,
    ScoringCard,
    TakeMoney,
)
from alhambra.testing import check_invariants, random_playout

import alhambra_vizier
from alhambra_vizier import DeclineVizier, ReactivateVizier, UseVizier, VizierState, priority_order
from helpers import (
    advance,
    continue_alike,
    deck_arranged_by_hand,
    empty_the_bag,
    save_and_load,
    take_from,
)
from helpers import dinar as dn
from helpers import dirham as dh
from helpers import ducat as du
from helpers import florin as fl


# space 1 florin: tile 5 (pavilion 6), space 2 dirham: tile 12 (seraglio 7),
# space 3 dinar: tile 26 (chambers 7), space 4 ducat: tile 54 (tower 13)
MARKET = (5, 12, 26, 54)


# ---------------------------------------------------------------------------------------------
# helpers building situations
# ---------------------------------------------------------------------------------------------


def V(game) -> VizierState:
    return game.state.modules["vizier"]


def set_market(game, tiles):
    """Put ``tiles`` on spaces 1-4, swapping each with wherever it was (bag, market, Dirk)."""
    st = game.state
    dirk = st.modules.get("dirk")
    places = [st.bag, st.market] + ([dirk.tiles] if dirk is not None else [])
    for i, t in enumerate(tiles):
        old = st.market[i]
        if old == t:
            continue
        for place in places:
            if t in place:
                j = place.index(t)
                if old is None and place is not st.market:
                    del place[j]
                else:
                    place[j] = old
                break
        else:
            raise AssertionError(f"tile {t} not found")
        st.market[i] = t


def set_bag_top(game, tile):
    """Make ``tile`` (in the bag) the next one drawn."""
    bag = game.state.bag
    bag.remove(tile)
    bag.append(tile)


def _take_card(game, card, protect):
    """Take a free copy of ``card`` from the deck, the discard or a hand not in ``protect``."""
    st = game.state
    pools = [st.deck, st.discard] + [p.hand for s, p in enumerate(st.players) if s not in protect]
    return take_from(pools, card, "free copy of")


def set_hands(game, hands):
    """Give every seat exactly the cards of ``hands`` (missing seats: empty hands). Old hands
    go under the deck; the cards are taken from the deck, the discard or other hands."""
    st = game.state
    for p in st.players:
        st.deck[0:0] = p.hand
        p.hand = []
    protect = set()
    for seat in range(game.num_players):
        for c in hands.get(seat, []):
            if type(c) is MoneyCard:
                _take_card(game, c, protect)
            st.players[seat].hand.append(c)
        protect.add(seat)
    deck_arranged_by_hand(game)


def bury_scoring_cards(game):
    """Move the scoring cards to the bottom of the deck so that no scoring (and no Dirk draw
    from the bag) happens in a hand-built situation."""
    st = game.state
    cards = [c for c in st.deck if type(c) is ScoringCard]
    st.deck = cards + [c for c in st.deck if type(c) is not ScoringCard]
    deck_arranged_by_hand(game)  # A and B left piles 2 and 4 (R-SET-6)


def situation(n, *, turn, hands, market=MARKET, active=None, seed=3, plugins=()):
    game = alhambra.new_game(n, modules=["vizier"], seed=seed, plugins=plugins)
    st = game.state
    st.turn_player = st.decider = turn
    set_market(game, market)
    set_hands(game, hands)
    bury_scoring_cards(game)
    if active is not None:
        V(game).active = list(active)
    alhambra.operations.invalidate(game)
    check_invariants(game)
    return game


def finish_turn(game, card=du(1)):  # noqa: B008  (a money card is one immutable instance)
    """The turn player takes ``card`` from the money display: their turn is over."""
    st = game.state
    if card not in st.display:
        _take_card(game, card, protect=set(range(game.num_players)))
        st.deck.insert(0, st.display.pop(0))
        st.display.insert(0, card)
        deck_arranged_by_hand(game)
        alhambra.operations.invalidate(game)
    game.apply(TakeMoney((card,)))


def decline_all(game):
    """Decline until nobody is asked any more; return the seats asked, in order."""
    asked = []
    while game.phase == "vizier":
        asked.append(game.current_player)
        game.apply(DeclineVizier())
    return asked


def uses(game):
    return {a for a in game.legal_actions() if isinstance(a, UseVizier)}


# ---------------------------------------------------------------------------------------------
# module metadata
# ---------------------------------------------------------------------------------------------


def test_module_metadata_and_entry_point():
    """The package is the plugin: NAME, DESCRIPTION, RULES R-VIZ-1 … R-VIZ-7, entry point."""
    assert alhambra_vizier.NAME == "vizier"
    assert isinstance(alhambra_vizier.DESCRIPTION, str) and "\n" not in alhambra_vizier.DESCRIPTION
    assert alhambra_vizier.RULES == tuple(f"R-VIZ-{i}" for i in range(1, 8))
    assert alhambra.available_modules()["vizier"].load() is alhambra_vizier
    game = alhambra.new_game(3, modules=[alhambra_vizier], seed=1)
    assert game.rules.modules == ("vizier",)
    assert game.rules.state_classes["vizier"] is VizierState


def test_priority_order_function():
    """R-VIZ-5: finished player first, then the one seated before them, … the next player last."""
    assert priority_order(1, 4) == [1, 0, 3, 2]
    assert priority_order(2, 5) == [2, 1, 0, 4, 3]
    assert priority_order(0, 2) == [0, 1]
    assert priority_order(0, 6) == [0, 5, 4, 3, 2, 1]


def test_r_viz_5_priority_order_of_look_alike_seats_does_not_leak_into_games():
    """The orders are kept per (seat, players) for the engine; a float seat from an analysis
    script gets its own answer and leaves the engine's ints alone."""
    assert priority_order(2.0, 4) == [2.0, 1.0, 0.0, 3.0]
    assert [type(s) for s in priority_order(2, 4)] == [int] * 4
    order = priority_order(1, 3)
    order.append(99)  # a copy: the kept order is untouched
    assert priority_order(1, 3) == [1, 0, 2]


def test_action_strings_are_readable():
    assert str(UseVizier(2, (dh(4), dh(3)))) == "vizier: buy space 2 paying dirham-3+dirham-4"
    assert str(DeclineVizier()) == "decline the vizier"
    assert str(ReactivateVizier()) == "reactivate the vizier"
    assert UseVizier(2, (dh(4), dh(3))) == UseVizier(2, [dh(3), dh(4)])  # cards are sorted


# ---------------------------------------------------------------------------------------------
# R-VIZ-1
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_r_viz_1_every_player_has_an_active_vizier_at_start(n):
    """R-VIZ-1: each player gets a vizier token, active at the start (public in the views)."""
    game = alhambra.new_game(n, modules=["vizier"], seed=n)
    assert V(game).active == [True] * n
    for seat in [None, *range(n)]:
        assert game.view(seat)["modules"]["vizier"] == {"active": [True] * n, "asking": None}
    # on the first turn there is nothing to reactivate
    assert ReactivateVizier() not in game.legal_actions()


# ---------------------------------------------------------------------------------------------
# R-VIZ-2
# ---------------------------------------------------------------------------------------------


def test_r_viz_2_exact_payment_only_and_overpayment_rejected():
    """R-VIZ-2: the vizier buys only with an EXACT payment in the space's currency. Only exact
    payments are offered; an overpayment (or a wrong currency, a card not in hand, a regular
    Buy) is rejected with IllegalActionError and leaves the game exactly as it was."""
    game = situation(3, turn=0, hands={0: [fl(9), fl(2), fl(4)], 1: [dh(7)], 2: [fl(8)]})
    finish_turn(game)
    assert game.phase == "vizier" and game.current_player == 0
    assert uses(game) == {UseVizier(1, (fl(2), fl(4)))}
    assert set(game.legal_actions()) == {UseVizier(1, (fl(2), fl(4))), DeclineVizier()}
    before = game.to_json()
    for bad in [
        UseVizier(1, (fl(9),)),  # overpays 6 with 9
        UseVizier(1, (fl(9), fl(2))),
        UseVizier(1, (fl(2), fl(4), fl(9))),
        UseVizier(2, (fl(2), fl(4))),  # space 2 is paid in dirham
        UseVizier(1, (fl(1), fl(5))),  # not in hand
        UseVizier(1, (fl(2),)),  # too little
        UseVizier(5, (fl(2), fl(4))),  # no such space
        Buy(1, (fl(2), fl(4))),  # not a turn
        ReactivateVizier(),
    ]:
        with pytest.raises(IllegalActionError):
            game.apply(bad)
        assert game.to_json() == before
    with pytest.raises(IllegalActionError, match="R-VIZ-2"):
        game.apply(UseVizier(1, (fl(9),)))
    # seat 2 (asked second) holds florin-8 only: no exact payment, so not asked; seat 1 is
    assert decline_all(game) == [0, 1]
    assert game.phase == "turn" and game.state.turn_player == 1


def test_r_viz_2_use_turns_token_inactive_and_gives_no_extra_action():
    """R-VIZ-2: a use costs the exact cards (to the discard pile), the token turns inactive,
    and it earns no extra action, even for the player who just finished their turn: after
    the placement the others are asked, then the next player's turn begins."""
    game = situation(3, turn=0, hands={0: [fl(2), fl(4), dn(1)], 1: [dh(7)]})
    turn = game.state.turn
    finish_turn(game)
    assert game.current_player == 0 and game.phase == "vizier"
    discard = list(game.state.discard)
    game.apply(UseVizier(1, (fl(4), fl(2))))
    st = game.state
    assert V(game).active == [False, True, True]
    assert st.players[0].hand == [dn(1), du(1)]
    assert st.discard == discard + [fl(2), fl(4)]
    assert game.phase == "place" and game.current_player == 0
    game.apply(Reserve(5))
    assert st.players[0].reserve == [5]
    # no extra action for seat 0: seat 1 (whose turn is next) is asked, then plays
    assert game.phase == "vizier" and game.current_player == 1
    game.apply(DeclineVizier())
    assert game.phase == "turn" and st.turn_player == 1 and st.turn == turn + 1
    assert game.view(2)["modules"]["vizier"] == {"active": [False, True, True], "asking": None}
    check_invariants(game)


def test_r_viz_2_only_after_a_completely_finished_turn():
    """R-VIZ-2: the vizier is offered only once a turn is completely finished (placements
    and refills done): not during a turn (an exact buy's extra action), not while placing."""
    game = situation(3, turn=1, hands={0: [fl(6)], 1: [dh(7), dh(2), dh(5)], 2: [dn(7)]})
    set_bag_top(game, 27)  # will refill space 2: a dirham-7 building again
    game.apply(Buy(2, (dh(7),)))  # exact: another action (R-TURN-4)
    assert game.phase == "turn" and game.current_player == 1
    finish_turn(game)
    assert game.phase == "place" and game.current_player == 1 and game.state.place_context == "turn"
    game.apply(Reserve(12))
    # the turn is finished and the market refilled: now seat 1 (just finished) is asked first
    assert game.state.market == [5, 27, 26, 54]
    assert game.phase == "vizier" and game.current_player == 1
    assert uses(game) == {UseVizier(2, (dh(2), dh(5)))}
    assert decline_all(game) == [1, 0, 2]


def test_r_viz_2_exchange_office_via_card():
    """R-VIZ-2 with the section-12 ruling: a vizier purchase may go through an exchange
    office (a payment means); the office is spent to the discard pile with the cards."""
    office = FakeOffice("florin", "dirham")
    game = situation(3, turn=0, hands={2: [office, dh(2), dh(4)]}, plugins=[FAKE_OFFICES])
    finish_turn(game)
    assert game.phase == "vizier" and game.current_player == 2
    assert uses(game) == {UseVizier(1, (dh(2), dh(4)), office)}
    discard = list(game.state.discard)
    game.apply(UseVizier(1, (dh(4), dh(2)), office))
    assert game.state.players[2].hand == []
    assert game.state.discard == discard + [dh(2), dh(4), office]
    assert game.state.pending[0].tile == 5 and game.current_player == 2
    game.apply(Reserve(5))
    assert game.phase == "turn" and game.state.turn_player == 1
    check_invariants(game)


@frozen(slots=True, cache_hash=True)
class FakeOffice(alhambra.Card):
    """A stand-in exchange office for the section-12 ruling (the real module is separate)."""

    a: str
    b: str

    @property
    def code(self):
        return f"test-office-{self.a}-{self.b}"


class _FakeOffices:
    @alhambra.hookimpl
    def alhambra_cards(self, options):
        return [FakeOffice("florin", "dirham")]

    @alhambra.hookimpl
    def alhambra_payment_means(self, game, seat):
        return [
            PaymentMeans(c, frozenset((c.a, c.b))) for c in game.state.players[seat].hand if isinstance(c, FakeOffice)
        ]


FAKE_OFFICES = _FakeOffices()


# ---------------------------------------------------------------------------------------------
# R-VIZ-3
# ---------------------------------------------------------------------------------------------


def test_r_viz_3_building_built_at_once_then_market_refilled():
    """R-VIZ-3: the bought building is placed at once by the vizier's owner (here built into
    the Alhambra); only then is the market refilled from the bag, before anyone else decides."""
    game = situation(4, turn=2, hands={1: [fl(6)]})
    set_bag_top(game, 44)
    finish_turn(game)
    assert game.phase == "vizier" and game.current_player == 1
    bag = len(game.state.bag)
    game.apply(UseVizier(1, (fl(6),)))
    st = game.state
    assert game.phase == "place" and game.current_player == 1 and st.place_context == "vizier"
    assert [p.tile for p in st.pending] == [5] and st.market[0] is None
    assert set(game.legal_actions()) == {Place(5, (-1, 0)), Place(5, (0, -1)), Place(5, (1, 0)), Reserve(5)}
    game.apply(Place(5, (1, 0)))
    assert st.players[1].city.tile_at((1, 0)) == 5
    assert st.market == [44, 12, 26, 54] and len(st.bag) == bag - 1
    # nobody else can use the vizier: play goes on with the player who would have played next
    assert game.phase == "turn" and st.turn_player == 3 and game.current_player == 3
    check_invariants(game)


def test_r_viz_3_building_reserved_at_once():
    """R-VIZ-3: the bought building may instead go to the reserve, at once."""
    game = situation(3, turn=0, hands={2: [dn(3), dn(4)]})
    finish_turn(game)
    game.apply(UseVizier(3, (dn(3), dn(4))))
    game.apply(Reserve(26))
    assert game.state.players[2].reserve == [26]
    assert game.phase == "turn" and game.state.turn_player == 1


def test_r_viz_3_two_players_building_may_go_to_dirk():
    """R-VIZ-3 / R-TWO-5 / section 12: with 2 players a vizier building may go to Dirk."""
    game = situation(2, turn=0, hands={1: [dh(7)]})
    dirk = game.state.modules["dirk"]
    finish_turn(game)
    assert game.phase == "vizier" and game.current_player == 1
    game.apply(UseVizier(2, (dh(7),)))
    assert GiveToDirk(12) in game.legal_actions()
    game.apply(GiveToDirk(12))
    assert dirk.tiles[-1] == 12 and game.state.market[1] is not None
    assert game.phase == "turn" and game.state.turn_player == 1
    check_invariants(game)


def test_r_viz_3_game_ends_when_the_bag_cannot_refill_the_market():
    """R-VIZ-3 / R-END-1: after a vizier use the market is refilled; the first use takes the
    bag's last building, the second leaves a space the bag cannot fill: the game ends at
    once (distribution R-END-2, final scoring), and nobody is asked any more (R-VIZ-7)."""
    game = situation(3, turn=0, hands={0: [fl(6)], 1: [dn(3), dn(4)], 2: [dh(7)]})
    st = game.state
    last = 27  # chambers 7
    set_bag_top(game, last)
    st.out_of_play.extend(st.bag[:-1])
    st.bag = st.bag[-1:]
    finish_turn(game)  # seat 0 takes ducat-1
    assert game.current_player == 0
    game.apply(UseVizier(1, (fl(6),)))
    game.apply(Reserve(5))
    assert st.market == [last, 12, 26, 54] and st.bag == []
    # everyone may decide again: 0 is inactive, 2 is asked next (before 1)
    assert game.phase == "vizier" and game.current_player == 2
    game.apply(UseVizier(2, (dh(7),)))
    game.apply(Reserve(12))
    # the market could not be refilled: the game ends. Space 1 (florin): nobody holds any
    # florins, a tie, out of play; space 3 (dinar) goes to seat 1, space 4 (ducat) to seat 0.
    assert st.market == [None, None, None, None]
    assert last in st.out_of_play
    assert game.phase == "place" and st.place_context == "distribution" and game.current_player == 1
    game.apply(Reserve(26))
    assert game.current_player == 0
    game.apply(Reserve(54))
    assert game.is_over and st.scorings[-1].number == 3
    assert st.players[0].reserve == [5, 54] and st.players[1].reserve == [26] and st.players[2].reserve == [12]
    assert not any(isinstance(a, (UseVizier, DeclineVizier)) for a in game.history[-2:])
    check_invariants(game)


def test_r_viz_3_play_goes_on_with_the_player_who_would_have_played_next():
    """R-VIZ-3: after uses by others (not the next player), the next player in seat order
    plays: the finished player's successor, whoever used the vizier."""
    game = situation(5, turn=3, hands={0: [fl(6)], 2: [dh(7)], 4: [dn(7)]})
    turn = game.state.turn
    finish_turn(game)
    # order from finished 3: 3, 2, 1, 0, 4 -> asked: 2, 0, 4
    assert game.current_player == 2
    game.apply(UseVizier(2, (dh(7),)))
    game.apply(Reserve(12))
    assert game.current_player == 0
    game.apply(UseVizier(1, (fl(6),)))
    game.apply(Reserve(5))
    assert game.current_player == 4
    game.apply(UseVizier(3, (dn(7),)))
    game.apply(Reserve(26))
    st = game.state
    assert V(game).active == [False, True, False, True, False]
    assert game.phase == "turn" and st.turn_player == 4 and game.current_player == 4 and st.turn == turn + 1


# ---------------------------------------------------------------------------------------------
# R-VIZ-4
# ---------------------------------------------------------------------------------------------


def test_r_viz_4_reactivate_is_the_whole_action():
    """R-VIZ-4: a player whose vizier is inactive may reactivate it on their turn; that is
    their whole action (the turn ends, the next player plays)."""
    game = situation(3, turn=1, hands={}, active=[True, False, True])
    assert ReactivateVizier() in game.legal_actions()
    game.apply(ReactivateVizier())
    assert V(game).active == [True, True, True]
    assert game.phase == "turn" and game.state.turn_player == 2
    # not offered (nor accepted) while one's own vizier is active
    assert ReactivateVizier() not in game.legal_actions()
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="R-VIZ-4"):
        game.apply(ReactivateVizier())
    assert game.to_json() == before


def test_r_viz_4_reactivation_as_the_action_after_an_exact_buy_ends_the_actions():
    """R-VIZ-4 with R-TURN-4: after an exact purchase the player may reactivate as their next
    action; it never earns another one: the bought building is placed and the turn ends. The
    vizier, active again, may then be used at once between turns (R-VIZ-2, finished player
    asked first)."""
    game = situation(3, turn=1, hands={1: [dh(7), fl(6)]}, active=[True, False, True])
    game.apply(Buy(2, (dh(7),)))
    assert game.phase == "turn" and ReactivateVizier() in game.legal_actions()
    game.apply(ReactivateVizier())
    assert game.phase == "place" and [p.tile for p in game.state.pending] == [12]
    game.apply(Reserve(12))
    assert V(game).active[1] is True
    assert game.phase == "vizier" and game.current_player == 1
    assert uses(game) == {UseVizier(1, (fl(6),))}


def test_r_viz_4_reactivation_is_not_possible_outside_one_s_turn():
    """R-VIZ-4: reactivation is a turn action: not while someone is asked, nor while placing."""
    game = situation(3, turn=0, hands={2: [dh(7)]}, active=[True, False, True])
    finish_turn(game)
    assert game.current_player == 2
    with pytest.raises(IllegalActionError):
        game.apply(ReactivateVizier())
    game.apply(UseVizier(2, (dh(7),)))
    with pytest.raises(IllegalActionError):
        game.apply(ReactivateVizier())


# ---------------------------------------------------------------------------------------------
# R-VIZ-5
# ---------------------------------------------------------------------------------------------


def test_r_viz_5_priority_order_five_players():
    """R-VIZ-5: the player who just finished asks first, then the player seated before them,
    and so on; the player whose turn is next asks last (5 players, seat 2 finished)."""
    game = situation(5, turn=2, hands={0: [fl(6)], 1: [fl(2), fl(4)], 2: [dh(7)], 3: [dn(7)], 4: [dh(3), dh(4)]})
    finish_turn(game)
    asked = [game.current_player]
    game.apply(DeclineVizier())
    asked.append(game.current_player)
    # save and load while asking: the loaded game asks the rest in the same order
    loaded = alhambra.Game.from_json(game.to_json(), check_history=False)  # hands set by hand
    assert loaded.to_json() == game.to_json()
    game.apply(DeclineVizier())
    rest = decline_all(game)
    assert asked == [2, 1] and rest == [0, 4, 3]
    assert game.phase == "turn" and game.state.turn_player == 3
    loaded.apply(DeclineVizier())
    assert decline_all(loaded) == [0, 4, 3]
    assert loaded.to_json() == game.to_json()


def test_r_viz_5_everyone_decides_again_after_each_use_four_players():
    """R-VIZ-5: after each use, everyone (with an active vizier) may decide again, asked from
    the top of the priority order: a player who declined before is asked again."""
    # seat 1 finishes: order 1, 0, 3, 2
    game = situation(4, turn=1, hands={0: [dh(7)], 1: [fl(6)], 2: [dn(3), dn(4)], 3: [dn(7)]})
    set_bag_top(game, 27)  # refills space 3 with another dinar-7 building
    finish_turn(game)
    seq = []

    def ask():
        assert game.phase == "vizier"
        seq.append(game.current_player)

    ask()
    game.apply(DeclineVizier())  # 1 declines
    ask()
    game.apply(DeclineVizier())  # 0 declines
    ask()
    game.apply(UseVizier(3, (dn(7),)))  # 3 uses
    game.apply(Reserve(26))
    assert game.state.market[2] == 27
    ask()  # 1 is asked again
    game.apply(DeclineVizier())
    ask()  # 0 is asked again, and uses it now
    game.apply(UseVizier(2, (dh(7),)))
    game.apply(Reserve(12))
    ask()  # and again 1
    game.apply(DeclineVizier())
    ask()  # 0 and 3 are inactive; 2 still can pay 27 exactly
    game.apply(DeclineVizier())
    assert seq == [1, 0, 3, 1, 0, 1, 2]
    assert game.phase == "turn" and game.state.turn_player == 2
    assert V(game).active == [False, True, True, False]


def test_r_viz_5_inactive_and_unable_players_are_not_asked():
    """R-VIZ-5 with the engine's ruling: a seat is asked only if its vizier is active and it
    holds an exact payment for some market building (a player with no possible use need not
    be asked). If nobody qualifies, the next turn starts at once."""
    game = situation(
        4,
        turn=0,
        hands={0: [fl(5)], 1: [dh(7)], 2: [dn(2), dn(4)], 3: [du(7), du(5)]},
        active=[True, False, True, True],
    )
    finish_turn(game)  # seat 0 takes ducat-1; 3 has ducat 12 != 13
    assert game.phase == "turn" and game.state.turn_player == 1
    # the same with seat 3 holding 13 in ducats: only 3 is asked
    game = situation(4, turn=0, hands={0: [fl(5)], 1: [dh(7)], 3: [du(8), du(5)]}, active=[True, False, True, True])
    finish_turn(game)
    assert decline_all(game) == [3]


def test_r_viz_5_between_turns_hook_calls_and_fresh_round_each_turn():
    """R-VIZ-5: every finished turn starts a fresh asking round (declining once does not
    stop a player being asked after the next turn)."""
    game = situation(3, turn=0, hands={2: [dh(3), dh(4)]})
    finish_turn(game)
    assert decline_all(game) == [2]
    assert game.state.turn_player == 1
    finish_turn(game, du(2))
    assert decline_all(game) == [2]
    assert game.state.turn_player == 2


def _asking(world, seat):
    """``world`` (a clone) with its asking round asking ``seat`` now, the seats after it in
    the round's priority order still to ask (R-VIZ-5); checked like a loaded game."""
    vs = V(world)
    order = priority_order(world.state.turn_player, world.num_players)
    vs.asked, vs.queue = seat, order[order.index(seat) + 1 :]
    world.state.decider = seat
    alhambra.operations.invalidate(world)
    assert [e for e in world.rules.hook.alhambra_check_state(game=world) if e] == []
    assert any(isinstance(a, UseVizier) for a in world.legal_actions())
    return world


@pytest.mark.parametrize("n", [3, 4, 5])
def test_r_viz_5_view_hides_the_asked_seat_in_worlds_resampled_for_each_other_seat(n):
    """R-VIZ-5: during the asking round only the seat asked learns that it is asked. For
    every state of random games in phase "vizier" and every other seat (and a spectator),
    the worlds that seat cannot tell apart from the real one (``determinize`` with
    ``recall=False``: other hands redealt) are built with each seat that could pay exactly
    being the one asked; the seat's view is the same in all of them. A decline that leaves
    the round on changes no view but the decliner's and the next asked seat's."""
    compared = other_asked = declines = 0
    for seed in range(4):
        game = alhambra.new_game(n, modules=["vizier", "exchange_offices"], seed=500 + 10 * n + seed)
        rng = random.Random(seed)
        checked = 0
        while not game.is_over:
            if game.phase == "vizier" and checked < 12:
                checked += 1
                asked = game.current_player
                mine = game.view(asked)
                assert mine["current_player"] == asked and mine["modules"]["vizier"]["asking"] == asked
                for seat in [None, *(s for s in range(n) if s != asked)]:
                    shown = game.view(seat)
                    assert shown["current_player"] is None and shown["modules"]["vizier"]["asking"] is None
                    for _ in range(3):
                        redealt = game.determinize(seat if seat is not None else asked, rng, recall=False)
                        for other in range(n):
                            if (
                                other == seat
                                or not V(redealt).active[other]
                                or not redealt.rules.purchase.can_pay_exactly(redealt, other)
                            ):
                                continue
                            world = _asking(redealt.clone(), other)
                            assert world.view(seat) == shown, (seed, seat, other)
                            assert world.view(other)["modules"]["vizier"]["asking"] == other  # it knows
                            compared += 1
                            other_asked += other != asked
            actions = game.legal_actions()
            action = rng.choice(actions)
            before = [game.view(s) for s in range(n)], game.current_player
            game.apply(action)
            if isinstance(action, DeclineVizier) and game.phase == "vizier":
                declines += 1
                for s in range(n):
                    if s not in (before[1], game.current_player):
                        assert game.view(s) == before[0][s], s
    assert compared > 50 and other_asked > 10 and declines > 0


def test_r_viz_5_the_resampled_comparison_would_see_the_asked_seat_named():
    """The check above can fail: the asked seat's own view names it, and so does
    ``game.current_player`` (the engine's, for whoever runs the game)."""
    game = situation(3, turn=0, hands={1: [dh(7)], 2: [dh(3), dh(4)]})
    finish_turn(game)
    assert game.phase == "vizier" and game.current_player == 2  # seat 0 cannot pay exactly
    asked, other = 2, 1
    named = game.view(asked)
    assert named["current_player"] == asked and named["modules"]["vizier"]["asking"] == asked
    assert game.view(other) != _asking(game.clone(), other).view(other)  # it knows when it is asked


# ---------------------------------------------------------------------------------------------
# R-VIZ-6
# ---------------------------------------------------------------------------------------------


def test_r_viz_6_vizier_only_buys_market_buildings_never_a_hut():
    """R-VIZ-6: the vizier cannot take a building hut: it buys only from the four market
    spaces, which only ever hold buildings; any other target is rejected."""
    game = situation(3, turn=0, hands={1: [dh(7)], 2: [fl(6), dh(3), dh(4)]})
    finish_turn(game)
    assert game.current_player == 2
    listed = uses(game)
    assert listed == {UseVizier(1, (fl(6),)), UseVizier(2, (dh(3), dh(4)))}
    for a in listed:
        assert a.space in (1, 2, 3, 4)
        assert game.rules.catalog[game.state.market[a.space - 1]].kind == "building"
    before = game.to_json()
    for bad in (UseVizier(0, (fl(6),)), UseVizier(5, (fl(6),)), UseVizier("H1", (fl(6),))):
        with pytest.raises(IllegalActionError):
            game.apply(bad)
    assert game.to_json() == before


# ---------------------------------------------------------------------------------------------
# R-VIZ-7
# ---------------------------------------------------------------------------------------------


class _Spy:
    """Records every call of the between-turns hook (tried first, never interrupts)."""

    def __init__(self):
        self.calls = []

    @alhambra.hookimpl(tryfirst=True)
    def alhambra_between_turns(self, game, finished):
        self.calls.append((finished, game.state.phase))
        return None


def test_r_viz_7_not_offered_at_the_end_of_game_distribution():
    """R-VIZ-7 / R-END-5: when the game ends after a turn (the bag cannot refill the market)
    the vizier is never offered, though other players hold active viziers and exact
    payments; the distribution and final scoring follow directly. At the end the vizier's
    state does not matter (winners are the same whatever the tokens)."""
    spy = _Spy()
    game = situation(3, turn=0, hands={0: [fl(9)], 1: [dh(7)], 2: [dn(3), dn(4), du(6), du(7)]}, plugins=[spy])
    st = game.state
    empty_the_bag(game)
    game.apply(Buy(1, (fl(9),)))  # overpays: the turn's actions end
    assert game.phase == "place"
    game.apply(Reserve(5))
    assert spy.calls == []
    phases = [game.phase]
    while not game.is_over:
        assert game.phase == "place" and st.place_context == "distribution"
        game.apply(game.legal_actions()[-1])
        phases.append(game.phase)
    assert "vizier" not in phases and spy.calls == []
    assert st.players[1].reserve == [12] and sorted(st.players[2].reserve) == [26, 54]
    assert [r.number for r in st.scorings][-1] == 3
    assert not any(isinstance(a, (UseVizier, DeclineVizier)) for a in game.history)
    winners, scores = game.winners, game.scores
    V(game).active = [False, True, False]
    assert game.winners == winners and game.scores == scores
    check_invariants(game)


def test_r_viz_7_spy_sees_one_call_per_finished_turn_and_resume():
    """Between turns the hook runs after each finished turn (and after each decision of the
    asking); never once the game has ended."""
    spy = _Spy()
    game = situation(3, turn=0, hands={2: [dh(7)]}, plugins=[spy])
    finish_turn(game)
    assert spy.calls == [(0, "turn")]
    game.apply(DeclineVizier())
    assert spy.calls == [(0, "turn"), (0, "vizier")]
    assert game.phase == "turn"


# ---------------------------------------------------------------------------------------------
# saving and loading
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4, 6])
def test_vizier_state_round_trips_while_asking_and_while_placing(n):
    """The module state is saved and loaded (cattrs) in the middle of an asking round and of
    a vizier placement; the loaded game continues identically."""
    game = alhambra.new_game(n, modules=["vizier"], seed=11 + n)
    rng = random.Random(n)
    advance(game, rng, 5000, until=lambda g: g.phase == "vizier" and V(g).queue and not all(V(g).active))
    assert game.phase == "vizier"
    loaded = save_and_load(game)
    assert V(loaded) == V(game) and V(loaded) is not V(game)
    uses_now = [a for a in game.legal_actions() if isinstance(a, UseVizier)]
    game.apply(uses_now[0])
    loaded.apply(uses_now[0])
    assert game.state.place_context == "vizier"
    again = save_and_load(game)
    assert again.to_json() == game.to_json() == loaded.to_json()
    continue_alike(game, again, 5)


def test_clone_is_independent():
    game = alhambra.new_game(3, modules=["vizier"], seed=2)
    c = game.clone()
    V(c).active[0] = False
    V(c).queue.append(1)
    assert V(game).active == [True, True, True] and V(game).queue == []


# ---------------------------------------------------------------------------------------------
# random play
# ---------------------------------------------------------------------------------------------


def _exact_uses(game, seat):
    out = set()
    for space in (1, 2, 3, 4):
        for b in game.rules.purchase.payments(game, seat, space, exact=True):
            out.add(UseVizier(b.space, b.cards, b.via))
    return out


class ModuleChecker:
    """``each_step`` for random_playout: the engine invariants plus the vizier's own."""

    def __init__(self, game):
        self.n = game.num_players
        self.active = list(V(game).active)
        self.decider = game.current_player
        self.ended = False
        self.counts = Counter()

    def __call__(self, game, action):
        check_invariants(game)
        vs = V(game)
        st = game.state
        self.counts[type(action).__name__] += 1
        assert len(vs.active) == self.n and all(type(a) is bool for a in vs.active)
        flipped = [s for s in range(self.n) if vs.active[s] != self.active[s]]
        if isinstance(action, UseVizier):
            assert flipped == [self.decider] and not vs.active[self.decider]
            # R-VIZ-2: exact payment; R-VIZ-3: placed at once by the user
            assert game.phase == "place" and st.place_context == "vizier"
            assert game.current_player == self.decider and len(st.pending) == 1
            assert sum(c.value for c in action.cards) == game.rules.catalog[st.pending[0].tile].price
        elif isinstance(action, ReactivateVizier):
            assert flipped == [self.decider] and vs.active[self.decider]
        else:
            assert flipped == [], (action, flipped)
        if game.phase in ("distribution", "over") or st.place_context == "distribution":
            self.ended = True
        if self.ended:
            assert game.phase != "vizier"  # R-VIZ-7
        if game.phase == "vizier":
            seat = game.current_player
            assert seat == vs.asked and vs.active[seat] and not st.pending
            assert set(game.legal_actions()) == _exact_uses(game, seat) | {DeclineVizier()}
            assert len(game.legal_actions()) >= 2
        elif game.phase == "turn":
            legal = game.legal_actions()
            assert (ReactivateVizier() in legal) == (not vs.active[st.turn_player])
            assert not any(isinstance(a, (UseVizier, DeclineVizier)) for a in legal)
        self.active = list(vs.active)
        self.decider = game.current_player


@given(n=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_property_random_games_keep_invariants_with_vizier(n, seed):
    """Random legal games (2-6 players, vizier on) end, keep every engine invariant, and the
    vizier tokens only flip through their actions: only UseVizier turns one off (the user's),
    only ReactivateVizier turns one on; the vizier is never offered at the end (R-VIZ-7)."""
    game = alhambra.new_game(n, modules=["vizier"], seed=seed)
    checker = ModuleChecker(game)
    random_playout(game, seed, each_step=checker)
    assert game.is_over


@given(n=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 500), to_vizier=st.booleans())
def test_property_save_load_mid_game_continues_identically(n, seed, cut, to_vizier):
    """to_json/from_json at any point (often inside an asking round) round-trips, and the
    loaded game continues exactly like the original with the same random choices."""
    game = alhambra.new_game(n, modules=["vizier"], seed=seed)
    rng = random.Random(seed)
    advance(game, rng, cut)
    if to_vizier:
        advance(game, rng, 5000, until=lambda g: g.phase == "vizier" or g.state.place_context == "vizier")
    loaded = save_and_load(game)
    assert loaded.legal_actions() == game.legal_actions()
    continue_alike(game, loaded, seed + 1)


def test_r_viz_2_random_play_with_real_exchange_offices_pays_via_office():
    """Section 12 ruling with the real exchange_offices module: random play makes vizier
    purchases through an office; the engine and vizier invariants hold throughout."""
    via = 0
    for seed in range(3):
        game = alhambra.new_game(4, modules=["vizier", "exchange_offices"], seed=seed)
        random_playout(game, seed, each_step=ModuleChecker(game))
        via += sum(1 for a in game.history if isinstance(a, UseVizier) and a.via is not None)
    assert via > 0


def test_random_play_uses_declines_and_reactivates_the_vizier():
    """Random play exercises the module: every player count sees vizier uses, and overall
    declines and reactivations happen too."""
    total = Counter()
    for n in range(2, 7):
        per_n = Counter()
        for seed in range(3):
            game = alhambra.new_game(n, modules=["vizier"], seed=100 * n + seed)
            random_playout(game, seed)
            per_n.update(type(a).__name__ for a in game.history)
        assert per_n["UseVizier"] > 0, n
        total.update(per_n)
    assert total["DeclineVizier"] > 0 and total["ReactivateVizier"] > 0


def test_r_viz_5_a_float_seat_never_reaches_another_game():
    """R-VIZ-5: the priority orders kept between games hold int seats only; asking with a
    look-alike seat (2.0, from a hand-edited state) fails in that game alone and leaves the
    orders of every later game ints."""
    from alhambra_vizier import plugin

    plugin._order.cache_clear()  # nothing kept yet: the float would be the first to ask
    g = alhambra.new_game(3, modules=["vizier"], seed=1)
    vs = g.state.modules["vizier"]
    vs.started = vs.round_over = False
    try:
        plugin.alhambra_between_turns(game=g, finished=2.0)
    except (TypeError, alhambra.AlhambraError):
        pass
    assert plugin.priority_order(2, 3) == [2, 1, 0]
    assert all(type(s) is int for s in plugin._order(2, 3))
    other = alhambra.new_game(3, modules=["vizier"], seed=2)
    random_playout(other, 2)
    assert other.is_over
