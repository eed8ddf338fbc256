"""R-SCORE-1 … R-SCORE-7: the three scorings."""

import pytest

from alhambra import operations
import alhambra
from alhambra import majority_points
from alhambra.components import SCORING_A, SCORING_TABLE
from helpers import cards, empty_the_bag, situation

# wall-less: pavilion 7, seraglio 14, arcades 22/23, chambers 31/32, garden 41/42, tower 52/53
CITIES = {
    0: {(1, 0): 7, (0, 1): 14, (-1, 0): 22},
    1: {(1, 0): 23, (0, 1): 31},
    2: {(1, 0): 32, (0, 1): 41, (-1, 0): 42},
}


def test_r_score_1_scoring_card_drawn_at_refill_scores_after_the_turn():
    g = situation(3, seat=0, display=cards("florin-1", "florin-2", "florin-3", "florin-4"), cities=CITIES)
    st = g.state
    nxt = st.deck[-1]  # the card under the scoring card
    st.deck.append(SCORING_A)  # on top: drawn by the next refill
    g.apply(alhambra.TakeMoney(cards("florin-4")))
    assert st.scoring_cards == [SCORING_A]
    assert nxt in st.display and len(st.display) == 4  # a replacement was drawn
    assert [r.number for r in st.scorings] == [1]
    assert g.scores == (4, 3, 7) and g.current_player == 1


def test_r_score_2_majorities_per_scoring_and_reserve_never_counts():
    g = situation(3, cities=CITIES, reserves={2: [52, 53]})
    expected = {1: (4, 3, 7), 2: (23, 13, 19), 3: (47, 29, 35)}
    for number in (1, 2, 3):
        record = g.rules.hook.alhambra_scoring(game=g, number=number)
        assert tuple(record.totals) == expected[number]
        assert record.counts[2]["tower"] == 0  # reserve towers do not count
        assert record.majority[0]["pavilion"] == SCORING_TABLE["pavilion"][number - 1][0]


def test_r_score_3_ties_share_the_places_they_occupy_rounded_down():
    assert majority_points([4, 4, 1], (13, 6)) == [9, 9, 0]  # source 000's example
    assert majority_points([2, 2], (6,)) == [3, 3]  # scoring 1: share 1st only
    assert majority_points([3, 3, 3, 1], (21, 13, 6)) == [13, 13, 13, 0]
    assert majority_points([5, 3, 3, 1], (16, 8, 1)) == [16, 4, 4, 0]
    assert majority_points([5, 3, 3, 1], (8, 1)) == [8, 0, 0, 0]  # 2nd shared by two: (1+0)//2
    assert majority_points([1, 1, 1], (9, 2)) == [3, 3, 3]
    assert majority_points([2, 1, 1, 1], (12, 5)) == [12, 1, 1, 1]  # 5 // 3


def test_r_score_4_no_building_no_points():
    assert majority_points([0, 0, 0], (16, 8, 1)) == [0, 0, 0]
    assert majority_points([2, 0], (8, 1)) == [8, 0]
    assert majority_points([0, 1, 0], (16, 8, 1)) == [0, 16, 0]


RING = {(-1, -1): 4, (0, -1): 5, (1, -1): 9, (1, 0): 6, (1, 1): 3, (0, 1): 13, (-1, 1): 2, (-1, 0): 12}


def test_r_score_5_walls_scored_at_every_scoring():
    g = situation(3, cities={0: RING, 1: {(1, 0): 21}})
    for number in (1, 2, 3):
        record = g.rules.hook.alhambra_scoring(game=g, number=number)
        assert record.walls == [12, 1, 0]


def test_r_score_6_scores_only_increase():
    g = situation(3, cities=CITIES)
    operations.run_scoring(g, 1)
    after1 = g.scores
    operations.run_scoring(g, 2)
    assert all(b >= a for a, b in zip(after1, g.scores))
    assert g.scores == (4 + 23, 3 + 13, 7 + 19)


def test_r_score_7_game_ending_before_b_skips_scoring_2():
    g = situation(3, seat=0, market=[5, 13, 22, 31], hands={0: cards("florin-9")})
    st = g.state
    empty_the_bag(g)
    g.apply(alhambra.Buy(1, cards("florin-9")))  # overpaid: the turn's actions end
    g.apply(alhambra.Reserve(5))
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert [r.number for r in st.scorings] == [3]


@pytest.mark.parametrize(
    "counts, points",
    [
        ("abc", (6,)),
        ([1, None], (6,)),
        ([2, 1.5], (6,)),
        ([3, -1], (6,)),
        ([1, 2], "6"),
        ([1, 2], [6.0]),
    ],
)
def test_r_score_3_majority_points_refuses_junk_with_config_error(counts, points):
    """A clear error (not a TypeError from deep inside) for counts or points that are not ints."""
    with pytest.raises(alhambra.ConfigError):
        majority_points(counts, points)


def test_r_score_3_majority_points_takes_int_likes():
    assert majority_points((4, True, 0), [13, 6]) == [13, 6, 0]


def test_r_score_1_to_5_saved_points_must_match_the_scoring_records():
    """R-SCORE-1 … R-SCORE-5: a seat's points come only from scorings, so a save whose score
    differs from the sum of that seat's totals in the scoring records is refused, by exactly
    the difference found."""
    import json
    import random

    from alhambra import SaveFormatError
    from alhambra.testing import random_playout

    g = alhambra.new_game(3, seed=11)
    random_playout(g, random.Random(11))
    assert g.is_over and len(g.state.scorings) == 3
    earned = sum(r.totals[r.participants.index(1)] for r in g.state.scorings)
    assert g.state.players[1].score == earned
    data = json.loads(g.to_json())
    data["state"]["players"][1]["score"] = earned + 1
    with pytest.raises(
        SaveFormatError, match=f"seat 1\\) has {earned + 1} points, but the scoring records give {earned}"
    ):
        alhambra.Game.from_json(json.dumps(data))
    assert alhambra.Game.from_json(g.to_json()).scores == g.scores
