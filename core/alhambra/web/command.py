"""``alhambra play``: serve the web app (the ``web`` extra: Starlette, uvicorn, Jinja2)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import AlhambraError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


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
    p.set_defaults(func=cmd_play)


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
    app = create_app(args.data, modules=modules, defaults=defaults)
    store = app.state.store
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    for problem in store.problems:
        print(f"alhambra play: skipped {problem}", file=sys.stderr)

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
    server.run()
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
