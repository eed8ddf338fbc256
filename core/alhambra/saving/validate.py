"""The one validator of loaded games: saves (``Game.from_json``) and positions
(``Game.from_position``) pass through it before they are handed out.

It accepts only states that a game can reach:

* every component exactly once: the 54 buildings, the huts, the money cards of the set-up
  deck, scoring cards A and B (deck or set aside, R-SCORE-1), every module card (exchange
  offices, R-EXC-1), each module's own components (its ``alhambra_check_state``);
* phase, decider and what is pending consistent with each other: ``"turn"`` is decided by
  the turn player, ``"place"`` has tiles pending and a placement context some plugin
  continues, ``"over"`` has nobody deciding and the final scoring done;
  ``"distribution"`` is never a decision point (the engine passes through it, R-END-2); a
  module's window phase (``PhaseSpec.window``, the city gates' after a change) may keep the
  placement's context it interrupts, with or without tiles still pending;
* every seat and index in range (turn player, decider, distribution recipients, scoring
  participants), scorings not repeated and in order (R-SCORE-1);
* numbers within what a game can reach (scores, points of a scoring, turn number), nesting
  depth bounded (:data:`MAX_DEPTH`), history actions made of tiles, cards, small ints and
  positions.

A refusal raises the ``error`` class passed in (:class:`~alhambra.errors.SaveFormatError`
for saves, :class:`~alhambra.errors.ConfigError` for positions) with a sentence that names
the place (``state.distribution[0]``, ``history[12]``) and the problem.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Sequence

import attrs

from ..engine.accounting import InvariantError, card_locations, check_invariants, tile_locations
from ..engine.components import BUILDING_TYPES, SCORING_A, SCORING_B, SCORING_TABLE, Card, MoneyCard, ScoringCard
from ..engine.piles import pile_of
from ..errors import AlhambraError, SaveFormatError, shown
from ..rules.setup import PILES

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.protocol import GameLike

#: Deepest nesting of lists and objects a save or position may hold (a real save needs 7).
MAX_DEPTH = 24
#: Largest integer magnitude a save may hold outside the random generator's state (whose
#: words are < 2**32).
MAX_INT = 2**32
#: Highest turn number accepted. A game can in principle be made to last (redesign turns), but
#: no played game comes near: the bots' games end within a few hundred turns.
MAX_TURN = 100_000
#: The longest outer wall any Alhambra can have, as points (R-SCORE-4): every side of every
#: tile (54 buildings, 24 huts, the fountain) at most once.
MAX_WALL = 4 * (54 + 24 + 1)
#: Largest extra column of points a plugin may add in one scoring (``alhambra_scoring_adjust``).
MAX_EXTRA = 1_000
#: Phases in which nobody decides: the engine passes through them (``Game.end_game``).
TRANSIENT_PHASES = frozenset({"distribution"})


def check_nesting(
    value: Any,
    where: str,
    *,
    error: type[AlhambraError] = SaveFormatError,
    limit: int = MAX_DEPTH,
    skip: frozenset[str] = frozenset({"rng", "seed"}),
) -> None:
    """Refuse plain data (parsed JSON or TOML) nested deeper than ``limit`` lists/objects, or
    holding a non-finite number or an integer beyond :data:`MAX_INT` (the top-level keys in
    ``skip`` are not walked: the random generator's state and the seed, whose range is
    :data:`~alhambra.engine.state.SEED_LIMIT`, are checked on their own).

    ``where``: the name of ``value`` in messages (``"save"``). Raises ``error`` naming the path
    (``save.state.history[3]``). Iterative: a 10,000-deep list cannot exhaust the stack."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        v, path, depth = stack.pop()
        if isinstance(v, (dict, list, tuple)):
            if depth >= limit:
                raise error(f"{path}: nested deeper than {limit} levels")
            if isinstance(v, dict):
                for k, item in v.items():
                    if depth == 0 and k in skip:
                        continue
                    stack.append((item, f"{path}.{k}", depth + 1))
            else:
                stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(v))
        elif type(v) is float:
            if v != v or v in (float("inf"), float("-inf")):
                raise error(f"{path}: {v!r} is not a number a game holds")
        elif type(v) is int and not -MAX_INT <= v <= MAX_INT:
            raise error(f"{path}: {shown(v)} is beyond any number a game reaches")


