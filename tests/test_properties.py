"""Invariants over random legal play, for every module combination and 2-6 players.

Hypothesis draws the player count, the modules and the seed; each game is played to the end
by uniformly random legal actions and the invariants are checked after every action.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, strategies as st

import alhambra
from alhambra.testing import InvariantError, check_invariants, expected_money
from helpers import (
    COMBINATIONS,
    COMBINATIONS6,
    modules6_st,
    advance,
    assert_refused,
    continue_alike,
    players_st,
    save_and_load,
    seeds_st,
)


def _illegal_variants(game, action, rng):
    """A few actions that must be refused in the current state."""
    out = []
    if isinstance(action, alhambra.Buy):
        out.append(alhambra.Buy(action.space, action.cards + (alhambra.MoneyCard("florin", 9),) * 20, action.via))
        out.append(alhambra.Buy(action.space, (), action.via))
    out.append(alhambra.Place(1, (0, 0)))
    out.append(alhambra.RemoveToReserve((0, 0)))
    out.append(alhambra.TakeMoney(tuple(alhambra.MoneyCard("dinar", 9) for _ in range(3))))
    return [a for a in out if a not in game.legal_actions()]


def play_checked(players, modules, seed, *, illegal_every=7, max_steps=20_000):
    game = alhambra.new_game(players, modules=modules, seed=seed)
    rng = random.Random(seed)
    money = expected_money(game)
    check_invariants(game, expected_cards=money)
    scores = game.scores
    steps = 0
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, "a running game always offers an action"
        action = rng.choice(legal)
        if steps % illegal_every == 0:
            assert_refused(game, *_illegal_variants(game, action, rng))
        game.apply(action)
        steps += 1
        check_invariants(game, expected_cards=money)
        assert all(b >= a for a, b in zip(scores, game.scores)), "R-SCORE-6: scores never decrease"
        scores = game.scores
        if steps > max_steps:
            raise InvariantError("the game does not end")
    assert game.winners and set(game.winners) <= set(range(players))
    assert 3 in [r.number for r in game.state.scorings]
    return game


@given(players=players_st, modules=modules6_st, seed=seeds_st)
def test_random_games_keep_every_invariant(players, modules, seed):
    play_checked(players, modules, seed)


@given(players=players_st, modules=modules6_st, seed=seeds_st)
def test_seed_and_actions_replay_to_the_same_game(players, modules, seed):
    game = alhambra.new_game(players, modules=modules, seed=seed)
    alhambra.testing.random_playout(game, seed)
    again = alhambra.replay(game.history, players=players, modules=modules, seed=seed)
    assert again.to_json() == game.to_json()
    assert alhambra.replay(game.to_json()).to_json() == game.to_json()


@given(players=players_st, modules=modules6_st, seed=seeds_st, cut=st.floats(0.0, 1.0))
def test_save_load_mid_game_continues_identically(players, modules, seed, cut):
    game = alhambra.new_game(players, modules=modules, seed=seed)
    advance(game, random.Random(seed), int(cut * 250))
    loaded = save_and_load(game)
    assert loaded.legal_actions() == game.legal_actions()
    continue_alike(game, loaded, seed + 1)


@given(players=players_st, modules=modules6_st, seed=seeds_st)
def test_clone_is_independent(players, modules, seed):
    game = alhambra.new_game(players, modules=modules, seed=seed)
    advance(game, random.Random(seed), 40)
    snapshot = game.to_json()
    copy = game.clone()
    alhambra.testing.random_playout(copy, seed)
    assert game.to_json() == snapshot
    assert json.loads(copy.to_json())["history"][: len(game.history)] == json.loads(snapshot)["history"]


@pytest.mark.parametrize("modules", COMBINATIONS, ids=lambda c: "+".join(c) or "base")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_combination_plays_to_the_end(players, modules):
    """A deterministic sweep: each of the 16 combinations with each player count."""
    play_checked(players, modules, seed=1000 + players, illegal_every=50)


@pytest.mark.parametrize(
    "k, modules",
    [(k, c) for k, c in enumerate(COMBINATIONS6) if c not in COMBINATIONS],
    ids=lambda c: "+".join(c) if isinstance(c, tuple) else str(c),
)
def test_every_combination_with_the_second_expansion_plays_to_the_end(k, modules):
    """The 48 combinations with city gates or diamonds, each with one player count (2-6 in
    turn): every invariant after every action (placement with gates, card accounting)."""
    players = 2 + k % 5
    game = play_checked(players, modules, seed=2000 + k, illegal_every=50)
    loaded = save_and_load(game)
    assert loaded.winners == game.winners


@given(players=players_st, modules=modules6_st, seed=seeds_st, steps=st.integers(0, 200))
def test_determinize_keeps_what_the_seat_sees(players, modules, seed, steps):
    """Game.determinize(seat) resamples only hidden information: the seat's own view is
    unchanged, every invariant holds, and the sample differs from the truth in hidden places."""
    game = alhambra.new_game(players, modules=modules, seed=seed)
    rng = random.Random(seed)
    advance(game, rng, steps)
    seat = rng.randrange(players)
    for recall in (True, False):  # a perfect memory (hands kept, R-SET-3) or only the table now
        sample = game.determinize(seat, random.Random(seed + 7), recall=recall)
        assert sample.view(seat) == game.view(seat)
        check_invariants(sample)
    assert sample.legal_actions() == game.legal_actions() or game.current_player != seat
