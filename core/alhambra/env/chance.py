"""Explicit chance for the OpenSpiel game: every draw from a hidden pile as a chance event
with its true outcome distribution.

An engine action that draws (the end of a turn refills the market from the bag and the
money display from the deck, R-TURN-8; a scoring card drawn is followed by another draw,
R-SCORE-1; Dirk takes buildings from the bag after scorings 1 and 2, R-TWO-3; taking a
building hut turns the next hut of its stack up, R-HUT-2) is played with the hidden piles
*watched*: each pile is replaced, for the length of the action, by an equal list whose
``pop()`` asks a :class:`Script` which item to draw. The script either names it (an outcome
chosen before: the item is first moved to the drawn position, a swap within the hidden part
that keeps the setup piles of R-SET-6 intact, and then drawn) or, when it has no more
outcomes, stops the action with :class:`Chance`, which carries the distribution of this
draw. So :func:`next_draw` plays the action on a clone to find the next draw the action
makes given the outcomes fixed so far (how many draws an action makes can depend on what
is drawn) and, once every outcome is fixed, gives the clone that has played it
(:func:`play_scripted` plays it so on the game itself). The engine's own hidden order
never decides what is drawn.

The distribution follows the public-knowledge model :meth:`alhambra.Game.determinize`
samples from (its default ``recall=True``: every hand is kept, each card in it arrived
openly, R-SET-3):

* the bag (R-SET-1): each building left in it equally likely;
* the money deck: the drawn position lies in the undrawn part ``R`` of its setup pile
  (:func:`alhambra.operations.pile_range`; after a reshuffle of the discard pile the
  whole deck, R-TURN-8). Scoring cards and declared module cards
  (:class:`alhambra.DeckCards`: the exchange offices, R-EXC-1) lie uniformly within
  their pile's range: a group with ``k`` cards in ``R`` is drawn with probability
  ``k / |R|`` (deck cards nobody resamples keep their position and are not counted in
  ``|R|``), and which card of a group, uniformly over the group's cards in the whole
  deck; money takes the rest, each money card in the deck equally likely (R-SET-6);
* a module's :class:`alhambra.HiddenPile` (the building huts' stacks, R-HUT-1): each
  hidden item equally likely.

A draw with a single possible outcome (the last building in the bag, a position no card
can be moved to) is no chance event: it is recorded in the script without asking.
"""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Callable
from typing import Any, SupportsIndex

from alhambra import (
    Action,
    AlhambraError,
    Card,
    ConfigError,
    DeckCards,
    Game,
    HiddenPile,
    IllegalActionError,
    MoneyCard,
    ScoringCard,
    card_locations,
    operations,
)

__all__ = ["BAG", "DECK", "Chance", "ChanceTable", "Script", "Unavailable", "declared", "next_draw", "play_scripted"]

#: The source names of the core's hidden piles (a module pile's source is its ``name``).
BAG = "bag"
DECK = "deck"

_MONEY = "money"
_FIXED = "fixed"


class Chance(BaseException):
    """Raised inside an action played by :func:`next_draw` at a draw the script has no
    outcome for: ``source`` (``"bag"``, ``"deck"`` or a :class:`~alhambra.HiddenPile`'s
    name), ``outcomes`` (``[(item, probability), ...]``, at least two, probabilities
    summing to 1), ``script`` (the outcomes fixed so far, the forced ones included).

    A :class:`BaseException`, as :class:`GeneratorExit` is: a plugin's ``except Exception``
    around a draw must not swallow it (the action would go on without the draw)."""

    def __init__(self, source: str, outcomes: list[tuple[Any, float]], script: list[tuple[str, Any]]) -> None:
        super().__init__(source)
        self.source = source
        self.outcomes = outcomes
        self.script = script


class Unavailable(AlhambraError):
    """A scripted outcome cannot be drawn here (no such item where the draw may take it
    from): raised when a state is resampled under fixed outcomes that it does not allow."""


# id(rules) -> (rules, piles by name, deck card groups): asked once per rule set
_DECLARED: dict[int, tuple[Any, dict[str, HiddenPile], list[DeckCards]]] = {}


