"""The break-it review of alhambra.env: each finding with the case that used to pass wrongly."""

from __future__ import annotations

import alhambra
import alhambra.env
import numpy as np
import pytest
from alhambra import ConfigError, IllegalActionError, SaveFormatError
from alhambra.env import ActionCodec, Session
from alhambra.env.alhambra_v0 import env as pz_env
from alhambra.env.alhambra_v0 import raw_env
from alhambra.env.gym_env import AlhambraEnv

NOT_INTEGERS = [3.7, 3.0, "3", None, np.array([3]), np.array(3.0), True]


def _legal_int(session: Session) -> int:
    return session.legal_ints()[0]


@pytest.mark.parametrize("bad", NOT_INTEGERS, ids=repr)
def test_session_step_refuses_non_integers_and_changes_nothing(bad: object) -> None:
    s = Session(3)
    s.reset(5)
    before = s.game.to_json()
    with pytest.raises(IllegalActionError):
        s.step(bad)  # type: ignore[arg-type]
    assert s.game.to_json() == before and s.prefix == ()


def test_session_step_accepts_numpy_integers() -> None:
    a, b, c = Session(3), Session(3), Session(3)
    for s in (a, b, c):
        s.reset(5)
    i = _legal_int(a)
    a.step(i)
    b.step(np.int64(i))
    c.step(np.array(i))
    assert a.game.to_json() == b.game.to_json() == c.game.to_json()


@pytest.mark.parametrize("bad", NOT_INTEGERS, ids=repr)
def test_gymnasium_non_integer_is_the_illegal_reward(bad: object) -> None:
    e = AlhambraEnv(players=2, illegal_reward=-0.5)
    e.reset(seed=1)
    before = e.session.game.to_json()
    _, reward, done, _, info = e.step(bad)
    assert reward == -0.5 and info["illegal_action"] is True and not done
    assert e.session.game.to_json() == before
    assert info["seat"] == e.seat


def test_gymnasium_float_is_not_truncated_to_a_legal_integer() -> None:
    e = AlhambraEnv(players=2)
    e.reset(seed=1)
    i = _legal_int(e.session)
    _, reward, _, _, info = e.step(i + 0.7)
    assert info.get("illegal_action") is True and reward == -1.0


def test_gymnasium_raises_when_illegal_reward_is_none() -> None:
    e = AlhambraEnv(players=2, illegal_reward=None)
    e.reset(seed=1)
    with pytest.raises(IllegalActionError):
        e.step("3")


@pytest.mark.parametrize("make", [raw_env, pz_env])
@pytest.mark.parametrize("bad", [*NOT_INTEGERS, -1, 10**6], ids=repr)
def test_pettingzoo_refuses_bad_actions_with_illegal_action_error(make: object, bad: object) -> None:
    e = make(players=2)  # type: ignore[operator]
    e.reset(seed=3)
    raw = e.unwrapped
    before = raw.session.game.to_json()
    with pytest.raises(IllegalActionError):
        e.step(bad)
    assert raw.session.game.to_json() == before


def test_pettingzoo_env_wrappers_are_order_enforcing_only() -> None:
    from pettingzoo.utils import wrappers

    e = pz_env(players=2)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert not isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)


@pytest.mark.parametrize("bad", [-1, "7", 1.5, True, np.float64(2.0)], ids=repr)
def test_pettingzoo_reset_refuses_bad_seeds(bad: object) -> None:
    e = raw_env(players=2)
    with pytest.raises(ConfigError):
        e.reset(seed=bad)  # type: ignore[arg-type]


def test_pettingzoo_reset_accepts_numpy_seed_as_the_int() -> None:
    a, b = raw_env(players=2), raw_env(players=2)
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a.session.game.to_json() == b.session.game.to_json()


def test_gymnasium_checks_every_opponent_spec() -> None:
    with pytest.raises(ConfigError):
        AlhambraEnv(players=3, opponents=["random", "no-such-bot"])


@pytest.mark.parametrize("bad", ["x", True, [1]], ids=repr)
def test_gymnasium_illegal_reward_must_be_a_number(bad: object) -> None:
    with pytest.raises(ConfigError):
        AlhambraEnv(players=2, illegal_reward=bad)  # type: ignore[arg-type]


