"""Intervals and the confounding note for the summaries of ``alhambra simulate``.

:func:`add_intervals` enriches :func:`alhambra.simulate.summarize`'s dict in place: a Wilson
95 % interval (:func:`.stats.wilson`) beside every win rate (per seat, per bot), the start
player's win rate (R-SET-4: the start player is the seat dealt the fewest cards, not seat 0),
and whether per-seat figures are confounded because bots sat in fixed seats.
:func:`interval_lines` words them for the text summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .rotation import is_confounded

CONFOUNDED = (
    "per-seat figures are confounded: different bots sat in fixed seats, so a seat's win share "
    "measures its bot as much as the seat (use --rotate-seats)"
)


def _stats_available() -> bool:
    try:
        import statsmodels  # noqa: F401
    except ImportError:
        return False
    return True


def load_statistics() -> None:
    """Import what :func:`add_intervals` uses (statsmodels, when installed) now: a run that may
    be interrupted does it before playing, so that its summary after Ctrl-C is printed at
    once (the import takes a second or two)."""
    if _stats_available():
        from .stats import wilson  # noqa: F401

        from statsmodels.stats import proportion  # noqa: F401


def start_player_wins(results: Sequence[Any]) -> tuple[float, int, float]:
    """``(wins, games, chance)``: the start players' total win share over the games of
    ``results`` that record a start player, how many those are, and the mean chance share
    (``1 / players``) over them (0.0 without such games)."""
    wins = 0.0
    games = 0
    chance = 0.0
    for r in results:
        sp = r.start_player
        if sp is not None:
            wins += r.returns()[sp]
            games += 1
            chance += 1.0 / r.players
    return wins, games, (chance / games if games else 0.0)


def seed_clusters(results: Sequence[Any], holds: Any) -> list[tuple[float, float]]:
    """Per seed (its games and rotations: one cluster), ``(win share, seatings)`` summed over
    the seats for which ``holds(result, seat)`` is true (a bot in several seats of a game
    brings that game's combined share, so a bot holding every seat scores exactly 1 per game)."""
    acc: dict[Any, list[float]] = {}
    for r in results:
        ret = r.returns()
        for seat in range(r.players):
            if holds(r, seat):
                a = acc.setdefault(r.seed, [0.0, 0.0])
                a[0] += ret[seat]
                a[1] += 1.0
    return [(y, n) for y, n in acc.values()]


def add_intervals(summary: dict[str, Any], results: Sequence[Any]) -> dict[str, Any]:
    """Add ``win_low``/``win_high`` to every seat and bot entry of ``summary``, a
    ``start_player`` entry (``win_rate``, ``win_low``, ``win_high``, ``chance``, ``games``)
    and ``confounded`` (bool); returns ``summary``. Without statsmodels the intervals are left
    out (``summary["intervals"]`` is False) and the rest is added."""
    if not summary.get("games"):
        return summary
    summary["confounded"] = is_confounded(results)
    summary["intervals"] = _stats_available()
    if not summary["intervals"]:
        return summary
    from .stats import clustered_rate, wilson

    for i, s in enumerate(summary.get("seats", [])):
        cr = clustered_rate(seed_clusters(results, lambda r, seat, i=i: seat == i))
        s["win_low"], s["win_high"] = cr.rate.low, cr.rate.high
        s["design_effect"] = cr.design_effect
    for b in summary.get("bots", []):
        name = b.get("bot")
        cr = clustered_rate(
            seed_clusters(results, lambda r, seat, name=name: (r.bots or ["?"] * r.players)[seat] == name)
        )
        b["win_low"], b["win_high"] = cr.rate.low, cr.rate.high
        b["design_effect"] = cr.design_effect
    wins, games, chance = start_player_wins(results)
    if games:
        rate = wilson(wins, games)
        summary["start_player"] = {
            "games": games,
            "win_rate": rate.value,
            "win_low": rate.low,
            "win_high": rate.high,
            "chance": chance,
        }
    return summary


def interval_lines(summary: dict[str, Any]) -> list[str]:
    """Text lines for the intervals of :func:`add_intervals` (none if it found none)."""
    lines: list[str] = []
    if not summary.get("games"):
        return lines
    if summary.get("intervals"):
        seats = summary.get("seats", [])
        lines.append(
            "  win share per seat, 95% interval clustered by seed: "
            + ", ".join(f"{s['win_share']:.2f} [{s['win_low']:.2f}, {s['win_high']:.2f}]" for s in seats)
        )
        deffs = [b["design_effect"] for b in summary.get("bots", []) if "design_effect" in b]
        if deffs:
            lines.append(
                "  design effect of clustering by seed (variance over independent games): "
                + ", ".join(f"{b['bot']} {b['design_effect']:.2f}" for b in summary["bots"] if "design_effect" in b)
            )
        sp = summary.get("start_player")
        if sp:
            lines.append(
                f"  start player's win rate: {sp['win_rate']:.3f} [{sp['win_low']:.3f}, {sp['win_high']:.3f}] "
                f"(chance {sp['chance']:.3f}, {sp['games']} games)"
            )
    else:
        lines.append("  (no intervals: pip install 'alhambra-engine[lab]' for 95% intervals)")
    if summary.get("confounded"):
        lines.append("  note: " + CONFOUNDED)
    return lines