def validate_game(
    game: "GameLike", names: Sequence[str] | None = None, *, error: type[AlhambraError] = SaveFormatError
) -> None:
    """Check a loaded game (a save's or a position's) as a whole; raise ``error`` naming the
    first problem found. ``names``: the player names the envelope gave, if any.

    Order: the plugins' parts of the state (:func:`check_parts`), shape and ranges (seats,
    phase and decider, market, display, numbers), scorings,
    the pile record, every component exactly once, the modules' own checks
    (``alhambra_check_state``), the history's actions, and last that the player to decide can
    be given their legal actions and a view."""
    st = game.state
    if names is not None and [p.name for p in st.players] != list(names):
        raise error("the state's players do not match 'players'")
    check_parts(game, error)
    _check_phase(game, error)
    _check_numbers(game, error)
    _check_scorings(game, error)
    check_piles(game, error)
    _check_components(game, error)
    for problem in game.rules.hook.alhambra_check_state(game=game):
        if problem:
            raise error(f"inconsistent {_what(error)}: {problem}")
    try:
        check_invariants(game)
    except InvariantError as exc:
        raise error(f"inconsistent {_what(error)}: {exc}") from None
    for i, action in enumerate(game.history):
        check_action_fields(game, action, f"history[{i}]", error=error)


def check_parts(game: "GameLike", error: type[AlhambraError] = SaveFormatError) -> None:
    """The plugins' parts of the state (``state.modules``): exactly those that the set-up of
    the game's configuration makes (``alhambra_setup``: a module's part, Dirk's in a
    two-player game, R-TWO-3), each an instance of the class its plugin declares
    (``alhambra_state_classes``). Nothing takes a part away during a game, so a part
    missing is a part deleted. Raises ``error`` naming the part (``state.modules.city_gates``)
    before any other check reads it."""
    parts = game.state.modules
    if not isinstance(parts, dict):
        raise error(f"state.modules: the plugins' parts of the state are a table, not {shown(parts)}")
    fresh = type(game)._blank(game.rules, list(game._names), game.seed)
    game.rules.hook.alhambra_setup(game=fresh)
    for key in fresh.state.modules:
        if key not in parts:
            raise error(
                f"state.modules.{key}: the {key} part of the state is missing "
                f"(a game of modules {list(game.rules.modules) or 'none'} with {game.num_players} players has it)"
            )
    for key, part in parts.items():
        cls = game.rules.state_classes.get(key)
        if key not in fresh.state.modules or cls is None:
            raise error(f"state.modules.{key}: no plugin of this game keeps a part {key!r} in a game like this one")
        if not isinstance(part, cls):
            raise error(f"state.modules.{key}: the {key} part of the state is a {cls.__name__}, not {shown(part)}")


def _what(error: type[AlhambraError]) -> str:
    return "save" if issubclass(error, SaveFormatError) else "position"


def _seat(value: Any, n: int, what: str, error: type[AlhambraError]) -> None:
    if type(value) is not int or not 0 <= value < n:
        raise error(f"{what} must be a seat 0..{n - 1}, not {value!r}")


