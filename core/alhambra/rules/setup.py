"""Built-in plugin ``core.setup``: setup of the base game (R-SET-1 … R-SET-7) and its options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..engine.components import BUILDINGS, SCORING_A, SCORING_B, money_deck
from ..engine.piles import shuffle_into
from ..hookspec import hookimpl
from ..engine.options import Option

if TYPE_CHECKING:  # pragma: no cover
    import random
    from collections.abc import Sequence
    from typing import Any
    from ..engine.components import Card
    from ..engine.protocol import GameLike

STARTING_MONEY = 20  # R-SET-3
DISPLAY_SIZE = 4  # R-SET-5
PILES = 5  # R-SET-6


@hookimpl
def alhambra_options() -> list[Option]:
    return [
        Option(
            "holes",
            "cell",
            "what counts as a hole: one enclosed cell, or any enclosed empty region",
            choices=("cell", "region"),
            rule="R-PLACE-6",
        ),
        Option(
            "start_player",
            "seat",
            "last tie-break for the start player: lowest seat, or at random",
            choices=("seat", "random"),
            rule="R-SET-4",
        ),
    ]


def choose_start_player(hands: Sequence[Sequence[Any]], tie: str = "seat", rng: random.Random | None = None) -> int:
    """The start player (R-SET-4): fewest starting cards; then lowest total value; then the
    lowest seat (``tie="seat"``) or a random one of those still tied (``tie="random"``).

    ``hands``: per seat, the list of money cards dealt."""
    keys = [(len(h), sum(c.value for c in h)) for h in hands]
    best = min(keys)
    tied = [s for s, k in enumerate(keys) if k == best]
    if tie == "random" and len(tied) > 1 and rng is not None:
        return rng.choice(tied)
    return tied[0]


def split_piles(cards: list[Any], piles: int = PILES) -> list[list[Any]]:
    """Split ``cards`` (in drawing order) into ``piles`` piles as equal as possible, pile 1
    first; sizes differ by at most one, the first piles taking the extra cards (R-SET-6)."""
    q, r = divmod(len(cards), piles)
    out, i = [], 0
    for k in range(piles):
        n = q + (1 if k < r else 0)
        out.append(cards[i : i + n])
        i += n
    return out


@hookimpl(tryfirst=True)
def alhambra_setup(game: GameLike) -> None:
    """R-SET-1 … R-SET-7 for the base game."""
    st, rng = game.state, game._rng
    # R-SET-1: all buildings in the bag; draw 4 onto spaces 1-4 in order
    bag = [b.id for b in BUILDINGS]
    rng.shuffle(bag)
    st.bag = bag
    st.market = [bag.pop() for _ in range(4)]
    # R-SET-2: scoring cards aside; shuffle the money cards (R-TWO-1 via alhambra_money_deck)
    cards: list[Card] = [*money_deck()]
    game.rules.hook.alhambra_money_deck(game=game, cards=cards)
    rng.shuffle(cards)
    st.deck = cards  # top card last
    # R-SET-3: starting money, one card at a time until the total is 20 or more (every card
    # that is money counts: a module's diamonds too, R-DIA-2)
    for p in st.players:
        while sum([c.value for c in p.hand if c.is_money]) < STARTING_MONEY:  # type: ignore[attr-defined]  # money has a value
            p.hand.append(st.deck.pop())
    # R-SET-4: start player
    st.start_player = choose_start_player([p.hand for p in st.players], game.rules.options["start_player"], rng)
    # R-SET-5: the money display
    st.display = [st.deck.pop() for _ in range(DISPLAY_SIZE)]
    # R-SET-6: five piles, scoring cards (and module cards) shuffled in, pile 1 on top
    piles = split_piles(list(reversed(st.deck)))
    game.rules.hook.alhambra_money_piles(game=game, piles=piles)
    st.deck = [c for pile in piles for c in pile][::-1]
    # what every player knows afterwards is only which pile each scoring card (and module
    # card) went into: record the piles' sizes for Game.pile_range / Game.determinize
    st.pile_sizes = [len(pile) for pile in piles]
    # R-SET-7: play runs in seat order from the start player (the engine starts that turn)


@hookimpl(tryfirst=True)
def alhambra_money_piles(game: GameLike, piles: list[list[Card]]) -> None:
    """R-SET-6: scoring card A into pile 2, B into pile 4."""
    shuffle_into(game._rng, piles[1], SCORING_A)
    shuffle_into(game._rng, piles[3], SCORING_B)
