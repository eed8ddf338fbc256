"""A house rule's option with neither ``choices`` nor ``check`` takes its default's type."""

from __future__ import annotations

import pytest

import alhambra
from alhambra import ConfigError, Option, hookimpl


class ReservePenalty:
    """A house rule declaring typed options without a check (the shape a new user writes)."""

    NAME = "reserve_penalty"

    @hookimpl
    def alhambra_options(self) -> list[Option]:
        return [
            Option("reserve_penalty.points", 1, "points lost per reserve tile"),
            Option("reserve_penalty.factor", 0.5, "a float option"),
            Option("reserve_penalty.on", True, "a bool option"),
            Option("reserve_penalty.label", "tax", "a str option"),
            Option("reserve_penalty.anything", None, "no default type: anything goes"),
        ]


@pytest.mark.parametrize(
    ("name", "value", "kind"),
    [
        ("reserve_penalty.points", "x", "an integer"),
        ("reserve_penalty.points", True, "an integer"),
        ("reserve_penalty.points", 1.5, "an integer"),
        ("reserve_penalty.factor", "0.5", "a number"),
        ("reserve_penalty.factor", False, "a number"),
        ("reserve_penalty.on", 1, "true or false"),
        ("reserve_penalty.label", 3, "text"),
    ],
)
def test_option_without_check_refuses_another_type(name: str, value: object, kind: str) -> None:
    with pytest.raises(ConfigError, match=f"option '{name}' must be {kind} like its default"):
        alhambra.new_game(3, modules=[ReservePenalty()], options={name: value})


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("reserve_penalty.points", 3),
        ("reserve_penalty.factor", 2),
        ("reserve_penalty.factor", 0.25),
        ("reserve_penalty.on", False),
        ("reserve_penalty.label", "toll"),
        ("reserve_penalty.anything", [1, "a"]),
    ],
)
def test_option_without_check_takes_its_type(name: str, value: object) -> None:
    game = alhambra.new_game(3, modules=[ReservePenalty()], options={name: value})
    assert game.rules.options[name] == value


def test_built_in_options_still_resolve() -> None:
    game = alhambra.new_game(3, options={"holes": "region"})
    assert game.rules.options["holes"] == "region"
    assert game.rules.options["tiebreak"] == "shared"


class ForgotTheDecorator:
    """A house rule whose scoring hook lacks ``@hookimpl``: pluggy would skip it silently."""

    NAME = "forgot_the_decorator"

    def alhambra_scoring_adjust(self, game: object, record: object) -> None:
        raise AssertionError("never called")

    def alhambra_helper(self) -> None:
        """Named like a hook but no hook of that name exists: left alone."""


def test_a_hook_without_hookimpl_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="alhambra_scoring_adjust is not marked with @alhambra.hookimpl"):
        alhambra.new_game(3, plugins=[ForgotTheDecorator()])
    with pytest.raises(ConfigError, match="plugin 'forgot_the_decorator'"):
        alhambra.new_game(3, modules=[ForgotTheDecorator()])


def test_a_marked_hook_still_registers() -> None:
    game = alhambra.new_game(3, modules=[ReservePenalty()], options={"reserve_penalty.points": 2})
    assert game.rules.options["reserve_penalty.points"] == 2


def test_an_equal_value_of_another_kind_is_judged_on_its_own() -> None:
    """2 and 2.0 (or True and 1) are equal, so a cache of rule sets keyed by option values
    would hand a refused 2.0 the rule set made for 2: each is judged by its own kind."""
    alhambra.new_game(3, modules=[ReservePenalty()], options={"reserve_penalty.points": 2})
    with pytest.raises(ConfigError, match="must be an integer"):
        alhambra.new_game(3, modules=[ReservePenalty()], options={"reserve_penalty.points": 2.0})
    alhambra.new_game(3, modules=["city_gates"], options={"city_gates.cards": 1})
    with pytest.raises(ConfigError, match="city_gates.cards"):
        alhambra.new_game(3, modules=["city_gates"], options={"city_gates.cards": True})
