"""The replay viewer: a save (JSON) or a JSON Lines record of games (``alhambra simulate
--save``) stepped through action by action.

:class:`Replay` rebuilds the game from its configuration and history (``alhambra.replay``
semantics: chance comes from the seed alone) and keeps the actions, a snapshot of the state
every :data:`CHECKPOINT` steps (without its history: memory linear in the history's length),
the log in words and the steps at which each scoring happened (R-SCORE-1); the game at a step
is replayed on demand from the snapshot before it. Loading never executes anything from the
file (``Game.from_json`` rules); a file of more than ``max_upload`` bytes is refused before it
is read (:class:`~alhambra.web.app.Guard`), a history of more than :data:`MAX_HISTORY`
actions before it is replayed, and a replay that takes more than its CPU budget
(``cpu_seconds``, the web app's ``REPLAY_CPU_SECONDS``) is stopped (:class:`TooCostly`).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from attrs import define

from .. import AlhambraError, Game, SaveFormatError
from ..saving.serialize import start_of
from .tables import LogEntry, NotFound, WebError
from .words import describe, logged

MAX_REPLAYS = 16  # replays kept in memory (the oldest is dropped)
MAX_UPLOAD = 20_000_000  # bytes
#: actions an uploaded game may hold (games take a few hundred: 350-530 in random games of
#: every module; a longer one is made of redesigns back and forth)
MAX_HISTORY = 10_000
#: actions replayed between two looks at the CPU time spent
_CLOCK_EVERY = 32


class TooCostly(WebError):
    """A replay that would take more of the server's time than it gives one (413)."""

    status = 413


#: steps between two snapshots of a replay
CHECKPOINT = 64


def split_games(text: str) -> list[str]:
    """The saved games in ``text``: one JSON document, or one per non-empty line (JSON
    Lines). Raises :class:`SaveFormatError` for empty text."""
    stripped = text.strip()
    if not stripped:
        raise SaveFormatError("the file is empty: no saved game in it")
    try:
        json.loads(stripped)
        return [stripped]
    except ValueError:
        return [line for line in stripped.splitlines() if line.strip()]
    except RecursionError:
        raise SaveFormatError("not a save: JSON nested too deeply") from None


@define(slots=True, eq=False)
class Replay:
    """One game to step through: :meth:`game_at` ``(k)`` is the game after ``k`` actions
    (``0``: just set up), ``log`` the actions in words, ``scoring_steps`` the step after which
    each scoring was done. ``actions``: the history; ``snapshots[j]``: the game after
    ``j * CHECKPOINT`` actions with an empty history. ``source``: the text it came from."""

    id: str
    actions: list[Any]
    snapshots: list[Game]
    log: list[LogEntry]
    scoring_steps: list[int]
    source: str = ""
    count: int = 1
    number: int = 1

    @property
    def last(self) -> int:
        return len(self.actions)

    def game_at(self, step: int) -> Game:
        """The game after ``step`` actions (0 <= step <= :attr:`last`; :class:`IndexError`
        otherwise): a clone of the snapshot before it with at most ``CHECKPOINT - 1``
        actions replayed."""
        if not 0 <= step <= self.last:
            raise IndexError(f"step must be 0-{self.last}, not {step}")
        base = step // CHECKPOINT
        game = self.snapshots[base].clone()
        game.history = self.actions[: base * CHECKPOINT]
        for action in self.actions[base * CHECKPOINT : step]:
            game.apply(action)
        return game


def _snapshot(game: Game) -> Game:
    snap = game.clone()
    snap.history = []  # kept once, in Replay.actions
    return snap


def build_replay(
    text: str,
    *,
    number: int = 1,
    modules: Sequence[Any] = (),
    cpu_seconds: float | None = None,
) -> Replay:
    """A :class:`Replay` of game ``number`` (1-based) of ``text`` (a save or JSON Lines).
    Raises :class:`SaveFormatError` (what is wrong, where; a history of more than
    :data:`MAX_HISTORY` actions) or :class:`~alhambra.errors.IllegalActionError`
    (an action of the history that does not fit), :class:`TooCostly` when building it takes
    more than ``cpu_seconds`` of this thread's CPU time (None: no budget)."""
    start = time.thread_time()

    def spent(done: int, total: int) -> None:
        if cpu_seconds is not None and time.thread_time() - start > cpu_seconds:
            raise TooCostly(
                f"this game takes too long to replay here: {cpu_seconds:g} s of the server's time went by "
                f"after {done} of its {total} actions (open it with `alhambra replay FILE` instead)"
            )

    games = split_games(text)
    if not 1 <= number <= len(games):
        raise SaveFormatError(f"the file holds {len(games)} game(s), not a game number {number}")
    try:
        history = json.loads(games[number - 1]).get("history")
    except (ValueError, AttributeError, RecursionError):
        history = None  # Game.from_json says what is wrong
    if isinstance(history, list) and len(history) > MAX_HISTORY:
        raise SaveFormatError(
            f"history: {len(history)} actions, more than a replay here takes ({MAX_HISTORY}; "
            "open it with `alhambra replay FILE` instead)"
        )
    # the state is checked; nothing in it is run. The history is replayed below, moment by
    # moment, and compared at the end: the loader need not replay it too
    saved = Game.from_json(games[number - 1], modules=list(modules), check_history=False, engine="python")
    game = start_of(saved, Game._blank, modules=list(modules))  # its set-up, or its start position
    actions = list(saved.history)
    spent(0, len(actions))
    snapshots = [_snapshot(game)]
    log: list[LogEntry] = []
    steps: list[int] = []
    for i, action in enumerate(actions):
        seat = game.current_player
        if seat is None:
            raise SaveFormatError(f"history[{i}] ({action}) comes after the end of the game")
        text_line = describe(game, seat, action)
        scorings = len(game.state.scorings)
        try:
            game.apply(action)
        except AlhambraError as exc:
            raise SaveFormatError(f"history[{i}] ({action}) does not fit the replayed game: {exc}") from None
        if logged(action):
            log.append(LogEntry(i, seat, text_line))
        for rec in game.state.scorings[scorings:]:
            steps.append(i + 1)
            log.append(
                LogEntry(
                    i + 1,
                    None,
                    f"Scoring {rec.number}: "
                    + ", ".join(
                        f"{game.state.players[w].name if w < game.num_players else 'Dirk'} {t}"
                        for w, t in zip(rec.participants, rec.totals)
                    ),
                )
            )
        if (i + 1) % CHECKPOINT == 0:
            snapshots.append(_snapshot(game))
        if (i + 1) % _CLOCK_EVERY == 0:
            spent(i + 1, len(actions))
    spent(len(actions), len(actions))
    if game.to_json() != saved.to_json():
        raise SaveFormatError("its history does not lead to its saved state (the save was changed by hand?)")
    return Replay(secrets.token_hex(6), actions, snapshots, log, steps, games[number - 1], len(games), number)


class ReplayShelf:
    """The replays opened at this server, the newest :data:`MAX_REPLAYS` kept in memory."""

    def __init__(self) -> None:
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, replay: Replay) -> Replay:
        with self._lock:
            self._replays[replay.id] = replay
            while len(self._replays) > MAX_REPLAYS:
                self._replays.popitem(last=False)
        return replay

    def get(self, rid: str) -> Replay:
        """The replay ``rid``; :class:`NotFound` when there is none (or it was dropped)."""
        with self._lock:
            found = self._replays.get(rid)
        if found is None:
            raise NotFound(f"there is no replay {rid!r} here (replays are kept while the server runs)")
        return found
