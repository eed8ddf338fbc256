"""The game in words: tiles, cards and actions as a person would say them, for the play
page's log and its buttons. Pure functions of public data (a tile's catalogue entry, the
market before an action); nothing here reads a hand other than the actor's own payment,
which is public once played (R-TURN-3: paid cards go face up to the discard pile)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import MARKET_CURRENCIES, TileCatalog
from ..engine.components import known_card, tile_words

#: a card code such as ``florin-7`` or ``office-florin-dinar`` -> words
_CURRENCY_WORDS = {"florin": "florin", "dirham": "dirham", "dinar": "dinar", "ducat": "ducat"}


def catalog_of(game: Any) -> TileCatalog:
    """The tile catalogue of ``game`` (its types, prices and walls, module tiles included),
    as every Alhambra of the game holds it."""
    catalog: TileCatalog = game.state.players[0].city.catalog
    return catalog


def card_words(code: str) -> str:
    """``"florin-7"`` -> ``"florin 7"``; ``"office-florin-dinar"`` -> ``"exchange office
    florin/dinar"``; a scoring card ``"scoring-A"`` -> ``"scoring card A"``; a module's card
    its own ``str`` (``"diamond-5a"`` -> ``"diamond 5"``, ``"gate-1"`` -> ``"gate card 1"``);
    an unknown code is returned as it is."""
    parts = code.split("-")
    if len(parts) == 2 and parts[0] in _CURRENCY_WORDS:
        return f"{parts[0]} {parts[1]}"
    if len(parts) == 3 and parts[0] == "office":
        return f"exchange office {parts[1]}/{parts[2]}"
    if len(parts) == 2 and parts[0] == "scoring":
        return f"scoring card {parts[1]}"
    card = known_card(code)  # a module's card says its own name ("diamond 5", "gate card 1")
    return str(card) if card is not None else code


def cards_words(codes: list[str] | tuple[str, ...]) -> str:
    """Several card codes in words, joined by ``+`` (``"nothing"`` for none)."""
    return " + ".join(card_words(c) for c in codes) if codes else "nothing"


def _code(card: Any) -> str:
    return str(getattr(card, "code", card))


def payment_words(cards: tuple[Any, ...], via: Any, price: int | None, *, bonus: bool = True) -> str:
    """``"florin 3 + florin 4 (7, exact: another action)"``: a payment and what it earns
    (R-TURN-4: an exact payment earns another action). ``bonus=False``: a payment that earns
    none, whose exactness is only named (a vizier purchase between turns, R-VIZ-2)."""
    total = sum(getattr(c, "value", 0) for c in cards)
    text = cards_words([_code(c) for c in cards])
    if via is not None:
        text += f" via the {card_words(_code(via))}"
    if price is None:
        return text
    if total == price:
        return f"{text} ({total}, exact{': another action' if bonus else ''})"
    return f"{text} ({total}, overpaying {total - price})"


def market_prices(game: Any) -> list[int | None]:
    """The price of each market space now (None: empty), as the game's rules set it (the
    printed price, R-COMP-2, unless a rule's ``alhambra_building_price`` changes it): the
    prices ``game.view`` shows."""
    return [m["price"] for m in game.view(None)["market"]]


def _purchase_like(action: Any) -> bool:
    """A module's purchase (diamonds' ``BuyWithDiamonds``, R-DIA-4): an action with a market
    ``space``, the ``cards`` paid and a ``via`` (the card spent besides, or None), said like a
    ``Buy``."""
    return (
        type(getattr(action, "space", None)) is int
        and isinstance(getattr(action, "cards", None), tuple)
        and hasattr(action, "via")
    )


def _phrases(game: Any, seat: int, action: Any, prices: Sequence[int | None] | None) -> tuple[str, str] | None:
    """``(what was done, what to do)`` for ``action`` of ``seat``: the log's words after the
    player's name (past tense) and the button's (imperative), from the game just BEFORE the
    action; None for an action of a user module (its ``str`` then serves). ``prices``: the
    market's (:func:`market_prices`, worked out when None and needed)."""
    st = game.state
    cat = catalog_of(game)
    kind = type(action).__name__
    said: tuple[str, str] | None = game.rules.hook.alhambra_action_words(game=game, seat=seat, action=action)
    if said is not None:  # a plugin's own action, in its own words
        return said
    if kind in ("Buy", "UseVizier") or _purchase_like(action):
        space = action.space
        tile = st.market[space - 1] if type(space) is int and 1 <= space <= 4 else None
        if prices is None:
            prices = market_prices(game)
        price = prices[space - 1] if tile is not None else None
        paid = payment_words(action.cards, action.via, price, bonus=kind != "UseVizier")
        bought = "used the vizier and bought" if kind == "UseVizier" else "bought"
        where = MARKET_CURRENCIES[space - 1] if tile is not None else "an empty"
        return f"{bought} the {tile_words(cat, tile)} from the {where} space, paying {paid}", f"pay {paid}"
    tile = tile_words(cat, getattr(action, "tile", None))
    pos = tuple(getattr(action, "pos", ()))
    if kind in ("RemoveToReserve", "Swap"):
        here = tile_words(cat, st.players[seat].city.tiles.get(pos))
        if kind == "Swap":
            return (f"swapped the {tile} from the reserve for the {here} at {pos}", f"swap in the {tile} at {pos}")
        return f"moved the {here} at {pos} into the reserve", f"move the {here} at {pos} into the reserve"
    cards = cards_words([_code(c) for c in getattr(action, "cards", ())])
    both: dict[str, tuple[str, str]] = {
        "TakeMoney": (f"took {cards}", f"take {cards}"),
        "Place": (f"built the {tile} at {pos}", f"build the {tile} at {pos}"),
        "BuildFromReserve": (f"built the {tile} from the reserve at {pos}", f"build the {tile} at {pos}"),
        "Reserve": (f"put the {tile} into the reserve", f"keep the {tile} in the reserve"),
        "GiveToDirk": (f"gave the {tile} to Dirk", f"give the {tile} to Dirk"),
        "Pass": ("could do nothing and passed", "pass (nothing else is possible)"),
        "DeclineVizier": ("did not use the vizier", "decline the vizier"),
        "ReactivateVizier": ("reactivated the vizier", "reactivate the vizier"),
    }
    if kind in both:
        return both[kind]
    if kind == "TakeHut":
        hut = tile_words(cat, action.hut)
        return f"took the {hut}", f"take the {hut}"
    if kind == "RevealBonus":
        card = f"the bonus card for the {tile_words(cat, action.building)}"
        return f"revealed {card}", f"reveal {card}"
    if kind == "TakeOffice":
        office = card_words(_code(action.office))
        return f"took the {office}", f"take the {office}"
    return None


