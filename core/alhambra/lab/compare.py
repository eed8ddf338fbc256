"""Variants side by side: the same bots and seeds under each variant, and what differs.

A *variant* is a game configuration (a TOML file: players, modules, options, the user's own
module files; :func:`alhambra.config.load_config`). :func:`compare_tasks` plays every variant
on the same seeds (and, with ``rotate_seats``, the same seat rotations);
:func:`compare_results` turns the results into a table of :class:`Row`: for every figure
(start player's advantage, winning score, score spread, points by source, game length, module
action use, how often each scoring is held) each variant's mean with its 95 % interval and the
difference of every variant from the first, paired by seed (:func:`.stats.paired_difference`),
with a plain verdict. With different bots in the seats, each bot's win share per seat is a
figure too (does the rule reward skill?), with intervals clustered by seed; and
:func:`mattered` counts, over the games played on the same seed and seating in two variants,
those whose play changed (another action sequence) and those whose winner changed.

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
from .tally import PERIODS, Trace
from .stats import (
    LEVEL,
    Estimate,
    Rate,
    clustered_rate,
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

#: The figure groups, in the order the table shows them
GROUPS = (
    "outcome",
    "win share by bot",
    "points by source",
    "scorings",
    "buildings bought",
    "buildings built",
    "play",
    "length",
    "module actions",
)


@frozen(slots=True)
class Figure:
    """What a figure is: its ``key`` (``"winning score"``), ``group`` (one of
    :data:`GROUPS`), ``unit``, whether it is a rate (a 0/1 per game: Wilson intervals) and,
    for a bot's win share, the ``bot`` (its specification; intervals clustered by seed)."""

    key: str
    group: str
    unit: str
    rate: bool = False
    bot: str | None = None


def bot_figure(bot: str) -> Figure:
    """The figure of ``bot``'s win share per seat it takes (a shared victory counts as a
    fraction of a win, R-END-4), in the group ``"win share by bot"``."""
    return Figure(f"win share per seat: {bot}", "win share by bot", "share", bot=bot)


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
        # turn positions after the start player's (position 1, the figure above), in seat
        # order (R-SET-7): each figure counted once in the family
        for k in range(1, n):
            out[Figure(f"win share above chance, turn position {k + 1}", "outcome", "share")] = (
                ret[(sp + k) % n] - 1.0 / n
            )
    if r.points and any("dirk" in sc for sc in r.points):
        dirk = float(sum(sc.get("dirk", 0) for sc in r.points))
        out[Figure("Dirk's points", "outcome", "points")] = dirk
        out[Figure("Dirk beats the winner", "outcome", "games", rate=True)] = 1.0 if dirk > scores[0] else 0.0
    if r.bots and len(set(r.bots)) > 1:  # different bots: each one's share of the seats it holds
        for b in dict.fromkeys(r.bots):
            seats = [s for s, x in enumerate(r.bots) if x == b]
            out[bot_figure(b)] = sum(ret[s] for s in seats) / len(seats)
    out[Figure("winning score", "outcome", "points")] = float(scores[0])
    out[Figure("score spread (best - worst)", "outcome", "points")] = float(scores[0] - scores[-1])
    if n > 2:  # with two players the margin is the spread: one figure, counted once
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
    if r.tallies:
        out.update(play_figures(r.tallies))
    out[Figure("turns", "length", "turns")] = float(r.turns)
    out[Figure("actions", "length", "actions")] = float(r.actions)
    for module, counts in r.module_actions.items():
        for kind, v in counts.items():
            out[Figure(f"{module}: {kind} per game", "module actions", "actions")] = float(v)
    return out


#: The figures of :func:`play_figures` besides the buildings by type: (key, record field, unit)
PLAY_FIGURES = (
    ("longest wall per player at the end", "wall", "wall sides"),
    ("reserve per player at the end", "reserve", "tiles"),
    ("money taken per player", "money_taken", "coins"),
    ("money spent per player", "money_spent", "coins"),
    ("purchases per player", "purchases", "purchases"),
    ("exact payments per player", "exact", "purchases"),
)


