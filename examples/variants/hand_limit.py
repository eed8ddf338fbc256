"""House rule: a player may hold at most ``hand_limit.cards`` money cards (default 10).

Hook ``alhambra_action_kind`` adjusts the built-in ``TakeMoney`` kind (R-TURN-2): a take
that would go over the limit is not listed, and playing it is refused with a sentence that
names the rule. A player who can buy no building may still take money (else a full hand that
fits no market space could never be changed, and the game would not end). Every card that is
money counts (the diamonds too), exchange offices and gate cards do not.
"""

from typing import Any

from alhambra import ActionKind, Game, Option, TakeMoney, hookimpl

NAME = "hand_limit"
DESCRIPTION = "House rule: at most N money cards in hand."
RULES = ("R-TURN-2",)


@hookimpl
def alhambra_options() -> list[Option]:
    return [Option("hand_limit.cards", 10, "the most money cards a hand may hold", rule="R-TURN-2")]


@hookimpl
def alhambra_action_kind(options: dict[str, Any], kind: ActionKind) -> ActionKind | None:
    limit = options["hand_limit.cards"]

    def over(game: Game, seat: int, action: Any) -> str | None:
        held = sum(c.is_money for c in game.state.players[seat].hand)
        if held + len(action.cards) <= limit or not game.rules.purchase.purchases(game, seat):
            return None
        return f"hand limit: holding {held} money cards, {action} would make more than {limit}"

    return kind.restricted(over) if kind.action is TakeMoney else None
