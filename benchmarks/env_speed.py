"""Environment speed: PettingZoo and Gymnasium steps per second beside the engine's own
random-play actions per second, in one run.

    python benchmarks/env_speed.py                          # about a minute
    python benchmarks/env_speed.py --players 4 --modules all --seconds 3 --rounds 5
    python benchmarks/env_speed.py --engines               # PettingZoo on the kernel vs on Python
    python benchmarks/env_speed.py --openspiel             # OpenSpiel's tensors and rl_environment, both engines

Three contenders play random games of the same configuration, interleaved game by game with
the same seeds (one game of each per cycle, the order rotated each cycle), each game timed as
a whole in CPU time (``time.process_time``); a round lasts about ``--seconds`` times three, most
of it in the environments' games:

The environments run on the Python engine here (``engine="python"``), the one they are
measured against; ``--engines`` compares the PettingZoo loop on the compiled rules kernel
(its codec and observer, ``engine="kernel"``) with the same loop on Python instead, for the
base game and every module the kernel plays, and prints the speed-up. ``--openspiel`` times
OpenSpiel's ``observation_tensor()`` and ``information_state_tensor()`` per call and OpenSpiel's
own ``rl_environment`` (random legal actions) in steps per second, on each engine (the game
parameter ``engine``), for the base game and every module the kernel plays.

* ``engine``: ``legal_actions()``, a random one, ``apply()`` (the loop of engine_speed.py);
* ``pettingzoo``: ``alhambra_v0.env``'s AEC loop: ``env.last()`` (observation and mask of the
  agent to move), a random legal integer of the mask, ``env.step()``;
* ``gymnasium``: ``gymnasium.make("alhambra/Alhambra-v0")`` with random bots in the other
  seats: a random legal integer of the learner's mask, ``env.step()``.

An environment step is one integer; an engine action takes one or more (a purchase is the
space, each card, then "pay"; a placement the tile, then the cell). The figures to compare
are the per-action times: "env cost" is the environment's time per engine action beyond the
engine's own, as a share of the engine's time per action (the design budget: at most 0.5).
The environments' loops include their agent's choice (the mask's legal integers, then a
random one), which the engine's loop makes from its list for almost nothing; "w/o agent"
takes that choice's measured time out, leaving the environment layer alone.

The budget that follows splits the PettingZoo loop's time per engine action into its parts
(each timed on its own over the states of a few games) and sets the least any Python layer
over ``legal_actions()`` must spend beside it: PettingZoo's loop over an environment that does
nothing, and one look-up per legal action to find the mask's integers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from typing import Any

import alhambra
import numpy as np
from alhambra.env import alhambra_v0, parse_modules


def engine_game(players: int, modules: list[str], seed: int) -> tuple[int, int]:
    game = alhambra.new_game(players, modules=modules, seed=seed, engine="python")  # the engine the environments run on
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    n = len(game.history)
    return n, n


def aec_loop(env, rng: random.Random, masks: list[np.ndarray] | None = None) -> int:
    """PettingZoo's agent loop to the end, a random legal integer of each mask; the steps taken.
    ``masks``: a list to which each mask met is appended (for :func:`agent_choice`)."""
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        if masks is not None:
            masks.append(obs["action_mask"])
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps


def agent_choice(masks: list[np.ndarray], rng: random.Random) -> float:
    """CPU us per step of the benchmark agent's own choice, as :func:`aec_loop` makes it (the
    mask's legal integers, a random one), over ``masks``."""
    clock = time.process_time
    t0 = clock()
    for _ in range(5):
        for m in masks:
            legal = np.flatnonzero(m)
            int(legal[rng.randrange(len(legal))])
    return (clock() - t0) / (5 * len(masks)) * 1e6


def pettingzoo_masks(env, seeds: range) -> list[np.ndarray]:
    """The masks the agent loop meets in the games of ``seeds`` (for :func:`agent_choice`)."""
    masks: list[np.ndarray] = []
    for seed in seeds:
        env.reset(seed=seed)
        aec_loop(env, random.Random(seed), masks)
    return masks


