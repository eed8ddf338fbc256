"""The core's ``CardFamily`` (a fixed family of interned cards told apart by their fields,
R-EXC-1's offices and R-GATE-1's gate cards are two) and ``means_in_hand`` (cards in hand as
payment means, R-EXC-4), each tried on a card kind of a test's own."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from attrs import frozen

from alhambra import CardFamily, ConfigError, MoneyCard, NumberedCard, PaymentMeans, made_cards, means_in_hand


@frozen(slots=True, eq=False, init=False)
class Ticket(CardFamily):
    """A test's card: a ticket for a ``colour`` and a ``row``, paying in the ``currencies``."""

    colour: str
    row: int

    @classmethod
    def refusal(cls, *values: Any) -> str:
        return f"R-TICKET-1: no ticket {values!r}"

    @property
    def code(self) -> str:
        return f"ticket-{self.colour}-{self.row}"

    @property
    def currencies(self) -> tuple[str, ...]:
        return ("florin", "ducat") if self.colour == "red" else ("dinar",)


TICKETS = Ticket.make([("red", 1), ("red", 2), ("blue", 1)])


@frozen(slots=True, eq=False, init=False)
class Token(NumberedCard):
    PREFIX, NOUN, REFUSAL = "token", "token", "R-TOKEN-1: tokens are numbered 2 and 5, not {number!r}"
    number: int


TOKENS = Token.make([2, 5])


def test_card_family_one_card_per_values_in_the_order_made():
    assert [(t.colour, t.row) for t in TICKETS] == [("red", 1), ("red", 2), ("blue", 1)]
    red = Ticket("red", 1)
    assert red is TICKETS[0] and Ticket(colour="red", row=1) is red and Ticket("red", row=1) is red
    assert Ticket.find("blue", 1) is TICKETS[2] and Ticket.find("blue", 2) is None
    assert set(TICKETS) <= made_cards(Ticket)
    assert copy.deepcopy(red) is red and pickle.loads(pickle.dumps(red)) is red
    assert [t.number for t in TOKENS] == [2, 5] and Token(5) is TOKENS[1] and Token(number=2) is TOKENS[0]
    assert Token.numbered(5) is TOKENS[1] and Token.numbered(-1) == -1 and str(Token(2)) == "token 2"


def test_a_numbered_family_declares_its_numbers_for_state_fields():
    """The declared checks compare a field's numbers with the family's numbers, not its keys."""
    assert Token.numbers() == (2, 5)
    assert Token.declared_numbers()["among"] == (2, 5) and Token.declared_number()["among"] == (0, 2, 5)
    assert Token.declared_numbers()["to_position"]([5, 2]) == ["token-5", "token-2"]
    assert Token.declared_numbers()["locate"]([2]) == [TOKENS[0]]


@pytest.mark.parametrize(
    "values",
    [("red", 3), ("green", 1), ("red", True), ("red", 1.0), (type("Str", (str,), {})("red"), 1)],
)
def test_card_family_refuses_other_values_and_look_alikes(values):
    assert ("red", True) == ("red", 1) and ("red", 1.0) == ("red", 1)  # the look-alikes
    with pytest.raises(ConfigError, match=r"^R-TICKET-1: no ticket \("):
        Ticket(*values)
    assert Ticket.find(*values) is None


def test_card_family_refuses_look_alike_numbers_and_wrong_fields():
    for number in (True, 2.0, 3, "2"):
        with pytest.raises(ConfigError, match=f"^R-TOKEN-1: tokens are numbered 2 and 5, not {number!r}$"):
            Token(number)
        assert Token.numbered(number) is number
    for args, kwargs in (((), {}), (("red",), {}), (("red", 1, 2), {}), (("red",), {"rows": 1}), ((), {"row": 1})):
        with pytest.raises(TypeError, match="Ticket takes its fields colour, row"):
            Ticket(*args, **kwargs)


def test_means_in_hand_each_card_of_the_class_once_in_hand_order_shared():
    red1, red2, blue = TICKETS
    hand = [MoneyCard("florin", 3), blue, red1, blue, Token(2)]
    found = means_in_hand(hand, Ticket)
    assert found == [PaymentMeans(blue, frozenset({"dinar"})), PaymentMeans(red1, frozenset({"florin", "ducat"}))]
    assert found is not None and means_in_hand([red1, blue], Ticket)[1] is found[0]
    assert means_in_hand([MoneyCard("florin", 3), Token(5)], Ticket) is None
    assert means_in_hand([], Ticket) is None
