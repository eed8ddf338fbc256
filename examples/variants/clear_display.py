"""House rule: instead of the turn's action, the turn player may clear the money display.

A new action: ``ClearDisplay`` (an attrs frozen subclass of ``Action``), played through an
``ActionKind`` (its phases, a function listing it, a function carrying it out) that hook
``alhambra_action_kinds`` hands the engine once per rule set. The four cards go onto the
discard pile; the display is refilled at the end of the turn as after a take (R-TURN-8). It is
the whole action (R-TURN-1: ``ACTION_DONE``).
"""

from typing import Any

from attrs import frozen

from alhambra import ACTION_DONE, Action, ActionKind, Game, Next, hookimpl

NAME = "clear_display"
DESCRIPTION = "House rule: a turn's action may clear the money display."
RULES = ("R-TURN-1",)


@frozen(slots=True)
class ClearDisplay(Action):
    def __str__(self) -> str:
        return "clear the money display"


def _legal(game: Game, seat: int) -> list[Action]:
    return [ClearDisplay()] if game.state.display else []


def _apply(game: Game, seat: int, action: Any) -> Next:
    st = game.state
    st.discard += st.display
    st.display = []
    return ACTION_DONE


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [ActionKind(ClearDisplay, frozenset({"turn"}), _legal, _apply)]
