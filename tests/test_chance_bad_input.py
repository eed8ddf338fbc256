"""Bad input to what made chance explicit (a break-it review): ``Game.determinize``'s
arguments, a third-party module declaring a hidden pile wrongly (hook
``alhambra_hidden_piles``), and the OpenSpiel game's chance outcomes and resampling. Each is a
clear :class:`alhambra.AlhambraError` and leaves the game as it was."""

from __future__ import annotations

import random

import alhambra
import numpy as np
import pytest
from alhambra import ConfigError, HiddenPile, IllegalActionError, operations

pyspiel = pytest.importorskip("pyspiel")
import alhambra.env.openspiel  # noqa: E402,F401  (registers python_alhambra)
from alhambra.env import Session, chance  # noqa: E402
from alhambra.env.openspiel import AlhambraState  # noqa: E402

ALL = "vizier,building_huts,bonus_cards,exchange_offices"


# -- Game.determinize(seat, rng, *, recall) ---------------------------------------------------


@pytest.mark.parametrize("recall", ["no", 0, 1, None, np.bool_(False)], ids=repr)
def test_determinize_recall_must_be_a_bool(recall: object) -> None:
    """``recall="no"`` used to mean True (truthy), ``None`` False."""
    g = alhambra.new_game(3, seed=2)
    before = g.to_json()
    with pytest.raises(ConfigError, match="recall must be True or False"):
        g.determinize(0, random.Random(1), recall=recall)  # type: ignore[arg-type]
    assert g.to_json() == before


@pytest.mark.parametrize("seat", [-1, 3, True, None, np.int64(0)], ids=repr)
def test_determinize_seat_out_of_range_is_a_config_error(seat: object) -> None:
    g = alhambra.new_game(3, seed=2)
    with pytest.raises(ConfigError, match="seat must be"):
        g.determinize(seat, random.Random(1))  # type: ignore[arg-type]


# -- a third-party hidden pile declared wrongly -----------------------------------------------


class _OmenStack:
    __slots__ = ("stack",)

    def __init__(self, stack: list[str]) -> None:
        self.stack = stack

    def clone(self) -> _OmenStack:
        return _OmenStack(list(self.stack))


class _Omens:
    """A house rule drawing an omen from a face-down stack at every turn's start; ``draw``
    says how it draws, ``piles`` what it declares."""

    NAME = "omens"

    def __init__(self, draw: str = "top", piles: object = None) -> None:
        self.draw = draw
        self.piles = piles

    @alhambra.hookimpl
    def alhambra_state_classes(self) -> dict[str, type]:
        return {"omens": _OmenStack}

    @alhambra.hookimpl
    def alhambra_setup(self, game) -> None:
        stack = ["storm", "sun", "sun", "moon", "rain", "wind"]
        alhambra.operations.rng(game).shuffle(stack)
        game.state.modules["omens"] = _OmenStack(stack)

    @alhambra.hookimpl
    def alhambra_turn_start(self, game, seat) -> None:
        stack = game.state.modules["omens"].stack
        if stack:
            stack.pop(0) if self.draw == "bottom" else stack.pop()

    @alhambra.hookimpl
    def alhambra_hidden_piles(self, game):
        if self.piles is not None:
            return self.piles
        return [_pile("omens")]


def _pile(name: str, face_up: int = 0) -> HiddenPile:
    def put(g, items) -> None:
        g.state.modules["omens"].stack = items

    return HiddenPile(name, lambda g: g.state.modules["omens"].stack, put, face_up)


def _snapshot(g: alhambra.Game) -> tuple:
    """What an action changes: the omens, the bag, the deck, the display, the hands, the history."""
    st = g.state
    hands = [list(p.hand) for p in st.players]
    return (list(st.modules["omens"].stack), list(st.bag), list(st.deck), list(st.display), hands, list(g.history))


def _take(g: alhambra.Game) -> alhambra.Action:
    return next(a for a in g.legal_actions() if isinstance(a, alhambra.TakeMoney))


