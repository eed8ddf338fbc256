"""Bots: the registry, legality of every choice, honesty about hidden information, determinism."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import alhambra
from alhambra.bots import (
    BOTS,
    Bot,
    BotSpecError,
    GreedyBot,
    MCTSBot,
    RandomBot,
    make_bot,
    observe,
    bot_names,
    register_bot,
)
from alhambra.simulate import play
from helpers import COMBINATIONS, MODULES, advance, modules_st, players_st, seeds_st

SMALL_MCTS = "mcts:iterations=3:top_k=3"
SPECS = ("random", "greedy", SMALL_MCTS)


# -- registry ------------------------------------------------------------------------------------


def test_registry_names_and_budgets():
    assert {"random", "greedy", "mcts"} <= set(bot_names())  # found through the entry points
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("GREEDY", 1), GreedyBot)
    m = make_bot("mcts:200", 3)
    assert isinstance(m, MCTSBot) and m.iterations == 200 and m.seconds is None and m.seed == 3
    assert make_bot("mcts:0.5s").seconds == 0.5
    m = make_bot("mcts:iterations=10:top_k=3:c=0.2")
    assert (m.iterations, m.top_k, m.c) == (10, 3, 0.2)
    assert make_bot("mcts", iterations=7).iterations == 7  # keyword params override
    assert make_bot("greedy:noise=0.5").noise == 0.5
    assert make_bot("mcts:12").spec() == "mcts:12"
    assert make_bot("mcts").spec() == "mcts:32"
    assert make_bot("mcts:0.5s:top_k=3:horizon=0").spec() == "mcts:0.5s:top_k=3:horizon=0"


@pytest.mark.parametrize(
    "spec, match",
    [
        ("wizard", "unknown bot 'wizard'; known bots: greedy, learned, mcts, pimc, random, search"),
        ("mcts:fast", "not a valid int"),
        ("mcts:depth=3", "no parameter 'depth'"),
        ("random:10", "takes no budget"),
        ("mcts:0", "at least 1"),
        ("mcts:versus=worst", "versus must be 'best' or 'mean'"),
        ("mcts::", "empty parameter"),
        ("", "non-empty"),
    ],
)
def test_registry_errors(spec, match):
    with pytest.raises(BotSpecError, match=match):
        make_bot(spec)
    assert issubclass(BotSpecError, alhambra.AlhambraError)


def test_register_own_bot():
    class FirstBot(Bot):
        name = "first"

        def choose(self, game, seat, legal):
            return legal[0]

    register_bot("first", FirstBot)
    try:
        game = alhambra.new_game(2, seed=4)
        bot = make_bot("first", 1)
        assert bot.choose(game, game.current_player, game.legal_actions()) == game.legal_actions()[0]
        with pytest.raises(BotSpecError):
            register_bot("a:b", FirstBot)
    finally:
        del BOTS["first"]


# -- legality -------------------------------------------------------------------------------------


def _choices_are_legal(game, spec, seed, decisions):
    """On a clone of ``game``, the bot ``spec`` (seeded ``seed``) makes up to ``decisions``
    choices in a row, for whichever seat decides: each is one of the legal actions it was given."""
    g = game.clone()
    bot = make_bot(spec, seed)
    for _ in range(decisions):
        if g.is_over:
            break
        legal = g.legal_actions()
        action = bot.choose(g, g.current_player, legal)
        assert action in legal, f"{spec} chose {action} in phase {g.phase}"
        g.apply(action)


@settings(max_examples=20)
@given(players=players_st, modules=modules_st, seed=seeds_st, prefix=st.integers(0, 700))
def test_bots_only_choose_legal_actions(players, modules, seed, prefix):
    """From a random point of a random game (any modules, 2-6 players), every bot returns one
    of the legal actions it was given, for several decisions in a row (all seats)."""
    game = alhambra.new_game(players, modules=modules, seed=seed)
    advance(game, random.Random(seed), prefix)
    for spec in SPECS:
        _choices_are_legal(game, spec, seed, 4)


@pytest.mark.parametrize("k, modules", list(enumerate(COMBINATIONS)))
def test_every_module_combination(k, modules):
    """Each of the 16 module combinations (2-6 players in turn): each bot chooses legally at a
    few points of a game."""
    players = 2 + k % 5
    game = alhambra.new_game(players, modules=modules, seed=k)
    rng = random.Random(k)
    for prefix in (0, 120, 250):
        advance(game, rng, prefix)
        for spec in SPECS:
            _choices_are_legal(game, spec, k, 3)


@pytest.mark.parametrize(
    "players, modules",
    [(2, ()), (3, MODULES), (5, ("vizier", "exchange_offices")), (6, ("building_huts", "bonus_cards"))],
)
def test_greedy_games_end(players, modules):
    """Greedy against itself finishes the game (no redesign loops, purchases end it)."""
    game = alhambra.new_game(players, modules=modules, seed=11)
    play(game, [GreedyBot(i) for i in range(players)], max_actions=5_000)
    assert game.is_over and game.winners


def test_mcts_plays_a_whole_game_with_every_module():
    game = alhambra.new_game(2, modules=MODULES, seed=5)
    play(game, [make_bot("mcts:iterations=2:top_k=2", 1), make_bot("greedy", 2)], max_actions=5_000)
    assert game.is_over


# -- strength (a smoke test; benchmarks/bot_strength.py measures it properly) --------------------


def test_greedy_beats_random():
    wins = 0.0
    for seed in range(4):
        bots = [GreedyBot(seed), RandomBot(seed)] if seed % 2 == 0 else [RandomBot(seed), GreedyBot(seed)]
        game = play(alhambra.new_game(2, seed=seed), bots)
        wins += alhambra.returns(game)[seed % 2]
    assert wins == 4


# -- honesty and determinism -----------------------------------------------------------------------


@settings(max_examples=15)
@given(players=players_st, modules=modules_st, seed=seeds_st, prefix=st.integers(0, 500))
def test_greedy_ignores_hidden_information(players, modules, seed, prefix):
    """Resampling everything the deciding seat cannot see never changes greedy's choice."""
    game = alhambra.new_game(players, modules=modules, seed=seed)
    advance(game, random.Random(seed), prefix)
    if game.is_over:
        return
    seat = game.current_player
    legal = game.legal_actions()
    other = observe(game, seat, random.Random(seed + 1))
    assert other.legal_actions() == legal
    assert GreedyBot(1).choose(game, seat, legal) == GreedyBot(1).choose(other, seat, legal)


