"""The web app (Starlette): routes, templates and the new-game form.

Routes (``gid``: a game, ``s``: a seat number, ``t``: a token in the query or form):

========================================  =====================================================
``GET /``                                 new-game form, games here, replay upload
``POST /games``                           create a game from the form (303 to its host page)
``GET /g/{gid}``                          the table as a spectator sees it (``view(None)``)
``GET /g/{gid}/host?t=``                  the host's page: every person's link, hot seat
``GET /g/{gid}/next?t=``                  hot seat: "pass the device to ..." (no hand shown)
``GET /g/{gid}/seat/{s}?t=``              the play page of seat ``s`` (``view(s)``)
``GET /g/{gid}/seat/{s}/state.json?t=``   the same as JSON
``POST /g/{gid}/seat/{s}/act``            ``t``, ``index``, ``version``: play a listed action
                                          (``Accept: application/json``: the new version as JSON,
                                          what the page's script asks for; else a 303 to the seat)
``POST /g/{gid}/seat/{s}/undo``           ``t``, ``version``: undo within the turn (JSON alike)
``GET /g/{gid}/version``                  ``{"version", "decider", "over"}`` (pages poll it)
``GET /g/{gid}/save?t=``                  download the save (once the game is over)
``GET /g/{gid}/replay?t=``                open a finished game in the replay viewer
``POST /replay``                          open a save or JSON Lines file (``file``, ``game``)
``GET /replay/{rid}?step=``               the replay viewer
========================================  =====================================================

Errors: 400 (malformed request, bad configuration, a Host not served here), 403 (wrong or
missing token, a POST from another site), 404, 409 (stale version, not this seat's decision),
413 (a body over the upload limit), each with a sentence saying why.

Robustness: the bots move in background workers (:meth:`TableStore.kick`), never in a
request, and think without the table's lock; every body is limited before it is read
(:class:`Guard`); a POST must come from a page of this server (its ``Origin``); the ``Host``
must be one this server answers to (DNS rebinding).
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import (
    BUILDING_TYPES,
    MARKET_CURRENCIES,
    MAX_NAME_LENGTH,
    AlhambraError,
    tile_words,
)
from . import board
from .forms import module_choices, module_name, option_choices, parse_new_game
from .pages import scoring_data, table_data
from .replays import MAX_UPLOAD, ReplayShelf, build_replay
from .tables import (
    BOT_KINDS,
    BOT_ONLY_SECONDS,
    BOT_SECONDS,
    BOT_WORKERS,
    MAX_BOT_TABLES,
    MAX_TABLES,
    TABLE_IDLE_HOURS,
    BadRequest,
    Busy,
    Conflict,
    Forbidden,
    Table,
    TableStore,
    TimedOut,
    TooLarge,
    WebError,
    browser_digest,
    integer_field,
    new_token,
)
from .words import card_words, catalog_of

#: bytes of a request body other than a replay upload (a new-game form with its TOML config, an action)
MAX_FORM = 1_000_000
#: form fields a request may carry (the new-game form has about 40)
MAX_FIELDS = 200
#: replays built at once (each replays a whole uploaded game in a worker thread); a request
#: beyond them is a 503 at once, so uploads cannot take every thread the pages need
REPLAY_BUILDS = 2
#: seconds a request's whole body may take to arrive (a body sent slowly holds a connection)
BODY_SECONDS = 60.0
#: seconds a form's body (a new game, an action: at most MAX_FORM bytes) may take to arrive
FORM_SECONDS = 10.0
#: the bots of the new-game form in players' words
BOT_WORDS = {
    "random": "a bot: random",
    "greedy": "a bot: greedy",
    "mcts": "a bot: searching (MCTS)",
    "learned": "a bot: learned",
}
#: the options of the new-game form in players' words (an option not named here: its own name)
OPTION_WORDS = {
    "tiebreak": "a tie for the most points",
    "holes": "what counts as a hole in an Alhambra",
    "start_player": "who starts, when the starting money ties",
}
#: hosts every server answers to, besides the address it serves on and ``--allow-host``
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: the cookie naming the browser that created a table (its host): HttpOnly, SameSite=Strict
HOST_COOKIE = "alhambra_host"
#: how long a browser keeps it (seconds)
HOST_COOKIE_AGE = 365 * 24 * 3600
#: CPU seconds the building of one replay may take (an uploaded game, or a finished table's)
REPLAY_CPU_SECONDS = 2.0


def _environment() -> Environment:
    env = Environment(loader=PackageLoader("alhambra.web", "templates"), autoescape=select_autoescape(["html"]))
    env.globals.update(
        board=board,
        tile_words=tile_words,
        card_words=card_words,
        BUILDING_TYPES=BUILDING_TYPES,
        FILL=board.FILL,
        MARKET_CURRENCIES=MARKET_CURRENCIES,
    )
    env.filters["card_words"] = card_words
    return env


class PrivateHeaders:
    """Every answer: no ``Referer`` carrying a token to another site, no caching of pages that
    show a hand, no type sniffing, no framing by other pages."""

    HEADERS = (
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for k, v in self.HEADERS:
                    headers.setdefault(k, v)
            await send(message)

        await self.app(scope, receive, sending)


def host_name(value: str) -> str:
    """The host of a ``Host`` header or of an ``Origin``'s authority, without the port,
    lower case (``[::1]:8765`` -> ``::1``); a value whose port is not a number is returned
    whole (a name no server answers to)."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        return name if rest == "" or (rest[:1] == ":" and rest[1:].isascii() and rest[1:].isdigit()) else value
    if value.count(":") == 1:
        name, port = value.split(":")
        return name if port.isascii() and port.isdigit() else value  # not ``localhost:1@evil.com``
    return value


