"""Hook specifications: every point where a plugin can take part in a game of Alhambra.

The base rules themselves are plugins (``alhambra.rules.*``) registered through these hooks,
so a variant can block a built-in plugin and register its own in its place, exactly as an
expansion module adds to the game. A plugin is any object (usually a Python module) whose
functions are decorated with :data:`alhambra.hookimpl` and named like the specs below.

Hooks are called at game-stage granularity, never inside the engine's inner loops:

* *Rule-set hooks* (``alhambra_options``, ``alhambra_tiles``, ``alhambra_cards``,
  ``alhambra_state_classes``, ``alhambra_phases``, ``alhambra_action_kinds``,
  ``alhambra_building_price``, ``alhambra_take_limit``) are called **once per rule set**, when
  the modules and options of a game are resolved; their answers are cached and shared by every
  game played with that rule set.
* *Game hooks* receive the :class:`~alhambra.game.Game` and are called at most a few times per
  turn (setup, end of turn, scoring, end of game).
* *Tool hooks* (``alhambra_action_encodings``, ``alhambra_evaluation_part``,
  ``alhambra_table_part``, ``alhambra_tile_values``) are never called by the engine: the
  environments, the greedy evaluator and the pictures ask them what a plugin's own actions,
  state and view part mean to them, so those tools name no plugin.
* Listing and applying actions goes through the :class:`~alhambra.actions.ActionKind` objects
  collected once per rule set, so it costs no hook call per action.

**How hooks are called: four kinds, one mechanism each.** Every hook is of exactly one kind;
the engine calls it only as its kind says, and nothing else calls a hook's implementations.

* *collected* (the default; pluggy's own call, ``game.hook.<name>(...)``): every
  implementation is called (``tryfirst`` ones first, then the last registered first, then
  ``trylast`` ones) and the results are collected in a list, ``None`` results dropped.
  Wrappers (``hookwrapper``/``wrapper``) work as pluggy defines them.
* *firstresult* (pluggy's ``@hookspec(firstresult=True)``, ``game.hook.<name>(...)``): called
  in the same order until one returns something other than ``None``, which is the answer.
* *chained* (the hooks of :data:`CHAINED`, rule-set hooks called once per rule set by
  ``alhambra.engine.ruleset.chained``): the implementations are called in **registration
  order** (``trylast`` ones first, then built-ins, modules and house rules in the order they
  were registered, ``tryfirst`` ones last); each receives, in the argument :data:`CHAINED`
  names, the value the ones before it left (the built-in start value for the first) and
  returns the new value or ``None`` to keep it. A value of the wrong kind, or an exception
  raised inside an implementation, is a :class:`~alhambra.errors.ConfigError` naming the
  plugin; a wrapper is refused.
* *direct* (the per-turn hooks of :data:`DIRECT`, ``game.rules.fast.<name>(...)``, asked
  only when ``game.rules.has_<name without alhambra_>`` is true): the same call as *collected*
  or *firstresult* (the spec says which), with the same order and arguments, but the
  implementations are looked up once per rule set and called as plain functions
  (``alhambra.engine.ruleset.direct_caller``), which saves pluggy's bookkeeping on the
  engine's hot path. With a wrapper among the implementations pluggy's own call is used.

``alhambra_action_kinds`` is collected with each answer kept beside the plugin that gave it
(``alhambra.engine.ruleset.action_kinds``, so that two plugins offering a kind for one action
can be named), in pluggy's order; the engine also reads which plugins implement a hook (to
name the plugin behind an error, or to know whether a hook is implemented at all), never
calling them outside the four kinds above.

**Order: a house rule sees the built-in result it changes.** The built-in plugins implement
the hooks that adjust a value in place (``alhambra_money_deck``, ``alhambra_building_counts``,
``alhambra_scoring_adjust``, ``alhambra_view``) with ``tryfirst``, so a house rule's plain
``@hookimpl`` runs after them (and before the modules, registered earlier; a house rule that
must see the modules' part too uses ``trylast``). The *chained* rule-set hooks are called in
registration order: built-ins, modules, house rules, each given what the ones before it made.
The *firstresult* hooks the base game answers (``alhambra_scoring``,
``alhambra_distribution``, ``alhambra_winners``) are the built-ins' ``trylast``: any plugin's
answer comes first and replaces them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pluggy

from .engine.markers import PROJECT as PROJECT, hookimpl as hookimpl  # re-exported: the marker plugins use

if TYPE_CHECKING:  # pragma: no cover
    from .engine.actions import ActionKind, PaymentMeans
    from .engine.plugin_parts import EvaluationPart, TablePart
    from .engine.city import Alhambra
    from .engine.components import Card, TileSpec
    from .engine.encoding import ActionEncoding
    from .engine.observation_parts import ObservationLayout, ObservationPart
    from .engine.protocol import GameLike as Game
    from .engine.options import Option
    from .engine.piles import DeckCards, HiddenPile
    from .engine.sequence import Interrupt, PhaseSpec
    from .engine.state import ScoringRecord
    from .engine.city import PlacementRulesLike as PlacementRules
    from .engine.protocol import PurchaseRuleLike as PurchaseRule

hookspec = pluggy.HookspecMarker(PROJECT)

#: The *chained* hooks (see above), each with the argument that carries the value from one
#: implementation to the next.
CHAINED: dict[str, str] = {
    "alhambra_action_kind": "kind",
    "alhambra_building_price": "price",
    "alhambra_take_limit": "limit",
    "alhambra_purchase_rule": "rule",
    "alhambra_placement_rules": "rules",
}
#: The *direct* hooks (see above): called every turn, through ``game.rules.fast``.
DIRECT: tuple[str, ...] = (
    "alhambra_turn_start",
    "alhambra_payment_means",
    "alhambra_placement_filter",
    "alhambra_city_changed",
    "alhambra_between_turns",
    "alhambra_card_drawn",
    "alhambra_game_ends",
)


# ---------------------------------------------------------------------------------------------
# Rule set (called once per combination of modules and options)
# ---------------------------------------------------------------------------------------------


@hookspec
def alhambra_options() -> list[Option]:
    """Declare the configuration options this plugin understands.

    Called once per rule set, before any other hook, to validate the ``options`` a game is
    created with. Return a list of :class:`~alhambra.options.Option`. Module options are named
    ``"<module>.<option>"``; base rules use bare names (``holes``, ``tiebreak``).
    """


@hookspec
def alhambra_tiles(options: dict[str, Any]) -> list[TileSpec]:
    """Add tiles that can stand in an Alhambra besides the fountain and the 54 buildings.

    Called once per rule set with the resolved options. Return
    :class:`~alhambra.components.TileSpec` values (e.g. the huts of the building-huts module,
    R-HUT-1). Their walls take part in placement and wall scoring like any tile.
    """


@hookspec
def alhambra_cards(options: dict[str, Any]) -> list[Card]:
    """Add card kinds that can lie in the money deck, display, hands and discard.

    Called once per rule set. Return one instance of each distinct card (e.g. the six exchange
    offices, R-EXC-1); saved games name cards by their ``code``.
    """


@hookspec
def alhambra_state_classes() -> dict[str, type]:
    """Name the attrs classes of this plugin's own game state, for saving and loading.

    Called once per rule set. Return ``{key: cls}``; the plugin keeps an instance of ``cls`` in
    ``game.state.modules[key]`` (created in :func:`alhambra_setup`). It is cloned, saved and
    loaded with the game, so it must be an attrs class that cattrs can (un)structure, with a
    ``clone()`` method returning an independent copy.
    """


@hookspec
def alhambra_phases() -> list[PhaseSpec]:
    """Declare this plugin's own phases (a module's interrupt, such as the vizier's asking
    round), as :class:`~alhambra.PhaseSpec` values.

    Called once per rule set. The engine's phases (``turn``, ``place``, ``distribution``,
    ``over``) are always declared; a phase declared twice, or an action kind or interrupt
    naming an undeclared phase, is a :class:`~alhambra.errors.ConfigError`. A phase that
    starts a placement (an action returning ``PlaceTiles(seat, tiles, then=name)``) says in
    ``after_placement`` what follows once it is complete.
    """


@hookspec
def alhambra_action_kinds() -> list[ActionKind]:
    """Contribute action kinds: the decisions players can make (extra actions).

    Called once per rule set. Each :class:`~alhambra.actions.ActionKind` names its action class,
    the phases it belongs to, a function listing its legal actions for the player to act and a
    function applying one. A plugin's kind for an action class replaces the built-in kind
    for it (``core.purchase``'s ``Buy``, say). Two plugins that are not built-in providing a
    kind for the same class are a :class:`~alhambra.errors.ConfigError` naming both, unless
    one declares that it replaces the other with ``ActionKind(..., replaces=("other",))``
    (plugin names: a module's ``NAME``, a house rule's ``NAME`` or class name); the kind
    that no other replaces is played, whatever the registration order.
    """


@hookspec
def alhambra_action_kind(options: dict[str, Any], kind: ActionKind) -> ActionKind | None:
    """Adjust an action kind that is played (a built-in's or a module's), e.g. fewer legal
    ``TakeMoney`` actions under a hand limit.

    Called **once per rule set** for every action kind of :func:`alhambra_action_kinds` that
    is played, chained in registration order like :func:`alhambra_purchase_rule` (built-ins
    first, house rules last): ``kind`` is the kind as the implementations before this one
    left it. Return a new :class:`~alhambra.ActionKind` (usually
    ``kind.restricted(refuse)``, whose refusals name the rule, or ``attrs.evolve(kind, ...)``)
    or ``None`` to keep it. Check ``kind.action`` (``alhambra.TakeMoney``, …) to pick the kinds
    to change. Anything but an ``ActionKind`` is a :class:`~alhambra.errors.ConfigError`.
    """


@hookspec
def alhambra_building_price(options: dict[str, Any], space: int, tile: Any, price: int) -> int | None:
    """Change the price of a building on a market space (purchase payment, R-TURN-3).

    Called **once per rule set**, for every tile of the catalogue on every market ``space``
    (1-4), never during play: the answers are folded into the rule set's price tables
    (``game.rules.space_prices``), which every reader of a price uses: listing and checking
    purchases, exact payment (R-TURN-4), the vizier's exact purchases and asking round
    (R-VIZ-2), payments through exchange offices (R-EXC-4), ``game.view()``'s market
    ``price`` and the bots. So the price may depend on the options, the space and the tile,
    not on the course of the game. ``tile`` is the id of a building of the market (1-54 and a
    module's buildings, ``TileSpec.kind == "building"``), never the fountain or a building hut
    (they keep their printed price 0). ``price`` is the printed price (R-COMP-2) as the
    implementations called before this one left it.

    *Chained* in registration order like :func:`alhambra_purchase_rule` (built-ins, modules,
    house rules); return the new price (an int from 0 to ``alhambra.engine.ruleset.MAX_PRICE``, 100: more
    than a variant needs, since one currency's cards add up to 135; else a
    :class:`~alhambra.errors.ConfigError`), or ``None`` to keep ``price``. An exception raised
    inside an implementation becomes a ConfigError naming the plugin, tile and space. Two market
    taxes of 1 make every building 2 dearer. Without any implementation the tables are the
    printed prices and the hook costs nothing. Example: ``examples/market_tax.py``.
    """


@hookspec
def alhambra_take_limit(options: dict[str, Any], limit: int) -> int | None:
    """Change the most several money cards taken at once may total (R-TURN-2: 5).

    Called **once per rule set**, chained in registration order like
    :func:`alhambra_purchase_rule` (built-ins, modules, house rules): ``limit`` is the total as
    the implementations before this one left it; return the new total (an int from 0 to
    ``alhambra.engine.ruleset.MAX_TAKE_LIMIT``, 100; else a :class:`~alhambra.errors.ConfigError`)
    or ``None`` to keep it. One card of any value may always be taken. The result is
    ``game.rules.take_limit``, which every reader of the rule uses: the built-in ``TakeMoney``
    kind (its listing and its refusals), the environments' action space (``alhambra.env``)
    and the web page's hints. A house rule allowing takes up to 6 returns 6. A plugin that
    replaces the ``TakeMoney`` kind itself should answer this hook too, so that the tools say
    what its takes allow.
    """


@hookspec
def alhambra_purchase_rule(options: dict[str, Any], rule: PurchaseRule | None) -> PurchaseRule | None:
    """Adjust or replace the purchase rule (R-TURN-3, R-TURN-4, R-VIZ-2, R-EXC-4).

    Called **once per rule set**. The implementations are *chained in registration order*
    (the built-in ``core.purchase`` first, then the modules, then house rules): each receives
    as ``rule`` the :class:`~alhambra.PurchaseRule` the ones before it left and returns the
    rule to use from then on (usually an instance of a subclass; it may wrap ``rule``), or
    ``None`` to keep it. So a house rule always sees the built-in rule it changes. The result
    is ``game.rules.purchase``, which every caller asks: the ``Buy`` kind, the purchase
    methods of :class:`~alhambra.Game`, the vizier, ``view()``, the bots and the environments.
    Anything but a ``PurchaseRule`` is a :class:`~alhambra.errors.ConfigError`.
    """


@hookspec
def alhambra_placement_rules(options: dict[str, Any], rules: PlacementRules) -> PlacementRules | None:
    """Adjust or replace the placement rules (R-PLACE-1 … R-PLACE-6, R-TURN-5, R-TURN-6).

    Called **once per rule set**, chained in registration order like
    :func:`alhambra_purchase_rule`: ``rules`` is the :class:`~alhambra.PlacementRules` the
    implementations before this one left (the built-in rules, with ``holes`` from the
    options, first); return the rules to use (``attrs.evolve(rules, walls_match=False)``, a
    subclass overriding :meth:`~alhambra.PlacementRules.side_open`, …) or ``None`` to keep
    them. Every player's Alhambra of the game judges building, removal and swapping with the
    result, and so do legal listing, checks, loading and the bots. Anything but a
    ``PlacementRules`` is a :class:`~alhambra.errors.ConfigError`.
    """


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------


@hookspec
def alhambra_money_deck(game: Game, cards: list[Card]) -> None:
    """Adjust the list of money cards before it is shuffled (money-deck setup).

    Called once at setup with the 108 money cards (R-COMP-3); mutate ``cards`` in place (the
    two-player rule removes one copy of each card, R-TWO-1).
    """


@hookspec
def alhambra_setup(game: Game) -> None:
    """Set up the game: bag, market, starting money, money display, deck, start player.

    Called once when the game is created, after ``game.state`` holds the players' empty
    Alhambras. The base setup plugin (``core.setup``) runs first (``tryfirst``); modules then
    create their state in ``game.state.modules`` and deal their components.
    """


@hookspec
def alhambra_money_piles(game: Game, piles: list[list[Card]]) -> None:
    """Shuffle cards into the five piles of the money deck (R-SET-6).

    Called by the base setup after the rest of the deck is split into five piles (pile 1 at
    index 0, which ends on top). Mutate the piles in place: the base plugin shuffles scoring
    card A into pile 2 and B into pile 4; exchange offices go into piles 2-4 (R-EXC-1).
    Shuffle with ``operations.rng(game)`` only.
    """


# ---------------------------------------------------------------------------------------------
# Turn
# ---------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def alhambra_card_drawn(game: Game, card: Card) -> bool | None:
    """A card was drawn from the money deck to refill the money display (R-TURN-8).

    Called once per card drawn for the display, after scoring cards have been set aside
    (R-SCORE-1, those never reach this hook). *firstresult*: return ``True`` when this plugin
    has taken ``card`` somewhere else (the gate space of the city gates, R-GATE-3): it does
    not enter the display, and another card is drawn in its place. Return ``None`` to let it
    enter the display. Never called when no plugin implements it (the base game's draws cost
    nothing more).
    """


@hookspec
def alhambra_turn_start(game: Game, seat: int) -> None:
    """A player's turn begins (after any between-turn interrupts). Return value ignored."""


@hookspec
def alhambra_payment_means(game: Game, seat: int) -> list[PaymentMeans]:
    """Offer extra ways to pay for a building (purchase payment).

    Called when purchases are listed or checked for ``seat``; the answer must depend on that
    seat's hand only (means are cards in hand) and is reused while the hand is unchanged. A
    means is a card that is not money, so a hand of money cards alone has none: the engine
    does not call this hook then, and a money card offered as a means is a
    :class:`~alhambra.errors.ConfigError` (raised the first time the hook is asked). The
    base rule (pay in the space's currency, R-TURN-3) is always available and need not be
    returned. Return a list of
    :class:`~alhambra.actions.PaymentMeans`: a card in hand that is spent with the payment and
    the currencies it lets the player pay with, e.g. an exchange office (R-EXC-4); ``None``
    (or an empty list) when the seat holds none.
    """


@hookspec
def alhambra_placement_filter(game: Game, seat: int, tile: int | str, positions: list[tuple[int, int]]) -> None:
    """Restrict where ``seat`` may build ``tile`` (placement checks).

    Called once per listing of a tile's legal positions (not per cell), after the placement
    rules R-PLACE-1 … R-PLACE-6 have produced ``positions``; remove entries in place to forbid
    them. The same filter is applied when a placement action is checked.
    """


@hookspec
def alhambra_city_changed(game: Game, seat: int) -> None:
    """``seat``'s Alhambra changed (a tile built, removed or swapped). Return value ignored.

    Lets a module react to a building leaving the Alhambra (bonus cards, R-BON-4).
    """


@hookspec(firstresult=True)
def alhambra_between_turns(game: Game, finished: int) -> Interrupt | None:
    """Interrupt play between two turns (the vizier, R-VIZ-2).

    Called after ``finished``'s turn is completely done (placements, refills, scorings), and
    again whenever an action of the interrupt returns :data:`~alhambra.RESUME` (a declined
    vizier) or the placement it started is over. *firstresult*: return an
    :class:`~alhambra.Interrupt` (the seat that decides now and a phase this plugin declared
    with :func:`alhambra_phases`; the engine sets both), or ``None`` to let the next player's
    turn begin. Never called during the end-of-game distribution.
    """


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def alhambra_scoring(game: Game, number: int) -> ScoringRecord | None:
    """Compute scoring ``number`` (1, 2 or 3) and return its :class:`~alhambra.state.ScoringRecord`.

    *firstresult*: the base plugin ``core.scoring`` (``trylast``) counts majorities and walls
    (R-SCORE-2 … R-SCORE-5), calling :func:`alhambra_building_counts` and
    :func:`alhambra_scoring_adjust`. The engine adds the record's totals to the scores.
    """


@hookspec
def alhambra_building_counts(game: Game, number: int, counts: dict[int, dict[str, int]]) -> None:
    """Adjust the building counts of a scoring before majorities are decided.

    ``counts`` maps participant -> building type -> count, seats first; mutate it in place. A
    plugin may add a participant that is not a seat (Dirk, R-TWO-4, is ``game.num_players``).
    Huts (R-HUT-5) and bonus cards (R-BON-3) add to a player's counts here.
    """


@hookspec
def alhambra_scoring_adjust(game: Game, record: ScoringRecord) -> None:
    """Adjust a scoring's points after majorities and walls (scoring adjustments).

    ``record`` is mutable: add a named column with ``record.add_points(name, points_per_participant)``.
    """


@hookspec
def alhambra_after_scoring(game: Game, number: int) -> None:
    """Scoring ``number`` has been added to the scores (Dirk draws buildings here, R-TWO-3)."""


# ---------------------------------------------------------------------------------------------
# End of game
# ---------------------------------------------------------------------------------------------


@hookspec(firstresult=True)
def alhambra_game_ends(game: Game, finished: int) -> bool | None:
    """End the game early: a house rule's own end (the first to 60 points, the second scoring).

    Called after ``finished``'s turn is completely done (placements, the market and the money
    display refilled, the scorings drawn run and added to the scores), before the between-turns
    moment (the vizier's asking round, R-VIZ-2) and the next turn; not called when the game
    ends anyway (the bag cannot refill the market, R-END-1). *firstresult*: return ``True``
    to end the game now as R-END-1 ends it: the buildings left on the market are handed out
    (R-END-2, :func:`alhambra_distribution`), their recipients place them, then the final
    scoring (R-END-3) and the winners (R-END-4, :func:`alhambra_winners`). ``None`` lets play go on (the next implementation
    answers; ``False`` answers for all). Without an implementation the engine makes no call.
    """


@hookspec(firstresult=True)
def alhambra_distribution(game: Game) -> list[tuple[int, list[int | str]]] | None:
    """Hand out the buildings left on the market at the end (R-END-2).

    *firstresult*: return ``[(seat, [tile, ...]), ...]`` in the order the recipients place
    them; the implementation takes the tiles off the market (leftovers go to
    ``game.state.out_of_play``).
    """


@hookspec(firstresult=True)
def alhambra_winners(game: Game) -> tuple[int, ...] | None:
    """Decide the winners of a finished game (R-END-4). *firstresult*."""


@hookspec
def alhambra_game_over(game: Game) -> None:
    """The game has ended and the final scoring is done. Return value ignored."""


# ---------------------------------------------------------------------------------------------
# Views and bookkeeping
# ---------------------------------------------------------------------------------------------


@hookspec
def alhambra_view(game: Game, seat: int | None, view: dict[str, Any]) -> None:
    """Add this plugin's public (and ``seat``'s private) information to a view.

    ``view`` is the plain-data dict built by ``Game.view(seat)``; ``seat`` is None for the
    spectator view. Add under ``view["modules"][key]``. Never reveal another seat's secrets.

    A place of the table that pictures and pages should show beside the building market
    (the gate space of the city gates, R-GATE-3) is appended to
    ``view.setdefault("beside_market", [])`` as ``{"name": str, "cards": [card codes],
    "tiles": [tile ids], "rule": rule id}`` (``tiles`` and ``rule`` optional): the SVG table
    (:func:`alhambra.render.table_svg`) and the web table draw every entry, empty or not,
    without knowing the plugin. Cards of a seat's hand that every player may see (gate
    cards, taken openly, R-GATE-4) are appended to ``view["players"][i].setdefault("shown",
    [])`` as card codes, and drawn in that seat's panel. Cards are drawn from what they say of themselves (``str``,
    ``is_money``, ``currency``, ``value``); the sides of an Alhambra its plugin opened for
    walking (``Alhambra.open_side``) are in the core's view already (``"open_sides"``).
    """


@hookspec
def alhambra_observation_parts(game: Game, layout: ObservationLayout) -> list[ObservationPart] | None:
    """Declare this plugin's parts of the environments' observation tensor (``alhambra.env``,
    docs/env.md): how the entries its ``alhambra_view`` adds are written as numbers.

    Called once per observation layout (a rule set and a number of players) by the
    environments, on a set-up game, never by the engine: read the rules and
    ``game.num_players``, not the state. ``layout``: the
    :class:`~alhambra.ObservationLayout` under construction (``num_players``, ``tiles`` and
    ``tile_index``, ``cards`` and ``card_index``, ``slots``, ``city_slots(city)``), for the
    shapes. Return one :class:`~alhambra.ObservationPart` per view entry the tensor shows
    (its slices, its reference ``encode`` from the view, and ``snapshot`` and ``write`` to
    keep it up to date from the state), ``[]`` for none (the diamonds: money cards, which
    the core's hand, display and discard slices count already), or ``None`` when the plugin
    adds nothing to this rule set's view (Dirk with more than two players).

    Implementing this hook also says that the plugin's ``alhambra_view`` adds nothing else
    the tensor reads (the core's slices are kept up to date from the state). So the
    environments keep each seat's vector up to date without ``view(seat)`` only when every
    plugin implementing ``alhambra_view`` implements this hook and every part has ``snapshot``
    and ``write``; otherwise they encode ``view(seat)`` anew at every step (the same vector,
    a few times slower). Not *firstresult*: every plugin declares its own parts; two parts of
    one key, or anything but a list of ``ObservationPart``, are a
    :class:`~alhambra.errors.ConfigError`.
    """


@hookspec(firstresult=True)
def alhambra_action_words(game: Game, seat: int, action: Any) -> tuple[str, str] | None:
    """Say ``action`` of ``seat`` in words, for logs and buttons (the web table).

    Called with the game just *before* the action, once per line of a log or button label,
    never by the engine itself. *firstresult*: return ``(what was done, what to do)``, the
    first in the past tense and the second in the imperative, each to follow the player's
    name or stand alone on a button: ``("took the gate card 3 from the gate space", "take the
    gate card 3 from the gate space")``; name cards by ``str(card)`` (never a code or a
    repr) and tiles as the players see them. Return ``None`` for an action this plugin does
    not own. Actions no plugin words are said by the page from their fields (a purchase:
    ``space``, ``cards``, ``via``), else by their ``str``.
    """


@hookspec
def alhambra_determinize(game: Game, seat: int, rng: random.Random) -> None:
    """Resample this plugin's secrets that ``seat`` cannot see, in a copy of the game.

    Called by ``Game.determinize(seat, rng)`` on a clone (search bots sample the hidden
    information this way). Shuffle, with ``rng`` only, whatever ``seat`` does not know (other
    players' secret cards, face-down stacks), keeping everything ``seat`` can see unchanged.

    When it is called, the money cards are already redealt and the scoring cards placed anew
    within their piles. A plugin whose cards went into the money deck at R-SET-6 moves them
    with ``operations.resample_in_piles(game, which, rng)`` (each card uniformly within the
    undrawn part of its pile, ``operations.pile_range(game, index)``; the exchange offices do
    so, R-EXC-1): never to a
    position another plugin has already resampled in this call, which keeps the sample exact
    whatever the order of the plugins.
    """


@hookspec
def alhambra_hidden_piles(game: Game) -> list[HiddenPile | DeckCards]:
    """Declare this plugin's secret piles: :class:`~alhambra.engine.piles.HiddenPile` for a
    pile drawn from its top whose order no player knows (the building huts' face-down
    stacks, R-HUT-1), :class:`~alhambra.engine.piles.DeckCards` for cards shuffled into the
    money deck's setup piles (the exchange offices, R-EXC-1). The bag and the money deck are
    the core's and never listed.

    Read by tools that make every draw an explicit chance event (the OpenSpiel game,
    :mod:`alhambra.env.openspiel`): they watch these piles while an action is played and
    choose each drawn item from the distribution the declaration gives, which must be the
    one the plugin's ``alhambra_determinize`` samples from. Tools may ask once per rule set
    (on a set-up game) and use the answer for every game of it: ``get`` and ``put`` take the
    game. Not *firstresult*: every plugin lists its own (``[]`` or ``None`` for none).
    """


@hookspec
def alhambra_tile_locations(game: Game) -> dict[str, list[int | str]]:
    """Name every place this plugin keeps tiles (``{"dirk": [...]}``), for accounting checks."""


@hookspec
def alhambra_card_locations(game: Game) -> dict[str, list[Card]]:
    """Name every place this plugin keeps cards, for accounting checks."""


@hookspec
def alhambra_check_state(game: Game) -> str | None:
    """Say what is wrong with this plugin's part of a loaded game (save loading).

    Called once per load, after the core state has been checked and before the game is
    handed out: check shapes and values the plugin's rules rely on (one entry per seat,
    seats in range, every one of its cards or tiles exactly once). Return a sentence naming
    the problem, or ``None`` if it is sound; the loader raises
    :class:`~alhambra.errors.SaveFormatError` with it. Not ``firstresult``: every plugin checks.
    """


# ---------------------------------------------------------------------------------------------
# Positions (``Game.position()``, ``Game.from_position``; docs/positions.md)
# ---------------------------------------------------------------------------------------------


@hookspec
def alhambra_position_part(game: Game) -> dict[str, Any] | None:
    """Write this plugin's part of ``game.position()``.

    Called once per ``Game.position()`` call. Return ``{state_key: data}``: plain data that
    TOML can hold (tables, arrays, strings, ints, bools; no ``None``), written as the
    position's top-level table ``[state_key]``, enough for :func:`alhambra_position_read` to
    rebuild the state exactly; or ``None`` to let the engine write the state as in a save.
    Not ``firstresult``: every plugin writes its own part.
    """


@hookspec
def alhambra_position_read(game: Game, parts: dict[str, Any]) -> list[str] | None:
    """Read this plugin's part of a position into ``game.state.modules``.

    Called once by ``Game.from_position`` on a game just set up with the position's seed
    (so every plugin's state is already as the set-up left it), after the core places the
    position names (Alhambras, reserves, hands, market, pending tiles, deck if listed …)
    and its phase, turn player and decider (``None`` in a module's phase whose decider the
    position leaves to the module) have been put in, and before the places it leaves open
    (the bag, a shuffled deck, dealt hands) are filled from what nobody holds.

    ``parts``: the position's top-level tables keyed by state key (a key is absent when the
    position does not mention that part). With its part, set the state from it; without,
    keep the set-up state but take out whatever the position has placed elsewhere (a hut
    built in an Alhambra is no longer in its stack), so that every component is in exactly
    one place; a plugin that owns a phase sets ``game.state.decider`` when it is ``None``
    there. Raise :class:`~alhambra.errors.ConfigError` naming the key for a bad part.
    Return the state keys read (a part no plugin reads is structured as in a save).
    Not ``firstresult``: every plugin reads its own part.
    """


# ---------------------------------------------------------------------------------------------
# Tools (environments, bots, pictures): what a plugin's own parts mean to them
# ---------------------------------------------------------------------------------------------


@hookspec
def alhambra_action_encodings(game: Game, slots: int) -> list[ActionEncoding] | None:
    """Declare how the environments (``alhambra.env``, docs/env.md) write this plugin's action
    kinds as integers: one :class:`~alhambra.env.ActionEncoding` per action class.

    Called by the environments when they build a rule set's action space, on a freshly set-up
    game (read its rules, never its hidden state), never by the engine. ``slots``: the cell
    slots of an Alhambra (:func:`alhambra.env.codec.max_slots`), for a
    :class:`~alhambra.env.CellField`. An encoding registered with
    :func:`alhambra.env.register_encoding` for the same class comes first. Not
    *firstresult*: every plugin declares its own (``None`` for none); anything but a list of
    ``ActionEncoding`` is a :class:`~alhambra.errors.ConfigError`.
    """


@hookspec
def alhambra_evaluation_part(game: Game, viewer: int) -> EvaluationPart | None:
    """Say what the greedy evaluator (:class:`alhambra.bots.evaluate.Evaluator`) should count
    of this plugin's state, as ``viewer`` may know it: an :class:`~alhambra.EvaluationPart`.

    Called once per evaluation (a bot's decision), never by the engine. Return ``None`` when
    the plugin has nothing the evaluator counts (its actions are then valued by playing them
    on a copy of the game). Not *firstresult*: the parts of every plugin are combined.
    """


@hookspec
def alhambra_table_part(view: dict[str, Any], seat: int | None) -> TablePart | None:
    """Say what the table picture (:func:`alhambra.render.table_svg`) draws of this plugin's
    part of ``view`` (the view of ``seat``, ``None`` for a spectator): a
    :class:`~alhambra.TablePart` of facts, cards and tiles drawn in their places.

    Called once per picture, with the plain view only (a picture may be drawn from a saved
    view, without a game): by a game's rule set when the picture is drawn from a game, else
    by the installed modules. Return ``None`` when ``view`` holds nothing of this plugin. Not
    *firstresult*: the parts are drawn in the canonical order of the modules.
    """


@hookspec
def alhambra_tile_values(city: Alhambra) -> dict[tuple[int, int], int] | None:
    """Say what the tiles of ``city`` that this plugin counts as buildings count as, by
    position (a building hut counts its neighbours, R-HUT-5), for the pictures: the number is
    drawn on the tile (:func:`alhambra.render.city_svg`).

    Called once per picture of an Alhambra holding a tile of kind ``"hut"``, through the
    installed modules (a picture may be drawn from the tiles alone).
    ``None`` or ``{}`` for none. Not *firstresult*: the answers are merged.
    """
