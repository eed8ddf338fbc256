"""Matching an action a caller built to the legal ones (``Game.apply``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError
from .actions import Action, ActionKind, Pass

if TYPE_CHECKING:  # pragma: no cover
    from .protocol import GameLike


def match_unlisted(game: GameLike, action: Any) -> tuple[Action, ActionKind | None]:
    """For ``Game.apply``: an action that is not one of the listed instances. Returns the
    listed instance equal to it (or ``action`` itself when a plugin's check accepts it,
    e.g. an overpayment) and its kind (None for Pass); raises
    :class:`IllegalActionError` with the reason otherwise."""
    st = game.state
    seat = st.decider
    if seat is None:
        raise IllegalActionError("the game is over (R-END-3): no more actions")
    if not isinstance(action, Action):
        raise IllegalActionError(f"{action!r} is not an action")
    kind = game.rules.kinds.get(type(action))
    if isinstance(action, Pass):
        kind = None
    elif kind is None:
        raise IllegalActionError(
            f"{type(action).__name__} is not an action of this game's rules (modules: {list(game.rules.modules)})"
        )
    if kind is not None and st.phase not in kind.phases:
        raise IllegalActionError(f"{action} cannot be played in phase {st.phase!r}")
    if game._legal_set is None:
        game._legal_set = {a: a for a in game._legal or ()}
    try:
        found = game._legal_set.get(action)
    except TypeError:  # a field holds something unhashable: certainly not listed
        found = None
    if found is not None:
        # play the engine's own instance: an equal action may hold look-alike values
        # (2.0 for 2, True for 1) that must never reach the state
        return found, kind
    if kind is None:
        raise IllegalActionError("R-TURN-9: a player may pass only when no other action is possible")
    if kind.check is None:
        raise IllegalActionError(f"{action!r} is not legal now")
    try:
        kind.check(game, seat, action)  # raises with the reason, or accepts (e.g. overpaying)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        if isinstance(exc, IllegalActionError):
            raise
        raise IllegalActionError(f"malformed action {action!r}: {exc}") from None
    if not kind.unlisted:  # every legal action of this kind is listed, and this one is not
        raise IllegalActionError(f"{action!r} is not legal now")
    return action, kind
