"""The money deck's setup piles (R-SET-6): shuffling a card into a pile, and (for
determinize) which pile a deck position was stacked in."""

from __future__ import annotations

import random
from typing import Any


def shuffle_into(rng: random.Random, pile: list[Any], card: Any) -> None:
    """Shuffle ``card`` into ``pile``: it lands at a uniformly random depth (one
    ``rng.randrange(len(pile) + 1)`` draw). For ``alhambra_money_piles`` implementations
    (scoring cards A and B, R-SET-6; exchange offices, R-EXC-1)."""
    pile.insert(rng.randrange(len(pile) + 1), card)
