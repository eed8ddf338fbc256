"""Majority scoring as small pure functions (R-SCORE-2, R-SCORE-3, R-SCORE-4)."""

from __future__ import annotations

from operator import index
from typing import Sequence

from typing import Any

from .components import BUILDING_TYPES, SCORING_TABLE
from ..errors import ConfigError


def _ints(values: Any, what: str, *, low: int | None = None) -> list[int]:
    """``values`` as a list of ints (each at least ``low``); :class:`ConfigError` otherwise."""
    try:
        out = [index(v) for v in values]
    except TypeError:
        raise ConfigError(f"{what} must be a sequence of ints, not {values!r}") from None
    if low is not None and any(v < low for v in out):
        raise ConfigError(f"{what} must be at least {low}, not {values!r}")
    return out


def majority_points(counts: Sequence[int], points_by_place: Sequence[int]) -> list[int]:
    """Points each participant earns for one building type in one scoring.

    ``counts``: buildings of that type per participant (same order as the result).
    ``points_by_place``: the points for 1st, 2nd, 3rd place that this scoring rewards
    (one entry in scoring 1, two in scoring 2, three in scoring 3; see ``SCORING_TABLE``).

    Ties (R-SCORE-3): participants tied on a place share the points of the places they
    jointly occupy (as far as rewarded), split equally and rounded down; the next rank is the
    place after all of them. A participant with no building of the type scores nothing and
    takes no place (R-SCORE-4).

    >>> majority_points([4, 4, 1], (13, 6))     # two tied for 1st share 13 + 6
    [9, 9, 0]

    Raises :class:`ConfigError` unless ``counts`` are ints >= 0 and ``points_by_place`` ints.
    """
    counts = _ints(counts, "counts", low=0)
    points_by_place = _ints(points_by_place, "points_by_place")
    result = [0] * len(counts)
    places = len(points_by_place)
    rank = 0
    for level in sorted({c for c in counts if c > 0}, reverse=True):
        if rank >= places:
            break
        tied = [i for i, c in enumerate(counts) if c == level]
        share = sum(points_by_place[rank : rank + len(tied)]) // len(tied)
        for i in tied:
            result[i] = share
        rank += len(tied)
    return result


def majority_table(counts: Sequence[dict[str, int]], number: int) -> list[dict[str, int]]:
    """Majority points per participant and building type for scoring ``number`` (1, 2 or 3).

    ``counts[i][type]`` is participant i's count; the result has the same shape, every type
    present. Types are walked in scoring order, pavilion first (R-SCORE-2)."""
    out = [dict.fromkeys(BUILDING_TYPES, 0) for _ in counts]
    for t in BUILDING_TYPES:
        pts = majority_points([c.get(t, 0) for c in counts], SCORING_TABLE[t][number - 1])
        for i, p in enumerate(pts):
            out[i][t] = p
    return out