def bought_figure(period: int, building: str) -> Figure:
    """The figure of the buildings of type ``building`` bought per player in scoring period
    ``period`` (0, 1, 2: :data:`.tally.PERIODS`)."""
    return Figure(f"bought per player {PERIODS[period]}: {building}", "buildings bought", "buildings")


def built_figure(building: str) -> Figure:
    """The figure of the buildings of type ``building`` in a player's Alhambra at the end."""
    return Figure(f"built per player at the end: {building}", "buildings built", "buildings")


def play_figures(tallies: Sequence[dict[str, Any]]) -> dict[Figure, float]:
    """The figures of one game's ``tallies`` (a record's, one per seat), each a mean per player:
    buildings bought by type in each scoring period, buildings built by type at the end,
    buildings received at the end, and :data:`PLAY_FIGURES` (longest wall, reserve, money taken
    and spent, purchases, exact payments)."""
    n = len(tallies)
    out: dict[Figure, float] = {}
    for k in range(len(PERIODS)):
        for building in tallies[0]["bought"][k]:
            out[bought_figure(k, building)] = sum(t["bought"][k].get(building, 0) for t in tallies) / n
    for building in tallies[0]["built"]:
        out[built_figure(building)] = sum(t["built"].get(building, 0) for t in tallies) / n
    received = sum(sum(t["received"].values()) for t in tallies) / n
    out[Figure("buildings received at the end per player", "buildings built", "buildings")] = received
    for key, name, unit in PLAY_FIGURES:
        out[Figure(key, "play", unit)] = sum(t[name] for t in tallies) / n
    return out


def figure_names(variants: Sequence[Variant], bots: str | Sequence[str] | None, *, seed: int = 1) -> list[str]:
    """The names of the figures a comparison of ``variants`` with ``bots`` can show, known
    before any game is played (so that ``--primary`` with an unknown name fails at once): the
    figures of one game per variant between random bots on ``seed``, every turn position,
    Dirk's figures with two players, each scoring's points and whether it is held, the points
    of every building type's majority and of every column the rule set's scoring adds to probe
    Alhambras (``alhambra_scoring_adjust``, R-SCORE-1 … R-SCORE-5), every module action and,
    with different bots, each bot's win share. Sorted."""
    from ..engine.components import BUILDING_TYPES
    from ..engine.scoring import majority_table
    from ..engine.state import ScoringRecord
    from ..game import new_game
    from ..simulate import _user_modules, module_action_types, result_of, seat_bots, simulate_one

    names: set[str] = set()
    for v in variants:
        count = v.players if isinstance(v.players, int) else len(v.players)
        users = _user_modules(v.config_path)
        modules = [users.get(m, m) for m in v.modules]
        options = dict(v.options)
        players = v.players if isinstance(v.players, int) else list(v.players)
        trace = Trace()
        game = simulate_one(players, seed, modules=modules, options=options, bots="random", trace=trace)
        names.update(f.key for f in game_figures(result_of(game, ["random"] * count, trace=trace)))
        for k in range(1, count):
            names.add(f"win share above chance, turn position {k + 1}")
        if count == 2:
            names.update(("Dirk's points", "Dirk beats the winner"))
        else:
            names.add("margin of victory (1st - 2nd)")
        for number in (1, 2, 3):
            names.update((f"points per player in scoring {number}", f"scoring {number} held"))
        fresh = new_game(players, modules=modules, seed=seed, options=options)
        m = count + (1 if fresh.state.modules.get("dirk") is not None else 0)
        for t in BUILDING_TYPES:
            names.add(f"points per player: majority {t}")
            names.add(built_figure(t).key)
            names.update(bought_figure(k, t).key for k in range(len(PERIODS)))
            counts = [dict.fromkeys(BUILDING_TYPES, 0) | {t: m - i} for i in range(m)]
            for number in (1, 2, 3):
                record = ScoringRecord(
                    number=number,
                    participants=list(range(m)),
                    counts=counts,
                    majority=majority_table(counts, number),
                    walls=[10 - i for i in range(m)],
                )
                fresh.rules.hook.alhambra_scoring_adjust(game=fresh, record=record)
                names.update(f"points per player: extra {c}" for c in record.extra)
        for kind, module in module_action_types(fresh).items():
            names.add(f"{module}: {kind} per game")
        specs = seat_bots(bots, count)
        if len(set(specs)) > 1:
            names.update(bot_figure(b).key for b in specs)
    return sorted(names)


