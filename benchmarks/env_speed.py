"""Environment speed: PettingZoo and Gymnasium steps per second beside the engine's own
random-play actions per second, in one run (issue 14).

    python benchmarks/env_speed.py                          # about a minute
    python benchmarks/env_speed.py --players 4 --modules all --seconds 3 --rounds 5

Three contenders play random games of the same configuration, interleaved game by game with
the same seeds (one game of each per cycle, the order rotated each cycle), each game timed as
a whole in CPU time (``time.process_time``); a round lasts about ``--seconds`` times three, most
of it in the environments' games:

* ``engine``: ``legal_actions()``, a random one, ``apply()`` (the loop of engine_speed.py);
* ``pettingzoo``: ``alhambra_v0.env``'s AEC loop: ``env.last()`` (observation and mask of the
  agent to move), a random legal integer of the mask, ``env.step()``;
* ``gymnasium``: ``gymnasium.make("alhambra/Alhambra-v0")`` with random bots in the other
  seats: a random legal integer of the learner's mask, ``env.step()``.

An environment step is one integer; an engine action takes one or more (a purchase is the
space, each card, then "pay"; a placement the tile, then the cell). The figures to compare
are the per-action times: "env cost" is the environment's time per engine action beyond the
engine's own, as a share of the engine's time per action (issue 14 asks for at most 0.5).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import alhambra
import numpy as np
from alhambra.env import alhambra_v0, parse_modules


def engine_game(players: int, modules: list[str], seed: int) -> tuple[int, int]:
    game = alhambra.new_game(players, modules=modules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    n = len(game.history)
    return n, n


def aec_loop(env, rng: random.Random) -> int:
    """PettingZoo's agent loop to the end, a random legal integer of each mask; the steps taken."""
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


def pettingzoo_game(env, seed: int) -> tuple[int, int]:
    env.reset(seed=seed)
    steps = aec_loop(env, random.Random(seed))
    return steps, len(env.unwrapped.session.game.history)


def gymnasium_game(env, seed: int) -> tuple[int, int]:
    obs, _info = env.reset(seed=seed)
    rng = random.Random(seed)
    steps, done = 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _reward, done, _trunc, _info = env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps, len(env.unwrapped.session.game.history)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--modules", default="", help="comma-separated module names, or 'all'")
    ap.add_argument(
        "--seconds", type=float, default=4.0, help="a round lasts about this long times the number of contenders (3)"
    )
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--warmup", type=float, default=2.0)
    args = ap.parse_args(argv)
    import gymnasium

    modules = parse_modules(args.modules)
    pz = alhambra_v0.env(players=args.players, modules=modules)
    gym = gymnasium.make("alhambra/Alhambra-v0", players=args.players, modules=modules)
    contenders = {
        "engine": lambda seed: engine_game(args.players, modules, seed),
        "pettingzoo": lambda seed: pettingzoo_game(pz, seed),
        "gymnasium": lambda seed: gymnasium_game(gym, seed),
    }
    clock = time.process_time
    for play in contenders.values():  # warm the caches shared between games
        start, seed = clock(), 10_000
        while clock() - start < args.warmup:
            play(seed)
            seed += 1
    print(
        f"python {sys.version.split()[0]}, alhambra {alhambra.__version__}, {args.players} players, "
        f"modules: {','.join(modules) or 'none'}; {args.rounds} rounds of about {args.seconds}s per contender, "
        f"CPU time, games interleaved with the same seeds"
    )
    s = pz.unwrapped.session
    print(f"action space: {s.num_actions} integers; observation: {s.observation_size} floats")
    names = list(contenders)
    per_round: dict[str, list[tuple[int, int, float, int]]] = {n: [] for n in names}
    seed = 0
    for _r in range(args.rounds):
        totals = {n: [0, 0, 0.0, 0] for n in names}  # steps, actions, seconds, games
        while sum(t[2] for t in totals.values()) < args.seconds * len(names):
            order = names[seed % 3 :] + names[: seed % 3]
            for n in order:
                t0 = clock()
                steps, actions = contenders[n](seed)
                dt = clock() - t0
                t = totals[n]
                t[0] += steps
                t[1] += actions
                t[2] += dt
                t[3] += 1
            seed += 1
        for n in names:
            per_round[n].append(tuple(totals[n]))  # type: ignore[arg-type]
    print(
        f"{'contender':<12}{'games':>7}{'steps/s':>10}{'actions/s':>11}{'us/step':>9}{'us/action':>11}{'env cost':>10}"
    )
    eng_us = [t[2] / t[1] * 1e6 for t in per_round["engine"]]
    for n in names:
        rows = per_round[n]
        games = sum(t[3] for t in rows)
        steps = sum(t[0] for t in rows)
        actions = sum(t[1] for t in rows)
        secs = sum(t[2] for t in rows)
        us_action = [t[2] / t[1] * 1e6 for t in rows]
        cost = statistics.median((u - e) / e for u, e in zip(us_action, eng_us))
        lo = min((u - e) / e for u, e in zip(us_action, eng_us))
        hi = max((u - e) / e for u, e in zip(us_action, eng_us))
        env_cost = "" if n == "engine" else f"{cost:>5.2f} [{lo:.2f}, {hi:.2f}]"
        print(
            f"{n:<12}{games:>7}{steps / secs:>10.0f}{actions / secs:>11.0f}{secs / steps * 1e6:>9.1f}"
            f"{secs / actions * 1e6:>11.1f}  {env_cost}"
        )
    print(
        "env cost: (env us per engine action - engine us per action) / engine us per action, "
        "median over rounds [lowest, highest]"
    )
    pz_rows = per_round["pettingzoo"]
    per_action = sum(t[0] for t in pz_rows) / sum(t[1] for t in pz_rows)
    floor = loop_floor(s.players, s.observation_size, s.num_actions)
    print(
        f"floor: the same AEC loop over a PettingZoo environment that does nothing (observations and "
        f"masks of these sizes, copied) costs {floor:.1f} us/step, {floor * per_action:.1f} us per engine "
        f"action at this game's {per_action:.2f} steps per action ({floor * per_action / statistics.median(eng_us):.2f} "
        f"of the engine's time per action)"
    )
    breakdown(args.players, modules)


