"""``alhambra play``: serve the web app (the ``web`` extra: Starlette, uvicorn, Jinja2)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import AlhambraError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
#: connections served at once; uvicorn answers 503 to any beyond them
MAX_CONNECTIONS = 256
#: seconds a connection may take to send a request's head (its request line and headers),
#: counted from its opening or from its last answer: a client that sends nothing, or sends
#: its head a byte at a time, is disconnected then instead of holding a place for ever
HEAD_SECONDS = 10.0


def add_parser(sub: Any) -> None:
    """Register ``play`` on the ``alhambra`` command line's subparsers."""
    p = sub.add_parser(
        "play",
        help="play in the browser against bots, watch and replay games (the 'web' extra)",
        description="Start a local web server to play Alhambra against bots or other people, "
        "watch games and replay saves. It listens on this machine only unless --host says "
        "otherwise; every person's seat has its own secret link.",
    )
    p.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}: this machine only; 0.0.0.0 for a network)",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument(
        "--data",
        metavar="DIR",
        default="alhambra-games",
        help="directory where every game is saved after each action (default ./alhambra-games)",
    )
    p.add_argument(
        "--config",
        metavar="FILE",
        help="TOML game config whose module_paths provide your own modules and whose options are the defaults",
    )
    p.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=[],
        help="a host name or address the server answers to besides the one it serves on, localhost "
        "and 127.0.0.1 (repeatable; a page asked for under another name is refused)",
    )
    p.add_argument(
        "--max-upload",
        metavar="MB",
        type=float,
        default=20.0,
        help="largest request body, a replay upload included, in megabytes (default 20)",
    )
    p.add_argument(
        "--max-tables",
        metavar="N",
        type=int,
        default=None,
        help="most tables (games) the server holds, those in --data included; a new game beyond "
        "them is refused (default 1000)",
    )
    p.add_argument(
        "--max-connections",
        metavar="N",
        type=int,
        default=MAX_CONNECTIONS,
        help=f"connections served at once; any beyond them get a 503 (default {MAX_CONNECTIONS})",
    )
    p.add_argument(
        "--head-timeout",
        metavar="S",
        type=float,
        default=HEAD_SECONDS,
        help=f"seconds a connection may take to send a request's head, from its opening or its "
        f"last answer; it is closed then (default {HEAD_SECONDS:g})",
    )
    p.add_argument(
        "--bot-seconds",
        metavar="S",
        type=float,
        default=2.0,
        help="seconds a bot may think per decision (default 2)",
    )
    p.add_argument(
        "--max-bot-tables",
        metavar="N",
        type=int,
        default=None,
        help="games of bots only (no person's seat) running at once; a new one beyond them is refused "
        "(default 4). Their bots move only while no bot of a game of people is thinking",
    )
    p.add_argument(
        "--bot-only-seconds",
        metavar="S",
        type=float,
        default=None,
        help="seconds a bot of a game of bots only may think per decision (default 0.5, at most --bot-seconds)",
    )
    p.add_argument(
        "--table-idle-hours",
        metavar="H",
        type=float,
        default=None,
        help="hours a game may stay without an action before it is removed, its file too (default 72; 0: never)",
    )
    p.add_argument(
        "--trusted-machine",
        action="store_true",
        help="every browser of this machine may see every game's host link on the start page (only "
        "for a machine nobody else uses, and no reverse proxy in front); by default the start page "
        "lists a host link only to the browser that created the game",
    )
    p.add_argument(
        "--bot-pause",
        metavar="S",
        type=float,
        default=0.6,
        help="seconds between two bot moves, so that pages show them one by one (default 0.6)",
    )
    p.set_defaults(func=cmd_play)


def served_hosts(host: str, extra: list[str]) -> list[str]:
    """The host names the server answers to besides localhost / 127.0.0.1 / ::1: the address
    it listens on (unless a wildcard), this machine's name when it listens on every address,
    and ``extra`` (``--allow-host``)."""
    import socket

    names = list(extra)
    if host in ("0.0.0.0", "::", ""):
        names.append(socket.gethostname())
    else:
        names.append(host)
    return names


