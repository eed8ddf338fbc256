"""The compiled rules kernel as the engine's second backend.

``alhambra_kernel`` is a Rust crate (``kernel/`` in the repository, built by maturin into an
extension) that plays the built-in rule book exactly as the Python engine does: the same seed
deals, shuffles and draws the same way, the same actions are legal in the same order, and a
kernel game saves to the same JSON. This module is the bridge: which configurations the kernel
plays (:func:`kernel_reason`), actions as the kernel's integer codes and back
(:func:`action_of`, :func:`code_of`), and states in both directions (:func:`state_of`,
:func:`load`). :class:`alhambra.game.KernelGame` is the ``Game`` built on it.

The kernel is optional: without it (no Rust toolchain when the package was installed)
``alhambra_kernel`` is missing, :data:`native` is ``None`` and every game runs on Python.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .engine.actions import (
    Action,
    BuildFromReserve,
    Buy,
    GiveToDirk,
    Pass,
    Place,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
    action_table,
)
from .engine.components import CURRENCIES, MARKET_CURRENCIES, MoneyCard
from .engine.city import Alhambra
from .engine.state import GameState, Pending, PlayerState, ScoringRecord
from .errors import ConfigError
from .saving.serialize import converter_of

if TYPE_CHECKING:  # pragma: no cover
    from .engine.ruleset import Ruleset

native: Any
try:  # the extension built from kernel/ (pip install ./kernel)
    import alhambra_kernel as native
except ImportError:  # pragma: no cover - a machine without the kernel
    native = None

#: The values of the ``engine`` keyword (``new_game``, ``replay``, ``Game.from_json``, ...).
ENGINES = ("auto", "python", "kernel")
#: The options the kernel plays, with the values it knows.
KERNEL_OPTIONS = {"holes": ("cell", "region"), "tiebreak": ("shared", "money"), "start_player": ("seat", "random")}


def kernel_reason(rules: Ruleset) -> str | None:
    """Why the kernel cannot play the rule set ``rules`` (a sentence naming the plugin or
    option), or ``None`` when it can: it plays the built-in rules of the base game with their
    options, and nothing else."""
    if native is None:
        return "the rules kernel (alhambra_kernel) is not installed: pip install ./kernel"
    if rules.modules:
        return f"the rules kernel plays the base game only, not the module {rules.modules[0]!r}"
    if rules.plugins:
        from .engine.ruleset import plugin_name

        return f"the rules kernel plays the built-in rules only, not the plugin {plugin_name(rules.plugins[0])!r}"
    if rules.blocked:
        return f"the rules kernel plays the built-in rules only; {rules.blocked[0]!r} is blocked"
    for name, value in rules.options.items():
        if value not in KERNEL_OPTIONS.get(name, ()):
            return f"the rules kernel does not play the option {name} = {value!r}"
    return None


def use_kernel(engine: Any, rules: Ruleset) -> bool:
    """Whether a game of ``rules`` runs on the kernel for ``engine`` (``"auto"``: when it can;
    ``"kernel"``: it must, else :class:`ConfigError` saying why; ``"python"``: never)."""
    if engine == "python":
        return False
    if engine not in ENGINES:
        raise ConfigError(f"engine must be one of {', '.join(repr(e) for e in ENGINES)}, not {engine!r}")
    reason = kernel_reason(rules)
    if engine == "kernel" and reason is not None:
        raise ConfigError(f'engine="kernel": {reason}')
    return reason is None


def add_engine_flag(parser: Any) -> None:
    """``--engine`` of ``simulate``, ``compare`` and ``tournament``."""
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="auto",
        help="which engine plays: the compiled rules kernel when it is installed and plays the configuration "
        "(auto, the default), or always python, or always kernel (an error where it cannot); the same games either way",
    )


def new_native(rules: Ruleset, players: int, seed: int) -> Any:
    """A kernel game set up from ``seed`` with ``rules``' options."""
    o = rules.options
    return native.KernelGame(
        players, seed, o.get("holes", "cell"), o.get("tiebreak", "shared"), o.get("start_player", "seat")
    )


# -- actions as codes ----------------------------------------------------------------------------
# A code holds the action's kind in its top byte: 1 TakeMoney (up to four cards, one byte each,
# the card's number + 1), 2 Buy (space in bits 48-55, per value 1-9 four bits counting its cards),
# 3 BuildFromReserve, 5 Swap, 6 Place (tile in bits 16-23, cell below), 4 RemoveToReserve (cell),
# 7 Reserve, 8 GiveToDirk (tile), 9 Pass. A cell is (x + 128) << 8 | (y + 128); a money card's
# number is 9 * (its currency's index in CURRENCIES) + value - 1.

_MONEY = [MoneyCard(cur, v) for cur in CURRENCIES for v in range(1, 10)]
_NUMBER = {card: i for i, card in enumerate(_MONEY)}
_ACTIONS: dict[int, Action] = {}


def _pos(cell: int) -> tuple[int, int]:
    return ((cell >> 8) - 128, (cell & 255) - 128)


def _cell(pos: Any) -> int | None:
    try:
        x, y = pos
    except (TypeError, ValueError):
        return None
    if type(x) is not int or type(y) is not int or not (-120 <= x <= 120 and -120 <= y <= 120):
        return None
    return (x + 128) << 8 | (y + 128)


