"""The engine's behaviour is unchanged: seeded random games give the recorded digests
(``benchmarks/fingerprint.py``), and saves written by the pre-redesign engine
(``tests/data/saves``) still load and continue exactly as they did then."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import alhambra

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import fingerprint  # noqa: E402

RECORD = json.loads(fingerprint.RECORD.read_text())
# a fast subset: every module combination once, the player counts rotating through them
SUBSET = [(m, fingerprint.PLAYERS[i % 5], fingerprint.SEEDS[i % 4]) for i, m in enumerate(fingerprint.COMBINATIONS)]
SAVES = sorted(p.stem for p in fingerprint.SAVES.glob("*.json") if p.stem != "continuations")
CONTINUATIONS = json.loads((fingerprint.SAVES / "continuations.json").read_text())


def test_record_covers_every_combination_and_player_count():
    assert len(RECORD) == 16 * 5 * len(fingerprint.SEEDS) == 320
    assert all(len(v["digest"]) == 64 and v["steps"] > 50 for v in RECORD.values())


@pytest.mark.parametrize("modules,players,seed", SUBSET, ids=[fingerprint.game_key(*g) for g in SUBSET])
def test_seeded_game_matches_fingerprint(modules, players, seed):
    assert fingerprint.play_digest(modules, players, seed) == RECORD[fingerprint.game_key(modules, players, seed)]


def test_saves_cover_the_phases_and_placement_contexts():
    phases = set()
    for name in SAVES:
        st = json.loads((fingerprint.SAVES / f"{name}.json").read_text())["state"]
        phases.add((st["phase"], st.get("place_context", "")))
    assert {
        ("turn", ""),
        ("vizier", ""),
        ("place", "vizier"),
        ("place", "turn"),
        ("place", "distribution"),
        ("over", ""),
    } <= phases


@pytest.mark.parametrize("name", SAVES)
def test_pre_redesign_save_loads_and_continues_identically(name):
    text = (fingerprint.SAVES / f"{name}.json").read_text()
    game = alhambra.Game.from_json(text)
    assert fingerprint.continue_digest(game, 5) == CONTINUATIONS[name]
