"""Hypothesis properties of the environments' action space and observations, over random
games of 2-6 players: the action space over all 16 combinations of the first expansion's
modules, the observations over all 64 combinations of the six modules."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from alhambra.env import Session
from hypothesis import given, settings
from hypothesis import strategies as st

MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices")
COMBOS = [list(c) for k in range(5) for c in itertools.combinations(MODULES, k)]
assert len(COMBOS) == 16
MODULES6 = (*MODULES, "city_gates", "diamonds")
COMBOS6 = [list(c) for k in range(7) for c in itertools.combinations(MODULES6, k)]
assert len(COMBOS6) == 64

games = st.tuples(st.integers(2, 6), st.integers(0, 2**31), st.integers(0, 400))


def _play(session: Session, seed: int, depth: int):
    """Random legal engine actions, yielding before each (at most ``depth`` of them)."""
    rng = random.Random(seed)
    session.reset(seed)
    game = session.game
    for _ in range(depth):
        if game.is_over:
            return
        yield game
        session.play(rng.choice(game.legal_actions()))
    yield game


def _mask_tree(session: Session) -> dict[tuple[int, ...], object]:
    """Every complete code reachable by following the mask from the root, with its action."""
    d = session.decision
    found: dict[tuple[int, ...], object] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        d.prefix = prefix
        for i in d.legal_ints():
            d.prefix = prefix
            action = d.choose(i)
            if action is None:
                stack.append((*prefix, i))
            else:
                found[(*prefix, i)] = action
    d.prefix = ()
    return found


@pytest.mark.parametrize("modules", COMBOS, ids=lambda m: "+".join(m) or "base")
@settings(max_examples=3)
@given(config=games)
def test_every_legal_action_encodes_to_a_unique_code_in_range_and_decodes_to_itself(modules, config):
    players, seed, depth = config
    s = Session(players, modules)
    for game in _play(s, seed, depth):
        legal = game.legal_actions()
        codes = [s.codec.encode(a, game) for a in legal]
        assert len(set(codes)) == len(legal)
        assert all(0 <= i < s.num_actions for c in codes for i in c)
        assert [s.codec.decode(c, game) for c in codes] == legal
        # prefix-free: no code begins another, so the integers can be played one at a time
        for a, b in itertools.combinations(codes, 2):
            k = min(len(a), len(b))
            assert a[:k] != b[:k]


@pytest.mark.parametrize("modules", COMBOS, ids=lambda m: "+".join(m) or "base")
@settings(max_examples=3)
@given(config=games)
def test_the_mask_marks_exactly_the_legal_actions(modules, config):
    """Following the mask from the root reaches exactly the legal actions, one code each; the
    mask vector is 1 exactly at the first integers; playing a code applies its action."""
    players, seed, depth = config
    s = Session(players, modules)
    rng = random.Random(seed + 1)
    for game in _play(s, seed, depth):
        legal = game.legal_actions()
        tree = _mask_tree(s)
        assert sorted(map(repr, tree.values())) == sorted(map(repr, legal))
        assert len(tree) == len(legal)
        mask = s.mask()
        assert set(np.flatnonzero(mask)) == {c[0] for c in tree}
        if rng.random() < 0.2 and not game.is_over:  # play one whole code through the session
            code, action = rng.choice(sorted(tree.items()))
            probe = s.copy()
            for i in code[:-1]:
                assert probe.mask()[i] == 1 and probe.step(i) is None
            assert probe.step(code[-1]) == action and probe.game.history[-1] == action


@pytest.mark.parametrize("modules", COMBOS6, ids=lambda m: "+".join(m) or "base")
@settings(max_examples=3, deadline=None)
@given(config=games)
def test_the_observation_does_not_change_when_only_hidden_information_does(modules, config):
    """Two determinizations of the state for a seat (other hands, bag, deck, module secrets
    resampled) give that seat the same observation as the real state, through the reference
    encoder and through ``Session.observe``."""
    players, seed, depth = config
    s = Session(players, modules)
    rng = random.Random(seed)
    for k, game in enumerate(_play(s, seed, depth)):
        if k % 9:
            continue
        seat = rng.randrange(players)
        real = s.encoder.encode(game.view(seat))
        for _ in range(2):
            other = game.determinize(seat, random.Random(rng.getrandbits(32)), recall=False)
            assert np.array_equal(s.encoder.encode(other.view(seat)), real)
            # and so does the vector the environments hand out (kept up to date from the state)
            assert np.array_equal(s.with_game(other).observe(seat), real)


@pytest.mark.parametrize("modules", COMBOS6, ids=lambda m: "+".join(m) or "base")
@settings(max_examples=3, deadline=None)
@given(config=games, order=st.randoms(use_true_random=False))
def test_the_fast_observation_equals_the_reference_encoding_at_every_step_for_every_seat(modules, config, order):
    """``Session.observe`` (kept up to date from the state, alhambra.env.incremental, with
    each module's parts as the module declares them) gives every seat exactly
    ``encoder.encode(game.view(seat))`` plus its ``decision`` slice, at every step, whichever
    seats are asked in whatever order (so a seat's vector catches up over several moves);
    the fast path is taken for every combination of the six modules."""
    players, seed, depth = config
    s = Session(players, modules)
    assert s._observations.fast
    decision = s.encoder.slices["decision"]
    for game in _play(s, seed, depth):
        seats = [x for x in range(players) if order.random() < 0.5]
        for seat in seats:
            got = s.observe(seat)
            assert not got[decision].any()
            assert np.array_equal(got, s.encoder.encode(game.view(seat))), f"seat {seat}, move {len(game.history)}"
    for seat in range(players):  # the end of the game (or of the depth) for every seat
        assert np.array_equal(s.observe(seat), s.encoder.encode(s.game.view(seat)))


@pytest.mark.parametrize("modules", [[], list(MODULES)], ids=["base", "all"])
def test_a_returned_observation_is_never_changed_afterwards(modules):
    """The vector handed out is a copy: later steps (a sub-decision, a move) leave it alone."""
    s = Session(4, modules)
    s.reset(3)
    rng = random.Random(3)
    kept = []
    for _ in range(60):
        if s.game.is_over:
            break
        seat = s.game.current_player
        obs = s.observe(seat)
        kept.append((obs, obs.copy()))
        s.step(rng.choice(s.legal_ints()))
    assert all(np.array_equal(a, b) for a, b in kept)


def test_the_decision_slice_counts_the_integers_chosen_so_far_for_the_mover_only():
    s = Session(3, [])
    rng = random.Random(0)
    s.reset(0)
    while not s.prefix:  # play until an action of several integers is begun
        legal = s.legal_ints()
        long = [i for i in legal if not s.codec._single[i]]
        s.step(rng.choice(long) if long else rng.choice(legal))
    mover = s.game.current_player
    d = s.encoder.slices["decision"]
    assert list(np.flatnonzero(s.observe(mover)[d])) == sorted(set(s.prefix))
    assert s.observe(mover)[d].sum() == len(s.prefix)
    assert not s.observe((mover + 1) % 3)[d].any()