def declared(game: Game) -> tuple[dict[str, HiddenPile], list[DeckCards]]:
    """The plugins' :class:`~alhambra.HiddenPile` objects by name and their
    :class:`~alhambra.DeckCards` of ``game``'s rule set (hook ``alhambra_hidden_piles``,
    asked once per rule set: the piles' ``get`` and ``put`` take the game)."""
    rules = game.rules
    found = _DECLARED.get(id(rules))
    if found is None or found[0] is not rules:
        piles: dict[str, HiddenPile] = {}
        groups: list[DeckCards] = []
        for item in operations.hidden_piles(game):
            if isinstance(item, HiddenPile):
                piles[item.name] = item
            else:
                groups.append(item)
        found = _DECLARED[id(rules)] = (rules, piles, groups)
    return found[1], found[2]


class _Watched(list[Any]):
    """A hidden pile's list for the length of one action: ``pop()`` of its top is a draw
    decided by the script."""

    __slots__ = ("script", "source")
    script: Script | None
    source: str

    def pop(self, index: SupportsIndex = -1) -> Any:
        script = self.script
        if script is None:
            return list.pop(self, index)
        if operator.index(index) not in (-1, len(self) - 1):
            # the engine's hidden order would decide this draw, which no one may know
            raise ConfigError(
                f"{self.source} was drawn from at position {index!r}: a hidden pile is drawn only from "
                "its top, with pop() (HiddenPile, alhambra_hidden_piles)"
            )
        return script.drawn(self, self.source)


