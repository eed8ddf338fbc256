"""The game: a thin loop over the state, the rule set's action kinds and its hooks.

:class:`Game` is what users hold: ``legal_actions()``, ``apply(action)``, ``clone()``,
``view(seat)``, ``to_json()``. It also offers the few engine operations plugins call from their
hook implementations and action kinds (``action_done``, ``begin_placement``, ``refill_market``,
``end_game``, ``resume``, ``payments``), so modules never touch the turn sequence directly.
"""

from __future__ import annotations

import random
from operator import itemgetter
from typing import Any, Iterable, Sequence

from .engine import accounting, sequence
from .engine.acting import match_unlisted
from .engine.determinize import determinize
from .engine.sequence import ACTION_DONE, PLACE, advance
from .engine.actions import Action, Buy, Pass, action_table
from .engine.components import MARKET_CURRENCIES, MONEY_LANE, MONEY_RANK, MONEY_VALUES, MoneyCard
from .errors import ConfigError, IllegalActionError
from .engine.payment import minimal_payments
from .engine.ruleset import Ruleset, get_ruleset
from .engine.state import MAX_PLAYERS, MIN_PLAYERS, GameState, PlayerState, game_seed, player_names  # noqa: F401  (the limits: re-exported)
from .engine.city import Alhambra

_ONE_CURRENCY = {c: frozenset((c,)) for c in MARKET_CURRENCIES}


def _currency_cards(hand, currency: str) -> tuple:
    """The money cards of ``currency`` in ``hand``, sorted by value."""
    return tuple(sorted([c for c in hand if type(c) is MoneyCard and c.currency == currency], key=MONEY_RANK.__getitem__))


_NOT_MONEY = (4, 1)  # a card that is not money: counted in a fifth slot


def _money_keys(hand) -> list:
    """Per market space (index 0-3), a hashable key for the hand's money cards of the space's
    currency, equal for hands with the same such cards in any order (the payments memo's
    key): an int, the sum of their ``MONEY_LANE`` numbers, or for a hand of 16 or more cards,
    where 4 bits could overflow, :func:`_currency_cards`; then (index 4) how many cards of the
    hand are not money. Do not change the list returned."""
    if len(hand) < 16:
        keys = [0, 0, 0, 0, 0]
        lane = MONEY_LANE.get
        for card in hand:
            i, code = lane(card, _NOT_MONEY)
            keys[i] += code
        return keys
    return [*[_currency_cards(hand, cur) for cur in MARKET_CURRENCIES], sum([type(c) is not MoneyCard for c in hand])]


#: a payment means' currencies -> an itemgetter of their lanes in the money keys
_LANES: dict = {}


def _lanes(currencies: frozenset) -> itemgetter:
    """Picks the money keys (``_money_keys``) of ``currencies``: an int for one currency, a
    tuple for several."""
    lanes = _LANES.get(currencies)
    if lanes is None:
        lanes = _LANES[currencies] = itemgetter(*[j for j, c in enumerate(MARKET_CURRENCIES) if c in currencies])
    return lanes


#: an int money key (value counts) -> the totals those cards pay exactly, shared by all games
_REACH: dict = {}


def _reach_of(key: int) -> int:
    """Bit v set: some of the cards counted in money key ``key`` (4 bits per value, see
    ``MONEY_LANE``) add up to exactly v. Keys of several currencies add up to the key of all
    their cards (a hand of fewer than 16 cards never fills 4 bits)."""
    found = _REACH.get(key)
    if found is None:
        if len(_REACH) >= 50_000:
            _REACH.clear()
        found = 1
        for v in MONEY_VALUES:
            for _ in range(key >> 4 * v & 15):
                found |= found << v
        _REACH[key] = found
    return found


def _exact_sums(hand, currencies) -> int:
    """Bit v set: some money cards of ``hand`` in ``currencies`` add up to exactly v."""
    found = 1
    for c in hand:
        if type(c) is MoneyCard and c.currency in currencies:
            found |= found << c.value
    return found


