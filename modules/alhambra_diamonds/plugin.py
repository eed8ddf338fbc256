"""Module "diamonds" (Die Diamanten) of Die Tore der Stadt (R-DIA-1 … R-DIA-7).

Diamond cards are money of a fifth currency (R-DIA-1). They are shuffled into the money
cards before the starting money is dealt (R-DIA-2), so they lie in starting hands, the
display and the five piles like any money; they are taken like money, alone or with other
cards up to a total of 5 (R-DIA-3: the core takes every card with ``is_money``). A building
on any market space may be bought with diamonds alone (R-DIA-4): the :class:`BuyWithDiamonds`
action, overpaying allowed, an exact total earning another action; never mixed with another
currency nor with an exchange office (R-DIA-5). At the end they count for no currency
(R-DIA-7: the core's distribution counts money cards only) and score nothing.

Every diamond is its own card (``diamond-5a``, ``diamond-5b``: the printed deck has two
cards of some values), so saves and accounting find each exactly once. The module keeps no
state: a diamond is always in the deck, the display, a hand or the discard pile.

The money's purchases are the core's :class:`~alhambra.AnySpaceMoney` (:data:`MONEY`), which
the module declares with its card class, its action and its refusals: the kind of
:class:`BuyWithDiamonds`, the turn's ``Buy`` refusing diamonds (``alhambra_action_kind``), and
the purchase rule (``alhambra_purchase_rule``) adding the exact payments in diamonds, as ``Buy``
actions, to the exact purchases the vizier lists (R-DIA-6, ruling), accepting a payment all in
diamonds on any space, and counting them in the asking round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import field, frozen

from alhambra import (
    Action,
    AnySpaceMoney,
    Buy,
    PurchaseRule,
    ActionKind,
    ConfigError,
    Declared,
    DeckKind,
    InternedCard,
    Option,
    canonical_cards,
    card_names,
    field_check,
    hookimpl,
    interned,
)

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable

    from alhambra import Card, Game

KEY = "diamonds"  # the memo and view key of this module (its NAME)
VALUES_OPTION = "diamonds.values"
#: R-DIA-1 (ruling): the ten values all sources name, of the eleven printed cards.
DEFAULT_VALUES: tuple[int, ...] = (3, 4, 5, 5, 6, 6, 7, 7, 8, 9)
CURRENCY = "diamond"

_DIAMONDS: dict[tuple[int, int], Diamond] = {}  # (value, copy) -> the one card
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@frozen(slots=True, eq=False, init=False)
class Diamond(InternedCard):
    """A diamond card of ``value`` 1-9; ``copy`` (1, 2, …) tells apart cards of the same
    value. ``code``: ``"diamond-5a"``, ``"diamond-5b"``. One instance per (value, copy), so
    comparing cards compares identities. Money (``is_money``, R-DIA-3) of the currency
    ``"diamond"`` (R-DIA-1). Raises :class:`~alhambra.ConfigError` for a value that is not an
    int 1-9 or a copy that is not an int 1-26."""

    value: int
    copy: int

    is_money = True
    #: ``"diamond"``: the fifth currency (R-DIA-1).
    currency = CURRENCY

    def __new__(cls, value: int, copy: int = 1) -> Diamond:
        found = _DIAMONDS.get((value, copy)) if type(value) is int and type(copy) is int else None
        if found is not None:
            return found
        if type(value) is not int or not 1 <= value <= 9:
            raise ConfigError(f"R-DIA-1: a diamond's value is an int 1-9, not {value!r}")
        if type(copy) is not int or not 1 <= copy <= len(_LETTERS):
            raise ConfigError(f"R-DIA-1: a diamond's copy is an int 1-{len(_LETTERS)}, not {copy!r}")
        card = _DIAMONDS[value, copy] = interned(cls, value=value, copy=copy)
        return card

    @property
    def code(self) -> str:
        return f"diamond-{self.value}{_LETTERS[self.copy - 1]}"

    def __str__(self) -> str:
        return f"diamond {self.value}"


def diamonds_for(values: Iterable[int]) -> list[Diamond]:
    """The diamond cards of a deck with ``values`` (R-DIA-1), copies numbered per value in
    order: ``diamonds_for([5, 5])`` is ``[diamond-5a, diamond-5b]``."""
    seen: dict[int, int] = {}
    out = []
    for v in values:
        seen[v] = seen.get(v, 0) + 1
        out.append(Diamond(v, seen[v]))
    return out


def _check_values(value: Any) -> str | None:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        return f"a list of diamond values 1-9 (R-DIA-1), not {value!r}"
    if not 1 <= len(value) <= 20:
        return f"between 1 and 20 diamond values, not {len(value)}"
    for v in value:
        if type(v) is not int or not 1 <= v <= 9:
            return f"diamond values are ints 1-9 (R-DIA-1), not {v!r}"
    return None


def _values(options: dict[str, Any]) -> tuple[int, ...]:
    return tuple(options.get(VALUES_OPTION) or DEFAULT_VALUES)


@frozen(slots=True, cache_hash=True)
class BuyWithDiamonds(Action):
    """Buy the building on market ``space`` (1-4), paying ``cards``: diamonds only (R-DIA-4),
    on any space. An exact total earns another action (R-TURN-4); overpaying is allowed."""

    space: int = field(
        validator=field_check(lambda v: type(v) is int and 1 <= v <= 4, "R-COMP-4: market spaces are numbered 1-4")
    )
    cards: tuple[Diamond, ...] = field(converter=canonical_cards)

    @property
    def via(self) -> None:
        """No card is spent besides the diamonds (never an exchange office, R-DIA-5)."""
        return None

    def __str__(self) -> str:
        return f"buy space {self.space} with {card_names(self.cards)}"


# ---------------------------------------------------------------------------------------------
# Rule set and setup
# ---------------------------------------------------------------------------------------------


@hookimpl
def alhambra_options() -> list[Option]:
    return [
        Option(
            VALUES_OPTION,
            DEFAULT_VALUES,
            "the values of the diamond cards (default: the ten values the sources name)",
            rule="R-DIA-1",
            check=_check_values,
        )
    ]


@hookimpl
def alhambra_cards(options: dict[str, Any]) -> list[Card]:
    """R-DIA-1: the diamond cards, so that saves can name them by code."""
    return list(diamonds_for(_values(options)))


@hookimpl
def alhambra_money_deck(game: Game, cards: list[Card]) -> None:
    """R-DIA-2: the diamonds join the money cards before they are shuffled and the starting
    money dealt (R-TWO-1 removes none: each diamond is a card of its own)."""
    cards.extend(diamonds_for(_values(game.rules.options)))


# ---------------------------------------------------------------------------------------------
# Buying with diamonds (R-DIA-4 … R-DIA-6; taking them is the core's R-TURN-2)
# ---------------------------------------------------------------------------------------------

#: R-DIA-4: diamonds pay for any market space, all diamonds, overpaying allowed (an exact total
#: earns another action), never mixed with another currency nor with an exchange office (R-DIA-5).
MONEY = AnySpaceMoney(
    Diamond,
    BuyWithDiamonds,
    none="R-DIA-4: a purchase in diamonds needs at least one diamond",
    other="R-DIA-4: a payment in diamonds is all diamonds, never mixed: {card!r}",
    mixed="R-DIA-4: one payment is either all diamonds (BuyWithDiamonds) or in the space's currency, "
    "never a mix: {own} with {others}",
    via="R-DIA-5: an exchange office cannot be played together with diamonds",
    by_action="R-DIA-4: a building is bought with diamonds by BuyWithDiamonds({space}, ...) "
    "(all diamonds, on any market space), not by Buy",
)


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [MONEY.kind({"turn"})]


@hookimpl
def alhambra_action_kind(options: dict[str, Any], kind: ActionKind) -> ActionKind | None:
    """R-DIA-4, R-DIA-5: the turn's ``Buy`` refuses diamonds before its own check (the turn
    buys with diamonds by :class:`BuyWithDiamonds`); its listing never holds one."""
    return kind.checked(MONEY.buy_refusal) if kind.action is Buy else None


@hookimpl
def alhambra_purchase_rule(options: dict[str, Any], rule: PurchaseRule) -> PurchaseRule:
    """R-DIA-6: the vizier may pay exactly in diamonds (see :meth:`alhambra.AnySpaceMoney.rule`)."""
    return MONEY.rule(rule)


# ---------------------------------------------------------------------------------------------
# Declared: what the engine keeps track of
# ---------------------------------------------------------------------------------------------

#: Views show the diamonds in the money display and the discard pile, and the seat's own (a
#: hand is secret, R-SET-3); being money, the core redeals them when determinizing (R-DIA-2).
DECLARED = Declared(
    KEY, label="diamonds", deck=DeckKind(Diamond, "diamond", resample=False), view=("display", "discard", "hand")
)