def test_a_hidden_pile_drawn_from_its_bottom_is_refused_not_drawn_in_the_hidden_order() -> None:
    """Drawn with ``pop(0)``, the omen would be whatever the engine's hidden order put there:
    a search that clones would know it. The draw is refused; the game is unchanged."""
    g = alhambra.new_game(3, plugins=[_Omens(draw="bottom")], seed=1)
    before = _snapshot(g)
    with pytest.raises(ConfigError, match="drawn only from its top"):
        found = chance.next_draw(g, _take(g), [])
        while isinstance(found, chance.Chance):  # the deck's draws first, then the omen
            found = chance.next_draw(g, _take(g), [*found.script, (found.source, found.outcomes[0][0])])
    assert _snapshot(g) == before


@pytest.mark.parametrize(
    ("piles", "match"),
    [
        (_pile("omens"), "must return a list"),  # a pile, not a list of piles
        ("omens", "must return a list"),
        (["omens"], "must list HiddenPile or DeckCards"),
        ([_pile("omens"), _pile("omens")], "declared twice"),
        ([_pile("bag")], "is the core's"),
        ([_pile("deck")], "is the core's"),
    ],
    ids=["a pile", "a str", "a str in a list", "one name twice", "bag", "deck"],
)
def test_hidden_piles_declared_wrongly_are_a_config_error(piles: object, match: str) -> None:
    """Two piles of one name, or a pile named like the core's, used to be drawn from
    unwatched (in the engine's hidden order); a non-list answer gave a TypeError."""
    g = alhambra.new_game(3, plugins=[_Omens(piles=piles)], seed=1)
    with pytest.raises(ConfigError, match=match):
        operations.hidden_piles(g)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("", list, list), "name must be a non-empty str"),
        ((7, list, list), "name must be a non-empty str"),
        (("omens", None, list), "get must be callable"),
        (("omens", list, "put"), "put must be callable"),
        (("omens", list, list, 2), "face_up must be 0 or 1"),
        (("omens", list, list, True), "face_up must be 0 or 1"),
    ],
)
def test_a_hidden_pile_with_bad_fields_is_a_config_error(args: tuple, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        HiddenPile(*args)


def test_a_hidden_pile_whose_get_is_not_the_live_list_is_a_config_error() -> None:
    piles = [HiddenPile("omens", lambda g: tuple(g.state.modules["omens"].stack), lambda g, items: None)]
    g = alhambra.new_game(3, plugins=[_Omens(piles=piles)], seed=1)
    before = _snapshot(g)
    with pytest.raises(ConfigError, match="must return the live list"):
        chance.next_draw(g, _take(g), [])
    assert _snapshot(g) == before


# -- the OpenSpiel game -----------------------------------------------------------------------


def _at_chance(players: int = 3, modules: str = ALL, seed: int = 0) -> AlhambraState:
    game = pyspiel.load_game("python_alhambra", {"players": players, "modules": modules})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("seat", [-1, 3, 7, pyspiel.PlayerId.CHANCE], ids=repr)
def test_resample_from_infostate_of_a_seat_that_is_not_one_is_a_config_error(seat: int) -> None:
    """It used to try 100 determinizations and then blame the unfinished action."""
    state = _at_chance()
    before = str(state)
    with pytest.raises(ConfigError, match="seat must be"):
        state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert str(state) == before


@pytest.mark.parametrize("i", [-1, 10**6], ids=repr)
def test_describing_a_chance_outcome_id_out_of_range_is_an_illegal_action(i: int) -> None:
    """``-1`` used to describe the table's last item, ``10**6`` gave an IndexError."""
    state = _at_chance()
    with pytest.raises(IllegalActionError, match="not a chance outcome id"):
        state._action_to_string(pyspiel.PlayerId.CHANCE, i)


def test_a_chance_outcome_at_a_chance_node_accepts_numpy_integers() -> None:
    a = _at_chance()
    b = a.clone()
    i = a.chance_outcomes()[0][0]
    a.apply_action(i)
    b.apply_action(np.int64(i))
    assert str(a) == str(b)


def test_an_action_whose_draws_fail_leaves_the_openspiel_state_as_it_was() -> None:
    """A misdeclared pile fails when its draw comes (after the deck's chance nodes): the
    integer or chance outcome that failed is not counted and the state stays as it was (it
    used to count the move and drop the waiting action's outcomes)."""
    game = pyspiel.load_game("python_alhambra", {"players": 3})
    state = game.new_initial_state()
    s = Session(3, [], None)
    s.game = alhambra.new_game(3, plugins=[_Omens(draw="bottom")], seed=1)
    state._h._session = s
    ints = s.codec.encode(_take(s.game))
    for i in ints[:-1]:
        state.apply_action(i)
    with pytest.raises(ConfigError, match="drawn only from its top"):
        for _ in range(20):  # the last integer, then the deck's chance nodes until the omen
            before, snap, moves = str(state), _snapshot(state.session.game), state._h.moves
            state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else ints[-1])
    assert str(state) == before and _snapshot(state.session.game) == snap and state._h.moves == moves


