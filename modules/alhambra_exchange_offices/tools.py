"""The exchange offices to the tools beside the rules: a take's encoding in the environments'
action space (R-EXC-3), the offices held openly on the table picture."""

from __future__ import annotations

from typing import Any

from alhambra import ActionEncoding, Field, Game, TablePart, hookimpl

from .plugin import KEY, TakeOffice


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """A take by its office."""
    # the environments' package is loaded by then; importing it with the module would load
    # Gymnasium into every game
    from alhambra.env.codec import means_cards

    return [ActionEncoding(TakeOffice, (Field(("office",), [(c,) for c in means_cards(game)]),))]


@hookimpl
def alhambra_table_part(view: dict[str, Any], seat: int | None) -> TablePart | None:
    """The offices each seat holds, openly (R-EXC-3)."""
    part = view.get("modules", {}).get(KEY)
    return None if part is None else TablePart("offices", cards=tuple(map(tuple, part.get("hands", ()))))
