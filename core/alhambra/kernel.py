"""The compiled rules kernel as the engine's second backend.

``alhambra_kernel`` is a Rust crate (``kernel/`` in the repository, built by maturin into an
extension) that plays the built-in rule book exactly as the Python engine does: the same seed
deals, shuffles and draws the same way, the same actions are legal in the same order, and a
kernel game saves to the same JSON. This module is the bridge: which configurations the kernel
plays (:func:`kernel_reason`), actions as the kernel's integer codes and back
(:func:`action_of`, :func:`code_of`), and states in both directions (:func:`state_of`,
:func:`load`). :class:`alhambra.game.KernelGame` is the ``Game`` built on it.

The kernel is optional: without it (no Rust toolchain when the package was installed)
``alhambra_kernel`` is missing, ``native`` is ``None`` and every game runs on Python.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from attrs import fields, has

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
from .saving.serialize import action_from_data, action_to_data, converter_of

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


#: The modules the kernel plays, with their bits in the kernel's module set (its own table,
#: ``MODULE_NAMES`` in kernel/core/src/game.rs; empty without the kernel).
KERNEL_MODULES: dict[str, int] = dict(getattr(native, "MODULES", ()))
#: The kernel's phases by number (``Phase`` in kernel/core/src/game.rs).
KERNEL_PHASES: tuple[str, ...] = tuple(getattr(native, "PHASES", ()))
#: The module option ``diamonds.values`` (R-DIA-1): the kernel plays any list the module
#: accepts with at most this many diamonds of one value (the copies its cards tell apart).
DIAMOND_VALUES = "diamonds.values"
DIAMOND_COPIES = 6
#: The module option ``city_gates.cards`` (R-GATE-1): the kernel plays the default (``None``,
#: one per player) and any number the module accepts, 1-6.
GATE_CARDS = "city_gates.cards"
#: The module option ``building_huts.layout`` (R-HUT-1): the kernel plays any layout the module
#: accepts (the rule set's tile catalogue holds its huts, which the kernel is given).
HUT_LAYOUT = "building_huts.layout"


def module_bits(rules: Ruleset) -> int:
    """The kernel's module set of ``rules`` (its modules must be among :data:`KERNEL_MODULES`)."""
    bits = 0
    for name in rules.modules:
        bits |= KERNEL_MODULES[name]
    return bits


def kernel_reason(rules: Ruleset) -> str | None:
    """Why the kernel cannot play the rule set ``rules`` (a sentence naming the module, plugin
    or option), or ``None`` when it can: it plays the built-in rules of the base game with their
    options and the modules of :data:`KERNEL_MODULES`, and nothing else."""
    if native is None:
        return "the rules kernel (alhambra_kernel) is not installed: pip install ./kernel"
    if rules.modules and not hasattr(native, "MODULES"):
        return "the installed rules kernel (alhambra_kernel) is older than this package: reinstall it (pip install ./kernel)"
    for name in rules.modules:
        if name not in KERNEL_MODULES:
            plays = ", ".join(repr(m) for m in KERNEL_MODULES)
            return f"the rules kernel plays the base game and the modules {plays}, not the module {name!r}"
    if rules.plugins:
        from .engine.ruleset import plugin_name

        return f"the rules kernel plays the built-in rules only, not the plugin {plugin_name(rules.plugins[0])!r}"
    if rules.blocked:
        return f"the rules kernel plays the built-in rules only; {rules.blocked[0]!r} is blocked"
    for name, value in rules.options.items():
        if name == DIAMOND_VALUES:
            values = list(value) if isinstance(value, (list, tuple)) else []
            if not values or max(values.count(v) for v in values) > DIAMOND_COPIES:
                return (
                    f"the rules kernel does not play the option {name} = {list(value)!r}: "
                    f"at most {DIAMOND_COPIES} diamonds of one value"
                )
        elif name == GATE_CARDS:
            if value is not None and (type(value) is not int or not 1 <= value <= 6):
                return f"the rules kernel does not play the option {name} = {value!r}"
        elif name == HUT_LAYOUT:
            continue  # checked by the module (its layout is in the catalogue)
        elif value not in KERNEL_OPTIONS.get(name, ()):
            return f"the rules kernel does not play the option {name} = {value!r}"
    return None


def _diamond_values(rules: Ruleset) -> list[int] | None:
    """The kernel's ``diamonds`` argument: the option's values (``None`` without the module)."""
    value = rules.options.get(DIAMOND_VALUES)
    return None if value is None else list(value)


#: per rule set (kept alive by its entry, so its id is not reused): its huts as the kernel takes
#: them, and their ids
_HUTS: dict[int, tuple[Any, list[tuple[str, int, int]] | None, tuple[str, ...]]] = {}


