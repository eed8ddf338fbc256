"""OpenSpiel's python_alhambra on the compiled rules kernel: a state stays on the kernel through
its chance nodes, and its tensors (written by the kernel into the observer's buffer) are the
Python engine's exactly, over seeded games of the module combinations the kernel's codec and
observer cover; the city gates, which they do not cover, are played through the Python ones."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pyspiel")
import alhambra.env.openspiel  # noqa: E402,F401  (registers python_alhambra)
import pyspiel  # noqa: E402
from alhambra import ConfigError, kernel  # noqa: E402
from alhambra.game import KernelGame  # noqa: E402

pytestmark = pytest.mark.skipif(
    kernel.native is None or not hasattr(kernel.native, "spiel_tensor"), reason="the rules kernel is not installed"
)

ALL_KERNEL = "vizier+building_huts+bonus_cards+exchange_offices+city_gates+diamonds"


def _games(players: int, modules: str, seed: int) -> tuple[pyspiel.Game, pyspiel.Game]:
    params = {"players": players, "modules": modules, "seed": seed}
    return (
        pyspiel.load_game("python_alhambra", {**params, "engine": "kernel"}),
        pyspiel.load_game("python_alhambra", {**params, "engine": "python"}),
    )


def _same_tensors(a: pyspiel.State, b: pyspiel.State, players: int, where: str) -> None:
    for p in range(players):
        for name in ("observation_tensor", "information_state_tensor"):
            x, y = getattr(a, name)(p), getattr(b, name)(p)
            if not np.array_equal(x, y):
                at = np.flatnonzero(x != y)[:8]
                raise AssertionError(f"{where}: {name}({p}) differs at {at}: kernel {x[at]}, python {y[at]}")


@pytest.mark.parametrize(
    ("players", "modules", "seed"),
    [
        (2, "", 1),
        (4, "", 2),
        (6, "", 3),
        (3, "vizier+building_huts", 4),
        (5, "bonus_cards+exchange_offices", 5),
        (4, "diamonds+building_huts", 6),
        (3, "city_gates", 9),
        (5, "city_gates+exchange_offices", 10),
        (2, ALL_KERNEL, 7),
        (4, ALL_KERNEL, 8),
    ],
)
def test_kernel_state_stays_on_the_kernel_with_the_python_engines_tensors(players, modules, seed):
    """Whole seeded games played on both engines with the same integers and chance outcomes:
    at every node (chance nodes included) both tensors of every seat, the chance outcomes and
    the legal integers agree, and the kernel's state never hands its game over to Python."""
    gk, gp = _games(players, modules, seed)
    a, b = gk.new_initial_state(), gp.new_initial_state()
    rng = random.Random(seed)
    moves = chance_nodes = 0
    while not a.is_terminal():
        where = f"{players}p {modules or 'none'} seed {seed} move {moves}"
        assert type(a.session.game) is KernelGame and a.session.on_kernel, where
        assert a.current_player() == b.current_player(), where
        _same_tensors(a, b, players, where)
        if a.is_chance_node():
            outcomes = a.chance_outcomes()
            assert outcomes == b.chance_outcomes(), where
            # the same draw (its source named alike) after the same outcomes, forced ones included
            assert (a._h.chance, a._h.script) == (b._h.chance, b._h.script), where
            assert a.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]) == b.action_to_string(
                pyspiel.PlayerId.CHANCE, outcomes[0][0]
            )
            action = pyspiel.sample_action(outcomes, rng.random())[0]
            chance_nodes += 1
        else:
            legal = a.legal_actions()
            assert legal == b.legal_actions(), where
            action = rng.choice(legal)
        a.apply_action(action)
        b.apply_action(action)
        moves += 1
    assert b.is_terminal() and a.returns() == b.returns()
    assert a.session.game.to_json() == b.session.game.to_json()
    assert type(a.session.game) is KernelGame and chance_nodes > 10


