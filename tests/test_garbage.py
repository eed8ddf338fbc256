"""Games free their memory as they go: play, copies, views and loading leave no reference
cycles for Python's cyclic garbage collector, and loading a save reuses the game's rule set.

A reference cycle (a recursive closure, a converter built per call) is freed only when the
collector runs; in a long simulation the collections it provokes touch every live object and
cost a tenth of the time per action (measured with ``benchmarks/engine_speed.py``)."""

from __future__ import annotations

import gc
import random

from hypothesis import given, settings

import alhambra
from alhambra.engine.city import Alhambra, longest_trail
from helpers import modules6_st, players_st, seeds_st


def _play(players: int, modules: tuple, seed: int, *, extras: bool) -> alhambra.Game:
    game = alhambra.new_game(players, modules=list(modules), seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        steps += 1
        if extras and steps % 50 == 0:  # the other paths users take mid-game
            game.clone()
            game.determinize(steps % players, random.Random(steps))
            game.view(steps % players)
    return game


def _cyclic_garbage(run) -> int:
    """How many objects ``run()`` left that only the cyclic collector can free."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        run()
        return gc.collect()
    finally:
        if was:
            gc.enable()


@settings(max_examples=25, deadline=None)
@given(players=players_st, modules=modules6_st, seed=seeds_st)
def test_random_games_leave_no_cyclic_garbage(players, modules, seed):
    # first the same game: its rule set, converter and caches built, and cattrs' hooks for every
    # type the game meets (built on first use, they leave a cycle once; another seed may meet a
    # type for the first time, a module's state in a determinized copy)
    _play(players, modules, seed, extras=True)
    assert _cyclic_garbage(lambda: _play(players, modules, seed, extras=True)) == 0


@settings(max_examples=10, deadline=None)
@given(players=players_st, modules=modules6_st, seed=seeds_st)
def test_saving_and_loading_again_leave_no_cyclic_garbage(players, modules, seed):
    """Once a configuration's converter has met a save's types (cattrs builds its hooks on
    first use), writing and reading the save again leaves nothing for the collector."""
    game = _play(players, modules, seed, extras=False)
    text = game.to_json()
    alhambra.Game.from_json(text)
    assert _cyclic_garbage(lambda: alhambra.Game.from_json(game.to_json())) == 0


def test_loading_a_save_reuses_the_rule_set_and_the_callers_list():
    """A save's JSON gives every sequence option as a list: loads of games of one
    configuration still share one rule set, and a list passed in is copied, not kept."""
    values = [3, 4, 5, 6]
    game = alhambra.new_game(3, modules=["diamonds", "vizier"], seed=8, options={"diamonds.values": values})
    values.append(9)
    assert game.rules.options["diamonds.values"] == [3, 4, 5, 6]
    text = game.to_json()
    first, second = alhambra.Game.from_json(text), alhambra.Game.from_json(text)
    assert first.rules is second.rules
    tupled = alhambra.new_game(3, modules=["diamonds", "vizier"], options={"diamonds.values": (3, 4, 5, 6)})
    assert tupled.rules.options["diamonds.values"] == (3, 4, 5, 6)  # its own rule set: a tuple stays one


def test_r_score_5_longest_wall_by_cell_numbers_matches_the_segments():
    """The outer wall's length worked out over the engine's cell numbers equals the longest
    trail of ``outer_wall_segments()`` (R-SCORE-5), over the Alhambras of random games."""
    seen = 0
    for seed in range(12):
        game = alhambra.new_game(4, modules=["city_gates", "building_huts"], seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            if rng.random() < 0.1:
                for p in game.state.players:
                    fresh = Alhambra.from_tiles(p.city.tiles, catalog=p.city.catalog, check=False)
                    assert fresh.longest_outer_wall() == longest_trail(p.city.outer_wall_segments())
                    assert p.city.longest_outer_wall() == longest_trail(p.city.outer_wall_segments())
                    seen += 1
    assert seen > 100
