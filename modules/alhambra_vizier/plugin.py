"""The vizier (Die Gunst des Wesirs): state, actions and hook implementations.

How the module runs (R-VIZ-1 … R-VIZ-7):

* Setup gives every seat a vizier token, active (R-VIZ-1): ``VizierState.active``.
* After every completely finished turn (placements, refills and scorings done) the engine
  calls :func:`alhambra_between_turns`. The module then asks the seats in the priority order
  of R-VIZ-5: the player who just finished first, then the player seated before them, and so
  on, the player whose turn is next last. A seat is asked (phase ``"vizier"``) only if its
  vizier is active **and** it could actually use it, i.e. it holds at least one exact payment
  for a building on the market (engine ruling: a player with no possible use need not be
  asked, the asking is skipped for them).
* The asked seat either uses the vizier (:class:`UseVizier`: buy one market building paying
  EXACTLY in the space's currency, possibly through an exchange office, R-VIZ-2 and the
  ruling of RULES.md section 12) or declines (:class:`DeclineVizier`). A use earns no extra
  action and turns the token inactive (R-VIZ-2); the building is placed at once (built,
  reserved or, with two players, given to Dirk, R-VIZ-3). Then the market is refilled; if the
  bag cannot fill it the game ends as in R-END-1; otherwise everyone may decide again: the
  asking restarts from the top of the priority order (R-VIZ-5), so a player who declined
  before is asked again.
* When nobody is left to ask, play goes on with the player who would have played next
  (R-VIZ-3): the hook returns ``None`` and the engine starts that turn.
* On their turn a player with an inactive vizier may reactivate it (:class:`ReactivateVizier`);
  that is the whole action (R-VIZ-4).
* The vizier only ever buys from the four market spaces, so it can never take a building hut
  (R-VIZ-6); the engine never calls the between-turns hook during the end-of-game
  distribution, so it is never used there, and its state plays no part in the final scoring
  or the winners (R-VIZ-7, R-END-5).

Rulings where RULES.md is silent:

* A seat whose vizier is active but who holds no exact payment for any market building is not
  asked (it could only decline). To the others that looks the same as a decline (R-VIZ-5):
  during the asking round ``Game.view`` tells only the seat asked that it is asked; the others
  and spectators see that the round is on (phase ``"vizier"``), not whom it asks nor how many
  were asked before. That a round is on at all stays public (some seat could pay exactly).
* Declining holds only until the next change: after any use everyone is asked again from the
  top of the priority order, and every finished turn starts a fresh asking round.
* Reactivation is an action like the others, so it may also be taken as the action earned by
  an exact purchase (R-TURN-4); it then ends the turn's actions. A vizier reactivated on a
  turn may be used right after that turn (its owner, having just finished, is asked first).
* Using the vizier never refills the money display (only the market, R-VIZ-3) and so never
  triggers a scoring.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from attrs import define, field, frozen

from alhambra import (
    ACTION_DONE,
    END_GAME,
    RESUME,
    Action,
    ActionKind,
    Declared,
    DeclaredState,
    ExactPurchase,
    IllegalActionError,
    Interrupt,
    Next,
    PhaseSpec,
    Purchase,
    card_names,
    declared,
    hookimpl,
    operations,
)

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any
    from alhambra import Game, ObservationLayout
    from collections.abc import Sequence

KEY = "vizier"
PHASE = "vizier"  # the asking round between two turns; also what a vizier purchase's placement returns to


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


@define(slots=True)
class VizierState(DeclaredState):
    """The vizier tokens and the asking between two turns (plain ints, bools and lists).

    ``active[seat]``: that seat's vizier token is active (R-VIZ-1, R-VIZ-2, R-VIZ-4), public.
    ``queue``: seats still to consider in the current asking round, in priority order
    (R-VIZ-5); a seat is only asked if, when its turn to be asked comes, its vizier is active
    and it holds an exact payment. ``asked``: the seat deciding now in phase ``"vizier"``, or
    -1. ``started``: an asking round has begun at this between-turns moment. ``round_over``:
    the asking of this between-turns moment is over (so the engine may start the next turn);
    both flags are reset when a turn starts.
    """

    active: list[bool] = field(metadata=declared.public(per_seat=True, flag=True))
    queue: list[int] = field(factory=list, metadata=declared.internal(seat=True))
    asked: int = field(default=-1, metadata=declared.deciding(key="asking"))
    started: bool = field(default=False, metadata=declared.internal(flag=True))
    round_over: bool = field(default=False, metadata=declared.internal(flag=True))


def _observe(out: dict[str, Any], part: dict[str, Any], order: Sequence[int], layout: ObservationLayout) -> None:
    """The observation's ``vizier.active`` (each seat's token, R-VIZ-1/2/4) and
    ``vizier.asking`` (the seat asked now, shown to itself alone, R-VIZ-5), per player in
    observer-relative order, from the view entry."""
    for k, s in enumerate(order):
        out["active"][k] = bool(part["active"][s])
        if part["asking"] == s:
            out["asking"][k] = 1


#: The tokens are public (R-VIZ-1); during the asking round between two turns (phase
#: ``"vizier"``, which hides who decides) only the seat asked learns that it is asked: its
#: view's ``asking`` (and ``current_player``) name itself, every other seat's and a
#: spectator's are ``None`` (R-VIZ-5: a seat that cannot pay exactly is not asked, and to the
#: others that must look the same as a decline, so nobody may tell whom the round asks now,
#: nor count the seats asked before); ``game.current_player`` itself still names the seat
#: asked. A position's ``[vizier]`` holds every field, the asking in progress included.
DECLARED = Declared(
    KEY,
    VizierState,
    label="vizier",
    view=("active", "asking"),
    position=("active", "asked", "queue", "started", "round_over"),
    phase=PHASE,
    decider="asked",
    shapes=lambda layout: {"active": (layout.num_players,), "asking": (layout.num_players,)},
    observe=_observe,
)


def vizier_state(game: Game) -> VizierState:
    """The module's state of ``game``."""
    vs: VizierState = game.state.modules[KEY]
    return vs


