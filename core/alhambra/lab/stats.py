"""Intervals and verdicts for the balance lab, from statsmodels.

* :func:`wilson`: the Wilson score interval of a rate (win rates, how often a scoring is
  held). Unlike the Wald interval (``p ± 1.96·sqrt(p(1-p)/n)``) it does not collapse to
  ``±0`` at rates of 0 or 1, and it stays inside [0, 1]. Shared victories count as fractions
  of a win (R-END-4), which the score formula accepts.
* :func:`mean_interval`: Student's t interval of a mean.
* :func:`paired_difference`: the t interval of the mean per-seed difference between two
  variants played on the same seeds (``compare``): pairing removes what the deal contributes
  to both; a variant compared with itself differs by exactly 0.
* :func:`verdict`: a plain sentence saying whether the interval excludes zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attrs import frozen

from ..errors import AlhambraError

#: The confidence level of every interval the lab prints.
LEVEL = 0.95

NO_DIFFERENCE = "no detectable difference at this sample size"


class StatisticsError(AlhambraError):
    """Statistics asked of unusable data: no games, unequal pairs, a bad level."""


def _statsmodels():
    try:
        from statsmodels.stats import proportion, weightstats
    except ImportError:
        raise StatisticsError("the balance lab needs statsmodels: pip install 'alhambra-engine[lab]'") from None
    return proportion, weightstats


def _check_level(level: float) -> None:
    if not 0.0 < level < 1.0:
        raise StatisticsError(f"a confidence level is between 0 and 1, not {level!r}")


@frozen(slots=True)
class Rate:
    """A rate ``value`` = ``successes / n`` with its interval ``[low, high]`` at ``level``."""

    value: float
    low: float
    high: float
    n: int
    level: float = LEVEL

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


@frozen(slots=True)
class Estimate:
    """A mean (or a mean difference) ``value`` over ``n`` values with its interval."""

    value: float
    low: float
    high: float
    n: int
    level: float = LEVEL

    @property
    def spans_zero(self) -> bool:
        """True when the interval contains 0 (no detectable difference)."""
        return self.low <= 0.0 <= self.high

    def __str__(self) -> str:
        return f"{self.value:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"


def wilson(successes: float, n: int, level: float = LEVEL) -> Rate:
    """The Wilson score interval of ``successes`` out of ``n`` (statsmodels'
    ``proportion_confint(method="wilson")``). ``successes`` may be fractional (shared
    victories). Raises :class:`StatisticsError` for ``n < 1`` or successes outside ``[0, n]``."""
    _check_level(level)
    if n < 1:
        raise StatisticsError(f"a rate needs at least one game, not {n}")
    if not -1e-9 <= successes <= n + 1e-9:
        raise StatisticsError(f"{successes} successes out of {n} is not a rate")
    successes = min(max(successes, 0.0), float(n))
    proportion, _ = _statsmodels()
    low, high = proportion.proportion_confint(successes, n, alpha=1.0 - level, method="wilson")
    low = 0.0 if low < 1e-12 else float(low)  # 0 successes: the bound is 0, not 8.7e-19
    high = 1.0 if high > 1.0 - 1e-12 else float(high)
    return Rate(successes / n, low, high, n, level)


def mean_interval(values: Sequence[float], level: float = LEVEL) -> Estimate:
    """The mean of ``values`` with Student's t interval; a single value or values that are all
    equal give a zero-width interval. Raises :class:`StatisticsError` for no values."""
    _check_level(level)
    n = len(values)
    if n < 1:
        raise StatisticsError("a mean needs at least one value")
    mean = math.fsum(values) / n
    if n == 1 or all(v == values[0] for v in values):
        return Estimate(mean, mean, mean, n, level)
    _, weightstats = _statsmodels()
    low, high = weightstats.DescrStatsW(list(map(float, values))).tconfint_mean(alpha=1.0 - level)
    return Estimate(mean, float(low), float(high), n, level)


def paired_difference(a: Sequence[float], b: Sequence[float], level: float = LEVEL) -> Estimate:
    """The mean of ``b[i] - a[i]`` (variant B minus variant A on the same seed) with its t
    interval. Raises :class:`StatisticsError` unless both have the same, non-zero length."""
    if len(a) != len(b):
        raise StatisticsError(f"paired values need equal counts, not {len(a)} and {len(b)}")
    return mean_interval([y - x for x, y in zip(a, b)], level)


def verdict(diff: Estimate, *, name: str = "B", unit: str = "") -> str:
    """A plain sentence for a difference ``B - A`` (``name``: what B is called):
    :data:`NO_DIFFERENCE` when its interval spans zero, else whether B is higher or lower and
    by how much (the interval's ends)."""
    if diff.spans_zero:
        return NO_DIFFERENCE
    u = f" {unit}" if unit else ""
    if diff.value > 0:
        return f"{name} higher by {diff.low:.3g} to {diff.high:.3g}{u}"
    return f"{name} lower by {-diff.high:.3g} to {-diff.low:.3g}{u}"
