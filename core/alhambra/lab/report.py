"""Plots (matplotlib) and self-contained HTML reports (jinja2) of simulations and comparisons.

* :func:`comparison_png`: six panels for a :class:`~.compare.Comparison`: points per player
  by source per variant (with 95 % intervals), the distribution of final scores, every
  point figure's difference from the first variant with its simultaneous interval (a forest
  plot), the start player's win share per variant (Wilson intervals) against chance, the
  buildings built per player by type per variant, and the differences in the buildings bought
  (by type and scoring period) and built (simultaneous intervals).
* :func:`simulation_png`: :func:`alhambra.plotting.plot_results`'s panels, as PNG bytes.
* :func:`write_comparison_report` / :func:`write_simulation_report` /
  :func:`write_sweep_report`: one HTML file with the tables and the plots inlined as
  ``data:`` URIs (no other file needed to read it).

Figures render with the Agg backend directly (no pyplot, no display; the global backend is
left alone). Missing matplotlib or jinja2 raise :class:`AlhambraError` naming the extra.
"""

from __future__ import annotations

import base64
import datetime
import io
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import AlhambraError
from .compare import Comparison
from .stats import LEVEL, NO_DIFFERENCE

_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise AlhambraError("plots need matplotlib: pip install 'alhambra-engine[lab]'") from None
    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def comparison_png(cmp: Comparison) -> bytes:
    """The six panels of a comparison as PNG bytes (about 1400 x 1500 pixels)."""
    fig = _figure(14, 15)
    (ax_src, ax_dist), (ax_diff, ax_start), (ax_built, ax_play) = fig.subplots(3, 2)
    fig.suptitle(f"{' vs '.join(cmp.labels)}: {len(cmp.seeds)} seeds, bots {', '.join(cmp.bots)}")
    k = len(cmp.labels)

    src = [r for r in cmp.rows if r.figure.group == "points by source"]
    names = [r.figure.key.replace("points per player: ", "").replace("majority ", "") for r in src]
    width = 0.8 / k
    for i, lab in enumerate(cmp.labels):
        xs = [j + (i - (k - 1) / 2) * width for j in range(len(src))]
        vals = [r.values[i].value for r in src]
        err = [
            [max(0.0, r.values[i].value - r.values[i].low) for r in src],
            [max(0.0, r.values[i].high - r.values[i].value) for r in src],
        ]
        ax_src.bar(xs, vals, width, yerr=err, capsize=2, label=lab, color=_COLOURS[i % len(_COLOURS)])
    ax_src.set_xticks(range(len(src)), names, rotation=20)
    ax_src.set_ylabel("points per player per game")
    ax_src.set_title("points by source (95% intervals)")
    if src:
        ax_src.legend()

    for i, rs in enumerate(cmp.results):
        scores = [s for r in rs for s in r.scores]
        if scores:
            ax_dist.hist(
                scores,
                bins=30,
                histtype="step",
                linewidth=1.6,
                label=cmp.labels[i],
                color=_COLOURS[i % len(_COLOURS)],
                density=True,
            )
    ax_dist.set_xlabel("final score")
    ax_dist.set_ylabel("share of players")
    ax_dist.set_title("final scores")
    ax_dist.legend()

    pts = [r for r in cmp.rows if r.figure.unit == "points"]
    _forest(ax_diff, cmp, pts, f"difference from {cmp.labels[0]} in points (grey: not a finding)")
    ax_diff.set_title(f"differences, simultaneous 95% intervals (Bonferroni over {cmp.family})")

    built = [r for r in cmp.rows if r.figure.group == "buildings built" and ":" in r.figure.key]
    names = [r.figure.key.rsplit(": ", 1)[1] for r in built]
    for i, lab in enumerate(cmp.labels):
        xs = [j + (i - (k - 1) / 2) * width for j in range(len(built))]
        vals = [r.values[i].value for r in built]
        err = [
            [max(0.0, r.values[i].value - r.values[i].low) for r in built],
            [max(0.0, r.values[i].high - r.values[i].value) for r in built],
        ]
        ax_built.bar(xs, vals, width, yerr=err, capsize=2, label=lab, color=_COLOURS[i % len(_COLOURS)])
    ax_built.set_xticks(range(len(built)), names, rotation=20)
    ax_built.set_ylabel("buildings per player at the end")
    ax_built.set_title("buildings built by type (95% intervals)")
    if built:
        ax_built.legend()

    play = [r for r in cmp.rows if r.figure.group in ("buildings bought", "buildings built")]
    _forest(ax_play, cmp, play, f"difference from {cmp.labels[0]} in buildings per player (grey: not a finding)", 5)
    ax_play.set_title("buildings bought and built: differences (simultaneous 95%)")

    from .stats import wilson
    from .summary import start_player_wins

    for i, (wins, n, chance) in enumerate(start_player_wins(rs) for rs in cmp.results):
        if not n:
            continue
        rate = wilson(wins, n)
        ax_start.bar(
            [i],
            [rate.value],
            color=_COLOURS[i % len(_COLOURS)],
            yerr=[[max(0.0, rate.value - rate.low)], [max(0.0, rate.high - rate.value)]],
            capsize=4,
        )
        ax_start.scatter([i], [chance], marker="_", s=900, color="black", label="chance" if i == 0 else None)
    ax_start.set_xticks(range(k), cmp.labels)
    ax_start.set_ylim(0, 1)
    ax_start.set_ylabel("win share")
    ax_start.set_title("start player's win share (Wilson 95%)")
    ax_start.legend()
    return _png(fig)


