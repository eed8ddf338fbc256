"""Where a game's state comes from, so that ``Game.apply`` can put it back after a failure.

Every game knows how its state was reached: from where its history starts (the set-up of its
seed, or its start position) by playing the history, with the steps that are not actions
recorded as they happen (a clone with a fresh generator, a determinization, a state edited
by hand). Recording costs nothing per action: the engine is deterministic (the same start
and the same actions give the same game), so the state before a failed action is rebuilt by
playing the history again from the recorded start, and only a failure pays for it.

``game._base`` holds one of these records:

* :data:`ORIGIN`: the history starts at the game's set-up or start position (``origin``):
  every game made by ``new_game``, ``Game.from_position`` or a checked ``Game.from_json``;
* :class:`Reseeded`: a clone whose generator was seeded afresh (``clone(seed=...)``);
* :class:`Determinized`: a determinization (``Game.determinize``), with the generator's state
  it drew from;
* :class:`Snapshot`: a copy of the state taken when the state stopped following from its
  history (edited by hand, then ``operations.invalidate(game)``; a save loaded unchecked);
* ``None``: such a copy is due; ``Game.apply`` takes it before its next action;
* :data:`NO_RESTORE`: a game being rebuilt, which never rebuilds itself.

A plugin's hooks must be functions of the game (plugins keep their per-game data in the
game), as loading a save already assumes: a hook that answers differently when the same
actions are played again makes the history lead elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from attrs import frozen

if TYPE_CHECKING:  # pragma: no cover
    from .protocol import G, GameLike
    from .state import GameState


@frozen(slots=True)
class Origin:
    """The history starts at the game's set-up (its seed) or its start position."""


ORIGIN = Origin()


@frozen(slots=True)
class Reseeded:
    """The game at ``at`` actions of its history, as ``parent`` leads there, with its
    generator seeded afresh with ``seed``."""

    parent: Any
    at: int
    seed: int


@frozen(slots=True)
class Determinized:
    """The game at ``at`` actions of its history, as ``parent`` leads there, determinized for
    ``seat`` by a generator in state ``rng_state`` (``random.Random.getstate()``)."""

    parent: Any
    at: int
    seat: int
    rng_state: tuple[Any, ...]
    recall: bool


@frozen(slots=True)
class Snapshot:
    """A copy of the state and of the generator's state at ``at`` actions of the history."""

    state: GameState
    rng_state: tuple[Any, ...]
    at: int


@frozen(slots=True)
class NoRestore:
    """A game being rebuilt: a failure inside it is passed on as it is."""


NO_RESTORE = NoRestore()


def snapshot(game: GameLike) -> Snapshot:
    """The game as it is now, as a :class:`Snapshot` (one copy of the state)."""
    return Snapshot(game.state.clone(), game._rng.getstate(), len(game.history))


def rebuilt(
    base: Any,
    game: G,
    n: int,
    start: Callable[[G], G],
    blank: Callable[[G], G],
) -> G:
    """A new game at ``n`` actions of ``game``'s history, reached from ``base`` (one of the
    records above): ``start(game)`` makes the game where the history starts, ``blank(game)``
    an empty game of the same configuration. The game returned never rebuilds itself
    (:data:`NO_RESTORE`); an error while its history is played again is passed on."""
    if type(base) is Origin:
        g, at = start(game), 0
    elif type(base) is Snapshot:
        g, at = blank(game), base.at
        g.state = base.state.clone()
        g._rng.setstate(base.rng_state)
        g.history = game.history[:at]
    elif type(base) is Reseeded:
        g, at = rebuilt(base.parent, game, base.at, start, blank), base.at
        g._rng.seed(base.seed)
    elif type(base) is Determinized:
        import random

        g, at = rebuilt(base.parent, game, base.at, start, blank), base.at
        rng = random.Random()
        rng.setstate(base.rng_state)
        g = g.determinize(base.seat, rng, recall=base.recall)
    else:
        raise TypeError(f"no record of where the game's state comes from: {base!r}")
    g._base = NO_RESTORE
    for action in game.history[at:n]:
        g.apply(action)
    return g
