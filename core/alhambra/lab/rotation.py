"""Seat rotation: every line-up of bots played in every seat with the same seeds.

With fixed seats, "seat 0 wins 0.60" with a strong bot in seat 0 measures the bot, not the
seat. Rotating the line-up over the seats with the same seed for every rotation makes each bot
sit in each seat equally often on the same deals, so bot effects and seat effects separate
(and a bot's win rate is paired over the same deals). Rotation ``r`` seats the line-up's bot
``(s + r) % P`` in seat ``s``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from .tasks import SimTask


def rotate(lineup: Sequence[str], r: int) -> tuple[str, ...]:
    """The line-up rotated by ``r`` seats: seat ``s`` gets ``lineup[(s + r) % len(lineup)]``."""
    n = len(lineup)
    return tuple(lineup[(s + r) % n] for s in range(n))


def distinct_rotations(lineup: Sequence[str]) -> list[int]:
    """The rotations ``0 .. d-1`` that give distinct seatings, ``d`` the line-up's period
    (``["greedy"] * 4`` has one, ``["mcts", "greedy", "greedy", "greedy"]`` four,
    ``["a", "b", "a", "b"]`` two). Playing each of them once puts every bot in every seat
    equally often."""
    n = len(lineup)
    for d in range(1, n + 1):
        if n % d == 0 and rotate(lineup, d) == tuple(lineup):
            return list(range(d))
    return list(range(n))  # pragma: no cover - d = n always matches


def rounds_for(games: int, lineup: Sequence[str]) -> int:
    """How many seeds (rounds of all distinct rotations) cover at least ``games`` games."""
    return math.ceil(max(games, 0) / len(distinct_rotations(lineup)))


def rotated_tasks(
    games: int,
    seed: int,
    lineup: Sequence[str],
    *,
    players: Any = 4,
    modules: Iterable[str] = (),
    options: dict[str, Any] | None = None,
    config_path: str | None = None,
    save: bool = False,
    variant: str = "",
    start: int = 0,
) -> list[SimTask]:
    """Tasks for at least ``games`` games: seeds ``seed, seed + 1, …``, each played once in
    every distinct rotation of ``lineup`` (one bot specification per seat), whole rounds only
    (``games`` is rounded up to a multiple of the number of rotations). Task indices start at
    ``start``. A round is played in rotation order, so any prefix of whole rounds is balanced."""
    lineup = tuple(lineup)
    rots = distinct_rotations(lineup)
    opts = tuple(sorted((options or {}).items()))
    mods = tuple(modules)
    pl = players if isinstance(players, int) else tuple(players)
    tasks: list[SimTask] = []
    for k in range(rounds_for(games, lineup)):
        for r in rots:
            tasks.append(
                SimTask(start + len(tasks), seed + k, pl, mods, opts, rotate(lineup, r), config_path, save, r, variant)
            )
    return tasks


def seat_counts(results: Iterable[Any]) -> dict[str, list[int]]:
    """``{bot: [games it sat in seat 0, seat 1, …]}`` over ``results`` (objects with
    ``bots``): the balance that rotation guarantees, for checks and reports."""
    out: dict[str, list[int]] = {}
    for r in results:
        for s, b in enumerate(r.bots):
            row = out.setdefault(b, [0] * len(r.bots))
            if len(row) < len(r.bots):
                row.extend([0] * (len(r.bots) - len(row)))
            row[s] += 1
    return out


def is_confounded(results: Sequence[Any]) -> bool:
    """True when a per-seat figure of ``results`` mixes seat and bot: some bot did not sit in
    every seat equally often (fixed seats with different bots)."""
    counts = seat_counts(results)
    if len(counts) <= 1:
        return False
    return any(len(set(row)) > 1 for row in counts.values())