BAD_NUMBERS = [10**400, float("inf"), -float("inf"), float("nan"), np.float64("inf"), 1 + 2j, np.bool_(True)]


@pytest.mark.parametrize("bad", BAD_NUMBERS, ids=lambda v: type(v).__name__ + ":" + alhambra.errors.shown(v, 20))
def test_gymnasium_illegal_reward_must_be_a_finite_real_number(bad: object) -> None:
    """``10**400`` used to raise a bare OverflowError from float(), infinity and NaN were kept."""
    with pytest.raises(ConfigError, match=r"^illegal_reward must be a (finite|real) number, not "):
        AlhambraEnv(players=2, illegal_reward=bad)  # type: ignore[arg-type]
    assert AlhambraEnv(players=2, illegal_reward=np.int8(-2)).illegal_reward == -2.0


@pytest.mark.parametrize("bad", [*BAD_NUMBERS, True, "8", 0, -1.5])
def test_openspiel_heuristic_evaluator_scale_must_be_a_positive_finite_number(bad: object) -> None:
    pytest.importorskip("pyspiel")
    from alhambra.env.openspiel import HeuristicEvaluator

    with pytest.raises(ConfigError, match=r"^scale must be a"):
        HeuristicEvaluator(scale=bad)  # type: ignore[arg-type]
    assert HeuristicEvaluator(scale=np.float32(2)).scale == 2.0


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2.7},
        {"players": True},
        {"players": "3"},
        {"players": 10**400},
        {"max_moves": float("inf")},
        {"max_moves": 10**400},
        {"max_moves": 0},
        {"seed": float("nan")},
        {"seed": 10**400},
        {"seed": 2**31},
        {"seed": -2},
    ],
    ids=lambda p: alhambra.errors.shown(p, 40),
)
def test_openspiel_integer_parameters_are_checked_naming_them(params: dict) -> None:
    """``int()`` of them truncated 2.7 to 2 and raised OverflowError, ValueError or pybind's
    RuntimeError for infinity, NaN and integers beyond OpenSpiel's C ints."""
    pytest.importorskip("pyspiel")
    from alhambra.env.openspiel import AlhambraGame

    (name,) = params
    with pytest.raises(ConfigError, match=rf"^{name} must be "):
        AlhambraGame(params)


def test_options_must_be_a_dict() -> None:
    with pytest.raises(ConfigError):
        Session(2, options="x")  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        AlhambraEnv(players=2, options="x")  # type: ignore[arg-type]


@pytest.mark.parametrize("other", [{"players": 3}, {"players": 2, "modules": ["vizier"]}], ids=repr)
def test_with_game_refuses_a_game_of_another_setup(other: dict) -> None:
    s = Session(2)
    game = alhambra.new_game(other["players"], modules=other.get("modules", ()), seed=1)
    with pytest.raises(SaveFormatError, match="another setup") as err:
        s.with_game(game)
    assert "2 players" in str(err.value) and f"{other['players']} players" in str(err.value)


def test_openspiel_deserialise_refuses_another_setup() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import alhambra.env.openspiel  # noqa: F401

    g2 = pyspiel.load_game("python_alhambra", {"players": 2})
    g2v = pyspiel.load_game("python_alhambra", {"players": 2, "modules": "vizier"})
    g3 = pyspiel.load_game("python_alhambra", {"players": 3})
    state = g2.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    text = state.serialize()
    assert g2.deserialize_state(text).history() == state.history()
    for other in (g3, g2v):
        with pytest.raises(SaveFormatError, match="another setup"):
            other.deserialize_state(text)


def test_openspiel_cut_off_state_refuses_actions() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import alhambra.env.openspiel  # noqa: F401

    game = pyspiel.load_game("python_alhambra", {"players": 2, "max_moves": 3})
    state = game.new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.5, 0.5]
    legal_before = state.session.legal_ints()[0]
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(legal_before)
    assert len(state.history()) == 3


