"""Positions: a whole game position as human-writable data (TOML or JSON), see
``docs/positions.md``.

:func:`game_from_position` (``Game.from_position``) builds a game from one; unspecified
parts are filled in as a real game would have them (the set-up with ``seed``: dealt hands,
a money display of four, the rest of the money cards shuffled into the five piles of R-SET-6
with the scoring cards in piles 2 and 4, the rest of the buildings in the bag, the module
states of the set-up). :func:`game_position` (``Game.position()``) writes one, exactly:
``Game.from_position(game.position())`` continues identically (its random generator's state
is part of what is written).

Each module's part is a top-level table named by its state key (``[vizier]``,
``[bonus_cards]``, ``[building_huts]``, ``[city_gates]``, ``[dirk]``) and goes through the hooks
``alhambra_position_part`` (writing) and ``alhambra_position_read`` (reading); a state whose
plugin implements neither is written and read as in a save.

Every position passes :func:`alhambra.validate.validate_game`; a refusal is a
:class:`~alhambra.errors.ConfigError` naming the place and the problem.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol

from attrs import resolve_types

from ..engine.accounting import card_locations, expected_money, tile_locations
from ..engine.declared import card_places
from ..engine.city import Alhambra
from ..engine.components import FOUNTAIN, SCORING_A, SCORING_B, Card, MoneyCard, ScoringCard
from ..engine.lineage import ORIGIN
from ..engine.sequence import start_turn
from ..engine.ruleset import load_module, module_name, plugin_name
from ..rules.ruleset import get_ruleset
from ..engine.state import MAX_PLAYERS, MIN_PLAYERS, Pending, ScoringRecord, check_player_name, game_seed
from ..errors import AlhambraError, ConfigError, SaveFormatError
from ..rules.setup import choose_start_player, split_piles
from .config import resolve_path_options
from .files import read_limited
from .converter import converter_of
from .validate import check_nesting, validate_game

if TYPE_CHECKING:  # pragma: no cover
    from ..engine.protocol import G, GameLike

FORMAT = "alhambra-position"
VERSION = 1

#: The top-level keys of the core part; any other key is a plugin's part (its state key).
CORE_KEYS = frozenset(
    {
        "format",
        "version",
        "players",
        "modules",
        "options",
        "seed",
        "blocked",
        "plugins",
        "rng",
        "phase",
        "turn_player",
        "decider",
        "start_player",
        "turn",
        "place_context",
        "market",
        "display",
        "deck",
        "pile_sizes",
        "bag",
        "discard",
        "scoring_cards",
        "scorings",
        "out_of_play",
        "pending",
        "distribution",
    }
)
PLAYER_KEYS = frozenset({"name", "hand", "alhambra", "reserve", "score"})
#: The most bytes a position file may hold (one is a few kilobytes); a larger one, or one that
#: never ends, is refused after reading one byte more.
MAX_POSITION_BYTES = 1_000_000
#: the starting money of R-SET-3, for hands a position leaves to the deal
STARTING_MONEY = 20
#: the points column of a scoring record made for a position that gives scores, not records
POSITION_COLUMN = "position"


# ---------------------------------------------------------------------------------------------
# Reading the text
# ---------------------------------------------------------------------------------------------


#: a ``str`` longer than this is never taken for a file name (a position's text is)
_MAX_PATH_TEXT = 4096


def position_source(source: Any) -> Any:
    """``source`` as :func:`read_position` reads it: a path given as text (a ``str`` of one
    line that names an existing file, ``"examples/positions/hole.toml"``) or any
    :class:`os.PathLike` becomes a :class:`pathlib.Path`; everything else is returned as it is
    (TOML or JSON text, a dict). Raises :class:`ConfigError` for one line ending in ``.toml``
    or ``.json`` that names no file (a path with a typo, not TOML text that fails to parse)."""
    if isinstance(source, os.PathLike) and not isinstance(source, Path):
        return Path(os.fspath(source))
    if not isinstance(source, str) or len(source) > _MAX_PATH_TEXT or "\n" in source or "\0" in source:
        return source
    name = source.strip()
    if not name or name.startswith("{"):
        return source
    try:
        if Path(name).is_file():
            return Path(name)
    except (OSError, ValueError):
        return source
    if "=" not in name and name.lower().endswith((".toml", ".json")):
        raise ConfigError(f"{name}: no such position file")
    return source


def read_position(source: Any) -> dict[str, Any]:
    """The plain data of a position: ``source`` is a dict, TOML or JSON text (JSON when it
    starts with ``{``), or a path to a ``.toml`` or ``.json`` file of at most
    :data:`MAX_POSITION_BYTES` (:func:`~alhambra.saving.files.read_limited`): a
    :class:`pathlib.Path`, or a ``str`` of one line that names an existing file
    (:func:`position_source`). Raises :class:`ConfigError` for anything else, unreadable
    text, a file that is missing, larger than that or never ends (``/dev/zero``)."""
    source = position_source(source)
    if isinstance(source, Path):
        try:
            text = read_limited(source, MAX_POSITION_BYTES, "position", ConfigError).decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"{source}: cannot read the position file: {getattr(exc, 'strerror', None) or exc}"
            ) from None
        try:
            return read_position(text)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None
    if isinstance(source, (bytes, bytearray)):
        try:
            source = source.decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigError("a position is UTF-8 text") from None
    if isinstance(source, dict):
        return source
    if not isinstance(source, str):
        raise ConfigError(f"a position is a dict, TOML or JSON text, or a Path, not {type(source).__name__}")
    try:
        if source.lstrip().startswith("{"):
            data = json.loads(source)
        else:
            data = tomllib.loads(source)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"not a position (TOML or JSON): {exc}") from None
    except RecursionError:
        raise ConfigError("not a position: nested too deeply") from None
    if not isinstance(data, dict):
        raise ConfigError("a position is a table (a JSON object)")
    return data


# ---------------------------------------------------------------------------------------------
# Building a game from a position
# ---------------------------------------------------------------------------------------------


def game_from_position(
    source: Any,
    blank: Callable[[Any, list[str], int], G],  # (rules, names, seed): an empty game
    *,
    modules: Iterable[Any] = (),
    plugins: Iterable[Any] = (),
) -> G:
    """Build a game from a position (see :func:`read_position` for ``source`` and
    ``docs/positions.md`` for the format); ``blank(rules, names, seed)`` makes the empty game
    (``Game._blank``). ``modules``: module objects that are not installed
    (matched by ``NAME`` to the position's ``modules``); ``plugins``: house-rule plugins, as
    for ``new_game``. Raises :class:`ConfigError` naming the key and the problem for a
    position that is malformed or that no game can reach."""
    source = position_source(source)  # a path given as text reads the file, relative to it
    data = read_position(source)
    check_nesting(data, "position", error=ConfigError)
    base = source.parent if isinstance(source, Path) else None
    if data.get("format", FORMAT) != FORMAT:
        raise ConfigError(f"format: not a position (expected {FORMAT!r}, not {data.get('format')!r})")
    if data.get("version", VERSION) != VERSION or type(data.get("version", VERSION)) is not int:
        raise ConfigError(f"version: this engine reads positions of version {VERSION}, not {data.get('version')!r}")
    names, seats = _players(data.get("players"))
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ConfigError(f"players: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)} (R-COMP-1)")
    given = {module_name(m): m for m in modules}
    mod_names = _names(data, "modules")
    mods = [given.get(n, n) for n in mod_names]
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ConfigError("options: a table of option values")
    if base is not None:  # a file's options that name files are relative to that file, as in a config
        plugins = list(plugins)
        declaring = [load_module(m) if isinstance(m, str) else m for m in mods] + plugins
        options = resolve_path_options(options, declaring, base)
    seed = data.get("seed", 0)
    if type(seed) is not int:
        raise ConfigError(f"seed: an integer, not {seed!r}")
    seed = game_seed(seed)  # the range every entry point accepts
    rules = get_ruleset(mods, options, plugins=list(plugins), blocked=_names(data, "blocked"))
    unknown = sorted(k for k in data if k not in CORE_KEYS and k not in rules.state_classes)
    if unknown:
        raise ConfigError(
            f"unknown key(s) {unknown}: a position has {sorted(CORE_KEYS)} and the parts of its "
            f"plugins {sorted(rules.state_classes)}"
        )
    game = blank(rules, names, seed)
    rules.hook.alhambra_setup(game=game)  # the set-up a real game would have: defaults for every part
    try:
        _read_core(game, data, seats)
        _read_flow(game, data)
        _read_parts(game, {k: v for k, v in data.items() if k in rules.state_classes})
        _check_one_place(game)
        _check_cities(game)
        _fill_rest(game, data, seats)
        _start_player(game, data)
        if "rng" in data:
            _read_rng(game, data["rng"])
        game._invalidate()
        validate_game(game, names, error=ConfigError)
        game.legal_actions()
        game.view(None)
        game._origin = game_position(game)  # a save of this game replays its history from here
        game._base = ORIGIN  # and so does a failed action (alhambra.engine.lineage)
    except ConfigError:
        raise
    except AlhambraError as exc:
        raise ConfigError(f"inconsistent position: {exc}") from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise ConfigError(f"malformed position: {type(exc).__name__}: {exc}") from None
    return game


def _names(data: dict[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{key}: a list of names, not {value!r}")
    return value


def _players(value: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """``players``: a number, or a list of names or of tables (``name``, ``hand``,
    ``alhambra``, ``reserve``, ``score``)."""
    if type(value) is int:
        if not MIN_PLAYERS <= value <= MAX_PLAYERS:  # before making a name per player
            raise ConfigError(f"players: a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {value} (R-COMP-1)")
        value = [f"Player {i + 1}" for i in range(value)]
    if not isinstance(value, list):
        raise ConfigError(f"players: a number of players or a list of names or tables, not {value!r}")
    names, seats = [], []
    for i, p in enumerate(value):
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, dict):
            raise ConfigError(f"players[{i}]: a name or a table, not {p!r}")
        extra = sorted(set(p) - PLAYER_KEYS)
        if extra:
            raise ConfigError(f"players[{i}]: unknown key(s) {extra} (a player has {sorted(PLAYER_KEYS)})")
        name = p.get("name", f"Player {i + 1}")
        if not isinstance(name, str):
            raise ConfigError(f"players[{i}].name: a string, not {name!r}")
        check_player_name(name, f"players[{i}]")  # what new_game accepts: at most MAX_NAME_LENGTH characters
        names.append(name)
        seats.append(p)
    return names, seats


def _tile(game: "GameLike", value: Any, where: str) -> int | str:
    catalog = game.rules.catalog
    if type(value) is str and value.isdigit():
        value = int(value)
    if type(value) not in (int, str) or value == FOUNTAIN or value not in catalog:
        raise ConfigError(f"{where}: unknown tile {value!r} (buildings 1-54 and the modules' tiles, e.g. huts H1-H24)")
    tile: int | str = value
    return tile


def _tiles(game: "GameLike", value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ConfigError(f"{where}: a list of tiles, not {value!r}")
    return [_tile(game, t, f"{where}[{i}]") for i, t in enumerate(value)]


def _card(game: "GameLike", value: Any, where: str) -> Card:
    found = game.rules.cards.get(value) if isinstance(value, str) else None
    if found is None:
        raise ConfigError(f"{where}: unknown card {value!r} ({card_code_examples(game)})")
    return found


def card_code_examples(game: "GameLike") -> str:
    """The kinds of card codes this game knows, one example of each kind of card its modules
    add: ``"money cards like 'florin-3', 'scoring-A', module cards like 'gate-1', 'diamond-3a'"``."""
    kinds: dict[type, str] = {}
    for code, card in game.rules.cards.items():
        if type(card) not in (MoneyCard, ScoringCard):
            kinds.setdefault(type(card), code)
    text = "money cards like 'florin-3', 'scoring-A'"
    if kinds:
        text += ", module cards like " + ", ".join(repr(c) for c in kinds.values())
    return text


def _cards(game: "GameLike", value: Any, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise ConfigError(f"{where}: a list of card codes, not {value!r}")
    return [_card(game, c, f"{where}[{i}]") for i, c in enumerate(value)]


def parse_grid(text: str) -> dict[tuple[int, int], int | str]:
    """An Alhambra drawn as rows of whitespace-separated cells: ``F`` the fountain (exactly
    once; it is ``(0, 0)``), ``.`` an empty cell, any other token a tile id (``12``, ``H3``).
    Rows run north to south (y grows downwards), cells west to east. Returns
    ``{(x, y): tile}`` without the fountain; :class:`ConfigError` for a grid without exactly
    one fountain."""
    rows = [line.split() for line in text.splitlines() if line.strip()]
    found = [(x, y) for y, row in enumerate(rows) for x, tok in enumerate(row) if tok == "F"]
    if len(found) != 1:
        raise ConfigError(f"an Alhambra grid marks the fountain 'F' exactly once, not {len(found)} times")
    fx, fy = found[0]
    out: dict[tuple[int, int], int | str] = {}
    for y, row in enumerate(rows):
        for x, tok in enumerate(row):
            if tok not in ("F", "."):
                out[(x - fx, y - fy)] = int(tok) if tok.isdigit() else tok
    return out


def render_grid(city: Alhambra) -> str:
    """``city`` as the grid of :func:`parse_grid`, the columns aligned."""
    tiles = city.tiles
    xs = [p[0] for p in tiles]
    ys = [p[1] for p in tiles]
    width = max(len(str(t)) for t in tiles.values())
    rows = []
    for y in range(min(ys), max(ys) + 1):
        cells = []
        for x in range(min(xs), max(xs) + 1):
            t = tiles.get((x, y))
            cells.append(("." if t is None else "F" if t == FOUNTAIN else str(t)).rjust(width))
        rows.append(" ".join(cells))
    return "\n".join(rows) + "\n"


def _city(game: "GameLike", value: Any, where: str) -> Alhambra:
    """The Alhambra ``value`` (a grid or a list of ``[x, y, tile]``), its tiles checked but
    not yet the placement rules as a whole: a plugin's part may still open sides of it (a
    city gate, R-GATE-6), so :func:`_check_cities` judges it once every part is read."""
    if isinstance(value, str):
        layout = parse_grid(value)
    elif isinstance(value, list):
        layout = {}
        for i, e in enumerate(value):
            if not isinstance(e, list) or len(e) != 3 or type(e[0]) is not int or type(e[1]) is not int:
                raise ConfigError(f"{where}[{i}]: a tile of an Alhambra is [x, y, tile], not {e!r}")
            if (e[0], e[1]) in layout:
                raise ConfigError(f"{where}[{i}]: two tiles at ({e[0]}, {e[1]})")
            layout[(e[0], e[1])] = e[2]
    else:
        raise ConfigError(f"{where}: an Alhambra is a grid (text) or a list of [x, y, tile], not {value!r}")
    layout = {pos: _tile(game, t, f"{where} at {pos}") for pos, t in layout.items() if t != FOUNTAIN}
    try:
        return Alhambra.from_tiles(
            layout,
            catalog=game.rules.catalog,
            holes=game.rules.options.get("holes", "cell"),
            rules=game.rules.placement_rules,
            check=False,
        )
    except AlhambraError as exc:
        raise ConfigError(f"{where}: {exc}") from None


def _check_cities(game: "GameLike") -> None:
    """Every Alhambra satisfies the placement rules as a whole (R-PLACE-2 … R-PLACE-6), with
    the sides the plugins' parts opened (city gates); :class:`ConfigError` naming the seat."""
    for i, p in enumerate(game.state.players):
        problem = p.city.why_invalid()
        if problem:
            raise ConfigError(f"players[{i}].alhambra: {problem}")


def _read_core(game: "GameLike", data: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """The core places the position names; the places it leaves open are emptied here and
    filled by :func:`_fill_rest` once the plugins have taken their parts."""
    st = game.state
    for i, (p, seat) in enumerate(zip(st.players, seats)):
        where = f"players[{i}]"
        p.city = (
            _city(game, seat["alhambra"], f"{where}.alhambra")
            if "alhambra" in seat
            else Alhambra(game.rules.catalog, game.rules.options.get("holes", "cell"), rules=game.rules.placement_rules)
        )
        p.reserve = _tiles(game, seat.get("reserve", []), f"{where}.reserve")
        p.hand = _cards(game, seat["hand"], f"{where}.hand") if "hand" in seat else []
        score = seat.get("score", 0)
        if type(score) is not int or score < 0:
            raise ConfigError(f"{where}.score: points are an integer >= 0, not {score!r}")
        p.score = score
    if "market" in data:
        market = data["market"]
        if not isinstance(market, list) or len(market) != 4:
            raise ConfigError(f"market: four spaces (0 for an empty one), not {market!r}")
        st.market = [None if t in (0, None) else _tile(game, t, f"market[{i}]") for i, t in enumerate(market)]
    else:
        st.market = [None] * 4
    bag = data.get("bag", "rest")
    st.bag = [] if bag == "rest" else _tiles(game, bag, "bag")[::-1]  # written next drawn first
    st.out_of_play = _tiles(game, data.get("out_of_play", []), "out_of_play")
    st.pending = []
    for i, e in enumerate(data.get("pending", [])):
        if isinstance(e, dict):
            if set(e) - {"tile", "dirk_ok"} or type(e.get("dirk_ok", False)) is not bool:
                raise ConfigError(f"pending[{i}]: a tile, or a table with 'tile' and 'dirk_ok' (true/false), not {e!r}")
            st.pending.append(Pending(_tile(game, e.get("tile"), f"pending[{i}].tile"), e.get("dirk_ok", False)))
        else:
            st.pending.append(Pending(_tile(game, e, f"pending[{i}]"), None))  # type: ignore[arg-type]
    dist = data.get("distribution", [])
    if not isinstance(dist, list):
        raise ConfigError("distribution: a list of [seat, [tile, ...]]")
    st.distribution = []
    for i, e in enumerate(dist):
        if not isinstance(e, list) or len(e) != 2:
            raise ConfigError(f"distribution[{i}]: [seat, [tile, ...]], not {e!r}")
        st.distribution.append([e[0], _tiles(game, e[1], f"distribution[{i}][1]")])
    st.display = _cards(game, data["display"], "display") if "display" in data else []
    st.discard = _cards(game, data.get("discard", []), "discard")
    deck = data.get("deck", "shuffled")
    st.deck = [] if deck == "shuffled" else _cards(game, deck, "deck")[::-1]  # written top card first
    if "pile_sizes" in data:
        if deck == "shuffled":
            raise ConfigError(
                "pile_sizes: only with a deck listed card by card (a shuffled deck is stacked in "
                "the five piles of R-SET-6)"
            )
        sizes = data["pile_sizes"]
        if not isinstance(sizes, list) or not all(type(n) is int and n >= 0 for n in sizes):
            raise ConfigError(f"pile_sizes: a list of pile sizes, top pile first, not {sizes!r}")
        st.pile_sizes = list(sizes)
    else:
        st.pile_sizes = []
    st.scoring_cards = _cards(game, data["scoring_cards"], "scoring_cards") if "scoring_cards" in data else []
    st.scorings = []


def _read_parts(game: "GameLike", parts: dict[str, Any]) -> None:
    """Every plugin takes its part (``alhambra_position_read``; a part no plugin reads is
    structured as in a save); a plugin without a part keeps its set-up state, adjusted to
    what the position placed."""
    read: set[str] = set()
    for keys in game.rules.hook.alhambra_position_read(game=game, parts=parts):
        read.update(keys or ())
    conv = converter_of(game.rules)
    for key, part in parts.items():
        if key in read:
            continue
        cls = game.rules.state_classes[key]
        resolve_types(cls)
        try:
            game.state.modules[key] = conv.structure(part, cls)
        except Exception as exc:
            raise ConfigError(f"{key}: this part does not fit {cls.__name__}: {exc}") from None


def _check_one_place(game: "GameLike") -> None:
    """Every card but money placed once at most (:func:`~alhambra.card_places`); the refusal
    names the second place: ``"city_gates.played: gate-1 lies in two places, players[0].hand
    and city_gates.played (one card, one place)"``."""
    for card, at in card_places(game).items():
        if len(at) > 1 and not card.is_money:
            raise ConfigError(f"{at[1]}: {card.code} lies in two places, {' and '.join(at)} (one card, one place)")


def _fill_rest(game: "GameLike", data: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """What the position left open, as a real game has it: the bag (every building not
    placed, shuffled), the market (from the bag), the hands (dealt to 20, R-SET-3), the
    display (four cards), the deck (the rest, in the five piles of R-SET-6 with the scoring
    and module cards shuffled into theirs), the scoring cards set aside."""
    st, rng = game.state, game._rng
    if data.get("bag", "rest") == "rest":
        placed = Counter(t for where, tiles in tile_locations(game).items() for t in tiles)
        st.bag = [b for b in range(1, 55) if b not in placed]
        rng.shuffle(st.bag)
    if "market" not in data:
        for i in range(4):
            if st.bag:
                st.market[i] = st.bag.pop()
    scorings = data.get("scorings", [])
    done = [s if type(s) is int else s.get("number") if isinstance(s, dict) else None for s in scorings]
    if "scoring_cards" not in data:
        st.scoring_cards = [c for c, k in ((SCORING_A, 1), (SCORING_B, 2)) if k in done]
    pool = expected_money(game)
    for where, cards in card_locations(game).items():
        for c in cards:
            if c.is_money:  # the base money and the modules' (diamonds, R-DIA-2)
                pool[c] -= 1
                if pool[c] < 0:
                    raise ConfigError(f"{where}: more {c.code} cards than the game has ({expected_money(game)[c]})")
    money = sorted(pool.elements(), key=lambda c: (c.currency, c.value, c.code))
    rng.shuffle(money)
    for i, seat in enumerate(seats):
        if "hand" not in seat:
            hand = st.players[i].hand
            while money and sum(c.value for c in hand if c.is_money) < STARTING_MONEY:  # type: ignore[attr-defined]  # money has a value
                hand.append(money.pop())
    if "display" not in data and st.phase != "over":
        st.display = [money.pop() for _ in range(min(4, len(money)))]
    located = {c for cards in card_locations(game).values() for c in cards}
    if data.get("deck", "shuffled") == "shuffled":
        piles = split_piles(money)
        game.rules.hook.alhambra_money_piles(game=game, piles=piles)  # scoring cards into 2 and 4, module cards
        piles = [[c for c in pile if c.is_money or c not in located] for pile in piles]
        st.deck = [c for pile in piles for c in pile][::-1]
        st.pile_sizes = [len(pile) for pile in piles]
    elif money:
        left = Counter(money)
        raise ConfigError(
            f"deck: money cards {sorted(c.code for c in left.elements())} are nowhere (list them in "
            'the deck or the discard pile, or write deck = "shuffled")'
        )
    _read_scorings(game, scorings, seats)


def _read_scorings(game: "GameLike", scorings: Any, seats: list[dict[str, Any]]) -> None:
    """``scorings``: records as written by :func:`game_position`, or the numbers of the
    scorings done (then one record made for the position holds each seat's ``score``, and
    Dirk's, as a column of points)."""
    st = game.state
    if not isinstance(scorings, list):
        raise ConfigError(f"scorings: a list of scoring numbers or records, not {scorings!r}")
    if all(type(s) is int for s in scorings):
        n = game.num_players
        dirk = st.modules.get("dirk")
        who = list(range(n)) + ([n] if dirk is not None else [])
        points = [p.score for p in st.players] + ([dirk.score] if dirk is not None else [])
        for j, number in enumerate(scorings):
            last = j == len(scorings) - 1
            k = len(who)
            st.scorings.append(
                ScoringRecord(
                    number,
                    list(who),
                    [{} for _ in who],
                    [{} for _ in who],
                    [0] * k,
                    {POSITION_COLUMN: list(points) if last else [0] * k},
                )
            )
        return
    conv = converter_of(game.rules)
    resolve_types(ScoringRecord)
    for j, s in enumerate(scorings):
        try:
            st.scorings.append(conv.structure(s, ScoringRecord))
        except Exception as exc:
            raise ConfigError(
                f"scorings[{j}]: not a scoring record (number, participants, counts, majority, "
                f"walls, extra) or a scoring number: {exc}"
            ) from None


def _read_flow(game: "GameLike", data: dict[str, Any]) -> None:
    """Phase, seats deciding, turn number, placement context (defaults: a turn of the start
    player; the start player by R-SET-4 over the hands)."""
    st = game.state
    for key in ("turn_player", "decider", "start_player", "turn"):
        if key in data and type(data[key]) is not int:
            raise ConfigError(f"{key}: an integer, not {data[key]!r}")
    phase = data.get("phase", "turn")
    if not isinstance(phase, str):
        raise ConfigError(f"phase: a name ('turn', 'place', a module's phase, 'over'), not {phase!r}")
    st.phase = phase
    st.start_player = data.get("start_player", data.get("turn_player", 0))
    st.turn_player = data.get("turn_player", st.start_player)
    st.turn = data.get("turn", 1)
    context = data.get("place_context", "turn" if phase == "place" else "")
    if not isinstance(context, str):
        raise ConfigError(f"place_context: a name, not {context!r}")
    st.place_context = context
    for p in st.pending:
        if p.dirk_ok is None:  # a bare tile: bought this turn (R-TWO-5) unless received at the end
            p.dirk_ok = context != "distribution" and game.num_players == 2
    if phase == "over":
        st.decider = None
        if "decider" in data:
            raise ConfigError("decider: nobody decides once the game is over")
    elif "decider" in data:
        st.decider = data["decider"]
    elif phase == "turn" or (phase == "place" and context == "turn"):
        st.decider = st.turn_player
    else:
        st.decider = None  # a module's phase: its part names who is asked (the vizier's "asked")


def _start_player(game: "GameLike", data: dict[str, Any]) -> None:
    """Defaults that need the whole position: the start player by R-SET-4 over the hands
    (when neither ``start_player`` nor ``turn_player`` is given, the turn player too), and a
    decider for every phase but ``"over"``."""
    st = game.state
    if "start_player" not in data and "turn_player" not in data:
        money = [[c for c in p.hand if c.is_money] for p in st.players]  # a gate card is no money (R-GATE-8)
        st.start_player = choose_start_player(money, game.rules.options["start_player"], game._rng)
        st.turn_player = st.start_player
        if st.phase == "turn" or (st.phase == "place" and st.place_context == "turn"):
            st.decider = st.turn_player
    if st.decider is None and st.phase != "over" and st.phase in game.rules.phases:  # others: the validator says
        raise ConfigError(
            f"decider: name the seat that decides in phase {st.phase!r}"
            f"{f' (context {st.place_context!r})' if st.phase == 'place' else ''}"
        )


def _read_rng(game: "GameLike", value: Any) -> None:
    internal = value.get("state") if isinstance(value, dict) else None
    if (
        not isinstance(internal, list)
        or len(internal) != 625
        or not all(type(x) is int and 0 <= x < 2**32 for x in internal)
        or not any(internal[:624])
    ):
        raise ConfigError(
            "rng: the random generator's state as written by Game.position() "
            "({state = [625 integers]}); leave it out to continue from the seed"
        )
    game._rng.setstate((3, tuple(internal), None))


# ---------------------------------------------------------------------------------------------
# Writing a position
# ---------------------------------------------------------------------------------------------


def game_position(game: "GameLike") -> dict[str, Any]:
    """The position of ``game`` as plain data (TOML- and JSON-writable: no nulls), every part
    written out, the random generator's state included; see ``docs/positions.md``."""
    st = game.state
    conv = converter_of(game.rules)
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    out["players"] = [
        {
            "name": p.name,
            "hand": [c.code for c in p.hand],
            "alhambra": render_grid(p.city),
            "reserve": list(p.reserve),
            "score": p.score,
        }
        for p in st.players
    ]
    out["modules"] = list(game.rules.modules)
    # TOML has no null: None is "not set"; a tuple (a default such as "diamonds.values") is an array
    options = {k: _toml_ready(v) for k, v in game.rules.options.items() if v is not None}
    if options:
        out["options"] = options
    out["seed"] = game.seed
    if game.rules.blocked:
        out["blocked"] = list(game.rules.blocked)
    if game.rules.plugins:
        out["plugins"] = [plugin_name(p) for p in game.rules.plugins]
    out["phase"] = st.phase
    out["turn_player"] = st.turn_player
    if st.decider is not None:
        out["decider"] = st.decider
    out["start_player"] = st.start_player
    out["turn"] = st.turn
    if st.place_context:
        out["place_context"] = st.place_context
    out["market"] = [0 if t is None else t for t in st.market]
    out["display"] = [c.code for c in st.display]
    out["deck"] = [c.code for c in reversed(st.deck)]
    out["pile_sizes"] = list(st.pile_sizes)
    out["bag"] = list(reversed(st.bag))
    out["discard"] = [c.code for c in st.discard]
    out["scoring_cards"] = [c.code for c in st.scoring_cards]
    resolve_types(ScoringRecord)
    out["scorings"] = [conv.unstructure(r, unstructure_as=ScoringRecord) for r in st.scorings]
    out["out_of_play"] = list(st.out_of_play)
    out["pending"] = [{"tile": p.tile, "dirk_ok": p.dirk_ok} for p in st.pending]
    out["distribution"] = [[s, list(t)] for s, t in st.distribution]
    parts: dict[str, Any] = {}
    for group in game.rules.hook.alhambra_position_part(game=game):
        parts.update(group or {})
    for key, value in st.modules.items():
        if key not in parts:
            parts[key] = conv.unstructure(value, unstructure_as=type(value))
    out.update(parts)
    version, internal, _gauss = game._rng.getstate()
    out["rng"] = {"state": list(internal)}
    return out


def position_to_toml(game: "GameLike") -> str:
    """:func:`game_position` as TOML text (``tomli_w``)."""
    import tomli_w

    return tomli_w.dumps(_toml_ready(game_position(game)), multiline_strings=True)


def position_to_json(game: "GameLike") -> str:
    """:func:`game_position` as JSON text."""
    return json.dumps(game_position(game), indent=1)


def _toml_ready(data: Any) -> Any:
    """TOML keys are strings and tuples are arrays: turn what cattrs gives into that."""
    if isinstance(data, dict):
        return {str(k): _toml_ready(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_toml_ready(v) for v in data]
    return data


__all__ = [
    "game_from_position",
    "game_position",
    "parse_grid",
    "position_to_json",
    "position_to_toml",
    "read_position",
    "render_grid",
]


class _Started(Protocol):
    _origin: dict[str, Any] | None


def start_position(game: _Started) -> dict[str, Any] | None:
    """Where ``game``'s history starts: ``None`` for the set-up of its seed (``new_game``),
    else the position it was built from (``Game.from_position``), as :func:`game_position`
    writes it; a save records it as its ``start_position``."""
    return game._origin


def start_of(
    game: GameLike,
    blank: Callable[[Any, list[str], int], G],  # (rules, names, seed): an empty game
    *,
    modules: Iterable[Any] = (),
    plugins: Iterable[Any] = (),
) -> G:
    """A new game at the point where ``game``'s history starts: the set-up of its
    configuration and seed, or its start position (``game.origin``), read with the same rule
    set. :class:`SaveFormatError` if that position is not one (``start_position: ...``) or
    belongs to another configuration."""
    if game._origin is None:
        fresh = blank(game.rules, list(game._names), game.seed)
        game.rules.hook.alhambra_setup(game=fresh)
        start_turn(fresh, fresh.state.start_player)
        return fresh
    try:
        fresh = game_from_position(game._origin, blank, modules=modules, plugins=plugins)
    except ConfigError as exc:
        raise SaveFormatError(f"start_position: {exc}") from None
    if fresh.config != game.config:
        raise SaveFormatError(
            f"start_position: its configuration {fresh.config} is not the save's {game.config} "
            "(players, modules, seed, options, blocked and plugins)"
        )
    return fresh
