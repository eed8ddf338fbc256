"""Positions and saves read from a file have a size limit: at most one byte more than it is
read, so a file larger than the limit, or one that never ends (``/dev/zero``, a pipe whose
writer never stops), is refused with one error line, not read without end."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

import alhambra
import alhambra.cli
import alhambra.saving.position
from alhambra import ConfigError, SaveFormatError
from alhambra.cli import main
from helpers import one_error_line

POSITION = "players = 3\nseed = 4\n"


def _fifo(tmp_path: Path, data: bytes | None) -> Path:
    """A named pipe; a thread writes ``data`` into it, or without end for ``None``."""
    path = tmp_path / "pipe"
    os.mkfifo(path)

    def write() -> None:
        try:
            with open(path, "wb") as f:
                if data is not None:
                    f.write(data)
                    return
                while True:
                    f.write(b"#" * 65536)
        except BrokenPipeError:  # the reader stopped after one byte more than the limit
            pass

    threading.Thread(target=write, daemon=True).start()
    return path


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(alhambra.saving.position, "MAX_POSITION_BYTES", 10_000)
    monkeypatch.setattr(alhambra.cli, "MAX_SAVE_FILE_BYTES", 100_000)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_position_from_dev_zero_is_refused(capsys) -> None:
    assert main(["replay", "--position", "/dev/zero"]) == 2
    one_error_line(capsys, "/dev/zero", f"at most {alhambra.saving.position.MAX_POSITION_BYTES} bytes", "never ends")
    with pytest.raises(ConfigError, match="never ends"):
        alhambra.Game.from_position(Path("/dev/zero"))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_save_from_dev_zero_is_refused(small_limits, capsys) -> None:
    assert main(["replay", "/dev/zero"]) == 2
    one_error_line(capsys, "/dev/zero", "at most 100000 bytes", "never ends")


def test_a_position_larger_than_the_limit_is_refused_unread(small_limits, tmp_path, capsys) -> None:
    """A valid position padded with a comment: it loads while it is within the limit."""
    path = tmp_path / "p.toml"
    path.write_text(POSITION + "#" * 9_000 + "\n")
    assert main(["replay", "--position", str(path)]) == 0
    capsys.readouterr()
    path.write_text(POSITION + "#" * 20_000 + "\n")
    assert main(["replay", "--position", str(path)]) == 2
    one_error_line(capsys, str(path), "at most 10000 bytes; this one holds 20022")
    with pytest.raises(ConfigError, match="at most 10000 bytes"):
        alhambra.Game.from_position(path)


def test_a_save_file_larger_than_the_limit_is_refused_unread(small_limits, tmp_path, capsys) -> None:
    text = alhambra.new_game(3, seed=2).to_json()
    path = tmp_path / "s.jsonl"
    path.write_text(text + "\n")
    assert main(["replay", str(path)]) == 0
    capsys.readouterr()
    path.write_text((text + "\n") * (100_000 // len(text) + 1))
    assert main(["replay", str(path)]) == 2
    one_error_line(capsys, str(path), "a save file holds at most 100000 bytes")


def test_a_pipe_that_never_ends_is_refused_and_one_that_ends_is_read(small_limits, tmp_path, capsys) -> None:
    assert main(["replay", "--position", str(_fifo(tmp_path, None))]) == 2
    one_error_line(capsys, "at most 10000 bytes", "never ends")
    os.remove(tmp_path / "pipe")
    with pytest.raises(SaveFormatError, match="never ends"):
        alhambra.cli._read_saves(str(_fifo(tmp_path, None)))
    os.remove(tmp_path / "pipe")
    assert main(["replay", "--position", str(_fifo(tmp_path, POSITION.encode()))]) == 0
    assert "3 players" in capsys.readouterr().out
