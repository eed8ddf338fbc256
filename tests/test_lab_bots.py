"""The search bot and named weight sets: specifications, defaults, legality and determinism."""

from __future__ import annotations

import alhambra
import pytest
from alhambra.bots import BotSpecError, GreedyBot, MCTSBot, SearchBot, make_bot
from alhambra.bots.evaluate import (
    DEFAULT_WEIGHTS,
    TUNED_WEIGHTS,
    WEIGHT_SETS,
    named_weights,
    weights_name,
)
from alhambra.bots.search import SEARCH_DEFAULTS
from alhambra.simulate import play


def test_weight_sets_by_name():
    assert WEIGHT_SETS["default"] is DEFAULT_WEIGHTS and WEIGHT_SETS["tuned"] is TUNED_WEIGHTS
    assert named_weights(" Tuned ") is TUNED_WEIGHTS
    assert weights_name(DEFAULT_WEIGHTS) in ("default", "tuned")
    with pytest.raises(ValueError, match="no weight set 'heavy'"):
        named_weights("heavy")
    bot = make_bot("greedy:weights=tuned", 1)
    assert isinstance(bot, GreedyBot) and bot.weights is TUNED_WEIGHTS
    with pytest.raises(BotSpecError, match="weights='heavy' is not a valid"):
        make_bot("greedy:weights=heavy")


def test_search_bot_defaults_and_spec():
    bot = make_bot("search", 3)
    assert isinstance(bot, SearchBot) and isinstance(bot, MCTSBot)
    assert bot.weights is TUNED_WEIGHTS
    assert bot.iterations == SEARCH_DEFAULTS["iterations"] and bot.top_k == SEARCH_DEFAULTS["top_k"]
    assert bot.spec() == "search" and bot.auto_budget
    assert make_bot("search:48", 3).spec() == "search:48" and not make_bot("search:48", 3).auto_budget
    again = make_bot(bot.spec(), 3)
    assert (again.iterations, again.top_k, again.c, again.horizon) == (bot.iterations, bot.top_k, bot.c, bot.horizon)
    assert make_bot("search:5:top_k=2", 1).spec() == "search:5:top_k=2"
    assert make_bot("search:0.2s", 1).seconds == 0.2


def test_search_bot_budget_by_player_count():
    """No budget named: 48 playouts per decision with 2-3 players, 96 with four or more."""
    for players, playouts in ((2, 48), (3, 48), (4, 96), (5, 96)):
        game = alhambra.new_game(players, seed=3)
        bot = make_bot("search", 1)
        bot.choose(game, game.current_player, game.legal_actions())
        assert (
            bot.last_search["iterations"]
            == playouts
            == SEARCH_DEFAULTS["iterations_many" if players >= 4 else "iterations"]
        )
    named = make_bot("search:10", 1)
    game = alhambra.new_game(4, seed=3)
    named.choose(game, game.current_player, game.legal_actions())
    assert named.last_search["iterations"] == 10


def test_search_bot_plays_legal_and_deterministic_games():
    def one():
        game = alhambra.new_game(2, modules=["vizier"], seed=5)
        return play(game, [make_bot("search:4", 1), make_bot("greedy", 2)])

    a, b = one(), one()
    assert a.is_over and a.scores == b.scores and a.history == b.history


def _greedy_until(game, stop):
    bots = [make_bot("greedy", 10 + s) for s in range(game.num_players)]
    while not game.is_over and not stop(game):
        seat = game.current_player
        game.apply(bots[seat].choose(game, seat, game.legal_actions()))
    return game


def test_scoring_near_reads_the_top_of_the_money_deck():
    """R-SET-6 / R-SCORE-1: scoring card A lies in pile 2, so not among the top cards at the start;
    a playout looks ``reach`` cards down the deck (the top card is last)."""
    from alhambra.bots.mcts import _scoring_near
    from alhambra.engine.components import ScoringCard

    st = alhambra.new_game(3, seed=4).state
    depth = min(len(st.deck) - 1 - i for i, c in enumerate(st.deck) if type(c) is ScoringCard)
    assert depth >= st.pile_sizes[0]  # below all of pile 1
    assert not _scoring_near(st, 0) and not _scoring_near(st, depth)
    assert _scoring_near(st, depth + 1)
    st.pending_scorings.append(1)
    assert _scoring_near(st, 1) and not _scoring_near(st, 0)


def test_playout_reach_plays_on_to_the_first_scoring():
    """With ``reach`` as deep as the deck the playout goes on past the horizon until scoring 1
    (R-SCORE-1) has happened, then stops at the searcher's next turn; without it, it stops at
    the horizon before any scoring."""
    game = alhambra.new_game(2, seed=6)
    seat = game.current_player
    short, far = MCTSBot(1, horizon=1), MCTSBot(1, horizon=1, reach=200)
    g1, g2 = game.clone(), game.clone()
    assert 0.0 <= short._playout(g1, seat, game.state.turn) <= 1.0
    assert len(g1.state.scorings) == 0 and g1.state.turn < 6
    assert 0.0 <= far._playout(g2, seat, game.state.turn) <= 1.0
    assert [r.number for r in g2.state.scorings] == [1] and not g2.is_over
    assert g2.current_player == seat and g2.state.phase == "turn"


def test_playout_endgame_plays_to_the_end_when_the_bag_is_low():
    """``endgame``: once the bag holds at most that many buildings, the reward is the real end
    (R-END-3): the victory share half and the margin half, so a won game rewards above 0.5."""
    game = _greedy_until(alhambra.new_game(2, seed=8), lambda g: len(g.state.bag) <= 6)
    assert not game.is_over
    seat = game.current_player
    g0, g1 = game.clone(), game.clone()
    MCTSBot(1, horizon=1)._playout(g0, seat, game.state.turn)
    assert not g0.is_over
    reward = MCTSBot(1, horizon=1, endgame=6)._playout(g1, seat, game.state.turn)
    assert g1.is_over
    assert (reward > 0.5) == (alhambra.returns(g1)[seat] == 1.0)


def test_reach_and_endgame_in_specifications():
    bot = make_bot("mcts:8:reach=5:endgame=4", 1)
    assert (bot.reach, bot.endgame) == (5, 4) and bot.spec() == "mcts:8:reach=5:endgame=4"
    with pytest.raises(BotSpecError, match="reach and endgame"):
        MCTSBot(1, reach=-1)
