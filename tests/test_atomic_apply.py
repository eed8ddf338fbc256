"""``Game.apply`` is atomic: whatever a plugin raises in the middle of an action, the game is
exactly as it was before the call (state, history, generator, legal actions, views, save), the
error names the plugin and the hook, and the game plays on normally afterwards."""

from __future__ import annotations

import random
from typing import Any

import pytest
from attrs import frozen

import alhambra
import alhambra.testing
from alhambra import (
    Action,
    ActionKind,
    AlhambraError,
    ConfigError,
    Game,
    IllegalActionError,
    PluginError,
    hookimpl,
)
from alhambra.engine import lineage
from alhambra.game import _blank_of, _start_of

MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]


class Fuse:
    """A house rule whose hook ``hook`` raises once, the first time it runs while armed."""

    NAME = "fuse"

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc
        self.armed = False
        self.blown = 0

    def blow(self) -> None:
        if self.armed:
            self.armed = False
            self.blown += 1
            raise self.exc


def fuse_for(hook: str, exc: BaseException) -> Fuse:
    """A :class:`Fuse` implementing ``hook``, which runs after the state has begun to change."""
    fuse = Fuse(exc)

    if hook == "alhambra_after_scoring":  # after a scoring's points are added (R-SCORE-1)

        @hookimpl(specname="alhambra_after_scoring")
        def impl_after_scoring(game: Game, number: int) -> None:
            fuse.blow()

        fuse.impl = impl_after_scoring  # type: ignore[attr-defined]
    elif hook == "alhambra_city_changed":  # after a placement or a redesign

        @hookimpl(specname="alhambra_city_changed")
        def impl_city_changed(game: Game, seat: int) -> None:
            fuse.blow()

        fuse.impl = impl_city_changed  # type: ignore[attr-defined]
    elif hook == "alhambra_turn_start":  # after the market and display were refilled

        @hookimpl(specname="alhambra_turn_start")
        def impl_turn_start(game: Game, seat: int) -> None:
            fuse.blow()

        fuse.impl = impl_turn_start  # type: ignore[attr-defined]
    elif hook == "alhambra_scoring_adjust":  # in the middle of a scoring

        @hookimpl(specname="alhambra_scoring_adjust")
        def impl_scoring_adjust(game: Game, record: Any) -> None:
            fuse.blow()

        fuse.impl = impl_scoring_adjust  # type: ignore[attr-defined]
    else:  # pragma: no cover
        raise AssertionError(hook)
    return fuse


class Plugin:
    """The fuse as a plugin object (pluggy reads its attributes)."""

    NAME = "fuse"

    def __init__(self, fuse: Fuse) -> None:
        setattr(self, fuse.impl.__name__, fuse.impl)  # type: ignore[attr-defined]


def snapshot(game: Game) -> dict[str, Any]:
    """Everything a caller can read of ``game``."""
    return {
        "json": game.to_json(),
        "history": list(game.history),
        "legal": game.legal_actions(),
        "views": [game.view(s) for s in (None, *range(game.num_players))],
        "rng": alhambra.operations.rng(game).getstate(),
        "phase": game.phase,
        "decider": game.current_player,
        "scores": game.scores,
    }


def play_until_blown(game: Game, fuse: Fuse, rng: random.Random, error: type[BaseException]) -> BaseException:
    """Play random actions with the fuse armed until it blows; check that the failed action
    left the game as it was, play it again, and return the error."""
    fuse.armed = True
    while not game.is_over:
        before = snapshot(game)
        action = rng.choice(game.legal_actions())
        try:
            game.apply(action)
        except error as exc:
            assert snapshot(game) == before
            game.apply(action)  # the fuse is spent: the same action now plays
            return exc
    raise AssertionError("the fuse never blew")  # pragma: no cover


