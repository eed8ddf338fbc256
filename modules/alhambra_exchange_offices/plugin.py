"""Module "exchange_offices" (Wechselstuben) of Die Gunst des Wesirs (R-EXC-1 … R-EXC-6).

Six exchange office cards, one per pair of the four currencies, are shuffled into piles 2, 3
and 4 of the money deck (two each, R-EXC-1). Drawn, they lie in the money display like any card
(R-EXC-2). Instead of taking money a player may take one office: that is the whole action
(R-EXC-3). When buying a building whose space currency is on an office in hand, the player may
spend that office with the payment and pay in any mix of its two currencies (R-EXC-4, one
office per purchase); the office goes to the discard pile with the cards and comes back when
the discard is reshuffled (R-EXC-5). Offices are no money at the end of the game (R-EXC-6).

The package itself is the pluggy plugin: its hook implementations are module-level functions.
The engine does most of the work generically: the display refill draws any card, taking an
office is a :func:`~alhambra.display_take_kind`, purchases with a ``via`` card are listed and
checked by ``Game.payments``/``Game.check_payment`` from the :class:`~alhambra.PaymentMeans`
offered here, the observation's part comes from the declared deck kind's view entries, and the
end of game counts only money cards.
The module keeps no state of its own: an office is always in the deck, display, a hand or the
discard pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from itertools import combinations

from attrs import field, frozen

from alhambra import (
    CURRENCIES,
    Action,
    ActionKind,
    CardFamily,
    Declared,
    DeckKind,
    PaymentMeans,
    display_take_kind,
    field_check,
    hookimpl,
    made_cards,
    means_in_hand,
    operations,
)

if TYPE_CHECKING:  # pragma: no cover
    from typing import Any
    from alhambra import Card, Game

KEY = "exchange_offices"  # the state, memo and view key of this module (its NAME)


#: Piles of R-SET-6 (0-based: piles 2, 3, 4) that receive offices, and how many each (R-EXC-1).
OFFICE_PILES = (1, 2, 3)
OFFICES_PER_PILE = 2


@frozen(slots=True, eq=False, init=False)
class ExchangeOffice(CardFamily):
    """An exchange office card showing two currencies, ``first`` before ``second`` in
    :data:`alhambra.CURRENCIES` order (R-EXC-1). ``code``: ``"office-florin-dirham"`` etc.

    There is one instance per pair, as for money cards: ``ExchangeOffice("florin", "dirham")``
    always returns the same object, so comparing and hashing offices compares identities.
    Raises :class:`~alhambra.ConfigError` for a currency not in :data:`alhambra.CURRENCIES`,
    or two currencies not in that order (the same twice included)."""

    first: str
    second: str

    @classmethod
    def refusal(cls, *values: Any) -> str:
        """Why no office shows the currencies ``values`` (R-EXC-1)."""
        first, second = values
        for name, value in (("first", first), ("second", second)):
            if type(value) is not str or value not in CURRENCIES:
                return f"{name} must be one of {CURRENCIES}, not {value!r}"
        return f"an exchange office shows two different currencies in the order {CURRENCIES}, not {first!r}, {second!r}"

    @property
    def currencies(self) -> tuple[str, str]:
        """The two currencies shown, in :data:`alhambra.CURRENCIES` order."""
        return (self.first, self.second)

    @property
    def code(self) -> str:
        return f"office-{self.first}-{self.second}"

    def __str__(self) -> str:
        return f"exchange office {self.first}/{self.second}"


#: The six exchange offices, one per pair of currencies (R-EXC-1, COMPONENTS.md), made once.
OFFICES: tuple[ExchangeOffice, ...] = ExchangeOffice.make(combinations(CURRENCIES, 2))
OFFICES_BY_CODE: dict[str, ExchangeOffice] = {o.code: o for o in OFFICES}


@frozen(slots=True, cache_hash=True)
class TakeOffice(Action):
    """Take ``office`` from the money display instead of taking money; this is the whole
    action (R-EXC-3)."""

    office: ExchangeOffice = field(
        validator=field_check(lambda v: type(v) is ExchangeOffice, "R-EXC-3: TakeOffice takes an exchange office")
    )

    def __str__(self) -> str:
        return f"take {self.office.code}"


# ---------------------------------------------------------------------------------------------
# Rule set
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_cards(options: dict[str, Any]) -> list[Card]:
    """R-EXC-1: the six offices, so that saves can name them by code."""
    return list(OFFICES)


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_money_piles(game: Game, piles: list[list[Card]]) -> None:
    """R-EXC-1 (R-SET-6): the six offices, shuffled, two into each of piles 2, 3 and 4, each at
    a random depth."""
    operations.shuffle_cards_into(game, piles, OFFICES, [p for p in OFFICE_PILES for _ in range(OFFICES_PER_PILE)])


# ---------------------------------------------------------------------------------------------
# Taking an office (R-EXC-3)
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    """R-EXC-3: an office in the money display taken instead of money, the whole action."""
    return [display_take_kind(TakeOffice, made_cards(ExchangeOffice), "R-EXC-3: {code} is not in the money display")]


# ---------------------------------------------------------------------------------------------
# Paying with an office (R-EXC-4; spending and R-EXC-5 are done by the core purchase)
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_payment_means(game: Game, seat: int) -> list[PaymentMeans] | None:
    """R-EXC-4: each office in ``seat``'s hand lets a purchase be paid in its two currencies.
    The core applies a means only to spaces whose currency it shows, allows one ``via`` card
    per purchase, and spends it into the discard pile with the cards."""
    return means_in_hand(game.state.players[seat].hand, ExchangeOffice)  # equal offices once, in hand order


# ---------------------------------------------------------------------------------------------
# Declared: what the engine keeps track of
# ---------------------------------------------------------------------------------------------


#: R-EXC-1: the offices in the deck, resampled by determinization (every player knows how
#: many lie in the undrawn part of each of piles 2-4, which they are, but not which went
#: where; after a reshuffle of the discard pile, R-EXC-5, anywhere in the deck). Views show,
#: publicly, the offices each player holds (taken openly, R-EXC-3), those in the money display
#: (R-EXC-2) and in the discard pile (R-EXC-5), and how many are still in the deck; the
#: observation counts the offices each player holds (``held``) and those in the deck
#: (``in_deck``), the core's ``display`` and ``discard`` slices the others.
DECLARED = Declared(
    KEY,
    label="exchange offices",
    deck=DeckKind(ExchangeOffice, "exchange office", observed=True),
    view=("hands", "display", "discard", "in_deck"),
)