def priority_order(finished: int, num_players: int) -> list[int]:
    """The seats in the order they are asked (R-VIZ-5): the player who just finished first,
    then the player seated before them, and so on; the player whose turn is next last."""
    return list(_order(finished, num_players))


@lru_cache(maxsize=None, typed=True)
def _order(finished: int, num_players: int) -> tuple[int, ...]:
    """:func:`priority_order` as a tuple, shared; kept by the arguments' types too (2.0 == 2,
    and a float seat must never reach another game)."""
    return tuple([(finished - k) % num_players for k in range(num_players)])


# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------


@frozen(slots=True, cache_hash=True)
class UseVizier(Purchase):
    """Use the vizier between two turns: buy the building on market ``space`` (1-4) paying
    ``cards`` whose total is EXACTLY its price, in the space's currency (R-VIZ-2).

    ``via``: a card spent with the payment that lets the cards be of other currencies (an
    exchange office, R-EXC-4; allowed for the vizier by the ruling of RULES.md section 12),
    or ``None``. The building is placed at once (R-VIZ-3); no extra action follows."""

    def __str__(self) -> str:
        via = f" via {card_names([self.via])}" if self.via is not None else ""
        return f"vizier: buy space {self.space} paying {card_names(self.cards)}{via}"


@frozen(slots=True, cache_hash=True)
class DeclineVizier(Action):
    """Do not use the vizier now (R-VIZ-2, R-VIZ-5): the next seat in priority order is asked."""

    def __str__(self) -> str:
        return "decline the vizier"


@frozen(slots=True, cache_hash=True)
class ReactivateVizier(Action):
    """Turn action: reactivate one's own inactive vizier; it is the whole action (R-VIZ-4)."""

    def __str__(self) -> str:
        return "reactivate the vizier"


_REACTIVATE = (ReactivateVizier(),)
_DECLINE = (DeclineVizier(),)


def _refuse_use(game: Game, seat: int) -> str | None:
    """Why ``seat`` may not use the vizier now (R-VIZ-2, R-VIZ-5), or ``None``."""
    vs = game.state.modules[KEY]  # asked at every listing in the asking round
    if not vs.active[seat]:
        return "R-VIZ-2: only a player with an active vizier can use it"
    return None if seat == vs.asked else f"R-VIZ-5: seat {vs.asked} is being asked, not seat {seat}"


def _used(game: Game, seat: int) -> None:
    """R-VIZ-2/3: once paid (cards and any via card to the discard pile), the token turns
    inactive and the asking stops while the building is placed at once;
    :func:`_after_placement` goes on from there."""
    vs = vizier_state(game)
    vs.active[seat] = False
    vs.asked = -1
    vs.queue = []


#: R-VIZ-2/3: the seat asked buys a market building with an exact payment (the purchase
#: rule's exact purchases, through any payment means: RULES.md section 12), placed at once;
#: an overpayment is refused.
USE = ExactPurchase(
    UseVizier,
    {PHASE},
    "R-VIZ-2: the vizier buys only with an exact payment; {total} paid for a price of {price}",
    _refuse_use,
    _used,
    then=PHASE,
)


