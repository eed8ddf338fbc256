"""Built-in plugin ``core.turn``: taking money (R-TURN-1, R-TURN-2). Buying is ``core.purchase``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from itertools import combinations

import attrs
from operator import attrgetter

from ..engine.actions import ActionKind, TakeMoney, action_table
from ..engine.components import Card
from ..engine.ruleset import TAKE_LIMIT  # R-TURN-2's 5; a rule set's own total is rules.take_limit
from ..engine.sequence import ACTION_DONE
from ..errors import IllegalActionError
from ..hookspec import hookimpl

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable, Set
    from typing import Any
    from ..engine.actions import Action
    from ..engine.protocol import GameLike
    from ..engine.sequence import Next
    from collections.abc import Sequence

_VALUE = attrgetter("value")


def money_takes(display: Iterable[Any], limit: int = TAKE_LIMIT) -> list[TakeMoney]:
    """Every legal way to take money from ``display`` (R-TURN-2): any one money card, or
    several whose total value is at most ``limit`` (5; a rule set's ``rules.take_limit``). Money is every card with ``is_money`` (the money
    cards, and a module's money such as diamonds, R-DIA-3). Identical choices are listed once:
    the single cards in display order, then the combinations in display order."""
    money = [c for c in display if c.is_money]
    table = action_table(TakeMoney)
    out = [table[(c,),] for c in dict.fromkeys(money)]  # money cards are one instance each
    small = [c for c in money if c.value < limit]  # only these can go with another card
    if len(small) > 1:
        seen = set(out)
        for k in range(2, len(small) + 1):
            for combo in combinations(small, k):
                if sum(map(_VALUE, combo)) <= limit:
                    a = table[combo,]
                    if a not in seen:
                        seen.add(a)
                        out.append(a)
    return out


def _legal_take(game: GameLike, seat: int) -> Sequence[Action]:
    """The takes depend on the display alone: kept per game with the display they were made
    for (a list comparison). Not shared between games: two games almost never show the same
    display (about 1 in 80 in random play), and such a cache only filled memory."""
    display = game.state.display
    last: tuple[list[Card], Sequence[Action]] | None = game._memo.get("takes")
    if last is not None and last[0] == display:
        return last[1]
    found = money_takes(display, game.rules.take_limit)
    game._memo["takes"] = (list(display), found)
    return found


def _check_take(game: GameLike, seat: int, action: TakeMoney) -> None:
    display = list(game.state.display)
    for c in action.cards:
        if not isinstance(c, Card) or not c.is_money:
            raise IllegalActionError(f"R-TURN-2: only money cards are taken as money, not {c!r}")
        try:
            display.remove(c)
        except ValueError:
            raise IllegalActionError(f"R-TURN-2: {c} is not in the money display") from None
    if not action.cards:
        raise IllegalActionError("R-TURN-2: take at least one card")
    raise IllegalActionError(
        f"R-TURN-2: several cards may be taken only if their total is at most {game.rules.take_limit} "
        f"(these total {sum(c.value for c in action.cards)})"
    )


def _apply_take(game: GameLike, seat: int, action: TakeMoney) -> Next | None:
    st = game.state
    for c in action.cards:
        st.display.remove(c)
    st.players[seat].hand.extend(action.cards)
    return ACTION_DONE


@hookimpl
def alhambra_action_kinds() -> list[ActionKind]:
    return [
        ActionKind(TakeMoney, {"turn"}, _legal_take, _apply_take, _check_take),
    ]


def display_take_kind(action: type, cards: Set[Any], refusal: str, phases: Iterable[str] = ("turn",)) -> ActionKind:
    """The kind of a module's ``action`` taking one card of ``cards`` (every card of its kind,
    :func:`~alhambra.made_cards`) from the money display instead of money, as the whole
    action (an exchange office, R-EXC-3); ``action`` has one field, the card. Listed: one
    action per card of the kind in the display, each card once, in display order (kept with a
    copy of the display); any other refused with ``refusal`` (``{code}`` in it: the card's
    code, naming the rule); applied: the card goes from the display to the hand."""
    card_of = attrgetter(attrs.fields(action)[0].name)
    key = (action, "display")

    def legal(game: GameLike, seat: int) -> Sequence[Action]:
        display = game.state.display
        if cards.isdisjoint(display):  # the usual answer, found at C speed
            return []
        memo = game._memo
        last: tuple[list[Card], Sequence[Action]] | None = memo.get(key)  # kept with the display it was made for
        if last is not None and last[0] == display:
            return last[1]
        table: Any = action_table(action)
        found = [table[c,] for c in dict.fromkeys([c for c in display if c in cards])]  # equal cards once
        memo[key] = (list(display), found)
        return found

    def check(game: GameLike, seat: int, taken: Any) -> None:
        raise IllegalActionError(refusal.format(code=card_of(taken).code))

    def apply(game: GameLike, seat: int, taken: Any) -> Next | None:
        st = game.state
        card = card_of(taken)
        st.display.remove(card)
        st.players[seat].hand.append(card)
        return ACTION_DONE

    return ActionKind(action, frozenset(phases), legal, apply, check)