def check_primary(primary: str, names: Sequence[str]) -> None:
    """Raise :class:`ConfigError` unless ``primary`` is one of the figure ``names``, listing
    them."""
    if primary not in names:
        raise ConfigError(f"no figure {primary!r} in this comparison; the figures are: {'; '.join(names)}")


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
    the interval: a :class:`.stats.Rate` for rates, else an :class:`.stats.Estimate`; each a
    95 % interval on its own), ``diffs`` (per variant after the first: the paired difference
    from the first, by seed, with its 95 % interval on its own), ``corrected`` (the same
    differences with simultaneous intervals: Bonferroni's level over the family of
    differences, :func:`adjust_family`; the primary figure's are its ``diffs``), ``pvalues``
    (per diff: :func:`.stats.paired_p`), ``adjusted`` (Holm-adjusted over the family, or the
    p-value itself for the primary figure), ``verdicts`` (one sentence per diff), ``primary``
    (the one question tested on its own) and ``columns`` (per variant, the figure's value per
    paired seed)."""

    figure: Figure
    values: list[Rate | Estimate]
    diffs: list[Estimate] = field(factory=list)
    verdicts: list[str] = field(factory=list)
    pvalues: list[float] = field(factory=list)
    adjusted: list[float] = field(factory=list)
    primary: bool = False
    corrected: list[Estimate] = field(factory=list)
    columns: list[list[float]] = field(factory=list, repr=False)

    @property
    def detected(self) -> bool:
        """True when some variant's difference from the first survives its test (Holm-adjusted
        p below ``1 - LEVEL``)."""
        return any(p < 1.0 - LEVEL for p in self.adjusted)


@define(slots=True)
class Comparison:
    """The outcome of ``compare``: ``labels`` of the variants, ``seeds`` paired, ``games``
    per variant, ``bots``, the table ``rows``, the ``results`` per variant, ``notes`` for
    the reader, ``mattered`` (per variant after the first: :func:`mattered`), and the
    ``family`` of differences tested together (:func:`adjust_family`)."""

    labels: list[str]
    seeds: list[int]
    games: list[int]
    bots: list[str]
    rows: list[Row]
    results: list[list[GameResult]]
    notes: list[str] = field(factory=list)
    mattered: list[Mattered] = field(factory=list)
    #: the differences tested together (Holm's family; Bonferroni's intervals divide by it)
    family: int = 0
    #: what the family spans: ``"this comparison"``, or a sweep's comparisons
    family_scope: str = "this comparison"

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
    if primary is not None:
        check_primary(primary, [f.key for f in figures])
    common = set(seeds)
    paired = [[r for r in rs if r.seed in common] for rs in results]
    rows = []
    for f in figures:
        cols = [[p[s].get(f, 0.0) for s in seeds] for p in per]
        values: list[Rate | Estimate] = []
        for c, rs in zip(cols, paired):
            if f.bot is not None:
                values.append(bot_share(rs, f.bot))
            else:
                values.append(wilson(sum(c), len(c)) if f.rate else _bounded(mean_interval(c), c, _range(f, rs)))
        diffs = [paired_difference(cols[0], c) for c in cols[1:]]
        pvals = [paired_p(cols[0], c) for c in cols[1:]]
        rows.append(Row(f, values, diffs, [], pvals, list(pvals), primary=f.key == primary, columns=cols))
    bots = sorted({b for rs in results for r in rs for b in r.bots})
    cmp = Comparison(
        labels,
        seeds,
        [len(rs) for rs in results],
        bots,
        rows,
        [list(rs) for rs in results],
        _notes(results, labels),
        [mattered(paired[0], rs, label) for rs, label in zip(paired[1:], labels[1:])],
    )
    adjust_family([cmp])
    return cmp


def adjust_family(comparisons: Sequence[Comparison], scope: str | None = None) -> int:
    """Test the differences of all ``comparisons`` (but their primary figures) as one family:
    Holm's adjustment of their p-values (a finding where the adjusted p is below 5 %: the
    chance of any false finding in the family stays at most 5 %), and simultaneous intervals
    of the differences at Bonferroni's level ``1 - 0.05 / m`` over the ``m`` differences (all
    of them hold their true values together at least 95 % of the time). Sets every row's
    ``adjusted``, ``corrected`` and ``verdicts``, and every comparison's ``family`` and
    ``family_scope`` (``scope``: what it spans, default ``"this comparison"``). Returns ``m``.

    Holm's step-down finds what Bonferroni's intervals alone may not: a finding whose
    simultaneous interval still reaches 0 is said so in its verdict."""
    members = [(r, i) for c in comparisons for r in c.rows if not r.primary for i in range(len(r.pvalues))]
    for (r, i), adj in zip(members, holm([r.pvalues[i] for r, i in members])):
        r.adjusted[i] = adj
    m = len(members)
    level = 1.0 - (1.0 - LEVEL) / max(m, 1)
    for c in comparisons:
        c.family = m
        c.family_scope = scope or "this comparison"
        for r in c.rows:
            if r.primary or not r.columns:
                r.corrected = list(r.diffs)
            else:
                r.corrected = [paired_difference(r.columns[0], col, level) for col in r.columns[1:]]
            r.verdicts = [
                _verdict(d, c.labels[i + 1], r.figure.unit, r.adjusted[i] < 1.0 - LEVEL)
                for i, d in enumerate(r.corrected)
            ]
    return m


def _verdict(diff: Estimate, name: str, unit: str, significant: bool) -> str:
    """:func:`.stats.verdict` of a difference with its simultaneous interval; a finding of
    Holm's step-down whose interval still reaches 0 reads "higher (Holm), by up to ..."."""
    if significant and diff.spans_zero and diff.value != 0:
        u = f" {unit}" if unit else ""
        if diff.value > 0:
            return f"{name} higher (Holm's step-down), by up to {diff.high:.3g}{u}"
        return f"{name} lower (Holm's step-down), by up to {-diff.low:.3g}{u}"
    return verdict(diff, name=name, unit=unit, significant=significant)


