"""Every environment holds for any legal play: greedy, search and random drivers in the
PettingZoo, Gymnasium and OpenSpiel environments over many games, no error (the cell slots of
each Alhambra can never be left, R-PLACE-2); truncation; saves and pickles of their games.

The 500-greedy-game bar is measured by ``benchmarks/env_any_play.py``; the suite keeps a
modest share (about 150 fast games).
"""

from __future__ import annotations

import pickle
import random

import alhambra
import numpy as np
import pytest
from alhambra import ConfigError, Game
from alhambra.bots import make_bot
from alhambra.env import alhambra_v0
from alhambra.env.gym_env import AlhambraEnv


def _pettingzoo_game(players, modules, seed, drivers):
    """One PettingZoo game; ``drivers[seat]``: a bot (its whole action played as integers)
    or ``None`` (random over the mask). Returns the game."""
    env = alhambra_v0.env(players=players, modules=modules)
    env.reset(seed=seed)
    raw = env.unwrapped
    rng = random.Random(seed)
    queue: list[int] = []
    for agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = raw._seat[agent]
        bot = drivers[seat]
        if bot is None:
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        else:
            if not queue:
                g = raw.session.game
                queue = list(raw.session.encode(bot.choose(g, seat, g.legal_actions())))
            action = queue.pop(0)
            assert obs["action_mask"][action] == 1
        env.step(action)
    return raw.session.game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_random_drive_pettingzoo_without_error(players):
    for seed in range(25):
        drivers = [make_bot("greedy", seed=seed + k) if k % 2 == 0 else None for k in range(players)]
        game = _pettingzoo_game(players, [], seed, drivers)
        assert game.is_over


def test_all_modules_with_greedy_in_every_seat():
    for seed in range(15):
        game = _pettingzoo_game(4, "all", seed, [make_bot("greedy", seed=seed + k) for k in range(4)])
        assert game.is_over


def test_search_bot_drives_pettingzoo():
    for seed in range(2):
        game = _pettingzoo_game(2, [], seed, [make_bot("search:iterations=4", seed=seed), make_bot("greedy")])
        assert game.is_over


def test_the_learned_bot_drives_pettingzoo_with_and_without_modules():
    """The trained policy shipped with the package as a driver: its whole actions, encoded,
    are always in the mask, without modules and with all of them."""
    for seed, modules in ((0, []), (1, "all")):
        drivers = [make_bot("learned", seed=seed), make_bot("greedy", seed=seed), None]
        game = _pettingzoo_game(3, modules, seed, drivers)
        assert game.is_over


def _gym_game(env, seed, learner):
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    done = truncated = False
    while not (done or truncated):
        s = env.session
        if learner is None:
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            obs, _r, done, truncated, info = env.step(action)
        else:
            g = s.game
            for i in s.encode(learner.choose(g, env.seat, g.legal_actions())):
                obs, _r, done, truncated, info = env.step(i)
            assert "illegal_action" not in info
    return done


def test_greedy_learner_against_greedy_in_gymnasium():
    env = AlhambraEnv(players=3, opponents=["greedy", "greedy"], seat="random")
    for seed in range(40):
        assert _gym_game(env, seed, make_bot("greedy", seed=seed))


def test_learned_learner_against_greedy_in_gymnasium():
    env = AlhambraEnv(players=2, opponents=["greedy"], seat="random")
    for seed in range(3):
        assert _gym_game(env, seed, make_bot("learned", seed=seed))


def test_random_learner_with_all_modules_in_gymnasium():
    env = AlhambraEnv(players=4, modules="all", opponents=["greedy", "random", "greedy"])
    for seed in range(10):
        assert _gym_game(env, seed, None)


def test_greedy_drives_openspiel_with_every_module():
    pyspiel = pytest.importorskip("pyspiel")
    import alhambra.env.openspiel  # noqa: F401  (registers the game)

    for seed in range(5):
        game = pyspiel.load_game("python_alhambra", {"players": 3, "modules": "all", "seed": seed})
        state = game.new_initial_state()
        bots = [make_bot("greedy", seed=seed + k) for k in range(3)]
        rng = random.Random(seed)
        queue: list[int] = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            if not queue:
                g, seat = state.session.game, state.current_player()
                queue = list(state.session.encode(bots[seat].choose(g, seat, g.legal_actions())))
            state.apply_action(queue.pop(0))
        assert state.session.game.is_over


def test_pettingzoo_truncates_a_stalling_policy():
    env = alhambra_v0.env(players=2, max_episode_steps=30)
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert steps == 30
    with pytest.raises(ConfigError):
        alhambra_v0.env(max_episode_steps=0)
    assert alhambra_v0.raw_env().max_episode_steps == alhambra_v0.MAX_EPISODE_STEPS


def test_gymnasium_truncates_and_the_registration_has_a_limit():
    import gymnasium

    env = AlhambraEnv(players=2, opponents=["random"], max_episode_steps=5)
    obs, _ = env.reset(seed=1)
    for k in range(5):
        obs, _r, done, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert not done and truncated == (k == 4)
    assert gymnasium.spec("alhambra/Alhambra-v0").max_episode_steps == 5_000


def test_environment_games_save_and_pickle():
    # seeds drawn by reset lie in 0 <= seed < 2**63: the engine's saves take them
    env = alhambra_v0.env(players=3)
    for seed in range(20):
        env.reset(seed=seed)
        game = env.unwrapped.session.game
        assert Game.from_json(game.to_json()).to_json() == game.to_json()
        assert pickle.loads(pickle.dumps(env.unwrapped.session)).game.to_json() == game.to_json()
    genv = AlhambraEnv(players=2)
    for seed in range(20):
        genv.reset(seed=seed)
        game = genv.session.game
        assert Game.from_json(game.to_json()).to_json() == game.to_json()
        assert pickle.loads(pickle.dumps(genv.session)).game.to_json() == game.to_json()