def _huts(rules: Ruleset) -> tuple[list[tuple[str, int, int]] | None, tuple[str, ...]]:
    """The kernel's ``huts`` argument of ``rules`` (R-HUT-1: per hut of its tile catalogue, in
    catalogue order, its id, building type as an index and wall mask; ``None`` without the
    building huts) and the huts' ids (empty without the module)."""
    found = _HUTS.get(id(rules))
    if found is None or found[0] is not rules:
        from .engine.components import BUILDING_TYPES

        cat = rules.catalog
        huts = [(t, BUILDING_TYPES.index(cat[t].type), cat[t].walls) for t in cat if cat[t].kind == "hut"] or None
        if len(_HUTS) > 64:
            _HUTS.clear()
        found = _HUTS[id(rules)] = (rules, huts, tuple(h[0] for h in huts or ()))
    return found[1], found[2]


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
    """A kernel game set up from ``seed`` with ``rules``' options and modules."""
    o = rules.options
    return native.KernelGame(
        players,
        seed,
        o.get("holes", "cell"),
        o.get("tiebreak", "shared"),
        o.get("start_player", "seat"),
        module_bits(rules),
        _diamond_values(rules),
        _huts(rules)[0],
        o.get(GATE_CARDS),
    )


# -- actions as codes ----------------------------------------------------------------------------
# The kernel names each action by an integer code (``Action::code`` in kernel/core/src/game.rs)
# and writes it as the save writes an action (``{"type": ..., fields}``), which
# ``action_from_data`` turns into the rule set's own action object, and back: the bridge names
# no action class itself. Both ways are kept per code and per action object; an action naming a
# building hut (R-HUT-1: its id is the layout's) is kept per layout, by the huts' ids.

_ACTIONS: dict[int, Action] = {}
_CODES: dict[Any, int | None] = {}
_HUT_CODES: dict[tuple[str, ...], dict[Any, int | None]] = {}
#: the first tile id of the huts in the kernel (buildings are 1-54), the kind of TakeHut,
#: that of the city gates' BuildThroughGate (a tile built with a gate: a hut too, R-GATE-9)
_HUT_FIRST = 55
_TAKE_HUT = 17
_BUILD_THROUGH_GATE = 21


def _names_a_hut(code: int) -> bool:
    """Whether the action of ``code`` names a building hut (taken, placed, reserved, built or swapped in)."""
    kind = code >> 59
    if kind in (3, 5, 6, _BUILD_THROUGH_GATE):
        return (code >> 16) & 255 >= _HUT_FIRST
    if kind in (7, 8):
        return code & 255 >= _HUT_FIRST
    return kind == _TAKE_HUT


_MONEY = [MoneyCard(cur, v) for cur in CURRENCIES for v in range(1, 10)]


def _pos(cell: int) -> tuple[int, int]:
    return ((cell >> 8) - 128, (cell & 255) - 128)


def _core_action(code: int) -> Action | None:
    """The base game's actions decoded here (the layout of ``Action::code``: the kind in the top
    five bits; cards as numbers ``9 * currency + value - 1``; cells ``(x + 128) << 8 | (y + 128)``),
    quicker than through the save's format; ``None`` for any other action."""
    kind, tile, cell = code >> 59, (code >> 16) & 255, code & 0xFFFF
    if kind == 1:
        cards = []
        for k in range(4):
            c = (code >> (8 * k)) & 255
            if not c:
                break
            if c > len(_MONEY):  # a module's money (diamonds): through the save's format
                return None
            cards.append(_MONEY[c - 1])
        return action_table(TakeMoney)[(tuple(cards),)]
    if kind == 2 and not (code >> 54) & 7:  # a purchase in the space's own currency
        space = ((code >> 57) & 3) + 1
        cur = CURRENCIES.index(MARKET_CURRENCIES[space - 1])
        paid = [_MONEY[9 * cur + v] for v in range(9) for _ in range((code >> (3 * v)) & 7)]
        return action_table(Buy)[(space, tuple(paid))]
    if kind in (3, 5, 6) and tile < _HUT_FIRST:
        cls = BuildFromReserve if kind == 3 else Swap if kind == 5 else Place
        return action_table(cls)[(tile, _pos(cell))]
    if kind == 4:
        return action_table(RemoveToReserve)[(_pos(cell),)]
    if kind in (7, 8) and code & 255 < _HUT_FIRST:
        return action_table(Reserve if kind == 7 else GiveToDirk)[(code & 255,)]
    return None


def _caches(rules: Ruleset) -> tuple[dict[int, Action], dict[int, bytes], tuple[str, ...]]:
    """The action and ``repr`` line caches by code of ``rules``, and its huts' ids: one pair for
    every rule set without building huts, one per hut layout (a hut's code names the k-th hut of
    the layout, whose id and walls the layout says)."""
    names = _huts(rules)[1]
    if not names:
        return _ACTIONS, _LINES, ()
    found = _LAYOUT_CACHES.get(names)
    if found is None:
        found = _LAYOUT_CACHES[names] = ({}, {})
    return found[0], found[1], names


def action_of(code: int, rules: Ruleset) -> Action:
    """The action of a kernel code (one shared instance per code, per hut layout for the huts)."""
    cache, _, names = _caches(rules)
    found = cache.get(code)
    if found is not None:
        return found
    found = _core_action(code)
    if found is None:
        hut_names = list(names) if names and _names_a_hut(code) else None
        found = action_from_data(rules, native.KernelGame.action_data(code, hut_names))
        if type(found) is not Pass:
            cls: Any = type(found)  # an attrs class, as every action class
            found = action_table(cls)[tuple(getattr(found, f.name) for f in fields(cls))]
    if len(cache) < 200_000:
        cache[code] = found
    return found


