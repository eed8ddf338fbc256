"""Balance lab: result records (points by source, start player, money left, seat-to-bot map),
their JSON Schema, the DataFrame loader, seat rotation and the interval code."""

from __future__ import annotations

import json
from pathlib import Path

import alhambra
import jsonschema
import pandas as pd
import pytest
from alhambra.lab.frames import load_dataframe
from alhambra.lab.records import money_left, points_by_source, scoring_points
from alhambra.lab.rotation import (
    distinct_rotations,
    is_confounded,
    rotate,
    rotated_tasks,
    seat_counts,
)
from alhambra.lab.stats import (
    NO_DIFFERENCE,
    StatisticsError,
    paired_difference,
    verdict,
    wilson,
)
from alhambra.simulate import (
    GameResult,
    make_tasks,
    read_results,
    result_of,
    run_games,
    simulate_one,
    write_results,
)
from statsmodels.stats.proportion import proportion_confint

SCHEMA = json.loads((Path(__file__).parent.parent / "docs" / "result-record.schema.json").read_text("utf-8"))
MODS = ("vizier", "building_huts", "bonus_cards", "exchange_offices")


def _validate(record: dict) -> None:
    jsonschema.validate(record, SCHEMA, cls=jsonschema.Draft202012Validator)


def test_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("players,modules", [(2, ()), (3, ("vizier",)), (4, MODS), (6, ("building_huts",))])
def test_record_points_add_up_to_the_scores_R_SCORE_1(players, modules):
    game = simulate_one(players, 11, modules=modules, bots="greedy")
    rec = result_of(game, ["greedy"] * players)
    assert rec.start_player == game.state.start_player
    assert [p["number"] for p in rec.points] == [1, 2, 3]
    for seat in range(players):
        by_source = points_by_source(rec.points, seat)
        assert sum(by_source.values()) == rec.scores[seat]  # no points outside the scorings here
        assert by_source["walls"] == sum(p["seats"][seat]["walls"] for p in rec.points)
    assert ("dirk" in rec.points[0]) == (players == 2)  # R-TWO-3: Dirk takes part with two players
    _validate(rec.to_dict())


def test_record_of_a_hand_built_scoring_R_SCORE_5():
    """A scoring record's columns land in the record as they are: majority per type, walls,
    extra columns (a house rule's points), total."""
    game = alhambra.new_game(3, seed=4)
    rec = alhambra.state.ScoringRecord(
        number=2,
        participants=[0, 1, 2],
        counts=[{"pavilion": 2}, {"pavilion": 1}, {}],
        majority=[{"pavilion": 8, "tower": 0}, {"pavilion": 1, "tower": 0}, {"pavilion": 0, "tower": 0}],
        walls=[5, 0, 3],
    )
    rec.add_points("golden fountain", [2, 0, 0])
    game.state.scorings.append(rec)
    pts = scoring_points(game)
    assert pts == [
        {
            "number": 2,
            "seats": [
                {"majority": {"pavilion": 8, "tower": 0}, "walls": 5, "extra": {"golden fountain": 2}, "total": 15},
                {"majority": {"pavilion": 1, "tower": 0}, "walls": 0, "extra": {"golden fountain": 0}, "total": 1},
                {"majority": {"pavilion": 0, "tower": 0}, "walls": 3, "extra": {"golden fountain": 0}, "total": 3},
            ],
        }
    ]
    assert points_by_source(pts, 0) == {
        "majority:pavilion": 8,
        "majority:tower": 0,
        "walls": 5,
        "extra:golden fountain": 2,
    }


def test_money_left_counts_money_cards_only_R_END_2():
    game = alhambra.new_game(2, modules=["exchange_offices"], seed=3)
    hand = game.state.players[0].hand
    expected = sum(c.value for c in hand if isinstance(c, alhambra.components.MoneyCard))
    assert money_left(game)[0] == expected == sum(c.value for c in hand if hasattr(c, "currency"))


