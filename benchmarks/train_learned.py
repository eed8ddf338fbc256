"""Train the value network of the ``learned`` bot and write its weights file.

Monte-Carlo regression of game results on position features
(:func:`alhambra.bots.learned.features`), in rounds:

* round 0 plays games of greedy bots (with a little noise, so that positions vary);
* every later round plays the current network (the ``learned`` bot) against greedy bots, the
  learned bot in each seat in turn, and adds those games to the data;
* after each round the network is fitted again to all data so far: the target of a position is
  the result of its seat (half the victory share, half tanh of the final margin over the best
  other seat / 20 points, :func:`alhambra.bots.learned.result_value`); the positions are the
  turn starts of every seat (what the bot values after its one-turn look-ahead), or with
  ``--lookahead 0`` the positions after each decision. First a ridge regression, then
  full-batch Adam steps of it together with a small tanh layer (``--hidden``, 0: linear);
* each round's network plays ``--check`` games per player count on training seeds against
  greedy; the one with the best mean win share over chance is written.

Base game, 2 and 4 players (``--players``), seeds from 1,000,000 + 100,000 x ``--seed`` (the
evaluation of the shipped weights in docs/bots.md uses seeds far from these). Deterministic
for a seed. The shipped ``core/alhambra/bots/learned_weights.npz`` is this command's output::

    nice -n 10 python benchmarks/train_learned.py --seed 1 --out core/alhambra/bots/learned_weights.npz

Its run time on the shared two-core machine is stated in docs/bots.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from alhambra import new_game
from alhambra.bots import make_bot
from alhambra.bots.learned import N_FEATURES, LearnedBot, ValueNet, features, result_value, save_weights
from alhambra.simulate import bot_seed


def play_recorded(game, bots, stride: int, rng: random.Random, at_turns: bool) -> tuple[list, list]:
    """Play ``game`` to the end, recording the features of positions for one seat each:
    ``at_turns``, every ``stride``-th turn start (the turn player about to decide, what the
    bot values after its look-ahead); otherwise every ``stride``-th decision with more than
    one legal action, the position after it for the seat that decided (what the bot values
    with ``lookahead=0``). Returns (feature rows, seats)."""
    rows: list = []
    seats: list = []
    k = rng.randrange(stride)
    last_turn = None
    while not game.is_over:
        st = game.state
        seat = st.decider
        if at_turns and st.phase == "turn" and seat == st.turn_player and st.turn != last_turn:
            last_turn = st.turn
            k += 1
            if k % stride == 0:
                rows.append(features(game, seat))
                seats.append(seat)
        legal = game.legal_actions()
        action = bots[seat].choose(game, seat, legal)
        game.apply(action)
        if not at_turns and len(legal) > 1:
            k += 1
            if k % stride == 0 and not game.is_over:
                rows.append(features(game, seat))
                seats.append(seat)
    return rows, seats


def collect(
    specs_of, games: int, players: int, seed: int, stride: int, rng, net, lookahead: int
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``games`` games of ``players``; ``specs_of(k)`` gives the bot of each seat
    (``"learned"`` uses ``net``). Returns (X, y)."""
    xs: list = []
    ys: list = []
    for k in range(games):
        s = seed + k
        bots = []
        for i, spec in enumerate(specs_of(k)):
            if spec == "learned":
                bots.append(LearnedBot(bot_seed(s, i), net=net, lookahead=lookahead))
            else:
                bots.append(make_bot(spec, bot_seed(s, i)))
        game = new_game(players, seed=s)
        rows, seats = play_recorded(game, bots, stride, rng, at_turns=lookahead > 0)
        xs.extend(rows)
        ys.extend(result_value(game, i) for i in seats)
    return np.array(xs).reshape(-1, N_FEATURES), np.array(ys)


