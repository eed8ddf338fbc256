"""Reading a save or position file with a size limit: at most ``limit + 1`` bytes are read, so
an endless file (``/dev/zero``, a pipe whose writer never stops) or a huge one is refused
without being read to its end."""

from __future__ import annotations

import os
import stat

from ..errors import AlhambraError


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
