"""PettingZoo AEC environment ``alhambra_v0``, laid out like PettingZoo's classic games.

    from alhambra.env import alhambra_v0
    env = alhambra_v0.env(players=4, modules=["vizier"])
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents are ``"player_0"`` … (seats). Each observation is a dict: ``"observation"`` (the
``float32`` vector of :class:`~alhambra.env.observation.ObservationEncoder`, relative to the
agent's seat) and ``"action_mask"`` (``int8``, the legal integers; all zero for an agent that
is not to move). An action is one integer of the rule set's fixed space
(:class:`~alhambra.env.codec.ActionCodec`); a purchase or placement takes a few steps of the
same agent. Rewards come at the end: each seat's share of the victory (``Game.returns()``).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from alhambra import ConfigError, returns

from .session import Session, as_integer_option, as_seed

__all__ = ["MAX_EPISODE_STEPS", "OrderEnforcing", "env", "raw_env"]

#: Default bound on an episode's steps (integers chosen, all agents together): games of
#: greedy or random bots take 300-1500, so only a stalling policy meets it; every agent is then
#: truncated with reward 0.
MAX_EPISODE_STEPS = 10_000


def env(**kwargs: Any) -> AECEnv:
    """The environment in PettingZoo's ``OrderEnforcingWrapper`` (``step``, ``observe`` or
    ``render`` before ``reset`` raise PettingZoo's ``AttributeError``/``OrderEnforcingError``);
    arguments as for :class:`raw_env`. There is no ``AssertOutOfBoundsWrapper``: its bare
    ``assert`` vanishes under ``python -O``, and :meth:`raw_env.step` checks every action itself
    (:class:`~alhambra.IllegalActionError`)."""
    return OrderEnforcing(raw_env(**kwargs))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, the same checks, with the calls of the agent
    loop (``agent_iter``, ``last``, ``step``) passed straight to the environment once it has
    been reset: the base class reaches every attribute through ``__getattr__`` (a failed
    look-up first), which cost about as much as the environment's own step."""

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        agent: str = self.env.agent_selection
        return agent

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        last: tuple[Any, float, bool, bool, dict[str, Any]]
        if not self._has_reset:
            last = super().last(observe)  # PettingZoo's error
        else:
            last = self.env.last(observe)
        return last

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # PettingZoo's error or warning


class raw_env(AECEnv):
    """Alhambra for 2-6 agents. ``players``, ``modules`` (names or a comma-separated string),
    ``options`` (as for :func:`alhambra.new_game`), ``render_mode`` (``"human"`` prints,
    ``"ansi"`` returns the text; ``render()`` shows the spectator's view, no hand),
    ``max_episode_steps`` (steps of all agents after which every agent is truncated, default
    :data:`MAX_EPISODE_STEPS`; ``None``: never), ``engine`` (``"auto"``, the default: the compiled
    rules kernel where it plays the rule set, masks and observations worked out by compiled
    code; ``"python"``; ``"kernel"``, a :class:`ConfigError` where it cannot; the same games and
    vectors either way). Seeded through ``reset(seed=...)``. An action is an ``int``, a numpy
    integer or a 0-d integer array; an integer out of range or not legal now, and anything
    else (``3.7``, ``"3"``, ``None`` for a live agent) raise
    :class:`~alhambra.IllegalActionError` and change nothing."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "alhambra_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int = 4,
        modules: Iterable[str] | str | None = (),
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        max_episode_steps: int | None = MAX_EPISODE_STEPS,
        engine: str = "auto",
    ) -> None:
        super().__init__()
        self.max_episode_steps = (
            None
            if max_episode_steps is None
            else as_integer_option(max_episode_steps, "max_episode_steps", 1, sys.maxsize)
        )
        self.steps = 0
        if render_mode is not None and render_mode not in ("human", "ansi"):
            raise ConfigError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}"
            )
        self.session = Session(players, modules, options, engine)
        players = self.session.players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n, size = self.session.num_actions, self.session.observation_size
        high = self.session.encoder.high()
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=self.session.encoder.low(), high=high, shape=(size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seeds = random.Random()
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: with ``seed`` the same game every time; without, the next game of
        the last seed's sequence (or a fresh random one). ``seed``: an ``int`` or numpy integer
        ``0 <= seed < 2**63`` (:data:`alhambra.SEED_LIMIT`); raises :class:`ConfigError` otherwise
        (``"7"``, ``1.5``, ``True``, ``-1``, ``2**63``). The game seeds drawn lie in that range,
        so every game saves."""
        if seed is not None:
            self._seeds = random.Random(as_seed(seed))
        self.session.reset(self._seeds.getrandbits(63))
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.session.game.current_player or 0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and mask. Raises :class:`ConfigError` for an agent that is
        not one of :attr:`possible_agents`."""
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ConfigError(f"agent must be one of {self.possible_agents}, not {agent!r}")
        obs, mask = self.session.observe_agent(seat)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        s = self.session
        s.step(action)  # raises IllegalActionError for anything but a legal integer
        self.steps += 1
        game = s.game
        if game.is_over:
            for a, r in zip(self.possible_agents, returns(game)):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        elif self.max_episode_steps is not None and self.steps >= self.max_episode_steps:
            for a in self.possible_agents:
                self.truncations[a] = True
        else:
            self.agent_selection = self.possible_agents[game.current_player]  # type: ignore[index]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as a spectator sees it, as text (printed in ``"human"`` mode)."""
        if self.render_mode is None:
            return None
        text = self.session.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
