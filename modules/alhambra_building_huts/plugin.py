"""Module "building_huts" (Bauhütten) of Die Gunst des Wesirs (R-HUT-1 … R-HUT-6).

24 huts, one colour per building type, lie in six stacks, the top of each face up (R-HUT-1).
A new action takes a face-up hut for free, ending the turn's actions (R-HUT-2); at the end of
the turn it is built or reserved like a bought building, never given to Dirk (R-HUT-3). A
player owns at most 3 huts, reserve included (R-HUT-4). At a scoring, a hut in the Alhambra
counts as one building of its colour per orthogonally adjacent building of that type not
separated from it by a wall, at most 3 (R-HUT-5). Hut walls count for the longest wall like
any other (R-HUT-6): the core Alhambra reads them from the tile catalogue. The counting of
R-HUT-5 (and of the huts a seat owns, R-HUT-4) is the core's :class:`alhambra.HutKind`,
declared here as :data:`HUTS`.

This package object is the pluggy plugin: its hook implementations are the functions below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import define, field, frozen

from alhambra import (
    ACTION_DONE,
    BUILDING_TYPES,
    COLOURS,
    Action,
    ActionKind,
    ConfigError,
    Declared,
    DeclaredState,
    HutKind,
    IllegalActionError,
    Option,
    action_table,
    declared,
    hookimpl,
    operations,
    tile_locations,
)

from .layout import HUT_KIND, check_layout_option, load_layout

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence
    from typing import Any

    from alhambra import Game, Next, ObservationLayout, TileSpec


STATE_KEY = "building_huts"
LAYOUT_OPTION = "building_huts.layout"
#: R-HUT-4: most huts a player may own (Alhambra, reserve and pending together).
MAX_HUTS = 3
#: R-HUT-5: most buildings one hut can count as.
MAX_HUT_VALUE = 3


# ---------------------------------------------------------------------------------------------
# State and action
# ---------------------------------------------------------------------------------------------


def _stacks_seen(stacks: dict[str, list[str]]) -> dict[str, dict[str, Any]]:
    """What every player sees of the stacks: each one's colour, face-up hut and size."""
    return {t: {"colour": COLOURS[t], "face_up": s[-1] if s else None, "size": len(s)} for t, s in stacks.items()}


def _stack_problem(game: Game, colour: str, stack: Any) -> bool:
    """True unless ``stack`` is a list of huts of ``colour`` (R-HUT-1)."""
    cat, huts = game.rules.catalog, hut_ids(game.rules.catalog)
    return not isinstance(stack, list) or any(h not in huts or cat[h].type != colour for h in stack)


def _read_stacks(value: Any, game: Game, where: str) -> dict[str, list[str]]:
    """A position's ``stacks``: per colour, huts of that colour, bottom first; a colour left
    out keeps its set-up stack, less the huts the position has placed elsewhere."""
    if not isinstance(value, dict) or set(value) - set(BUILDING_TYPES):
        raise ConfigError(f"{where}: a table of stacks by colour {list(BUILDING_TYPES)} (R-HUT-1), not {value!r}")
    for colour, stack in value.items():
        if _stack_problem(game, colour, stack):
            raise ConfigError(f"{where}.{colour}: huts of that colour (R-HUT-1), not {stack!r}")
    placed = {t for at, tiles in tile_locations(game).items() if at != "hut_stacks" for t in tiles}
    setup = game.state.modules[STATE_KEY].stacks
    return {t: list(value[t]) if t in value else [h for h in s if h not in placed] for t, s in setup.items()}


@define(slots=True)
class HutState(DeclaredState):
    """The six hut stacks (R-HUT-1): ``stacks[type]`` lists the huts of that colour, bottom
    first; the last one is the face-up top. The order below the top is secret."""

    stacks: dict[str, list[str]] = field(
        factory=dict,
        metadata=declared.pile(
            face_up=1,
            view=_stacks_seen,
            pile_name="{} stack",
            holds="tiles",
            place="hut_stacks",
            from_position=_read_stacks,
        ),
    )

    def face_up(self) -> dict[str, str | None]:
        """The face-up hut of each stack (``None`` for an empty stack), in scoring order."""
        return {t: (s[-1] if s else None) for t, s in self.stacks.items()}


