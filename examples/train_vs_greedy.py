"""Train an agent against the greedy bot on the batched environment, with numpy alone.

    pip install -e ".[rl]" ./kernel
    python examples/train_vs_greedy.py                   # about five minutes on two cores
    python examples/train_vs_greedy.py --updates 800     # a shorter run
    python examples/train_vs_greedy.py --minutes 10      # train for ten minutes instead

The learner plays a random seat of two-player base games against the greedy bot, 64 games at
a time in ``alhambra.env.vector_env`` (on the compiled kernel where it is installed). Its
policy is a masked softmax over the environment's integers whose logits are a linear function
(one row of weights per integer, started near zero: near-uniform random legal integers) of a
compact summary of the observation: scores, the money of each currency against each market
price and whether the hand pays it exactly, the buildings on offer, each Alhambra's buildings
by type and the learner's lead in each, reserves, the integers chosen so far by segment, ...

It is trained by advantage actor-critic (a linear value, generalised advantage estimates, no
discount, Adam) on the change of the score margin (own points minus the best other player's,
per 100 points) plus the environment's reward, the share of the victory. The evaluation
counts only the share of the victory (a shared victory counts 1/k): before and after training
the policy plays fresh deals (seeds training does not use), one game per slot of a batch,
sampling its integers as in training, and the script prints the share of the victories with
its Wilson 95 % interval (the shares summed as successes) and the mean score margin. A run is
reproducible: the same seed and ``--updates`` give the same figures with the same numpy build
(``--minutes`` trains by the clock, so its figures depend on the machine's speed).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from dataclasses import dataclass
from typing import Any

# one thread for numpy's matrix products: the batches are small, and threads only contend
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

import alhambra.env  # noqa: E402
from alhambra.engine.components import BUILDING_TYPES, MARKET_CURRENCIES  # noqa: E402
from alhambra.env.gym_env import AlhambraEnv  # noqa: E402


class Features:
    """What the policy sees of a batch of observations: a few dozen numbers per game, read from
    the observation's slices (``Features(players)(obs)``)."""

    def __init__(self, players: int) -> None:
        session = AlhambraEnv(players=players, opponents=["greedy"] * (players - 1)).session
        enc, codec, catalog = session.encoder, session.codec, session.game.rules.catalog
        self.players = players
        self.slices, self.shapes = enc.slices, enc.shapes
        self.num_actions = codec.num_actions
        self.first = {name: (start, size) for name, start, size in codec.layout()}
        # a tile's building type; a money card's value in its currency's column
        self.tile_types = np.zeros((len(enc.tiles), len(BUILDING_TYPES)), dtype=np.float32)
        for j, t in enumerate(enc.tiles):
            self.tile_types[j, BUILDING_TYPES.index(catalog[t].type)] = 1.0
        self.card_value = np.zeros((len(enc.cards), len(MARKET_CURRENCIES)), dtype=np.float32)
        for j, c in enumerate(enc.cards):
            self.card_value[j, MARKET_CURRENCIES.index(c.currency)] = c.value
        seg_of = np.zeros(self.num_actions, dtype=np.int64)
        for k, (start, size) in enumerate(self.first.values()):
            seg_of[start : start + size] = k
        self.segment = np.eye(len(self.first), dtype=np.float32)[seg_of]  # (actions, segments)
        self.size = self(np.zeros((1, enc.size), dtype=np.float32)).shape[1]

    def part(self, obs: np.ndarray, name: str) -> np.ndarray:
        return obs[:, self.slices[name]].reshape((obs.shape[0], *self.shapes[name]))

    def money(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(money per currency, market prices, whether each space's price can be paid exactly)."""
        counts = self.part(obs, "hand")  # (b, 36): the 9 values of each currency in turn
        prices = self.part(obs, "market_prices")
        b, top = obs.shape[0], 20  # sums above every building's price are not needed
        reach = np.zeros((b, len(MARKET_CURRENCIES), top + 1), dtype=bool)
        reach[:, :, 0] = True
        per = counts.reshape(b, len(MARKET_CURRENCIES), 9)
        for value in range(1, 10):
            for copy in range(1, int(per[:, :, value - 1].max(initial=0)) + 1):
                has = (per[:, :, value - 1] >= copy)[:, :, None]
                shifted = np.zeros_like(reach)
                shifted[:, :, value:] = reach[:, :, :-value]
                reach |= shifted & has
        price = np.clip(prices.astype(np.int64), 0, top)
        exact = reach[np.arange(b)[:, None], np.arange(len(MARKET_CURRENCIES)), price] & (prices > 0)
        return counts @ self.card_value, prices, exact.astype(np.float32)

    def types(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(each Alhambra's buildings by type, the learner's lead by type over the best other)."""
        cities = self.part(obs, "cities")  # (b, players, slots, 15)
        counts = cities[:, :, :, 4:10].sum(axis=2)
        return counts, counts[:, 0] - counts[:, 1:].max(axis=1)

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        """A compact summary of each observation, ``(b, self.size)``."""
        b = obs.shape[0]
        hand, prices, exact = self.money(obs)
        counts, lead = self.types(obs)
        market = self.part(obs, "market_tiles") @ self.tile_types  # (b, 4 spaces, 6 types)
        short = hand - prices
        scores = self.part(obs, "scores")
        walls = self.part(obs, "cities")[:, :, :, 11:15].sum(axis=(2, 3))
        x = [
            self.part(obs, "phase"),
            scores / 100.0,
            (scores[:, :1] - scores[:, 1:].max(axis=1, keepdims=True)) / 50.0,
            hand / 20.0,
            self.part(obs, "hand").sum(axis=1, keepdims=True) / 10.0,
            self.part(obs, "display") @ self.card_value / 20.0,
            self.part(obs, "deck_size") / 100.0,
            self.part(obs, "bag_size") / 54.0,
            self.part(obs, "scorings_done"),
            prices / 10.0,
            (short >= 0).astype(np.float32),
            exact,
            np.clip(short, -10, 10) / 10.0,
            market.reshape(b, -1),
            (market * lead[:, None, :]).sum(axis=2) / 5.0,
            self.part(obs, "pending") @ self.tile_types,
            self.part(obs, "reserves")[:, 0] @ self.tile_types,
            self.part(obs, "reserves").sum(axis=2) / 5.0,
            counts[:, 0] / 10.0,
            lead / 5.0,
            walls / 20.0,
            self.part(obs, "decision") @ self.segment,
            np.ones((b, 1), dtype=np.float32),
        ]
        if "dirk.tiles" in self.slices:
            x.append(self.part(obs, "dirk.tiles") @ self.tile_types / 10.0)
        return np.concatenate(x, axis=1).astype(np.float32)

    def margin(self, obs: np.ndarray) -> np.ndarray:
        """The learner's points minus the best other player's."""
        scores = self.part(obs, "scores")
        return scores[:, 0] - scores[:, 1:].max(axis=1)


@dataclass
class Step:
    """What one batch step's update needs."""

    x: np.ndarray
    p: np.ndarray
    action: np.ndarray
    live: np.ndarray


class Policy:
    """The masked softmax over the integers (logits ``W @ features``) and the linear value
    ``v @ features``."""

    def __init__(self, features: Features, rng: np.random.Generator) -> None:
        self.f = features
        self.rng = rng
        self.W = rng.normal(0.0, 0.01, (features.num_actions, features.size)).astype(np.float32)
        self.v = np.zeros(features.size, dtype=np.float32)

    def params(self) -> list[np.ndarray]:
        return [self.W, self.v]

    def act(self, obs: dict[str, np.ndarray]) -> tuple[np.ndarray, Step]:
        """One sampled legal integer per game (0 for a game that just ended: it is ignored)."""
        mask = obs["action_mask"] > 0
        live = np.asarray(mask.any(axis=1))
        mask[~live] = True
        x = self.f(obs["observation"])
        logits = x @ self.W.T
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(np.maximum(logits, -60.0)) * mask
        p /= p.sum(axis=1, keepdims=True)
        u = self.rng.random((len(p), 1))
        a = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)
        a = np.where(mask[np.arange(len(a)), a], a, p.argmax(axis=1))  # rounding at the top
        return a, Step(x, p, a, live)


class Adam:
    """Adam, ascending."""

    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.s = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        for p, g, m, s in zip(self.params, grads, self.m, self.s):
            m += 0.1 * (g - m)
            s += 0.001 * (g * g - s)
            p += self.lr * (m / (1 - 0.9**self.t)) / (np.sqrt(s / (1 - 0.999**self.t)) + 1e-8)


def update(
    policy: Policy,
    opt: Adam,
    steps: list[Step],
    rewards: list[np.ndarray],
    ends: list[np.ndarray],
    x_last: np.ndarray,
    lam: float = 0.95,
) -> None:
    """One actor-critic update from a rollout (no discount; a game's end stops the bootstrap)."""
    values = [s.x @ policy.v for s in steps] + [x_last @ policy.v]
    adv = np.zeros((len(steps), len(x_last)), dtype=np.float32)
    last: np.ndarray = np.zeros(len(x_last), dtype=np.float32)
    for t in reversed(range(len(steps))):
        go_on = 1.0 - ends[t]
        last = rewards[t] + values[t + 1] * go_on - values[t] + lam * go_on * last
        adv[t] = last
    live = np.concatenate([s.live for s in steps]).astype(np.float32)
    n = live.sum()
    target = (adv + np.array(values[:-1])).ravel()
    raw = adv.ravel()
    a = (raw - raw[live > 0].mean()) / (raw[live > 0].std() + 1e-6) * live
    p = np.concatenate([s.p for s in steps])
    g = -p
    g[np.arange(len(g)), np.concatenate([s.action for s in steps])] += 1.0
    g *= a[:, None]  # the policy gradient of the logits
    x = np.concatenate([s.x for s in steps])
    grads = [g.T @ x / n]
    grads.append(((target - np.concatenate(values[:-1])) * live) @ x / n)
    opt.step(grads)


def vector(games: int, players: int, seed: int) -> Any:
    """A batch of ``games`` games against greedy bots, the learner in a random seat of each."""
    return alhambra.env.vector_env(
        games, players=players, opponents=["greedy"] * (players - 1), seat="random", seed=seed
    )


def train(
    policy: Policy,
    players: int,
    num_envs: int,
    updates: int,
    seconds: float,
    seed: int,
    lr: float,
    rollout: int = 16,
    log: bool = True,
) -> int:
    """Train for ``updates`` updates (or ``seconds`` where given); the games played."""
    envs = vector(num_envs, players, seed)
    obs, _ = envs.reset()
    opt = Adam(policy.params(), lr)
    start, games, done = time.monotonic(), 0, 0
    shares: list[float] = []
    margins: list[float] = []
    while (time.monotonic() - start < seconds) if seconds else done < updates:
        steps, rewards, ends = [], [], []
        for _ in range(rollout):
            a, step = policy.act(obs)
            before = policy.f.margin(obs["observation"])
            obs, r, term, trunc, _ = envs.step(a)
            end = term | trunc
            m = policy.f.margin(obs["observation"])
            steps.append(step)
            rewards.append(((r + (m - before) / 100.0) * step.live).astype(np.float32))
            ends.append(end.astype(np.float32))
            games += int(end.sum())
            shares += r[end].tolist()
            margins += m[end].tolist()
        update(policy, opt, steps, rewards, ends, policy.f(obs["observation"]))
        done += 1
        if log and done % 100 == 0:
            print(
                f"  {done} updates, {games} games, {time.monotonic() - start:.0f} s: share of victories "
                f"{np.mean(shares):.3f}, score margin {np.mean(margins):+.1f} (the last 100 updates)",
                flush=True,
            )
            shares, margins = [], []
    return games


def evaluate(policy: Policy, players: int, games: int, seed: int) -> tuple[float, float]:
    """(share of the victories, mean score margin) of ``games`` games, one per slot of a batch."""
    envs = vector(games, players, seed)
    obs, _ = envs.reset()
    over = np.zeros(games, dtype=bool)
    shares, margins = np.zeros(games), np.zeros(games)
    while not over.all():
        a, _step = policy.act(obs)
        obs, r, term, trunc, _ = envs.step(a)
        end = (term | trunc) & ~over
        shares[end] = r[end]
        margins[end] = policy.f.margin(obs["observation"][end])
        over |= end
    return float(shares.mean()), float(margins.mean())


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a share of ``n`` games (95 % by default)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def run(
    players: int = 2,
    num_envs: int = 64,
    updates: int = 2500,
    minutes: float = 0.0,
    eval_games: int = 400,
    seed: int = 0,
    lr: float = 0.01,
    log: bool = True,
) -> dict[str, Any]:
    """Evaluate, train, evaluate again; print and return the figures."""
    rng = np.random.default_rng(seed)
    policy = Policy(Features(players), rng)
    # the same fresh deals before and after: training deals from seed, seed + 1, ... and on
    eval_seed = 1_000_000 + 10_000 * seed
    out: dict[str, Any] = {"players": players, "eval_games": eval_games}
    t0 = time.monotonic()

    def report(when: str) -> None:
        share, margin = evaluate(policy, players, eval_games, eval_seed)
        low, high = wilson(share, eval_games)
        out[when] = {"share": share, "interval": (low, high), "margin": margin}
        print(
            f"{when}: share of victories {share:.3f} [{low:.3f}, {high:.3f}] in {eval_games} games against greedy, "
            f"mean score margin {margin:+.1f}",
            flush=True,
        )

    report("before")
    t1 = time.monotonic()
    out["games"] = train(policy, players, num_envs, updates, minutes * 60, seed, lr, log=log)
    out["train_seconds"] = time.monotonic() - t1
    report("after")
    out["seconds"] = time.monotonic() - t0
    (low0, high0), (low1, high1) = out["before"]["interval"], out["after"]["interval"]
    if low1 > high0:
        verdict = "measurably better: the interval after lies above the interval before"
    elif high1 < low0:
        verdict = "measurably worse: the interval after lies below the interval before"
    else:
        verdict = "not measurably different: the intervals overlap"
    print(f"trained on {out['games']} games in {out['train_seconds']:.0f} s ({out['seconds']:.0f} s in all); {verdict}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--updates", type=int, default=2500, help="training updates (default 2500)")
    ap.add_argument("--minutes", type=float, default=0.0, help="train for this many minutes instead")
    ap.add_argument("--num-envs", type=int, default=64, help="games stepped at once in training")
    ap.add_argument("--eval-games", type=int, default=400, help="games of each evaluation")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    run(args.players, args.num_envs, args.updates, args.minutes, args.eval_games, args.seed, args.lr)


if __name__ == "__main__":
    main()
