"""Tune the greedy heuristic's weights (and the search bot's parameters) with Optuna.

The objective of a trial is the win share of one bot built from the trial's values against
``players - 1`` default greedy bots, over ``--seeds`` seeds each played in every seat
(rotated, so the seat does not count), on the base game unless ``--modules`` says otherwise.
Optuna's TPE sampler is seeded (``--sampler-seed``), so the same arguments give the same
study. The best trial is then played on *fresh* seeds (``--check-seeds`` from
``--check-from``), where its win share is reported with its Wilson interval: the tuning seeds
flatter it (the winner of many noisy trials is chosen partly by luck).

    nice -n 10 python benchmarks/tune_bot.py --what greedy --trials 40 --seeds 20 --players 4
    nice -n 10 python benchmarks/tune_bot.py --what search --trials 12 --seeds 10 --players 4

It prints every trial, the best values as a ``Weights(...)`` / parameter list to paste into
``alhambra/bots/evaluate.py`` (``TUNED_WEIGHTS``) or ``alhambra/bots/search.py``, and the check.
One process, no workers: the machine is shared.
"""

from __future__ import annotations

import alhambra
import argparse
import sys
import time
from typing import Any

from alhambra import new_game
from alhambra.bots import GreedyBot, make_bot
from alhambra.bots.evaluate import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Weights
from alhambra.saving.config import expand_module_names, parse_module_list
from alhambra.lab.stats import wilson
from alhambra.simulate import bot_seed, play
from attrs import fields

#: Weights tuned, with their search ranges (low, high, log scale?).
RANGES: dict[str, tuple[float, float, bool]] = {
    "coin_start": (0.2, 2.0, True),
    "coin_end": (0.02, 0.5, True),
    "afford_exact": (0.1, 1.2, True),
    "afford_pay": (0.05, 0.8, True),
    "afford_part": (0.05, 0.8, True),
    "extra_action": (0.2, 4.0, True),
    "extra_coins": (1.0, 10.0, True),
    "reserve_share": (0.1, 0.8, False),
    "reserve_penalty": (0.2, 4.0, True),
    "per_building": (0.05, 1.5, True),
    "later_scoring": (0.4, 1.0, False),
    "smooth": (0.0, 0.5, False),
    "compact": (0.0, 0.6, False),
    "closed": (3.0, 30.0, True),
    "redesign": (0.1, 2.0, True),
    "end_push": (0.5, 6.0, True),
    "vizier": (0.5, 6.0, True),
    "office": (0.5, 5.0, True),
}


def win_share(
    make_candidate, seeds: range, players: int, modules: list[str], opponent: Any = None
) -> tuple[float, int]:
    """Total win share of the candidate over ``seeds`` x every seat, and the games played."""
    total = 0.0
    games = 0
    for seed in seeds:
        for seat in range(players):
            bots = [opponent(bot_seed(seed, s)) if opponent else GreedyBot(bot_seed(seed, s)) for s in range(players)]
            bots[seat] = make_candidate(bot_seed(seed, seat))
            game = play(new_game(players, modules=modules, seed=seed), bots)
            total += alhambra.returns(game)[seat]
            games += 1
    return total, games


def weights_of(values: dict[str, Any], base: Weights = DEFAULT_WEIGHTS) -> Weights:
    from attrs import evolve

    return evolve(base, **values)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--what",
        choices=("greedy", "search"),
        default="greedy",
        help="greedy: tune the heuristic's weights; search: the search bot's parameters",
    )
    p.add_argument("--trials", type=int, default=40)
    p.add_argument("--seeds", type=int, default=20, help="seeds per trial (each played in every seat)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--modules", default="", help="comma-separated module names, or 'all'")
    p.add_argument("--seed", type=int, default=10_000, help="first tuning seed")
    p.add_argument("--sampler-seed", type=int, default=1)
    p.add_argument("--check-seeds", type=int, default=50, help="fresh seeds for the check of the best trial")
    p.add_argument("--check-from", type=int, default=50_000)
    p.add_argument(
        "--start",
        choices=("default", "tuned"),
        default="default",
        help="weights enqueued as the first trial (greedy) and used by the search bot",
    )
    args = p.parse_args(argv)
    try:
        import optuna
    except ImportError:
        raise SystemExit("tuning needs optuna: pip install 'alhambra-engine[lab]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    modules = expand_module_names(parse_module_list(args.modules))
    seeds = range(args.seed, args.seed + args.seeds)
    base = TUNED_WEIGHTS if args.start == "tuned" else DEFAULT_WEIGHTS
    names = {f.name for f in fields(Weights)}

    def candidate(trial: Any):
        if args.what == "greedy":
            values = {}
            for k, (lo, hi, log) in RANGES.items():
                values[k] = trial.suggest_float(k, lo, hi, log=log)
            w = weights_of(values)
            return lambda s: GreedyBot(s, weights=w)
        params = {
            "iterations": trial.suggest_int("iterations", 8, 64, log=True),
            "top_k": trial.suggest_int("top_k", 2, 8),
            "c": trial.suggest_float("c", 0.005, 0.3, log=True),
            "bias": trial.suggest_float("bias", 0.0, 0.5),
            "scale": trial.suggest_float("scale", 4.0, 30.0, log=True),
            "horizon": trial.suggest_int("horizon", 1, 3),
            "anchor": trial.suggest_float("anchor", 0.0, 0.05),
        }
        return lambda s: make_bot("mcts", s, weights=base, **params)

    def objective(trial: Any) -> float:
        t0 = time.perf_counter()
        total, games = win_share(candidate(trial), seeds, args.players, modules)
        rate = total / games
        print(
            f"trial {trial.number}: win share {rate:.3f} over {games} games ({time.perf_counter() - t0:.0f}s) "
            f"{trial.params}",
            flush=True,
        )
        return rate

    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=args.sampler_seed))
    if args.what == "greedy":
        study.enqueue_trial({k: getattr(base, k) for k in RANGES if k in names})
    else:  # the shipped mcts defaults first, then with more playouts and an anchor on the greedy choice
        study.enqueue_trial(
            {"iterations": 32, "top_k": 6, "c": 0.04, "bias": 0.1, "scale": 12.0, "horizon": 1, "anchor": 0.0}
        )
        study.enqueue_trial(
            {"iterations": 48, "top_k": 4, "c": 0.04, "bias": 0.1, "scale": 12.0, "horizon": 1, "anchor": 0.02}
        )
    study.optimize(objective, n_trials=args.trials)
    best = study.best_trial
    print(f"best trial {best.number}: win share {best.value:.3f} on the tuning seeds")
    if args.what == "greedy":
        w = weights_of(best.params)
        print("TUNED_WEIGHTS = Weights(" + ", ".join(f"{k}={round(v, 4)}" for k, v in best.params.items()) + ")")

        def make(s: int) -> Any:
            return GreedyBot(s, weights=w)
    else:
        print(
            "search parameters: "
            + ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in best.params.items())
        )

        def make(s: int) -> Any:
            return make_bot("mcts", s, weights=base, **best.params)

    if args.check_seeds < 1:
        return 0
    check = range(args.check_from, args.check_from + args.check_seeds)
    total, games = win_share(make, check, args.players, modules)
    rate = wilson(total, games)
    print(
        f"check on {args.check_seeds} fresh seeds x {args.players} seats: win share {rate} over {games} games "
        f"(chance {1 / args.players:.3f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
