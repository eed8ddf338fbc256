"""A batch of Gymnasium games: :func:`vector_env` returns a :class:`gymnasium.vector.VectorEnv`
of ``num_envs`` games of :class:`~alhambra.env.gym_env.AlhambraEnv` (one learner seat each,
bots in the others).

    import alhambra.env
    envs = alhambra.env.vector_env(64, players=3, opponents=["greedy", "random"], seed=1)
    obs, infos = envs.reset()
    actions = [rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]]
    obs, rewards, terminations, truncations, infos = envs.step(actions)

Game ``k`` of the batch is the single environment ``AlhambraEnv`` (same arguments) reset with
``seed + k`` and then, at each autoreset, reset again without a seed (its generator goes on):
the same games, observations, masks, rewards and end flags, step by step. Autoreset follows
Gymnasium's next-step convention (``AutoresetMode.NEXT_STEP``): the step that ends a game
returns its final observation (mask all zero) with ``terminated`` or ``truncated``; the next
step ignores that game's action, starts its next game and returns the new game's first
observation with reward 0 and both flags false.

On the kernel (the rule set and the opponents allow it: random bots, and greedy bots where
:data:`alhambra.kernel.KERNEL_GREEDY_MODULES` holds the modules) a whole batch step is one
call into the compiled kernel with the GIL released (``alhambra_kernel.BatchEnv``): each
game's integer is taken, a complete code is played, the opponents play inside the kernel until
the learner decides again, and observations, masks, rewards and flags are written into the
batch's numpy arrays (each observation updated in place: only the slices that changed since
the learner's last step are rewritten). Anywhere else the batch is a :class:`gymnasium.vector.SyncVectorEnv` of
single environments (the same games, slower).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv
from gymnasium.vector.utils import batch_space

from alhambra import ConfigError, IllegalActionError, kernel
from alhambra.bots import GreedyBot, RandomBot, make_bot
from alhambra.errors import shown

from .gym_env import MAX_EPISODE_STEPS, AlhambraEnv
from .session import as_integer_option, as_seed

__all__ = ["KernelVectorEnv", "SyncAlhambraVectorEnv", "vector_env"]


def vector_env(
    num_envs: int,
    players: int = 4,
    modules: Iterable[str] | str | None = (),
    options: dict[str, Any] | None = None,
    opponents: Iterable[str] | None = None,
    seat: int | str = 0,
    seed: int | None = None,
    illegal_reward: float | None = -1.0,
    max_episode_steps: int | None = MAX_EPISODE_STEPS,
    engine: str = "auto",
    copy: bool = True,
) -> VectorEnv:
    """``num_envs`` games of :class:`~alhambra.env.gym_env.AlhambraEnv` as one Gymnasium
    ``VectorEnv``. ``players``, ``modules``, ``options``, ``opponents``, ``seat``,
    ``illegal_reward``, ``max_episode_steps``: as for ``AlhambraEnv`` (every game the same);
    ``seed``: the seed of the first :meth:`reset` when it is given none (game ``k`` is reset with
    ``seed + k``; ``None``: fresh entropy). ``engine``: ``"auto"`` (the batch on the kernel
    where it plays the rule set and the opponents, else single environments), ``"kernel"`` (a
    :class:`~alhambra.ConfigError` where it cannot), ``"python"`` (single environments on the
    Python engine). ``copy``: return new arrays every step (``False``: the batch's own, rewritten
    by the next step, the observations read-only: the kernel updates them in place; on the
    kernel only). Raises :class:`~alhambra.ConfigError` for a bad
    configuration."""
    n = as_integer_option(num_envs, "num_envs", 1, 1 << 20)
    if seed is not None:
        seed = as_seed(seed)
    kw: dict[str, Any] = dict(
        players=players,
        modules=modules,
        options=options,
        opponents=opponents,
        seat=seat,
        illegal_reward=illegal_reward,
        max_episode_steps=max_episode_steps,
    )
    template = AlhambraEnv(**kw, engine=engine)  # checks every argument
    why = _kernel_refusal(template)
    if why is None and engine != "python":
        return KernelVectorEnv(template, n, seed, copy)
    if engine == "kernel":
        raise ConfigError(f"the batch cannot run on the kernel: {why}")
    return SyncAlhambraVectorEnv([lambda: AlhambraEnv(**kw, engine=engine) for _ in range(n)], seed=seed)


def _kernel_refusal(template: AlhambraEnv) -> str | None:
    """Why the batch of ``template``'s configuration cannot run on the kernel, or None."""
    s = template.session
    if s.engine != "kernel" or s._native is None:
        return "the kernel does not play this rule set"
    if not hasattr(kernel.native, "BatchEnv"):
        return "the installed alhambra_kernel has no BatchEnv"  # pragma: no cover - an old build
    for spec in template.opponents:
        bot = make_bot(spec)
        if type(bot) is RandomBot:
            continue
        if type(bot) is not GreedyBot:
            return f"opponent {spec!r} is played by Python"
        if not set(s.game.rules.modules) <= kernel.KERNEL_GREEDY_MODULES:
            return "the kernel's greedy bot does not play these modules"
        if kernel.weight_row(bot.weights) is None:
            return f"opponent {spec!r} has weights the kernel does not take"
    return None


