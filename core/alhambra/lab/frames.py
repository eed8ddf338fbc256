"""Result records as a pandas DataFrame, in one call: :func:`load_dataframe`.

One row per game and seat (the long form that ``groupby`` wants):

``game`` (0-based position in the input), ``seed``, ``variant``, ``players``, ``modules``
(comma-separated), ``seat``, ``bot``, ``rotation``, ``score``, ``win_share`` (1, 1/k in a
k-way shared victory, 0), ``start_player`` (bool: this seat started, R-SET-4),
``money_left``, ``actions``, ``turns``, ``scorings_held`` (e.g. ``"1,2,3"``), one column
``points:<source>`` per source summed over the scorings (``points:majority:<type>``,
``points:walls``, ``points:extra:<column>``) and ``points:scoring<k>`` (the seat's total in
scoring k). Version 1 records, which lack points, leave those columns empty (NaN).

From the record's ``tallies`` (version 3; empty columns before): ``bought:<type>`` (buildings
bought in the whole game) and ``bought<k>:<type>`` (in scoring period k = 1, 2, 3: before the
first scoring, between the first and second, after the second), ``received:<type>`` (handed
out at the end), ``built:<type>`` (in the Alhambra at the end), ``reserve``, ``wall`` (the
longest outer wall at the end), ``money_taken``, ``money_spent``, ``purchases``, ``exact``
(exact payments) and ``action:<type name>`` (the seat's actions of each type).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import AlhambraError
from .records import points_by_source
from .tally import bought_total


def records_rows(results: Iterable[Any]) -> list[dict[str, Any]]:
    """The rows of :func:`load_dataframe` as plain dicts (no pandas needed)."""
    rows: list[dict[str, Any]] = []
    for g, r in enumerate(results):
        ret = r.returns()
        for seat in range(r.players):
            row: dict[str, Any] = {
                "game": g,
                "seed": r.seed,
                "variant": r.variant,
                "players": r.players,
                "modules": ",".join(r.modules),
                "seat": seat,
                "bot": r.bots[seat] if seat < len(r.bots) else "",
                "rotation": r.rotation,
                "score": r.scores[seat],
                "win_share": ret[seat],
                "start_player": r.start_player == seat if r.start_player is not None else None,
                "money_left": r.money_left[seat] if seat < len(r.money_left) else None,
                "actions": r.actions,
                "turns": r.turns,
                "scorings_held": ",".join(map(str, r.scorings)),
            }
            if r.points:
                for source, v in points_by_source(r.points, seat).items():
                    row[f"points:{source}"] = v
                for scoring in r.points:
                    row[f"points:scoring{scoring['number']}"] = scoring["seats"][seat]["total"]
            if seat < len(r.tallies):
                row.update(tally_columns(r.tallies[seat]))
            rows.append(row)
    return rows


def tally_columns(tally: dict[str, Any]) -> dict[str, Any]:
    """The columns of one seat's tally (see the module's docstring)."""
    out: dict[str, Any] = {f"bought:{t}": v for t, v in bought_total(tally).items()}
    for k, period in enumerate(tally["bought"], 1):
        out.update({f"bought{k}:{t}": v for t, v in period.items()})
    out.update({f"received:{t}": v for t, v in tally["received"].items()})
    out.update({f"built:{t}": v for t, v in tally["built"].items()})
    for key in ("reserve", "wall", "money_taken", "money_spent", "purchases", "exact"):
        out[key] = tally[key]
    out.update({f"action:{name}": v for name, v in tally["actions"].items()})
    return out


def load_dataframe(source: str | Path | Iterable[Any]) -> Any:
    """A pandas DataFrame of result records, one row per game and seat (columns above).

    ``source``: a JSON Lines results file (``alhambra simulate --out``) or an iterable of
    :class:`alhambra.simulate.GameResult`. Raises :class:`AlhambraError` if pandas is not
    installed (the ``lab`` extra) and, naming the line, for a malformed file."""
    try:
        import pandas as pd
    except ImportError:
        raise AlhambraError("load_dataframe needs pandas: pip install 'alhambra-engine[lab]'") from None
    if isinstance(source, (str, Path)):
        from ..simulate import read_results

        source = read_results(source)
    return pd.DataFrame.from_records(records_rows(source))


def comparison_frame(cmp: Any) -> Any:
    """The table of a :class:`~alhambra.lab.compare.Comparison` as a pandas DataFrame, one row
    per figure: ``group``, ``figure``, ``unit``, then per variant ``<label>``,
    ``<label> low``, ``<label> high`` (its mean and 95 % interval), and per variant after the
    first ``<label> - <first>``, its ``low`` and ``high`` (95 % on its own), its
    ``simultaneous low`` and ``simultaneous high`` (Bonferroni over the comparison's family),
    ``p``, ``Holm p`` and ``verdict``. Raises :class:`AlhambraError` without pandas."""
    try:
        import pandas as pd
    except ImportError:
        raise AlhambraError("comparison_frame needs pandas: pip install 'alhambra-engine[lab]'") from None
    rows = []
    first = cmp.labels[0]
    for row in cmp.rows:
        d: dict[str, Any] = {"group": row.figure.group, "figure": row.figure.key, "unit": row.figure.unit}
        for label, v in zip(cmp.labels, row.values):
            d[label], d[f"{label} low"], d[f"{label} high"] = v.value, v.low, v.high
        for i, (label, diff, verdict) in enumerate(zip(cmp.labels[1:], row.diffs, row.verdicts)):
            name = f"{label} - {first}"
            d[name], d[f"{name} low"], d[f"{name} high"] = diff.value, diff.low, diff.high
            if row.corrected:
                d[f"{name} simultaneous low"], d[f"{name} simultaneous high"] = (
                    row.corrected[i].low,
                    row.corrected[i].high,
                )
            d[f"{name} p"], d[f"{name} Holm p"], d[f"{name} verdict"] = row.pvalues[i], row.adjusted[i], verdict
        rows.append(d)
    return pd.DataFrame.from_records(rows)