def test_codec_decode_takes_numpy_ints_and_refuses_non_codes() -> None:
    codec = ActionCodec(alhambra.new_game(2, seed=0))
    game = alhambra.new_game(2, seed=0)
    action = game.legal_actions()[0]
    code = codec.encode(action)
    assert codec.decode([np.int64(i) for i in code]) == action
    for bad in (None, 5, "1", [1.0], [True]):
        with pytest.raises(IllegalActionError):
            codec.decode(bad)  # type: ignore[arg-type]


def test_take_money_codes_have_at_most_four_cards_r_set_5() -> None:
    from alhambra import TakeMoney

    codec = ActionCodec(alhambra.new_game(2, seed=0))
    (field,) = codec.encodings[TakeMoney].fields
    sizes = {len(v[0]) for v in field.values}
    assert sizes == {1, 2, 3, 4}


def test_package_exports_only_its_names() -> None:
    for name in ("annotations", "Any", "importlib"):
        assert not hasattr(alhambra.env, name)
    assert "Session" in dir(alhambra.env) and "importlib" not in dir(alhambra.env)


def test_a_float_of_a_legal_integer_is_refused_not_truncated() -> None:
    s = Session(2)
    s.reset(1)
    i = _legal_int(s)
    with pytest.raises(IllegalActionError):
        s.step(i + 0.7)  # type: ignore[arg-type]
    e = raw_env(players=2)
    e.reset(seed=1)
    i = e.session.legal_ints()[0]
    with pytest.raises(IllegalActionError):
        e.step(float(i))  # type: ignore[arg-type]


HUGE = 10**5000  # too long for repr(): the message must name it anyway


@pytest.mark.parametrize(
    "make",
    [
        lambda: Session(HUGE),
        lambda: Session(2, modules=HUGE),
        lambda: Session(2, options=HUGE),
        lambda: AlhambraEnv(players=HUGE),
        lambda: AlhambraEnv(players=2, seat=HUGE),
        lambda: AlhambraEnv(players=2, max_episode_steps=-HUGE),
        lambda: AlhambraEnv(players=2).reset(seed=HUGE),
        lambda: AlhambraEnv(players=2).reset(seed=-HUGE),
        lambda: raw_env(players=HUGE),
        lambda: raw_env(players=2, max_episode_steps=-HUGE),
        lambda: raw_env(players=2).reset(seed=HUGE),
    ],
)
def test_an_integer_too_long_to_print_is_a_config_error(make) -> None:
    """These raised a bare ValueError (Python prints at most 4300 digits) from the message."""
    with pytest.raises(ConfigError, match="an integer of 16610 bits"):
        make()


def test_openspiel_modules_must_be_a_string() -> None:
    pytest.importorskip("pyspiel")
    from alhambra.env.openspiel import AlhambraGame

    for bad in (HUGE, ["vizier"]):
        with pytest.raises(ConfigError, match=r"^modules must be module names joined by '\+'"):
            AlhambraGame({"modules": bad})


def test_numpy_integers_are_accepted_where_ints_are() -> None:
    """``players``, ``seat`` and ``max_episode_steps`` as numpy integers (a sweep's values)
    were refused though seeds and OpenSpiel's parameters took them; a bool still is no int."""
    assert Session(np.int64(3)).players == 3
    env = AlhambraEnv(players=np.int64(3), seat=np.int32(2), max_episode_steps=np.int64(50))
    assert (env.session.players, env.seat, env.max_episode_steps) == (3, 2, 50)
    assert type(env.seat) is int and type(env.max_episode_steps) is int
    assert raw_env(players=np.int8(2), max_episode_steps=np.uint16(7)).max_episode_steps == 7
    for bad in (True, np.bool_(True), 2.0, "2"):
        with pytest.raises(ConfigError, match="^players must be an integer"):
            Session(bad)  # type: ignore[arg-type]
        with pytest.raises(ConfigError, match="^seat must be"):
            AlhambraEnv(players=2, seat=bad)  # type: ignore[arg-type]


def test_a_fraction_is_a_real_number_reward() -> None:
    from fractions import Fraction

    assert AlhambraEnv(players=2, illegal_reward=Fraction(-1, 2)).illegal_reward == -0.5
    with pytest.raises(ConfigError, match="finite"):
        AlhambraEnv(players=2, illegal_reward=Fraction(10**400, 3))