class SyncAlhambraVectorEnv(SyncVectorEnv):
    """:class:`gymnasium.vector.SyncVectorEnv` of single environments whose first
    :meth:`reset` without a seed uses ``seed`` (game ``k``: ``seed + k``)."""

    def __init__(self, env_fns: Sequence[Any], seed: int | None = None) -> None:
        super().__init__(env_fns, autoreset_mode=AutoresetMode.NEXT_STEP)
        self._first_seed = seed

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None) -> Any:
        if seed is None:
            seed = self._first_seed
        self._first_seed = None
        return super().reset(seed=seed, options=options)

    def step(self, actions: Any) -> Any:
        """As :class:`SyncVectorEnv`'s, the whole batch checked first: with
        ``illegal_reward=None`` an integer not legal in its game raises
        :class:`~alhambra.IllegalActionError` before any game changes."""
        envs: list[Any] = [e.unwrapped for e in self.envs]
        if envs and envs[0].illegal_reward is None:
            try:
                a = np.asarray(actions)
            except (TypeError, ValueError):
                a = np.asarray(None)
            if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
                raise IllegalActionError(
                    f"actions must be {self.num_envs} integers (one per game), not {shown(actions)}"
                )
            for k, (env, i) in enumerate(zip(envs, a.tolist())):
                if self._autoreset_envs[k]:
                    continue  # a finished game restarts: its integer is ignored
                if i not in env.session.legal_ints():
                    raise IllegalActionError(f"game {k}: {i} is not legal now")
        return super().step(actions)