#: Action kinds left out of the log every seat reads: a declined vizier offer must look to the
#: others the same as a seat that could not pay exactly and so was not asked (R-VIZ-5).
UNLOGGED = frozenset({"DeclineVizier"})


def logged(action: Any) -> bool:
    """Whether ``action`` gets a line in the shared log (False for :data:`UNLOGGED` kinds, R-VIZ-5)."""
    return type(action).__name__ not in UNLOGGED


def describe(game: Any, seat: int, action: Any) -> str:
    """One log line for ``action`` played by ``seat``, in words, from the game just BEFORE it
    is applied (the market and Alhambra still show the building bought or moved): ``"Ana
    bought the tower 7 from the dinar space, paying dinar 3 + dinar 4 (7, exact: another
    action)"``. Actions of the base game and the four modules get sentences; any other (a
    user module's) its own ``str``."""
    players = game.state.players
    name = players[seat].name if 0 <= seat < len(players) else f"seat {seat}"
    found = _phrases(game, seat, action, None)
    return f"{name} {found[0]}" if found is not None else f"{name}: {action}"


def action_label(game: Any, seat: int, action: Any, prices: Sequence[int | None] | None = None) -> str:
    """The label of a legal action's button, addressed to the seat deciding: ``"pay dinar 3 +
    dinar 4 (7, exact: another action)"``, ``"build the tower 7 at (1, 0)"``; a user
    module's action its own ``str``. ``prices``: the market's, when the caller has them."""
    found = _phrases(game, seat, action, prices)
    return found[1] if found is not None else str(action)


def distribution_words(game: Any, market: Sequence[Any], bought: int | None) -> list[str]:
    """What the end of the game does with the buildings left on the market (R-END-2), one
    sentence per space, from the ``market`` before the last action (``bought``: the space
    that action bought from, None if none) and the hands after it: ``"Distribution (R-END-2):
    the tower 9 of the florin space goes to Ana, who holds the most florins (12; Bo 7)"``, or
    leaves the game on a tie for most. Exchange offices and other module cards are no money
    here (R-EXC-6)."""
    players = game.state.players
    cat = catalog_of(game)
    out = []
    for i, tile in enumerate(market):
        if tile is None or i + 1 == bought or i >= len(MARKET_CURRENCIES):
            continue
        cur = MARKET_CURRENCIES[i]
        totals = [
            sum(c.value for c in p.hand if getattr(c, "currency", None) == cur and type(c).__name__ == "MoneyCard")
            for p in players
        ]
        best = max(totals)
        holders = [k for k, t in enumerate(totals) if t == best]
        others = "; ".join(f"{players[k].name} {t}" for k, t in enumerate(totals) if k not in holders)
        what = f"the {tile_words(cat, tile)} of the {cur} space"
        if len(holders) == 1:
            text = f"{what} goes to {players[holders[0]].name}, who holds the most {cur}s ({best}"
            out.append(f"Distribution (R-END-2): {text}{'; ' + others if others else ''})")
        else:
            names = " and ".join(players[k].name for k in holders)
            out.append(
                f"Distribution (R-END-2): {what} leaves the game: {names} tie for the most {cur}s ({best} each"
                f"{'; ' + others if others else ''})"
            )
    return out