def bot_share(results: Sequence[GameResult], bot: str) -> Rate:
    """``bot``'s win share per seat it took in ``results`` with the 95 % interval clustered by
    seed (:func:`.stats.clustered_rate`: a seed's rotations together, a bot in several seats
    of a game counting that game's share once per seat). A bot that sat nowhere: 0 of 0, a
    zero-width interval at 0."""
    from .summary import seed_clusters

    clusters = seed_clusters(results, lambda r, seat: seat < len(r.bots) and r.bots[seat] == bot)
    if not clusters:
        return Rate(0.0, 0.0, 0.0, 0)
    return clustered_rate(clusters).rate


@frozen(slots=True)
class Mattered:
    """How often a variant's rule mattered against the first variant, over ``games`` pairs of
    games played on the same seed and seating (rotation) in both: ``play_changed`` (the share
    whose action sequences differ, :attr:`GameResult.play`; None when the records lack the
    digest) and ``winner_changed`` (the share whose winning seats differ), each a
    :class:`.stats.Rate` with its 95 % interval clustered by seed; ``label`` is the
    variant's. ``baseline``: the A/A baseline of ``winner_changed`` (:func:`winner_baseline`:
    how often the winners differ between games of the first variant on other seeds, with no
    rule changed), over ``baseline_pairs`` pairs; None when there are too few seeds."""

    label: str
    games: int
    play_changed: Rate | None
    winner_changed: Rate
    baseline: Rate | None = None
    baseline_pairs: int = 0

    @property
    def play_count(self) -> int | None:
        """Games whose play changed (None when not recorded)."""
        return None if self.play_changed is None else round(self.play_changed.value * self.games)

    @property
    def winner_count(self) -> int:
        """Games whose winner changed."""
        return round(self.winner_changed.value * self.games)