def fit(x: np.ndarray, y: np.ndarray, hidden: int, seed: int, ridge: float = 1e-2, steps: int = 400) -> ValueNet:
    """Ridge regression of ``y`` on standardised ``x``, then ``steps`` Adam steps of a tanh
    layer of ``hidden`` units (and the linear part) on the squared error."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale
    a = np.hstack([z, np.ones((len(z), 1))])
    reg = ridge * len(z) * np.eye(a.shape[1])
    reg[-1, -1] = 0.0
    coef = np.linalg.solve(a.T @ a + reg, a.T @ y)
    lin, b2 = coef[:-1], float(coef[-1])
    f = x.shape[1]
    rs = np.random.default_rng(seed)
    w1 = rs.normal(0.0, 0.3 / np.sqrt(f), (f, hidden))
    b1 = np.zeros(hidden)
    w2 = np.zeros(hidden)
    if hidden:
        params = [lin, np.array([b2]), w1, b1, w2]
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        lr, beta1, beta2 = 3e-3, 0.9, 0.999
        n = len(z)
        for step in range(1, steps + 1):
            lin, b2a, w1, b1, w2 = params
            h = np.tanh(z @ w1 + b1)
            pred = z @ lin + b2a[0] + h @ w2
            err = pred - y
            g_out = 2.0 * err / n
            g_lin = z.T @ g_out + 2 * ridge * lin
            g_b2 = np.array([g_out.sum()])
            g_w2 = h.T @ g_out + 2 * ridge * w2
            g_h = np.outer(g_out, w2) * (1.0 - h * h)
            g_w1 = z.T @ g_h + 2 * ridge * w1
            g_b1 = g_h.sum(axis=0)
            grads = [g_lin, g_b2, g_w1, g_b1, g_w2]
            for i, (p, g) in enumerate(zip(params, grads)):
                m[i] = beta1 * m[i] + (1 - beta1) * g
                v[i] = beta2 * v[i] + (1 - beta2) * g * g
                mh = m[i] / (1 - beta1**step)
                vh = v[i] / (1 - beta2**step)
                p -= lr * mh / (np.sqrt(vh) + 1e-8)
        lin, b2a, w1, b1, w2 = params
        b2 = float(b2a[0])
    return ValueNet(mean, scale, w1, b1, w2, lin, b2)


def win_share(net: ValueNet, players: int, games: int, seed: int, lookahead: int) -> float:
    """Win share of the learned bot with ``net`` against greedy, seats rotated."""
    total = 0.0
    for k in range(games):
        s = seed + k // players
        seat = k % players
        bots = [make_bot("greedy", bot_seed(s, i)) for i in range(players)]
        bots[seat] = LearnedBot(bot_seed(s, seat), net=net, lookahead=lookahead)
        game = new_game(players, seed=s)
        while not game.is_over:
            d = game.state.decider
            game.apply(bots[d].choose(game, d, game.legal_actions()))
        w = game.winners
        total += 1.0 / len(w) if seat in w else 0.0
    return total / games


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="2,4", help="player counts to train on (comma-separated)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds of the learned bot after the greedy round")
    ap.add_argument("--games", type=int, default=100, help="games per player count and round")
    ap.add_argument("--stride", type=int, default=1, help="record every STRIDE-th turn start (or decision)")
    ap.add_argument("--lookahead", type=int, default=1, help="the bot's look-ahead in turns (0: afterstates)")
    ap.add_argument("--hidden", type=int, default=8, help="tanh units (0: linear)")
    ap.add_argument("--check", type=int, default=40, help="games per player count to pick the best round")
    ap.add_argument("--out", default="learned_weights.npz")
    args = ap.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]
    rng = random.Random(args.seed)
    t0, c0 = time.time(), time.process_time()
    base = 1_000_000 + 100_000 * args.seed
    xs, ys = [], []
    net = None
    best = (-1.0, None, -1)
    for rnd in range(args.rounds + 1):
        for p in counts:
            seed = base + 10_000 * rnd + 1000 * p
            if net is None:
                specs = lambda k, p=p: ["greedy:noise=0.3"] * p  # noqa: E731
            else:
                specs = lambda k, p=p: ["learned" if i == k % p else "greedy" for i in range(p)]  # noqa: E731
            x, y = collect(specs, args.games, p, seed, args.stride, rng, net, args.lookahead)
            xs.append(x)
            ys.append(y)
        x_all, y_all = np.vstack(xs), np.concatenate(ys)
        net = fit(x_all, y_all, args.hidden, args.seed + rnd)
        save_weights(f"{args.out}.round{rnd}.npz", net, seed=args.seed, round=rnd)
        shares = [win_share(net, p, args.check, base + 500_000 + 1000 * p, args.lookahead) for p in counts]
        score = float(np.mean([s - 1.0 / p for s, p in zip(shares, counts)]))
        print(
            f"round {rnd}: {len(y_all)} positions, win shares "
            + ", ".join(f"{p}p {s:.3f}" for p, s in zip(counts, shares))
            + f" ({time.time() - t0:.0f} s)",
            flush=True,
        )
        if score > best[0]:
            best = (score, net, rnd)
    _, net, rnd = best
    assert net is not None
    save_weights(
        args.out,
        net,
        seed=args.seed,
        round=rnd,
        lookahead=args.lookahead,
        seconds=round(time.time() - t0),
        cpu_seconds=round(time.process_time() - c0),
    )
    print(
        f"wrote {args.out} (round {rnd}) after {time.time() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
