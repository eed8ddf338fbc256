"""``alhambra play`` stops within 2 s on SIGTERM or Ctrl-C (SIGINT), even while a table of slow
bots is thinking, with every game saved (the saves load)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from alhambra.web.tables import TableStore

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_server_stops_within_two_seconds_with_every_game_saved(tmp_path: Path, sig: int) -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'core'}{os.pathsep}{ROOT / 'modules'}", "PYTHONUNBUFFERED": "1"}
    data = tmp_path / "games"
    proc = subprocess.Popen(
        [sys.executable, "-m", "alhambra.cli", "play", "--port", "0", "--data", str(data), "--bot-pause", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        base = re.search(r"(http://\S+?)/ ", line)
        assert base, line
        url = base.group(1)
        form = {f"kind{i}": "mcts" for i in range(5)} | {f"budget{i}": "5000" for i in range(5)} | {"kind5": "person"}
        urllib.request.urlopen(f"{url}/games", data=urllib.parse.urlencode(form).encode(), timeout=10).read()
        urllib.request.urlopen(  # a second table, a person's turn
            f"{url}/games", data=urllib.parse.urlencode({"kind0": "person", "kind1": "random"}).encode(), timeout=10
        ).read()
        time.sleep(1.0)  # the bots are thinking now
        start = time.monotonic()
        proc.send_signal(sig)
        proc.wait(timeout=10)
        took = time.monotonic() - start
        print(f"\nstopped {took:.2f} s after {signal.Signals(sig).name}")
        assert took < 2.0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    saves = sorted(data.glob("*.json"))
    assert len(saves) == 2
    store = TableStore(data, workers=1)
    try:
        assert store.problems == [] and len(store.tables) == 2
        assert all(json.loads(p.read_text())["format"] == "alhambra-web-table" for p in saves)
    finally:
        store.close()