def test_a_hidden_pile_whose_put_does_not_put_is_a_config_error() -> None:
    """A ``put`` that drops the list leaves the pile unwatched: its draws would be decided by
    the engine's hidden order. Refused, the game's piles are plain lists as before."""
    piles = [HiddenPile("omens", lambda g: g.state.modules["omens"].stack, lambda g, items: None)]
    g = alhambra.new_game(3, plugins=[_Omens(piles=piles)], seed=1)
    before = _snapshot(g)
    with pytest.raises(ConfigError, match="must put items where get"):
        chance.play_scripted(g, lambda: g.apply(_take(g)), [])
    assert _snapshot(g) == before
    assert type(g.state.deck) is list and type(g.state.bag) is list and type(g.state.discard) is list


@pytest.mark.parametrize(
    ("get", "match"),
    [
        (lambda g: g.state.bag, "'omens' is the same list as 'bag'"),
        (lambda g: g.state.discard, "'omens' is the same list as 'discard'"),
        (lambda g: g.state.modules["omens"].stack, "'also omens' is the same list as 'omens'"),
    ],
    ids=["the bag", "the discard pile", "another pile"],
)
def test_overlapping_hidden_piles_are_a_config_error(get, match: str) -> None:
    """Two names for one list: its draws were told apart by whichever was watched last."""

    def put(g, items) -> None:
        g.state.modules["omens"].stack = items

    piles = [HiddenPile("omens", get, put)]
    if "also" in match:
        piles.append(HiddenPile("also omens", get, put))
    g = alhambra.new_game(3, plugins=[_Omens(piles=piles)], seed=1)
    before = _snapshot(g)
    with pytest.raises(ConfigError, match=match):
        chance.next_draw(g, _take(g), [])
    assert _snapshot(g) == before


class _CarefulOmens(_Omens):
    """Draws its omen inside ``try/except Exception`` (a plugin that logs its own errors)."""

    @alhambra.hookimpl
    def alhambra_turn_start(self, game, seat) -> None:
        stack = game.state.modules["omens"].stack
        try:
            if stack:
                stack.pop()
        except Exception:  # noqa: BLE001  (the point of the test)
            pass


def test_a_plugins_except_exception_around_a_draw_does_not_swallow_the_chance_node() -> None:
    """It used to: the omen was then not drawn at all in the game the OpenSpiel state goes on
    with."""
    g = alhambra.new_game(3, plugins=[_CarefulOmens()], seed=1)
    found = chance.next_draw(g, _take(g), [])
    while isinstance(found, chance.Chance) and found.source != "omens":
        found = chance.next_draw(g, _take(g), [*found.script, (found.source, found.outcomes[0][0])])
    assert isinstance(found, chance.Chance) and found.source == "omens"