@pytest.mark.parametrize(
    "hook", ["alhambra_after_scoring", "alhambra_city_changed", "alhambra_turn_start", "alhambra_scoring_adjust"]
)
@pytest.mark.parametrize("modules", [[], MODULES], ids=["base", "modules"])
def test_a_hook_raising_mid_apply_leaves_the_game_as_it_was(hook: str, modules: list[str]) -> None:
    fuse = fuse_for(hook, RuntimeError("kaboom"))
    game = alhambra.new_game(3, modules=modules, seed=11, plugins=[Plugin(fuse)])
    assert alhambra.engine_of(game) == "python"
    rng = random.Random(3)
    for _ in range(7):  # let the state change first
        game.apply(rng.choice(game.legal_actions()))
    exc = play_until_blown(game, fuse, rng, PluginError)
    assert isinstance(exc, PluginError) and isinstance(exc, AlhambraError)
    assert exc.plugin == "fuse" and exc.hook == hook and exc.restored
    assert "'fuse'" in str(exc) and hook in str(exc) and "kaboom" in str(exc)
    assert type(exc.__cause__) is RuntimeError
    # it plays on to the end, and its own save loads and continues identically
    alhambra.testing.random_playout(game.clone(), rng)
    for _ in range(30):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    loaded = Game.from_json(game.to_json(), plugins=[Plugin(fuse)])
    assert loaded.to_json() == game.to_json()
    assert fuse.blown == 1


def test_the_restored_game_continues_as_one_that_never_failed() -> None:
    fuse = fuse_for("alhambra_after_scoring", RuntimeError("kaboom"))
    game = alhambra.new_game(4, modules=MODULES, seed=2, plugins=[Plugin(fuse)])
    twin = alhambra.new_game(
        4, modules=MODULES, seed=2, plugins=[Plugin(fuse_for("alhambra_after_scoring", RuntimeError()))]
    )
    play_until_blown(game, fuse, random.Random(9), PluginError)
    for action in game.history:
        twin.apply(action)
    rng = random.Random(4)
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        assert twin.legal_actions() == game.legal_actions()
        game.apply(action)
        twin.apply(action)
    assert game.to_json() == twin.to_json()


def test_an_alhambra_error_of_a_plugin_passes_unchanged_and_the_game_is_restored() -> None:
    fuse = fuse_for("alhambra_city_changed", ConfigError("bad setting"))
    game = alhambra.new_game(2, seed=4, plugins=[Plugin(fuse)])
    exc = play_until_blown(game, fuse, random.Random(1), ConfigError)
    assert type(exc) is ConfigError and str(exc) == "bad setting"


def test_keyboard_interrupt_passes_unchanged_and_the_game_is_restored() -> None:
    fuse = fuse_for("alhambra_turn_start", KeyboardInterrupt())
    game = alhambra.new_game(2, seed=4, plugins=[Plugin(fuse)])
    exc = play_until_blown(game, fuse, random.Random(1), KeyboardInterrupt)
    assert type(exc) is KeyboardInterrupt


def test_an_illegal_action_is_refused_as_before() -> None:
    fuse = fuse_for("alhambra_turn_start", RuntimeError())
    game = alhambra.new_game(2, seed=4, plugins=[Plugin(fuse)])
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="R-"):
        game.apply(alhambra.Buy(1, ()))
    assert snapshot(game) == before


@frozen(slots=True)
class Spoil(Action):
    """A house rule's action that changes the state, then fails (a bug in its kind)."""

    def __str__(self) -> str:
        return "spoil"


def _spoil_legal(game: Game, seat: int) -> list[Action]:
    return [Spoil()]


def _spoil_apply(game: Game, seat: int, action: Spoil) -> Any:
    game.state.players[seat].score += 100
    game.state.market[1] = None
    return _broken_helper(game)


def _broken_helper(game: Game) -> Any:
    return {}["missing"]  # KeyError


class Spoiler:
    NAME = "spoiler"

    @hookimpl
    def alhambra_action_kinds(self) -> list[ActionKind]:
        return [ActionKind(Spoil, frozenset({"turn"}), _spoil_legal, _spoil_apply)]


def test_an_action_kind_failing_after_changing_the_state_is_undone_and_named() -> None:
    game = alhambra.new_game(3, seed=8, plugins=[Spoiler()])
    rng = random.Random(2)
    for _ in range(12):
        game.apply(rng.choice([a for a in game.legal_actions() if type(a) is not Spoil]))
    while game.phase != "turn":
        game.apply(rng.choice(game.legal_actions()))
    before = snapshot(game)
    spoil = next(a for a in game.legal_actions() if type(a) is Spoil)
    with pytest.raises(PluginError, match="plugin 'spoiler' raised KeyError in _spoil_apply") as info:
        game.apply(spoil)
    assert info.value.plugin == "spoiler" and info.value.hook == "_spoil_apply"
    assert type(info.value.__cause__) is KeyError
    assert snapshot(game) == before