def test_records_round_trip_and_validate(tmp_path):
    tasks = make_tasks(4, 7, players=3, modules=MODS, bots="greedy,random,greedy", rotate_seats=True, variant="v")
    results = [r for r, _ in run_games(tasks)]
    path = tmp_path / "r.jsonl"
    write_results(path, results)
    for line in path.read_text("utf-8").splitlines():
        _validate(json.loads(line))
    again = read_results(path)
    assert [r.to_dict() for r in again] == [r.to_dict() for r in results]
    assert {r.variant for r in again} == {"v"}
    assert [r.rotation for r in again] == [0, 1, 2, 0, 1, 2]


def test_version_1_records_still_load():
    old = {
        "format": "alhambra-result",
        "version": 1,
        "seed": 3,
        "players": 2,
        "modules": [],
        "scores": [90, 80],
        "winners": [0],
        "actions": 200,
        "scorings": [1, 2, 3],
    }
    _validate(old)
    r = GameResult.from_dict(old)
    assert r.start_player is None and r.points == [] and r.money_left == [] and r.tallies == []
    with pytest.raises(alhambra.AlhambraError, match="unsupported"):
        GameResult.from_dict({**old, "version": 4})


def test_schema_rejects_a_malformed_record():
    rec = result_of(simulate_one(2, 1, bots="greedy"), ["greedy", "greedy"]).to_dict()
    rec["points"][0]["seats"][0]["walls"] = "five"
    with pytest.raises(jsonschema.ValidationError):
        _validate(rec)
    good = result_of(simulate_one(2, 1, bots="greedy"), ["greedy", "greedy"]).to_dict()
    _validate(good)
    assert good["version"] == 3 and len(good["tallies"]) == 2
    for broken in (
        {**good["tallies"][0], "bought": good["tallies"][0]["bought"][:2]},  # one period missing
        {**good["tallies"][0], "wall": -1},
        {**good["tallies"][0], "money": 3},  # no such field
    ):
        with pytest.raises(jsonschema.ValidationError):
            _validate({**good, "tallies": [broken, good["tallies"][1]]})
    with pytest.raises(alhambra.AlhambraError, match="malformed"):
        GameResult.from_dict({**good, "tallies": [{**good["tallies"][0], "wall": "long"}]})


def test_dataframe_in_one_call(tmp_path):
    tasks = make_tasks(3, 2, players=2, bots="greedy,random", rotate_seats=True)
    results = [r for r, _ in run_games(tasks)]
    path = tmp_path / "r.jsonl"
    write_results(path, results)
    df = load_dataframe(path)
    assert isinstance(df, pd.DataFrame)
    assert len(df) == 2 * len(results) == 8
    assert list(df.groupby("bot")["seat"].value_counts().sort_index()) == [2, 2, 2, 2]
    row = df.iloc[0]
    assert row["score"] == results[0].scores[0]
    assert row["points:scoring1"] + row["points:scoring2"] + row["points:scoring3"] == row["score"]
    assert df["start_player"].sum() == len(results)  # one start player per game
    assert set(df["win_share"]) <= {0.0, 0.5, 1.0}
    tally = results[0].tallies[0]  # the seat's tally, one column per count
    assert row["wall"] == tally["wall"] and row["purchases"] == tally["purchases"]
    assert row["bought:tower"] == row["bought1:tower"] + row["bought2:tower"] + row["bought3:tower"]
    assert row["bought2:tower"] == tally["bought"][1]["tower"] and row["built:garden"] == tally["built"]["garden"]
    assert row["action:TakeMoney"] == tally["actions"]["TakeMoney"]


# -- rotation ----------------------------------------------------------------------------------


def test_distinct_rotations():
    assert distinct_rotations(["greedy"] * 4) == [0]
    assert distinct_rotations(["a", "b", "a", "b"]) == [0, 1]
    assert distinct_rotations(["mcts", "greedy", "greedy", "greedy"]) == [0, 1, 2, 3]
    assert rotate(["a", "b", "c"], 1) == ("b", "c", "a")


