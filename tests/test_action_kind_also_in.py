"""``ActionKind.also_in``: a kind also played in another phase, there only while a condition
holds (a module's window in which a built-in action stays playable), its own phases untouched."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from alhambra import ACTION_DONE, ActionKind, IllegalActionError, Pass


def _game(phase: str, open_: bool) -> SimpleNamespace:
    return SimpleNamespace(state=SimpleNamespace(phase=phase), open=open_)


def _kind(checked: list[object]) -> ActionKind:
    return ActionKind(
        Pass,
        {"turn"},
        lambda game, seat: [Pass()],
        lambda game, seat, a: ACTION_DONE,
        lambda g, s, a: checked.append(a),
    )


def test_a_kind_also_in_a_window_lists_and_checks_there_only_while_allowed():
    checked: list[object] = []
    kind = _kind(checked).also_in({"window"}, lambda game, seat: None if game.open else "R-X: the window is shut")
    assert kind.phases == frozenset({"turn", "window"})
    # its own phase: as it was, whatever the condition
    assert list(kind.legal(_game("turn", False), 0)) == [Pass()]
    kind.check(_game("turn", False), 0, Pass())
    # the other phase: while allowed, the kind's own listing and check
    assert list(kind.legal(_game("window", True), 0)) == [Pass()]
    kind.check(_game("window", True), 0, Pass())
    assert checked == [Pass(), Pass()]
    # while refused: nothing listed, and the sentence as the refusal
    assert list(kind.legal(_game("window", False), 0)) == []
    with pytest.raises(IllegalActionError, match="R-X: the window is shut"):
        kind.check(_game("window", False), 0, Pass())
    assert checked == [Pass(), Pass()]