@frozen(slots=True, cache_hash=True)
class TakeHut(Action):
    """Take the face-up building hut ``hut`` (R-HUT-2). It costs nothing, never earns another
    action, and is built or reserved at the end of the turn (R-HUT-3)."""

    hut: str

    def __str__(self) -> str:
        return f"take building hut {self.hut}"


# ---------------------------------------------------------------------------------------------
# Counting (R-HUT-4, R-HUT-5)
# ---------------------------------------------------------------------------------------------


#: R-HUT-5: the huts, each counting as up to 3 buildings of its colour by its neighbours.
HUTS = HutKind(HUT_KIND, MAX_HUT_VALUE)
#: ``is_hut(catalog, tile)``: True if ``tile`` is a building hut of ``catalog``.
is_hut = HUTS.is_hut
#: ``hut_value(city, pos)``: how many buildings of its colour the hut at ``pos`` of ``city``
#: counts as (R-HUT-5); ``ValueError`` if no hut stands at ``pos``.
hut_value = HUTS.hut_value
#: ``hut_counts(city)``: the buildings per type that the huts of ``city`` add at a scoring.
hut_counts = HUTS.hut_counts
#: ``hut_ids(catalog)``: the ids of all huts in ``catalog``.
hut_ids = HUTS.ids

#: ``huts_owned(game, seat)``: how many huts ``seat`` owns (R-HUT-4): in the Alhambra, in the
#: reserve, and (for the turn player) taken this turn and not yet placed.
huts_owned = HUTS.owned


# ---------------------------------------------------------------------------------------------
# The action kind (R-HUT-2, R-HUT-3, R-HUT-4)
# ---------------------------------------------------------------------------------------------


def _legal_take(game: Game, seat: int) -> Sequence[Action]:
    """The TakeHut actions of the face-up huts (R-HUT-2), none for a seat owning the maximum
    (R-HUT-4). Kept in ``operations.memo(game)`` as ``(change counter, owned per seat, actions)`` with the
    change counter of this module's state (``operations.module_changes(game, key)``, see ``operations.edit_module``),
    which every change of the stacks bumps: this module's own take, another plugin's, search's
    resampling through ``alhambra.operations.invalidate(game)``. The owned counts are part of this module's state
    in the same sense: a hut changes owner only when it is taken (R-HUT-3: never after, not
    even to Dirk; a removal or swap keeps it in its owner's reserve), so a house rule that
    moves a hut between seats or out of play does it through ``edit_module`` too."""
    changes = operations.module_changes(game, STATE_KEY)
    last = operations.memo(game).get(STATE_KEY)
    if last is None or last[0] != changes:
        hs = game.state.modules.get(STATE_KEY)
        if hs is None:
            return _NONE
        table = action_table(TakeHut)
        owned = tuple([huts_owned(game, s) for s in range(len(game.state.players))])
        last = operations.memo(game)[STATE_KEY] = (changes, owned, [table[s[-1],] for s in hs.stacks.values() if s])
    return _NONE if last[1][seat] >= MAX_HUTS else last[2]  # R-HUT-4


_NONE: tuple[()] = ()


def _check_take(game: Game, seat: int, action: TakeHut) -> None:
    hs = game.state.modules.get(STATE_KEY)  # None: the module is not enabled
    hut = action.hut
    cat = game.rules.catalog
    if hs is None or not is_hut(cat, hut):
        raise IllegalActionError(f"R-HUT-2: {hut!r} is not a building hut")
    stack = hs.stacks.get(str(cat[hut].type), [])
    if not stack or stack[-1] != hut:
        where = "already taken" if hut not in stack else "face down"
        up = [h for h in hs.face_up().values() if h is not None]
        raise IllegalActionError(f"R-HUT-2: hut {hut} is {where}; only a face-up hut can be taken (face up: {up})")
    owned = huts_owned(game, seat)
    if owned >= MAX_HUTS:
        raise IllegalActionError(
            f"R-HUT-4: {game.state.players[seat].name} already owns {owned} huts "
            f"(Alhambra, reserve and this turn's tiles); at most {MAX_HUTS}"
        )


