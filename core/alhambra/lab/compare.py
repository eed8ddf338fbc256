"""Variants side by side: the same bots and seeds under each variant, and what differs.

A *variant* is a game configuration (a TOML file: players, modules, options, the user's own
module files; :func:`alhambra.config.load_config`). :func:`compare_tasks` plays every variant
on the same seeds (and, with ``rotate_seats``, the same seat rotations);
:func:`compare_results` turns the results into a table of :class:`Row`: for every figure
(start player's advantage, winning score, score spread, points by source, game length, module
action use, how often each scoring is held) each variant's mean with its 95 % interval and the
difference of every variant from the first, paired by seed (:func:`.stats.paired_difference`),
with a plain verdict.

Figures are averaged per seed first (over the seats of a game and over the rotations of that
seed), so a variant with another player count pairs seed by seed as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from attrs import define, field, frozen

from ..errors import ConfigError
from ..simulate import GameResult, SimTask, make_tasks, register_config_modules
from .records import points_by_source
from .stats import (
    LEVEL,
    Estimate,
    Rate,
    games_needed,
    holm,
    mean_interval,
    paired_difference,
    paired_p,
    verdict,
    wilson,
)


@frozen(slots=True)
class Variant:
    """One variant to compare: its ``label`` (the config file's name), ``players``,
    ``modules`` (names), ``options``, and ``config_path`` (absolute, for user modules)."""

    label: str
    players: Any
    modules: tuple[str, ...]
    options: tuple[tuple[str, Any], ...]
    config_path: str | None = None


def load_variant(path: str | Path, *, label: str | None = None) -> Variant:
    """The variant of the TOML game configuration at ``path`` (its user modules registered in
    this process). Raises :class:`ConfigError` for a missing or malformed configuration, an
    unknown module or a bad option (checked by building a game)."""
    from ..saving.config import expand_module_names, load_config
    from ..game import new_game

    cfg = load_config(path)
    cfg.modules = expand_module_names(cfg.modules)
    resolved = str(Path(path).resolve())
    register_config_modules(resolved, cfg.module_objects)
    new_game(cfg.players, modules=cfg.resolved_modules(), seed=1, options=cfg.options)  # fails here, not in a worker
    players = cfg.players if isinstance(cfg.players, int) else tuple(cfg.players)
    return Variant(label or Path(path).stem, players, tuple(cfg.modules), tuple(sorted(cfg.options.items())), resolved)


def unique_labels(variants: Sequence[Variant]) -> list[Variant]:
    """``variants`` with repeated labels numbered (``base``, ``base#2``) so rows stay apart."""
    seen: dict[str, int] = {}
    out = []
    for v in variants:
        seen[v.label] = seen.get(v.label, 0) + 1
        out.append(
            v
            if seen[v.label] == 1
            else Variant(f"{v.label}#{seen[v.label]}", v.players, v.modules, v.options, v.config_path)
        )
    return out


def compare_tasks(
    variants: Sequence[Variant],
    *,
    bots: str | Sequence[str] | None,
    games: int,
    seed: int = 1,
    rotate_seats: bool = False,
) -> list[list[SimTask]]:
    """Per variant, the tasks of ``games`` games on seeds ``seed, seed + 1, …`` (rounded up to
    whole rotations with ``rotate_seats``). Task indices run on over the variants, so the
    lists can be played as one (one progress bar): :func:`run_compare`."""
    if len(variants) < 2:
        raise ConfigError("compare needs at least two variants")
    out: list[list[SimTask]] = []
    start = 0
    for v in variants:
        tasks = make_tasks(
            games,
            seed,
            players=v.players,
            modules=v.modules,
            options=dict(v.options),
            bots=bots,
            config_path=v.config_path,
            rotate_seats=rotate_seats,
            variant=v.label,
        )
        out.append([_reindex(t, start + i) for i, t in enumerate(tasks)])
        start += len(tasks)
    return out


def _reindex(task: SimTask, index: int) -> SimTask:
    from attrs import evolve

    return evolve(task, index=index)


def run_compare(
    task_lists: Sequence[Sequence[SimTask]], *, workers: int = 1, progress: bool = False, backend: str = "local"
) -> list[list[GameResult]]:
    """Play every variant's tasks (as one run: same progress bar, same workers); per variant,
    its results in task order."""
    from ..simulate import run_games

    flat = [t for ts in task_lists for t in ts]
    results = [r for r, _ in run_games(flat, workers=workers, progress=progress, backend=backend)]
    out: list[list[GameResult]] = []
    k = 0
    for ts in task_lists:
        out.append(results[k : k + len(ts)])
        k += len(ts)
    return out


# ---------------------------------------------------------------------------------------------
# Figures of one game
# ---------------------------------------------------------------------------------------------

#: (group, unit) of every figure family, in the order the table shows them
GROUPS = ("outcome", "points by source", "scorings", "length", "module actions")


@frozen(slots=True)
class Figure:
    """What a figure is: its ``key`` (``"winning score"``), ``group`` (one of
    :data:`GROUPS`), ``unit`` and whether it is a rate (a 0/1 per game: Wilson intervals)."""

    key: str
    group: str
    unit: str
    rate: bool = False


def game_figures(r: GameResult) -> dict[Figure, float]:
    """The figures of one game (means over its seats where a figure is per seat)."""
    n = r.players
    out: dict[Figure, float] = {}
    scores = sorted(r.scores, reverse=True)
    ret = r.returns()
    if r.start_player is not None:
        sp = r.start_player
        out[Figure("start player's win share above chance", "outcome", "share")] = ret[sp] - 1.0 / n
        others = [s for i, s in enumerate(r.scores) if i != sp]
        out[Figure("start player's score lead over the others' mean", "outcome", "points")] = r.scores[sp] - sum(
            others
        ) / len(others)
        for k in range(n):  # turn positions: the start player first, then in seat order (R-SET-7)
            out[Figure(f"win share above chance, turn position {k + 1}", "outcome", "share")] = (
                ret[(sp + k) % n] - 1.0 / n
            )
    if r.points and any("dirk" in sc for sc in r.points):
        dirk = float(sum(sc.get("dirk", 0) for sc in r.points))
        out[Figure("Dirk's points", "outcome", "points")] = dirk
        out[Figure("Dirk beats the winner", "outcome", "games", rate=True)] = 1.0 if dirk > scores[0] else 0.0
    out[Figure("winning score", "outcome", "points")] = float(scores[0])
    out[Figure("score spread (best - worst)", "outcome", "points")] = float(scores[0] - scores[-1])
    out[Figure("margin of victory (1st - 2nd)", "outcome", "points")] = float(scores[0] - scores[1])
    out[Figure("mean score", "outcome", "points")] = sum(r.scores) / n
    out[Figure("shared victory", "outcome", "games", rate=True)] = 1.0 if len(r.winners) > 1 else 0.0
    if r.money_left:
        out[Figure("money left per player", "outcome", "coins")] = sum(r.money_left) / n
    if r.points:
        totals: dict[str, float] = {}
        for seat in range(n):
            for source, pts in points_by_source(r.points, seat).items():
                totals[source] = totals.get(source, 0.0) + pts
        for source, total in sorted(totals.items()):
            out[Figure(f"points per player: {source.replace(':', ' ')}", "points by source", "points")] = total / n
        for scoring in r.points:
            pts = sum(s["total"] for s in scoring["seats"]) / n
            out[Figure(f"points per player in scoring {scoring['number']}", "scorings", "points")] = pts
    for k in (1, 2, 3):
        out[Figure(f"scoring {k} held", "scorings", "games", rate=True)] = 1.0 if k in r.scorings else 0.0
    out[Figure("turns", "length", "turns")] = float(r.turns)
    out[Figure("actions", "length", "actions")] = float(r.actions)
    for module, counts in r.module_actions.items():
        for kind, v in counts.items():
            out[Figure(f"{module}: {kind} per game", "module actions", "actions")] = float(v)
    return out


def seed_figures(results: Iterable[GameResult]) -> dict[int, dict[Figure, float]]:
    """``{seed: {figure: mean over that seed's games}}`` (the rotations of a seed averaged)."""
    sums: dict[int, dict[Figure, float]] = {}
    counts: dict[int, int] = {}
    for r in results:
        fig = game_figures(r)
        acc = sums.setdefault(r.seed, {})
        counts[r.seed] = counts.get(r.seed, 0) + 1
        for f, v in fig.items():
            acc[f] = acc.get(f, 0.0) + v
    return {s: {f: v / counts[s] for f, v in acc.items()} for s, acc in sums.items()}


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------


@define(slots=True)
class Row:
    """One figure across the variants: ``values`` (per variant, the mean over its seeds with
    the interval: a :class:`.stats.Rate` for rates, else an :class:`.stats.Estimate`),
    ``diffs`` (per variant after the first: the paired difference from the first, by seed),
    ``pvalues`` (per diff: :func:`.stats.paired_p`), ``adjusted`` (Holm-adjusted over the
    comparison's figures, or the p-value itself for the primary figure), ``verdicts`` (one
    sentence per diff) and ``primary`` (the one question tested on its own)."""

    figure: Figure
    values: list[Rate | Estimate]
    diffs: list[Estimate] = field(factory=list)
    verdicts: list[str] = field(factory=list)
    pvalues: list[float] = field(factory=list)
    adjusted: list[float] = field(factory=list)
    primary: bool = False

    @property
    def detected(self) -> bool:
        """True when some variant's difference from the first survives its test (Holm-adjusted
        p below ``1 - LEVEL``)."""
        return any(p < 1.0 - LEVEL for p in self.adjusted)


@define(slots=True)
class Comparison:
    """The outcome of ``compare``: ``labels`` of the variants, ``seeds`` paired, ``games``
    per variant, ``bots``, the table ``rows`` and the ``results`` per variant."""

    labels: list[str]
    seeds: list[int]
    games: list[int]
    bots: list[str]
    rows: list[Row]
    results: list[list[GameResult]]
    notes: list[str] = field(factory=list)

    def detected(self) -> list[Row]:
        """The rows whose difference is beyond its interval."""
        return [r for r in self.rows if r.detected]


def compare_results(
    results: Sequence[Sequence[GameResult]], labels: Sequence[str] | None = None, *, primary: str | None = None
) -> Comparison:
    """The table of figures of ``results`` (one list per variant, the first is the reference),
    paired by seed over the seeds every variant played (a seed's rotations are one cluster:
    averaged before anything is estimated). A figure missing in a variant (a module's action
    it does not have) counts 0 there. Every difference gets a p-value (:func:`.stats.paired_p`)
    and the p-values of all figures and variants are adjusted together by Holm's method, so
    the verdicts of one comparison hold a 5 % family-wise error rate; ``primary`` names one
    figure tested on its own (unadjusted, outside the family). Raises :class:`ConfigError`
    for fewer than two variants, no seed in common or an unknown ``primary`` figure."""
    if len(results) < 2:
        raise ConfigError("compare needs at least two variants")
    labels = list(labels) if labels is not None else [f"variant {i + 1}" for i in range(len(results))]
    per = [seed_figures(rs) for rs in results]
    seeds = sorted(set.intersection(*(set(p) for p in per)))
    if not seeds:
        raise ConfigError("the variants have no seed in common: they cannot be paired")
    figures: list[Figure] = []
    for p in per:
        for s in seeds:
            for f in p[s]:
                if f not in figures:
                    figures.append(f)
    figures.sort(key=lambda f: GROUPS.index(f.group))  # stable: keeps the order within a group
    if primary is not None and primary not in {f.key for f in figures}:
        raise ConfigError(f"no figure {primary!r} in this comparison (figures: {', '.join(f.key for f in figures)})")
    rows = []
    for f in figures:
        cols = [[p[s].get(f, 0.0) for s in seeds] for p in per]
        values: list[Rate | Estimate] = []
        for c in cols:
            values.append(wilson(sum(c), len(c)) if f.rate else _bounded(mean_interval(c), c))
        diffs = [paired_difference(cols[0], c) for c in cols[1:]]
        pvals = [paired_p(cols[0], c) for c in cols[1:]]
        rows.append(Row(f, values, diffs, [], pvals, list(pvals), primary=f.key == primary))
    family = [(r, i) for r in rows if not r.primary for i in range(len(r.pvalues))]
    for (r, i), adj in zip(family, holm([r.pvalues[i] for r, i in family])):
        r.adjusted[i] = adj
    for r in rows:
        r.verdicts = [
            verdict(d, name=labels[i + 1], unit=r.figure.unit, significant=r.adjusted[i] < 1.0 - LEVEL)
            for i, d in enumerate(r.diffs)
        ]
    bots = sorted({b for rs in results for r in rs for b in r.bots})
    return Comparison(
        labels, seeds, [len(rs) for rs in results], bots, rows, [list(rs) for rs in results], _notes(results, labels)
    )


def _bounded(e: Estimate, values: Sequence[float]) -> Estimate:
    """``e`` with its interval cut at 0 when no value is negative (counts, points, turns)."""
    if values and min(values) >= 0 and e.low < 0:
        return Estimate(e.value, 0.0, e.high, e.n, e.level)
    return e


def power_line(cmp: Comparison, figure: str, diff: float) -> str:
    """How many seeds detect a difference ``diff`` in ``figure`` with 80 % power (paired
    t-test at the 5 % level, from the spread of the per-seed differences measured here)."""
    import statistics

    row = next((r for r in cmp.rows if r.figure.key == figure), None)
    if row is None:
        raise ConfigError(f"no figure {figure!r} in this comparison")
    per = [seed_figures(rs) for rs in cmp.results]
    d = [per[1][s].get(row.figure, 0.0) - per[0][s].get(row.figure, 0.0) for s in cmp.seeds]
    sd = statistics.stdev(d) if len(d) > 1 else 0.0
    n = games_needed(diff, sd)
    if n is None:
        return f"  games needed: a difference of {diff:g} in {figure!r} shows at once (the per-seed differences do not vary)"
    return (
        f"  games needed: about {n} seeds detect a difference of {diff:g} {row.figure.unit} in {figure!r} "
        f"with 80% power (per-seed spread {sd:.3g}, 5% level, tested on its own)"
    )


def _notes(results: Sequence[Sequence[GameResult]], labels: Sequence[str]) -> list[str]:
    """What the reader must know to read the differences: other player counts, seats fixed."""
    from .rotation import is_confounded

    notes = []
    players = [sorted({r.players for r in rs}) for rs in results]
    if len({tuple(p) for p in players}) > 1:
        notes.append(
            "the variants differ in the number of players ("
            + ", ".join(f"{lab} {'/'.join(map(str, p))}" for lab, p in zip(labels, players))
            + "): every difference includes the effect of the player count"
        )
    if any(is_confounded(rs) for rs in results):
        notes.append("different bots sat in fixed seats: seat and bot effects are mixed (use --rotate-seats)")
    return notes


def format_comparison(cmp: Comparison) -> list[str]:
    """The comparison as text lines: a header, then per figure one line with every variant's
    value [95 % interval], the difference from the first and its verdict."""
    lines = [
        f"compare: {len(cmp.seeds)} seeds paired; games per variant "
        + ", ".join(f"{lab} {n}" for lab, n in zip(cmp.labels, cmp.games))
        + f"; bots {', '.join(cmp.bots)}; 95% intervals"
    ]
    lines.extend(f"  note: {n}" for n in cmp.notes)
    width = max(len(r.figure.key) for r in cmp.rows) if cmp.rows else 10
    diff_heads = "  ".join(f"{lab[:18] + ' - ' + cmp.labels[0][:18]:>30}" for lab in cmp.labels[1:])
    head = f"  {'figure':<{width}}  " + "  ".join(f"{lab[:22]:>22}" for lab in cmp.labels) + "  " + diff_heads
    group = None
    for row in cmp.rows:
        if row.figure.group != group:
            group = row.figure.group
            lines.append(f" {group}:")
            lines.append(head)
        vals = "  ".join(f"{_short(v):>22}" for v in row.values)
        diffs = "  ".join(f"{_short(d):>30}" for d in row.diffs)
        lines.append(f"  {row.figure.key:<{width}}  {vals}  {diffs}  {'; '.join(row.verdicts)}")
    found = [r for r in cmp.detected() if not r.primary]
    tested = sum(len(r.pvalues) for r in cmp.rows if not r.primary)
    lines.append(
        f"  verdict: {len(found)} of {len(cmp.rows) - sum(r.primary for r in cmp.rows)} figures differ after Holm's "
        f"correction over the {tested} differences of this comparison (the chance of any false finding "
        "is at most 5%); every other figure: no difference shown"
    )
    for r in cmp.rows:
        if r.primary:
            lines.append(
                f"  primary figure {r.figure.key!r}, tested on its own at 5%: "
                + "; ".join(f"{v} (p = {p:.3g})" for v, p in zip(r.verdicts, r.pvalues))
            )
    for r in found:
        lines.append(f"    {r.figure.key}: {'; '.join(v for v in r.verdicts)}")
    return lines


def _short(v: Rate | Estimate) -> str:
    return f"{v.value:.3g} [{v.low:.3g}, {v.high:.3g}]"
