"""Checks the command line makes before it plays a single game: output paths and
formats, that a Ray address answers and that the lab extra is installed where it is used; and the progress-bar flags every playing command shares. Each raises :class:`~alhambra.errors.ConfigError`
with the flag, the value and the problem."""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import sys
from pathlib import Path

from .errors import ConfigError

#: How long a Ray address may take to accept a connection (seconds).
RAY_CONNECT_TIMEOUT = 3.0


def check_output(flag: str, path: str | None) -> None:
    """``path`` (the value of ``flag``) can be written: not a directory, in a directory that
    exists and is writable. Nothing happens for ``None``."""
    if not path:
        return
    p = Path(path)
    if p.is_dir():
        raise ConfigError(f"{flag} {path}: is a directory; name a file")
    parent = p.resolve().parent
    if not parent.is_dir():
        raise ConfigError(f"{flag} {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ConfigError(f"{flag} {path}: not writable")


#: The packages of the ``lab`` extra each use of the balance lab imports: checked before the
#: first game is played (:func:`check_lab`), so a missing one never costs a whole run.
LAB_NEEDS: dict[str, tuple[str, ...]] = {
    "report": ("jinja2", "matplotlib", "statsmodels", "scipy"),  # the page, its plots, its intervals
    "plot": ("matplotlib",),
    "compare": ("statsmodels", "scipy"),  # intervals, paired tests, Holm's correction
    "tournament": ("openskill", "statsmodels", "scipy"),  # ratings, clustered win shares
}


def installed(package: str) -> bool:
    """Whether ``package`` can be imported (found without importing it)."""
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):  # a module set to None in sys.modules, a broken package
        return False


def check_lab(what: str, *uses: str) -> None:
    """Raise :class:`ConfigError` in one line, before any game is played, when a package of
    the ``lab`` extra that ``uses`` (keys of :data:`LAB_NEEDS`) import is not installed:
    ``"--report needs the lab extra (jinja2 is not installed): pip install 'alhambra-engine[lab]'"``.
    ``what``: the command or flag, as the message names it."""
    missing = [p for p in dict.fromkeys(p for use in uses for p in LAB_NEEDS[use]) if not installed(p)]
    if missing:
        raise ConfigError(
            f"{what} needs the lab extra ({', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
            "not installed): pip install 'alhambra-engine[lab]'"
        )


def add_progress_flags(parser: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress`` on ``parser`` (``args.progress``: True, False or None
    for "when standard error is a terminal"); read with :func:`wants_progress`."""
    prog = parser.add_mutually_exclusive_group()
    prog.add_argument(
        "--progress",
        dest="progress",
        action="store_true",
        default=None,
        help="show a progress bar (default: when standard error is a terminal)",
    )
    prog.add_argument("--no-progress", dest="progress", action="store_false", help="never show a progress bar")


def wants_progress(args: argparse.Namespace, games: int) -> bool:
    """Whether to show a progress bar for ``games`` games: as ``--progress``/``--no-progress``
    say, else when standard error is a terminal and there is more than one game."""
    return bool(args.progress) if args.progress is not None else (sys.stderr.isatty() and games > 1)


def check_plot_format(path: str | None) -> None:
    """``--plot FILE``: matplotlib must be installed and know the file's suffix as an image
    format (``.png``, ``.pdf``, ``.svg`` …)."""
    if not path:
        return
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise ConfigError("--plot needs matplotlib: pip install 'alhambra-engine[plot]'") from None
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in formats:
        raise ConfigError(
            f"--plot {path}: {('.' + suffix) if suffix else 'no suffix'} is not an image format "
            f"matplotlib writes; use one of {', '.join('.' + f for f in sorted(formats))}"
        )


def check_ray_address(address: str | None, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """``--ray-address HOST:PORT`` (or ``ray://HOST:PORT``) must accept a connection within
    ``timeout`` seconds, instead of Ray retrying for minutes; ``auto``, ``local`` and no
    address are left to Ray."""
    if not address or address in ("auto", "local"):
        return
    rest = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"--ray-address {address}: expected HOST:PORT (or ray://HOST:PORT, auto)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise ConfigError(
            f"--ray-address {address}: no Ray cluster answers there within {timeout:g} s ({exc.strerror or exc})"
        ) from None