def test_observe_resamples_only_hidden_things():
    game = alhambra.new_game(4, modules=MODULES, seed=9)
    advance(game, random.Random(9), 150)
    seat = game.current_player
    other = observe(game, seat, random.Random(1))
    assert other.view(seat) == game.view(seat)
    assert game.to_json() != other.to_json()
    bs, bo = game.state.modules["bonus_cards"], other.state.modules["bonus_cards"]
    assert bo.hands[seat] == bs.hands[seat]
    assert sorted(sum(bo.hands, []) + bo.out_of_play) == sorted(sum(bs.hands, []) + bs.out_of_play)


def test_mcts_is_deterministic_for_a_seed():
    def run():
        game = alhambra.new_game(3, modules=("vizier",), seed=21)
        bots = [make_bot("mcts:iterations=4:top_k=3", 5), make_bot("greedy", 6), make_bot("random", 7)]
        for _ in range(60):
            seat = game.current_player
            game.apply(bots[seat].choose(game, seat, game.legal_actions()))
        return game.to_json()

    assert run() == run()


def test_mcts_search_statistics():
    game = alhambra.new_game(2, seed=2)
    bot = make_bot("mcts:iterations=12:top_k=4", 1)
    legal = game.legal_actions()
    action = bot.choose(game, game.current_player, legal)
    stats = bot.last_search
    assert action in legal and stats["iterations"] == 12
    assert sum(v for _, v, _ in stats["children"]) == 12
    assert all(0.0 <= mean <= 1.0 for _, _, mean in stats["children"])
