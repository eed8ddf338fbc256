"""Tables of the web app: games in progress with their seats, tokens, log and saves.

A :class:`Table` is one game (``alhambra.Game``) with a :class:`Seat` per player (a person
with an unguessable token, or a bot by its specification), a log of what every player did in
words, and a version number that changes with every action and undo. The
:class:`TableStore` creates tables, plays actions sent as ``(index in the listed legal
actions, version they were listed in)``, lets the bots move, and saves each table as JSON in
its data directory after every change, so that a restarted server resumes every game where
it stood. Nothing here imports the web framework.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import queue
import re
import secrets
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attrs import define, field

from .. import Action, AlhambraError, Game, SaveFormatError, new_game, start_position
from ..bots import Bot, make_bot
from ..engine.ruleset import module_name
from ..engine.sequence import decider_hidden
from .words import describe, distribution_words, logged

FORMAT = "alhambra-web-table"
FORMAT_VERSION = 1
#: seat kinds a table knows: a person at the page, or one of the bots of ``alhambra.bots``
PERSON = "person"
BOT_KINDS = ("random", "greedy", "mcts", "learned")
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # R-COMP-1
#: seconds a web bot may think per decision (``alhambra play --bot-seconds``)
BOT_SECONDS = 2.0
#: threads that move the bots of every table (a table is moved by one of them at a time)
BOT_WORKERS = 2
#: the interpreter's thread switch interval once bots think (seconds): the bots' threads share
#: the interpreter with the pages', and a page waits up to one interval each time it needs it
#: back (Python's default of 5 ms made a page of another table take ~100 ms under a busy bot)
SWITCH_INTERVAL = 0.001
#: tables one server holds at most (in memory, and loaded from its data directory): each holds
#: a whole game, so an unbounded number of "new game" requests would exhaust the memory
MAX_TABLES = 1000
#: games of bots only (no person's seat) running at once (``alhambra play --max-bot-tables``):
#: a new one beyond them is refused; finished ones do not count
MAX_BOT_TABLES = 4
#: seconds a bot of a table of bots only may think per decision (``--bot-only-seconds``; at
#: most ``--bot-seconds`` too)
BOT_ONLY_SECONDS = 0.5
#: threads that move the bots of the tables of bots only; they make no move while a bot of a
#: table where people play is thinking (people's tables first)
BOT_ONLY_WORKERS = 1
#: hours a table may stay unchanged (no action, no undo) before it is removed with its file
#: (``alhambra play --table-idle-hours``)
TABLE_IDLE_HOURS = 72.0
#: permissions of the data directory and of every table file in it (they hold every hand,
#: the bag, the deck, the seed and every token)
DIR_MODE, FILE_MODE = 0o700, 0o600
#: browsers a table remembers as its hosts (the oldest beyond them is forgotten: its host link
#: still opens the host page there, and lists it again)
MAX_HOSTS = 16


class WebError(AlhambraError):
    """A request the web app refuses; ``status`` is its HTTP status code."""

    status = 400


class BadRequest(WebError):
    """A malformed request (a missing or non-integer field, an index outside the list): 400."""

    status = 400


class Forbidden(WebError):
    """A request without the token of the seat it is for: 403."""

    status = 403


class NotFound(WebError):
    """No such game, seat or replay: 404."""

    status = 404


class TooLarge(WebError):
    """A request body over the server's limit (``--max-upload``): 413."""

    status = 413


class TimedOut(WebError):
    """A request whose body did not arrive in time: 408."""

    status = 408


class Busy(WebError):
    """A request the server has no room for now (its table limit, replays being built): 503."""

    status = 503


class Conflict(WebError):
    """A request made for another state (a stale version, not this seat's decision): 409."""

    status = 409


@define(slots=True)
class Seat:
    """One seat of a table: ``name``, ``kind`` (``"person"`` or a bot kind), ``bot`` (the bot
    specification, ``"mcts:200"``, for a bot seat) and ``token`` (a person's secret link)."""

    name: str
    kind: str
    bot: str | None = None
    token: str | None = None

    @property
    def is_person(self) -> bool:
        return self.kind == PERSON


@define(slots=True)
class LogEntry:
    """One line of a table's log: ``step`` (the number of actions before it), ``seat`` (who
    acted, or None for the game itself: a scoring, the end) and ``text`` in words."""

    step: int
    seat: int | None
    text: str


@define(slots=True, eq=False)
class Undo:
    """What an undo goes back to: the game before the action, the log's length then (saved
    as the number of actions before it, and rebuilt from the seed on loading)."""

    game: Game
    log_size: int
    known: list[list[str]] | None = None