def _legal_decline(game: Game, seat: int) -> Sequence[Action]:
    return _DECLINE if seat == game.state.modules[KEY].asked else []


def _apply_decline(game: Game, seat: int, action: DeclineVizier) -> Next | None:
    """Ask the next seat of the queue, or let the next turn begin (via the between-turns hook)."""
    vizier_state(game).asked = -1
    return RESUME


def _legal_reactivate(game: Game, seat: int) -> Sequence[Action]:
    return [] if game.state.modules[KEY].active[seat] else _REACTIVATE


def _check_reactivate(game: Game, seat: int, action: ReactivateVizier) -> None:
    raise IllegalActionError("R-VIZ-4: the vizier is already active")


def _apply_reactivate(game: Game, seat: int, action: ReactivateVizier) -> Next | None:
    vizier_state(game).active[seat] = True
    return ACTION_DONE  # R-VIZ-4: the whole action, never an extra one


# ---------------------------------------------------------------------------------------------
# Hooks
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_setup(game: Game) -> None:
    """R-VIZ-1: one vizier token per player, active at the start."""
    game.state.modules[KEY] = VizierState([True] * game.num_players)


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [
        ActionKind(ReactivateVizier, {"turn"}, _legal_reactivate, _apply_reactivate, _check_reactivate),
        USE.kind(),
        ActionKind(DeclineVizier, {PHASE}, _legal_decline, _apply_decline),
    ]


@hookimpl
def alhambra_turn_start(game: Game, seat: int) -> None:
    """A new turn: the next between-turns moment starts a fresh asking round (which sets
    ``queue`` and ``asked`` afresh; both are empty and -1 whenever a round is over)."""
    vs = game.state.modules[KEY]
    vs.started = vs.round_over = False


@hookimpl
def alhambra_between_turns(game: Game, finished: int) -> Interrupt | None:
    """R-VIZ-2/R-VIZ-5: after a completely finished turn, ask the seats with an active vizier
    in priority order (``finished`` first, the next turn's player last).

    Ruling: a seat is only asked if it could actually use the vizier now (an exact payment in
    hand for some market building); a player with no possible use need not be asked, so they
    are skipped. Returns an Interrupt: the seat to ask in phase ``"vizier"``; or None once nobody is left to
    ask, so that the engine starts the next player's turn (R-VIZ-3). Never used during the
    end-of-game distribution (R-VIZ-7): the engine does not call this hook then."""
    st = game.state
    vs = st.modules[KEY]
    if vs.round_over or st.phase in ("over", "distribution"):
        return None
    active = vs.active
    if not vs.started:  # a fresh asking round: everyone in priority order
        vs.started = True
        queue = _order(finished, len(active)) if True in active else ()
    else:  # down the queue after a decline, from where it stopped
        queue = vs.queue
    seat = game.rules.purchase.first_exact_payer(game, filter(active.__getitem__, queue)) if queue else None
    if seat is not None:  # asked; the seats after it are left to ask
        vs.queue = list(queue[queue.index(seat) + 1 :])
        vs.asked = seat
        return Interrupt(seat, PHASE)
    if vs.queue:
        vs.queue = []
    vs.asked = -1
    vs.round_over = True
    return None


def _after_placement(game: Game, seat: int) -> Next:
    """After a vizier purchase has been placed (R-VIZ-3): refill the market; if the bag cannot
    fill it, the game ends (R-END-1); otherwise everyone may decide again (R-VIZ-5), asking
    from the top of the priority order."""
    vs = vizier_state(game)
    if not operations.refill_market(game):
        vs.queue = []
        vs.asked = -1
        vs.round_over = True
        return END_GAME
    vs.queue = priority_order(game.state.turn_player, game.num_players)
    return RESUME


@hookimpl
def alhambra_phases() -> list[PhaseSpec]:
    """The asking round between two turns (R-VIZ-2, R-VIZ-5); a use's placement comes back to it."""
    doc = "a seat with an active vizier is asked between two turns (R-VIZ-5)"
    return [PhaseSpec(PHASE, _after_placement, doc, hidden_decider=True)]


@hookimpl
def alhambra_position_read(game: Game, parts: dict[str, Any]) -> list[str] | None:
    """``[vizier]``, in phase "vizier": ``started`` defaults to true (an asking round has
    begun) and ``asked`` to the position's decider (declared); the other fields keep the
    set-up's defaults (every token active, R-VIZ-1; nobody left to ask)."""
    if game.state.phase == PHASE:
        vizier_state(game).started = parts.get(KEY, {}).get("started", True)
    return [KEY]
