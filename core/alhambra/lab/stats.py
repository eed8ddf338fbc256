"""Intervals and verdicts for the balance lab, from statsmodels.

* :func:`wilson`: the Wilson score interval of a rate (win rates, how often a scoring is
  held). Unlike the Wald interval (``p ± 1.96·sqrt(p(1-p)/n)``) it does not collapse to
  ``±0`` at rates of 0 or 1, and it stays inside [0, 1]. Shared victories count as fractions
  of a win (R-END-4), which the score formula accepts.
* :func:`mean_interval`: Student's t interval of a mean.
* :func:`paired_difference`: the t interval of the mean per-seed difference between two
  variants played on the same seeds (``compare``): pairing removes what the deal contributes
  to both; a variant compared with itself differs by exactly 0.
* :func:`paired_p`: the p-value of a paired difference: McNemar's exact test when both
  variants' values are yes/no (0 or 1) per seed, else the paired t-test (scipy).
* :func:`holm`: Holm's step-down adjustment of the p-values of one comparison (statsmodels),
  which holds the chance of *any* false finding among its figures at ``1 - LEVEL``.
* :func:`verdict`: a plain sentence: the difference when its test survives, else
  :data:`NO_DIFFERENCE`.
* :func:`games_needed`: seeds needed to detect a paired difference with 80 % power.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from attrs import frozen

from ..errors import AlhambraError

#: The confidence level of every interval the lab prints.
LEVEL = 0.95

NO_DIFFERENCE = "no difference shown"

#: The power :func:`games_needed` plans for.
POWER = 0.8


class StatisticsError(AlhambraError):
    """Statistics asked of unusable data: no games, unequal pairs, a bad level."""


def _statsmodels() -> tuple[Any, Any]:  # statsmodels' proportion and weightstats modules
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


@frozen(slots=True)
class ClusteredRate:
    """A rate estimated over clusters (the games of one seed, all its rotations): ``rate``
    (a :class:`Rate` whose interval is the cluster-robust t interval, inside [0, 1]),
    ``clusters`` and ``design_effect`` (the cluster-robust variance over the variance if every
    trial were independent; 1.0 when either is zero)."""

    rate: Rate
    clusters: int
    design_effect: float


def clustered_rate(clusters: Sequence[tuple[float, float]], level: float = LEVEL) -> ClusteredRate:
    """The rate ``sum(successes) / sum(trials)`` over ``clusters`` (``(successes, trials)`` per
    cluster, e.g. a bot's wins and seatings over the rotations of one seed, a bot in several
    seats of one game counting its share of that game once per seat it holds) with the
    cluster-robust (ratio-estimator) variance and a t interval on ``clusters - 1`` degrees of
    freedom, cut to [0, 1]. One cluster: the Wilson interval. A rate that is the same in every
    cluster leaves the spread between clusters unmeasured (it is no evidence that there is
    none): then the interval is the Wilson interval of all the trials (design effect 1).
    Raises :class:`StatisticsError` for no trials."""
    _check_level(level)
    clusters = [(float(y), float(n)) for y, n in clusters if n > 0]
    total = math.fsum(n for _, n in clusters)
    if total <= 0:
        raise StatisticsError("a rate needs at least one trial")
    wins = math.fsum(y for y, _ in clusters)
    r = wins / total
    c = len(clusters)
    if c < 2:
        w = wilson(wins, int(round(total)), level)
        return ClusteredRate(w, c, 1.0)
    from scipy import stats as sps

    nbar = total / c
    resid = math.fsum((y - r * n) ** 2 for y, n in clusters)
    var = resid / (c * (c - 1) * nbar * nbar)
    if var <= 0.0:  # the same rate in every cluster: no spread measured to build on
        return ClusteredRate(wilson(wins, int(round(total)), level), c, 1.0)
    naive = r * (1.0 - r) / total
    deff = var / naive if naive > 0 and var > 0 else 1.0
    half = float(sps.t.ppf(0.5 + level / 2.0, c - 1)) * math.sqrt(var)
    return ClusteredRate(Rate(r, max(0.0, r - half), min(1.0, r + half), int(round(total)), level), c, deff)


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


def paired_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p-value that ``b - a`` (paired by seed) is zero on average. Yes/no values (every
    value 0 or 1): McNemar's exact test, a binomial test on the discordant pairs (scipy's
    ``binomtest``); otherwise the paired t-test (``ttest_rel``). One pair: 1.0 (no spread to
    test against). All differences equal (to rounding, a billionth of their size): 1.0 when
    they are zero, else the exact sign-flip
    test's ``2 / 2**n`` over ``n`` seeds (only the two flips giving every difference one sign
    reach that mean: two seeds are no finding, ten are). Raises :class:`StatisticsError` for
    unequal or no pairs."""
    if len(a) != len(b) or not a:
        raise StatisticsError(f"paired values need equal, non-zero counts, not {len(a)} and {len(b)}")
    from scipy import stats as sps

    if all(v in (0.0, 1.0) for v in (*a, *b)):
        up = sum(1 for x, y in zip(a, b) if y > x)
        down = sum(1 for x, y in zip(a, b) if y < x)
        if up + down == 0:
            return 1.0
        return float(sps.binomtest(up, up + down, 0.5).pvalue)
    d = [y - x for x, y in zip(a, b)]
    if len(d) < 2:  # one seed: nothing to test a difference against
        return 1.0
    scale = max(1.0, max(abs(v) for v in d))
    if max(d) - min(d) <= 1e-9 * scale:  # equal but for rounding (1 and 0.9999999999999991)
        return 1.0 if abs(d[0]) <= 1e-9 * scale else min(1.0, 2.0 ** (1 - len(d)))
    return float(sps.ttest_rel(list(map(float, b)), list(map(float, a))).pvalue)


def holm(pvalues: Sequence[float], level: float = LEVEL) -> list[float]:
    """Holm-adjusted p-values (statsmodels' ``multipletests(method="holm")``), same order: a
    difference whose adjusted p is below ``1 - level`` is a finding, and the chance that any
    finding of the family is false stays at most ``1 - level``."""
    _check_level(level)
    if not pvalues:
        return []
    from statsmodels.stats.multitest import multipletests

    return [float(p) for p in multipletests(list(pvalues), alpha=1.0 - level, method="holm")[1]]


def games_needed(diff: float, sd: float, *, level: float = LEVEL, power: float = POWER) -> int | None:
    """Seeds (paired games) a paired t-test needs to detect a mean difference ``diff`` when the
    per-seed differences have standard deviation ``sd``, at ``power`` (statsmodels'
    ``TTestPower``). None when ``sd`` is 0 (any difference shows at once) or ``diff`` is 0."""
    if diff == 0 or sd <= 0:
        return None
    from statsmodels.stats.power import TTestPower

    n = TTestPower().solve_power(effect_size=abs(diff) / sd, alpha=1.0 - level, power=power)
    return max(2, math.ceil(float(n)))


def verdict(diff: Estimate, *, name: str = "B", unit: str = "", significant: bool | None = None) -> str:
    """A plain sentence for a difference ``B - A`` (``name``: what B is called):
    :data:`NO_DIFFERENCE` unless it is ``significant`` (by default: its interval excludes
    zero), else whether B is higher or lower and by how much (the interval's ends)."""
    if significant is None:
        significant = not diff.spans_zero
    if not significant:
        return NO_DIFFERENCE
    u = f" {unit}" if unit else ""
    if diff.value > 0:
        return f"{name} higher by {diff.low:.3g} to {diff.high:.3g}{u}"
    return f"{name} lower by {-diff.high:.3g} to {-diff.low:.3g}{u}"