def random_games(s: Any, games: int, states: list[Any] | None = None) -> list[tuple[int, list[Any]]]:
    """``games`` random games of session ``s`` (seeds 50000...), as ``(seed, moves)`` for
    :func:`replayed`; a clone of each state is appended to ``states`` if given."""
    played = []
    for seed in range(games):
        s.reset(50_000 + seed)
        rng = random.Random(seed)
        g = s.game
        moves = []
        while not g.is_over:
            if states is not None:
                states.append(g.clone())
            moves.append(rng.choice(g.legal_actions()))
            g.apply(moves[-1])
        played.append((50_000 + seed, moves))
    return played


def replayed(s: Any, played: list[tuple[int, list[Any]]], part: Any, passes: int = 1) -> float:
    """CPU us per state spent in ``part(game, legal)`` while session ``s`` replays ``played``
    (:func:`random_games`); of the last of ``passes`` (the earlier ones warm the caches of a
    long run: codes, masks)."""
    clock = time.process_time
    spent, states = 0.0, 0
    for _ in range(passes):
        spent, states = 0.0, 0
        for seed, moves in played:
            s.reset(seed)
            g = s.game
            for a in moves:
                legal = g.legal_actions()
                t0 = clock()
                part(g, legal)
                spent += clock() - t0
                g.apply(a)
                states += 1
    return spent / states * 1e6


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
    ap.add_argument(
        "--openspiel",
        action="store_true",
        help="OpenSpiel's tensors (us per call) and rl_environment (steps/s) on the kernel and on Python",
    )
    ap.add_argument(
        "--engines",
        action="store_true",
        help="compare PettingZoo on the kernel with PettingZoo on Python instead (base game and every kernel module)",
    )
    args = ap.parse_args(argv)
    if args.openspiel:
        openspiel(args)
        return
    if args.engines:
        engines(args)
        return
    import gymnasium

    modules = parse_modules(args.modules)
    pz = alhambra_v0.env(players=args.players, modules=modules, engine="python")
    gym = gymnasium.make("alhambra/Alhambra-v0", players=args.players, modules=modules, engine="python")
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
        f"modules: {','.join(modules) or 'none'}; {args.rounds} rounds of about {args.seconds * len(contenders):g}s "
        f"CPU time in all (equal numbers of games, most of the time in the environments'), interleaved with the "
        f"same seed numbers (not the same deals: the environments derive their own game seeds)"
    )
    s = pz.unwrapped.session
    print(f"action space: {s.num_actions} integers; observation: {s.observation_size} floats")
    names = list(contenders)
    per_round: dict[str, list[tuple[int, int, float, int]]] = {n: [] for n in names}
    seed = 0
    for _r in range(args.rounds):
        totals = {n: [0, 0, 0.0, 0] for n in names}  # steps, actions, seconds, games
        while sum(t[2] for t in totals.values()) < args.seconds * len(names):
            order = names[seed % len(names) :] + names[: seed % len(names)]
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
    agent = agent_choice(pettingzoo_masks(pz, range(20_000, 20_004)), random.Random(0))
    print(
        f"{'contender':<12}{'games':>7}{'steps/s':>10}{'actions/s':>11}{'us/step':>9}{'us/action':>11}"
        f"{'env cost':>10}{'w/o agent':>23}"
    )
    eng_us = [t[2] / t[1] * 1e6 for t in per_round["engine"]]
    for n in names:
        rows = per_round[n]
        games = sum(t[3] for t in rows)
        steps = sum(t[0] for t in rows)
        actions = sum(t[1] for t in rows)
        secs = sum(t[2] for t in rows)
        cols = ""
        if n != "engine":
            for spent in (0.0, agent):  # the agent's choice in, then out
                costs = [((t[2] - spent * 1e-6 * t[0]) / t[1] * 1e6 - e) / e for t, e in zip(rows, eng_us)]
                cols += f"  {statistics.median(costs):>5.2f} [{min(costs):.2f}, {max(costs):.2f}]"
        print(
            f"{n:<12}{games:>7}{steps / secs:>10.0f}{actions / secs:>11.0f}{secs / steps * 1e6:>9.1f}"
            f"{secs / actions * 1e6:>11.1f}{cols}"
        )
    print(
        "env cost: (env us per engine action - engine us per action) / engine us per action, "
        "median over rounds [lowest, highest]; w/o agent: the agent's choice "
        f"(the mask's legal integers, a random one: {agent:.1f} us a step) taken out; a gymnasium step is the "
        "learner's, the other seats' actions are played inside it"
    )
    pz_rows = per_round["pettingzoo"]
    per_action = sum(t[0] for t in pz_rows) / sum(t[1] for t in pz_rows)
    eng = statistics.median(eng_us)
    pz_us = statistics.median(t[2] / t[1] * 1e6 for t in pz_rows)
    floor = loop_floor(s.players, s.observation_size, s.num_actions)
    bare = loop_floor(s.players, s.observation_size, s.num_actions, copy=False, choose=False)
    print(
        f"floor: the same AEC loop over a PettingZoo environment that does nothing costs {floor:.1f} us/step "
        f"with the agent's choice and fresh copies of an observation and a mask of these sizes "
        f"({floor * per_action / eng:.2f} of the engine's time per action at this game's {per_action:.2f} steps "
        f"per action), {bare:.1f} us/step for the loop alone, no choice, no copies ({bare * per_action / eng:.2f})"
    )
    budget(s.players, modules, eng, pz_us, per_action, bare, agent)
    breakdown(args.players, modules)


