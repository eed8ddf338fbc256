"""The exchange offices' part of the environments' observation tensor (``alhambra.env``,
docs/env.md): ``exchange_offices.held`` (the offices each player holds, public: they are taken
openly, R-EXC-3; counts per card, in observer-relative order) and ``exchange_offices.in_deck``
(how many are left in the deck, not where). The offices in the display and the discard pile
are counted by the core's ``display`` and ``discard`` slices.

Also the offices to the other tools: a take's encoding (R-EXC-3), the offices held
openly on the table picture."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from alhambra import Game, ObservationLayout, ObservationPart, TablePart, hookimpl
from alhambra.env import ActionEncoding, Field
from alhambra.env.codec import means_cards

from .plugin import KEY, ExchangeOffice, TakeOffice

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

#: what a seat sees: the codes of the offices in each hand (by seat), the offices in the deck
Seen = tuple[tuple[tuple[str, ...], ...], int]


def snapshot(game: Game, seat: int, layout: ObservationLayout, cache: dict[Any, Any]) -> Seen:
    """The offices in each hand and how many are in the deck, from the state; a hand's
    offices are picked out again only when the hand changed, the deck's counted again only
    when the deck changed (``cache``: copies of the hands and the deck, what they hold)."""
    st = game.state
    hands = cache.get("hands")
    if hands is None:
        hands = cache["hands"] = [None] * len(st.players)
        cache["held"] = [()] * len(st.players)
    held = cache["held"]
    for p, player in enumerate(st.players):
        hand = player.hand
        if hands[p] != hand:
            hands[p] = hand.copy()
            held[p] = tuple([c.code for c in hand if type(c) is ExchangeOffice])
    # recounted whenever the deck differs from the copy counted (compared whole: a reshuffle
    # of the discard pile, R-TURN-8, brings played offices back, R-EXC-5, and can leave the
    # deck as long as it was)
    deck = st.deck
    if cache.get("deck") != deck:
        cache["deck"] = deck.copy()
        cache["in_deck"] = sum([type(c) is ExchangeOffice for c in deck])
    return tuple(held), cache["in_deck"]


def write(out: dict[str, np.ndarray], seen: Seen, order: Sequence[int], layout: ObservationLayout) -> None:
    held, in_deck = seen
    ci = layout.card_index
    for k, s in enumerate(order):
        for code in held[s]:
            out["held"][k, ci[code]] += 1
    out["in_deck"][0] = in_deck


def encode(
    out: dict[str, np.ndarray], part: Any, view: dict[str, Any], order: Sequence[int], layout: ObservationLayout
) -> None:
    """The reference: the same slices from the view's entry."""
    write(out, (tuple(map(tuple, part["hands"])), part["in_deck"]), order, layout)


@hookimpl
def alhambra_observation_parts(game: Game, layout: ObservationLayout) -> list[ObservationPart]:
    """``exchange_offices.held`` (players x the layout's cards) and ``exchange_offices.in_deck``."""
    shapes = {"held": (layout.num_players, len(layout.cards)), "in_deck": (1,)}
    return [ObservationPart(KEY, shapes, encode, snapshot, write)]


@hookimpl
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding]:
    """A take by its office."""
    return [ActionEncoding(TakeOffice, (Field(("office",), [(c,) for c in means_cards(game)]),))]


@hookimpl
def alhambra_table_part(view: dict[str, Any], seat: int | None) -> TablePart | None:
    """The offices each seat holds, openly (R-EXC-3)."""
    part = view.get("modules", {}).get(KEY)
    return None if part is None else TablePart("offices", cards=tuple(map(tuple, part.get("hands", ()))))