def test_tensors_are_fresh_float32_arrays_of_the_declared_sizes_and_the_observers():
    """The state's tensor methods return new ``float32`` arrays (no list of floats), equal to
    what OpenSpiel's C++ layer writes through the observer (``pyspiel.State``'s own method) and
    to the Python observer's ``tensor``; the default player is the one to move."""
    game = pyspiel.load_game("python_alhambra", {"players": 3, "modules": "vizier+bonus_cards", "engine": "kernel"})
    state = game.new_initial_state()
    rng = random.Random(3)
    checked = 0
    for _ in range(120):
        if state.is_chance_node():
            state.apply_action(pyspiel.sample_action(state.chance_outcomes(), rng.random())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        for p in range(3):
            obs = state.observation_tensor(p)
            info = state.information_state_tensor(p)
            assert (
                type(obs) is np.ndarray and obs.dtype == np.float32 and obs.shape == (game.observation_tensor_size(),)
            )
            assert info.shape == (game.information_state_tensor_size(),)
            assert np.array_equal(obs, np.array(pyspiel.State.observation_tensor(state, p), dtype=np.float32))
            assert np.array_equal(info, np.array(pyspiel.State.information_state_tensor(state, p), dtype=np.float32))
            observer = game.make_py_observer()
            observer.set_from(state, p)
            assert np.array_equal(obs, observer.tensor)
            kept = obs.copy()
            obs[:] = 99  # a copy: the next call is not changed
            assert np.array_equal(state.observation_tensor(p), kept)
            checked += 1
        if not state.is_chance_node():
            seat = state.current_player()
            assert np.array_equal(state.observation_tensor(), state.observation_tensor(seat))
            assert np.array_equal(state.information_state_tensor(), state.information_state_tensor(seat))
    assert state.session.on_kernel and checked == 360


def test_tensor_of_no_seat_is_a_config_error():
    """A player that is not a seat, or the default player at a chance node (nobody to move), is
    a ConfigError on either engine, never a crash."""
    for engine in ("kernel", "python"):
        game = pyspiel.load_game("python_alhambra", {"players": 2, "engine": engine})
        state = game.new_initial_state()
        for bad in (-1, 2, 7, "0", 1.0, None):
            for name in ("observation_tensor", "information_state_tensor"):
                if bad is None:
                    continue
                with pytest.raises(ConfigError):
                    getattr(state, name)(bad)
        rng = random.Random(0)
        while not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        with pytest.raises(ConfigError):
            state.observation_tensor()
        with pytest.raises(ConfigError):
            state.information_state_tensor()


def test_an_action_that_draws_nothing_is_played_by_the_kernel_at_once():
    """The kernel tells an action that draws from no hidden pile (a purchase paid exactly, a
    placement that does not end the turn): it is played with no chance node; one that draws
    makes one, and the game goes back to the kernel once its draws are decided."""
    game = pyspiel.load_game("python_alhambra", {"players": 2, "engine": "kernel"})
    state = game.new_initial_state()
    rng = random.Random(5)
    plain = drawing = 0
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(pyspiel.sample_action(state.chance_outcomes(), rng.random())[0])
            continue
        before = len(state.session.game.history)
        state.apply_action(rng.choice(state.legal_actions()))
        if len(state.session.game.history) > before:
            plain += 1
        elif state.is_chance_node():
            drawing += 1
        assert state.session.on_kernel
    assert plain > 10 and drawing > 10


def test_a_rule_set_the_codec_does_not_cover_stays_on_the_python_codec_and_observer(monkeypatch):
    """Where the kernel plays the rules but its environment codec and observer do not cover them
    (an installed kernel older than the package's layout), ``engine="auto"`` plays on Python
    with the same tensors as ``"python"`` and ``engine="kernel"`` is a ConfigError saying so."""
    from alhambra.env import session

    monkeypatch.setattr(session, "_LAYOUTS", {})
    monkeypatch.setattr(session, "_native_layout", lambda *args: None)
    auto = pyspiel.load_game("python_alhambra", {"players": 3, "modules": "city_gates", "engine": "auto"})
    assert auto.template.engine == "python"
    with pytest.raises(ConfigError, match="codec and observer do not cover"):
        pyspiel.load_game("python_alhambra", {"players": 3, "modules": "city_gates", "engine": "kernel"})
    python = pyspiel.load_game("python_alhambra", {"players": 3, "modules": "city_gates", "engine": "python"})
    a, b = auto.new_initial_state(), python.new_initial_state()
    rng = random.Random(4)
    for move in range(150):
        _same_tensors(a, b, 3, f"city_gates move {move}")
        if a.is_chance_node():
            action = pyspiel.sample_action(a.chance_outcomes(), rng.random())[0]
        else:
            action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)


