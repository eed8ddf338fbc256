"""R-TWO-1 … R-TWO-5: the two-player game with Dirk."""

import pytest

from alhambra import operations
from alhambra.engine import sequence
import alhambra
from alhambra import Buy, GiveToDirk, IllegalActionError
from alhambra.rules.dirk import dirk_draw_after
from alhambra.testing import expected_money
from helpers import cards, situation


def test_r_two_1_one_copy_of_each_money_card_removed():
    g = alhambra.new_game(2, seed=1)
    exp = expected_money(g)
    assert sum(exp.values()) == 72 and set(exp.values()) == {2}
    money = [c for loc in alhambra.card_locations(g).values() for c in loc if type(c) is alhambra.MoneyCard]
    assert len(money) == 72
    assert sum(expected_money(alhambra.new_game(3, seed=1)).values()) == 108


def test_r_two_2_3_dirk_collects_six_at_setup_and_more_after_scorings():
    g = alhambra.new_game(2, seed=2)
    d = g.state.modules["dirk"]
    assert len(d.tiles) == 6 and len(g.state.bag) == 54 - 4 - 6
    assert g.view(0)["dirk"]["tiles"] == d.tiles  # visible to both
    bag_before = list(g.state.bag)
    operations.run_scoring(g, 1)
    assert d.tiles[6:] == list(reversed(bag_before[-6:]))  # 6 more from the bag
    g.state.bag = g.state.bag[:13]
    operations.run_scoring(g, 2)
    assert len(d.tiles) == 12 + 4  # 13 // 3
    assert [dirk_draw_after(2, n) for n in (0, 2, 3, 17, 18, 30, 44)] == [0, 0, 1, 5, 6, 6, 6]
    assert dirk_draw_after(1, 4) == 4 and dirk_draw_after(3, 40) == 0
    assert alhambra.new_game(3, seed=2).state.modules.get("dirk") is None


def test_r_two_4_dirk_scores_majorities_never_walls_never_wins():
    g = situation(2, cities={0: {(1, 0): 52, (0, 1): 21}, 1: {(1, 0): 22}})
    d = g.state.modules["dirk"]
    d.tiles = [53, 50, 54]  # three towers
    for t in d.tiles:
        if t in g.state.bag:
            g.state.bag.remove(t)
    record = g.rules.hook.alhambra_scoring(game=g, number=1)
    assert record.participants == [0, 1, 2]
    assert record.majority[2]["tower"] == 6 and record.majority[0]["tower"] == 0
    assert record.walls[2] == 0
    operations.run_scoring(g, 1)
    assert d.score == record.totals[2]
    sequence.end_game(g)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    d.score = 1000
    assert set(g.winners) <= {0, 1}


def test_r_two_5_bought_buildings_may_go_to_dirk():
    g = situation(2, seat=0, market=[5, 13, 22, 31], hands={0: cards("florin-7")})
    g.apply(Buy(1, cards("florin-7")))
    assert GiveToDirk(5) in g.legal_actions()
    g.apply(GiveToDirk(5))
    assert 5 in g.state.modules["dirk"].tiles and g.current_player == 1
    assert sorted(alhambra.tile_locations(g)["dirk"]) == sorted(g.state.modules["dirk"].tiles)
    # never for a building that was not bought (end-of-game distribution)
    g2 = situation(2, seat=1, market=[5, 13, 22, 31], hands={0: cards("florin-7"), 1: []})
    sequence.end_game(g2)
    assert g2.phase == "place" and not any(isinstance(a, GiveToDirk) for a in g2.legal_actions())
    with pytest.raises(IllegalActionError, match="R-TWO-5"):
        g2.apply(GiveToDirk(5))
    # and never with three players
    g3 = situation(3, seat=0, market=[5, 13, 22, 31], hands={0: cards("florin-7")})
    g3.apply(Buy(1, cards("florin-7")))
    with pytest.raises(IllegalActionError):
        g3.apply(GiveToDirk(5))