def _check_phase(game: "GameLike", error: type[AlhambraError]) -> None:
    """Phase, decider, pending tiles, placement context and distribution agree."""
    st = game.state
    n = game.num_players
    _seat(st.turn_player, n, "state.turn_player", error)
    _seat(st.start_player, n, "state.start_player", error)
    if st.phase in TRANSIENT_PHASES:
        raise error(
            f"state.phase: {st.phase!r} is never a decision point (the end of the game passes through it "
            "to the placement of received buildings, R-END-2/R-END-3); save in 'place' or 'over'"
        )
    phases = {"turn", "place", "over", *game.rules.phase_specs, *game.rules.phases} - TRANSIENT_PHASES
    if st.phase not in phases:
        raise error(f"state.phase: unknown phase {st.phase!r} (this game has {sorted(phases)})")
    if type(st.place_context) is not str:
        raise error(f"state.place_context must be a string, not {st.place_context!r}")
    if st.phase == "over":
        if st.decider is not None:
            raise error(f"state.decider: the game is over, nobody decides, not seat {st.decider!r}")
        if st.pending or st.distribution or any(t is not None for t in st.market):
            raise error("state: a finished game has no pending tiles, no distribution and an empty market (R-END-2)")
        return
    _seat(st.decider, n, "state.decider", error)
    if st.phase == "turn":
        if st.decider != st.turn_player:
            raise error(
                f"state.decider: in phase 'turn' the turn player decides (seat {st.turn_player}), not seat {st.decider}"
            )
    spec = game.rules.phase_specs.get(st.phase)
    window = spec is not None and spec.window and bool(st.place_context)  # a window within a placement
    if st.phase != "place" and not window:
        if st.place_context:
            raise error(f"state.place_context: {st.place_context!r} outside phase 'place' (nothing is being placed)")
        if st.distribution:
            raise error("state.distribution: buildings are distributed only while they are placed (phase 'place')")
        return
    if not st.pending and not window:
        raise error("state.pending: in phase 'place' some tile is pending")
    ctx = st.place_context
    if not ctx:
        raise error("state.place_context: in phase 'place' the placement's context is named")
    if ctx == "turn" and st.decider != st.turn_player:
        raise error(
            f"state.decider: the turn player (seat {st.turn_player}) places what they bought, "
            f"not seat {st.decider} (R-TURN-7)"
        )
    if ctx != "distribution" and st.distribution:
        raise error(
            f"state.distribution: buildings are distributed only at the end (context 'distribution'), "
            f"not in context {ctx!r}"
        )
    if ctx == "distribution" and any(p.dirk_ok for p in st.pending):
        raise error("state.pending: received buildings never go to Dirk (R-END-3, R-TWO-5)")
    for i, entry in enumerate(st.distribution):
        if not isinstance(entry, (list, tuple)) or len(entry) != 2 or not isinstance(entry[1], list) or not entry[1]:
            raise error(f"state.distribution[{i}]: a recipient is [seat, [tile, ...]], not {entry!r}")
        _seat(entry[0], n, f"state.distribution[{i}] seat", error)
    seats = [e[0] for e in st.distribution]
    if len(set(seats)) != len(seats) or st.decider in seats:
        raise error(
            f"state.distribution: each recipient places once (R-END-3), not seats {seats} "
            f"(seat {st.decider} is placing)"
        )
    spec = game.rules.phase_specs.get(ctx)
    if spec is None or spec.after_placement is None:
        raise error(
            f"state.place_context: no plugin of this game continues after placement context {ctx!r} "
            "(the placement returns to a phase declared with an after_placement, alhambra_phases)"
        )


def _check_numbers(game: "GameLike", error: type[AlhambraError]) -> None:
    """Market, display, scores, turn number: shapes and ranges."""
    st = game.state
    catalog = game.rules.catalog
    if not isinstance(st.market, list) or len(st.market) != 4:
        raise error("state.market: the market has four spaces (R-COMP-4)")
    for i, t in enumerate(st.market):
        if t is not None and (type(t) is not int or not 1 <= t <= 54 or t not in catalog):
            raise error(f"state.market[{i}]: a market space is empty or holds a building 1-54, not {t!r}")
    if len(st.display) > 4:
        raise error(f"state.display: the money display holds at most 4 cards, not {len(st.display)} (R-SET-5)")
    if any(type(c) is ScoringCard for c in st.display):
        raise error("state.display: a scoring card is set aside when drawn, never displayed (R-SCORE-1)")
    for i, p in enumerate(st.players):
        if type(p.score) is not int or p.score < 0:
            raise error(f"state.players[{i}].score: bad score {p.score!r}")
    if type(st.turn) is not int or not 1 <= st.turn <= MAX_TURN:
        raise error(f"state.turn: bad turn number {st.turn!r} (1 … {MAX_TURN})")
    for i, pend in enumerate(st.pending):
        if type(pend.dirk_ok) is not bool:
            raise error(f"state.pending[{i}].dirk_ok must be true or false, not {pend.dirk_ok!r}")


def _max_points(number: int) -> int:
    """The most majority points one participant can get in scoring ``number``: first place
    in every building type (R-SCORE-2)."""
    return sum(max(SCORING_TABLE[t][number - 1]) for t in BUILDING_TYPES)


