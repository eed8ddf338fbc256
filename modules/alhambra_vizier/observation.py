"""The vizier to the tools beside the rules: its actions' encodings in the environments'
action space, its token to the greedy evaluator (R-VIZ-4), its facts on the table picture
(R-VIZ-1). Its part of the observation tensor (``vizier.active``, ``vizier.asking``) follows
from its declared view (``DECLARED.shapes`` and ``observe`` in :mod:`.plugin`)."""

from __future__ import annotations

from typing import Any

from alhambra import ActionEncoding, EvaluationPart, Game, TablePart, hookimpl

from .plugin import KEY, DeclineVizier, ReactivateVizier, UseVizier, vizier_state


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """A use as a purchase's payment (R-VIZ-2); a decline and a reactivation, one integer each."""
    # the environments' package is loaded by then; importing it with the module would load
    # Gymnasium into every game
    from alhambra.env.codec import payment_encoding

    return [payment_encoding(game, UseVizier), ActionEncoding(DeclineVizier, ()), ActionEncoding(ReactivateVizier, ())]


@hookimpl
def alhambra_evaluation_part(game: Game, viewer: int) -> EvaluationPart:
    """An active vizier is a token (R-VIZ-4)."""
    return EvaluationPart(token=vizier_state(game).active.__getitem__)


@hookimpl
def alhambra_table_part(view: dict[str, Any], seat: int | None) -> TablePart | None:
    """Whose vizier is ready and whose used (R-VIZ-1)."""
    part = view.get("modules", {}).get(KEY)
    return TablePart(KEY, facts=tuple("vizier ready" if a else "vizier used" for a in part["active"])) if part else None