class Guard:
    """Checks made before a request is read: the ``Host`` is one of ``hosts`` (400 otherwise:
    a page fetched through another name, DNS rebinding); a POST carries the ``Origin`` of this
    very server (scheme aside: the same host and port as its ``Host``), or ``null`` (sent
    under ``Referrer-Policy: no-referrer``) with ``Sec-Fetch-Site: same-origin``, or none and no ``Sec-Fetch-Site: cross-site`` (403: a form sent from
    another site); a body over ``max_body`` bytes is refused (413) by its
    ``Content-Length`` before any of it is read, and while it streams otherwise (a
    body other than a replay upload: :data:`MAX_FORM` at most); a body that has not all
    arrived ``body_seconds`` after the app began to read it (a form's: :data:`FORM_SECONDS`) is
    a 408."""

    def __init__(self, app: ASGIApp, *, hosts: set[str], max_body: int, body_seconds: float = 60.0) -> None:
        self.app = app
        self.body_seconds = body_seconds
        self.hosts = {host_name(h) for h in hosts}
        self.max_body = max_body

    async def _refuse(self, send: Send, status: int, text: str) -> None:
        body = text.encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if host_name(headers.get("host", "")) not in self.hosts:
            await self._refuse(send, 400, "this server does not answer to that host name (start it with --allow-host)")
            return
        if scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin")
            site = headers.get("sec-fetch-site")
            if origin == "null":  # what browsers send under Referrer-Policy: no-referrer
                if site != "same-origin":
                    await self._refuse(send, 403, "a form sent from another site is refused")
                    return
            elif origin is not None:
                authority = origin.split("://", 1)[-1].rstrip("/").lower()
                if authority != headers.get("host", "").strip().lower():
                    await self._refuse(send, 403, "a form sent from another site is refused")
                    return
            elif site == "cross-site":
                await self._refuse(send, 403, "a form sent from another site is refused")
                return
        # an upload to the replay viewer may be large; a form (a new game, an action) is small
        limit = self.max_body if scope.get("path") == "/replay" else min(self.max_body, MAX_FORM)
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(send, 413, f"the request is larger than this server accepts here ({limit} bytes)")
            return
        seen = 0
        # the whole body must arrive in time: an upload within body_seconds, a form (a few kB)
        # within FORM_SECONDS, so that slow senders give their places back soon
        seconds = self.body_seconds if scope.get("path") == "/replay" else min(self.body_seconds, FORM_SECONDS)
        deadline: float | None = None
        complete = False

        async def counted() -> Message:
            nonlocal seen, deadline, complete
            if complete:  # the body is in; what is left to receive is the disconnect
                return await receive()
            if deadline is None:
                deadline = anyio.current_time() + seconds
            with anyio.move_on_after(max(0.0, deadline - anyio.current_time())):
                message = await receive()
                if message["type"] == "http.request":
                    seen += len(message.get("body", b""))
                    if seen > limit:
                        raise TooLarge(f"the request is larger than this server accepts ({limit} bytes)")
                    complete = not message.get("more_body", False)
                return message
            raise TimedOut(f"the request's body did not arrive within {seconds:g} s")

        await self.app(scope, counted, send)


