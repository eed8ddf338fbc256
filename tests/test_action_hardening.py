"""Actions never crash: building, printing and applying any action with any field values gives
an :class:`~alhambra.IllegalActionError` (or a clean refusal at construction) and leaves the
game exactly as it was."""

from __future__ import annotations

import math
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import alhambra
from alhambra import AlhambraError, IllegalActionError, MoneyCard

from helpers import MODULES, advance

ALL = list(MODULES)


def _all_rules_game(players: int = 2, steps: int = 0, seed: int = 3) -> alhambra.Game:
    g = alhambra.new_game(players, modules=ALL, seed=seed)
    advance(g, seed, steps)
    return g


_RULES = _all_rules_game().rules
#: every action class of the base game and the four modules, Pass included
ACTION_CLASSES = sorted({*_RULES.action_types.values(), alhambra.Pass}, key=lambda c: c.__name__)


_scalars = hst.one_of(
    hst.none(),
    hst.booleans(),
    hst.integers(min_value=-(10**30), max_value=10**30),
    hst.floats(allow_nan=True, allow_infinity=True),
    hst.text(max_size=12),
    hst.binary(max_size=4),
    hst.sampled_from(
        [
            MoneyCard,
            MoneyCard("florin", 3),
            MoneyCard("ducat", 9),
            object(),
            type,
            int,
            alhambra.Card,
            "florin-3",
            "no such tile",
            1,
            54,
            0,
            (0, 1),
            [0, 1],
            math.nan,
            alhambra.Pass(),
            alhambra.Pass,
        ]
    ),
)
values = hst.recursive(
    _scalars,
    lambda inner: hst.one_of(
        hst.lists(inner, max_size=4),
        hst.tuples(inner, inner),
        hst.dictionaries(hst.text(max_size=3), inner, max_size=2),
        hst.frozensets(hst.integers(), max_size=3),
    ),
    max_leaves=8,
)


def _build(cls, data):
    """An instance of ``cls`` with arbitrary field values, or None when construction refuses
    them cleanly (an IllegalActionError or another AlhambraError)."""
    args = [data.draw(values, label=f.name) for f in attrs.fields(cls)]
    try:
        return cls(*args)
    except AlhambraError:
        return None


_GAMES = None


def _games():
    """Games with all modules, 2-4 players, one in each phase a decision is taken in (turn,
    place, vizier), from random play."""
    global _GAMES
    if _GAMES is None:
        out, seen = [], set()
        for players in (2, 3, 4):
            g = _all_rules_game(players, 0, seed=players)
            rng = random.Random(players)
            while not g.is_over and len(g.history) < 400:
                key = (players, g.phase)
                if key not in seen:
                    seen.add(key)
                    out.append(g.clone())
                g.apply(rng.choice(g.legal_actions()))
        assert {"turn", "place", "vizier"} <= {p for _, p in seen}
        _GAMES = out
    return _GAMES


@pytest.mark.parametrize("cls", ACTION_CLASSES, ids=lambda c: c.__name__)
@settings(max_examples=40)
@given(data=hst.data())
def test_any_field_values_are_refused_cleanly(cls, data):
    """Construction refuses cleanly or builds; str/repr never raise; apply either plays a
    legal action or raises IllegalActionError with the game unchanged."""
    action = _build(cls, data)
    if action is None:
        return
    assert isinstance(str(action), str)
    assert isinstance(repr(action), str)
    for game in _games():
        g = game.clone()
        before = g.to_json()
        try:
            g.apply(action)
        except IllegalActionError as exc:
            assert isinstance(str(exc), str)
            assert g.to_json() == before
        else:  # it was legal: then it is equal to a listed action
            assert action in game.legal_actions()


@pytest.mark.parametrize(
    "action",
    [
        pytest.param(lambda m: m.UseVizier(1, [], via="florin-3"), id="UseVizier-via-str"),
        pytest.param(lambda m: m.UseVizier(1, [MoneyCard]), id="UseVizier-card-class"),
        pytest.param(lambda m: alhambra.Buy(1, [MoneyCard]), id="Buy-card-class"),
        pytest.param(lambda m: alhambra.Buy(1, [MoneyCard("florin", 3)], via=7), id="Buy-via-int"),
        pytest.param(lambda m: alhambra.TakeMoney([MoneyCard, None]), id="TakeMoney-junk"),
    ],
)
def test_issue_13_actions_print_and_are_refused(action):
    """The actions that once crashed in their string form."""
    import alhambra_vizier

    a = action(alhambra_vizier)
    text = str(a)
    assert "MoneyCard" in text or "florin-3" in text or "7" in text or "None" in text
    g = _all_rules_game(3, 0)
    before = g.to_json()
    with pytest.raises(IllegalActionError):
        g.apply(a)
    assert g.to_json() == before