def _check_scorings(game: "GameLike", error: type[AlhambraError]) -> None:
    """Scoring records: numbers 1, 2, 3 in order, each once; participants the seats (and Dirk
    in a two-player game); points within reach; the scoring cards set aside matching the
    scorings done or pending; scores the sums of the records (R-SCORE-1 … R-SCORE-6)."""
    st = game.state
    n = game.num_players
    done = [r.number for r in st.scorings]
    # a game can end before scoring card B (or even A) is drawn: its scoring never happens,
    # and the end-of-game scoring is still the third (R-SCORE-1, R-END-1, R-END-3)
    ended_early = st.phase == "over" and done in ([1, 3], [3])
    if done != [1, 2, 3][: len(done)] and not ended_early:
        raise error(
            f"state.scorings: scorings happen once each, 1, 2 then 3 (R-SCORE-1), not {done} (a game that ends "
            "before a scoring card is drawn skips that scoring)"
        )
    if (3 in done) != (st.phase == "over"):
        raise error(
            "state.scorings: the third scoring happens exactly when the game ends (R-END-3)"
            f" (phase {st.phase!r}, scorings {done})"
        )
    pend = st.pending_scorings
    if any(type(k) is not int or k not in (1, 2) for k in pend) or len(set(pend)) != len(pend) or set(pend) & set(done):
        raise error(f"state.pending_scorings: scorings 1 or 2, each once and not yet done (R-SCORE-1), not {pend!r}")
    others = [c for c in st.scoring_cards if type(c) is not ScoringCard]
    if others:
        raise error(
            f"state.scoring_cards: only the two scoring cards are set aside when drawn (R-SCORE-1), "
            f"not {', '.join(shown(getattr(c, 'code', c)) for c in others)}"
        )
    aside = {c.number for c in st.scoring_cards if type(c) is ScoringCard}
    if aside != {k for k in (*done, *pend) if k in (1, 2)}:
        raise error(
            f"state.scoring_cards: the cards set aside ({sorted(aside)}) must be those of the scorings done "
            f"or pending ({sorted(k for k in (*done, *pend) if k in (1, 2))}, R-SCORE-1)"
        )
    dirk = game.state.modules.get("dirk")
    who = list(range(n)) + ([n] if dirk is not None else [])
    for j, r in enumerate(st.scorings):
        where = f"state.scorings[{j}]"
        k = len(r.participants)
        if r.participants != who:
            raise error(f"{where}.participants: the seats {who} take part in a scoring, not {r.participants!r}")
        if not (len(r.counts) == len(r.majority) == len(r.walls) == k) or any(
            not isinstance(col, list) or len(col) != k for col in r.extra.values()
        ):
            raise error(f"{where}: one count, majority, wall and extra entry per participant")
        top = _max_points(r.number)
        for i in range(k):
            if any(type(v) is not int or not 0 <= v <= 54 + 24 for v in r.counts[i].values()):
                raise error(f"{where}.counts[{i}]: building counts are 0 … 78, not {r.counts[i]!r}")
            if any(type(v) is not int or v < 0 for v in r.majority[i].values()) or sum(r.majority[i].values()) > top:
                raise error(
                    f"{where}.majority[{i}]: majority points are 0 … {top} in scoring {r.number}, not {r.majority[i]!r}"
                )
            if type(r.walls[i]) is not int or not 0 <= r.walls[i] <= MAX_WALL:
                raise error(f"{where}.walls[{i}]: an outer wall scores 0 … {MAX_WALL} points, not {r.walls[i]!r}")
        for name, col in r.extra.items():
            if any(type(v) is not int or abs(v) > MAX_EXTRA for v in col):
                raise error(f"{where}.extra[{name!r}]: extra points are integers within ±{MAX_EXTRA}, not {col!r}")
    for i, p in enumerate(st.players):  # points come only from scorings (R-SCORE-1 … R-SCORE-5)
        earned = sum(r.totals[i] for r in st.scorings)
        if p.score != earned:
            raise error(
                f"state.players[{i}].score: {p.name} (seat {i}) has {p.score} points, but the scoring records give {earned}"
            )
    if dirk is not None:  # R-TWO-4: Dirk's points, kept for the record, come from the scorings too
        earned = sum(r.totals[n] for r in st.scorings)
        if type(dirk.score) is not int or dirk.score != earned:
            raise error(
                f"state.modules.dirk.score: Dirk has {dirk.score!r} points, but the scoring records give {earned}"
            )


