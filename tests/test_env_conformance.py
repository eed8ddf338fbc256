"""The environments pass their libraries' own conformance checks: PettingZoo's
``api_test`` and ``seed_test``, Gymnasium's ``check_env`` and ``AsyncVectorEnv``, OpenSpiel's
random-simulation test for Python games, and OpenSpiel's ISMCTS bot against greedy."""

from __future__ import annotations

import random
import warnings

import alhambra
import numpy as np
import pytest
from alhambra.bots import make_bot
from alhambra.env import Session, alhambra_v0

ALL = "vizier,building_huts,bonus_cards,exchange_offices"
SIX = ALL + ",city_gates,diamonds"
#: the engines the environments run on: the compiled rules kernel (its codec and observer)
#: and Python; "auto" picks the kernel for the rule sets it plays
ENGINES = ["kernel", "python"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("modules", ["", ALL + ",diamonds"], ids=["base", "all-kernel-modules"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pettingzoo_api_and_seed_tests_pass(players, modules, engine):
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on Dict observation spaces
        api_test(alhambra_v0.env(players=players, modules=modules, engine=engine), num_cycles=120)
        seed_test(lambda **kw: alhambra_v0.env(players=players, modules=modules, engine=engine, **kw), num_cycles=120)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_pettingzoo_api_test_passes_with_all_six_modules(players):
    """The second expansion's actions (gates, purchases in diamonds) are encoded too."""
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(alhambra_v0.env(players=players, modules=SIX), num_cycles=300)


@pytest.mark.parametrize("engine", ENGINES)
def test_pettingzoo_game_to_the_end_pays_the_share_of_victory(engine):
    env = alhambra_v0.env(players=3, modules=["vizier"], render_mode="ansi", engine=engine)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.unwrapped.session.game
    assert game.is_over
    assert [total[a] for a in env.possible_agents] == list(alhambra.returns(game))
    assert sum(total.values()) == pytest.approx(1.0)


def test_pettingzoo_render_is_text_of_the_public_game():
    env = alhambra_v0.env(players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert (
        "market:" in text
        and "player 1" in text
        and "[" not in text.split("player 0")[1].split("\n")[0].split("cards")[1][:2]
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_gymnasium_make_check_env_and_reward_at_the_end(engine):
    import alhambra.env  # noqa: F401  (registers alhambra/Alhambra-v0)
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(
        "alhambra/Alhambra-v0", players=4, modules=ALL, opponents=["greedy", "random", "random"], engine=engine
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    done, reward, steps = False, 0.0, 0
    while not done:
        assert obs["action_mask"].any() and np.array_equal(obs["action_mask"], info["action_mask"])
        obs, reward, done, _trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        assert "illegal_action" not in info
    game = env.unwrapped.session.game
    assert game.is_over and reward == alhambra.returns(game)[0] and steps > 20


@pytest.mark.parametrize("engine", ENGINES)
def test_gymnasium_illegal_step_changes_nothing_and_is_penalised(engine):
    import gymnasium

    env = gymnasium.make("alhambra/Alhambra-v0", players=2, engine=engine).unwrapped
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.session.game.to_json()
    obs2, reward, done, _trunc, info = env.step(illegal)
    assert info["illegal_action"] is True and reward == -1.0 and not done
    assert env.session.game.to_json() == before and np.array_equal(obs2["observation"], obs["observation"])
    strict = gymnasium.make("alhambra/Alhambra-v0", players=2, illegal_reward=None, engine=engine).unwrapped
    strict.reset(seed=0)
    with pytest.raises(alhambra.IllegalActionError):
        strict.step(illegal)


def test_gymnasium_runs_under_async_vector_env():
    import gymnasium

    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: gymnasium.make("alhambra/Alhambra-v0", players=3, modules="vizier") for _ in range(2)]
    )
    try:
        obs, _info = envs.reset(seed=[1, 2])
        for _ in range(30):
            masks = obs["action_mask"]
            actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
            obs, _rewards, _term, _trunc, _info = envs.step(actions)
        assert obs["observation"].shape == (2, Session(3, ["vizier"]).observation_size)
    finally:
        envs.close()


# -- OpenSpiel ---------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_openspiel_parameters_tensors_strings_and_serialisation(engine):
    import alhambra.env.openspiel  # noqa: F401
    import pyspiel

    game = pyspiel.load_game("python_alhambra", {"players": 4, "modules": "vizier,bonus_cards", "engine": engine})
    assert game.template.engine == engine
    s = Session(4, ["vizier", "bonus_cards"], engine=engine)
    assert game.num_players() == 4 and game.num_distinct_actions() == s.num_actions
    size = s.observation_size + game.max_chance_outcomes()  # the shared vector, then the "drawn" slice
    assert game.observation_tensor_size() == size
    cards = len(s.encoder.cards)
    assert game.information_state_tensor_size() == size + 4 * cards  # and every seat's known hand
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    tensor = np.array(state.observation_tensor(seat), dtype=np.float32)
    assert np.array_equal(tensor[: s.observation_size], state.session.observe(seat))
    assert not tensor[s.observation_size :].any()  # nothing drawn for a waiting action
    assert "market:" in state.observation_string(seat)
    info = np.array(state.information_state_tensor(seat), dtype=np.float32)
    assert np.array_equal(info[:size], tensor)
    known = info[size:].reshape(4, cards)
    for k in range(4):
        hand = state.session.game.state.players[(seat + k) % 4].hand
        assert known[k].sum() == len(hand)
    assert f"({len(state.history())} moves)" in state.information_state_string(seat)
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert again.session.game.to_json() == state.session.game.to_json()


def test_openspiel_ismcts_plays_full_games_against_greedy():
    import pyspiel
    from alhambra.env.openspiel import ScoreEvaluator
    from open_spiel.python.algorithms.ismcts import ISMCTSBot

    game = pyspiel.load_game("python_alhambra", {"players": 2, "modules": ALL, "seed": 11})
    bot = ISMCTSBot(game, ScoreEvaluator(), uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(1))
    greedy = make_bot("greedy", seed=1)
    state = game.new_initial_state()
    searched = 0
    rng = random.Random(3)
    while not state.is_terminal():
        seat = state.current_player()
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(ids, probs)[0])
        elif seat == 0:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            g = state.session.game
            for i in state.session.encode(greedy.choose(g, seat, g.legal_actions())):
                state.apply_action(i)
    assert state.session.game.is_over and sum(state.returns()) == pytest.approx(1.0)
    assert searched > 50


def test_bad_configurations_are_config_errors():
    import gymnasium

    with pytest.raises(alhambra.ConfigError):
        alhambra_v0.env(players=7)
    with pytest.raises(alhambra.ConfigError):
        alhambra_v0.env(players=3, render_mode="rgb_array")
    with pytest.raises(alhambra.ConfigError):
        gymnasium.make("alhambra/Alhambra-v0", players=3, opponents=["greedy"])
    with pytest.raises(alhambra.ConfigError):
        gymnasium.make("alhambra/Alhambra-v0", players=3, seat=3)
    with pytest.raises(alhambra.ConfigError):
        Session(3, ["no_such_module"])


def test_gymnasium_random_seat_is_drawn_from_the_seed_and_observed_relative_to_it():
    import gymnasium

    env = gymnasium.make("alhambra/Alhambra-v0", players=4, seat="random").unwrapped
    seats = set()
    for seed in range(8):
        obs, info = env.reset(seed=seed)
        again, info2 = env.reset(seed=seed)
        assert info["seat"] == info2["seat"] and np.array_equal(obs["observation"], again["observation"])
        seats.add(info["seat"])
        part = env.session.encoder.views(obs["observation"])
        assert part["current_player"][0] == 1  # the learner decides, and is slot 0
    assert len(seats) > 1


def test_openspiel_information_state_does_not_tell_a_decline_from_a_seat_not_asked_R_VIZ_5():
    """R-VIZ-5: the moves in the information-state string leave out declined vizier offers."""
    import pyspiel

    game = pyspiel.load_game("python_alhambra", {"players": 3, "modules": "vizier"})
    state = game.new_initial_state()
    rng = random.Random(5)
    declined = 0
    while not state.is_terminal() and declined < 3:
        a = rng.choice(state.legal_actions())
        declined += not state.is_chance_node() and state.session.codec.describe(a) == "DeclineVizier"
        state.apply_action(a)
    assert declined == 3
    # the same record without the declines: a seat not asked leaves no move either
    record = b""
    from alhambra.env.openspiel import _chain

    for pa in state.full_history():
        if pa.player < 0:
            record = _chain(record, b"c", pa.action)
        elif state.session.codec.describe(pa.action) != "DeclineVizier":
            record = _chain(record, b"p", pa.action)
    assert f"record: {record.hex()}" in state.information_state_string(0)