class KernelVectorEnv(VectorEnv):
    """The batch on the kernel (see the module's description); made by :func:`vector_env`."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012  (gymnasium's own attribute)

    def __init__(self, template: AlhambraEnv, num_envs: int, seed: int | None, copy: bool = True) -> None:
        self.num_envs = num_envs
        self.single_observation_space = template.observation_space
        self.single_action_space = template.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = None
        self.copy = copy
        session = template.session
        self._rules = session.game.rules
        self._players = session.players
        self._codec = session.codec
        self._seat_choice = template.seat_choice
        self._opponents: list[Any] = []
        for spec in template.opponents:
            bot = make_bot(spec)
            greedy = bot if isinstance(bot, GreedyBot) else None
            self._opponents.append(None if greedy is None else (kernel.weight_row(greedy.weights), greedy.noise))
        self._batch = kernel.native.BatchEnv(
            session._native, num_envs, template.max_episode_steps, template.illegal_reward
        )
        self._strict = template.illegal_reward is None
        size, na = session.observation_size, session.num_actions
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        # the kernel rewrites only what changed since the last step: the caller reads a view
        self._obs_view = self._obs.view()
        self._obs_view.flags.writeable = False
        self._mask = np.zeros((num_envs, na), dtype=np.int8)
        self._reward = np.zeros(num_envs, dtype=np.float64)
        self._term = np.zeros(num_envs, dtype=np.bool_)
        self._trunc = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._views = (self._term.view(np.uint8), self._trunc.view(np.uint8), self._illegal.view(np.uint8))
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._first_seed = seed
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._started = False
        self._all = np.ones(num_envs, dtype=np.bool_)

    def _start(self, k: int) -> None:
        """Set up game ``k``'s next game as ``AlhambraEnv.reset`` does, from its generator."""
        gen = self._rngs[k]
        assert gen is not None
        rng = random.Random(int(gen.integers(2**63)))
        seat = rng.randrange(self._players) if self._seat_choice == "random" else self._seat_choice
        assert isinstance(seat, int)
        game = kernel.new_native(self._rules, self._players, rng.getrandbits(63))
        seats: list[Any] = [None] * self._players
        others = [s for s in range(self._players) if s != seat]
        for s, opponent in zip(others, self._opponents):
            bot_seed = rng.getrandbits(32)
            seats[s] = bot_seed if opponent is None else (opponent[0], opponent[1], bot_seed)
        self._batch.set_game(k, game, seat, seats)
        self._seats[k] = seat

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game in every slot. ``seed``: an int (game ``k``: ``seed + k``), a list of
        one seed (or None) per game, or None (the constructor's seed at the first reset, else
        each game's generator goes on)."""
        super().reset(seed=None)
        if seed is None:
            seed = self._first_seed
        self._first_seed = None
        if seed is None or isinstance(seed, (int, np.integer)):
            seeds: list[Any] = [None if seed is None else as_seed(int(seed) + k) for k in range(self.num_envs)]
        elif isinstance(seed, (list, tuple)) and len(seed) == self.num_envs:
            seeds = [None if s is None else as_seed(s) for s in seed]
        else:
            raise ConfigError(f"seed must be an int, a list of {self.num_envs} seeds or None, not {shown(seed)}")
        for k, s in enumerate(seeds):
            if s is not None or self._rngs[k] is None:
                self._rngs[k] = seeding.np_random(s)[0]
            self._start(k)
        self._run(np.zeros(self.num_envs, dtype=np.int64))
        self._autoreset[:] = False
        self._started = True
        obs = self._observation()
        return obs, self._infos(obs, False)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every game with its integer of ``actions`` (one per game: a sequence or array of
        integers). An integer not legal now (out of range included) is handled as the single
        environment does: reward ``illegal_reward``, the game unchanged,
        ``infos["illegal_action"]`` true for it; with ``illegal_reward=None`` the batch raises
        :class:`~alhambra.IllegalActionError` and no game changes. Raises
        :class:`~alhambra.IllegalActionError` for actions that are not one integer per game."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        try:
            a = np.asarray(actions)
        except (TypeError, ValueError):
            a = np.asarray(None)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be {self.num_envs} integers (one per game), not {shown(actions)}")
        if a.dtype.kind == "u":
            a = np.minimum(a, np.iinfo(np.int64).max)  # out of range either way
        a = np.ascontiguousarray(a, dtype=np.int64)
        if self._strict:
            # refused before any game changes, the restarts of finished games included: an
            # integer is legal exactly where the learner's mask says so
            live = np.flatnonzero(~self._autoreset)
            mine = a[live]
            inside = (mine >= 0) & (mine < self._mask.shape[1])
            legal = np.zeros(len(live), dtype=np.bool_)
            legal[inside] = self._mask[live[inside], mine[inside]] == 1
            if not legal.all():
                k = int(live[np.flatnonzero(~legal)[0]])
                i = int(a[k])
                try:
                    what = self._codec.describe(i)
                except IllegalActionError:
                    what = "out of range"
                raise IllegalActionError(f"game {k}: {i} ({what}) is not legal now")
        for j in np.flatnonzero(self._autoreset):
            self._start(int(j))
        bad = self._run(a)
        if bad is not None:
            k, i = int(bad[0]), int(bad[1])
            try:
                what = self._codec.describe(i)
            except IllegalActionError:
                what = "out of range"
            raise IllegalActionError(f"game {k}: {i} ({what}) is not legal now")
        np.logical_or(self._term, self._trunc, out=self._autoreset)
        obs = self._observation()
        infos = self._infos(obs, bool(self._illegal.any()))
        c = self.copy
        return (
            obs,
            self._reward.copy() if c else self._reward,
            self._term.copy() if c else self._term,
            self._trunc.copy() if c else self._trunc,
            infos,
        )

    def _run(self, actions: np.ndarray) -> tuple[int, int] | None:
        term, trunc, illegal = self._views
        bad: tuple[int, int] | None = self._batch.step(
            actions, self._obs, self._mask, self._reward, term, trunc, illegal
        )
        return bad

    def _observation(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs_view, "action_mask": self._mask}

    def _infos(self, obs: dict[str, np.ndarray], illegal: bool) -> dict[str, Any]:
        infos: dict[str, Any] = {
            "action_mask": obs["action_mask"],
            "_action_mask": self._all.copy(),
            "seat": self._seats.copy(),
            "_seat": self._all.copy(),
        }
        if illegal:
            infos["illegal_action"] = self._illegal.copy()
            infos["_illegal_action"] = self._illegal.copy()
        return infos

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
