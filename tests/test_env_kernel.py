"""The environments on the kernel: the compiled action codec and observer
(``alhambra_kernel.KernelEnv``, kernel/core/src/codec.rs and observe.rs) give exactly what the
Python codec and observer give, over seeded random games of every combination of the modules
the kernel plays and 2-6 players: the same layout, the same legal integers and masks at every
sub-decision, the same observation vectors for every seat, the same codes of every legal
action, the same games."""

from __future__ import annotations

import alhambra
import itertools
import random

import gymnasium
import numpy as np
import pytest
from alhambra import ConfigError, IllegalActionError, kernel
from alhambra.env import Session, alhambra_v0
from alhambra.game import KernelGame

pytestmark = pytest.mark.skipif(
    kernel.native is None or not hasattr(kernel.native, "KernelEnv"), reason="the rules kernel is not installed"
)

KERNEL_MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds")
COMBOS = [list(c) for k in range(7) for c in itertools.combinations(KERNEL_MODULES, k)]
assert len(COMBOS) == 64


def _where(session: Session, i: int) -> str:
    return next(name for name, sl in session.encoder.slices.items() if sl.start <= i < sl.stop)


def _same_vectors(a: np.ndarray, b: np.ndarray, session: Session, what: str) -> None:
    if not np.array_equal(a, b):
        bad = np.flatnonzero(a != b)
        raise AssertionError(
            f"{what}: {len(bad)} floats differ, first at {bad[0]} ({_where(session, int(bad[0]))}): "
            f"kernel {a[bad[:5]]}, python {b[bad[:5]]}"
        )


def lockstep(players: int, modules: list[str], seed: int, options: dict | None = None, *, every: int = 5) -> int:
    """Play one random game on both engines one integer at a time, comparing everything the
    environments show; returns the integers played."""
    k = Session(players, modules, options, engine="kernel")
    p = Session(players, modules, options, engine="python")
    assert k.engine == "kernel" and p.engine == "python"
    assert k.codec.layout() == p.codec.layout() and k.observation_size == p.observation_size
    k.reset(seed)
    p.reset(seed)
    assert type(k.game) is KernelGame and type(p.game) is not KernelGame
    rng = random.Random(seed)
    steps = 0
    while not p.game.is_over:
        assert k.on_kernel, "the kernel game was handed over to Python"
        where = f"{players}p {modules} seed {seed} step {steps} prefix {p.prefix}"
        legal = p.legal_ints()
        assert k.legal_ints() == legal, where
        assert np.array_equal(k.mask(), p.mask()), where
        mover = p.game.current_player
        assert k.game.current_player == mover
        seats = range(players) if steps % every == 0 else [mover]
        for s in seats:
            _same_vectors(k.observe(s), p.observe(s), p, f"{where} seat {s}")
        obs, mask = k.observe_agent(mover)
        _same_vectors(obs, p.observe(mover), p, f"{where} agent")
        assert np.array_equal(mask, p.mask()), where
        if not p.prefix and steps % (4 * every) == 0:
            for a in p.game.legal_actions():  # the code of every legal action
                assert k.encode(a) == p.encode(a), (where, a)
        i = legal[rng.randrange(len(legal))]
        assert k.step(i) == p.step(i), where
        steps += 1
    assert k.game.is_over and k.legal_ints() == [] and not k.mask().any()
    for s in range(players):
        _same_vectors(k.observe(s), p.observe(s), p, f"the end, seat {s}")
    assert k.game.to_json() == p.game.to_json()
    assert alhambra.returns(k.game) == alhambra.returns(p.game)
    return steps


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("modules", COMBOS, ids=["+".join(c) or "base" for c in COMBOS])
def test_the_kernel_layout_is_the_python_layout(modules, players):
    s = Session(players, modules)
    assert s._native is not None and s.engine == "kernel"
    assert [tuple(x) for x in s._native.layout()] == s.codec.layout()
    assert [tuple(x) for x in s._native.slices()] == [(n, sl.start, sl.stop) for n, sl in s.encoder.slices.items()]
    assert s._native.num_actions == s.num_actions and s._native.observation_size == s.observation_size


@pytest.mark.parametrize("k", range(len(COMBOS)), ids=["+".join(c) or "base" for c in COMBOS])
def test_codes_masks_and_observations_match_python_over_a_game(k):
    players = 2 + k % 5
    assert lockstep(players, COMBOS[k], seed=1000 + k) > 100


@pytest.mark.parametrize("players", [2, 6])
def test_every_module_and_both_player_extremes_over_more_games(players):
    for seed in range(2):
        lockstep(players, list(KERNEL_MODULES), seed=7 * seed + players, every=11)