def new_game(
    players: int | Sequence[str],
    *,
    modules: Iterable = (),
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    plugins: Iterable = (),
    blocked: Iterable[str] = (),
) -> "Game":
    """Create and set up a game (R-SET-1 … R-SET-7).

    ``players``: the number of players (2-6, named "Player 1" …) or their names.
    ``modules``: names of expansion modules to enable (entry points of ``alhambra.modules``,
    e.g. ``["vizier", "bonus_cards"]``) or module objects; nothing is enabled implicitly.
    ``seed``: integer seed of the game's own random generator, the only source of chance;
    ``None`` picks one (readable as ``game.seed``). ``options``: option values (``holes``,
    ``tiebreak``, ``start_player``, ``"<module>.<option>"``). ``plugins``/``blocked``: house
    rules registered on top, and built-in plugins to block (see :class:`Ruleset`).

    Raises :class:`ConfigError` for a bad player count, unknown module or option, bad seed.
    """
    names = player_names(players)
    seed = game_seed(seed)
    rules = get_ruleset(modules, options, plugins=plugins, blocked=blocked)
    game = Game._blank(rules, names, seed)
    rules.hook.alhambra_setup(game=game)
    sequence.start_turn(game, game.state.start_player)
    return game


class Game:
    """A game of Alhambra in progress (OpenSpiel-style state object).

    Reading: ``current_player`` (seat to decide, ``None`` when over), ``phase``,
    ``legal_actions()``, ``is_over``, ``scores``, ``winners``, ``returns()``, ``view(seat)``,
    ``history``, ``state`` (the full :class:`~alhambra.state.GameState`, secrets included).
    Changing: ``apply(action)``. Copying and saving: ``clone()``, ``to_json()``,
    ``Game.from_json(text)``. Build games with :func:`new_game`.
    """

    __slots__ = ("rules", "state", "rng", "seed", "names", "history", "_legal", "_legal_set", "_means", "_buys",
                 "_reach", "_wanted", "memo", "_settled")
    # _legal: cached legal actions; _legal_set: the same as {action: action} for lookups;
    # _buys: the last purchases per (seat, exact) with the hand and market they were made for,
    # _reach: per seat, (a copy of the hand, the totals it pays exactly, see _exact_reach);
    # _wanted: (a copy of the market, its prices as the same kind of bitset);
    # _settled: during determinize only, the deck positions already resampled (resample_in_piles)

    rules: Ruleset
    state: GameState
    rng: random.Random
    seed: int
    names: tuple[str, ...]
    history: list[Action]
    _legal: list[Action] | None
    _legal_set: dict[Action, Action] | None
    _means: dict[int, Any]
    _buys: dict[int, Any]
    _reach: list[Any]
    _wanted: tuple[Any, int]
    memo: dict[Any, Any]
    _settled: set[int] | None

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def _blank(cls, rules: Ruleset, names: list[str], seed: int) -> "Game":
        g = cls.__new__(cls)
        g.rules = rules
        g.seed = seed
        g.names = tuple(names)
        g.rng = random.Random(seed)
        holes = rules.options.get("holes", "cell")
        g.state = GameState(
            players=[PlayerState(n, [], Alhambra(rules.catalog, holes)) for n in names],
            bag=[], market=[None] * 4, deck=[], discard=[], display=[],
            start_player=0, turn_player=0, decider=0,
        )
        g.history = []
        g._legal = None
        g._legal_set = None
        g._means = {}
        g._buys = {}
        g._reach = [(None, 0)] * len(names)
        g._wanted = (None, 0)
        #: Scratch dict for rule plugins: values derived from the state that they keep with
        #: what they were derived from (checked on use). A clone starts with a copy.
        g.memo = {}
        g._settled = None
        return g

    def clone(self, *, seed: int | None = None) -> "Game":
        """An independent copy of this game: state, random generator and history.

        With ``seed``, the copy's generator is freshly seeded instead of copied (cheaper; for
        search, where chance after the copy is sampled anew anyway)."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.names = self.names
        if seed is None:
            g.rng = random.Random.__new__(random.Random)
            g.rng.setstate(self.rng.getstate())
        else:
            g.rng = random.Random(seed)
        g.state = self.state.clone()
        g.history = self.history.copy()
        g._legal = self._legal
        g._legal_set = self._legal_set
        g._means = {}
        g._buys = self._buys.copy()
        g._reach = self._reach.copy()
        g._wanted = self._wanted
        g.memo = self.memo.copy()
        g._settled = None
        return g

    # -- reading --------------------------------------------------------------------------------

    @property
    def hook(self) -> Any:
        """The rule set's pluggy hook relay (``game.hook.alhambra_…(game=game, …)``)."""
        return self.rules.hook

    @property
    def options(self) -> dict[str, Any]:
        """The resolved option values of this game."""
        return self.rules.options

    @property
    def modules(self) -> tuple[str, ...]:
        """Names of the enabled modules."""
        return self.rules.modules

    @property
    def num_players(self) -> int:
        return len(self.state.players)

    @property
    def config(self) -> dict[str, Any]:
        """What :func:`new_game` needs to rebuild this game: players, modules, seed, options,
        and the names of blocked built-in plugins and of extra (house-rule) plugins."""
        from .engine.ruleset import plugin_name

        return {"players": list(self.names), "modules": list(self.modules), "seed": self.seed,
                "options": dict(self.options), "blocked": list(self.rules.blocked),
                "plugins": [plugin_name(p) for p in self.rules.plugins]}

    @property
    def current_player(self) -> int | None:
        """Seat index of the player who must decide now, or ``None`` when the game is over."""
        return None if self.state.phase == "over" else self.state.decider

    @property
    def phase(self) -> str:
        """``"turn"``, ``"place"``, a module's phase, or ``"over"``."""
        return self.state.phase

    @property
    def is_over(self) -> bool:
        """True once the final scoring is done (R-END-3)."""
        return self.state.phase == "over"

    @property
    def scores(self) -> tuple[int, ...]:
        """Points per seat so far (R-SCORE-6: they never decrease)."""
        return tuple(p.score for p in self.state.players)

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won (several on a shared victory, R-END-4); empty while the game runs."""
        if not self.is_over:
            return ()
        return tuple(self.hook.alhambra_winners(game=self))

    def returns(self) -> tuple[float, ...]:
        """Per seat: the share of the victory (1.0 alone, 1/k in a k-way tie, 0.0 otherwise);
        all zeros while the game runs."""
        w = self.winners
        return tuple((1.0 / len(w)) if s in w else 0.0 for s in range(self.num_players))

    def player(self, seat: int) -> PlayerState:
        """The state of ``seat`` (hand included); :class:`ConfigError` for a seat that is not
        0 … players-1."""
        self._check_seat(seat)
        return self.state.players[seat]

    def _check_seat(self, seat: Any) -> None:
        if type(seat) is not int or not 0 <= seat < len(self.state.players):
            raise ConfigError(f"seat must be an int 0..{len(self.state.players) - 1}, not {seat!r}")

    def invalidate(self) -> None:
        """Forget cached legal actions and every value plugins keep in ``game.memo``. Call it
        after editing ``game.state`` by hand (tests, analysis tools), and in a plugin's own
        action after changing state that is not its own other than through the engine's
        operations (a hut moved out of its stack, a tile taken from a reserve): other plugins
        keep values derived from their state in ``game.memo``. ``apply`` keeps the caches right
        by itself."""
        self._legal = None
        self._legal_set = None
        self._means = {}
        self._buys = {}
        self._reach = [(None, 0)] * len(self.state.players)
        self._wanted = (None, 0)
        self.memo = {}

    # -- actions --------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player to decide now (``current_player``).

        Purchases are listed with every non-dominated payment (no card can be dropped while
        still covering the price); :meth:`apply` also accepts any other legal payment,
        overpaying included. Empty when the game is over. If nothing else is legal on a turn,
        the list is ``[Pass()]`` (R-TURN-9)."""
        if self._legal is None:
            st = self.state
            self._legal = [] if st.phase == "over" or st.decider is None else self._list(st.decider)
        return list(self._legal)

    def _list(self, seat: int) -> list[Action]:
        """The legal actions of ``seat``, who decides now: every kind of the phase, or Pass."""
        out: list[Action] = []
        for legal in self.rules.phase_legal.get(self.state.phase, ()):
            out += legal(self, seat)
        return out or [Pass()]

    def apply(self, action: Action) -> None:
        """Carry out ``action`` for the player to decide now.

        Raises :class:`IllegalActionError` (citing the rule) for an action that is not legal
        now; the game is then exactly as it was."""
        seat = self.state.decider
        if self.state.phase == "over" or seat is None:
            raise IllegalActionError("the game is over (R-END-3): no more actions")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list(seat)
        for a in legal:
            if a is action:  # the engine's own instance, listed just now: nothing to check
                kind = self.rules.kinds.get(type(action))
                break
        else:
            action, kind = match_unlisted(self, action)
        # the kind changes the state and says what comes next; the engine makes the transition
        nxt = ACTION_DONE if kind is None else kind.apply(self, seat, action)  # kind None: Pass (R-TURN-9)
        st = self.state
        if nxt is not None or (st.phase == PLACE and not st.pending):  # else: the same seat again
            advance(self, nxt)
        self.history.append(action)
        self._legal = None
        self._legal_set = None

    def purchases(self, seat: int, *, exact: bool = False) -> list[Buy]:
        """Every non-dominated purchase ``seat`` can make now, over all four market spaces
        (see :meth:`payments`); with ``exact``, only exact payments (R-TURN-4, R-VIZ-2).
        Raises :class:`ConfigError` for a seat that is not an int 0 … players-1."""
        self._check_seat(seat)
        return list(self.cached_purchases(seat, exact))

    def cached_purchases(self, seat: int, exact: bool = False) -> list[Buy]:
        """:meth:`purchases` for rule plugins: ``seat`` is not checked, and the list returned
        is the cached one (do not change it).

        Purchases depend only on the hand (payment means are cards in hand) and the market:
        the last answer per seat is kept with copies of both, so asking again while neither
        changed costs two list comparisons."""
        st = self.state
        hand = st.players[seat].hand
        market = st.market
        exact = exact is True or (exact is not False and bool(exact))  # a look-alike: its truth
        key = seat * 2 + exact
        last = self._buys.get(key)
        if last is not None and last[0] == hand:
            if last[1] == market:
                return last[2]
            keys = last[3]
        else:
            keys = _money_keys(hand)
        means = self._means_of(seat, keys[4]) if self.rules.has_payment_means else None
        if means:
            found = []
            for i in range(4):  # space by space: its own currency, then each means
                found += self._plain_payments(hand, market, keys, exact, i)
                found += self._means_payments(hand, market, keys, means, exact, i)
        else:
            found = self._plain_payments(hand, market, keys, exact)
        self._buys[key] = (hand.copy(), market.copy(), found, keys)
        return found

    def _plain_payments(self, hand, market, keys, exact: bool, only: int | None = None) -> list[Buy]:
        """The purchases paid in each space's own currency (R-TURN-3), for all four spaces at
        once (or for space index ``only``). ``keys``: the hand's ``_money_keys``. Memo:
        ``rules.buy_memo[exact][space index]``, ``(key, price)`` -> the Buy actions."""
        memos = self.rules.buy_memo[exact]
        prices = self.rules.prices
        found: list[Buy] = []
        for i in (range(4) if only is None else (only,)):
            tile = market[i]
            if tile is None:
                continue
            sub = keys[i]
            if not sub:
                continue  # no card of this space's currency
            price = prices[tile]
            memo = memos[i]
            out = memo.get((sub, price))
            if out is None:
                if len(memo) >= self.rules.memo_limit // 4:  # the eight together stay near the limit
                    memo.clear()
                cards = _currency_cards(hand, MARKET_CURRENCIES[i])
                table = action_table(Buy)
                out = memo[sub, price] = [table[i + 1, p] for p in minimal_payments(cards, price, exact=exact)]
            found += out
        return found

    def _means_payments(self, hand, market, keys, means, exact: bool, i: int) -> list[Buy]:
        """The purchases of space index ``i`` through payment ``means`` (R-EXC-4), in their
        order, that the plain ones cannot offer (some card of another currency than the
        space's). Memo entries: ``("via", the means' currencies, their keys,
        price, exact, space index, via)`` -> the Buy actions."""
        tile = market[i]
        if tile is None:
            return []
        cur = MARKET_CURRENCIES[i]
        price = self.rules.prices[tile]
        memo = self.rules.memo
        found: list[Buy] = []
        for m in means:
            curs = m.currencies
            if cur not in curs:
                continue
            key = ("via", curs, _lanes(curs)(keys), price, exact, i, m.via)
            out = memo.get(key)
            if out is None:
                if len(memo) >= self.rules.memo_limit:
                    memo.clear()
                wide = [c for c in hand if type(c) is MoneyCard and c.currency in curs]
                own = {c for c in wide if c.currency == cur}  # a payment of these alone is a plain one
                table = action_table(Buy)
                out = memo[key] = [table[i + 1, cards, m.via] for cards in minimal_payments(wide, price, exact=exact)
                                   if not own.issuperset(cards)]
            found += out
        return found

    def can_pay_exactly(self, seat: int) -> bool:
        """True if ``seat`` can buy some market building with an exact payment now, through
        any payment means (R-TURN-4, R-VIZ-2). A subset-sum over card values, much cheaper
        than listing the payments: the totals the hand can pay exactly in each space's allowed
        currencies, as one bitset with a lane per market space (kept with the hand), against
        the market's prices as one bitset of the same shape (kept with the market).
        Raises :class:`ConfigError` for a seat that is not an int 0 … players-1."""
        self._check_seat(seat)
        return self.first_exact_payer((seat,)) is not None

    def first_exact_payer(self, seats: Iterable[int]) -> int | None:
        """The first of ``seats`` that :meth:`can_pay_exactly`, or None: the vizier's asking
        round (R-VIZ-2, R-VIZ-5) in one call. ``seats`` is read lazily, up to the first that
        can pay. Raises :class:`ConfigError` for a seat that is not an int 0 … players-1, or
        for ``seats`` that are not iterable."""
        try:
            seats = iter(seats)
        except TypeError:
            raise ConfigError(f"seats must be an iterable of seats, not {seats!r}") from None
        st = self.state
        players = st.players
        n = len(players)
        wanted = self._wanted
        market = st.market
        if wanted[0] != market:
            b0, b1, b2, b3 = self.rules.price_lanes
            t0, t1, t2, t3 = market
            wanted = self._wanted = (market.copy(), b0[t0] | b1[t1] | b2[t2] | b3[t3])
        bits = wanted[1]
        reach = self._reach
        for seat in seats:  # lazily: the first that can pay ends the round
            if type(seat) is not int or not 0 <= seat < n:
                self._check_seat(seat)  # raises
            hand = players[seat].hand
            last = reach[seat]
            if last[0] != hand:
                last = reach[seat] = (hand.copy(), self._exact_reach(seat, hand))
            if last[1] & bits:
                return seat
        return None

    def _exact_reach(self, seat: int, hand) -> int:
        """Bit ``price_bits * i + v`` set when ``hand`` can pay exactly v for market space
        index i (0-3), in the space's currency or through a payment means that allows it
        (R-TURN-3, R-EXC-4); totals above every price are left out."""
        keys = _money_keys(hand)
        means = self._means_of(seat, keys[4]) if self.rules.has_payment_means else ()
        width = self.rules.price_bits
        lane = (1 << width) - 2  # totals 1 … width-1: an exact payment needs at least one card (R-TURN-3)
        counted = len(hand) < 16  # the keys count values (see _money_keys): they add up
        wide: dict = {}  # the means' currency sets -> their sums
        out = 0
        for i, cur in enumerate(MARKET_CURRENCIES):
            reach = _reach_of(keys[i]) if counted else _exact_sums(hand, _ONE_CURRENCY[cur])
            for m in means:
                curs = m.currencies
                if cur in curs:
                    more = wide.get(curs)
                    if more is None:
                        if counted:
                            key = _lanes(curs)(keys)
                            more = _reach_of(key if type(key) is int else sum(key))
                        else:
                            more = _exact_sums(hand, curs)
                        wide[curs] = more
                    reach |= more
            out |= (reach & lane) << (width * i)
        return out

    def _means_of(self, seat: int, others: int) -> list | tuple:
        """The payment means plugins offer ``seat`` (``alhambra_payment_means``), asked again
        whenever the seat's hand differs (means are cards in hand, so they depend on it alone).
        ``others``: how many cards of the hand are not money (``_money_keys(hand)[4]``); with
        none, the hand has no means and the plugins are not asked. Raises
        :class:`ConfigError` if a plugin offers a money card as a means."""
        if others == 0:
            return ()
        hand = self.state.players[seat].hand
        cached = self._means.get(seat)
        if cached is None or cached[0] != hand:
            groups = self.rules.fast.alhambra_payment_means(game=self, seat=seat)
            means = [m for group in groups for m in group] if groups else []
            for m in means:
                if type(m.via) is MoneyCard:
                    raise ConfigError(f"alhambra_payment_means offered the money card {m.via} as a payment "
                                      "means; a means is a card that is not money (an exchange office, say)")
            cached = self._means[seat] = (hand.copy(), means)
        return cached[1]

    def payment_cards(self, seat: int, space: int) -> list[tuple[Any, frozenset]]:
        """The ways ``seat`` may pay for market ``space``: ``[(via, currencies), ...]``, first
        the space's own currency with ``via=None`` (R-TURN-3), then module means (R-EXC-4)."""
        cur = MARKET_CURRENCIES[space - 1]
        out = [(None, _ONE_CURRENCY[cur])]
        if self.rules.has_payment_means:
            others = _money_keys(self.state.players[seat].hand)[4]
            out.extend((m.via, m.currencies) for m in self._means_of(seat, others) if cur in m.currencies)
        return out

    def payments(self, seat: int, space: int, *, exact: bool = False, pool: tuple | None = None) -> list[Buy]:
        """Every non-dominated way for ``seat`` to buy the building on ``space`` now, as
        :class:`Buy` actions (only exact payments with ``exact``). Empty if the space is empty.
        The purchases of :meth:`purchases` for this space, in the same order.

        Payments through a module's means (an exchange office) are listed only when they use
        a currency the plain payment could not; ``apply`` still accepts the others. ``pool``
        is ignored (it once passed the hand's cards of the space's currency; the payments are
        now memoised by the hand's money code). Raises :class:`ConfigError` for a bad seat or
        space."""
        st = self.state
        self._check_seat(seat)
        if type(space) is not int or not 1 <= space <= 4:
            raise ConfigError(f"R-COMP-4: market spaces are numbered 1-4, not {space!r}")
        exact = bool(exact)
        hand = st.players[seat].hand
        keys = _money_keys(hand)
        out = list(self._plain_payments(hand, st.market, keys, exact, space - 1))
        means = self._means_of(seat, keys[4]) if self.rules.has_payment_means else None
        if means:
            out += self._means_payments(hand, st.market, keys, means, exact, space - 1)
        return out

    def pay(self, seat: int, action: Buy):
        """Carry out a checked payment: the cards (and any means card, R-EXC-5) go from
        ``seat``'s hand to the discard pile, face up (R-TURN-3), and the building leaves the
        market (not refilled during the turn, R-TURN-4). Returns the building's tile id."""
        st = self.state
        hand = st.players[seat].hand
        for c in action.cards:
            hand.remove(c)
        st.discard.extend(action.cards)
        if action.via is not None:
            hand.remove(action.via)
            st.discard.append(action.via)
        tile = st.market[action.space - 1]
        st.market[action.space - 1] = None
        return tile

    def check_payment(self, seat: int, action: Buy) -> int:
        """Check that ``action`` is a legal payment for ``seat`` now and return the price.

        Raises :class:`IllegalActionError` naming the rule: empty space, card not in hand,
        wrong currency, unknown means, too little money (R-TURN-3, R-EXC-4)."""
        st = self.state
        if not isinstance(action, Action) or not hasattr(action, "space") or not hasattr(action, "cards"):
            raise IllegalActionError(f"{action!r} is not a purchase")
        if type(action.space) is not int or not 1 <= action.space <= 4:
            raise IllegalActionError(f"R-COMP-4: market spaces are numbered 1-4, not {action.space!r}")
        tile = st.market[action.space - 1]
        if tile is None:
            raise IllegalActionError(f"R-TURN-3: market space {action.space} is empty")
        price = self.rules.catalog[tile].price
        hand = st.players[seat].hand
        means = dict(self.payment_cards(seat, action.space))
        if action.via not in means:
            raise IllegalActionError(f"R-EXC-4: {action.via!r} cannot pay for space {action.space}")
        curs = means[action.via]
        if not action.cards:
            raise IllegalActionError("R-TURN-3: a purchase needs at least one money card")
        remaining = list(hand)
        if action.via is not None:
            remaining.remove(action.via)
        for c in action.cards:
            if type(c) is not MoneyCard:
                raise IllegalActionError(f"R-TURN-3: {c!r} is not a money card")
            if c.currency not in curs:
                raise IllegalActionError(
                    f"R-TURN-3: space {action.space} is paid in {MARKET_CURRENCIES[action.space - 1]}, not {c.currency}"
                )
            try:
                remaining.remove(c)
            except ValueError:
                raise IllegalActionError(f"R-TURN-3: {c} is not in the player's hand") from None
        total = sum(c.value for c in action.cards)
        if total < price:
            raise IllegalActionError(f"R-TURN-3: {total} does not cover the price {price} of tile {tile}")
        return price

    # -- views, accounting, saving --------------------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may know, as plain data (``None``: a spectator).

        Contains the market, money display, discard pile (face up), sizes of bag and deck (not
        their order), every Alhambra and reserve, scores, scorings so far, each player's hand
        size, and only ``seat``'s own hand. Modules add their part under ``"modules"``."""
        from .engine.views import build_view

        return build_view(self, seat)

    def determinize(self, seat: int, rng: random.Random | None = None) -> Game:
        """A clone in which everything ``seat`` cannot see is resampled with ``rng`` (other
        hands, deck and bag order, module secrets); ``seat``'s view is unchanged. See
        :func:`alhambra.engine.determinize.determinize`. Raises :class:`ConfigError` if
        ``seat`` is not a seat of this game."""
        return determinize(self, seat, rng)

    def tile_locations(self) -> dict[str, list[Any]]:
        """Every tile of the game by where it is (:func:`alhambra.engine.accounting.tile_locations`)."""
        return accounting.tile_locations(self)

    def card_locations(self) -> dict[str, list[Any]]:
        """Every card of the game by where it is (:func:`alhambra.engine.accounting.card_locations`)."""
        return accounting.card_locations(self)

    def to_json(self) -> str:
        """This game as JSON text: configuration, full state, random-generator state and
        history. :meth:`from_json` restores it so that it continues exactly as this one."""
        from .saving.serialize import game_to_json

        return game_to_json(self)

    @classmethod
    def from_json(cls, text: str | bytes, *, modules: Iterable = (), plugins: Iterable = ()) -> "Game":
        """Load a game saved with :meth:`to_json`. Nothing in the file is executed: modules are
        looked up by name among the installed ones (or in ``modules``, objects you pass); the
        built-ins the save blocked are blocked again; house-rule ``plugins`` the game was
        played with must be passed again (matched by name).
        Raises :class:`~alhambra.errors.SaveFormatError` for a malformed or inconsistent file,
        or when the plugins passed do not match the save's."""
        from .saving.serialize import game_from_json

        return game_from_json(text, cls._blank, modules=modules, plugins=plugins)

    def __repr__(self) -> str:
        return f"<Game {len(self.names)}p modules={list(self.modules)} turn={self.state.turn} phase={self.phase} scores={self.scores}>"
