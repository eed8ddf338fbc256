"""The bots take and use city gates (R-GATE-4 … R-GATE-6): a module's action the heuristic has
no model of is valued by playing it on a copy, and a free step that builds nothing (a gate
played before the removal it opens the way for) by the best action that follows it."""

from __future__ import annotations

import collections

import pytest

import alhambra
from alhambra import RemoveToReserve
from alhambra.bots import make_bot
from alhambra.bots.evaluate import DEFAULT_WEIGHTS, Evaluator
from alhambra.simulate import play
from alhambra_city_gates import BuildThroughGate, GateCard, PlayGate, TakeGate
from test_module_city_gates import _turn_with_gates, give, new, wall_against_wall

ALL = ["vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds"]


def _card_value(ev: Evaluator) -> float:
    return DEFAULT_WEIGHTS.held_card + DEFAULT_WEIGHTS.held_card_early * ev.progress_left


def test_r_gate_6_a_gate_on_a_turn_is_worth_the_best_step_it_opens_minus_the_card():
    g, seat, (card,) = _turn_with_gates({(1, 0): 13, (1, 1): 5, (0, 1): 7})
    legal = g.legal_actions()
    play_gate = PlayGate(card, 1, 0, 4)
    ev = Evaluator(g, seat)
    vals = dict(zip(legal, ev.action_values(legal)))
    after = g.clone()
    after.apply(play_gate)
    follow = after.legal_actions()
    assert RemoveToReserve((0, 1)) in follow and RemoveToReserve((0, 1)) not in legal
    best_next = max(Evaluator(after, seat).action_values(follow, lookahead=False))
    assert vals[play_gate] == pytest.approx(best_next - _card_value(ev))
    # in search playouts (fast) no step ahead: the card spent, nothing else
    fast = dict(zip(legal, ev.action_values(legal, fast=True)))
    assert fast[play_gate] == pytest.approx(-_card_value(ev))
    # it opens nothing better than what is open now: greedy keeps the card
    assert make_bot("greedy", 0).choose(g, seat, legal) != play_gate


def test_r_gate_4_taking_a_gate_is_worth_a_card_in_hand():
    g = new(4, seed=2)
    st = g.state
    card = next(c for c in st.deck if type(c) is GateCard)
    give(g, g.current_player, [])
    st.deck.remove(card)
    st.modules["city_gates"].space = card.number
    alhambra.operations.invalidate(g)
    legal = g.legal_actions()
    ev = Evaluator(g, g.current_player)
    vals = dict(zip(legal, ev.action_values(legal)))
    assert vals[TakeGate(card)] == pytest.approx(_card_value(ev))


def test_r_gate_5_6_building_through_a_gate_is_valued_as_the_placement_minus_the_card():
    g, seat, card = wall_against_wall()
    legal = g.legal_actions()
    build = BuildThroughGate(card, 12, 2, 0, 8)
    ev = Evaluator(g, seat)
    vals = dict(zip(legal, ev.action_values(legal)))
    city = g.state.players[seat].city.copy()
    city.open_side((2, 0), 8)
    city.place(12, (2, 0))
    gain = ev.city_value(seat, city) - ev.city_value(seat, g.state.players[seat].city)
    assert vals[build] == pytest.approx(gain - _card_value(ev))


@pytest.mark.parametrize("bot", ["greedy", "search:iterations=4:top_k=3"])
def test_bots_take_and_use_gates_in_games_with_every_module(bot):
    counts: collections.Counter = collections.Counter()
    games = 6 if bot == "greedy" else 1
    for seed in range(games):
        g = alhambra.new_game(4, modules=ALL, seed=seed)
        play(g, [make_bot(bot, seed * 10 + s) for s in range(4)])
        assert g.is_over
        counts.update(type(a).__name__ for a in g.history)
    assert counts["TakeGate"] > 0 and counts["BuyWithDiamonds"] > 0
    if bot == "greedy":
        assert counts["BuildThroughGate"] > 0
