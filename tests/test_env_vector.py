"""The batched Gymnasium environment (``alhambra.env.vector_env``): on the kernel, game by game
the single ``AlhambraEnv`` with the same seed and the same integers (observations, masks,
rewards, end flags, autoreset included); the Python fallback; bad actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from alhambra import ConfigError, IllegalActionError, kernel
from alhambra.env import vector_env
from alhambra.env.gym_env import AlhambraEnv
from alhambra.env.vector import KernelVectorEnv, SyncAlhambraVectorEnv
from gymnasium.vector import AutoresetMode, VectorEnv

needs_batch = pytest.mark.skipif(
    kernel.native is None or not hasattr(kernel.native, "BatchEnv"), reason="the rules kernel is not installed"
)


def lockstep(
    n: int,
    steps: int,
    seed: int,
    engine: str = "auto",
    expect: type = KernelVectorEnv,
    bad_every: int = 0,
    **kw: Any,
) -> int:
    """Step a batch and ``n`` single environments with the same integers (random legal ones,
    and every ``bad_every``-th an illegal or out-of-range one); compare everything. Returns
    the episodes that ended."""
    envs = vector_env(n, seed=seed, engine=engine, **kw)
    assert isinstance(envs, expect)
    singles = [AlhambraEnv(**kw) for _ in range(n)]
    obs, infos = envs.reset()
    sobs, sinfo = zip(*(e.reset(seed=seed + k) for k, e in enumerate(singles)))
    sobs, sinfo = list(sobs), list(sinfo)
    ended = [False] * n
    rng = np.random.default_rng(seed)
    episodes = 0
    for t in range(steps):
        for k in range(n):
            assert np.array_equal(obs["observation"][k], sobs[k]["observation"]), (t, k)
            assert np.array_equal(obs["action_mask"][k], sobs[k]["action_mask"]), (t, k)
            assert np.array_equal(infos["action_mask"][k], sinfo[k]["action_mask"]), (t, k)
            assert infos["seat"][k] == sinfo[k]["seat"]
        actions = []
        for k in range(n):
            legal = np.flatnonzero(obs["action_mask"][k])
            if bad_every and t % bad_every == k % bad_every:
                actions.append(int(rng.choice([-1, 1, 5000, envs.single_action_space.n])))
            else:
                actions.append(int(rng.choice(legal)) if len(legal) else 0)
        obs, rewards, terms, truncs, infos = envs.step(np.array(actions))
        assert rewards.dtype == np.float64 and terms.dtype == np.bool_ and truncs.dtype == np.bool_
        for k, e in enumerate(singles):
            if ended[k]:  # next-step autoreset: the action is ignored, the next game begins
                so, si = e.reset()
                r, term, trunc = 0.0, False, False
            else:
                so, r, term, trunc, si = e.step(actions[k])
            sobs[k], sinfo[k] = so, si
            assert (rewards[k], terms[k], truncs[k]) == (r, term, trunc), (t, k)
            illegal = bool(si.get("illegal_action", False))
            assert bool(infos.get("illegal_action", np.zeros(n, bool))[k]) == illegal, (t, k)
            ended[k] = term or trunc
            episodes += term or trunc
    return episodes


@needs_batch
@pytest.mark.parametrize(
    ("players", "modules", "opponents"),
    [
        (2, [], ["random"]),
        (3, ["vizier", "bonus_cards"], ["greedy", "random"]),
        (4, ["exchange_offices", "diamonds"], ["greedy", "greedy", "random"]),
        (5, ["building_huts", "vizier"], ["random"] * 4),
        (2, ["building_huts"], ["greedy"]),
        (6, ["vizier", "bonus_cards", "exchange_offices", "diamonds"], ["greedy"] * 5),
    ],
)
def test_batch_on_kernel_is_the_single_env_game_by_game(players: int, modules: list[str], opponents: list[str]) -> None:
    steps = {2: 900 if opponents == ["random"] else 400, 3: 600, 4: 400, 5: 300, 6: 250}[players]
    episodes = lockstep(3, steps, 7 * players, players=players, modules=modules, opponents=opponents)
    assert episodes >= 3  # autoreset happened, several times


@needs_batch
def test_random_seat_truncation_and_illegal_integers() -> None:
    episodes = lockstep(
        4,
        300,
        3,
        players=3,
        modules=["vizier"],
        opponents=["random", "greedy"],
        seat="random",
        max_episode_steps=40,
        bad_every=5,
    )
    assert episodes >= 8  # truncated episodes at 40 steps


def test_python_fallback_is_the_single_env() -> None:
    lockstep(2, 150, 5, engine="python", expect=SyncAlhambraVectorEnv, players=2, opponents=["random"], bad_every=7)


def test_fallback_for_what_the_kernel_does_not_play(monkeypatch: pytest.MonkeyPatch) -> None:
    # greedy bots with a module the kernel's greedy evaluation does not value (here: the
    # building huts taken off its list) are valued by Python: the batch is single environments
    monkeypatch.setattr(kernel, "KERNEL_GREEDY_MODULES", kernel.KERNEL_GREEDY_MODULES - {"building_huts"})
    envs = vector_env(2, players=2, modules=["building_huts"], opponents=["greedy"], seed=1)
    assert isinstance(envs, SyncAlhambraVectorEnv)
    with pytest.raises(ConfigError, match="kernel"):
        vector_env(2, players=2, modules=["building_huts"], opponents=["greedy"], engine="kernel")
    with pytest.raises(ConfigError, match="kernel"):
        vector_env(2, players=2, opponents=["mcts:4"], engine="kernel")


@needs_batch
def test_api_spaces_and_masks() -> None:
    envs = vector_env(5, players=3, modules="vizier", seed=2)
    assert isinstance(envs, VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, infos = envs.reset()
    assert obs in envs.observation_space
    assert obs["observation"].shape == (5, envs.single_observation_space["observation"].shape[0])
    assert obs["action_mask"].shape == infos["action_mask"].shape == (5, envs.single_action_space.n)
    assert obs["action_mask"].dtype == np.int8 and infos["_action_mask"].all()
    assert (obs["action_mask"].sum(axis=1) > 0).all()  # the learner decides in every game
    actions = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    assert actions in envs.action_space
    obs2, *_ = envs.step(actions)
    assert obs2 in envs.observation_space
    assert not np.shares_memory(obs2["observation"], obs["observation"])  # copies by default
    # the same seed, the same batch
    again, _ = vector_env(5, players=3, modules="vizier").reset(seed=2)
    assert np.array_equal(again["observation"], obs["observation"])
    # a list of seeds, one per game
    listed, _ = envs.reset(seed=[2, 3, 4, 5, 6])
    assert np.array_equal(listed["observation"], obs["observation"])


@needs_batch
def test_bad_actions() -> None:
    envs = vector_env(3, players=2, seed=4)
    with pytest.raises(IllegalActionError, match="reset"):
        envs.step([0, 0, 0])
    obs, _ = envs.reset()
    for bad in ([0, 0], [[0, 0, 0]], [0.5, 1.0, 2.0], ["a", "b", "c"], None):
        with pytest.raises(IllegalActionError, match="3 integers"):
            envs.step(bad)
    # an illegal integer: the single environment's penalty, the game unchanged
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    _, rewards, terms, _, infos = envs.step([legal[0], 10**6, -5])
    assert list(rewards[1:]) == [-1.0, -1.0] and not terms.any()
    assert list(infos["illegal_action"]) == [False, True, True]
    # illegal_reward=None: the batch refuses, no game changes
    strict = vector_env(2, players=2, seed=4, illegal_reward=None)
    obs, _ = strict.reset()
    with pytest.raises(IllegalActionError, match="game 1"):
        strict.step([int(np.flatnonzero(obs["action_mask"][0])[0]), 10**6])
    fresh, _ = vector_env(2, players=2, seed=4).reset()
    assert np.array_equal(strict._obs, fresh["observation"])


@needs_batch
def test_bad_configuration() -> None:
    for bad in (0, -1, 2.5, "4"):
        with pytest.raises(ConfigError, match="num_envs"):
            vector_env(bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="seed"):
        vector_env(2, seed=-1)
    with pytest.raises(ConfigError, match="opponent"):
        vector_env(2, players=2, opponents=["wizard"])
    envs = vector_env(2, players=2)
    with pytest.raises(ConfigError, match="seed"):
        envs.reset(seed=[1])


@pytest.mark.parametrize("engine", ["kernel", "python"])
def test_a_refused_batch_changes_no_game_not_even_one_waiting_to_restart(engine):
    """With ``illegal_reward=None`` a batch with an illegal integer is refused before anything
    happens: a finished game waiting to restart does not draw its next game yet, so play goes
    on exactly as without the refused step."""
    import numpy as np

    from alhambra.errors import IllegalActionError

    def pick(obs):
        return np.array([int(np.flatnonzero(m)[-1]) if m.any() else 0 for m in obs["action_mask"]], np.int64)

    def run(refused: bool) -> list:
        v = vector_env(2, players=2, opponents=["random"], seed=7, illegal_reward=None, engine=engine)
        obs = v.reset()[0]
        for _ in range(5000):
            obs, _, te, tr, _ = v.step(pick(obs))
            if (te | tr)[0] and not (te | tr)[1]:
                break
        if refused:
            bad = pick(obs)
            bad[1] = 10**6
            with pytest.raises(IllegalActionError, match="game 1"):
                v.step(bad)
        out = []
        for _ in range(3):
            obs = v.step(pick(obs))[0]
            out.append(obs["observation"].copy())
        return out

    for a, b in zip(run(False), run(True)):
        assert np.array_equal(a, b)


@needs_batch
@pytest.mark.parametrize(
    ("players", "modules", "seed"),
    [
        (4, [], 1),
        (4, [], 2),
        (2, ["vizier", "bonus_cards"], 3),
        (3, ["building_huts", "exchange_offices"], 4),
        (5, ["vizier", "bonus_cards", "exchange_offices", "diamonds"], 5),
    ],
)
def test_observations_updated_in_place_are_the_ones_written_whole(players: int, modules: list[str], seed: int) -> None:
    # the kernel rewrites only what changed since a game's last step; a twin batch told to
    # forget its buffer before every step writes every float: the same bytes, over whole games,
    # autoresets, random seats, illegal integers and truncations included
    kw: dict[str, Any] = dict(
        players=players, modules=modules, opponents=["random"] * (players - 1), seat="random", max_episode_steps=150
    )
    kept = vector_env(6, seed=seed, copy=False, **kw)
    whole = vector_env(6, seed=seed, **kw)
    assert isinstance(kept, KernelVectorEnv) and isinstance(whole, KernelVectorEnv)
    obs, _ = kept.reset()
    wobs, _ = whole.reset()
    assert not obs["observation"].flags.writeable  # the batch's own array, updated in place
    rng = np.random.default_rng(seed)
    episodes = 0
    for t in range(500):
        assert obs["observation"].tobytes() == wobs["observation"].tobytes(), t
        assert np.array_equal(obs["action_mask"], wobs["action_mask"]), t
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])
        if t % 17 == 0:
            actions[t % 6] = 5000  # illegal: the game unchanged, its observation too
        whole._batch.rewrite()
        obs, rewards, terms, truncs, _ = kept.step(actions)
        wobs, wrewards, wterms, wtruncs, _ = whole.step(actions)
        assert np.array_equal(rewards, wrewards) and np.array_equal(terms, wterms) and np.array_equal(truncs, wtruncs)
        episodes += int(terms.sum() + truncs.sum())
    assert episodes >= 6  # autoresets, several
