"""The game state: plain attrs records, cloned explicitly and saved through cattrs."""

from __future__ import annotations

import random
import re
from typing import Any, Sequence

from attrs import define, field

from ..errors import ConfigError, shown
from .city import Alhambra
from .components import Card, MoneyCard, TileCatalog

#: Alhambra is for 2 to 6 players (R-COMP-1)
MIN_PLAYERS, MAX_PLAYERS = 2, 6


def player_names(players: int | Sequence[str]) -> list[str]:
    """The seats' names for ``new_game(players)``: a number of players 2-6 (named "Player 1"
    …) or their names (R-COMP-1). Raises :class:`~alhambra.errors.ConfigError` otherwise, and
    for a name longer than :data:`MAX_NAME_LENGTH` (100) characters or holding a character XML
    1.0 cannot hold (control character, lone surrogate, U+FFFE/U+FFFF), naming the seat."""
    if isinstance(players, bool):
        raise ConfigError("players must be a number of players or a list of names")
    if isinstance(players, int):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ConfigError(f"Alhambra is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players} (R-COMP-1)")
        return [f"Player {i + 1}" for i in range(players)]
    if not (isinstance(players, (list, tuple)) and all(isinstance(n, str) for n in players)):
        raise ConfigError(f"players must be a number of players or a list of names, not {players!r}")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ConfigError(f"Alhambra is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)} (R-COMP-1)")
    for i, name in enumerate(players):
        check_player_name(name, f"player {i + 1}")
    return list(players)


#: The longest player name, in characters: ``new_game``, positions, saves, game configs and
#: the web app's new-game form refuse a longer one (a name is shown on every page, picture and
#: log line; a megabyte-long one made a position file the loader refuses).
MAX_NAME_LENGTH = 100


def check_player_name(name: str, who: str) -> None:
    """Raise :class:`~alhambra.errors.ConfigError` naming ``who`` (``"player 2"``) for a name
    longer than :data:`MAX_NAME_LENGTH` characters or holding a character XML 1.0 cannot hold
    (control character, lone surrogate, U+FFFE/U+FFFF)."""
    if len(name) > MAX_NAME_LENGTH:
        raise ConfigError(
            f"{who}'s name is {len(name)} characters long ({shown(name, 40)}); a player name has at "
            f"most {MAX_NAME_LENGTH} characters"
        )
    bad = _NOT_XML_CHAR.search(name)
    if bad:  # the name could not appear in a save's picture, a page or a terminal
        raise ConfigError(
            f"{who}'s name {name!r} holds the character U+{ord(bad.group()):04X}, "
            f"which XML cannot hold (a control character, lone surrogate or non-character)"
        )


#: A character XML 1.0 cannot hold (its ``Char`` production): refused in player names.
_NOT_XML_CHAR = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


#: Seeds are integers ``0 <= seed < SEED_LIMIT`` everywhere: ``new_game``, configurations, the
#: command line, the web form, the environments' ``reset(seed=)`` and saves. A game started
#: without a seed draws one in this range, so every game saves and loads.
SEED_LIMIT = 2**63


def game_seed(seed: int | None) -> int:
    """The seed of a new game: ``seed``, or a fresh random one in ``[0, SEED_LIMIT)`` for
    ``None``. Raises :class:`~alhambra.errors.ConfigError` for anything but an int with
    ``0 <= seed < SEED_LIMIT`` (a bool included): a negative seed would give the same game as
    its absolute value (``random.Random`` seeds with ``abs(seed)``), so two different seeds would
    not give two different games; a seed of ``SEED_LIMIT`` or more could not be saved."""
    if seed is None:
        return random.SystemRandom().randrange(SEED_LIMIT)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"seed must be an integer, not {shown(seed)}")
    if seed < 0:
        raise ConfigError(
            f"seed must be 0 or more, not {shown(seed)}: a negative seed gives the same game as {shown(-seed)}"
        )
    if seed >= SEED_LIMIT:
        raise ConfigError(f"seed must be below 2**63 = {SEED_LIMIT}, not {shown(seed)}")
    return seed


@define(slots=True)
class Pending:
    """A tile waiting to be placed at the end of a turn (or after a distribution).

    ``tile``: tile id. ``dirk_ok``: True if it was bought, so that with two players it may go
    to Dirk (R-TWO-5); False for received buildings (R-END-3) and module tiles (huts)."""

    tile: Any
    dirk_ok: bool = False


