"""Reading a save or position file with a size limit: at most ``limit + 1`` bytes are read, so
an endless file (``/dev/zero``, a pipe whose writer never stops) or a huge one is refused
without being read to its end; a module's TOML data file likewise (:func:`read_toml_file`)."""

from __future__ import annotations

import os
import stat
import tomllib
from typing import Any

from ..errors import AlhambraError, ConfigError


def read_limited(path: str | os.PathLike[str], limit: int, what: str, error: type[AlhambraError]) -> bytes:
    """The bytes of the file at ``path`` if it holds at most ``limit`` bytes. A regular file
    larger than that is refused before it is read; any other file (a pipe, a device) is read
    up to ``limit + 1`` bytes and refused if it has more. Raises ``error`` naming ``path``,
    ``what`` the file should hold (``"position"``) and the limit; :class:`OSError` as
    ``open`` and ``read`` raise it (a missing file, a directory), for the caller to name."""
    info = os.stat(path)
    if stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise error(f"{os.fspath(path)}: a {what} file holds at most {limit} bytes; this one holds {info.st_size}")
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise error(f"{os.fspath(path)}: a {what} file holds at most {limit} bytes; this one holds more, or never ends")
    return data


def read_toml_file(path: Any, what: str, limit: int = 1_000_000) -> Any:
    """The parsed TOML of the data file at ``path`` (a module's option naming a file of its
    own, e.g. a layout), read only if it is a regular file of at most ``limit`` bytes.
    Raises :class:`~alhambra.ConfigError` naming ``what`` and ``path`` otherwise: not a
    path, not a regular file, too large, unreadable, not UTF-8, not TOML, nested too deeply."""
    if not isinstance(path, str) or not path:
        raise ConfigError(f"the {what} is a path to a TOML file (a string) or None, not {path!r}")
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{what} {path!r} is not a regular file")
        if info.st_size > limit:
            raise ConfigError(f"{what} {path!r} is larger than {limit} bytes")
        with open(path, "rb") as f:
            return tomllib.loads(f.read(limit + 1).decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{what} {path!r} is not UTF-8 text") from None
    except RecursionError:
        raise ConfigError(f"{what} {path!r} is nested too deeply") from None
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {path!r}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{what} {path!r} is not valid TOML: {exc}") from None
    except ValueError as exc:  # e.g. a NUL byte in the path
        raise ConfigError(f"cannot read {what} {path!r}: {exc}") from None
