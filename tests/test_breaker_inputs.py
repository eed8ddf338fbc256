"""Inputs found by trying to break the engine: each must end in a clear error under
:class:`~alhambra.AlhambraError` (one line on the command line), never a traceback."""

from __future__ import annotations

import json
import os

import pytest

import alhambra
from alhambra import ConfigError, SaveFormatError
from alhambra.cli import main
from helpers import one_error_line


@pytest.mark.parametrize("text", ["[" * 100_000, "[" * 100_000 + "]" * 100_000, '{"a":' * 100_000])
def test_a_save_file_nested_too_deeply_isone_error_line(tmp_path, capsys, text) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    one_error_line(capsys, str(path), "nested too deeply")


def test_an_option_value_nested_too_deeply_is_taken_as_text(capsys) -> None:
    assert main(["simulate", "--games", "1", "--option", "tiebreak=" + "[" * 100_000]) == 2
    one_error_line(capsys, "tiebreak")


def test_resume_from_a_results_line_nested_too_deeply_is_refused(tmp_path, capsys) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("[" * 100_000 + "\n{}\n")
    assert main(["simulate", "--games", "1", "--resume", str(path)]) == 2
    one_error_line(capsys, "r.jsonl:1", "nested too deeply")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_resume_from_a_device_is_refused_unread(capsys) -> None:
    """Read whole, ``/dev/zero`` would fill the memory before anything is said."""
    assert main(["simulate", "--games", "1", "--resume", "/dev/zero"]) == 2
    one_error_line(capsys, "/dev/zero", "regular file")


def test_resume_from_a_pipe_or_a_directory_is_refused(tmp_path, capsys) -> None:
    os.mkfifo(tmp_path / "pipe")  # no writer: opening it would wait for ever
    for path in (tmp_path / "pipe", tmp_path):
        assert main(["simulate", "--games", "1", "--resume", str(path)]) == 2
        one_error_line(capsys, str(path), "regular file")


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.update(modules=["x" * 100_000]),
        lambda d: d.update(blocked=["x" * 100_000]),
        lambda d: d.update(plugins=["x" * 100_000]),
        lambda d: d.update(options={"x" * 100_000: 1}),
        lambda d: d.update(options={"a." + "x" * 100_000: 1}),
    ],
)
def test_a_long_name_in_a_save_is_cut_in_the_message(edit) -> None:
    """The message used to repeat the whole name (200,000 characters on one error line)."""
    data = json.loads(alhambra.new_game(3, seed=1).to_json())
    edit(data)
    with pytest.raises(SaveFormatError) as info:
        alhambra.Game.from_json(json.dumps(data))
    assert len(str(info.value)) < 1_000 and "..." in str(info.value)


def test_a_long_module_name_is_cut_in_the_message() -> None:
    with pytest.raises(ConfigError) as info:
        alhambra.new_game(3, modules=["x" * 100_000])
    assert len(str(info.value)) < 1_000