def _apply_take(game: Game, seat: int, action: TakeHut) -> Next | None:
    hs = operations.edit_module(game, STATE_KEY)  # TakeHut is listed only with the module's state
    stack = hs.stacks[game.rules.catalog[action.hut].type]
    stack.pop()  # R-HUT-2: the next hut of this stack (if any) is now face up
    operations.add_pending(game, action.hut, dirk_ok=False)  # R-HUT-3: placed at the end of the turn, never to Dirk
    return ACTION_DONE  # R-HUT-2: never an extra action


# ---------------------------------------------------------------------------------------------
# Hook implementations
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_options() -> list[Option]:
    return [
        Option(
            LAYOUT_OPTION,
            None,
            "path to a TOML file with the printed huts' walls (default: the shipped layout)",
            rule="R-HUT-1",
            check=check_layout_option,
            path=True,
        )
    ]


@hookimpl
def alhambra_tiles(options: dict[str, Any]) -> list[TileSpec]:
    """R-HUT-1: the 24 huts, from the shipped layout or the file named by the option."""
    return list(load_layout(options.get(LAYOUT_OPTION)))


@hookimpl
def alhambra_setup(game: Game) -> None:
    """R-HUT-1: six stacks by colour, each shuffled; the top of each is face up."""
    huts = [spec for spec in game.rules.catalog.values() if spec.kind == HUT_KIND]
    stacks = {t: [spec.id for spec in huts if spec.type == t] for t in BUILDING_TYPES}
    for stack in stacks.values():
        operations.rng(game).shuffle(stack)
    game.state.modules[STATE_KEY] = HutState(stacks)


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [ActionKind(TakeHut, {"turn"}, _legal_take, _apply_take, _check_take)]


@hookimpl
def alhambra_building_counts(game: Game, number: int, counts: dict[int, dict[str, int]]) -> None:
    """R-HUT-5: each hut in a player's Alhambra adds 0-3 buildings of its colour; reserve
    huts add nothing."""
    HUTS.add_counts(game, counts)


@hookimpl
def alhambra_check_state(game: Game) -> str | None:
    """A loaded game's hut stacks: one stack per colour holding only huts of that colour (each
    hut in exactly one place is the declared check)."""
    hs = game.state.modules.get(STATE_KEY)
    for colour, stack in hs.stacks.items() if hs is not None else ():
        if _stack_problem(game, colour, stack):
            return f"building huts: stack {colour!r} holds {stack!r} (R-HUT-1)"
    return None


def _observe(out: dict[str, Any], part: dict[str, Any], order: Sequence[int], layout: ObservationLayout) -> None:
    """The observation's ``building_huts.face_up`` (the face-up hut of each stack, one flag
    per tile) and ``building_huts.stack_sizes`` (each stack's size, in
    :data:`alhambra.BUILDING_TYPES` order), from the view entry: never the face-down order."""
    for k, t in enumerate(BUILDING_TYPES):
        stack = part["stacks"].get(t)
        if stack is not None:
            out["stack_sizes"][k] = stack["size"]
            if stack["face_up"] is not None:
                out["face_up"][layout.tile_index[stack["face_up"]]] = 1


#: Public: each stack's colour, face-up hut and size, never the order below (R-HUT-1), which
#: determinization reshuffles; every hut of the game lies in exactly one place.
DECLARED = Declared(
    STATE_KEY,
    HutState,
    label="building huts",
    view=("stacks",),
    tiles=HUT_KIND,
    noun="hut",
    shapes=lambda layout: {"face_up": (len(layout.tiles),), "stack_sizes": (len(BUILDING_TYPES),)},
    observe=_observe,
)