#: the modules the compiled rules kernel plays (alhambra.kernel.KERNEL_MODULES)
KERNEL_MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds"]


def engines(args: Any) -> None:
    """PettingZoo's AEC loop with random legal integers on the kernel (``engine="kernel"``: the
    compiled codec and observer) beside the same loop on Python (``engine="python"``), for the
    base game and for every module the kernel plays: interleaved game by game with the same
    seeds (the same games: both engines play alike), each game timed whole in CPU time; prints
    CPU us per step of each and the speed ratio, median over rounds [lowest, highest]."""
    print(
        f"python {sys.version.split()[0]}, alhambra {alhambra.__version__}, {args.players} players; PettingZoo AEC loop, "
        f"random legal integers; {args.rounds} rounds of about {2 * args.seconds:g}s CPU time per configuration"
    )
    print(f"{'modules':<60}{'games':>7}{'python us/step':>16}{'kernel us/step':>16}{'speed-up':>22}")
    clock = time.process_time
    for modules in ([], KERNEL_MODULES):
        envs = {e: alhambra_v0.env(players=args.players, modules=modules, engine=e) for e in ("python", "kernel")}
        assert envs["kernel"].unwrapped.session.engine == "kernel", "the kernel does not play this configuration"
        for env in envs.values():  # warm the caches shared between games
            start, seed = clock(), 10_000
            while clock() - start < args.warmup / 2:
                pettingzoo_game(env, seed)
                seed += 1
        seed, games, ratios, per = 0, 0, [], {e: [0.0, 0] for e in envs}
        for _r in range(args.rounds):
            totals = {e: [0.0, 0] for e in envs}  # seconds, steps
            while sum(t[0] for t in totals.values()) < 2 * args.seconds:
                order = list(envs) if seed % 2 else list(envs)[::-1]
                for e in order:
                    t0 = clock()
                    steps, _actions = pettingzoo_game(envs[e], seed)
                    totals[e][0] += clock() - t0
                    totals[e][1] += steps
                seed += 1
                games += 1
            us = {e: t[0] / t[1] * 1e6 for e, t in totals.items()}
            ratios.append(us["python"] / us["kernel"])
            for e, t in totals.items():
                per[e][0] += t[0]
                per[e][1] += t[1]
        py, k = (per[e][0] / per[e][1] * 1e6 for e in ("python", "kernel"))
        ratio = f"{statistics.median(ratios):.2f}x [{min(ratios):.2f}, {max(ratios):.2f}]"
        print(f"{','.join(modules) or 'none':<60}{games:>7}{py:>16.1f}{k:>16.1f}{ratio:>22}")