@pytest.mark.parametrize(
    "options",
    [
        {"holes": "region", "tiebreak": "money", "start_player": "random"},
        {"diamonds.values": [1, 1, 2, 2, 9]},  # small diamonds: takes of several diamonds
    ],
    ids=["options", "diamond-values"],
)
def test_options_the_kernel_plays_match_python(options):
    modules = ["diamonds", "exchange_offices", "vizier"] if "diamonds.values" in options else ["building_huts"]
    for players in (2, 4):
        lockstep(players, modules, seed=players, options=options, every=9)


def test_engine_keyword_everywhere():
    assert Session(3, engine="python").engine == "python"
    assert Session(3).engine == "kernel"
    assert Session(3, ["city_gates"]).engine == "kernel"
    many = {"diamonds.values": [5] * 9}  # more diamonds of one value than the kernel's cards tell apart
    assert Session(3, ["diamonds"], many).engine == "python"  # auto: Python where the kernel does not play
    with pytest.raises(ConfigError, match="diamonds.values"):
        Session(3, ["diamonds"], many, engine="kernel")
    with pytest.raises(ConfigError, match="engine"):
        Session(3, engine="rust")
    env = alhambra_v0.env(players=3, engine="python")
    env.reset(seed=1)
    assert type(env.unwrapped.session.game) is not KernelGame
    env = alhambra_v0.env(players=3)
    env.reset(seed=1)
    assert env.unwrapped.session.on_kernel
    g = gymnasium.make("alhambra/Alhambra-v0", players=3, engine="kernel")
    g.reset(seed=2)
    assert g.unwrapped.session.on_kernel
    g = gymnasium.make("alhambra/Alhambra-v0", players=3, engine="python")
    g.reset(seed=2)
    assert g.unwrapped.session.engine == "python"


def test_pettingzoo_on_both_engines_plays_the_same_episode():
    envs = [alhambra_v0.env(players=4, modules=list(KERNEL_MODULES), engine=e) for e in ("kernel", "python")]
    for env in envs:
        env.reset(seed=5)
    rng = random.Random(5)
    for agent in envs[1].agent_iter():
        outs = [env.last() for env in envs]
        (ok, rk, tk, uk, _), (op, rp, tp, up, _) = outs
        assert envs[0].agent_selection == agent
        assert np.array_equal(ok["observation"], op["observation"])
        assert np.array_equal(ok["action_mask"], op["action_mask"])
        assert (rk, tk, uk) == (rp, tp, up)
        if tp or up:
            action = None
        else:
            legal = np.flatnonzero(op["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
        for env in envs:
            env.step(action)
    assert not envs[0].agents


def test_an_unfinished_action_survives_copy_and_a_handover_to_python():
    k = Session(3, ["exchange_offices", "vizier"], engine="kernel")
    p = Session(3, ["exchange_offices", "vizier"], engine="python")
    k.reset(11)
    p.reset(11)
    rng = random.Random(3)
    handed = False
    for step in range(400):
        if p.game.is_over:
            break
        if p.prefix and not handed and step > 100:
            copy = k.copy()  # the unfinished action travels with the copy
            assert copy.prefix == p.prefix and copy.legal_ints() == p.legal_ints()
            _ = k.game.state  # hands the game over to Python mid-action
            handed = True
            assert not k.on_kernel
        legal = p.legal_ints()
        assert k.legal_ints() == legal
        assert np.array_equal(k.observe(p.game.current_player), p.observe(p.game.current_player))
        i = legal[rng.randrange(len(legal))]
        assert k.step(i) == p.step(i)
    assert handed
    assert k.game.to_json() == p.game.to_json()


def test_an_illegal_integer_changes_nothing_on_the_kernel():
    s = Session(2, engine="kernel")
    s.reset(4)
    legal = s.legal_ints()
    bad = next(i for i in range(s.num_actions) if i not in legal)
    for i in (bad, -1, s.num_actions, 10**30):
        with pytest.raises(IllegalActionError):
            s.step(i)
    assert s.legal_ints() == legal and s.prefix == ()


@pytest.mark.parametrize("engine", ["kernel", "python"])
def test_a_decision_listed_before_the_game_moved_on_is_checked_again(engine):
    """The integers listed for one state, played after the game moved on behind the session:
    the action they name is checked against the game as it is now, as any action is (the same
    refusal on both engines, the game unchanged and its save loadable)."""
    from alhambra import Game, IllegalActionError

    s = Session(3, engine=engine)
    s.reset(5)
    s.legal_ints()  # the decision of the turn is listed
    g = s.game
    g.apply(g.legal_actions()[-1])  # a purchase: the game is in its placement now
    before = g.to_json()
    with pytest.raises(IllegalActionError, match="cannot be played in phase 'place'"):
        s.step(1)
    assert g.to_json() == before
    Game.from_json(before)