def test_resampled_states_stay_on_the_kernel_and_look_the_same_to_their_seat():
    """``resample_from_infostate`` on the kernel, at player and chance nodes (the waiting
    action and the outcomes fixed so far kept): the resampled state is on the kernel, is a
    chance node of the same source where the original was, and its seat's tensors are the
    original's (what the seat cannot see is all that changed)."""
    game = pyspiel.load_game("python_alhambra", {"players": 3, "modules": ALL_KERNEL, "engine": "kernel", "seed": 2})
    state = game.new_initial_state()
    rng = random.Random(2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    chance_checked = 0
    for move in range(400):
        if state.is_terminal():
            break
        if move % 7 == 0 or state.is_chance_node():
            seat = move % 3
            r = state.resample_from_infostate(seat, sampler)
            assert r.session.on_kernel and r.is_chance_node() == state.is_chance_node()
            assert np.array_equal(r.observation_tensor(seat), state.observation_tensor(seat))
            assert np.array_equal(r.information_state_tensor(seat), state.information_state_tensor(seat))
            if state.is_chance_node():
                assert r._h.chance[0] == state._h.chance[0]
                chance_checked += 1
        if state.is_chance_node():
            state.apply_action(pyspiel.sample_action(state.chance_outcomes(), rng.random())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance_checked > 20 and state.session.on_kernel


def test_outcomes_that_do_not_fit_are_an_alhambra_error_and_change_nothing():
    """The kernel refuses a scripted outcome that is not in its pile, an item of the wrong
    kind and an index that is no legal action with ``ValueError`` (``chance.Unavailable``, an
    AlhambraError, through the state), the game unchanged; never a crash."""
    from alhambra import AlhambraError
    from alhambra.env import chance

    game = pyspiel.load_game("python_alhambra", {"players": 2, "engine": "kernel", "seed": 4})
    state = game.new_initial_state()
    rng = random.Random(4)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    h = state._h
    k = state.session.game._kernel
    before = k.state_json()
    index = h.listed[0]
    for bad in ([(0, 99)], [(1, "florin-99")], [(1, 7)], [(9, 1)], [(0, "H1")]):
        with pytest.raises(ValueError):
            kernel.native.spiel_next_draw(k, index, bad)
    with pytest.raises(ValueError):
        kernel.native.spiel_next_draw(k, 10_000, [])
    assert k.state_json() == before
    outcomes, script = state.chance_outcomes(), list(h.script)
    source = h.chance[0]
    wrong = "bag" if source == "deck" else "deck"
    h.script = [*script, (wrong, 1 if wrong == "bag" else game.chance_table.items[outcomes[0][0]])]
    with pytest.raises(chance.Unavailable) as found:
        h.advance()
    assert isinstance(found.value, AlhambraError)
    h.script = script
    assert k.state_json() == before and state.chance_outcomes() == outcomes
    state.apply_action(outcomes[0][0])  # the state goes on
    assert state.session.on_kernel


def test_the_heuristic_evaluator_leaves_the_state_on_the_kernel():
    """``HeuristicEvaluator`` reads the game's Python copy: the state stays on the kernel, and
    its values are those of the same state on the Python engine."""
    from alhambra.env.openspiel import HeuristicEvaluator

    gk, gp = _games(3, "vizier+bonus_cards", 6)
    a, b = gk.new_initial_state(), gp.new_initial_state()
    rng = random.Random(6)
    ev = HeuristicEvaluator()
    for move in range(300):
        if move % 10 == 0 and not a.is_chance_node():
            assert np.allclose(ev.evaluate(a), ev.evaluate(b))
            assert a.session.on_kernel
        action = (
            pyspiel.sample_action(a.chance_outcomes(), rng.random())[0]
            if a.is_chance_node()
            else rng.choice(a.legal_actions())
        )
        a.apply_action(action)
        b.apply_action(action)