def check_piles(game: "GameLike", error: type[AlhambraError] = SaveFormatError) -> None:
    """The pile record (``state.pile_sizes``, R-SET-6) must fit the deck: no entries (no
    record), one (a reshuffled deck, R-TURN-8) or five (the setup piles), each a size >= 0,
    together at least as many cards as the deck holds (cards only leave the deck); with the
    five setup piles, scoring card A, if still in the deck, must lie in pile 2 and B in
    pile 4. Raises ``error`` otherwise: determinize would sample from a wrong belief."""
    st = game.state
    sizes = st.pile_sizes
    if not isinstance(sizes, list) or any(type(n) is not int or n < 0 for n in sizes):
        raise error(f"bad pile record {sizes!r}: pile_sizes is a list of pile sizes (integers >= 0)")
    if len(sizes) not in (0, 1, PILES):
        raise error(f"bad pile record {sizes!r}: {PILES} setup piles (R-SET-6), 1 after a reshuffle, or none")
    if sizes and sum(sizes) < len(st.deck):
        raise error(f"bad pile record {sizes!r}: {sum(sizes)} cards in the piles, but the deck holds {len(st.deck)}")
    if len(sizes) == PILES:
        for card, pile in ((SCORING_A, 2), (SCORING_B, 4)):
            if card in st.deck:
                found = pile_of(game, st.deck.index(card))
                if found != pile:
                    raise error(
                        f"bad pile record {sizes!r}: scoring card {card.code} lies in pile {found} "
                        f"of the deck, not in pile {pile} (R-SET-6)"
                    )


def _check_components(game: "GameLike", error: type[AlhambraError]) -> None:
    """Scoring cards A and B once each, only in the deck or set aside (R-SCORE-1); every card
    that is neither money nor a scoring card (module cards: exchange offices) exactly once;
    no card or tile this game does not have. Buildings and money cards are counted by
    ``check_invariants``."""
    cards = game.rules.cards
    places: dict[Card, list[str]] = {SCORING_A: [], SCORING_B: []}
    seen: Counter[Card] = Counter()
    for where, found in card_locations(game).items():
        for c in found:
            if not isinstance(c, Card) or cards.get(c.code) is not c:
                raise error(f"{where}: unknown card {c!r} (not a card of this game)")
            if c in places:
                places[c].append(where)
            elif type(c) is not MoneyCard:
                seen[c] += 1
    for card, found in places.items():
        if len(found) != 1:
            raise error(
                f"scoring card {card.code} must be in the game exactly once (deck or set aside), "
                f"found in {found or 'no place'}"
            )
        if found[0] not in ("deck", "scoring_cards"):
            raise error(
                f"{found[0]}: scoring card {card.code} lies only in the deck or set aside (R-SCORE-1), "
                "never in a hand, the display or the discard pile"
            )
    for card in cards.values():
        if type(card) in (MoneyCard, ScoringCard):
            continue
        if seen[card] != 1:
            raise error(f"card {card.code} must be in the game exactly once, found {seen[card]} times")
    catalog = game.rules.catalog
    for where, tiles in tile_locations(game).items():
        for t in tiles:
            if type(t) not in (int, str) or t == 0 or t not in catalog:
                raise error(f"{where}: unknown tile {t!r} (this game's tiles: 1-54 and its modules' tiles)")


#: Action fields holding a tile id: they must name a tile of the game.
TILE_FIELDS = frozenset({"tile", "hut", "building"})


def check_action_fields(
    game: "GameLike", action: Any, where: str, *, error: type[AlhambraError] = SaveFormatError
) -> None:
    """An action read from a save or position is made of what actions are made of: cards of
    the game, tiles of the game (fields ``tile``, ``hut``, ``building``), booleans, ints
    within ±1000 (market spaces, seats, positions), short strings, and tuples of those one
    level deep. Raises ``error`` naming ``where`` and the field."""
    if not attrs.has(type(action)):
        return
    catalog = game.rules.catalog
    for f in attrs.fields(type(action)):
        value = getattr(action, f.name)
        if f.name in TILE_FIELDS and (type(value) not in (int, str) or value == 0 or value not in catalog):
            raise error(f"{where}.{f.name}: unknown tile {value!r}")
        items = value if isinstance(value, tuple) else (value,)
        for item in items:
            if isinstance(item, tuple):
                bad = [x for x in item if type(x) is not int or abs(x) > 1000]
            else:
                bad = [item] if not _plain(item) else []
            if bad:
                raise error(f"{where}.{f.name}: {bad[0]!r} is not a value an action holds")


def _plain(item: Any) -> bool:
    if item is None or isinstance(item, Card) or type(item) is bool:
        return True
    if type(item) is int:
        return abs(item) <= 1000
    return type(item) is str and len(item) <= 64