@pytest.mark.parametrize(
    "lineup",
    [
        ("mcts:2", "greedy", "greedy", "greedy"),
        ("a", "b", "a", "b"),
        ("greedy", "random", "random"),
        ("x", "y", "z", "x", "y", "z"),
    ],
)
def test_rotation_plays_each_lineup_in_every_seat_equally_often(lineup):
    tasks = rotated_tasks(7, 100, lineup, players=len(lineup))
    period = len(distinct_rotations(lineup))
    assert len(tasks) == period * -(-7 // period)  # whole rounds
    counts = seat_counts(tasks)  # tasks have .bots like results
    for bot, row in counts.items():
        assert len(set(row)) == 1, (bot, row)  # every seat equally often
    by_seed: dict[int, set] = {}
    for t in tasks:
        by_seed.setdefault(t.seed, set()).add(t.bots)
    assert all(len(s) == period for s in by_seed.values())  # every rotation of every seed
    assert [t.index for t in tasks] == list(range(len(tasks)))


def test_rotated_games_have_the_same_deal_per_seed():
    tasks = rotated_tasks(2, 9, ("greedy", "random"), players=2)
    results = [r for r, _ in run_games(tasks)]
    assert results[0].start_player == results[1].start_player  # the same seed deals the same cards
    assert not is_confounded(results)
    fixed = [r for r, _ in run_games(make_tasks(2, 9, players=2, bots="greedy,random"))]
    assert is_confounded(fixed)


# -- intervals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("k,n", [(0, 10), (10, 10), (3, 40), (200, 400), (1, 1), (37.5, 90)])
def test_wilson_agrees_with_statsmodels(k, n):
    low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
    rate = wilson(k, n)
    assert rate.low == pytest.approx(low) and rate.high == pytest.approx(high)


def test_wilson_known_values():
    # Wilson (1927) for 0/10 at 95%: [0, 0.2775]; 10/10: [0.7225, 1]: never +-0 at 0 or 1
    assert wilson(0, 10).high == pytest.approx(0.27753, abs=1e-4)
    assert wilson(10, 10).low == pytest.approx(0.72247, abs=1e-4)
    r = wilson(20, 40)
    assert (r.low, r.high) == (pytest.approx(0.35199, abs=1e-4), pytest.approx(0.64801, abs=1e-4))
    with pytest.raises(StatisticsError):
        wilson(3, 0)
    with pytest.raises(StatisticsError):
        wilson(5, 4)


def test_paired_difference_and_verdict():
    same = paired_difference([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])
    assert (same.value, same.low, same.high) == (0.0, 0.0, 0.0) and verdict(same) == NO_DIFFERENCE
    up = paired_difference([1.0, 2.0, 3.0, 4.0], [3.0, 4.2, 4.8, 6.1])
    assert up.value == pytest.approx(2.025) and up.low > 0
    assert verdict(up, name="walls x2").startswith("walls x2 higher by")
    with pytest.raises(StatisticsError):
        paired_difference([1.0], [1.0, 2.0])


def test_start_player_wins_and_the_summary_intervals_R_SET_4():
    from alhambra.lab.summary import start_player_wins
    from alhambra.simulate import format_summary, summarize

    def res(seed, start, winners, players=3):
        return GameResult(
            seed=seed,
            players=players,
            modules=[],
            scores=[100] * players,
            winners=winners,
            actions=1,
            scorings=[1, 2, 3],
            bots=["greedy"] * players,
            start_player=start,
        )

    results = [res(1, 0, [0]), res(2, 1, [0, 1]), res(3, 2, [0]), res(4, None, [1])]
    assert start_player_wins(results) == (1.5, 3, pytest.approx(1 / 3))
    summary = summarize(results)
    sp = summary["start_player"]
    low, high = proportion_confint(1.5, 3, alpha=0.05, method="wilson")
    assert (sp["win_rate"], sp["win_low"], sp["win_high"]) == (0.5, pytest.approx(low), pytest.approx(high))
    assert not summary["confounded"]  # one bot everywhere: nothing to confound
    seat0 = summary["seats"][0]
    assert seat0["win_share"] == pytest.approx(2.5 / 4)
    # clustered by seed: shares 1, 0.5, 1, 0 -> se sqrt(0.6875 / 12) = 0.239, t(3) = 3.18: [0, 1]
    assert (seat0["win_low"], seat0["win_high"]) == (0.0, 1.0)
    assert seat0["design_effect"] == pytest.approx((0.6875 / 12) / (0.625 * 0.375 / 4))
    lines = format_summary(summary)
    assert any(line.startswith("  start player's win rate: 0.500 [") for line in lines)
