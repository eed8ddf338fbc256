"""Greedy-driven environment games without error: plays ``--games`` PettingZoo games with the
greedy bot in every seat (its actions played integer by integer through the mask) and as many
Gymnasium games with a greedy learner against greedy bots, and counts the games that finished
and those that raised, with the farthest cell any Alhambra reached and the most cell slots one
used (the action space holds ``codec.slots`` of them).

    python benchmarks/env_any_play.py --games 500 --players 3
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback

from alhambra.bots import make_bot
from alhambra.env import alhambra_v0, city_slots
from alhambra.env.gym_env import AlhambraEnv


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--modules", default="")
    a = ap.parse_args(argv)
    reach = slots = 0
    for name in ("pettingzoo", "gymnasium"):
        done = failed = 0
        t0 = time.process_time()
        env: object
        if name == "pettingzoo":
            env = alhambra_v0.env(players=a.players, modules=a.modules)
        else:
            env = AlhambraEnv(
                players=a.players, modules=a.modules, opponents=["greedy"] * (a.players - 1), seat="random"
            )
        for seed in range(a.games):
            try:
                if name == "pettingzoo":
                    env.reset(seed=seed)
                    raw = env.unwrapped
                    bots = [make_bot("greedy", seed=seed * 7 + k) for k in range(a.players)]
                    queue: list[int] = []
                    for agent in env.agent_iter():
                        obs, _r, term, trunc, _i = env.last()
                        if term or trunc:
                            env.step(None)
                            continue
                        if not queue:
                            g, seat = raw.session.game, raw._seat[agent]
                            queue = list(raw.session.encode(bots[seat].choose(g, seat, g.legal_actions())))
                        env.step(queue.pop(0))
                    game = raw.session.game
                else:
                    obs, _ = env.reset(seed=seed)
                    bot = make_bot("greedy", seed=seed)
                    over = False
                    while not over:
                        g = env.session.game
                        for i in env.session.encode(bot.choose(g, env.seat, g.legal_actions())):
                            obs, _r, term, trunc, _i = env.step(i)
                            over = term or trunc
                    game = env.session.game
                assert game.is_over
                for p in game.state.players:
                    reach = max(reach, max(max(abs(x), abs(y)) for x, y in p.city))
                    slots = max(slots, len(city_slots(p.city)))
                done += 1
            except Exception:
                failed += 1
                traceback.print_exc()
        cpu = time.process_time() - t0
        print(f"{name}: {done} of {a.games} greedy-driven games finished, {failed} raised ({cpu:.0f}s CPU)")
    codec = env.session.codec  # type: ignore[attr-defined]
    print(f"farthest cell from a fountain: {reach}; most cell slots of one Alhambra: {slots} of {codec.slots}")
    print(f"actions: {codec.num_actions}; observation: {env.session.observation_size} floats")  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main())
