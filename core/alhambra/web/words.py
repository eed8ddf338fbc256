"""The game in words: tiles, cards and actions as a person would say them, for the play
page's log and its buttons. Pure functions of public data (a tile's catalogue entry, the
market before an action); nothing here reads a hand other than the actor's own payment,
which is public once played (R-TURN-3: paid cards go face up to the discard pile)."""

from __future__ import annotations

from typing import Any

from ..components import MARKET_CURRENCIES, TileCatalog

#: a card code such as ``florin-7`` or ``office-florin-dinar`` -> words
_CURRENCY_WORDS = {"florin": "florin", "dirham": "dirham", "dinar": "dinar", "ducat": "ducat"}


def card_words(code: str) -> str:
    """``"florin-7"`` -> ``"florin 7"``; ``"office-florin-dinar"`` -> ``"exchange office
    florin/dinar"``; a scoring card ``"scoring-A"`` -> ``"scoring card A"``; anything else is
    returned as it is (a user module's card)."""
    parts = code.split("-")
    if len(parts) == 2 and parts[0] in _CURRENCY_WORDS:
        return f"{parts[0]} {parts[1]}"
    if len(parts) == 3 and parts[0] == "office":
        return f"exchange office {parts[1]}/{parts[2]}"
    if len(parts) == 2 and parts[0] == "scoring":
        return f"scoring card {parts[1]}"
    return code


def cards_words(codes: list[str] | tuple[str, ...]) -> str:
    """Several card codes in words, joined by ``+`` (``"nothing"`` for none)."""
    return " + ".join(card_words(c) for c in codes) if codes else "nothing"


def tile_words(catalog: TileCatalog, tile: Any) -> str:
    """A tile in words: ``"tower 7"`` (building type and price), ``"the fountain"``,
    ``"the purple building hut H22"``; ``"tile X"`` for an id the catalogue does not hold."""
    spec = catalog.get(tile)
    if spec is None:
        return f"tile {tile}"
    if spec.kind == "fountain":
        return "the fountain"
    if spec.kind == "building":
        return f"{spec.type} {spec.price}"
    return f"{spec.type} {spec.kind} {tile}"


def _code(card: Any) -> str:
    return str(getattr(card, "code", card))


def payment_words(cards: tuple, via: Any, price: int | None) -> str:
    """``"florin 3 + florin 4 (7, exact: another action)"``: a payment and what it earns
    (R-TURN-4: an exact payment earns another action)."""
    total = sum(getattr(c, "value", 0) for c in cards)
    text = cards_words([_code(c) for c in cards])
    if via is not None:
        text += f" via the {card_words(_code(via))}"
    if price is None:
        return text
    if total == price:
        return f"{text} ({total}, exact: another action)"
    return f"{text} ({total}, overpaying {total - price})"


def describe(game: Any, seat: int, action: Any) -> str:
    """One log line for ``action`` played by ``seat``, in words, from the game just BEFORE it
    is applied (the market and Alhambra still show the building bought or moved). Known
    actions of the base game and the four modules get sentences; any other action (a user
    module's) its own ``str``."""
    st = game.state
    cat = game.rules.catalog
    name = st.players[seat].name if 0 <= seat < len(st.players) else f"seat {seat}"
    kind = type(action).__name__
    market = st.market
    if kind in ("Buy", "UseVizier"):
        space = action.space
        tile = market[space - 1] if 1 <= space <= 4 else None
        price = cat[tile].price if tile is not None and tile in cat else None
        who = f"{name} used the vizier and bought" if kind == "UseVizier" else f"{name} bought"
        return (f"{who} the {tile_words(cat, tile)} from the {MARKET_CURRENCIES[space - 1]} space, paying "
                f"{payment_words(action.cards, action.via, price)}")
    if kind == "TakeMoney":
        return f"{name} took {cards_words([_code(c) for c in action.cards])}"
    if kind == "Place":
        return f"{name} built the {tile_words(cat, action.tile)} at {tuple(action.pos)}"
    if kind == "Reserve":
        return f"{name} put the {tile_words(cat, action.tile)} into the reserve"
    if kind == "BuildFromReserve":
        return f"{name} built the {tile_words(cat, action.tile)} from the reserve at {tuple(action.pos)}"
    if kind == "RemoveToReserve":
        here = st.players[seat].city.tiles.get(tuple(action.pos))
        return f"{name} moved the {tile_words(cat, here)} at {tuple(action.pos)} into the reserve"
    if kind == "Swap":
        here = st.players[seat].city.tiles.get(tuple(action.pos))
        return (f"{name} swapped the {tile_words(cat, action.tile)} from the reserve for the "
                f"{tile_words(cat, here)} at {tuple(action.pos)}")
    if kind == "GiveToDirk":
        return f"{name} gave the {tile_words(cat, action.tile)} to Dirk"
    if kind == "Pass":
        return f"{name} could do nothing and passed"
    if kind == "DeclineVizier":
        return f"{name} did not use the vizier"
    if kind == "ReactivateVizier":
        return f"{name} reactivated the vizier"
    if kind == "TakeHut":
        return f"{name} took the {tile_words(cat, action.hut)}"
    if kind == "RevealBonus":
        return f"{name} revealed the bonus card for the {tile_words(cat, action.building)}"
    if kind == "TakeOffice":
        return f"{name} took the {card_words(_code(action.office))}"
    return f"{name}: {action}"


def action_label(game: Any, seat: int, action: Any) -> str:
    """The short label of a legal action's button (the actor is the reader): a payment for
    purchases, the tile and cell for placements, the log sentence without the name
    otherwise."""
    kind = type(action).__name__
    cat = game.rules.catalog
    if kind in ("Buy", "UseVizier"):
        tile = game.state.market[action.space - 1]
        price = cat[tile].price if tile is not None else None
        return f"pay {payment_words(action.cards, action.via, price)}"
    if kind == "TakeMoney":
        return f"take {cards_words([_code(c) for c in action.cards])}"
    if kind in ("Place", "BuildFromReserve"):
        return f"build the {tile_words(cat, action.tile)} at {tuple(action.pos)}"
    if kind == "Swap":
        return f"swap in the {tile_words(cat, action.tile)} at {tuple(action.pos)}"
    if kind == "RemoveToReserve":
        return f"move the tile at {tuple(action.pos)} into the reserve"
    imperative = {
        "Reserve": lambda a: f"keep the {tile_words(cat, a.tile)} in the reserve",
        "GiveToDirk": lambda a: f"give the {tile_words(cat, a.tile)} to Dirk",
        "Pass": lambda a: "pass (nothing else is possible)",
        "DeclineVizier": lambda a: "decline the vizier",
        "ReactivateVizier": lambda a: "reactivate the vizier",
        "TakeHut": lambda a: f"take the {tile_words(cat, a.hut)}",
        "RevealBonus": lambda a: f"reveal the bonus card for the {tile_words(cat, a.building)}",
        "TakeOffice": lambda a: f"take the {card_words(_code(a.office))}",
    }.get(kind)
    if imperative is not None:
        return imperative(action)
    return str(action)
