"""Fingerprint of seeded random games: the engine's behaviour as one record per game.

Every module combination (16), 2-6 players, a few seeds: each game is played with uniformly
random legal actions drawn from its own seeded generator. A game's digest is the SHA-256 of,
per step, the seat to decide, the phase, the number of legal actions and the action chosen
(so the order of the listing counts too), then the final scores and winners. The same seed,
modules and actions must give the same game across any refactoring of the engine.

    python benchmarks/fingerprint.py --record   # write tests/data/fingerprint.json
    python benchmarks/fingerprint.py --check    # compare, print the games that differ

``tests/test_fingerprint.py`` checks a subset of the record on every test run.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import sys
from pathlib import Path

import alhambra

MODULES = ("vizier", "building_huts", "bonus_cards", "exchange_offices")
COMBINATIONS = [c for k in range(len(MODULES) + 1) for c in itertools.combinations(MODULES, k)]
PLAYERS = (2, 3, 4, 5, 6)
SEEDS = (11, 12, 13, 14)
RECORD = Path(__file__).resolve().parent.parent / "tests" / "data" / "fingerprint.json"
SAVES = RECORD.parent / "saves"
ALL = list(MODULES)

#: The saves written by the pre-redesign engine (``--record-saves``, run once on commit
#: 6c2c9d1): name -> (players, modules, seed, wanted: a phase and placement context to stop
#: at, or "any" to stop after ``steps`` actions).
SAVE_SPECS: dict[str, tuple[int, list[str], int, str, int]] = {
    "base-3p-turn": (3, [], 21, "any", 60),
    "all-4p-turn": (4, ALL, 22, "any", 150),
    "all-5p-vizier": (5, ALL, 23, "vizier:", 40),
    "all-3p-vizier-place": (3, ALL, 24, "place:vizier", 40),
    "all-6p-place": (6, ALL, 25, "place:turn", 100),
    "all-4p-distribution": (4, ALL, 26, "place:distribution", 0),
    "huts-offices-2p-dirk": (2, ["building_huts", "exchange_offices"], 27, "place:turn", 80),
    "bonus-4p-over": (4, ["bonus_cards"], 28, "over:", 0),
}


def game_key(modules: tuple[str, ...], players: int, seed: int) -> str:
    """The record's key of one game: ``"vizier+bonus_cards/4p/seed12"`` (``base`` for none)."""
    return f"{'+'.join(modules) or 'base'}/{players}p/seed{seed}"


def play_digest(modules: tuple[str, ...], players: int, seed: int) -> dict[str, object]:
    """Play one seeded random game; return ``{"digest": hex, "steps": int, "scores": [...]}``.

    The game is ``new_game(players, modules=modules, seed=seed)``; actions are chosen with
    ``random.Random(seed * 7919 + players)`` from ``legal_actions()`` in the listed order."""
    game = alhambra.new_game(players, modules=list(modules), seed=seed)
    rng = random.Random(seed * 7919 + players)
    h = hashlib.sha256()
    steps = 0
    while not game.is_over:
        legal = game.legal_actions()
        action = rng.choice(legal)
        h.update(f"{game.current_player}|{game.phase}|{len(legal)}|{action!r}\n".encode())
        game.apply(action)
        steps += 1
    h.update(f"scores={list(game.scores)} winners={list(game.winners)}".encode())
    return {"digest": h.hexdigest(), "steps": steps, "scores": list(game.scores)}


def all_keys() -> list[tuple[tuple[str, ...], int, int]]:
    """Every game of the fingerprint: (modules, players, seed)."""
    return [(m, p, s) for m in COMBINATIONS for p in PLAYERS for s in SEEDS]


def compute(games: list[tuple[tuple[str, ...], int, int]] | None = None) -> dict[str, dict[str, object]]:
    """The digests of ``games`` (default: all of them), keyed by :func:`game_key`."""
    return {game_key(*g): play_digest(*g) for g in (games if games is not None else all_keys())}


def continue_digest(game: alhambra.Game, seed: int) -> str:
    """Go on playing ``game`` with random actions from ``random.Random(seed)`` until it ends;
    the SHA-256 of every step (as in :func:`play_digest`) and the final scores and winners."""
    rng = random.Random(seed)
    h = hashlib.sha256()
    while not game.is_over:
        legal = game.legal_actions()
        action = rng.choice(legal)
        h.update(f"{game.current_player}|{game.phase}|{len(legal)}|{action!r}\n".encode())
        game.apply(action)
    h.update(f"scores={list(game.scores)} winners={list(game.winners)}".encode())
    return h.hexdigest()


def _stop_here(game: alhambra.Game, wanted: str, steps: int, done: int) -> bool:
    if wanted == "any":
        return done >= steps
    phase, _, context = wanted.partition(":")
    return done >= steps and game.phase == phase and (not context or game.state.place_context == context)


def record_saves() -> None:
    """Write ``tests/data/saves/<name>.json`` for every :data:`SAVE_SPECS` entry and
    ``continuations.json`` (name -> :func:`continue_digest` with seed 5). Only meaningful with
    the engine the saves are meant to come from (the pre-redesign one)."""
    SAVES.mkdir(parents=True, exist_ok=True)
    digests = {}
    for name, (players, modules, seed, wanted, steps) in SAVE_SPECS.items():
        for attempt in range(200):
            game = alhambra.new_game(players, modules=modules, seed=seed + 1000 * attempt)
            rng = random.Random(seed + attempt)
            done = 0
            while not _stop_here(game, wanted, steps, done) and not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
                done += 1
            if _stop_here(game, wanted, steps, done):
                break
        else:
            raise SystemExit(f"no game reached {wanted} for {name}")
        (SAVES / f"{name}.json").write_text(game.to_json())
        print(f"{name}: phase {game.phase}, turn {game.state.turn}, context {game.state.place_context!r}")
        digests[name] = continue_digest(game, 5)
    (SAVES / "continuations.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", action="store_true", help=f"write {RECORD}")
    mode.add_argument("--check", action="store_true", help="compare with the record")
    mode.add_argument("--record-saves", action="store_true", help=f"write the saves in {SAVES} (pre-redesign only)")
    args = parser.parse_args(argv)
    if args.record_saves:
        record_saves()
        return 0
    found = compute()
    if args.record:
        RECORD.parent.mkdir(parents=True, exist_ok=True)
        RECORD.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(found)} games in {RECORD}")
        return 0
    recorded = json.loads(RECORD.read_text())
    bad = [k for k in recorded if found.get(k) != recorded[k]]
    missing = [k for k in found if k not in recorded]
    for k in bad:
        print(f"DIFFERS {k}: recorded {recorded[k]} now {found.get(k)}")
    print(
        f"{len(found) - len(bad) - len(missing)}/{len(found)} games as recorded"
        f"{f', {len(missing)} not recorded' if missing else ''}"
    )
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