@define(slots=True, eq=False)
class Table:
    """A game at the web app. ``version`` changes with every action and undo (a page's
    actions are valid for its version only). ``undo``: the states the deciding person may
    go back to within the current turn. ``lock``: one request at a time."""

    id: str
    game: Game
    seats: list[Seat]
    host_token: str
    log: list[LogEntry] = field(factory=list)
    version: int = 0
    created: float = field(factory=time.time)
    undo: list[Undo] = field(factory=list)
    bots: dict[int, Bot] = field(factory=dict)
    lock: Any = field(factory=threading.Lock)
    #: what others may follow (the version endpoint, pages of seats that wait): it changes
    #: with every action except a declined vizier offer that leaves the asking round on, so
    #: nobody can count who was asked (R-VIZ-5)
    public_version: int = 0
    #: seconds a bot of this table may think per decision (None: its own budget only)
    bot_seconds: float | None = None
    #: what stopped the bots of this table (a bot that failed), shown on its pages
    trouble: str | None = None
    #: per seat, the card codes everyone knows are in its hand: every card seen entering it
    #: (the starting deal is face up, R-SET-3; takes from the money display, R-TURN-2) and
    #: still there (payments are public); what the bots remember, shown to people too
    known: list[list[str]] = field(factory=list)
    #: the browsers that host this table, as digests of their host cookie (:func:`browser_digest`):
    #: the one that created it, and any that opened its host link; the start page lists the
    #: host link to them only
    hosts: list[str] = field(factory=list)
    #: when the table last changed (an action, an undo, a browser added to ``hosts``), in
    #: seconds since the epoch: an idle table expires (:meth:`TableStore.expire`)
    touched: float = field(factory=time.time)
    #: removed from its store (expired): never saved again, its bots never move again
    closed: bool = False

    @property
    def decider(self) -> int | None:
        """The seat that must decide now (None when the game is over)."""
        return self.game.current_player

    def human_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.is_person]

    @property
    def people(self) -> bool:
        """Whether a person plays at this table (else it is a table of bots only)."""
        return any(s.is_person for s in self.seats)

    def bot_for(self, seat: int) -> Bot:
        """The bot playing ``seat`` (built on first use, seeded by the game's seed and seat)."""
        bot = self.bots.get(seat)
        if bot is None:
            spec = self.seats[seat].bot or "random"
            seed = (self.game.seed + 7919 * seat) % 2**63
            cap = {"max_seconds": self.bot_seconds} if self.bot_seconds and spec.startswith("mcts") else {}
            bot = self.bots[seat] = make_bot(spec, seed=seed, **cap)
        return bot

    @property
    def in_vizier_round(self) -> bool:
        """Whether the vizier's asking round between two turns is on: others may know that,
        not whom it asks (R-VIZ-5): a phase that hides who decides (``PhaseSpec.hidden_decider``)."""
        return decider_hidden(self.game)

    def public_decider(self, seat: int | None) -> int | None:
        """The deciding seat as ``seat`` may know it (None: a spectator): hidden during the
        vizier's asking round from everyone but the seat asked (R-VIZ-5)."""
        decider = self.decider
        if self.in_vizier_round and decider != seat:
            return None
        return decider

    def version_for(self, seat: int | None) -> int:
        """The version a page of ``seat`` shows: the real one to the deciding seat (its
        actions are checked against it), the public one to everyone else (R-VIZ-5)."""
        return self.version if seat is not None and seat == self.decider else self.public_version

    def check_token(self, seat: int, token: str | None) -> None:
        """Raise :class:`Forbidden` unless ``token`` is ``seat``'s own: every seat has its
        own secret link, and no other token opens it (not the host's: the host page lists
        the seats' links, the hot seat follows them)."""
        if not 0 <= seat < len(self.seats) or not self.seats[seat].is_person:
            raise Forbidden(f"seat {seat} of game {self.id} is not a person's seat")
        if not isinstance(token, str) or not secrets.compare_digest(token, self.seats[seat].token or ""):
            raise Forbidden(f"this link is not the link of seat {seat}: ask the host for yours")

    def is_host(self, token: str | None = None, browser: str | None = None) -> bool:
        """Whether ``token`` is the table's host token, or ``browser`` (the digest of a
        request's host cookie, :func:`browser_digest`) one of the browsers hosting it."""
        if isinstance(token, str) and secrets.compare_digest(token, self.host_token):
            return True
        return isinstance(browser, str) and any(secrets.compare_digest(browser, h) for h in self.hosts)

    def check_host(self, token: str | None, browser: str | None = None) -> None:
        """Raise :class:`Forbidden` unless :meth:`is_host`."""
        if not self.is_host(token, browser):
            raise Forbidden("this link is not the host's link of this game (nor is this the browser that created it)")

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat whose token ``token`` is, or None."""
        if not isinstance(token, str):
            return None
        for i, s in enumerate(self.seats):
            if s.token is not None and secrets.compare_digest(token, s.token):
                return i
        return None


def _codes(cards: Any) -> list[str]:
    return [str(getattr(c, "code", c)) for c in cards]


def _minus(a: list[str], b: list[str]) -> list[str]:
    """Multiset ``a - b``."""
    left = list(a)
    for c in b:
        if c in left:
            left.remove(c)
    return left


def _keep(known: list[str], hand: list[str]) -> list[str]:
    """The cards of ``known`` still in ``hand`` (multisets)."""
    left, out = list(hand), []
    for c in known:
        if c in left:
            left.remove(c)
            out.append(c)
    return out


def starting_known(game: Game) -> list[list[str]]:
    """Every hand as dealt face up (R-SET-3): known to everyone."""
    return [sorted(_codes(p.hand)) for p in game.state.players]


def update_known(
    known: list[list[str]], before: tuple[list[str], list[list[str]]], game: Game, action: Any = None
) -> list[list[str]]:
    """``known`` after ``action``: each seat keeps the known cards still in its hand and adds
    those it took from the money display (a take's cards; for other actions the cards gone
    from the display). ``before``: the display's and hands' codes before the action, as
    :func:`public_cards` gives them."""
    display_before, hands_before = before
    if type(action).__name__ == "TakeMoney":
        taken = _codes(getattr(action, "cards", ()))
    else:
        taken = _minus(display_before, _codes(game.state.display))
    out = []
    for seat, p in enumerate(game.state.players):
        hand = _codes(p.hand)
        mine = _keep(known[seat] if seat < len(known) else [], hand)
        new = _minus(hand, hands_before[seat])
        seen = _keep(new, taken)
        taken = _minus(taken, seen)
        out.append(sorted(mine + seen))
    return out


def public_cards(game: Game) -> tuple[list[str], list[list[str]]]:
    """The display's codes and every hand's codes now (for :func:`update_known`)."""
    return _codes(game.state.display), [_codes(p.hand) for p in game.state.players]


def hidden_counts(game: Game) -> tuple[Any, ...]:
    """What a spectator's view counts of hidden things: bag and deck sizes, and the modules'
    parts, of each only the entries its module declares in ``VIEW_SECRETS`` when it does
    (public records hide nothing: the vizier tokens, R-VIZ-1; the offices held openly,
    R-EXC-3, but not how many are still in the deck). When it changes, something hidden
    was drawn or revealed, and an undo past it would let a player see and take back (the
    huts' face-up hut and stack sizes, R-HUT-1; bonus cards revealed, R-BON-3)."""
    view = game.view(None)
    declared = {module_name(m): getattr(m, "VIEW_SECRETS", None) for m in game.rules.module_objects}
    modules = {}
    for key, part in view["modules"].items():
        keep = declared.get(key)
        modules[key] = part if keep is None else {k: part[k] for k in keep}
    return (
        view["bag_size"],
        view["deck_size"],
        len(view["scorings"]),
        json.dumps(modules, sort_keys=True, default=str),
    )


def new_token() -> str:
    """An unguessable token (128 bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def browser_digest(secret: str | None) -> str | None:
    """What a table keeps of a browser's host cookie: its SHA-256 (the file never holds the
    cookie itself); None for no cookie or one that is not a token."""
    if not isinstance(secret, str) or not 16 <= len(secret) <= 64 or not secret.isascii():
        return None
    return hashlib.sha256(secret.encode("ascii")).hexdigest()


def private_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only (:data:`FILE_MODE`), whatever
    the umask and whatever mode a file already there had."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            fd = -1
            f.write(text)
    finally:
        if fd >= 0:
            os.close(fd)


class TableStore:
    """The tables of one server, saved as ``<data>/<id>.json`` after every change.

    ``data``: the data directory (created if missing, ``0700``; every table file ``0600``,
    those already there made so), or None to keep tables in memory only. ``modules``: module
    objects a game may name besides the installed ones (a user's own, loaded from a TOML
    config by ``alhambra play --config``). ``max_bot_tables``: games of bots only running at
    once; ``bot_only_seconds``: what their bots may think per decision. ``idle_seconds``: a
    table unchanged that long is removed with its file (None: never)."""

    def __init__(
        self,
        data: str | Path | None = None,
        *,
        modules: list[Any] | None = None,
        bot_seconds: float | None = BOT_SECONDS,
        bot_pause: float = 0.0,
        workers: int = BOT_WORKERS,
        max_tables: int = MAX_TABLES,
        max_bot_tables: int = MAX_BOT_TABLES,
        bot_only_seconds: float = BOT_ONLY_SECONDS,
        idle_seconds: float | None = TABLE_IDLE_HOURS * 3600,
    ):
        self.data = Path(data) if data is not None else None
        self.modules = list(modules or [])
        self.tables: dict[str, Table] = {}
        #: the most tables this store holds; :meth:`create` refuses more (:class:`Busy`)
        self.max_tables = max_tables
        #: the most unfinished games of bots only; :meth:`create` refuses more (:class:`Busy`)
        self.max_bot_tables = max_bot_tables
        self.idle_seconds = idle_seconds
        self.problems: list[str] = []
        #: files and the directory whose permissions were made private on start, and those
        #: whose permissions could not be changed
        self.made_private: list[str] = []
        self.warnings: list[str] = []
        self._lock = threading.Lock()
        #: seconds a bot may think per decision (at a table of bots only: ``bot_only_seconds``
        #: at most); seconds between two bot moves (so that pages show them one by one)
        self.bot_seconds = bot_seconds
        self.bot_only_seconds = bot_only_seconds if bot_seconds is None else min(bot_seconds, bot_only_seconds)
        self.bot_pause = bot_pause
        #: the tables where people play, and those of bots only: each has its own workers
        self._queue: queue.Queue[Table] = queue.Queue()
        self._solo_queue: queue.Queue[Table] = queue.Queue()
        self._busy: set[str] = set()
        self._stop = threading.Event()
        self._workers = max(1, workers)
        self._threads: list[threading.Thread] = []
        self._solo_threads: list[threading.Thread] = []
        #: bots of people's tables thinking now; the bots-only workers wait while any is
        self._people_moving = 0
        self._people_idle = threading.Condition(self._lock)
        self._janitor: threading.Thread | None = None
        if self.data is not None:
            self._make_private()
            self.load_all()
            for table in list(self.tables.values()):
                self.kick(table)
        if idle_seconds is not None:
            self._janitor = threading.Thread(target=self._sweep, name="alhambra-expiry", daemon=True)
            self._janitor.start()

    def _make_private(self) -> None:
        """Create the data directory ``0700``, or make it so, and every table file in it
        ``0600`` (named in :attr:`made_private`; one that cannot be changed in :attr:`warnings`)."""
        assert self.data is not None
        self.data.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        for path, mode in [(self.data, DIR_MODE), *((p, FILE_MODE) for p in sorted(self.data.glob("*.json*")))]:
            try:
                if path.is_symlink() or (path != self.data and not path.is_file()):
                    continue
                if path.stat().st_mode & 0o777 != mode:
                    os.chmod(path, mode)
                    self.made_private.append(f"{path.name} ({mode:o})")
            except OSError as exc:
                self.warnings.append(f"{path.name}: its permissions could not be made {mode:o}: {exc.strerror}")

    # -- creating and finding ------------------------------------------------------------------

    def create(
        self,
        seats: list[Seat],
        *,
        modules: Sequence[Any] = (),
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        host: str | None = None,
    ) -> Table:
        """A new table: ``seats`` (2-6; person seats get their tokens here), ``modules``
        (names or objects), ``options``, ``seed``; ``host``: the digest of the creating
        browser's host cookie (:func:`browser_digest`), or None. The bots move until a person
        must decide. Raises :class:`~alhambra.errors.ConfigError` for a bad configuration
        (R-COMP-1: 2-6 players), :class:`~alhambra.bots.BotSpecError` for a bad bot and
        :class:`Busy` when the store already holds ``max_tables`` tables, or ``max_bot_tables``
        unfinished games of bots only and this is one."""
        people = any(s.is_person for s in seats)
        self.expire()
        self._check_room(people)
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise BadRequest(f"Alhambra is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)} (R-COMP-1)")
        for s in seats:
            if s.is_person:
                s.token = new_token()
            else:
                make_bot(s.bot or "random", 0)  # a bad specification fails before the game exists
        # the Python engine: a table's bots and pages read the state itself (views, determinized
        # worlds), where a kernel game would be converted at every decision
        game = new_game([s.name for s in seats], modules=list(modules), options=options, seed=seed, engine="python")
        table = Table(
            id=secrets.token_hex(4),
            game=game,
            seats=seats,
            host_token=new_token(),
            bot_seconds=self.bot_seconds if people else self.bot_only_seconds,
            known=starting_known(game),
            hosts=[host] if host is not None else [],
        )
        with self._lock:
            self._check_room(people)  # checked again: another request may have filled the last place
            while table.id in self.tables:
                table.id = secrets.token_hex(4)
            self.tables[table.id] = table
        with table.lock:
            self.save(table)
        self.kick(table)
        return table

    def _check_room(self, people: bool = True) -> None:
        if len(self.tables) >= self.max_tables:
            idle = (
                "" if self.idle_seconds is None else f" or expire (after {self.idle_seconds / 3600:g} hours unchanged)"
            )
            raise Busy(
                f"this server holds {len(self.tables)} tables, its limit (alhambra play --max-tables): "
                f"no new game can start until some are removed from its data directory{idle}"
            )
        if not people:
            running = self.bot_tables_running()
            if running >= self.max_bot_tables:
                raise Busy(
                    f"{running} games of bots only are running here, the limit (alhambra play --max-bot-tables): "
                    "start one when one of them is over, or take a seat yourself"
                )

    def bot_tables_running(self) -> int:
        """Unfinished games of bots only (a table whose bots failed is not running)."""
        return sum(1 for t in list(self.tables.values()) if not t.people and not t.game.is_over and t.trouble is None)

    def get(self, gid: str) -> Table:
        """The table ``gid``; :class:`NotFound` if there is none (or it has just expired)."""
        table = self.tables.get(gid) if isinstance(gid, str) else None
        if table is not None and self._idle(table, time.time()):
            self._remove(table)
            table = None
        if table is None:
            raise NotFound(f"there is no game {gid!r} here")
        return table

    def hosted_by(self, browser: str | None) -> list[Table]:
        """The tables the browser with host-cookie digest ``browser`` hosts."""
        return [t for t in list(self.tables.values()) if browser is not None and t.is_host(None, browser)]

    def add_host(self, table: Table, browser: str | None) -> None:
        """Let the browser ``browser`` host ``table`` too (it opened the host link)."""
        if browser is None:
            return
        with table.lock:
            if browser not in table.hosts:
                table.hosts.append(browser)
                del table.hosts[:-MAX_HOSTS]
                self.save(table)

    # -- expiry ---------------------------------------------------------------------------------

    def _idle(self, table: Table, now: float) -> bool:
        return self.idle_seconds is not None and now - table.touched > self.idle_seconds and table.id not in self._busy

    def expire(self) -> list[str]:
        """Remove every table unchanged for more than ``idle_seconds`` (no action, no undo;
        reading its pages does not count), its file too; the ids removed."""
        now = time.time()
        gone = [t for t in list(self.tables.values()) if self._idle(t, now)]
        for table in gone:
            self._remove(table)
        return [t.id for t in gone]

    def _remove(self, table: Table) -> None:
        with table.lock:
            if table.closed:
                return
            table.closed = True
            with self._lock:
                if self.tables.get(table.id) is table:
                    del self.tables[table.id]
            path = self.path(table)
            if path is not None:
                for p in (path, path.with_suffix(".json.tmp")):
                    try:
                        p.unlink()
                    except FileNotFoundError:
                        pass
                    except OSError as exc:
                        self.problems.append(f"{p.name}: expired but could not be removed: {exc.strerror}")

    def _sweep(self) -> None:
        """The expiry thread: :meth:`expire` every quarter of the idle time (at most a minute)."""
        assert self.idle_seconds is not None
        every = min(60.0, max(0.05, self.idle_seconds / 4))
        while not self._stop.wait(every):
            try:
                self.expire()
            except Exception as exc:  # noqa: BLE001 -- expiry must never stop the server
                self.problems.append(f"expiry: {type(exc).__name__}")  # no path on a page

    # -- playing --------------------------------------------------------------------------------

    def play(self, table: Table, seat: int, index: Any, version: Any) -> None:
        """Play the legal action number ``index`` of the list that ``seat`` was shown at
        ``version``, then let the bots move. Raises :class:`BadRequest` for a non-integer
        index or version or an index outside the list, :class:`Conflict` for a stale version
        or when ``seat`` is not the one to decide. The caller has checked the token. The bots
        move afterwards in a background worker (:meth:`kick`), never in the request."""
        index, version = integer_field(index, "index"), integer_field(version, "version")
        with table.lock:
            if table.decider != seat:
                raise Conflict(f"it is not seat {seat}'s decision now: the game has moved on, reload the page")
            if version != table.version:
                raise Conflict("the game has moved on since the page was shown: reload the page")
            legal = table.game.legal_actions()
            if not 0 <= index < len(legal):
                raise BadRequest(f"index {index} is not one of the {len(legal)} listed actions (0-{len(legal) - 1})")
            before = table.game.clone()
            known_before = [list(h) for h in table.known]
            before_hidden = hidden_counts(table.game)
            log_size = len(table.log)
            turn = table.game.state.turn
            self._apply(table, legal[index])
            same_turn = (
                table.decider == seat and table.game.state.turn == turn and hidden_counts(table.game) == before_hidden
            )
            if same_turn:
                table.undo.append(Undo(before, log_size, known_before))
            else:
                table.undo.clear()
            self.save(table)
        self.kick(table)

    def undo(self, table: Table, seat: int, version: Any) -> None:
        """Take back ``seat``'s last action of this turn: allowed while it is still that
        seat's decision in the same turn and nothing hidden has been drawn or revealed since
        (no money card or building drawn, no hut turned up, no bonus card shown). Raises
        :class:`Conflict` when there is nothing to undo or the version is stale."""
        version = integer_field(version, "version")
        with table.lock:
            if table.decider != seat or not table.undo:
                raise Conflict("there is nothing of yours to undo in this turn")
            if version != table.version:
                raise Conflict("the game has moved on since the page was shown: reload the page")
            last = table.undo.pop()
            table.game = last.game
            table.known = [
                _keep(h, _codes(p.hand))
                for h, p in zip(last.known if last.known is not None else table.known, table.game.state.players)
            ]
            del table.log[last.log_size :]
            table.version += 1
            table.public_version += 1
            table.touched = time.time()
            self.save(table)

    def can_undo(self, table: Table, seat: int | None) -> bool:
        return seat is not None and table.decider == seat and bool(table.undo)

    def _apply(self, table: Table, action: Action) -> None:
        """Apply ``action`` to ``table`` (its lock held), log it in words and bump its
        versions: the public one unless a declined offer leaves the asking round on (R-VIZ-5)."""
        game = table.game
        seat = game.current_player
        if seat is None:
            raise Conflict("the game is over (R-END-3): no more actions")
        step = len(game.history)
        text = describe(game, seat, action)
        scorings = len(game.state.scorings)
        market = list(game.state.market)
        phase = game.state.phase
        cards = public_cards(game)
        game.apply(action)
        table.known = update_known(table.known, cards, game, action)
        table.version += 1
        table.touched = time.time()
        if logged(action) or not decider_hidden(game):
            table.public_version += 1
        if logged(action):
            table.log.append(LogEntry(step, seat, text))
        if phase != "distribution" and (game.state.distribution or game.state.phase in ("distribution", "over")):
            if any(t is not None for t in market) and not any(t is not None for t in game.state.market):
                bought = getattr(action, "space", None) if type(action).__name__ in ("Buy", "UseVizier") else None
                for line in distribution_words(game, market, bought):
                    table.log.append(LogEntry(step + 1, None, line))
        for rec in game.state.scorings[scorings:]:
            names = [game.state.players[w].name if w < game.num_players else "Dirk" for w in rec.participants]
            points = ", ".join(f"{n} {t}" for n, t in zip(names, rec.totals))
            table.log.append(LogEntry(step + 1, None, f"Scoring {rec.number}: {points}"))
        if game.is_over:
            winners = " and ".join(game.state.players[w].name for w in game.winners)
            table.log.append(
                LogEntry(step + 1, None, f"The game is over: {winners} won with {max(game.scores)} points")
            )

    # -- the bots' worker ----------------------------------------------------------------------

    def bot_to_move(self, table: Table) -> bool:
        """Whether a bot of ``table`` decides now (and nothing stopped its bots)."""
        seat = table.decider
        return seat is not None and not table.seats[seat].is_person and table.trouble is None and not table.closed

    def kick(self, table: Table) -> None:
        """Have a background worker move ``table``'s bots until a person must decide (no-op
        when a person decides or a worker already has the table). Never blocks.

        Tables where people play are moved by :attr:`_workers` threads of their own; tables
        of bots only by :data:`BOT_ONLY_WORKERS` others, which start no move while a bot of a
        people's table is thinking: a game of bots only never delays one of people by more
        than the rest of one of its bots' decisions (``bot_only_seconds``)."""
        if self._stop.is_set() or not self.bot_to_move(table):
            return
        people = table.people
        with self._lock:
            if table.id in self._busy:
                return
            self._busy.add(table.id)
            if sys.getswitchinterval() > SWITCH_INTERVAL:
                sys.setswitchinterval(SWITCH_INTERVAL)
            threads, count, name = (
                (self._threads, self._workers, "bots")
                if people
                else (self._solo_threads, BOT_ONLY_WORKERS, "bots-only")
            )
            while len(threads) < count:
                t = threading.Thread(
                    target=self._work, args=(people,), name=f"alhambra-{name}-{len(threads)}", daemon=True
                )
                threads.append(t)
                t.start()
        (self._queue if people else self._solo_queue).put(table)

    def thinking(self, table: Table) -> bool:
        """Whether a bot of ``table`` is deciding (or about to) in the worker."""
        return table.id in self._busy

    def _work(self, people: bool = True) -> None:
        """A worker: moves one bot of a table of its queue (people's tables, or those of bots
        only), then takes the next table."""
        jobs = self._queue if people else self._solo_queue
        while not self._stop.is_set():
            try:
                table = jobs.get(timeout=0.1)
            except queue.Empty:
                continue
            pause = 0.0
            try:
                if people:
                    with self._lock:
                        self._people_moving += 1
                    try:
                        pause = self._move_bot(table)
                    finally:
                        with self._lock:
                            self._people_moving -= 1
                            self._people_idle.notify_all()
                else:
                    with self._lock:  # people's tables first
                        while self._people_moving and not self._stop.is_set():
                            self._people_idle.wait(0.1)
                    pause = self._move_bot(table)
            except Exception as exc:  # noqa: BLE001 -- a failing bot stops its table, not the server
                with table.lock:
                    table.trouble = f"a bot failed: {type(exc).__name__}: {exc}"
            if pause > 0 and not self._stop.is_set():
                # the table stays "thinking" through the pause; the worker serves other tables
                timer = threading.Timer(pause, self._release, (table,))
                timer.daemon = True
                timer.start()
            else:
                self._release(table)

    def _release(self, table: Table) -> None:
        """``table``'s turn at a worker is over: back in the queue if a bot still decides (the
        workers take turns, one bot move per table: a game of bots only holds up nobody)."""
        with self._lock:
            self._busy.discard(table.id)
        self.kick(table)  # a person may have handed over to a bot while the worker was finishing

    def _move_bot(self, table: Table) -> float:
        """Let the bot that decides at ``table`` (if any) make one move; the seconds to pause
        before the next (:attr:`bot_pause` after a move others can see and before another bot
        move, else 0). The bot thinks on a clone of the game, without the table's lock: pages
        read the table meanwhile; the move is applied (under the lock) only if the table did
        not change."""
        while not self._stop.is_set():
            with table.lock:
                if not self.bot_to_move(table):
                    return 0.0
                seat = table.decider
                if seat is None:
                    return 0.0
                version = table.version
                game = table.game.clone()
                bot = table.bot_for(seat)
            action = bot.choose(game, seat, game.legal_actions())
            if self._stop.is_set():
                return 0.0
            with table.lock:
                if table.version != version:
                    continue
                public = table.public_version
                self._apply(table, action)
                table.undo.clear()
                self.save(table)
            # a pause after each move others can see, so pages show them one by one; none after a
            # decline in the vizier's asking round, which must take no longer than a seat not asked
            if self.bot_pause and table.public_version != public and self.bot_to_move(table):
                return self.bot_pause
            return 0.0
        return 0.0

    def settle(self, table: Table, timeout: float = 30.0) -> bool:
        """Wait until ``table``'s bots have moved (a person decides, or the game is over);
        False when ``timeout`` seconds passed first. For tests and tools."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.thinking(table) and not self.bot_to_move(table):
                return True
            time.sleep(0.005)
        return False

    def close(self) -> None:
        """Stop the bots' workers (a bot thinking is abandoned: the table is as saved before
        it began) and save every table. Returns at once; the workers are daemon threads."""
        self._stop.set()
        for table in list(self.tables.values()):
            if table.lock.acquire(timeout=1.0):
                try:
                    self.save(table)
                finally:
                    table.lock.release()

    # -- saving and loading ---------------------------------------------------------------------

    def path(self, table: Table) -> Path | None:
        return None if self.data is None else self.data / f"{table.id}.json"

    def save(self, table: Table) -> None:
        """Write ``table`` to its file (atomically: a crash leaves the old save or the new),
        readable by the server's user only (``0600``); an expired table is not saved again."""
        path = self.path(table)
        if path is None or table.closed:
            return
        data = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "id": table.id,
            "created": table.created,
            "version": table.version,
            "public_version": table.public_version,
            "host_token": table.host_token,
            "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot, "token": s.token} for s in table.seats],
            "log": [[e.step, e.seat, e.text] for e in table.log],
            "undo": [[len(u.game.history), u.log_size] for u in table.undo],
            "known": table.known,
            "hosts": table.hosts,
            "touched": table.touched,
            "game": json.loads(table.game.to_json()),
        }
        tmp = path.with_suffix(".json.tmp")
        private_file(tmp, json.dumps(data))
        os.replace(tmp, path)

    def load_all(self) -> None:
        """Load every table of the data directory; a file that cannot be read is skipped and
        named in ``problems``."""
        if self.data is None:
            return
        for path in sorted(self.data.glob("*.json")):
            if len(self.tables) >= self.max_tables:
                self.problems.append(f"{path.name}: over the limit of {self.max_tables} tables (--max-tables)")
                continue
            try:
                table = self.load(path.read_text("utf-8"), touched=path.stat().st_mtime)
            except (AlhambraError, OSError, UnicodeDecodeError) as exc:
                self.problems.append(f"{path.name}: {exc}")  # the name only: pages show it
                continue
            if table.id != path.stem:
                self.problems.append(f"{path.name}: holds game {table.id!r}, not {path.stem!r}")
                continue
            self.tables[table.id] = table

    def load(self, text: str, touched: float | None = None) -> Table:
        """A table from its saved JSON text; :class:`SaveFormatError` saying what is wrong.
        ``touched``: when it last changed if the text does not say (its file's time), else
        when it was created."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise SaveFormatError(f"not JSON: {exc}") from None
        except RecursionError:
            raise SaveFormatError("not a table: JSON nested too deeply") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise SaveFormatError(f"not a table of the web app (format {FORMAT!r})")
        if data.get("format_version") != FORMAT_VERSION:
            raise SaveFormatError(f"table format version {data.get('format_version')!r}, expected {FORMAT_VERSION}")
        gid, host, version = data.get("id"), data.get("host_token"), data.get("version")
        if not isinstance(gid, str) or not gid.isalnum() or not isinstance(host, str) or type(version) is not int:
            raise SaveFormatError("a table needs a string id, a host token and an integer version")
        seats = []
        for k, s in enumerate(data.get("seats") or []):
            if (
                not isinstance(s, dict)
                or not isinstance(s.get("name"), str)
                or s.get("kind") not in (PERSON, *BOT_KINDS)
            ):
                raise SaveFormatError(f"seats[{k}]: a seat has a name and a kind ({PERSON!r} or a bot)")
            token, bot = s.get("token"), s.get("bot")
            if (s["kind"] == PERSON) != isinstance(token, str) or not (bot is None or isinstance(bot, str)):
                raise SaveFormatError(f"seats[{k}]: a person's seat has a token, a bot's a specification")
            seats.append(Seat(s["name"], s["kind"], bot, token))
        log = []
        for k, e in enumerate(data.get("log") or []):
            if (
                not isinstance(e, list)
                or len(e) != 3
                or type(e[0]) is not int
                or not (e[1] is None or type(e[1]) is int)
                or not isinstance(e[2], str)
            ):
                raise SaveFormatError(f"log[{k}]: a log entry is [step, seat or null, text]")
            log.append(LogEntry(*e))
        game = Game.from_json(json.dumps(data.get("game")), modules=self.modules, engine="python")
        if len(seats) != game.num_players:
            raise SaveFormatError(f"{len(seats)} seats for a game of {game.num_players} players")
        public = data.get("public_version", version)
        if type(public) is not int or not 0 <= public <= version:
            raise SaveFormatError("public_version: an integer from 0 to the table's version")
        hosts = data.get("hosts") or []
        if (
            not isinstance(hosts, list)
            or len(hosts) > MAX_HOSTS
            or not all(isinstance(h, str) and len(h) == 64 for h in hosts)
        ):
            raise SaveFormatError("hosts: a list of SHA-256 digests (hex)")
        known = data.get("known")
        if known is None:
            known = self._known_by_replay(game)
        elif (
            not isinstance(known, list)
            or len(known) != game.num_players
            or not all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in known)
        ):
            raise SaveFormatError("known: per seat, a list of card codes")
        else:
            known = [_keep(h, _codes(p.hand)) for h, p in zip(known, game.state.players)]  # never more than held
        undo = []
        for k, u in enumerate(data.get("undo") or []):
            if (
                not isinstance(u, list)
                or len(u) != 2
                or type(u[0]) is not int
                or type(u[1]) is not int
                or not 0 <= u[0] < len(game.history)
                or not 0 <= u[1] <= len(log)
            ):
                raise SaveFormatError(f"undo[{k}]: an undo point is [actions before it, log entries before it]")
            undo.append(Undo(self._rebuild(game, u[0]), u[1]))
        created = _seconds(data.get("created"), time.time())
        touched = _seconds(data.get("touched"), created if touched is None else touched)
        table = Table(
            id=gid,
            game=game,
            seats=seats,
            host_token=host,
            log=log,
            version=version,
            public_version=public,
            bot_seconds=self.bot_seconds,
            known=known,
            undo=undo,
            created=created,
            hosts=list(hosts),
            touched=min(touched, time.time()),  # a time to come would keep it for ever
        )
        if not table.people:
            table.bot_seconds = self.bot_only_seconds
        return table

    def _known_by_replay(self, game: Game) -> list[list[str]]:
        """The known hands of ``game`` rebuilt from its seed and history (a table saved
        before they were kept); none known for a game started from a position."""
        if start_position(game) is not None:
            return [[] for _ in range(game.num_players)]
        again = self._rebuild(game, 0)
        known = starting_known(again)
        for action in game.history:
            cards = public_cards(again)
            again.apply(action)
            known = update_known(known, cards, again, action)
        return known

    def _rebuild(self, game: Game, steps: int) -> Game:
        """``game`` as it was after its first ``steps`` actions, replayed from its seed (the
        same seed, modules and actions give the same game)."""
        config = game.config
        by_name = {getattr(m, "NAME", None): m for m in self.modules}
        again = new_game(
            config["players"],
            modules=[by_name.get(m, m) for m in config["modules"]],
            seed=config["seed"],
            options=config["options"],
            blocked=config["blocked"],
            engine="python",
        )
        for action in game.history[:steps]:
            again.apply(action)
        return again


def _seconds(value: Any, default: float) -> float:
    """A saved time (seconds since the epoch, a finite int or float), else ``default``."""
    if type(value) in (int, float) and math.isfinite(value):
        return float(value)
    return default


#: an integer field: an optional minus and 1-19 ASCII digits (not ``--1``, not ``²``)
_INTEGER = re.compile(r"-?[0-9]{1,19}")


def integer_field(value: Any, name: str) -> int:
    """``value`` (a form or query field: text, at most 19 digits) as an int;
    :class:`BadRequest` naming ``name`` when it is missing or not an integer."""
    if isinstance(value, bool):
        raise BadRequest(f"{name} must be an integer, not {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
        return int(value)
    raise BadRequest(
        f"{name} is missing" if value is None or value == "" else f"{name} must be an integer, not {value!r}"
    )
