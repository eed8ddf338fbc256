"""The vizier's part of the environments' observation tensor (``alhambra.env``, docs/env.md):
``vizier.active`` (each seat's token, R-VIZ-1/2/4) and ``vizier.asking`` (the seat asked now,
R-VIZ-5), per player in observer-relative order.

Also the vizier to the other tools: its actions' encodings, its token to the greedy
evaluator (R-VIZ-4), its facts on the table picture (R-VIZ-1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from alhambra import ActionEncoding, EvaluationPart, Game, ObservationLayout, ObservationPart, TablePart, hookimpl
from alhambra import mirrored_part

from .plugin import KEY, PHASE, DeclineVizier, ReactivateVizier, UseVizier, vizier_state

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


def snapshot(game: Game, seat: int, layout: ObservationLayout, cache: dict[Any, Any]) -> dict[str, Any]:
    """The tokens and the seat asked now, from the state, as ``alhambra_view`` shows them (the
    seat asked only to itself, R-VIZ-5)."""
    vs = vizier_state(game)
    asked = vs.asked if game.state.phase == PHASE and vs.asked >= 0 else None
    return {"active": tuple(vs.active), "asking": asked if asked == seat else None}


def write(out: dict[str, np.ndarray], part: Any, order: Sequence[int], layout: ObservationLayout) -> None:
    """The slices from the view's entry (the reference) or a snapshot."""
    for k, s in enumerate(order):
        out["active"][k] = bool(part["active"][s])
        if part["asking"] == s:
            out["asking"][k] = 1


@hookimpl
def alhambra_observation_parts(game: Game, layout: ObservationLayout) -> list[ObservationPart]:
    """``vizier.active`` and ``vizier.asking``, one entry per player."""
    n = layout.num_players
    return [mirrored_part(KEY, {"active": (n,), "asking": (n,)}, write, snapshot)]


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
