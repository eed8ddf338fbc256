"""Payments as a small pure function (R-TURN-3, R-TURN-4)."""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterable, Sequence

from .components import MoneyCard
from ..errors import ConfigError


def _by_value_desc(card: MoneyCard) -> tuple[int, str]:
    return -card.value, card.currency


def minimal_payments(cards: Iterable[MoneyCard], price: int, *, exact: bool = False) -> list[tuple[MoneyCard, ...]]:
    """Every non-dominated payment of ``price`` from ``cards`` (a hand, copies allowed).

    A payment is non-dominated when its total covers the price and no card can be dropped
    while still covering it (total minus its smallest card < price). Identical cards are
    interchangeable, so each multiset is listed once, as a tuple sorted by value descending.
    With ``exact``, only payments whose total equals the price (R-TURN-4: they earn another
    action). Returns ``[]`` when the cards cannot cover the price. Raises
    :class:`ConfigError` for anything but money cards, or a price that is not an int >= 0.
    """
    if type(price) is not int or price < 0:
        raise ConfigError(f"price must be an int >= 0, not {price!r}")
    counts: dict[MoneyCard, int] = {}
    total = 0
    for c in cards:
        if type(c) is not MoneyCard:
            raise ConfigError(f"only money cards can pay, not {c!r}")
        counts[c] = counts.get(c, 0) + 1
        total += c.value
    if total < price:
        return []
    kinds = sorted(counts, key=_by_value_desc)
    out: list[tuple[MoneyCard, ...]] = []
    _extend(kinds, [counts[k] for k in kinds], price, exact, [], 0, 0, out)
    return out


def _extend(
    kinds: list[MoneyCard],
    avail: list[int],
    price: int,
    exact: bool,
    chosen: list[MoneyCard],
    start: int,
    total: int,
    out: list[tuple[MoneyCard, ...]],
) -> None:
    """Append to ``out`` every non-dominated payment that extends ``chosen`` (worth
    ``total`` < ``price``) with cards of ``kinds[start:]`` (``avail`` of each left), in
    order of value descending. A function of its own rather than a recursive closure: a
    closure that calls itself is a reference cycle, left for the garbage collector on
    every call."""
    for j in range(start, len(kinds)):
        if not avail[j]:
            continue
        card = kinds[j]
        new = total + card.value
        chosen.append(card)
        if new >= price:  # this card is the smallest so far, and total < price before it
            if not exact or new == price:
                out.append(tuple(chosen))
        else:
            avail[j] -= 1
            _extend(kinds, avail, price, exact, chosen, j, new, out)
            avail[j] += 1
        chosen.pop()


def value_payments(cards: Sequence[Any], price: int, *, exact: bool = False) -> list[tuple[Any, ...]]:
    """Every non-dominated payment of ``price`` from ``cards``, cards of a module's own money
    told apart by more than their ``value`` (the diamonds' copies, R-DIA-4): sets whose total
    covers the price and from which no card can be left out; only those of total ``price``
    with ``exact``. Cards of equal value are interchangeable: each multiset of values is listed
    once, with the first cards of each value in ``cards``' order, the payments in order of
    increasing total, then of their values (a payment's cards by increasing value)."""
    ordered = sorted(cards, key=lambda c: c.value)
    found: dict[tuple[int, ...], tuple[Any, ...]] = {}
    for k in range(1, len(ordered) + 1):
        for combo in combinations(ordered, k):
            values = tuple([c.value for c in combo])
            if values not in found:
                total = sum(values)
                # covers the price, but not without its smallest card (nor above it with ``exact``)
                if price <= total < price + values[0] and (total == price or not exact):
                    found[values] = combo
    return [found[v] for v in sorted(found, key=lambda v: (sum(v), v))]