def actions_of(codes: list[int], rules: Ruleset) -> list[Action]:
    """The actions of kernel codes (:func:`action_of` of each)."""
    cache = _caches(rules)[0]
    try:
        return list(map(cache.__getitem__, codes))
    except KeyError:  # a code not met before
        get = cache.get
        return [get(c) or action_of(c, rules) for c in codes]


#: a kernel code -> its action's ``repr`` and a newline, as bytes (a play digest's lines), for
#: the rule sets without building huts (those with huts: per layout, in ``_LAYOUT_CACHES``)
_LINES: dict[int, bytes] = {}
#: per hut layout (its huts' ids): its action and line caches by code
_LAYOUT_CACHES: dict[tuple[str, ...], tuple[dict[int, Action], dict[int, bytes]]] = {}


def repr_lines(codes: list[int], rules: Ruleset) -> bytes:
    """The ``repr`` of the actions of kernel codes, a line each, as bytes (what
    :func:`alhambra.simulate.play_digest` hashes), from codes met before without decoding them."""
    lines = _caches(rules)[1]
    try:
        return b"".join(map(lines.__getitem__, codes))
    except KeyError:  # a code not met before: its line kept, then the rest
        out = []
        for c in codes:
            line = lines.get(c)
            if line is None:
                line = repr(action_of(c, rules)).encode() + b"\n"
                if len(lines) < 200_000:
                    lines[c] = line
            out.append(line)
        return b"".join(out)


def code_of(action: Any, rules: Ruleset) -> int | None:
    """The kernel code of ``action``, or ``None`` for an action the kernel has no code for
    (not an action of the rule set, or malformed: certainly not legal on the kernel)."""
    names = _huts(rules)[1]
    cache = _HUT_CODES.setdefault(names, {}) if names else _CODES
    try:
        return cache[action]
    except (KeyError, TypeError):
        pass
    try:
        data = action_to_data(rules, action)
    except Exception:  # anything the converter cannot write is no action of this game
        return None
    code: int | None = (
        native.KernelGame.code_of_data(data, list(names) if names else None) if isinstance(data, dict) else None
    )
    try:
        if len(cache) < 200_000:
            cache[action] = code
    except TypeError:  # unhashable: not kept
        pass
    return code


# -- states ----------------------------------------------------------------------------------------


def state_of(k: Any, rules: Ruleset, names: tuple[str, ...]) -> GameState:
    """The Python engine's :class:`GameState` of kernel game ``k``: the state object of the
    save's format (``state_json``) built directly, without the checks a loaded save passes
    (the kernel's states are the rules' own)."""
    d = json.loads(k.state_json())
    cards = rules.cards
    holes = rules.options.get("holes", "cell")

    def city(entries: list[list[Any]]) -> Alhambra:
        tiles = {(e[0], e[1]): e[2] for e in entries if len(e) == 3}
        built = Alhambra.from_tiles(tiles, catalog=rules.catalog, holes=holes, check=False, rules=rules.placement_rules)
        for e in entries:
            if len(e) == 4:  # a side declared open (a city gate, R-GATE-6)
                built.open_side((e[0], e[1]), e[2])
        return built

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
            module_bits(rules),
            _diamond_values(rules),
            _huts(rules)[0],
            o.get(GATE_CARDS),
        )
    except (ValueError, TypeError, OverflowError) as exc:
        raise ConfigError(f"the rules kernel cannot hold this game: {exc}") from None


# -- the greedy bot inside the kernel ----------------------------------------------------------

#: The modules whose games the compiled kernel's greedy evaluation (``kernel/core/src/greedy.rs``)
#: values exactly as :class:`~alhambra.bots.evaluate.Evaluator` does (the kernel's own list,
#: ``GREEDY_MODULES``); a kernel game with any other module is valued by the Python evaluator.
KERNEL_GREEDY_MODULES: frozenset[str] = frozenset(getattr(native, "GREEDY_MODULES", ()))

_WEIGHT_ROWS: dict[Any, tuple[float, ...] | None] = {}


def weight_row(weights: Any) -> tuple[float, ...] | None:
    """The greedy bot's ``weights`` (:class:`~alhambra.bots.evaluate.Weights`, an attrs class)
    as the kernel takes them (its fields in order, as floats), or None when a field is not a
    plain finite number (the Python evaluator values such weights)."""
    if not has(type(weights)):
        return None
    row = _WEIGHT_ROWS.get(weights)
    if row is None and weights not in _WEIGHT_ROWS:
        vals = [getattr(weights, f.name) for f in fields(type(weights))]
        ok = all(type(v) in (int, float) and abs(v) < 2**53 for v in vals)
        row = tuple(float(v) for v in vals) if ok else None
        if len(_WEIGHT_ROWS) > 64:
            _WEIGHT_ROWS.clear()
        _WEIGHT_ROWS[weights] = row
    return row
