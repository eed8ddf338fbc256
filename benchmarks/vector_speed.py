"""Batched environment speed: ``alhambra.env.vector_env`` on the kernel against the single
Gymnasium environment on the Python engine (``engine="python"``, the environments as they ran
before the kernel), in steps per second per core, with random and with greedy opponents.

    python benchmarks/vector_speed.py                    # about a minute
    python benchmarks/vector_speed.py --players 4 --modules vizier,bonus_cards --num-envs 256
    python benchmarks/vector_speed.py --modules building_huts --opponents random

A step is one learner integer (the opponents' whole turns included). Both loops choose a random
legal integer from the masks; the batch's choice is one vectorised numpy expression over the
masks (``argmax`` of uniform noise times the mask). Times are CPU times of this process
(``time.process_time``), so steps/s per core: the batch runs in one thread. ``env`` counts only
the time inside ``step``; ``loop`` includes the choice of the actions.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from alhambra.env.gym_env import AlhambraEnv
from alhambra.env.vector import KernelVectorEnv, vector_env


def single_speed(players: int, modules: str, opponents: list[str], seconds: float, engine: str) -> tuple[float, float]:
    """(steps/s inside ``step``, steps/s of the whole loop) of one single environment."""
    env = AlhambraEnv(players=players, modules=modules, opponents=opponents, engine=engine)
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    steps, in_env = 0, 0.0
    start = time.process_time()
    while time.process_time() - start < seconds:
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        t = time.process_time()
        obs, _, term, trunc, _ = env.step(a)
        if term or trunc:
            obs, _ = env.reset()
        in_env += time.process_time() - t
        steps += 1
    total = time.process_time() - start
    return steps / in_env, steps / total


def batch_speed(
    players: int, modules: str, opponents: list[str], seconds: float, num_envs: int
) -> tuple[float, float, int]:
    """(steps/s inside ``step``, steps/s of the whole loop, episodes ended) of the batch."""
    envs = vector_env(num_envs, players=players, modules=modules, opponents=opponents, seed=0, copy=False)
    assert isinstance(envs, KernelVectorEnv), "the batch does not run on the kernel here"
    rng = np.random.default_rng(0)
    obs, _ = envs.reset()
    steps, in_env, episodes = 0, 0.0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        mask = obs["action_mask"]
        # a random legal integer per game (a game being reset has an all-zero mask: any integer)
        a = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
        t = time.process_time()
        obs, _, term, trunc, _ = envs.step(a)
        in_env += time.process_time() - t
        episodes += int(term.sum() + trunc.sum())
        steps += num_envs
    total = time.process_time() - start
    return steps / in_env, steps / total, episodes


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--modules", default="")
    p.add_argument("--num-envs", type=int, default=256)
    p.add_argument("--seconds", type=float, default=8.0, help="CPU seconds per contender")
    p.add_argument(
        "--opponents",
        default="random,greedy",
        help="the opponents' kinds to measure, comma-separated (the kernel's greedy bot plays no building huts)",
    )
    args = p.parse_args()
    print(
        f"players {args.players}, modules [{args.modules}], batch of {args.num_envs}; "
        f"steps/s per core (CPU time), env = inside step only, loop = with the random choice"
    )
    print(
        f"{'opponents':<10} {'single (python) env/loop':>26} {'batch (kernel) env/loop':>26} {'speed-up env/loop':>20}"
    )
    for kind in args.opponents.split(","):
        opponents = [kind] * (args.players - 1)
        s_env, s_loop = single_speed(args.players, args.modules, opponents, args.seconds, "python")
        b_env, b_loop, eps = batch_speed(args.players, args.modules, opponents, args.seconds, args.num_envs)
        print(
            f"{kind:<10} {s_env:>12,.0f} {s_loop:>12,.0f}  {b_env:>12,.0f} {b_loop:>12,.0f}  "
            f"{b_env / s_env:>8.1f}x {b_loop / s_loop:>8.1f}x   ({eps} batch episodes)"
        )


if __name__ == "__main__":
    main()