def _decode(code: int) -> Action:
    kind = code >> 56
    tile, cell = (code >> 16) & 255, code & 0xFFFF
    if kind == 1:
        cards = []
        for k in range(4):
            c = (code >> (8 * k)) & 255
            if not c:
                break
            cards.append(_MONEY[c - 1])
        return action_table(TakeMoney)[(tuple(cards),)]
    if kind == 2:
        space = (code >> 48) & 255
        cur = MARKET_CURRENCIES[space - 1]
        cards = [MoneyCard(cur, v + 1) for v in range(9) for _ in range((code >> (4 * v)) & 15)]
        return action_table(Buy)[(space, tuple(cards))]
    if kind in (3, 5, 6):
        cls = {3: BuildFromReserve, 5: Swap, 6: Place}[kind]
        return action_table(cls)[(tile, _pos(cell))]
    if kind == 4:
        return action_table(RemoveToReserve)[(_pos(cell),)]
    if kind == 7:
        return action_table(Reserve)[(code & 255,)]
    if kind == 8:
        return action_table(GiveToDirk)[(code & 255,)]
    if kind == 9:
        return Pass()
    raise ConfigError(f"the rules kernel listed an action of unknown kind {kind}")  # pragma: no cover


def action_of(code: int) -> Action:
    """The action of a kernel code (one shared instance per code)."""
    found = _ACTIONS.get(code)
    if found is None:
        found = _decode(code)
        if len(_ACTIONS) < 200_000:
            _ACTIONS[code] = found
    return found


def actions_of(codes: list[int]) -> list[Action]:
    """The actions of kernel codes (:func:`action_of` of each)."""
    get = _ACTIONS.get
    return [get(c) or action_of(c) for c in codes]


def _tile(t: Any) -> int | None:
    return t if type(t) is int and 1 <= t <= 54 else None


def code_of(action: Any) -> int | None:
    """The kernel code of ``action``, or ``None`` for an action the kernel has no code for
    (not an action of the base game, or malformed: certainly not legal on the kernel)."""
    cls = type(action)
    if cls is TakeMoney:
        cards = action.cards
        if not 1 <= len(cards) <= 4 or any(type(c) is not MoneyCard for c in cards):
            return None
        code = 1 << 56
        for k, c in enumerate(cards):
            code |= (_NUMBER[c] + 1) << (8 * k)
        return code
    if cls is Buy:
        space, cards = action.space, action.cards
        if action.via is not None or type(space) is not int or not 1 <= space <= 4:
            return None
        counts = [0] * 9
        for c in cards:
            if type(c) is not MoneyCard or c.currency != MARKET_CURRENCIES[space - 1]:
                return None
            counts[c.value - 1] += 1
        if max(counts) > 15:
            return None
        code = 2 << 56 | space << 48
        for v, k in enumerate(counts):
            code |= k << (4 * v)
        return code
    if cls in (BuildFromReserve, Swap, Place):
        tile, cell = _tile(action.tile), _cell(action.pos)
        if tile is None or cell is None:
            return None
        return {BuildFromReserve: 3, Swap: 5, Place: 6}[cls] << 56 | tile << 16 | cell
    if cls is RemoveToReserve:
        cell = _cell(action.pos)
        return None if cell is None else 4 << 56 | cell
    if cls in (Reserve, GiveToDirk):
        tile = _tile(action.tile)
        return None if tile is None else (7 if cls is Reserve else 8) << 56 | tile
    if cls is Pass:
        return 9 << 56
    return None


# -- states ----------------------------------------------------------------------------------------


def state_of(k: Any, rules: Ruleset, names: tuple[str, ...]) -> GameState:
    """The Python engine's :class:`GameState` of kernel game ``k``: the state object of the
    save's format (``state_json``) built directly, without the checks a loaded save passes
    (the kernel's states are the rules' own)."""
    d = json.loads(k.state_json())
    cards = rules.cards
    holes = rules.options.get("holes", "cell")

    def city(entries: list[list[int]]) -> Alhambra:
        tiles = {(x, y): t for x, y, t in entries}
        return Alhambra.from_tiles(tiles, catalog=rules.catalog, holes=holes, check=False, rules=rules.placement_rules)

    players = [
        PlayerState(name, [cards[c] for c in p["hand"]], city(p["city"]), p["reserve"], p["score"])
        for name, p in zip(names, d["players"])
    ]
    modules = {key: rules.state_classes[key](**value) for key, value in d["modules"].items()}
    return GameState(
        players=players,
        bag=d["bag"],
        market=d["market"],
        deck=[cards[c] for c in d["deck"]],
        discard=[cards[c] for c in d["discard"]],
        display=[cards[c] for c in d["display"]],
        start_player=d["start_player"],
        turn_player=d["turn_player"],
        decider=d["decider"],
        phase=d["phase"],
        turn=d["turn"],
        pending=[Pending(p["tile"], p["dirk_ok"]) for p in d["pending"]],
        place_context=d["place_context"],
        pending_scorings=d["pending_scorings"],
        scoring_cards=[cards[c] for c in d["scoring_cards"]],
        scorings=[ScoringRecord(**r) for r in d["scorings"]],
        distribution=d["distribution"],
        out_of_play=d["out_of_play"],
        modules=modules,
        pile_sizes=d["pile_sizes"],
    )


def load(state: GameState, rng_state: tuple[Any, ...], passes: int, rules: Ruleset) -> Any:
    """A kernel game in ``state``, with the generator state ``rng_state``
    (``random.Random.getstate()``) and ``passes`` passes in a row at the end of its history."""
    data = converter_of(rules).unstructure(state, unstructure_as=GameState)
    words = list(rng_state[1])
    o = rules.options
    try:
        return native.KernelGame.load(
            data,
            words[:624],
            words[624],
            passes,
            o.get("holes", "cell"),
            o.get("tiebreak", "shared"),
            o.get("start_player", "seat"),
        )
    except ValueError as exc:
        raise ConfigError(f"the rules kernel cannot hold this game: {exc}") from None
