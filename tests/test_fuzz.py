"""The fuzz scripts of tests/fuzz/ at a small, seeded size (the long runs: ``nice -n 10 python
tests/fuzz/save_mutation.py --seconds 600``, ``... illegal_actions.py --seconds 600``)."""

from __future__ import annotations

import io

import pytest

from fuzz import illegal_actions, save_mutation


@pytest.mark.parametrize("seed", [1, 2])
def test_save_mutation_gives_only_clean_refusals_or_sound_games(seed):
    out = io.StringIO()
    counts = save_mutation.run(iterations=80, seed=seed, out=out)
    assert counts["failed"] == 0, out.getvalue()
    assert counts["refused"] > 30  # the mutations do reach the checks


@pytest.mark.parametrize("seed", [1, 2])
def test_illegal_actions_are_refused_leaving_the_game_unchanged(seed):
    out = io.StringIO()
    counts = illegal_actions.run(iterations=400, seed=seed, out=out)
    assert counts["failed"] == 0, out.getvalue()
    assert counts["refused"] > 200


def test_position_mutation_gives_only_clean_refusals_or_sound_games():
    from fuzz import position_mutation

    out = io.StringIO()
    counts = position_mutation.run(iterations=120, seed=3, out=out)
    assert counts["failed"] == 0, out.getvalue()
    assert counts["refused"] > 30 and counts["built"] > 5