def openspiel(args: Any) -> None:
    """OpenSpiel's ``python_alhambra`` on each engine (the game parameter ``engine``), for the
    base game and every module the kernel plays: CPU us per call of ``observation_tensor(p)``
    and ``information_state_tensor(p)`` (every seat, over the states of a random game, one state
    every 10 moves, chance nodes included), then OpenSpiel's own ``rl_environment`` stepped with
    random legal actions (its observations are every seat's information-state tensor at every
    step; its chance nodes are sampled inside the step), in steps per second of CPU time, the
    engines interleaved game by game with the same seeds; and the ratios."""
    import pyspiel
    from open_spiel.python import rl_environment

    import alhambra.env.openspiel  # noqa: F401  (registers python_alhambra)

    print(
        f"python {sys.version.split()[0]}, alhambra {alhambra.__version__}, {args.players} players; OpenSpiel "
        f"python_alhambra: tensors over the states of one random game, rl_environment with random legal actions "
        f"for about {args.seconds:g}s CPU time per engine and configuration"
    )
    print(
        f"{'modules':<60}{'engine':>8}{'obs us':>9}{'info us':>9}{'rl steps/s':>12}{'us/step':>9}"
        f"{'games':>7}{'on kernel':>11}"
    )
    clock = time.process_time
    engines = ("python", "kernel")
    for modules in ([], KERNEL_MODULES):
        params = {"players": args.players, "modules": "+".join(modules)}
        games = {e: pyspiel.load_game("python_alhambra", {**params, "engine": e}) for e in engines}
        tensors: dict[str, tuple[float, float, bool]] = {}
        for e, game in games.items():
            rng = random.Random(1)
            state, states, n = game.new_initial_state(), [], 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(pyspiel.sample_action(state.chance_outcomes(), rng.random())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                n += 1
                if n % 10 == 0:
                    states.append(state.clone())
            kept = all(s.session.on_kernel for s in states)
            per = []
            for name in ("observation_tensor", "information_state_tensor"):
                calls, start = 0, clock()
                while clock() - start < args.seconds / 4:
                    for s in states:
                        f = getattr(s, name)
                        for p in range(args.players):
                            f(p)
                        calls += args.players
                per.append((clock() - start) / calls * 1e6)
            tensors[e] = (per[0], per[1], kept)
        envs = {e: rl_environment.Environment(games[e]) for e in engines}
        totals = {e: [0.0, 0, 0] for e in engines}  # seconds, steps, games
        seed = 0
        while sum(t[0] for t in totals.values()) < args.seconds * len(engines):
            for e in engines if seed % 2 else engines[::-1]:
                env, rng = envs[e], random.Random(seed)
                t0 = clock()
                step = env.reset()
                steps = 0
                while not step.last():
                    p = step.observations["current_player"]
                    step = env.step([rng.choice(step.observations["legal_actions"][p])])
                    steps += 1
                totals[e][0] += clock() - t0
                totals[e][1] += steps
                totals[e][2] += 1
            seed += 1
        for e in engines:
            obs_us, info_us, kept = tensors[e]
            secs, steps, n_games = totals[e]
            print(
                f"{','.join(modules) or 'none':<60}{e:>8}{obs_us:>9.1f}{info_us:>9.1f}{steps / secs:>12.0f}"
                f"{secs / steps * 1e6:>9.0f}{n_games:>7}{'yes' if e == 'kernel' and kept else 'no':>11}"
            )
        (po, pi, _), (ko, ki, _) = tensors["python"], tensors["kernel"]
        rates = {e: totals[e][1] / totals[e][0] for e in engines}
        print(
            f"{'':<60}{'ratio':>8}{po / ko:>8.1f}x{pi / ki:>8.1f}x{rates['kernel'] / rates['python']:>11.2f}x"
            "  (python / kernel us; kernel / python steps/s)"
        )


def loop_floor(
    players: int, size: int, num_actions: int, steps: int = 20_000, copy: bool = True, choose: bool = True
) -> float:
    """CPU us per step of the benchmark's AEC loop (``agent_iter``, ``last``, a random legal
    integer of the mask, ``step``) over a PettingZoo environment in the same wrapper whose
    ``observe`` only copies a ready observation and mask of the given sizes and whose ``step``
    only passes the turn: what PettingZoo's loop costs before the environment does any work.
    ``copy=False``: the same arrays are handed out, not even copied; ``choose=False``: the
    agent takes integer 0 without reading the mask (the loop alone, no agent's choice)."""
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
            if copy:
                return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}
            return {"observation": self.obs, "action_mask": self.mask}

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
    if choose:
        done = aec_loop(env, random.Random(0))
    else:
        done = 0
        for _agent in env.agent_iter():
            _obs, _reward, term, trunc, _info = env.last()
            env.step(None if term or trunc else 0)
            done += 1
    return (time.process_time() - t0) / done * 1e6


