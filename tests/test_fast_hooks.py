"""The per-turn hooks resolved once per rule set (``Ruleset.fast``) call the same
implementations, with the same arguments, as pluggy would."""

from __future__ import annotations

import random

import alhambra
from alhambra import hookimpl
from alhambra.ruleset import direct_caller


class Recorder:
    """A plugin that notes the notify hooks: ``alhambra_city_changed`` with every argument,
    ``alhambra_turn_start`` with only the seat (fewer arguments than the spec)."""

    def __init__(self):
        self.changed = []
        self.turns = []

    @hookimpl
    def alhambra_city_changed(self, game, seat):
        self.changed.append((seat, len(game.state.players[seat].city)))
        return "ignored"

    @hookimpl
    def alhambra_turn_start(self, seat):
        self.turns.append(seat)


def test_notify_hooks_reach_a_single_implementation_with_its_arguments():
    rec = Recorder()
    game = alhambra.new_game(3, seed=2, plugins=[rec])
    fast = game.rules.fast
    # one implementation taking every argument: called as it is; one taking fewer: wrapped
    assert fast.alhambra_city_changed == rec.alhambra_city_changed
    assert fast.alhambra_turn_start != rec.alhambra_turn_start
    rng = random.Random(2)
    changes = 0
    for _ in range(300):
        if game.is_over:
            break
        before = [len(p.city) for p in game.state.players]
        seat = game.current_player
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        turn = game.state.turn
        game.apply(action)
        after = [len(p.city) for p in game.state.players]
        if type(action) in (alhambra.BuildFromReserve, alhambra.RemoveToReserve, alhambra.Place):
            changes += 1
            assert rec.changed[-1] == (seat, after[seat]) and after[seat] != before[seat]
        if game.state.turn != turn and not game.is_over:
            assert rec.turns[-1] == game.current_player
    assert changes > 10 and len(rec.changed) >= changes


def test_direct_caller_keeps_results_unless_told_to_ignore_them():
    rec = Recorder()
    game = alhambra.new_game(2, seed=1, plugins=[rec])
    caller = game.rules.hook.alhambra_city_changed
    collected = direct_caller(caller)
    assert collected(game=game, seat=0) == ["ignored"]  # like pluggy: a list of results
    assert direct_caller(caller, results=False) == rec.alhambra_city_changed