def _forest(ax: Any, cmp: Comparison, rows: Sequence[Any], xlabel: str, fontsize: int = 7) -> None:
    """A forest plot on ``ax``: every row's differences from the first variant with their
    simultaneous intervals; findings in the variant's colour, the rest grey."""
    k = len(cmp.labels)
    ys = list(range(len(rows)))[::-1]
    for j, lab in enumerate(cmp.labels[1:]):
        off = (j - (k - 2) / 2) * 0.25
        for y, r in zip(ys, rows):
            d = r.corrected[j] if r.corrected else r.diffs[j]
            found = r.adjusted[j] < 1.0 - LEVEL
            colour = _COLOURS[(j + 1) % len(_COLOURS)] if found else "tab:gray"
            ax.errorbar(
                [d.value],
                [y + off],
                xerr=[[max(0.0, d.value - d.low)], [max(0.0, d.high - d.value)]],
                fmt="o",
                color=colour,
                capsize=2,
                markersize=3,
                label=f"{lab} - {cmp.labels[0]}" if y == ys[0] else None,
            )
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(ys, [r.figure.key for r in rows], fontsize=fontsize)
    ax.set_xlabel(xlabel)
    if rows and k > 2:
        ax.legend(fontsize=7)


def simulation_png(results: Sequence[Any]) -> bytes:
    """:func:`alhambra.plotting.plot_results`'s figure of ``results`` as PNG bytes."""
    from ..plotting import plot_results

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "plot.png"
        plot_results(results, path)
        return path.read_bytes()


def _template(name: str) -> Any:
    try:
        import jinja2
    except ImportError:
        raise AlhambraError("HTML reports need jinja2: pip install 'alhambra-engine[lab]'") from None
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("alhambra.lab", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
    )
    env.filters["num"] = _num
    env.filters["signed"] = _signed
    return env.get_template(name)


def _num(x: Any, p: int = 3) -> str:
    """A figure for the page: ``p`` significant digits, and 0 for what is 0 but for rounding
    (an interval around a share above chance of 0 is ``3.7e-17`` in floating point)."""
    if isinstance(x, float):
        return f"{0.0 if abs(x) < 1e-9 else x:.{p}g}"
    return str(x)


def _signed(x: float) -> str:
    """A difference for the page, with its sign: as :func:`_num`, ``+0.25``, ``-1``, ``+0``."""
    return f"{0.0 if abs(x) < 1e-9 else x:+.3g}"


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _write(path: str | Path, html: str) -> Path:
    path = Path(path)
    path.write_text(html, "utf-8")
    return path


def _stamp() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def write_comparison_report(
    cmp: Comparison, path: str | Path, *, variants: Sequence[Any] = (), command: str = ""
) -> Path:
    """Write the HTML report of ``cmp`` to ``path``: what was compared (``variants``: the
    :class:`~.compare.Variant` objects, for their players, modules and options), the notes,
    the figures that differ, the whole table with verdicts, and the plots."""
    html = _template("compare.html.j2").render(
        cmp=cmp,
        variants=list(variants),
        command=command,
        stamp=_stamp(),
        no_difference=NO_DIFFERENCE,
        groups=_grouped(cmp),
        plot=_data_uri(comparison_png(cmp)),
        detected=cmp.detected(),
    )
    return _write(path, html)


def write_sweep_report(cells: Sequence[Any], path: str | Path, *, command: str = "", plots: bool = True) -> Path:
    """Write the HTML report of a sweep (:mod:`.sweep`: its compared cells) to ``path``: the
    summary of what differs where (simultaneous intervals over the sweep), how often the play
    and the winner changed beside the A/A baseline, and every comparison's section (as
    :func:`write_comparison_report`'s page, with its plots unless ``plots`` is false)."""
    from .sweep import cell_row, found_rows

    done = [c for c in cells if c.comparison is not None]
    if not done:
        raise AlhambraError("a sweep report needs at least one comparison")
    first = done[0].comparison
    sections = [
        {
            "cell": c,
            "groups": _grouped(c.comparison),
            "detected": c.comparison.detected(),
            "plot": _data_uri(comparison_png(c.comparison)) if plots else None,
        }
        for c in done
    ]
    html = _template("sweep.html.j2").render(
        labels=first.labels,
        sections=sections,
        seeds=len(first.seeds),
        family=first.family,
        found=[(key, [cell_row(c, key) for c in done]) for key in found_rows(done)],
        command=command,
        stamp=_stamp(),
        no_difference=NO_DIFFERENCE,
    )
    return _write(path, html)


def _grouped(cmp: Comparison) -> list[tuple[str, list[Any]]]:
    out: list[tuple[str, list[Any]]] = []
    for row in cmp.rows:
        if not out or out[-1][0] != row.figure.group:
            out.append((row.figure.group, []))
        out[-1][1].append(row)
    return out


def write_simulation_report(
    results: Sequence[Any], summary: dict[str, Any], path: str | Path, *, command: str = ""
) -> Path:
    """Write the HTML report of a simulation (``summary``: :func:`alhambra.simulate.summarize`
    of ``results``) to ``path``: win rates per bot and per seat with Wilson intervals, the
    start player's win rate, the confounding note, game length, module action use, the plot."""
    from .summary import CONFOUNDED

    html = _template("simulate.html.j2").render(
        s=summary,
        command=command,
        stamp=_stamp(),
        confounded=CONFOUNDED,
        plot=_data_uri(simulation_png(results)) if results else None,
    )
    return _write(path, html)
