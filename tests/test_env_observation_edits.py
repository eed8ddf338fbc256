"""The kept-up-to-date observations (alhambra.env.incremental) against the reference encoding
``encoder.encode(game.view(seat))`` in the cases a break-it review found wrong: a state edited
by hand, a reshuffle that leaves the deck as long as it was (R-TURN-8, R-EXC-5), and seats
that are not seats."""

from __future__ import annotations

import random

import numpy as np
import pytest
import alhambra
from alhambra import ConfigError, SaveFormatError, TakeMoney
from alhambra.env import Session
from alhambra_exchange_offices.plugin import ExchangeOffice
from helpers import cards, situation


def _same_as_reference(s: Session) -> None:
    for seat in range(s.players):
        want = s.encoder.encode(s.game.view(seat))
        got = s.observe(seat)
        assert np.array_equal(got, want), f"seat {seat}: slots {np.flatnonzero(got != want)[:10]} differ"


def _played(players: int, modules: list[str], seed: int, steps: int) -> Session:
    s = Session(players, modules)
    s.reset(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        s.play(rng.choice(s.game.legal_actions()))
    return s


@pytest.mark.parametrize("invalidate", [False, True], ids=["in place", "invalidate"])
def test_the_observation_follows_a_hand_edited_by_hand(invalidate: bool) -> None:
    """The engine lets a hand be edited in place (docs/writing-modules.md): the observation
    must show it, whether or not ``alhambra.operations.invalidate(game)`` follows."""
    s = _played(3, [], 4, 20)
    _same_as_reference(s)  # every seat's vector written once
    st = s.game.state
    st.players[0].hand.append(st.deck.pop())
    st.display.pop()
    if invalidate:
        alhambra.operations.invalidate(s.game)
    _same_as_reference(s)


def test_the_observation_follows_hand_edits_of_every_part_with_every_module() -> None:
    s = _played(4, ["vizier", "building_huts", "bonus_cards", "exchange_offices"], 9, 60)
    _same_as_reference(s)
    st = s.game.state
    st.players[1].score += 7
    st.players[2].hand.clear()
    st.market[0], st.market[1] = st.market[1], st.market[0]
    st.players[3].reserve.append(st.bag.pop())
    st.discard.append(st.deck.pop())
    huts = st.modules["building_huts"].stacks
    colour = next(t for t, stack in huts.items() if len(stack) > 1)
    huts[colour].pop()
    _same_as_reference(s)


def test_the_offices_left_in_the_deck_are_recounted_after_a_reshuffle_of_the_same_length() -> None:
    """R-TURN-8, R-EXC-5: the deck (2 money cards) runs out while the display is refilled with
    3 cards; the discard pile (3 played offices) becomes the deck, 1 is drawn: the deck holds
    2 cards again, now 2 offices (the observation's ``in_deck`` said 0)."""
    g = situation(3, modules=["exchange_offices"], seed=3, display=cards("florin-1", "dirham-1", "dinar-1", "ducat-9"))
    st = g.state
    offices = [c for c in st.deck if type(c) is ExchangeOffice]
    money = [c for c in st.deck if type(c) is not ExchangeOffice and c not in st.display]
    rest = [c for c in money if type(c).__name__ == "MoneyCard"]
    st.deck = rest[:2]
    st.discard = offices[:3]
    st.players[2].hand.extend(rest[2:] + offices[3:])  # every other card stays in the game
    st.pile_sizes = []
    alhambra.operations.invalidate(g)
    s = Session(3, ["exchange_offices"])
    s.load(g)
    _same_as_reference(s)
    take = next(a for a in g.legal_actions() if isinstance(a, TakeMoney) and len(a.cards) == 3)
    g.apply(take)
    assert len(st.deck) == 2 and all(type(c) is ExchangeOffice for c in st.deck)
    assert g.view(0)["modules"]["exchange_offices"]["in_deck"] == 2
    _same_as_reference(s)


@pytest.mark.parametrize("seat", [-1, 3, True, None, "0", 1.0], ids=repr)
def test_observing_a_seat_that_is_not_one_is_a_config_error(seat: object) -> None:
    """As ``game.view(seat)``: ``-1`` used to read as the last seat, 3 gave an IndexError."""
    s = Session(3)
    s.reset(1)
    with pytest.raises(ConfigError, match="seat must be"):
        s.observe(seat)  # type: ignore[arg-type]


def test_observing_a_seat_as_a_numpy_integer_is_that_seat() -> None:
    s = Session(3)
    s.reset(1)
    assert np.array_equal(s.observe(np.int64(2)), s.observe(2))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "other",
    [lambda: alhambra.new_game(4, seed=1), lambda: alhambra.new_game(3, modules=["vizier"], seed=1), lambda: "a save"],
    ids=["4 players", "another module", "not a game"],
)
def test_loading_a_game_of_another_setup_into_a_session_is_refused(other) -> None:
    """``Session.load`` used to take any game: a 4-player game in a 3-player session gave an
    IndexError at the next observation, a vizier game a layout without the vizier."""
    s = Session(3)
    s.reset(1)
    game = s.game
    with pytest.raises(SaveFormatError, match="another setup|plays a Game"):
        s.load(other())
    assert s.game is game
    _same_as_reference(s)


@pytest.mark.parametrize("agent", ["player_3", "player_-1", 0, None], ids=repr)
def test_observing_an_agent_that_is_not_one_is_a_config_error(agent: object) -> None:
    """PettingZoo's ``observe`` used to raise a bare KeyError."""
    from alhambra.env.alhambra_v0 import raw_env

    env = raw_env(players=3)
    env.reset(seed=1)
    with pytest.raises(ConfigError, match="agent must be one of"):
        env.observe(agent)  # type: ignore[arg-type]
