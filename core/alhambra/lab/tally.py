"""What every seat did in a game: the result record's ``tallies`` (record version 3).

Per seat: the buildings it bought, by type and by scoring period (before the first scoring,
between the first and the second, after the second); those it received in the end-of-game
distribution (R-END-2); those in its Alhambra at the end, its reserve and its longest outer
wall (R-SCORE-5); the money it took and spent; its purchases and how many of them were exact
payments that earned another action (R-TURN-4); and its actions by type (the modules' among
them). :func:`tallies` computes them from the game's history, a :class:`Trace` (who decided
each action, in which phase and scoring period) and the final state.

A trace is recorded while the game is played (:class:`Recorder`, which
:func:`alhambra.simulate.play` drives) from what both engines tell cheaply: the seat to
decide, the phase, and the scorings held (the Python engine's state; the compiled kernel's
scores, which change exactly at a scoring, checked against the final count). A game played
without one is replayed from its start (:func:`replay_trace`). Nothing here needs the ``lab``
extra.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from attrs import define, field

from ..engine.components import BUILDING_TYPES
from ..saving.position import start_position

#: The scoring periods of ``bought``: the actions before the first scoring, between the first
#: and the second, and after the second (to the end of the game).
PERIODS = ("before scoring 1", "between scorings 1 and 2", "after scoring 2")

#: The phase of the end-of-game distribution (R-END-2), and of its placements' context.
_DISTRIBUTION = "distribution"
#: Actions that put a tile among a seat's pending tiles in the games the kernel plays (a
#: market building bought, through the vizier, with diamonds; a building hut taken, R-HUT-3):
#: each is followed by its placement.
_KERNEL_PURCHASES = frozenset({"Buy", "UseVizier", "BuyWithDiamonds", "TakeHut"})
#: Actions that take a pending tile (built, reserved, given to Dirk, or built with a city gate,
#: R-GATE-6) in those games.
_KERNEL_PLACEMENTS = frozenset({"Place", "Reserve", "GiveToDirk", "BuildThroughGate"})


@define(slots=True)
class Trace:
    """Per action of a game's history, in order: ``seats`` (the seat that decided it),
    ``phases`` (the phase it was decided in) and ``periods`` (the scorings held before it);
    ``acquired`` maps an action's index to the tiles it took from the seat's pending tiles
    (built, reserved or given to Dirk: a building bought, a hut taken, or one received at the
    end); ``end_at`` is the index of the first action of the end-of-game distribution (R-END-2),
    None if it had none. ``held``: the scorings held after the last action recorded.

    A game the compiled kernel played from its set-up to its end by itself (random players,
    :meth:`alhambra.game.KernelGame.play_random`) has no per-action trace: the kernel counted
    the record's figures as it played. ``native`` holds its report (``tallies``,
    ``action_counts``, ``money_left``) and ``codes`` the kernel's codes of the actions, which
    :func:`alhambra.simulate.result_of` reads instead."""

    seats: list[int] = field(factory=list)
    phases: list[str] = field(factory=list)
    periods: list[int] = field(factory=list)
    acquired: dict[int, tuple[Any, ...]] = field(factory=dict)
    end_at: int | None = None
    held: int = 0
    native: dict[str, Any] | None = None
    codes: list[int] | None = None

    def __len__(self) -> int:
        return len(self.seats)


class Recorder:
    """Records a :class:`Trace` of the actions applied to a game: call :meth:`before` with the
    game just before each action is applied and :meth:`after` just after. Reads only what costs
    nothing on either engine: a kernel game is never handed over to Python (its state is not
    read), and a game that is handed over while it is played (a bot reading ``game.state``) is
    followed on Python from then on."""

    __slots__ = ("trace", "_scores", "_owed", "_pending")

    def __init__(self, game: Any, trace: Trace | None = None) -> None:
        self.trace = trace if trace is not None else Trace()
        self._scores: list[int] | None = None
        self._owed: list[int] = [0] * game.num_players
        self._pending: list[Any] = []
        k = _native(game)
        if k is not None:
            self.start_native(k, fresh=not game.history and start_position(game) is None)
        else:
            self.trace.held = len(game.state.scorings)

    # -- the compiled kernel -------------------------------------------------------------------

    def start_native(self, k: Any, *, fresh: bool) -> None:
        """Start following the kernel game ``k``: its scores now, and (unless ``fresh``, a game
        just set up) the scorings already held and the tiles already pending (one read of its
        state)."""
        self._scores = list(k.scores)
        if fresh:
            return
        d = json.loads(k.state_json())
        self.trace.held = len(d["scorings"])
        if d["pending"]:
            if d["place_context"] == _DISTRIBUTION or d["phase"] == _DISTRIBUTION:
                if self.trace.end_at is None:
                    self.trace.end_at = len(self.trace)
            elif d["decider"] is not None:
                self._owed[d["decider"]] += len(d["pending"])

    def before_native(self, k: Any) -> None:
        t = self.trace
        t.seats.append(k.current_player)
        t.phases.append(k.phase)
        t.periods.append(t.held)

    def after_native(self, k: Any, action: Any) -> None:
        t = self.trace
        i = len(t.seats) - 1
        _note_native(t, self._owed, i, t.seats[i], action)
        scores = k.scores
        if scores != self._scores:  # points are scored only at a scoring
            t.held += 1
            self._scores = scores

    # -- the Python engine -----------------------------------------------------------------------

    def before_state(self, st: Any) -> None:
        t = self.trace
        t.seats.append(st.decider)
        t.phases.append(st.phase)
        t.periods.append(len(st.scorings))
        if t.end_at is None and (st.phase == _DISTRIBUTION or st.place_context == _DISTRIBUTION):
            t.end_at = len(t.seats) - 1
        self._pending = [p.tile for p in st.pending]

    def after_state(self, st: Any) -> None:
        t = self.trace
        if self._pending:
            left = {p.tile for p in st.pending}
            gone = tuple(x for x in self._pending if x not in left)
            if gone:
                t.acquired[len(t.seats) - 1] = gone
        t.held = len(st.scorings)

    # -- either --------------------------------------------------------------------------------

    def before(self, game: Any) -> None:
        """Record who decides the action about to be applied to ``game``, in which phase and
        scoring period."""
        k = _native(game)
        if k is not None:
            self.before_native(k)
        else:
            self._scores = None
            self.before_state(game.state)

    def after(self, game: Any, action: Any) -> None:
        """Record what ``action``, just applied to ``game``, took from the pending tiles and
        whether a scoring followed it."""
        k = _native(game)
        if k is not None:
            self.after_native(k, action)
        else:
            self.after_state(game.state)


def _note_native(t: Trace, owed: list[int], i: int, seat: int, action: Any) -> None:
    """Action ``i`` of a kernel game, decided by ``seat``: a purchase owes its seat a placement;
    a placement takes a tile from the pending ones (one owed, or else a building of the market
    handed out at the end, R-END-2, whose first placement starts the distribution)."""
    name = type(action).__name__
    if name in _KERNEL_PURCHASES:
        owed[seat] += 1
    elif name in _KERNEL_PLACEMENTS and (name != "BuildThroughGate" or t.phases[i] == "place"):
        # a tile built with a gate on a turn comes from the reserve (R-GATE-5), not the pending
        t.acquired[i] = (action.tile,)
        if owed[seat] > 0:
            owed[seat] -= 1
        elif t.end_at is None:
            t.end_at = i


def _native(game: Any) -> Any:
    """The kernel game of a :class:`~alhambra.game.KernelGame` still on the kernel, else None."""
    from ..game import KernelGame

    return game._kernel if type(game) is KernelGame else None


def record_native(actions: Sequence[Any], steps: Sequence[tuple[Any, str, int]], recorder: Recorder) -> None:
    """Record ``actions``, which the kernel just played itself, with ``recorder``, from the
    ``steps`` it reported (:meth:`alhambra.game.KernelGame.play_random`: per action the seat that
    decided it, its phase and the scorings held before it, then the end): the same trace as
    following them one by one."""
    t = recorder.trace
    seats, phases, periods = t.seats, t.phases, t.periods
    owed = recorder._owed
    i = len(seats)
    for action, (seat, phase, held) in zip(actions, steps):
        seats.append(seat)
        phases.append(phase)
        periods.append(held)
        _note_native(t, owed, i, seat, action)
        i += 1
    if steps:
        t.held = steps[-1][2]
    recorder._scores = None


def replay_trace(game: Any) -> Trace:
    """The trace of ``game``'s whole history, by replaying it from its start (the set-up of
    its seed, or its start position) on the Python engine (exact, for any rule set; about the
    cost of playing the game again without bots)."""
    from ..game import Game
    from ..saving.serialize import start_of

    fresh = start_of(game, Game._blank, modules=game.rules.module_objects, plugins=game.rules.plugins)
    rec = Recorder(fresh)
    for action in game.history:
        rec.before_state(fresh.state)
        fresh.apply(action)
        rec.after_state(fresh.state)
    return rec.trace


def trace_is_consistent(trace: Trace, scorings_held: int) -> bool:
    """Whether ``trace`` counted every scoring of a game that ended with ``scorings_held``
    (a scoring in which nobody scored a point, or two at once, escape the kernel's count)."""
    return trace.held == scorings_held


def tallies(game: Any, trace: Trace, players: Sequence[Any]) -> list[dict[str, Any]]:
    """Per seat of ``game``, what it did (the record's ``tallies``), from its history, the
    ``trace`` of that history and ``players``, the final state's players (their ``city`` and
    ``reserve``):

    * ``bought``: one entry per period of :data:`PERIODS`, the buildings bought by type (every
      type a key): the buildings the seat took from its pending tiles before the end-of-game
      distribution (built, reserved or given to Dirk), counted in the period of the action;
    * ``received``: the buildings received in the end-of-game distribution (R-END-2), by type;
    * ``built``: the buildings in the Alhambra at the end, by type (R-SCORE-2: the fountain
      and module tiles such as huts are no buildings); ``reserve``: tiles in the reserve;
      ``wall``: the longest outer wall at the end (R-SCORE-5), in tile sides;
    * ``money_taken``: the value of the money cards taken (R-TURN-2; all currencies, diamonds
      too); ``money_spent``: the value paid for purchases; ``purchases``: the purchases (the
      actions paying for a building on a market space: the turn's, the vizier's);
      ``exact``: those after which the seat acted again in its turn (an exact payment, R-TURN-4);
    * ``actions``: the seat's actions by type name.

    Raises :class:`ValueError` when the trace does not cover the history."""
    history = game.history
    if len(trace) != len(history):
        raise ValueError(f"the trace covers {len(trace)} actions, the history holds {len(history)}")
    catalog = game.rules.catalog
    n = game.num_players
    out = [_blank_tally() for _ in range(n)]
    seats, phases, periods = trace.seats, trace.phases, trace.periods
    end = trace.end_at if trace.end_at is not None else len(history)
    last = len(history) - 1
    classes = list(map(type, history))
    per_seat = Counter(zip(seats, classes))
    kinds = {cls: _payment_kind(cls) for cls in set(classes)}  # 1: money taken, 2: a purchase
    paying = {cls for cls, k in kinds.items() if k}
    for i in [i for i, cls in enumerate(classes) if cls in paying]:
        seat = seats[i]
        t = out[seat]
        value = sum([c.value for c in history[i].cards if getattr(c, "is_money", False)])
        if kinds[classes[i]] == 1:
            t["money_taken"] += value
        else:
            t["money_spent"] += value
            t["purchases"] += 1
            if i < last and phases[i] == "turn" and phases[i + 1] == "turn" and seats[i + 1] == seat:
                t["exact"] += 1
    for i, tiles in trace.acquired.items():
        t = out[seats[i]]
        for tile in tiles:
            spec = catalog[tile]
            if spec.kind != "building":
                continue
            if i >= end:
                t["received"][str(spec.type)] += 1
            else:
                t["bought"][min(periods[i], len(PERIODS) - 1)][str(spec.type)] += 1
    for seat, p in enumerate(players):
        t = out[seat]
        t["built"] = p.city.type_counts()
        t["reserve"] = len(p.reserve)
        t["wall"] = p.city.longest_outer_wall()
    names = sorted(((cls.__name__, seat), k) for (seat, cls), k in per_seat.items() if seat is not None)
    for (name, seat), k in names:
        if 0 <= seat < n:
            out[seat]["actions"][name] = k
    return out


def _payment_kind(cls: type) -> int:
    """0 for an action class that moves no money, 1 for money taken (cards without a market
    space: ``TakeMoney``), 2 for a purchase (cards paid for a building on a market ``space``):
    read from the attrs fields of the class."""
    names = {a.name for a in getattr(cls, "__attrs_attrs__", ())}
    if "cards" not in names:
        return 0
    return 2 if "space" in names else 1


def _blank_tally() -> dict[str, Any]:
    return {
        "bought": [dict.fromkeys(BUILDING_TYPES, 0) for _ in PERIODS],
        "received": dict.fromkeys(BUILDING_TYPES, 0),
        "built": dict.fromkeys(BUILDING_TYPES, 0),
        "reserve": 0,
        "wall": 0,
        "money_taken": 0,
        "money_spent": 0,
        "purchases": 0,
        "exact": 0,
        "actions": {},
    }


def bought_total(tally: dict[str, Any]) -> dict[str, int]:
    """A tally's buildings bought by type over the whole game (the periods added)."""
    out: dict[str, int] = {}
    for period in tally["bought"]:
        for t, v in period.items():
            out[t] = out.get(t, 0) + v
    return out