class Script:
    """The outcomes of one action's draws, in the order they happen: ``outcomes``, a list
    of ``(source, item)``. ``complete``: at a draw beyond them, record a forced one or
    raise :class:`Chance` (``False``: raise :class:`Unavailable`, the action was fixed
    already)."""

    def __init__(self, game: Game, outcomes: list[tuple[str, Any]], complete: bool = True) -> None:
        self.game = game
        self.outcomes = list(outcomes)
        self.used = 0
        self.complete = complete
        self.piles, self.groups = declared(game)

    # -- watching ---------------------------------------------------------------------------

    def _watch(self, items: list[Any], source: str) -> _Watched:
        w = _Watched(items)
        w.script, w.source = self, source
        return w

    def install(self) -> None:
        """Replace the game's hidden piles by watched lists (equal, so nothing else changes).
        Raises :class:`ConfigError` (with plain lists back in place) if a declared pile's
        ``get`` does not return a list, or the list of another pile (the bag, the deck and the
        discard pile included), or its ``put`` does not put the list given where ``get``
        finds it (its draws would go unwatched)."""
        st, g = self.game.state, self.game
        found = [(name, pile, pile.get(g)) for name, pile in self.piles.items()]
        owner = {id(st.bag): BAG, id(st.deck): DECK, id(st.discard): "discard"}
        for name, _, items in found:  # checked before anything is replaced
            if not isinstance(items, list):
                raise ConfigError(f"hidden pile {name!r}: get(game) must return the live list, not {items!r}")
            other = owner.setdefault(id(items), name)
            if other != name:
                raise ConfigError(f"hidden piles overlap: {name!r} is the same list as {other!r}")
        st.bag = self._watch(st.bag, BAG)
        st.deck = self._watch(st.deck, DECK)
        st.discard = self._watch(st.discard, DECK)  # it becomes the deck at a reshuffle (R-TURN-8)
        for name, pile, items in found:
            watched = self._watch(items, name)
            pile.put(g, watched)
            if pile.get(g) is not watched:
                self.uninstall()
                if pile.get(g) is not items:  # put back what was there
                    pile.put(g, items)
                raise ConfigError(f"hidden pile {name!r}: put(game, items) must put items where get(game) finds them")

    def uninstall(self) -> None:
        """Put plain lists back (after the action; a reshuffle may have moved a list)."""
        st, g = self.game.state, self.game
        for attr in ("bag", "deck", "discard"):
            found = getattr(st, attr)
            if type(found) is _Watched:
                found.script = None
                setattr(st, attr, list(found))
        for pile in self.piles.values():
            found = pile.get(g)
            if type(found) is _Watched:
                found.script = None
                pile.put(g, list(found))

    def _live(self, items: _Watched, source: str) -> bool:
        st = self.game.state
        if source == BAG:
            return items is st.bag
        if source == DECK:
            return items is st.deck
        return items is self.piles[source].get(self.game)

    # -- drawing ----------------------------------------------------------------------------

    def drawn(self, items: _Watched, source: str) -> Any:
        """The draw of ``pop()`` on watched ``items``: arrange the outcome on top, draw it."""
        if not self._live(items, source):
            return list.pop(items)
        pile = self.piles.get(source)
        if pile is not None and pile.face_up:
            taken = list.pop(items)  # the face-up top is taken; the next one turns up
            if items:
                self._decide(items, source)
            return taken
        self._decide(items, source)
        return list.pop(items)

    def _decide(self, items: _Watched, source: str) -> None:
        if self.used < len(self.outcomes):
            want_source, item = self.outcomes[self.used]
            if want_source != source:
                raise Unavailable(f"the action drew from {source}, not from {want_source} as scripted")
            self.used += 1
            self._arrange(items, source, item)
            return
        if not self.complete:
            raise Unavailable(f"the action draws from {source} beyond its fixed outcomes")
        dist = self.distribution(items, source)
        if len(dist) > 1:
            raise Chance(source, dist, list(self.outcomes))
        self.outcomes.append((source, dist[0][0]))
        self.used += 1
        self._arrange(items, source, dist[0][0])

    def distribution(self, items: list[Any], source: str) -> list[tuple[Any, float]]:
        """``[(item, probability), ...]`` of the next draw from ``items`` (the pile ``source``;
        the last item is the drawn position): see the module docstring."""
        if source != DECK:
            counts = Counter(items)
            n = len(items)
            return [(x, c / n) for x, c in counts.items()]
        return self._deck_distribution()

    def _kind(self, card: Any) -> Any:
        """A deck card's group: money, a scoring card (its own group), a declared group's
        index, or fixed."""
        t = type(card)
        if t is MoneyCard or card.is_money:  # a module's money is shuffled with it (R-DIA-2)
            return _MONEY
        if t is ScoringCard:
            return card
        for k, group in enumerate(self.groups):
            if group.which(card):
                return k
        return _FIXED

    def _deck_range(self) -> tuple[list[Any], int, list[int], list[Any]]:
        deck = self.game.state.deck
        top = len(deck) - 1
        r = operations.pile_range(self.game, top)
        kinds = [self._kind(deck[j]) for j in r]
        slots = [j for j, k in zip(r, kinds) if k is not _FIXED]
        return deck, top, slots, [k for k in kinds if k is not _FIXED]

    def _deck_distribution(self) -> list[tuple[Any, float]]:
        deck, top, slots, kinds = self._deck_range()
        if top not in slots:
            return [(deck[top], 1.0)]  # a card nobody moves: known
        a = len(slots)
        per_group = Counter(k for k in kinds if k is not _MONEY)
        members: dict[Any, Counter[Any]] = {}
        for card in deck:
            members.setdefault(self._kind(card), Counter())[card] += 1
        out: list[tuple[Any, float]] = []
        money_share = 1.0 - sum(per_group.values()) / a
        for kind, share in [(k, n / a) for k, n in per_group.items()] + [(_MONEY, money_share)]:
            if share <= 0:
                continue
            cards = members[kind]
            total = sum(cards.values())
            out.extend((card, share * c / total) for card, c in cards.items())
        return out

    def _arrange(self, items: list[Any], source: str, item: Any) -> None:
        """Move ``item`` to the drawn position (the end of ``items``) by swaps within the
        hidden part; in the deck, never out of a card's setup pile (R-SET-6). Raises
        :class:`Unavailable` if ``item`` cannot be drawn here."""
        top = len(items) - 1
        if items[top] == item:
            return
        if source != DECK:
            try:
                j = items.index(item)
            except ValueError:
                raise Unavailable(f"{item!r} is not in {source}") from None
            items[top], items[j] = items[j], items[top]
            return
        deck, _, slots, _ = self._deck_range()
        want = self._kind(item)
        if want is _FIXED or top not in slots:
            raise Unavailable(f"{item!r} cannot be drawn from the deck here")
        if self._kind(deck[top]) != want:  # first a card of the item's group to the top, within the pile
            k = next((j for j in slots if j != top and self._kind(deck[j]) == want), None)
            if k is None:
                raise Unavailable(f"no {item!r} can lie on top of the deck")
            deck[top], deck[k] = deck[k], deck[top]
        if deck[top] != item:  # then the item itself: a group's cards are exchangeable over the deck
            try:
                j = deck.index(item)
            except ValueError:
                raise Unavailable(f"{item!r} is not in the deck") from None
            deck[top], deck[j] = deck[j], deck[top]


