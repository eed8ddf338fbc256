"""The turn sequence: declared phases, and the engine's transitions between them.

Plugins never move the game from one phase to the next themselves. An action kind's
``apply`` changes the state and *returns what comes next* (a :class:`Next` value, or ``None``
when the same seat simply decides again); a phase's ``after_placement`` does the same when
the tiles a placement was started for are all placed; the between-turns hook returns an
:class:`Interrupt` naming a declared phase. :func:`advance` carries those values out, one
after the other, until a seat has to decide. One ``apply`` is therefore
engine -> plugin -> engine, never a plugin calling back into the engine.

The built-in phases (:data:`BUILTIN_PHASES`) and what follows them:

* ``turn``: the turn player acts (R-TURN-1). An action returns :data:`ACTION_DONE`
  (or :data:`EXTRA_ACTION` after an exact payment, R-TURN-4). When the action is done, the
  tiles set aside are placed (``place``, R-TURN-7), then the turn ends: :class:`FinishTurn`.
* ``place``: a seat places pending tiles one action at a time; when none is left, the phase
  that started the placement continues (its :attr:`PhaseSpec.after_placement`; the state
  records that phase's name in ``state.place_context``).
* ``distribution``: the end of the game hands out the market (R-END-2); each recipient places
  in turn (R-END-3), then the final scoring and ``over``.
* ``over``: nobody decides.

A module declares its own phases with ``alhambra_phases`` (the vizier's asking round). An
action may hand the decision to a seat in a declared phase with :class:`Decide`: a *window*
inside a turn or a placement (the city gates' after a change of an Alhambra, R-GATE-5), whose
own action later returns ``Decide(seat, "place")`` (go on placing) or :data:`ACTION_DONE`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from attrs import field, frozen

from ..errors import ConfigError
from .operations import refill_display, refill_market, run_scoring
from .state import Pending

if TYPE_CHECKING:  # pragma: no cover
    from .protocol import GameLike

TURN, PLACE, DISTRIBUTION, OVER = "turn", "place", "distribution", "over"


# ---------------------------------------------------------------------------------------------
# What an action (or a phase's continuation) says comes next
# ---------------------------------------------------------------------------------------------


class Next:
    """Base of the values an action kind's ``apply`` returns to say what comes next.

    ``None`` instead of a :class:`Next`: the same seat decides again in the same phase (a
    free action such as a bonus-card reveal, R-BON-5, or a placement with tiles left)."""

    __slots__ = ()


@frozen(slots=True)
class ActionDone(Next):
    """The turn player's action is complete (R-TURN-1). With ``extra`` (an exact payment,
    R-TURN-4) they act again; otherwise their tiles set aside are placed (R-TURN-7) and the
    turn ends (R-TURN-8)."""

    extra: bool = False


#: an action is complete, the turn's actions are over
ACTION_DONE = ActionDone(False)
#: an action is complete and earns another (an exact payment, R-TURN-4)
EXTRA_ACTION = ActionDone(True)


@frozen(slots=True)
class PlaceTiles(Next):
    """``seat`` places the tiles pending plus ``tiles`` (added now, given to Dirk only with
    ``dirk_ok``), one action at a time; once none is left, phase ``then`` continues with its
    :attr:`PhaseSpec.after_placement`."""

    seat: int
    tiles: tuple[Any, ...] = field(converter=tuple, default=())
    then: str = TURN
    dirk_ok: bool = False


@frozen(slots=True)
class FinishTurn(Next):
    """The turn is over (R-TURN-8): refill the market (or end the game, R-END-1), refill the
    money display, run the scorings drawn (R-SCORE-1), end the game if a plugin says so
    (``alhambra_game_ends``), then the between-turns moment."""


@frozen(slots=True)
class Resume(Next):
    """The between-turns moment goes on: ask ``alhambra_between_turns`` again (after a
    module's interrupt, such as a declined vizier), then start the next turn (R-VIZ-3)."""


@frozen(slots=True)
class EndGame(Next):
    """End the game (R-END-1): hand out the market (R-END-2), let the recipients place
    (R-END-3), then the final scoring."""


@frozen(slots=True)
class NextDistribution(Next):
    """The next recipient of the end-of-game distribution places, or, with none left, the
    final scoring (R-END-3) and the end."""


FINISH_TURN, RESUME, END_GAME, NEXT_DISTRIBUTION = FinishTurn(), Resume(), EndGame(), NextDistribution()


@frozen(slots=True)
class Decide(Next):
    """``seat`` decides now in the declared phase ``phase`` (built-in or a module's, never
    ``"distribution"`` or ``"over"``): the engine sets the phase and the decider, nothing else.

    A module opens a window with it in the middle of a turn or a placement (a phase declared
    with ``PhaseSpec(..., window=True)``: the placement's context and a distribution in
    progress stay as they are), and its window's last action goes back with it:
    ``Decide(seat, "place")`` goes on placing (or, with nothing pending, ends the placement:
    the context's ``after_placement``), ``Decide(seat, "turn")`` lets the turn player act
    again (as after :data:`EXTRA_ACTION`); :data:`ACTION_DONE` ends the turn's actions."""

    seat: int
    phase: str


@frozen(slots=True)
class Interrupt:
    """What ``alhambra_between_turns`` returns to interrupt play between two turns: ``seat``
    decides now in ``phase`` (a phase its plugin declared with ``alhambra_phases``)."""

    seat: int
    phase: str


@frozen(slots=True)
class PhaseSpec:
    """A declared phase (``alhambra_phases``): its ``name`` (what ``game.phase`` reads),
    ``after_placement(game, seat)`` returning what follows once a placement it started with
    :class:`PlaceTiles` (``then=name``) is complete (``None``: it starts none), and a
    one-line ``doc``. ``window``: the phase is entered with :class:`Decide` in the middle of
    a turn or a placement and left the same way, so a placement's context (and a distribution
    in progress) may stay recorded while it lasts (saves and positions accept that).
    ``hidden_decider``: no seat but the one deciding may know who decides in this phase (the
    vizier's asking round, R-VIZ-5): the observations and the web table's pages of the other
    seats show nobody deciding (:func:`decider_hidden`)."""

    name: str
    after_placement: Callable[[Any, int], Next | None] | None = None  # (game, seat)
    doc: str = ""
    window: bool = False
    hidden_decider: bool = False


def decider_hidden(game: GameLike, phase: str | None = None) -> bool:
    """Whether who decides in ``phase`` (default: the game's phase now) is hidden from the
    other seats (``PhaseSpec.hidden_decider``)."""
    spec = game.rules.phase_specs.get(game.phase if phase is None else phase)
    return spec is not None and spec.hidden_decider


# ---------------------------------------------------------------------------------------------
# The engine's transitions
# ---------------------------------------------------------------------------------------------


def start_turn(game: GameLike, seat: int) -> None:
    """``seat``'s turn begins (R-TURN-1): phase ``turn``, then ``alhambra_turn_start``."""
    st = game.state
    st.turn_player = seat
    st.decider = seat
    st.phase = TURN
    if game.rules.has_turn_start:
        game.rules.fast.alhambra_turn_start(game=game, seat=seat)


def advance(game: GameLike, nxt: Next | None) -> None:
    """Carry out ``nxt`` and whatever follows from it, until a seat has to decide (or the
    game is over). Called by ``Game.apply`` with what the action's kind returned."""
    st = game.state
    while True:
        if nxt is None:
            if st.phase == PLACE and not st.pending:
                nxt = _placement_over(game)
                continue
            return
        nxt = _STEPS[type(nxt)](game, nxt)


def end_game(game: GameLike) -> None:
    """End the game now (R-END-1), as :data:`END_GAME` returned by an action would: for
    tools and tests that set up a situation by hand."""
    advance(game, END_GAME)


def place_tiles(game: GameLike, seat: int, then: str, tiles: Iterable[Any] = (), *, dirk_ok: bool = False) -> None:
    """Let ``seat`` place ``tiles`` (and those pending) now, as :class:`PlaceTiles` returned
    by an action would: for tools and tests."""
    advance(game, PlaceTiles(seat, tuple(tiles), then, dirk_ok))


def _action_done(game: GameLike, nxt: ActionDone) -> Next | None:
    if nxt.extra:
        return None
    st = game.state
    if st.pending:  # PlaceTiles(st.turn_player, (), TURN), without making one
        st.phase = PLACE
        st.decider = st.turn_player
        st.place_context = TURN
        return None
    return FINISH_TURN


def _place_tiles(game: GameLike, nxt: PlaceTiles) -> Next | None:
    st = game.state
    if nxt.tiles:
        st.pending.extend(Pending(t, nxt.dirk_ok) for t in nxt.tiles)
    st.phase = PLACE
    st.decider = nxt.seat
    st.place_context = nxt.then
    return None  # advance() goes on at once if nothing is pending


def _placement_over(game: GameLike) -> Next | None:
    """Every pending tile is placed: the phase that started the placement continues."""
    st = game.state
    then, seat = st.place_context, st.decider or 0  # a placing seat decides
    st.place_context = ""
    spec = game.rules.phase_specs.get(then)
    if spec is None or spec.after_placement is None:
        raise ConfigError(f"PlaceTiles(then={then!r}): no declared phase with an after_placement continues there")
    nxt: Next | None = spec.after_placement(game, seat)
    return nxt


def _finish_turn(game: GameLike, nxt: FinishTurn) -> Next | None:
    if not refill_market(game):
        return END_GAME
    refill_display(game)
    st = game.state
    while st.pending_scorings:
        run_scoring(game, st.pending_scorings.pop(0))
    if game.rules.has_game_ends and game.rules.fast.alhambra_game_ends(game=game, finished=st.turn_player):
        return END_GAME  # a plugin's own end of the game (alhambra_game_ends)
    return RESUME


def _resume(game: GameLike, nxt: Resume) -> Next | None:
    st = game.state
    if game.rules.has_between_turns:
        asked = game.rules.fast.alhambra_between_turns(game=game, finished=st.turn_player)
        if asked is not None:
            if type(asked) is not Interrupt or asked.phase not in game.rules.phase_specs:
                raise ConfigError(
                    f"alhambra_between_turns must return an Interrupt naming a declared phase "
                    f"(alhambra_phases), not {asked!r}"
                )
            st.phase = asked.phase
            st.decider = asked.seat
            return None
    if st.phase in (OVER, DISTRIBUTION):
        return None
    st.turn += 1
    start_turn(game, (st.turn_player + 1) % len(st.players))
    return None


def _end_game(game: GameLike, nxt: EndGame) -> Next | None:
    st = game.state
    st.phase = DISTRIBUTION
    st.pending_scorings.clear()
    handed = game.rules.hook.alhambra_distribution(game=game) or []
    st.distribution = [[seat, list(tiles)] for seat, tiles in handed]
    return NEXT_DISTRIBUTION


def _decide(game: GameLike, nxt: Decide) -> Next | None:
    st = game.state
    if nxt.phase not in game.rules.phase_specs or nxt.phase in (DISTRIBUTION, OVER):
        raise ConfigError(
            f"Decide(phase={nxt.phase!r}): a declared phase in which a seat decides (alhambra_phases), "
            "not 'distribution' or 'over'"
        )
    st.phase = nxt.phase
    st.decider = nxt.seat
    return None  # advance() ends a placement at once if nothing is pending


def _next_distribution(game: GameLike, nxt: NextDistribution) -> Next | None:
    st = game.state
    while st.distribution:
        seat, tiles = st.distribution.pop(0)
        if tiles:
            return PlaceTiles(seat, tiles, DISTRIBUTION)
    run_scoring(game, 3)
    st.phase = OVER
    st.decider = None
    game.rules.hook.alhambra_game_over(game=game)
    return None


_STEPS: dict[type, Callable[[Any, Any], Next | None]] = {
    ActionDone: _action_done,
    PlaceTiles: _place_tiles,
    FinishTurn: _finish_turn,
    Resume: _resume,
    EndGame: _end_game,
    NextDistribution: _next_distribution,
    Decide: _decide,
}


def _after_turn_placement(game: GameLike, seat: int) -> Next:
    return FINISH_TURN


def _after_distribution_placement(game: GameLike, seat: int) -> Next:
    return NEXT_DISTRIBUTION


#: The engine's own phases (see the module docstring).
BUILTIN_PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec(TURN, _after_turn_placement, "the turn player acts (R-TURN-1)"),
    PhaseSpec(PLACE, None, "a seat places pending tiles (R-TURN-7, R-END-3)"),
    PhaseSpec(DISTRIBUTION, _after_distribution_placement, "the market is handed out at the end (R-END-2)"),
    PhaseSpec(OVER, None, "the game is over (R-END-3)"),
)


def declared_phases(groups: Iterable[Iterable[PhaseSpec]]) -> dict[str, PhaseSpec]:
    """The built-in phases and those the plugins declare (``alhambra_phases`` answers), by
    name. Raises :class:`~alhambra.errors.ConfigError` for a phase declared twice or a
    declaration that is not a :class:`PhaseSpec`."""
    out = {p.name: p for p in BUILTIN_PHASES}
    for group in groups:
        for spec in group:
            if not isinstance(spec, PhaseSpec):
                raise ConfigError(f"alhambra_phases must return PhaseSpec values, not {spec!r}")
            if spec.name in out:
                raise ConfigError(f"phase {spec.name!r} is declared twice")
            out[spec.name] = spec
    return out