def loop_floor(players: int, size: int, num_actions: int, steps: int = 20_000) -> float:
    """CPU us per step of the benchmark's AEC loop (``agent_iter``, ``last``, a random legal
    integer of the mask, ``step``) over a PettingZoo environment in the same wrapper whose
    ``observe`` only copies a ready observation and mask of the given sizes and whose ``step``
    only passes the turn: what PettingZoo's loop costs before the environment does any work."""
    from alhambra.env.alhambra_v0 import OrderEnforcing
    from pettingzoo import AECEnv

    class Nothing(AECEnv):
        metadata = {"name": "nothing", "is_parallelizable": False}  # noqa: RUF012

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = [f"player_{i}" for i in range(players)]
            self.obs = np.zeros(size, dtype=np.float32)
            self.mask = np.zeros(num_actions, dtype=np.int8)
            self.mask[[0, num_actions // 2, num_actions - 1]] = 1

        def reset(self, seed=None, options=None) -> None:
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self.agents[0]
            self.moves = 0

        def observe(self, agent):
            return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}

        def step(self, action) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.moves += 1
            if self.moves >= steps:
                self.terminations = {a: True for a in self.agents}
            else:
                self.agent_selection = self.possible_agents[self.moves % players]
            self._accumulate_rewards()

    env = OrderEnforcing(Nothing())
    env.reset()
    t0 = time.process_time()
    done = aec_loop(env, random.Random(0))
    return (time.process_time() - t0) / done * 1e6


def breakdown(players: int, modules: list[str], games: int = 4) -> None:
    """Where an environment step's time goes, per state of random games (CPU time, each part
    timed over all the states at once): the reference observation (the seat's view, then its
    encoding), the observation the environments use (kept up to date from the state,
    ``Session.observe``: for the player to move at every state, as the PettingZoo loop asks,
    and for one seat at its own turns only, as the Gymnasium learner), the mask (warm: the
    codes of actions met before are kept, as in a long run)."""
    from alhambra.env import Decision, Session

    s = Session(players, modules)
    states = []
    played = []
    for seed in range(games):
        s.reset(50_000 + seed)
        rng = random.Random(seed)
        g = s.game
        moves = []
        while not g.is_over:
            states.append(g.clone())
            moves.append(rng.choice(g.legal_actions()))
            g.apply(moves[-1])
        played.append((50_000 + seed, moves))
    clock = time.process_time

    def per_state(fn) -> float:
        t0 = clock()
        for g in states:
            fn(g)
        return (clock() - t0) / len(states) * 1e6

    def replayed(observe) -> float:
        """CPU us per state spent in ``observe(game)`` while the games are replayed."""
        spent = 0.0
        for seed, moves in played:
            s.reset(seed)
            g = s.game
            for a in moves:
                t0 = clock()
                observe(g)
                spent += clock() - t0
                g.apply(a)
        return spent / len(states) * 1e6

    views = [g.view(g.current_player) for g in states]
    t0 = clock()
    for v in views:
        s.encoder.encode(v)
    encode = (clock() - t0) / len(views) * 1e6
    view = per_state(lambda g: g.view(g.current_player))
    mover = replayed(lambda g: s.observe(g.current_player))
    one = replayed(lambda g: s.observe(0) if g.current_player == 0 else None)
    learner = sum(1 for g in states if g.current_player == 0)
    per_state(lambda g: s.mask_of(Decision(s.codec, g.legal_actions())))  # the codes' cache warms up
    mask = per_state(lambda g: s.mask_of(Decision(s.codec, g.legal_actions())))
    print(
        f"per state ({len(states)} states of {games} games): reference observation: view(seat) {view:.1f} us "
        f"+ encoding it {encode:.1f} us; kept up to date: {mover:.1f} us for the player to move at every state, "
        f"{one * len(states) / learner:.1f} us for one seat at its own turns; the mask (codes of the listed legal "
        f"actions) {mask:.1f} us"
    )


if __name__ == "__main__":
    main()