def next_draw(game: Game, action: Action, outcomes: list[tuple[str, Any]]) -> Chance | Game:
    """The next chance event of ``action`` (legal in ``game``) given the ``outcomes`` fixed
    so far: the :class:`Chance` of the first draw beyond them, or, if there is none, a clone
    of ``game`` that has played the action with every draw so decided (the one to go on
    with; :func:`play_scripted` plays the same on ``game`` itself). ``game`` is not changed.
    Raises :class:`Unavailable` if the outcomes do not fit this game."""
    g = game.clone()
    script = Script(g, outcomes)
    script.install()
    try:
        g.apply(action)
    except Chance as c:
        return c
    script.uninstall()
    return g


def play_scripted(game: Game, play: Callable[[], Any], outcomes: list[tuple[str, Any]]) -> None:
    """Call ``play()`` (which applies one action to ``game``) with every draw decided by
    ``outcomes`` (the ``script`` of the last :class:`Chance` and the outcome chosen for it, or
    ``[]``); a draw beyond them must have a single possible outcome. Raises
    :class:`Unavailable` if they do not fit."""
    script = Script(game, outcomes, complete=False)
    script.install()
    try:
        play()
    finally:
        script.uninstall()


class ChanceTable:
    """The fixed chance outcome ids of one rule set: every tile of the catalogue (the bag's
    buildings, the huts), then every distinct card of the game (money by currency and value,
    scoring cards, module cards) by code, then any other item of a module's hidden pile.
    ``size`` is OpenSpiel's ``max_chance_outcomes``."""

    def __init__(self, template: Game) -> None:
        items: list[Any] = list(template.rules.catalog)
        cards = {c for where in card_locations(template._python()).values() for c in where if isinstance(c, Card)}
        items.extend(sorted(cards, key=lambda c: c.code))
        seen = set(items)
        for found in operations.hidden_piles(template):
            if isinstance(found, HiddenPile):
                for x in found.get(template):
                    if x not in seen:
                        seen.add(x)
                        items.append(x)
        self.items = items
        self.ids: dict[Any, int] = {x: i for i, x in enumerate(items)}
        self.size = len(items)
        self.catalog = template.rules.catalog

    def id_of(self, item: Any) -> int:
        """The outcome id of ``item``. Raises :class:`AlhambraError` for an item the rule set
        does not have."""
        found = self.ids.get(item)
        if found is None:
            raise AlhambraError(f"{item!r} is no chance outcome of this rule set")
        return found

    def describe(self, source: str | None, i: int) -> str:
        """``"bag draws: garden 8 (2 walls), tile 17"``, ``"deck draws: florin-7"``,
        ``"building huts: garden stack turns up: hut H3"``. Raises
        :class:`~alhambra.IllegalActionError` unless ``0 <= i < size``."""
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.size:
            raise IllegalActionError(f"{i!r} is not a chance outcome id 0..{self.size - 1}")
        item = self.items[i]
        spec = self.catalog.get(item) if not isinstance(item, Card) else None
        if spec is not None:
            what = f"{spec.type} {spec.price} ({bin(spec.walls).count('1')} walls), tile {item}"
            if spec.kind != "building":
                what = f"{spec.kind} {item} ({spec.type}, {bin(spec.walls).count('1')} walls)"
        else:
            what = getattr(item, "code", None) or str(item)
        if source is None:
            return f"draws: {what}"
        verb = "draws" if source in (BAG, DECK) else "turns up"
        return f"{source} {verb}: {what}"
