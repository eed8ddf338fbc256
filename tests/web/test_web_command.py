"""``alhambra play``: serves on this machine, prints its address and the games it resumes."""

from __future__ import annotations

import re
import subprocess
import sys
import urllib.request
from pathlib import Path

from alhambra.cli import build_parser
from alhambra.web.command import DEFAULT_HOST


def test_play_is_a_subcommand_listening_on_localhost_by_default() -> None:
    args = build_parser().parse_args(["play"])
    assert args.host == DEFAULT_HOST == "127.0.0.1" and args.port == 8765 and args.data == "alhambra-games"
    args = build_parser().parse_args(["play", "--host", "0.0.0.0", "--port", "9000", "--data", "d"])
    assert (args.host, args.port, args.data) == ("0.0.0.0", 9000, "d")


def _serve(data: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "alhambra.cli", "play", "--port", "0", "--data", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    found = re.search(r"served at (http://localhost:\d+)/", first)
    assert found, first
    return proc, found.group(1)


def test_play_serves_games_and_resumes_them_after_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "games"
    proc, base = _serve(data)
    try:
        assert "New game" in urllib.request.urlopen(base + "/").read().decode()
        form = b"kind0=person&kind1=random&seed=3"
        with urllib.request.urlopen(urllib.request.Request(base + "/games", data=form)) as r:
            assert "/host?t=" in r.url
            host = r.url.split(base, 1)[1]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    saves = list(data.glob("*.json"))
    assert len(saves) == 1
    proc, base = _serve(data)
    try:
        assert proc.stdout is not None
        listed = proc.stdout.readline()
        assert host in listed and "turn " in listed
        assert "Play here, on this device" in urllib.request.urlopen(base + host).read().decode()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_the_engine_and_the_command_line_do_not_load_the_web_framework() -> None:
    code = (
        "import sys, alhambra, alhambra.cli, alhambra.bots; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('starlette', 'uvicorn', 'jinja2') "
        "or m.startswith('alhambra.web.') and m != 'alhambra.web.command'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