def timed_protocol(seconds: float = HEAD_SECONDS) -> type:
    """uvicorn's h11 protocol that closes a connection whose request head has not arrived
    ``seconds`` after the connection opened or its last response was sent (uvicorn itself
    times out only idle connections that have had an answer)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class TimedH11Protocol(H11Protocol):
        _head_timer: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm_head_timer()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm_head_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            super().connection_lost(exc)

        def _arm_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._head_timer = self.loop.call_later(seconds, self._head_timeout)

        def _head_timeout(self) -> None:
            cycle = self.cycle
            if (cycle is None or cycle.response_complete) and not self.transport.is_closing():
                self.transport.close()  # no request under way: the head did not come in time

    return TimedH11Protocol


def cmd_play(args: argparse.Namespace) -> int:
    """Run the server until interrupted. Raises :class:`AlhambraError` when the ``web`` extra
    is missing or the config cannot be loaded."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        raise AlhambraError(
            f"alhambra play needs the 'web' extra ({exc.name} is missing): pip install 'alhambra-engine[web]'"
        ) from None
    modules: list[Any] = []
    defaults: dict[str, Any] = {}
    if args.config:
        from ..saving.config import load_config

        cfg = load_config(args.config)
        modules, defaults = list(cfg.module_objects), dict(cfg.options)
    from .tables import BOT_ONLY_SECONDS, MAX_BOT_TABLES, MAX_TABLES, TABLE_IDLE_HOURS

    max_tables = MAX_TABLES if args.max_tables is None else args.max_tables
    max_bot_tables = MAX_BOT_TABLES if args.max_bot_tables is None else args.max_bot_tables
    bot_only_seconds = BOT_ONLY_SECONDS if args.bot_only_seconds is None else args.bot_only_seconds
    idle_hours = TABLE_IDLE_HOURS if args.table_idle_hours is None else args.table_idle_hours
    if args.max_upload <= 0 or args.bot_seconds <= 0 or args.bot_pause < 0:
        raise AlhambraError("--max-upload and --bot-seconds must be positive, --bot-pause 0 or more")
    if not bot_only_seconds > 0 or not idle_hours >= 0 or idle_hours == float("inf"):
        raise AlhambraError("--bot-only-seconds must be positive, --table-idle-hours a number of hours, 0 or more")
    if max_tables < 1 or args.max_connections < 1 or max_bot_tables < 0:
        raise AlhambraError("--max-tables and --max-connections must be at least 1, --max-bot-tables 0 or more")
    if not args.head_timeout > 0:
        raise AlhambraError("--head-timeout must be positive")
    app = create_app(
        args.data,
        modules=modules,
        defaults=defaults,
        bot_seconds=args.bot_seconds,
        bot_pause=args.bot_pause,
        max_upload=int(args.max_upload * 1_000_000),
        allow_hosts=served_hosts(args.host, args.allow_host),
        max_tables=max_tables,
        max_bot_tables=max_bot_tables,
        bot_only_seconds=bot_only_seconds,
        table_idle_hours=idle_hours or None,
        trusted_machine=args.trusted_machine,
    )
    store = app.state.store
    # Ctrl-C / SIGTERM: requests in flight get 1 s, then the store saves every table and stops
    # the bots (daemon threads: a bot still thinking does not hold the process)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_graceful_shutdown=1,
        limit_concurrency=args.max_connections,
        http=timed_protocol(args.head_timeout),
    )
    server = uvicorn.Server(config)
    for problem in store.problems:
        print(f"alhambra play: skipped {problem} (in {args.data})", file=sys.stderr)
    for warning in store.warnings:
        print(f"alhambra play: {warning} (in {args.data})", file=sys.stderr)
    if store.made_private:
        names = ", ".join(store.made_private[:5]) + (" ..." if len(store.made_private) > 5 else "")
        print(
            f"alhambra play: made {len(store.made_private)} of {args.data} readable by you only: {names}",
            file=sys.stderr,
        )

    host = announced_host(args.host)

    async def announce() -> None:  # printed once the socket is bound (the port may be 0)
        port = server.servers[0].sockets[0].getsockname()[1] if server.servers else args.port
        base = f"http://{host}:{port}"
        print(f"Alhambra is served at {base}/  (games saved in {args.data}; Ctrl-C stops)", flush=True)
        for table in store.tables.values():
            state = "over" if table.game.is_over else f"turn {table.game.state.turn}"
            print(f"  game {table.id} ({state}): {base}/g/{table.id}/host?t={table.host_token}", flush=True)

    original = server.startup

    async def startup(sockets: Any = None) -> None:
        await original(sockets=sockets)
        await announce()

    server.startup = startup  # type: ignore[method-assign]
    try:
        server.run()
    finally:
        store.close()  # also when the lifespan did not run to its end
    return 0


WILDCARDS = ("0.0.0.0", "::", "")


def network_address() -> str:
    """This machine's address on its network (the one its default route leaves from), else
    its host name. Connecting a UDP socket sends nothing: it only picks the outgoing address."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    return address if address and not address.startswith("0.") else socket.gethostname()


def announced_host(host: str) -> str:
    """The host part of the links ``alhambra play`` prints for ``--host host``: ``localhost``
    for this machine only, this machine's network address for a wildcard (``0.0.0.0``, ``::``:
    a link to 0.0.0.0 opens on no other device), else ``host`` itself (IPv6 in brackets)."""
    if host in ("127.0.0.1", "localhost", "::1"):
        return "localhost"
    if host in WILDCARDS:
        return network_address()
    return f"[{host}]" if ":" in host else host
