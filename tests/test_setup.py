"""R-SET-1 … R-SET-7: setting up a game."""

import json
import random

import pytest

import alhambra
from alhambra import MAX_NAME_LENGTH, ConfigError, SaveFormatError
from alhambra.components import SCORING_A, SCORING_B
from alhambra.rules.setup import choose_start_player, split_piles
from helpers import cards


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_r_set_1_bag_and_market(players):
    g = alhambra.new_game(players, seed=11)
    st = g.state
    bag = list(range(1, 55))
    random.Random(11).shuffle(bag)
    # the first four drawn lie on spaces 1, 2, 3, 4 in that order
    assert st.market == [bag[-1], bag[-2], bag[-3], bag[-4]]
    dirk = 6 if players == 2 else 0
    assert len(st.bag) == 54 - 4 - dirk


def test_r_set_2_scoring_cards_only_in_the_deck():
    g = alhambra.new_game(4, seed=2)
    st = g.state
    assert st.deck.count(SCORING_A) == 1 and st.deck.count(SCORING_B) == 1
    for p in st.players:
        assert not any(isinstance(c, alhambra.ScoringCard) for c in p.hand)
    assert not any(isinstance(c, alhambra.ScoringCard) for c in st.display)


@pytest.mark.parametrize("seed", range(20))
def test_r_set_3_starting_money_dealt_until_twenty(seed):
    g = alhambra.new_game(6, seed=seed)
    for p in g.state.players:
        total = sum(c.value for c in p.hand)
        assert 20 <= total <= 28
        assert total - p.hand[-1].value < 20  # the last card dealt made it reach 20


def test_r_set_4_start_player_fewest_cards_then_lowest_total_then_seat():
    assert (
        choose_start_player(
            [
                cards("florin-9", "florin-9", "florin-2"),
                cards("dinar-9", "dinar-9", "dinar-3"),
                cards("ducat-5", "ducat-5", "ducat-5", "ducat-5"),
            ]
        )
        == 0
    )
    assert choose_start_player([cards("florin-9", "florin-9", "florin-3"), cards("dinar-9", "dinar-9", "dinar-2")]) == 1
    tie = [
        cards("florin-9", "florin-9", "florin-2"),
        cards("dinar-9", "dinar-9", "dinar-2"),
        cards("ducat-9", "ducat-9", "ducat-2"),
    ]
    assert choose_start_player(tie) == 0
    picks = {choose_start_player(tie, "random", random.Random(s)) for s in range(30)}
    assert picks == {0, 1, 2}
    # in a game: the start player is the one the rule picks from the dealt hands
    g = alhambra.new_game(5, seed=4)
    assert g.state.start_player == choose_start_player([p.hand for p in g.state.players])
    assert g.current_player == g.state.start_player


def test_r_set_5_money_display_has_four_cards():
    g = alhambra.new_game(3, seed=5)
    assert len(g.state.display) == 4
    assert all(type(c) is alhambra.MoneyCard for c in g.state.display)


def test_r_set_6_split_into_five_piles():
    assert [len(p) for p in split_piles(list(range(77)))] == [16, 16, 15, 15, 15]
    assert [len(p) for p in split_piles(list(range(80)))] == [16] * 5
    assert sum(split_piles(list(range(12))), []) == list(range(12))


@pytest.mark.parametrize("players,seed", [(p, s) for p in (2, 3, 4, 6) for s in range(5)])
def test_r_set_6_scoring_a_in_pile_2_and_b_in_pile_4(players, seed):
    g = alhambra.new_game(players, seed=seed)
    order = list(reversed(g.state.deck))  # drawing order, top first
    sizes = [len(p) for p in split_piles(list(range(len(order) - 2)))]
    a, b = order.index(SCORING_A), order.index(SCORING_B)
    start2 = sizes[0]
    assert start2 <= a <= start2 + sizes[1]
    start4 = sizes[0] + sizes[1] + 1 + sizes[2]
    assert start4 <= b <= start4 + sizes[3]


def test_r_set_7_play_runs_in_seat_order_from_the_start_player():
    g = alhambra.new_game(4, seed=8)
    first = g.current_player
    seen = [first]
    for _ in range(3):
        # take a single money card: the turn ends at once
        g.apply(next(a for a in g.legal_actions() if isinstance(a, alhambra.TakeMoney)))
        seen.append(g.current_player)
    assert seen == [(first + k) % 4 for k in range(4)]


@pytest.mark.parametrize("name", ["\x01a", "\x00", "\ufffe", "\ud800", "a\x1bb", "\uffff"])
def test_player_names_xml_cannot_hold_are_a_config_error(name):
    """Review 1 finding 1: a name with a character XML 1.0 cannot hold (a control character,
    a lone surrogate, U+FFFE/U+FFFF) is refused, naming the seat."""
    with pytest.raises(alhambra.ConfigError, match=r"player 1's name .* character U\+"):
        alhambra.new_game([name, "b"], seed=1)
    assert alhambra.new_game(["tab\there", "Zoë ☀ 𝔸"], seed=1).config["players"] == ["tab\there", "Zoë ☀ 𝔸"]


def test_player_names_are_bounded_everywhere_with_a_clear_error():
    """R-COMP-1 (the players' names): a name of more than MAX_NAME_LENGTH (100) characters is a
    ConfigError in new_game, a position and a save; a 1.1 MB name used to make a position file
    that the loader refuses."""
    assert MAX_NAME_LENGTH == 100
    ok = "N" * MAX_NAME_LENGTH
    game = alhambra.new_game([ok, "Bo"], seed=1)
    assert alhambra.Game.from_position(game.position()).config["players"] == [ok, "Bo"]
    huge = "N" * 1_100_000
    with pytest.raises(
        ConfigError,
        match=r"^player 1's name is 1100000 characters long \('N+\.\.\.\); a player name has at most 100 characters$",
    ):
        alhambra.new_game([huge, "Bo"], seed=1)
    long = "N" * (MAX_NAME_LENGTH + 1)
    with pytest.raises(ConfigError, match="player 2's name is 101 characters long"):
        alhambra.new_game(["Ana", long], seed=1)
    position = game.position()
    position["players"][0]["name"] = long
    with pytest.raises(ConfigError, match=r"players\[0\]'s name is 101 characters long"):
        alhambra.Game.from_position(position)
    with pytest.raises(ConfigError, match=r"players\[1\]'s name is 101 characters long"):
        alhambra.Game.from_position({"players": ["Ana", long]})
    save = json.loads(game.to_json())
    save["players"][0] = long
    with pytest.raises(SaveFormatError, match="player 1's name is 101 characters long"):
        alhambra.Game.from_json(json.dumps(save))
