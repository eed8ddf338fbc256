"""Plots of simulation results (the optional ``plot`` extra: matplotlib).

:func:`plot_results` draws, for a list of :class:`~alhambra.simulate.GameResult`, the score
distribution of each bot (box plots with every game's score as a point), each bot's win rate
(with the share a bot would win by chance), and the win share per seat. It renders with the
Agg backend directly (no pyplot, no display needed, the global backend is left alone).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from .errors import AlhambraError

if TYPE_CHECKING:  # pragma: no cover
    from .simulate import GameResult


def _figure() -> Any:  # a matplotlib Figure
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise AlhambraError("plotting needs matplotlib: pip install 'alhambra-engine[plot]'") from None
    fig = Figure(figsize=(13, 4.6), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _wilson_err(entries: list[dict[str, Any]], key: str) -> list[list[float]] | None:
    """Error bars from the summary's Wilson interval (``win_low``/``win_high``), if it has them."""
    if not entries or "win_low" not in entries[0]:
        return None
    return [[max(0.0, e[key] - e["win_low"]) for e in entries], [max(0.0, e["win_high"] - e[key]) for e in entries]]


def plot_results(results: Sequence[GameResult], path: str | Path, *, title: str | None = None) -> Path:
    """Draw score distributions per bot, win rates per bot and win shares per seat of
    ``results`` into ``path`` (PNG, or any format matplotlib knows by the file suffix)."""
    from .simulate import summarize

    path = Path(path)
    summary = summarize(results)
    fig = _figure()
    ax_scores, ax_wins, ax_seats = fig.subplots(1, 3, width_ratios=[1.4, 1, 1])
    n = summary["games"]
    if title is None:
        if n:
            pl = "/".join(map(str, summary["players"]))
            mods = ", ".join(summary["modules"]) or "no modules"
            title = f"{n} games, {pl} players, {mods}"
        else:
            title = "no games"
    fig.suptitle(title)
    bots = summary.get("bots", [])
    names = [b["bot"] for b in bots]
    scores: dict[str, list[Any]] = {b: [] for b in names}
    for r in results:
        for s, b in enumerate(r.bots or []):
            scores.setdefault(b, []).append(r.scores[s])
    if names:
        data = [scores[b] for b in names]
        ax_scores.boxplot(data, showmeans=True)
        ax_scores.set_xticks(range(1, len(names) + 1), names, rotation=15)
        for i, vals in enumerate(data, 1):
            jitter = [i + ((k * 7919) % 100 - 50) / 400 for k in range(len(vals))]
            ax_scores.scatter(jitter, vals, s=6, alpha=0.35, color="tab:blue")
    ax_scores.set_title("final scores per bot")
    ax_scores.set_ylabel("points")

    if names:
        rates = [b["win_rate"] for b in bots]
        fair = [b["fair_rate"] for b in bots]
        xs: Sequence[Any] = range(len(names))
        bars = ax_wins.bar(xs, rates, color="tab:green", yerr=_wilson_err(bots, "win_rate"), capsize=4)
        ax_wins.scatter(xs, fair, marker="_", s=600, color="black", label="chance")
        for bar, rate in zip(bars, rates):
            ax_wins.annotate(f"{rate:.2f}", (bar.get_x() + bar.get_width() / 2, rate), ha="center", va="bottom")
        ax_wins.set_xticks(list(xs), names, rotation=15)
        ax_wins.legend(loc="upper right")
    ax_wins.set_ylim(0, 1.05)
    ax_wins.set_title("win rate per seat taken (Wilson 95%)")

    seats = summary.get("seats", [])
    if seats:
        seat_xs = [s["seat"] for s in seats]
        ax_seats.bar(
            seat_xs,
            [s["win_share"] for s in seats],
            color="tab:orange",
            yerr=_wilson_err(seats, "win_share"),
            capsize=4,
        )
        ax_seats.set_xticks(seat_xs, [f"seat {s}" for s in seat_xs])
    ax_seats.set_ylim(0, 1.05)
    confounded = summary.get("confounded", False)
    ax_seats.set_title("win share per seat" + ("\n(confounded: bots in fixed seats)" if confounded else ""))

    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    return path
