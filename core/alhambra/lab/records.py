"""What a result record says about one finished game beyond its scores, read from the game.

These functions read only the public API of a finished :class:`alhambra.Game` (its state's
scoring records, players and start player) and return plain JSON-ready data; they are what
:func:`alhambra.simulate.result_of` stores in the record fields ``points``, ``start_player``
and ``money_left`` (the format is ``docs/result-record.schema.json``).
"""

from __future__ import annotations

from typing import Any

from ..engine.components import MoneyCard


def scoring_points(game: Any, state: Any = None) -> list[dict[str, Any]]:
    """The points of every scoring held, by source and seat (R-SCORE-1 … R-SCORE-5).

    One entry per scoring, in the order held: ``{"number": 1|2|3, "seats": [...]}`` with one
    entry per seat ``0..n-1``: ``{"majority": {building type: points}, "walls": points,
    "extra": {column: points}, "total": points}``. ``extra`` holds the named columns plugins
    add (``alhambra_scoring_adjust``: a module's or house rule's own points). With two
    players the entry also has ``"dirk"``: Dirk's total in that scoring (R-TWO-3). ``state``:
    the game's state, or an object with its ``scorings`` (default ``game.state``)."""
    n = game.num_players
    out: list[dict[str, Any]] = []
    for rec in (game.state if state is None else state).scorings:
        totals = rec.totals
        seats: list[dict[str, Any]] = []
        dirk: int | None = None
        for k, who in enumerate(rec.participants):
            if who >= n:
                dirk = (dirk or 0) + totals[k]
                continue
            seats.append(
                {
                    "majority": {t: int(v) for t, v in rec.majority[k].items()},
                    "walls": int(rec.walls[k]),
                    "extra": {name: int(col[k]) for name, col in rec.extra.items()},
                    "total": int(totals[k]),
                }
            )
        entry: dict[str, Any] = {"number": int(rec.number), "seats": seats}
        if dirk is not None:
            entry["dirk"] = dirk
        out.append(entry)
    return out


def money_left(game: Any, state: Any = None) -> list[int]:
    """Per seat, the total value of the money cards in hand at the end (all currencies
    together, R-END-2: the tie-break of the option ``tiebreak = "money"``). Exchange offices
    and other module cards in hand are not money and count nothing. ``state``: the game's
    state, or an object with its ``players`` and their ``hand`` (default ``game.state``)."""
    players = (game.state if state is None else state).players
    return [sum(c.value for c in p.hand if isinstance(c, MoneyCard)) for p in players]


def points_by_source(points: list[dict[str, Any]], seat: int) -> dict[str, int]:
    """The points ``seat`` earned over all scorings of a record's ``points``, by source.

    Keys: ``"majority:<building type>"`` for each type, ``"walls"``, and ``"extra:<column>"``
    for each plugin column. Raises :class:`IndexError` for a seat the record does not have."""
    out: dict[str, int] = {}
    for scoring in points:
        entry = scoring["seats"][seat]
        for t, v in entry["majority"].items():
            out[f"majority:{t}"] = out.get(f"majority:{t}", 0) + v
        out["walls"] = out.get("walls", 0) + entry["walls"]
        for name, v in entry["extra"].items():
            out[f"extra:{name}"] = out.get(f"extra:{name}", 0) + v
    return out