def winner_baseline(results: Sequence[GameResult]) -> tuple[Rate, int] | None:
    """The A/A baseline of "winner changed": the games of one variant paired across seeds (the
    first seed with the second, the third with the fourth, ...: disjoint pairs, each game of a
    seed with the game of the same rotation, in order, of the other) and the share of pairs
    whose winning seats differ, with its 95 % interval clustered by pair of seeds
    (:func:`.stats.clustered_rate`). No rule changed between the two games of a pair, only the
    deal: the share a rule reaches when it changes the games as thoroughly as a new deal does.
    Returns ``(rate, pairs)``, or None with fewer than two seeds."""
    by_seed: dict[int, dict[tuple[int, int], GameResult]] = {}
    seen: dict[tuple[int, int], int] = {}
    for r in results:
        k = seen[(r.seed, r.rotation)] = seen.get((r.seed, r.rotation), -1) + 1
        by_seed.setdefault(r.seed, {})[(r.rotation, k)] = r
    seeds = sorted(by_seed)
    clusters: list[tuple[float, float]] = []
    for a, b in zip(seeds[0::2], seeds[1::2]):
        keys = [k for k in by_seed[a] if k in by_seed[b]]
        if keys:
            differ = sum(set(by_seed[a][k].winners) != set(by_seed[b][k].winners) for k in keys)
            clusters.append((float(differ), float(len(keys))))
    if not clusters:
        return None
    return clustered_rate(clusters).rate, int(sum(n for _, n in clusters))


def mattered(first: Sequence[GameResult], other: Sequence[GameResult], label: str = "") -> Mattered:
    """Pair the games of ``first`` and ``other`` by seed and rotation (the k-th game of a seed
    and rotation with the k-th of the same in the other) and count the pairs whose play (the
    :attr:`GameResult.play` digests) and whose winners (as sets of seats) differ; intervals
    clustered by seed (:func:`.stats.clustered_rate`). No pairs: 0 of 0, zero-width intervals."""

    def keyed(rs: Sequence[GameResult]) -> dict[tuple[int, int, int], GameResult]:
        out: dict[tuple[int, int, int], GameResult] = {}
        seen: dict[tuple[int, int], int] = {}
        for r in rs:
            k = seen[(r.seed, r.rotation)] = seen.get((r.seed, r.rotation), -1) + 1
            out[(r.seed, r.rotation, k)] = r
        return out

    a, b = keyed(first), keyed(other)
    pairs = [(a[k], b[k]) for k in a if k in b]
    if not pairs:
        empty = Rate(0.0, 0.0, 0.0, 0)
        return Mattered(label, 0, empty, empty)
    play: dict[int, list[float]] = {}
    won: dict[int, list[float]] = {}
    for x, y in pairs:
        p = play.setdefault(x.seed, [0.0, 0.0])
        p[0] += x.play != y.play
        p[1] += 1.0
        w = won.setdefault(x.seed, [0.0, 0.0])
        w[0] += set(x.winners) != set(y.winners)
        w[1] += 1.0
    known = all(x.play and y.play for x, y in pairs)
    base = winner_baseline([x for x, _ in pairs])
    return Mattered(
        label,
        len(pairs),
        clustered_rate([(c[0], c[1]) for c in play.values()]).rate if known else None,
        clustered_rate([(c[0], c[1]) for c in won.values()]).rate,
        None if base is None else base[0],
        0 if base is None else base[1],
    )