def rebuilt(game: Game) -> Game:
    """The game rebuilt from where its state comes from, as a failed action rebuilds it."""
    return lineage.rebuilt(game._base, game, len(game.history), _start_of, _blank_of)


def test_every_kind_of_start_is_rebuilt_exactly() -> None:
    rng = random.Random(5)
    game = alhambra.new_game(3, modules=MODULES, seed=21, engine="python")
    for _ in range(25):
        game.apply(rng.choice(game.legal_actions()))
    assert game._base is lineage.ORIGIN
    reseeded = game.clone(seed=77)
    world = reseeded.determinize(1, random.Random(3))
    assert type(reseeded._base) is lineage.Reseeded and type(world._base) is lineage.Determinized
    for g in (game, reseeded, world):
        for _ in range(20):
            g.apply(rng.choice(g.legal_actions()))
        assert rebuilt(g).to_json() == g.to_json()
    # a state edited by hand (then invalidate()) is copied before the next action
    game.state.players[0].score += 5
    alhambra.operations.invalidate(game)
    assert game._base is None
    game.apply(game.legal_actions()[0])
    assert type(game._base) is lineage.Snapshot and game.state.players[0].score >= 5
    assert rebuilt(game).to_json() == game.to_json()
    # a game built from a position starts there; an unchecked save is copied like a hand edit
    placed = Game.from_position(reseeded.position(), engine="python")
    placed.apply(placed.legal_actions()[-1])
    assert placed._base is lineage.ORIGIN and rebuilt(placed).to_json() == placed.to_json()
    unchecked = Game.from_json(reseeded.to_json(), check_history=False, engine="python")
    assert unchecked._base is None


def test_kernel_games_keep_where_their_state_comes_from() -> None:
    pytest.importorskip("alhambra_kernel")
    rng = random.Random(6)
    game = alhambra.new_game(4, modules=MODULES, seed=13)
    assert alhambra.engine_of(game) == "kernel"
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    reseeded = game.clone(seed=5)
    world = reseeded.determinize(2, random.Random(8))
    for g in (game, reseeded, world):
        for _ in range(15):
            g.apply(rng.choice(g.legal_actions()))
        g.state  # noqa: B018  (handed over to Python)
        assert rebuilt(g).to_json() == g.to_json()


def test_an_unrestorable_game_says_so() -> None:
    """A plugin that fails whenever its hook runs makes playing the history again fail too:
    the error says the game could not be put back (never a silent wrong game)."""

    class Always:
        NAME = "always"
        on = False

        @hookimpl
        def alhambra_city_changed(self, game: Game, seat: int) -> None:
            if self.on:
                raise RuntimeError("always")

    p = Always()
    game = alhambra.new_game(2, seed=3, plugins=[p])
    rng = random.Random(0)
    while sum(len(pl.city) for pl in game.state.players) < 4 or game.phase != "turn":  # a city changed
        game.apply(rng.choice(game.legal_actions()))
    p.on = True
    with pytest.raises(PluginError, match="could not be put back") as info:
        while True:
            game.apply(rng.choice(game.legal_actions()))
    assert info.value.plugin == "always" and not info.value.restored


def test_apply_on_the_normal_path_does_not_copy_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """The normal path records nothing per action: no copy of the state is taken."""
    game = alhambra.new_game(3, modules=MODULES, seed=1, engine="python")
    calls = []
    real = type(game.state).clone
    monkeypatch.setattr(type(game.state), "clone", lambda self: calls.append(1) or real(self))
    alhambra.testing.random_playout(game, 1)
    assert calls == []


def test_alhambra_errors_are_not_wrapped() -> None:
    assert issubclass(PluginError, AlhambraError)
    assert not issubclass(PluginError, (ValueError, IllegalActionError))