def create_app(
    data: str | Path | None = None,
    *,
    modules: list[Any] | None = None,
    defaults: dict[str, Any] | None = None,
    bot_seconds: float | None = BOT_SECONDS,
    bot_pause: float = 0.0,
    workers: int = BOT_WORKERS,
    max_upload: int = MAX_UPLOAD,
    allow_hosts: Sequence[str] = (),
    max_tables: int = MAX_TABLES,
    max_bot_tables: int = MAX_BOT_TABLES,
    bot_only_seconds: float = BOT_ONLY_SECONDS,
    table_idle_hours: float | None = TABLE_IDLE_HOURS,
    trusted_machine: bool = False,
    replay_seconds: float = REPLAY_CPU_SECONDS,
) -> Starlette:
    """The web app. ``data``: directory of the saved tables (None: memory only); ``modules``:
    a user's own module objects to offer (``alhambra play --config``); ``defaults``: option
    values from that config; ``bot_seconds``: what a bot may think per decision (seconds;
    None: its own budget); ``bot_pause``: seconds between two bot moves (so that pages show
    them one by one); ``workers``: threads moving bots; ``max_upload``: the largest request
    body in bytes; ``allow_hosts``: host names served besides ``localhost``, ``127.0.0.1``
    and ``::1`` (the address served on, a LAN name); ``max_tables``: the most tables the server
    holds (a new game beyond them is a 503); ``max_bot_tables``: the most unfinished games of
    bots only (a 503 beyond), whose bots think ``bot_only_seconds`` at most per decision;
    ``table_idle_hours``: a table unchanged that long is removed (None: never);
    ``trusted_machine``: the start page lists every table's host link to any client of this
    machine (loopback), not only to the browser that created it (its host cookie);
    ``replay_seconds``: CPU seconds a replay may take to build. ``app.state.store`` is the
    :class:`TableStore`, ``app.state.replays`` the :class:`ReplayShelf`."""
    store = TableStore(
        data,
        modules=modules,
        bot_seconds=bot_seconds,
        bot_pause=bot_pause,
        workers=workers,
        max_tables=max_tables,
        max_bot_tables=max_bot_tables,
        bot_only_seconds=bot_only_seconds,
        idle_seconds=None if table_idle_hours is None else table_idle_hours * 3600,
    )
    shelf = ReplayShelf()
    limiters: list[anyio.CapacityLimiter] = []  # made in the server's event loop, on first use

    async def build(text: str, **kwargs: Any) -> Any:
        """:func:`build_replay` in a worker thread of its own pool (:data:`REPLAY_BUILDS`
        threads); :class:`Busy` at once when every one of them is building."""
        if not limiters:
            limiters.append(anyio.CapacityLimiter(REPLAY_BUILDS))
        replay_builds = limiters[0]
        if replay_builds.available_tokens < 1:
            raise Busy(f"{REPLAY_BUILDS} replays are being built now: try again in a moment")
        return await anyio.to_thread.run_sync(
            lambda: build_replay(text, cpu_seconds=replay_seconds, **kwargs), limiter=replay_builds
        )

    env = _environment()
    file_defaults = dict(defaults or {})

    def page(name: str, status: int = 200, **context: Any) -> HTMLResponse:
        return HTMLResponse(env.get_template(name).render(**context), status_code=status)

    def table_of(request: Request) -> Table:
        return store.get(request.path_params["gid"])

    def browser_of(request: Request) -> str | None:
        """The digest of the request's host cookie (:func:`browser_digest`), or None."""
        return browser_digest(request.cookies.get(HOST_COOKIE))

    def with_host_cookie(response: Response, secret: str | None) -> Response:
        """``response`` setting the host cookie ``secret`` (None: none to set)."""
        if secret is not None:
            response.set_cookie(
                HOST_COOKIE, secret, max_age=HOST_COOKIE_AGE, path="/", httponly=True, samesite="strict"
            )
        return response

    async def host_of(request: Request, table: Table) -> tuple[str, str | None]:
        """Check that the request comes from a host of ``table``: its host token in ``t``, or
        the host cookie of a browser hosting it (:class:`Forbidden` otherwise). A browser
        that brings the host token becomes a host of the table (the hot seat's curtain and
        the start page know it by its cookie). Returns the token given (for the links of the
        page; "" when the cookie alone was enough) and a new cookie to set (or None)."""
        token = request.query_params.get("t")
        browser = browser_of(request)
        table.check_host(token, browser)
        if not (token and table.is_host(token)):
            return "", None
        secret = None
        if browser is None:
            secret = new_token()
            browser = browser_digest(secret)
        if browser not in table.hosts:
            await run_in_threadpool(store.add_host, table, browser)
        return token, secret

    def is_loopback(request: Request) -> bool:
        return request.client is not None and request.client.host in ("127.0.0.1", "::1", "localhost")

    def seat_of(request: Request, table: Table, token: str | None) -> int:
        seat = int(request.path_params["seat"])
        table.check_token(seat, token)
        return seat

    def read_locked(table: Table, seat: int | None) -> dict[str, Any]:
        with table.lock:  # not while an action or the bots change the game
            return table_data(table, seat, can_undo=store.can_undo(table, seat), thinking=store.thinking(table))

    async def read(table: Table, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees of ``table``, read in a worker thread: waiting for the table's
        lock must not hold up the server's other requests."""
        return await run_in_threadpool(read_locked, table, seat)

    async def form_of(request: Request) -> FormData:
        try:
            return await request.form(max_part_size=max_upload, max_fields=MAX_FIELDS, max_files=1)
        except WebError:
            raise
        except Exception as exc:  # noqa: BLE001 -- any parse failure of the body is the client's
            raise BadRequest(f"the request body is not a form: {exc}") from None

    async def index(request: Request) -> Response:
        await run_in_threadpool(store.expire)  # may wait for a table's lock
        tables = sorted(store.tables.values(), key=lambda t: -t.created)
        if trusted_machine and is_loopback(request):  # --trusted-machine: every local client is the host
            hosted = {t.id for t in tables}
        else:
            hosted = {t.id for t in store.hosted_by(browser_of(request))}
        return page(
            "index.html",
            tables=tables,
            hosted=hosted,
            trusted=trusted_machine,
            modules=module_choices(store),
            options=option_choices(store),
            defaults=file_defaults,
            bots=BOT_KINDS,
            bot_words=BOT_WORDS,
            option_words=OPTION_WORDS,
            problems=store.problems,
            max_name=MAX_NAME_LENGTH,
        )

    async def create(request: Request) -> Response:
        form = await form_of(request)
        args = parse_new_game(form, store)
        chosen = {module_name(m) for m in args["modules"]}
        config_options = {k: v for k, v in file_defaults.items() if "." not in k or k.split(".", 1)[0] in chosen}
        args["options"] = {**config_options, **args["options"]}  # the form's choices over the config's
        browser = browser_of(request)
        secret = None if browser is not None else new_token()  # the creator's browser is the host
        try:
            table = await run_in_threadpool(store.create, host=browser or browser_digest(secret), **args)
        except WebError:
            raise
        except AlhambraError as exc:
            raise BadRequest(str(exc)) from None
        return with_host_cookie(RedirectResponse(f"/g/{table.id}/host?t={table.host_token}", status_code=303), secret)

    async def watch(request: Request) -> Response:
        table = table_of(request)
        return page(
            "table.html",
            data=await read(table, None),
            table=table,
            catalog=catalog_of(table.game),
            token="",
            hotseat=False,
            title=f"Game {table.id}",
        )

    async def host(request: Request) -> Response:
        """The host page: by the host link (``t``), which also makes this browser a host of
        the table (its cookie: the hot seat and the start page then know it), or by that
        cookie alone."""
        table = table_of(request)
        token, secret = await host_of(request, table)
        response = page("host.html", table=table, token=token, base=str(request.base_url).rstrip("/"))
        return with_host_cookie(response, secret)

    async def next_person(request: Request) -> Response:
        """The hot seat's curtain (the host's, like the host page)."""
        table = table_of(request)
        token, secret = await host_of(request, table)
        decider = table.decider  # the hot seat's own device: it must say whom to pass it to
        return with_host_cookie(
            page(
                "curtain.html",
                table=table,
                token=token,
                data=await read(table, None),
                catalog=catalog_of(table.game),
                decider=decider,
                person=decider is not None and table.seats[decider].is_person,
            ),
            secret,
        )

    async def seat_page(request: Request) -> Response:
        table = table_of(request)
        token = request.query_params.get("t")
        seat = seat_of(request, table, token)
        hotseat = request.query_params.get("hs") == "1"
        data = await read(table, seat)
        return page(
            "table.html",
            data=data,
            table=table,
            catalog=catalog_of(table.game),
            token=token,
            hotseat=hotseat,
            title=f"{table.seats[seat].name} — game {table.id}",
        )

    async def seat_json(request: Request) -> Response:
        table = table_of(request)
        seat = seat_of(request, table, request.query_params.get("t"))
        return JSONResponse(await read(table, seat))

    def after_action(table: Table, seat: int, token: str, hotseat: bool) -> Response:
        decider = table.decider
        if hotseat and decider != seat:  # back to the curtain: the host's browser (its cookie)
            return RedirectResponse(f"/g/{table.id}/next", status_code=303)
        return RedirectResponse(f"/g/{table.id}/seat/{seat}?t={token}" + ("&hs=1" if hotseat else ""), status_code=303)

    def conflict(request: Request, exc: Conflict, table: Table, seat: int, token: str, hotseat: bool) -> Response:
        """A 409 whose page reloads the seat (its own link, never a stale page)."""
        url = f"/g/{table.id}/seat/{seat}?t={token}" + ("&hs=1" if hotseat else "")
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse({"error": str(exc), "status": 409, "reload": url}, status_code=409)
        return page("error.html", status=409, message=str(exc), code=409, reload=url)

    async def act(request: Request) -> Response:
        table = table_of(request)
        form = await form_of(request)
        token = str(form.get("t") or "")
        seat = seat_of(request, table, token)
        try:
            await run_in_threadpool(store.play, table, seat, form.get("index"), form.get("version"))
        except Conflict as exc:
            return conflict(request, exc, table, seat, token, form.get("hs") == "1")
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(
                {"version": table.version_for(seat), "decider": table.public_decider(seat), "over": table.game.is_over}
            )
        return after_action(table, seat, token, form.get("hs") == "1")

    async def undo(request: Request) -> Response:
        table = table_of(request)
        form = await form_of(request)
        token = str(form.get("t") or "")
        seat = seat_of(request, table, token)
        try:
            await run_in_threadpool(store.undo, table, seat, form.get("version"))
        except Conflict as exc:
            return conflict(request, exc, table, seat, token, form.get("hs") == "1")
        if "application/json" in request.headers.get("accept", ""):
            return JSONResponse(
                {"version": table.version_for(seat), "decider": table.public_decider(seat), "over": table.game.is_over}
            )
        return after_action(table, seat, token, form.get("hs") == "1")

    async def version(request: Request) -> Response:
        """``{"version", "decider", "over", "vizier_round", "thinking", "yours"}`` as the asking
        seat (``t``: its token; none: a spectator) may know them: during the vizier's asking
        round nobody but the seat asked learns whom it asks, nor how many declined (R-VIZ-5)."""
        table = table_of(request)
        seat = table.seat_of_token(request.query_params.get("t"))
        decider = table.public_decider(seat)
        return JSONResponse(
            {
                "version": table.version_for(seat),
                "decider": decider,
                "over": table.game.is_over,
                "vizier_round": table.in_vizier_round,
                "thinking": decider is not None and store.thinking(table),
                "yours": seat is not None and table.decider == seat,
            }
        )

    def check_any_token(request: Request, table: Table) -> None:
        """A seat's token, the host token or a host's browser (its cookie)."""
        token = request.query_params.get("t")
        if table.seat_of_token(token) is None:
            table.check_host(token, browser_of(request))

    async def save(request: Request) -> Response:
        table = table_of(request)
        check_any_token(request, table)
        if not table.game.is_over:
            raise Forbidden(
                "a save holds every hand, the bag and the deck: it can be downloaded once the game "
                "is over (the server keeps it in its data directory meanwhile)"
            )
        return Response(
            table.game.to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="alhambra-{table.id}.json"'},
        )

    async def replay_game(request: Request) -> Response:
        table = table_of(request)
        check_any_token(request, table)
        if not table.game.is_over:
            raise Forbidden("the replay shows every hand: it opens once the game is over")
        found = await build(table.game.to_json(), modules=store.modules)
        shelf.add(found)
        return RedirectResponse(f"/replay/{found.id}", status_code=303)

    async def replay_upload(request: Request) -> Response:
        form = await form_of(request)
        upload = form.get("file")
        if upload is not None and not isinstance(upload, str):
            raw = await upload.read()
        else:
            raw = str(form.get("text") or upload or "").encode()
        if not raw.strip():
            raise BadRequest("choose a save (.json) or a JSON Lines file (.jsonl) to replay")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadRequest("that file is not a save: not UTF-8 text") from None
        number = integer_field(str(form.get("game") or "1"), "game")
        try:
            found = await build(text, number=number, modules=store.modules)
        except WebError:
            raise
        except AlhambraError as exc:
            raise BadRequest(f"cannot replay that file: {exc}") from None
        shelf.add(found)
        return RedirectResponse(f"/replay/{found.id}", status_code=303)

    async def replay_view(request: Request) -> Response:
        found = shelf.get(request.path_params["rid"])
        raw = request.query_params.get("step", str(found.last))
        step = integer_field(raw, "step")
        if not 0 <= step <= found.last:
            raise BadRequest(f"step must be 0-{found.last}, not {step}")
        game = await run_in_threadpool(found.game_at, step)
        return page(
            "replay.html",
            replay=found,
            step=step,
            game=game,
            catalog=catalog_of(game),
            view=game.view(None),
            scorings=scoring_data(game),
            log=[e for e in found.log if e.step < step or (e.seat is None and e.step <= step)],
        )

    async def on_error(request: Request, exc: Exception) -> Response:
        status = exc.status if isinstance(exc, WebError) else 400
        message = str(exc)
        if request.url.path.endswith(".json") or "application/json" in request.headers.get("accept", ""):
            return JSONResponse({"error": message, "status": status}, status_code=status)
        return page("error.html", status=status, message=message, code=status)

    async def not_found(request: Request, exc: Exception) -> Response:
        return HTMLResponse(f"<h1>Not found</h1><p>{escape(str(request.url.path))}</p>", status_code=404)

    async def favicon(request: Request) -> Response:
        return RedirectResponse("/static/favicon.svg", status_code=301)

    static = Path(__file__).parent / "static"
    routes = [
        Route("/", index),
        Route("/games", create, methods=["POST"]),
        Route("/g/{gid}", watch),
        Route("/g/{gid}/host", host),
        Route("/g/{gid}/next", next_person),
        Route("/g/{gid}/version", version),
        Route("/g/{gid}/save", save),
        Route("/g/{gid}/replay", replay_game),
        Route("/g/{gid}/seat/{seat:int}", seat_page),
        Route("/g/{gid}/seat/{seat:int}/state.json", seat_json),
        Route("/g/{gid}/seat/{seat:int}/act", act, methods=["POST"]),
        Route("/g/{gid}/seat/{seat:int}/undo", undo, methods=["POST"]),
        Route("/replay", replay_upload, methods=["POST"]),
        Route("/favicon.ico", favicon),
        Route("/replay/{rid}", replay_view),
        Mount("/static", StaticFiles(directory=static), name="static"),
    ]
    hosts = {*LOCAL_HOSTS, *allow_hosts}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()  # the bots stop, every table is saved

    app = Starlette(
        routes=routes,
        exception_handlers={AlhambraError: on_error, 404: not_found},
        middleware=[
            Middleware(PrivateHeaders),
            Middleware(Guard, hosts=hosts, max_body=max_upload, body_seconds=BODY_SECONDS),
        ],
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.replays = shelf
    return app