@define(slots=True)
class ScoringRecord:
    """The outcome of one scoring (R-SCORE-1 … R-SCORE-5), one entry per participant.

    ``participants``: seats ``0..n-1``, then any non-player participant (Dirk is seat number
    ``n``). ``counts[i]``: buildings per type after module adjustments. ``majority[i]``: points
    per type. ``walls[i]``: longest outer wall length (points). ``extra``: named columns of
    points added by plugins (``alhambra_scoring_adjust``). ``totals[i]``: the sum.
    """

    number: int
    participants: list[int]
    counts: list[dict[str, int]]
    majority: list[dict[str, int]]
    walls: list[int]
    extra: dict[str, list[int]] = field(factory=dict)

    def add_points(self, name: str, points: list[int]) -> None:
        """Add a column of points (one per participant) named ``name``."""
        if len(points) != len(self.participants):
            raise ValueError("one entry per participant")
        col = self.extra.setdefault(name, [0] * len(self.participants))
        for i, p in enumerate(points):
            col[i] += p

    @property
    def totals(self) -> list[int]:
        """Total points per participant: majorities + walls + extra columns."""
        out = []
        for i in range(len(self.participants)):
            out.append(sum(self.majority[i].values()) + self.walls[i] + sum(c[i] for c in self.extra.values()))
        return out


@define(slots=True)
class PlayerState:
    """One seat: ``name``, ``hand`` (money cards and module cards, secret), ``city`` (the
    Alhambra), ``reserve`` (tile ids, public, R-COMP-5) and ``score``."""

    name: str
    hand: list[Card]
    city: Alhambra
    reserve: list[Any] = field(factory=list)
    score: int = 0

    def clone(self) -> "PlayerState":
        return PlayerState(self.name, self.hand.copy(), self.city.copy(), self.reserve.copy(), self.score)

    def money_in(self, currency: str) -> int:
        """Total value of this player's money cards of ``currency`` (R-END-2)."""
        return sum([c.value for c in self.hand if isinstance(c, MoneyCard) and c.currency == currency])


@define(slots=True)
class GameState:
    """Everything that changes during a game. Decks are lists with the top card last.

    ``phase``: ``"turn"`` (the turn player chooses an action), ``"place"`` (``decider`` places
    ``pending`` tiles; ``place_context`` says what follows), a module's own phase, or
    ``"over"``. ``turn_player``: whose turn it is; ``decider``: who must decide now.
    ``pending_scorings``: scorings whose card was drawn this turn (R-SCORE-1).
    ``distribution``: recipients still to place received buildings at the end (R-END-3).
    ``modules``: each plugin's own state, by key.

    ``pile_sizes``: the piles the current ``deck`` was stacked from, as their sizes when
    stacked, the top pile first (so ``deck[0]``, the bottom card, belongs to the last pile).
    Five entries after setup (R-SET-6: pile 1 … pile 5; scoring cards A and B lie in piles 2
    and 4, exchange offices in piles 2-4, R-EXC-1); one entry, the size of the new deck, once
    the discard pile has been reshuffled into the deck (R-TURN-8: the new deck is a single
    shuffled pile); empty when unknown (saves written before the record existed). Cards only
    ever leave the top (``deck.pop()``), so counting from the bottom keeps every position's
    pile right without updating the record; :meth:`Game.pile_range` reads it.
    """

    players: list[PlayerState]
    bag: list[Any]
    market: list[Any]
    deck: list[Card]
    discard: list[Card]
    display: list[Card]
    start_player: int
    turn_player: int
    decider: int | None
    phase: str = "turn"
    turn: int = 1
    pending: list[Pending] = field(factory=list)
    place_context: str = ""
    pending_scorings: list[int] = field(factory=list)
    scoring_cards: list[Card] = field(factory=list)
    scorings: list[ScoringRecord] = field(factory=list)
    distribution: list[list[Any]] = field(factory=list)
    out_of_play: list[Any] = field(factory=list)
    modules: dict[str, Any] = field(factory=dict)
    pile_sizes: list[int] = field(factory=list)

    @classmethod
    def empty(cls, names: Sequence[str], catalog: TileCatalog, holes: str, rules: Any = None) -> GameState:
        """The state of a game before setup: one empty Alhambra per name, nothing dealt;
        ``rules``: the placement rules they are built by (default: the built-in ones)."""
        return cls(
            players=[PlayerState(n, [], Alhambra(catalog, holes, rules=rules)) for n in names],
            bag=[],
            market=[None] * 4,
            deck=[],
            discard=[],
            display=[],
            start_player=0,
            turn_player=0,
            decider=0,
        )

    def clone(self) -> "GameState":
        """An independent deep copy (cards and actions are immutable and shared)."""
        return GameState(
            players=[p.clone() for p in self.players],
            bag=self.bag.copy(),
            market=self.market.copy(),
            deck=self.deck.copy(),
            discard=self.discard.copy(),
            display=self.display.copy(),
            start_player=self.start_player,
            turn_player=self.turn_player,
            decider=self.decider,
            phase=self.phase,
            turn=self.turn,
            pending=[Pending(p.tile, p.dirk_ok) for p in self.pending],
            place_context=self.place_context,
            pending_scorings=self.pending_scorings.copy(),
            scoring_cards=self.scoring_cards.copy(),
            scorings=self.scorings.copy(),  # the records themselves are never mutated once stored
            distribution=[[s, list(t)] for s, t in self.distribution],
            out_of_play=self.out_of_play.copy(),
            modules={k: v.clone() for k, v in self.modules.items()},
            pile_sizes=self.pile_sizes.copy(),
        )
