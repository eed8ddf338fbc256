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


def test_every_hook_is_of_one_kind_and_the_kinds_name_real_hooks():
    """The kinds of hook calling that ``alhambra.hookspec`` states: the chained and the direct
    hooks are specified hooks, neither *firstresult* nor historic for the chained ones, and
    the rule set's direct callers are exactly the direct hooks."""
    from alhambra import hookspec

    specs = {name for name in dir(hookspec) if name.startswith("alhambra_")}
    assert set(hookspec.CHAINED) <= specs and set(hookspec.DIRECT) <= specs
    assert not set(hookspec.CHAINED) & set(hookspec.DIRECT)
    rules = alhambra.new_game(2, seed=1).rules
    for name, arg in hookspec.CHAINED.items():
        caller = getattr(rules.hook, name)
        assert arg in caller.spec.argnames and not caller.spec.opts.get("firstresult")
    assert rules.fast.names == hookspec.DIRECT
    assert all(callable(getattr(rules.fast, name)) for name in hookspec.DIRECT)


def test_chained_hooks_run_in_registration_order_each_given_the_value_so_far():
    """``alhambra_building_price`` (R-TURN-3) is chained like every chained hook: the house rule
    registered first answers first, so doubling then adding one is not adding one then doubling."""
    import types

    double = types.SimpleNamespace(NAME="double", alhambra_building_price=hookimpl(lambda price: price * 2))
    plus_one = types.SimpleNamespace(NAME="plus_one", alhambra_building_price=hookimpl(lambda price: price + 1))
    one = alhambra.new_game(2, seed=1, plugins=[double, plus_one]).rules
    other = alhambra.new_game(2, seed=1, plugins=[plus_one, double]).rules
    printed = one.prices[1]
    assert one.space_prices[0][1] == printed * 2 + 1
    assert other.space_prices[0][1] == (printed + 1) * 2