def _range(f: Figure, results: Sequence[GameResult]) -> tuple[float, float] | None:
    """The values figure ``f`` can take in games of ``results``: a win share above chance
    lies within ``[-1/n, 1 - 1/n]`` for ``n`` players (None: no bound known)."""
    players = {r.players for r in results}
    if f.unit == "share" and "above chance" in f.key and len(players) == 1:
        n = players.pop()
        return (-1.0 / n, 1.0 - 1.0 / n)
    return None


def _bounded(e: Estimate, values: Sequence[float], bounds: tuple[float, float] | None = None) -> Estimate:
    """``e`` with its interval cut to what the figure can be: at 0 when no value is negative
    (counts, points, turns), and within ``bounds`` when they are known."""
    low, high = e.low, e.high
    if values and min(values) >= 0:
        low = max(low, 0.0)
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    if (low, high) != (e.low, e.high):
        return Estimate(e.value, low, high, e.n, e.level)
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
    lines.append("  " + intervals_sentence(cmp))
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
        diffs = "  ".join(f"{_short(d):>30}" for d in row.corrected)
        lines.append(f"  {row.figure.key:<{width}}  {vals}  {diffs}  {'; '.join(row.verdicts)}")
    lines.extend(mattered_lines(cmp))
    found = [r for r in cmp.detected() if not r.primary]
    lines.append(
        f"  verdict: {len(found)} of {len(cmp.rows) - sum(r.primary for r in cmp.rows)} figures differ after Holm's "
        f"correction over the {cmp.family} differences of {cmp.family_scope} (the chance of any false finding "
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


def intervals_sentence(cmp: Comparison) -> str:
    """What the intervals of the table are: each variant's value with its own 95 % interval;
    each difference with a simultaneous interval (Bonferroni over the family), Holm's verdicts."""
    m = cmp.family
    level = 100.0 * (1.0 - LEVEL) / max(m, 1)
    primary = " (the primary figure's: 95% on its own)" if any(r.primary for r in cmp.rows) else ""
    return (
        "intervals: each variant's value 95% on its own (not corrected); every difference a simultaneous 95% "
        f"interval, corrected by Bonferroni over the {m} differences of {cmp.family_scope} (each at {100 - level:.4g}%)"
        f"{primary}; verdicts by Holm's method over the same differences"
    )


def mattered_lines(cmp: Comparison) -> list[str]:
    """Text lines for :attr:`Comparison.mattered`: per variant after the first, in how many
    paired games the play and the winner changed, with their intervals."""
    lines = []
    for m in cmp.mattered:
        if not m.games:
            lines.append(
                f"  how often the rule mattered, {m.label} against {cmp.labels[0]}: no games on the same seed and seating"
            )
            continue
        play = (
            "play changed: not recorded"
            if m.play_changed is None
            else f"play changed in {m.play_count} ({m.play_changed})"
        )
        baseline = (
            "no A/A baseline (fewer than two seeds)"
            if m.baseline is None
            else f"A/A baseline, {cmp.labels[0]} against itself on other seeds (no rule changed, another deal): "
            f"{m.baseline} over {m.baseline_pairs} pairs"
        )
        lines.append(
            f"  how often the rule mattered, {m.label} against {cmp.labels[0]} over {m.games} games on the same "
            f"seed and seating (95% intervals clustered by seed): {play}; winner changed in {m.winner_count} "
            f"({m.winner_changed}); {baseline}"
        )
    if any(m.baseline is not None for m in cmp.mattered):
        lines.append(
            "    (a winner-changed share near its baseline says the rule changed the games as thoroughly as a new "
            "deal, not that it decides who wins; a rule that changes the play changes the winner about that often)"
        )
    return lines


def _short(v: Rate | Estimate) -> str:
    def g(x: float) -> str:
        return f"{0.0 if abs(x) < 1e-12 else x:.3g}"  # sums of 1/3s: 3.7e-17 is 0

    return f"{g(v.value)} [{g(v.low)}, {g(v.high)}]"
