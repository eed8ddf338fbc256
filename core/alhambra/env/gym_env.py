"""Gymnasium single-agent environment ``alhambra/Alhambra-v0``: the learner in one seat,
bots of :mod:`alhambra.bots` in the others.

    import gymnasium, alhambra.env
    env = gymnasium.make("alhambra/Alhambra-v0", players=4, opponents=["greedy", "random", "random"])

The observation is a dict like the PettingZoo environment's (``"observation"``,
``"action_mask"``), and ``info["action_mask"]`` holds the mask too. The reward is 0 until the
game ends, then the learner's share of the victory (``Game.returns()``). A step whose integer
is not legal leaves the game as it was and gives ``illegal_reward`` with
``info["illegal_action"] = True`` (so that unmasked samplers such as
``gymnasium.utils.env_checker`` can drive it); pass ``illegal_reward=None`` to raise
:class:`~alhambra.IllegalActionError` instead.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from alhambra import AlhambraError, ConfigError, IllegalActionError, returns
from alhambra.bots import make_bot
from alhambra.errors import shown

from .session import Session, as_integer_option, as_number_option, as_seed

__all__ = ["MAX_EPISODE_STEPS", "AlhambraEnv"]

#: Default bound on an episode's steps (the learner's integers; the registration's
#: ``max_episode_steps`` too): a learner takes 100-500 in a game of greedy or random bots, so
#: only a stalling policy meets it, and the episode is then truncated with reward 0.
MAX_EPISODE_STEPS = 5_000


class AlhambraEnv(gymnasium.Env):
    """The learner plays seat ``seat`` (an ``int`` or numpy integer, default 0; ``"random"``: a random seat each game) of
    a ``players``-player game against ``opponents`` (bot specifications for
    :func:`alhambra.bots.make_bot`, one per other seat in seat order; default all
    ``"random"``; every specification is checked at construction). ``modules``, ``options``
    as for the PettingZoo environment; ``max_episode_steps``: the learner's steps after which
    an episode is truncated (default :data:`MAX_EPISODE_STEPS`, ``None``: never); ``render_mode``: ``"ansi"`` (text returned)
    or ``"human"`` (printed); ``render()`` shows the learner's view (its own hand, the others'
    hidden). ``illegal_reward``: a finite real number, or ``None`` to raise. An action is an ``int``, a
    numpy integer or a 0-d integer array; anything else (``3.7``, ``"3"``, ``None``, longer
    arrays) is illegal like an integer that is not legal now. ``info`` holds ``"action_mask"``
    and ``"seat"`` after ``reset`` and every ``step``. ``engine``: which engine plays the games
    (``"auto"``, the default: the compiled rules kernel where it plays the rule set, its action
    masks and observations worked out by compiled code; ``"python"``; ``"kernel"``, an error
    where it cannot), the same games and the same vectors either way. Raises
    :class:`ConfigError` for a bad configuration."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012  (gymnasium's own attribute)

    def __init__(
        self,
        players: int = 4,
        modules: Iterable[str] | str | None = (),
        options: dict[str, Any] | None = None,
        opponents: Iterable[str] | None = None,
        seat: int | str = 0,
        render_mode: str | None = None,
        illegal_reward: float | None = -1.0,
        max_episode_steps: int | None = MAX_EPISODE_STEPS,
        engine: str = "auto",
    ) -> None:
        self.max_episode_steps = (
            None
            if max_episode_steps is None
            else as_integer_option(max_episode_steps, "max_episode_steps", 1, sys.maxsize)
        )
        self.steps = 0
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}"
            )
        self.session = Session(players, modules, options, engine)
        players = self.session.players
        specs = ["random"] * (players - 1) if opponents is None else list(opponents)
        if len(specs) != players - 1 or not all(isinstance(s, str) for s in specs):
            raise ConfigError(f"opponents must name {players - 1} bots, not {shown(opponents)}")
        for k, spec in enumerate(specs):
            try:
                make_bot(spec)  # every specification is checked now, not at the first reset
            except AlhambraError as e:
                raise ConfigError(f"opponent {k} ({spec!r}): {e}") from e
        self.opponents = specs
        if seat != "random":
            if isinstance(seat, str):
                raise ConfigError(f"seat must be 0..{players - 1} or 'random', not {shown(seat)}")
            seat = as_integer_option(seat, "seat", 0, players - 1)
        self.seat_choice = seat
        self.seat: int = seat if isinstance(seat, int) else 0
        self.render_mode = render_mode
        self.illegal_reward = None if illegal_reward is None else as_number_option(illegal_reward, "illegal_reward")
        n, size = self.session.num_actions, self.session.observation_size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=self.session.encoder.low(), high=self.session.encoder.high(), shape=(size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(n)
        self._bots: dict[int, Any] = {}

    def _obs(self) -> dict[str, np.ndarray]:
        s = self.session
        mask = s.mask() if s.game.current_player == self.seat else np.zeros(s.num_actions, dtype=np.int8)
        return {"observation": s.observe(self.seat), "action_mask": mask}

    def _opponents_play(self) -> None:
        game = self.session.game
        while not game.is_over and game.current_player != self.seat:
            seat = game.current_player
            assert seat is not None
            self.session.play(self._bots[seat].choose(game, seat, game.legal_actions()))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=None if seed is None else as_seed(seed))
        self.steps = 0
        rng = random.Random(int(self.np_random.integers(2**63)))
        if self.seat_choice == "random":
            self.seat = rng.randrange(self.session.players)
        self.session.reset(rng.getrandbits(63))
        others = [s for s in range(self.session.players) if s != self.seat]
        self._bots = {s: make_bot(spec, seed=rng.getrandbits(32)) for s, spec in zip(others, self.opponents)}
        self._opponents_play()
        obs = self._obs()
        return obs, {"action_mask": obs["action_mask"], "seat": self.seat}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        s = self.session
        if s.game.is_over or (self.max_episode_steps is not None and self.steps >= self.max_episode_steps):
            raise IllegalActionError("the episode is over: call reset()")
        info: dict[str, Any] = {}
        reward = 0.0
        try:
            s.step(action)  # anything but an integer is an IllegalActionError too
        except IllegalActionError:
            if self.illegal_reward is None:
                raise
            info["illegal_action"] = True
            reward = float(self.illegal_reward)
        self._opponents_play()
        self.steps += 1
        done = s.game.is_over
        if done:
            reward += float(returns(s.game)[self.seat])
        truncated = not done and self.max_episode_steps is not None and self.steps >= self.max_episode_steps
        obs = self._obs()
        info["action_mask"] = obs["action_mask"]
        info["seat"] = self.seat
        if self.render_mode == "human":
            self.render()
        return obs, reward, done, truncated, info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.session.render(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text
