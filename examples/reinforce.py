"""Train a small masked policy with numpy alone: REINFORCE on a linear softmax.

    pip install -e ".[rl]"
    python examples/reinforce.py                      # about three minutes
    python examples/reinforce.py --minutes 10 --players 3

The learner plays seat 0 of ``alhambra/Alhambra-v0`` against random bots. Its policy is a
softmax over the legal integers (the action mask) of ``W @ features + b``, where the
features are a compact summary of the observation vector: every slice except the Alhambras,
plus each Alhambra's tile planes summed over its cell slots (so 12 numbers per player instead
of 15 per slot). The reward is the share of the victory at the end of the game (R-END-4); the
update is REINFORCE with a running-mean baseline. Prints the win rate against random players
before and after training (greedy evaluation: the most likely legal integer).
"""

from __future__ import annotations

import argparse
import time

import alhambra.env  # noqa: F401  (registers alhambra/Alhambra-v0)
import gymnasium
import numpy as np


class LinearPolicy:
    """Masked linear softmax policy over the environment's integers."""

    def __init__(self, env: gymnasium.Env, rng: np.random.Generator) -> None:
        enc = env.unwrapped.session.encoder
        self.cities = enc.slices["cities"]
        self.players = enc.num_players
        keep = np.ones(enc.size, dtype=bool)
        keep[self.cities] = False
        self.keep = keep
        self.scale = 1.0 / np.maximum(enc.high()[keep], 1.0)
        n_features = int(keep.sum()) + self.players * 12 + 1
        n_actions = env.action_space.n
        self.W = rng.normal(0.0, 0.01, (n_actions, n_features))
        self.b = np.zeros(n_actions)
        self.rng = rng

    def features(self, obs: np.ndarray) -> np.ndarray:
        # per Alhambra: its tiles' 12 planes summed over the cell slots (after slot, x, y)
        planes = obs[self.cities].reshape(self.players, -1, 15)[:, :, 3:].sum(axis=1) / 20.0
        return np.concatenate([obs[self.keep] * self.scale, planes.ravel(), [1.0]])

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        legal = np.flatnonzero(mask)
        logits = self.W[legal] @ x + self.b[legal]
        p = np.exp(logits - logits.max())
        return legal, p / p.sum()

    def act(self, obs: dict[str, np.ndarray], greedy: bool = False) -> tuple[int, tuple]:
        x = self.features(obs["observation"])
        legal, p = self.probabilities(x, obs["action_mask"])
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[k]), (x, legal, p, k)

    def update(self, trace: list[tuple], advantage: float, lr: float) -> None:
        for x, legal, p, k in trace:
            grad = -p
            grad[k] += 1.0  # d log softmax / d logits, over the legal integers
            self.W[legal] += lr * advantage * np.outer(grad, x)
            self.b[legal] += lr * advantage * grad


def play(env: gymnasium.Env, policy: LinearPolicy, seed: int, greedy: bool) -> tuple[float, list[tuple]]:
    obs, _info = env.reset(seed=seed)
    trace, done, reward = [], False, 0.0
    while not done:
        action, step = policy.act(obs, greedy)
        if len(step[1]) > 1:
            trace.append(step)
        obs, reward, done, _truncated, _info = env.step(action)
    return float(reward), trace


def win_rate(env: gymnasium.Env, policy: LinearPolicy, games: int, seed0: int) -> float:
    return sum(play(env, policy, seed0 + g, greedy=True)[0] for g in range(games)) / games


def main() -> None:
    ap = argparse.ArgumentParser(description="REINFORCE with a masked linear softmax, numpy only")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--modules", default="")
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--eval-games", type=int, default=60)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    env = gymnasium.make("alhambra/Alhambra-v0", players=args.players, modules=args.modules)
    rng = np.random.default_rng(args.seed)
    policy = LinearPolicy(env, rng)
    fair = 1.0 / args.players
    before = win_rate(env, policy, args.eval_games, 1_000_000)
    print(
        f"before training: share of victories {before:.3f} against {args.players - 1} random players "
        f"(an equal share is {fair:.3f})"
    )
    start, games, baseline = time.monotonic(), 0, fair
    while time.monotonic() - start < args.minutes * 60:
        reward, trace = play(env, policy, args.seed * 100_000 + games, greedy=False)
        policy.update(trace, reward - baseline, args.lr)
        baseline += 0.05 * (reward - baseline)
        games += 1
        if games % 50 == 0:
            print(f"  {games} games, running mean reward {baseline:.3f}")
    after = win_rate(env, policy, args.eval_games, 1_000_000)
    print(f"after {games} training games ({args.minutes:g} min): share of victories {after:.3f}")


if __name__ == "__main__":
    main()