@pytest.mark.parametrize("bad", [-1, 2**63, 2**70])
def test_reset_refuses_seeds_outside_the_one_range(bad):
    env = alhambra_v0.env(players=2)
    with pytest.raises(ConfigError):
        env.reset(seed=bad)
    with pytest.raises(ConfigError):
        AlhambraEnv(players=2).reset(seed=bad)
    assert alhambra.SEED_LIMIT == 2**63


_MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]
_COMBOS = [[m for k, m in enumerate(_MODULES) if bits >> k & 1] for bits in range(16)]


@pytest.mark.parametrize("modules", _COMBOS, ids=lambda m: "+".join(m) or "base")
def test_openspiel_game_string_round_trips_for_every_module_list(modules):
    import copy

    pyspiel = pytest.importorskip("pyspiel")
    import alhambra.env.openspiel  # noqa: F401

    game = pyspiel.load_game("python_alhambra", {"players": 3, "modules": ",".join(modules)})
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert str(copy.deepcopy(game)) == str(game)
    state = game.new_initial_state()
    # seed -1 is one fixed root (seed 0): every initial state is the same deal
    assert state.session.game.to_json() == game.new_initial_state().session.game.to_json()
    rng = random.Random(len(modules))
    for _ in range(40):
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _p in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    if "+".join(modules) in ("", "vizier+bonus_cards", "building_huts+bonus_cards+exchange_offices"):
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _openspiel(players=2, modules="", seed=3):
    pyspiel = pytest.importorskip("pyspiel")
    import alhambra.env.openspiel  # noqa: F401

    return pyspiel, pyspiel.load_game("python_alhambra", {"players": players, "modules": modules, "seed": seed})


def test_information_state_tensor_tells_two_takes_apart_that_the_observation_does_not():
    """Perfect recall: a take is seen by every seat (R-TURN-2), so another seat's information
    state differs after a take of another card, though its observation (hand sizes) may not."""
    from alhambra import TakeMoney

    _pyspiel, game = _openspiel(3, seed=11)
    root = game.new_initial_state()
    g = root.session.game
    seat = root.current_player()
    singles = [a for a in g.legal_actions() if isinstance(a, TakeMoney) and len(a.cards) == 1]
    assert len({a.cards for a in singles}) >= 2
    ends = []
    for a in singles[:2]:
        st = root.clone()
        for i in st.session.encode(a):
            st.apply_action(i)
        while st.is_chance_node():  # the display is refilled (R-TURN-8)
            st.apply_action(st.chance_outcomes()[0][0])
        ends.append(st)
    other = (seat + 1) % 3
    size = game.observation_tensor_size()
    a, b = (np.array(s.information_state_tensor(other)) for s in ends)
    assert not np.array_equal(a[size:], b[size:])  # the known hands differ
    assert a[size:].reshape(3, -1).sum(axis=1).tolist() == [
        len(ends[0].session.game.state.players[(other + k) % 3].hand) for k in range(3)
    ]
    assert ends[0].information_state_string(other) != ends[1].information_state_string(other)


def test_information_state_string_keeps_one_size_as_the_game_goes_on():
    _pyspiel, game = _openspiel(2)
    state = game.new_initial_state()
    rng = random.Random(2)
    lengths = []
    for k in range(600):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _p in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if k % 100 == 99 and not state.is_chance_node() and not state.is_terminal():
            lengths.append(len(state.information_state_string(state.current_player()).rsplit("record: ", 1)[1]))
    assert len(set(lengths)) <= 2  # "<32 hex digits> (<moves> moves)": one more digit at most


def test_heuristic_evaluator_sees_differences_before_the_first_scoring():
    from alhambra.env.openspiel import HeuristicEvaluator, ScoreEvaluator

    _pyspiel, game = _openspiel(3, seed=5)
    state = game.new_initial_state()
    values = HeuristicEvaluator().evaluate(state)
    assert values.sum() == pytest.approx(1.0) and values.max() - values.min() > 0.01
    assert np.allclose(ScoreEvaluator().evaluate(state), 1 / 3)  # no points yet: no signal
    with pytest.raises(ConfigError):
        HeuristicEvaluator(scale=0)


def test_ismcts_with_the_heuristic_evaluator_plays_decisions():
    from alhambra.env.openspiel import HeuristicEvaluator
    from open_spiel.python.algorithms.ismcts import ISMCTSBot

    _pyspiel, game = _openspiel(2, seed=4)
    bot = ISMCTSBot(game, HeuristicEvaluator(), 2.0, 4, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    rng = random.Random(3)
    searched = 0
    while searched < 6 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _p in state.chance_outcomes()]))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert searched == 6


def test_all_means_every_installed_module_in_every_environment() -> None:
    """``modules="all"`` is what ``--modules all`` is on the command line: the six expansion
    modules (city gates and diamonds included), so their actions are in the action space."""
    from alhambra.env.session import parse_modules
    from alhambra.saving.config import expand_module_names

    six = expand_module_names(["all"])
    assert {"city_gates", "diamonds", "vizier", "building_huts", "bonus_cards", "exchange_offices"} <= set(six)
    assert parse_modules("all") == parse_modules(["all"]) == six
    env = AlhambraEnv(players=3, modules="all")
    assert env.unwrapped.session.num_actions == AlhambraEnv(players=3, modules=six).unwrapped.session.num_actions
