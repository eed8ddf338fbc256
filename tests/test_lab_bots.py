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
    assert bot.spec() == f"search:{SEARCH_DEFAULTS['iterations']}"
    again = make_bot(bot.spec(), 3)
    assert (again.iterations, again.top_k, again.c, again.horizon) == (bot.iterations, bot.top_k, bot.c, bot.horizon)
    assert make_bot("search:5:top_k=2", 1).spec() == "search:5:top_k=2"
    assert make_bot("search:0.2s", 1).seconds == 0.2


def test_search_bot_plays_legal_and_deterministic_games():
    def one():
        game = alhambra.new_game(2, modules=["vizier"], seed=5)
        return play(game, [make_bot("search:4", 1), make_bot("greedy", 2)])

    a, b = one(), one()
    assert a.is_over and a.scores == b.scores and a.history == b.history
