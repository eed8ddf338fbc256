"""A variant studied over several player counts and line-ups of bots: ``alhambra sweep``.

:func:`sweep_cells` lays out one comparison (:mod:`.compare`) of the variant against its base
per player count and line-up; :func:`run_sweep` plays them all as one run (the same seeds in
every cell) and compares each, and all the differences of the sweep are tested together as
one family (:func:`.compare.adjust_family`: Holm's verdicts and Bonferroni's simultaneous
intervals over the whole sweep, so the chance of any false finding in the sweep stays at
most 5 %). :func:`format_sweep` writes every cell's table and a summary of what differs where.

A line-up names the bots of the first seats; its last bot fills the seats left
(``search,greedy`` with four players is ``search,greedy,greedy,greedy``; ``greedy`` is greedy
everywhere), so one line-up serves every player count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from attrs import define, evolve, field

from ..errors import ConfigError
from ..simulate import GameResult, SimTask
from .compare import Comparison, Row, Variant, adjust_family, compare_results, compare_tasks, format_comparison
from .stats import LEVEL

#: The player counts of the base game (R-SET-1).
PLAYER_COUNTS = (2, 3, 4, 5, 6)


def parse_players(spec: str) -> list[int]:
    """Player counts from ``"2-6"``, ``"3,5"``, ``"2-3,6"`` or ``"4"``, in order, each once;
    :class:`ConfigError` for anything else or a count outside 2-6."""
    out: list[int] = []
    for part in spec.replace(" ", "").split(","):
        try:
            if "-" in part:
                lo, hi = (int(x) for x in part.split("-", 1))
                counts = list(range(lo, hi + 1))
                if not counts:
                    raise ValueError
            else:
                counts = [int(part)]
        except ValueError:
            raise ConfigError(f"--players {spec!r}: give counts like 2-6, 3,5 or 4") from None
        for n in counts:
            if n not in PLAYER_COUNTS:
                raise ConfigError(f"--players {spec!r}: {n} players; the game takes 2 to 6")
            if n not in out:
                out.append(n)
    return out


def lineup_for(spec: str, players: int) -> tuple[str, ...]:
    """The bots of ``players`` seats from the line-up ``spec`` (``"search,greedy"``): the bots
    named for the first seats, the last one filling the seats left. :class:`ConfigError` when
    it names more bots than there are seats."""
    bots = [b.strip() for b in spec.split(",")]
    if any(not b for b in bots):
        raise ConfigError(f"--bots {spec!r}: an empty bot name")
    if len(bots) > players:
        raise ConfigError(f"--bots {spec!r} names {len(bots)} bots, more than the {players} seats")
    return tuple(bots + [bots[-1]] * (players - len(bots)))


@define(slots=True)
class Cell:
    """One comparison of the sweep: ``players``, the ``lineup`` (its specification as given)
    and ``bots`` (per seat), the ``variants`` at that player count, their ``tasks`` and, once
    played and compared, the ``comparison``."""

    players: int
    lineup: str
    bots: tuple[str, ...]
    variants: list[Variant]
    tasks: list[list[SimTask]] = field(factory=list)
    comparison: Comparison | None = None

    @property
    def title(self) -> str:
        """``"4 players, bots search,greedy,greedy,greedy"`` (``"bots greedy"`` for one bot)."""
        bots = self.bots[0] if len(set(self.bots)) == 1 else ",".join(self.bots)
        return f"{self.players} players, bots {bots}"


def with_players(variant: Variant, players: int) -> Variant:
    """``variant`` played by ``players`` (a count; names in its configuration are dropped)."""
    return evolve(variant, players=players)


def base_variant(players: int) -> Variant:
    """The base game for ``players``: no module, every option at its default."""
    return Variant("base", players, (), (), None)


def check_cell_variants(variants: Sequence[Variant]) -> None:
    """Build one game of each variant (its user modules and options at its player count), so
    that a variant some player count does not take fails before any game is played."""
    from ..game import new_game
    from ..simulate import _user_modules

    for v in variants:
        users = _user_modules(v.config_path)
        new_game(v.players, modules=[users.get(m, m) for m in v.modules], seed=1, options=dict(v.options))


def sweep_cells(
    variant: Variant,
    base: Variant | None,
    *,
    players: Sequence[int],
    lineups: Sequence[str],
    games: int,
    seed: int = 1,
    rotate_seats: bool = False,
) -> list[Cell]:
    """The comparisons of ``variant`` against ``base`` (None: the base game) for every player
    count and line-up, in that order, each with its tasks (``games`` seeds from ``seed``, the
    same in every cell; rounded up to whole rotations with ``rotate_seats``). Task indices run
    on over the cells, so all of them are played as one run. Raises :class:`ConfigError` for a
    line-up that does not fit a player count or a variant that cannot be played with it."""
    from ..simulate import seat_bots
    from .compare import _reindex, unique_labels

    cells: list[Cell] = []
    start = 0
    for n in players:
        pair = unique_labels([with_players(base, n) if base is not None else base_variant(n), with_players(variant, n)])
        check_cell_variants(pair)
        for spec in lineups:
            bots = lineup_for(spec, n)
            seat_bots(list(bots), n)  # an unknown bot fails here
            tasks = compare_tasks(pair, bots=list(bots), games=games, seed=seed, rotate_seats=rotate_seats)
            renumbered = []
            for ts in tasks:  # indices run on over the variants and the cells
                renumbered.append([_reindex(t, start + i) for i, t in enumerate(ts)])
                start += len(ts)
            cells.append(Cell(n, spec, bots, pair, renumbered))
    return cells


def compare_cells(cells: Sequence[Cell], results: Sequence[GameResult]) -> int:
    """Compare every cell on its share of ``results`` (all the sweep's games in task order),
    then test all the differences of the sweep as one family; returns its size."""
    k = 0
    for cell in cells:
        per: list[list[GameResult]] = []
        for ts in cell.tasks:
            per.append(list(results[k : k + len(ts)]))
            k += len(ts)
        cell.comparison = compare_results(per, [v.label for v in cell.variants])
    comparisons = [c.comparison for c in cells if c.comparison is not None]
    return adjust_family(comparisons, scope=f"this sweep's {len(comparisons)} comparisons")


def run_sweep(cells: Sequence[Cell], *, workers: int = 1, progress: bool = False) -> list[GameResult]:
    """Play every cell's games as one run (:func:`alhambra.simulate.run_games`) and compare
    (:func:`compare_cells`); returns all the results, in task order."""
    from ..simulate import run_games

    flat = [t for c in cells for ts in c.tasks for t in ts]
    results = [r for r, _ in run_games(flat, workers=workers, progress=progress)]
    compare_cells(cells, results)
    return results


def found_rows(cells: Sequence[Cell]) -> list[str]:
    """The figures that differ in some cell (after the sweep's correction), in table order."""
    keys: list[str] = []
    for c in cells:
        if c.comparison is None:
            continue
        for r in c.comparison.rows:
            if r.detected and not r.primary and r.figure.key not in keys:
                keys.append(r.figure.key)
    return keys


def cell_row(cell: Cell, key: str) -> Row | None:
    """The row of figure ``key`` in ``cell``'s comparison (None if it has none)."""
    if cell.comparison is None:
        return None
    return next((r for r in cell.comparison.rows if r.figure.key == key), None)


def format_sweep(cells: Sequence[Cell]) -> list[str]:
    """The sweep as text lines: a header, every cell's comparison (:func:`.compare.format_comparison`),
    then the summary: per figure that differs somewhere, its difference in every cell with the
    simultaneous interval (``*``: a finding there), and how often the winner changed against
    its A/A baseline."""
    done = [c for c in cells if c.comparison is not None]
    if not done:
        return ["sweep: no comparison"]
    first = done[0].comparison
    assert first is not None
    labels = first.labels
    lines = [
        f"sweep: {labels[1]} against {labels[0]}, {len(done)} comparisons ("
        + "; ".join(c.title for c in done)
        + f"); {len(first.seeds)} seeds each; {first.family} differences tested together"
    ]
    for c in done:
        assert c.comparison is not None
        lines.append("")
        lines.append(f"== {c.title} ==")
        lines.extend(format_comparison(c.comparison))
    lines.append("")
    lines.extend(summary_lines(done))
    return lines


def summary_lines(cells: Sequence[Cell]) -> list[str]:
    """The summary of :func:`format_sweep`."""
    first = cells[0].comparison
    assert first is not None
    keys = found_rows(cells)
    width = max([len(k) for k in keys] + [30])
    heads = [c.title for c in cells]
    col = max(24, *(len(h) for h in heads))
    lines = [
        f"sweep summary: {first.labels[1]} - {first.labels[0]} per comparison, simultaneous 95% intervals "
        f"(Bonferroni over the sweep's {first.family} differences), * a finding after Holm's correction over them"
    ]
    if not keys:
        lines.append("  no figure differs in any comparison: no difference shown")
    else:
        lines.append(f"  {'figure':<{width}}  " + "  ".join(f"{h:>{col}}" for h in heads))
        for key in keys:
            cells_text = []
            for c in cells:
                row = cell_row(c, key)
                if row is None:
                    cells_text.append(f"{'-':>{col}}")
                    continue
                d = row.corrected[0]
                mark = "*" if row.adjusted[0] < 1.0 - LEVEL else " "
                cells_text.append(f"{_short(d) + mark:>{col}}")
            lines.append(f"  {key:<{width}}  " + "  ".join(cells_text))
    lines.append(
        "  how often the rule mattered (95% intervals clustered by seed; the winner's A/A baseline: "
        f"{first.labels[0]} against itself on other seeds):"
    )
    for c in cells:
        assert c.comparison is not None
        for m in c.comparison.mattered:
            play = "not recorded" if m.play_changed is None else f"{m.play_count} of {m.games}"
            base = "fewer than two seeds" if m.baseline is None else str(m.baseline)
            lines.append(
                f"    {c.title}: play changed in {play}; winner changed in {m.winner_count} of {m.games} "
                f"({m.winner_changed}), baseline {base}"
            )
    return lines


def _short(d: Any) -> str:
    def g(x: float) -> str:
        return f"{0.0 if abs(x) < 1e-12 else x:.3g}"

    return f"{g(d.value)} [{g(d.low)}, {g(d.high)}]"
