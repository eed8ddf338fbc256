"""What a plugin's own state means to the tools built on the engine: the greedy evaluator
(``alhambra_evaluation_part``) and the table picture (``alhambra_table_part``).

A plugin answers these hooks with plain declarations; the tools read them without knowing the
plugin (see :mod:`alhambra.hookspec`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from attrs import frozen

if TYPE_CHECKING:  # pragma: no cover
    from .city import Alhambra

Pos = tuple[int, int]


class HutRules(Protocol):
    """Tiles that count as buildings of their type by the buildings next to them (the
    building huts, R-HUT-5): what the evaluator needs to count them (a
    :class:`~alhambra.HutKind` is one)."""

    @property
    def MAX_HUT_VALUE(self) -> int: ...  # noqa: N802 - the most buildings one tile counts as

    def is_hut(self, catalog: Any, tile: Any) -> bool: ...

    def hut_value(self, city: Alhambra, pos: Pos) -> int: ...

    def hut_counts(self, city: Alhambra) -> Mapping[str, int]: ...


@frozen(slots=True)
class EvaluationPart:
    """What the greedy evaluator counts of a plugin's state, as the viewer may know it.

    ``counted(seat)``: buildings (tile ids) that count once more for ``seat`` when they stand
    in its Alhambra (its bonus cards the viewer knows of, R-BON-3). ``token(seat)``: ``seat``
    holds a token the evaluator's ``vizier`` weight values (an active vizier, R-VIZ-4).
    ``huts``: the rules of tiles counting by their neighbours (:class:`HutRules`, R-HUT-5)."""

    counted: Callable[[int], tuple[Any, ...]] | None = None
    token: Callable[[int], bool] | None = None
    huts: HutRules | None = None


@frozen(slots=True)
class TablePart:
    """What the table picture draws of a plugin's part of a view, each in its place; ``name``
    is the stem of the classes and ids of what is drawn.

    ``facts``: per seat, a line of its panel's facts (or ``None``). ``cards``: per seat, the
    codes of cards it holds openly, drawn in its panel for the other seats (``<g
    class="alh-<name>" id="p<i>-<name>">``). ``hand_tiles``: tiles of the viewer's own,
    secret to the others, drawn beside its hand under ``hand_title`` (``<g
    class="alh-<name>-hand">``, each tile with ``data-<name>-tile``). ``stacks``: piles
    beside the market under ``stacks_title``, each ``(type, size, face-up tile or None)``
    (``<g class="alh-<name>-stacks">``)."""

    name: str
    facts: tuple[str | None, ...] = ()
    cards: tuple[tuple[str, ...], ...] = ()
    hand_tiles: tuple[Any, ...] = ()
    hand_title: str = ""
    stacks: tuple[tuple[str, int, Any], ...] = ()
    stacks_title: str = ""