def budget(
    players: int, modules: list[str], eng: float, pz_us: float, per_action: float, loop: float, agent: float
) -> None:
    """Where the PettingZoo loop's time per engine action goes, and the least any layer must
    spend. ``eng`` and ``pz_us``: the engine's and the PettingZoo loop's CPU us per engine
    action (medians of the rounds); ``per_action``: its steps per action; ``loop`` and
    ``agent``: the do-nothing loop's (no copies) and the agent's choice's us per step.

    The environment's parts are timed per state over replayed random games (CPU time, each
    part over all the states at once, caches warm as in a long run): the legal integers
    (``Decision``: one look-up per legal action, the least a layer over ``legal_actions()``
    must do), the mask, the observation (``Session.observe``, kept up to date and copied out,
    once per step). The engine's slowdown inside the environment's loop is its
    ``legal_actions()`` and ``apply()`` timed there and in its own loop
    (``time.perf_counter`` around each call, the same in both: wall-clock, so noisy on a busy
    machine); presumably the environment's work between them evicts the engine's data from the
    CPU caches (not measured). "Other" is a remainder, the PettingZoo loop's time less the rows
    above: the sub-decisions, the environment's ``step`` and ``observe`` calls and their
    bookkeeping, and every other row's error (the parts timed on their own run with warmer
    caches than inside the loop)."""
    from alhambra import Game
    from alhambra.env import Decision, Session

    s = Session(players, modules, engine="python")
    played = random_games(s, 4)
    decision = replayed(s, played, lambda g, legal: Decision(s.codec, legal, g).legal_tuple(), passes=2)
    mask = replayed(s, played, lambda g, legal: s.mask_of(Decision(s.codec, legal, g)), passes=2) - decision
    steps = max(1, round(per_action))
    observe = replayed(s, played, lambda g, legal: [s.observe(g.current_player) for _ in range(steps)], passes=2)
    observe *= per_action / steps  # one observation per step

    spent = [0.0]
    originals = (Game.legal_actions, Game.apply)

    def timed(f: Any) -> Any:
        def wrapper(*a: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return f(*a)
            finally:
                spent[0] += time.perf_counter() - t0

        return wrapper

    def engine_us(play: Any, seeds: range) -> float:
        spent[0], actions = 0.0, 0
        for seed in seeds:
            actions += play(seed)
        return spent[0] / actions * 1e6

    env = alhambra_v0.env(players=players, modules=modules, engine="python")
    Game.legal_actions, Game.apply = timed(originals[0]), timed(originals[1])  # type: ignore[method-assign]
    try:
        in_env = own = 0.0
        for _round in range(2):  # the first round warms
            own = engine_us(lambda seed: engine_game(players, modules, seed)[1], range(30_000, 30_020))
            in_env = engine_us(lambda seed: pettingzoo_game(env, seed)[1], range(30_000, 30_020))
    finally:
        Game.legal_actions, Game.apply = originals  # type: ignore[method-assign]
    slower = (in_env - own) / own * eng  # as a share of the engine's untimed time
    agent_a, loop_a = agent * per_action, loop * per_action
    rows = [
        ("the engine's slowdown inside the environment's loop (wall-clock)", slower),
        ("the agent's choice (the benchmark's, not the environment's)", agent_a),
        ("PettingZoo's bare loop, do-nothing env (no choice, no copies)", loop_a),
        ("legal integers (Decision of legal_actions())", decision),
        ("mask", mask),
        ("observation (kept up to date, copied out at every step)", observe),
    ]
    rows.append(("other: the remainder (sub-steps, calls, the rows' error)", pz_us - eng - sum(v for _k, v in rows)))
    print(f"budget of the PettingZoo loop per engine action beyond the engine's own {eng:.1f} us (us, share of it):")
    for name, us in rows:
        print(f"  {name:<66}{us:>6.1f}  {us / eng:>5.2f}")
    least = loop_a + decision
    free = free_observation_cost(players, modules)
    print(
        f"  with the observation free (Session.observe handing out a copy of a ready vector, no work), the "
        f"PettingZoo loop still costs {free[0]:.2f} of the engine's time per action beyond the engine's own "
        f"({free[1]:.2f} without the agent's choice; 20 games, one pass: noisier than the table)"
    )
    print(
        f"  the least a Python layer over legal_actions() spends, the do-nothing loop and the legal integers: "
        f"{least:.1f} us = {least / eng:.2f} of the engine's time (budget: 0.50), before any observation"
    )


def free_observation_cost(players: int, modules: list[str], games: int = 20) -> tuple[float, float]:
    """The PettingZoo loop's env cost (as in the table: with, then without the agent's
    choice) when ``Session.observe`` does no work at all (returns a copy of a ready zero
    vector): engine games and such PettingZoo games interleaved, the same seeds."""
    from alhambra.env import session

    env = alhambra_v0.env(players=players, modules=modules, engine="python")
    ready = np.zeros(env.unwrapped.session.observation_size, dtype=np.float32)
    original = session.Session.observe
    session.Session.observe = lambda self, seat: ready.copy()  # type: ignore[method-assign]
    clock = time.process_time
    try:
        masks = pettingzoo_masks(env, range(40_000, 40_002))
        agent = agent_choice(masks, random.Random(1))
        eng = pz = 0.0
        eng_actions = pz_actions = pz_steps = 0
        for seed in range(40_100, 40_100 + games):
            t0 = clock()
            eng_actions += engine_game(players, modules, seed)[1]
            t1 = clock()
            steps, actions = pettingzoo_game(env, seed)
            t2 = clock()
            eng += t1 - t0
            pz += t2 - t1
            pz_steps += steps
            pz_actions += actions
    finally:
        session.Session.observe = original  # type: ignore[method-assign]
    e = eng / eng_actions
    with_agent = (pz / pz_actions - e) / e
    without = ((pz - agent * 1e-6 * pz_steps) / pz_actions - e) / e
    return with_agent, without


def breakdown(players: int, modules: list[str], games: int = 4) -> None:
    """Where an environment step's time goes, per state of random games (CPU time, each part
    timed over all the states at once): the reference observation (the seat's view, then its
    encoding), the observation the environments use (kept up to date from the state,
    ``Session.observe``: for the player to move at every state, as the PettingZoo loop asks,
    and for one seat at its own turns only, as the Gymnasium learner), the mask (warm: the
    codes of actions met before are kept, as in a long run)."""
    from alhambra.env import Decision, Session

    s = Session(players, modules, engine="python")
    states: list[Any] = []
    played = random_games(s, games, states)
    clock = time.process_time

    def per_state(fn) -> float:
        t0 = clock()
        for g in states:
            fn(g)
        return (clock() - t0) / len(states) * 1e6

    views = [g.view(g.current_player) for g in states]
    t0 = clock()
    for v in views:
        s.encoder.encode(v)
    encode = (clock() - t0) / len(views) * 1e6
    view = per_state(lambda g: g.view(g.current_player))
    mover = replayed(s, played, lambda g, legal: s.observe(g.current_player))
    one = replayed(s, played, lambda g, legal: s.observe(0) if g.current_player == 0 else None)
    learner = sum(1 for g in states if g.current_player == 0)
    per_state(lambda g: s.mask_of(Decision(s.codec, g.legal_actions(), g)))  # the codes' cache warms up
    mask = per_state(lambda g: s.mask_of(Decision(s.codec, g.legal_actions(), g)))
    print(
        f"per state ({len(states)} states of {games} games): reference observation: view(seat) {view:.1f} us "
        f"+ encoding it {encode:.1f} us; kept up to date: {mover:.1f} us for the player to move at every state, "
        f"{one * len(states) / learner:.1f} us for one seat at its own turns; the mask (codes of the listed legal "
        f"actions) {mask:.1f} us"
    )


if __name__ == "__main__":
    main()
