"""Rule sets: the plugins of a game (built-in rules + enabled modules), resolved once.

A :class:`Ruleset` owns a pluggy ``PluginManager`` with the hook specifications of
:mod:`alhambra.hookspec`, the built-in plugins of the base game, the enabled modules and any
variant plugins. Everything the engine needs on its hot path (tile catalogue, card catalogue,
action kinds by phase, option values) is asked of the plugins once, here, and cached; games
built from the same modules and options share one rule set.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

import pluggy
from attrs import frozen

from .actions import ActionKind
from .components import BASE_CATALOG, SCORING_A, SCORING_B, Card, TileCatalog, money_deck, remember_cards
from ..errors import AlhambraError, ConfigError, shown
from .options import resolve_options
from .sequence import PhaseSpec, declared_phases
from .declared import Declared

if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType

    from .city import PlacementRulesLike
    from .protocol import PurchaseRuleLike

ENTRY_POINT_GROUP = "alhambra.modules"

#: The built-in plugins of the base game, by registration name (and the module that holds
#: each). A variant blocks one by name (``blocked=["core.scoring"]`` or a module's
#: ``REPLACES``) and registers its own. The plugin objects themselves come with the rule set's
#: :class:`Builtins` (``alhambra.rules.ruleset.BUILTINS``): the engine never imports the rules.
BUILTIN_PLUGINS: dict[str, str] = {
    "core.setup": "alhambra.rules.setup",
    # before core.turn, so that its Buy kind is listed after core.turn's TakeMoney, as ever
    "core.purchase": "alhambra.rules.purchase",
    "core.turn": "alhambra.rules.turn",
    "core.redesign": "alhambra.rules.redesign",
    "core.placement": "alhambra.rules.placement",
    "core.scoring": "alhambra.rules.scoring",
    "core.end": "alhambra.rules.end",
    "core.dirk": "alhambra.rules.dirk",
}


#: What a game cannot do without: blocking one of these built-ins needs another plugin that
#: implements the hook named (a replacement), or the game could not be set up, scored or ended.
ESSENTIAL_HOOKS = {
    "core.setup": "alhambra_setup",
    "core.turn": "alhambra_action_kinds",
    "core.purchase": "alhambra_action_kinds",
    "core.placement": "alhambra_action_kinds",
    "core.scoring": "alhambra_scoring",
    "core.end": "alhambra_winners",
}


@frozen
class Builtins:
    """What a rule set is built on besides its modules and plugins: the hook specifications
    (the module :mod:`alhambra.hookspec`), the built-in plugins by registration name (the
    keys of :data:`BUILTIN_PLUGINS`, in registration order), the purchase rule a game plays
    when no plugin offers one, and the placement rules by ``holes`` mode that the chained hook
    ``alhambra_placement_rules`` starts from. The rules layer makes the one the base game
    uses (``alhambra.rules.ruleset.BUILTINS``) and hands it to every :class:`Ruleset`."""

    specs: ModuleType
    plugins: tuple[tuple[str, Any], ...]
    purchase: PurchaseRuleLike
    placement: Mapping[str, PlacementRulesLike]


def available_modules() -> dict[str, Any]:
    """Installed expansion modules: ``{name: entry point}`` of the ``alhambra.modules`` group.

    The installed distributions are scanned once per process (:func:`_scan_entry_points`; a
    scan costs a few milliseconds, and loading a save looks up every module it names); call
    ``_scan_entry_points.cache_clear()`` after installing a module into a running process."""
    return dict(_scan_entry_points())


@lru_cache(maxsize=1)
def _scan_entry_points() -> tuple[tuple[str, Any], ...]:
    """The ``alhambra.modules`` entry points as ``(name, entry point)`` pairs, scanned once."""
    return tuple((ep.name, ep) for ep in entry_points(group=ENTRY_POINT_GROUP))


def module_order(module: Any) -> tuple[float, str]:
    """Where ``module`` (a module object) stands in the canonical order: its ``ORDER`` (a
    number; the modules of the first expansion declare 1-4, the order of its rule book and of
    RULES.md), modules without one after them, then by ``NAME``. A game's modules are
    registered in this order whatever order they were named in, so the same set always gives
    the same game (the order decides, e.g., which module's set-up draws from the generator
    first and the order of the legal actions)."""
    order = getattr(module, "ORDER", None)
    return (float("inf") if order is None else float(order), module_name(module))


def canonical_order(modules: Iterable[Any]) -> list[Any]:
    """``modules`` (module objects) in the canonical order (:func:`module_order`)."""
    return sorted(modules, key=module_order)


def order_of_name(name: str) -> tuple[float, str]:
    """:func:`module_order` of the installed module registered under ``name`` (a module not
    installed, or that cannot be loaded, comes after every ordered one, by name)."""
    try:
        return module_order(load_module(name))
    except (ConfigError, ImportError):
        return (float("inf"), name)


def __getattr__(name: str) -> Any:
    """``CANONICAL_MODULES``: the installed modules that declare an ``ORDER``, in that order
    (the first expansion's modules), read from the modules themselves."""
    if name == "CANONICAL_MODULES":
        ordered = [n for n in available_modules() if order_of_name(n)[0] != float("inf")]
        return tuple(sorted(ordered, key=order_of_name))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_module(name: str) -> Any:
    """Import the module registered under ``name``; :class:`ConfigError` lists the known ones,
    and refuses a module whose ``NAME`` differs from its entry-point name (saves record the
    ``NAME``, so such a module could not be found again when its games are loaded)."""
    found = available_modules()
    if name not in found:
        known = ", ".join(sorted(found)) or "none installed"
        raise ConfigError(f"unknown module {shown(name)}; available modules: {known}")
    module = found[name].load()
    own = getattr(module, "NAME", None)
    if own != name:
        raise ConfigError(
            f"module registered as {name!r} (entry point target {found[name].value!r}) has NAME {own!r}: "
            f"register it under its NAME, or set NAME = {name!r}"
        )
    return module


def _not_an_impostor(module: Any) -> Any:
    """``module`` (a module object), unless its ``NAME`` is that of an installed module it is
    not: then :class:`ConfigError` (its games' saves, which record the ``NAME``, would load
    the installed module instead)."""
    name = module_name(module)
    found = dict(_scan_entry_points()).get(name)
    if found is not None and found.load() is not module:
        raise ConfigError(
            f"module {module!r} has NAME {name!r}, the name of the installed module {found.value!r}, "
            "but is not that module: give it a NAME of its own"
        )
    return module


def module_name(module: Any) -> str:
    """The name a module object is enabled and saved under (its ``NAME`` attribute)."""
    name = getattr(module, "NAME", None)
    if not isinstance(name, str) or not name:
        raise ConfigError(f"module {module!r} has no NAME string attribute")
    return name


def plugin_name(plugin: Any) -> str:
    """The name a house-rule plugin is recorded under in saves: its ``NAME`` attribute, else
    its class name (or module name, for a plugin module)."""
    name = getattr(plugin, "NAME", None)
    if isinstance(name, str) and name:
        return name
    if isinstance(plugin, type) or hasattr(plugin, "__file__"):
        return getattr(plugin, "__name__", repr(plugin))
    return type(plugin).__name__


def _register_declared(pm: pluggy.PluginManager, plugin: Any, name: str) -> None:
    """Register the hooks derived from a plugin's declared state (its ``DECLARED``,
    :class:`alhambra.engine.declared.Declared`) right after the plugin itself, so that they
    are called in its place among the plugins, just before its own."""
    declared = getattr(plugin, "DECLARED", None)
    if declared is None:
        return
    if not isinstance(declared, Declared):
        raise ConfigError(f"{name}: DECLARED must be an alhambra.Declared, not {declared!r}")
    pm.register(declared.plugin(), name=f"{name}.declared")


class Ruleset:
    """The resolved plugins of one game configuration.

    ``modules``: names (entry points of group ``alhambra.modules``) or module objects (any
    object with a ``NAME`` and hook implementations). ``options``: option values; every plugin
    declares its options (``alhambra_options``) and unknown ones are a :class:`ConfigError`.
    ``plugins``: extra plugin objects (house rules) registered after the modules. ``blocked``:
    names of built-in plugins to block (see :data:`BUILTIN_PLUGINS`). A module may also list
    built-ins to block in its ``REPLACES`` attribute.

    Attributes: ``pm`` (the pluggy manager), ``hook``, ``modules`` (tuple of module names),
    ``options`` (dict), ``catalog`` (:class:`TileCatalog`), ``cards`` (``{code: Card}``),
    ``state_classes``, ``kinds`` (``{action class: ActionKind}``), ``phases``
    (``{phase: [ActionKind]}``), ``action_types`` (``{type name: action class}``).
    """

    def __init__(
        self,
        modules: Iterable[Any] = (),
        options: dict[str, Any] | None = None,
        *,
        plugins: Iterable[Any] = (),
        blocked: Iterable[str] = (),
        builtins: Builtins,
    ):
        specs = builtins.specs
        pm = pluggy.PluginManager(specs.PROJECT)
        pm.add_hookspecs(specs)
        known = dict(builtins.plugins)
        if modules is None or isinstance(modules, (str, bytes)):
            raise ConfigError(f"modules must be a list of module names, not {modules!r}")
        mods = []
        for m in modules:
            mods.append(load_module(m) if isinstance(m, str) else _not_an_impostor(m))
        names = [module_name(m) for m in mods]
        if len(set(names)) != len(names):
            raise ConfigError(f"a module is enabled twice: {names}")
        mods = canonical_order(mods)  # the same set of modules always gives the same game
        names = [module_name(m) for m in mods]
        if not all(isinstance(b, str) for b in blocked):
            raise ConfigError(f"blocked must list built-in plugin names (strings), not {list(blocked)!r}")
        blocked = set(blocked)
        for m in mods:
            replaces = getattr(m, "REPLACES", ())
            if (
                isinstance(replaces, str)
                or not isinstance(replaces, (tuple, list))
                or not all(isinstance(r, str) for r in replaces)
            ):
                raise ConfigError(f"module {module_name(m)!r}: REPLACES must be a tuple of built-in plugin names")
            blocked.update(replaces)
        plugins = list(plugins)
        for p in plugins:
            if p is None or isinstance(p, (str, bytes, int, float, bool, list, tuple, dict)):
                raise ConfigError(f"a plugin is an object with hook implementations, not {p!r}")
        unknown = blocked - set(known)
        if unknown:
            raise ConfigError(f"cannot block {shown(sorted(unknown))}: built-in plugins are {sorted(known)}")
        for name, plugin in known.items():
            if name in blocked:
                pm.set_blocked(name)
            else:
                pm.register(plugin, name=name)
        try:
            for name, m in zip(names, mods):
                pm.register(m, name=name)
                _register_declared(pm, m, name)
            for p in plugins:
                pm.register(p)
                _register_declared(pm, p, plugin_name(p))
        except (ValueError, pluggy.PluginValidationError) as exc:
            raise ConfigError(f"cannot register plugin: {exc}") from None
        try:
            pm.check_pending()  # a hook implementation whose name matches no hook (alhambra_scorng)
        except pluggy.PluginValidationError as exc:
            raise ConfigError(
                f"{exc}: a misspelled hook? (the hooks are the alhambra_* functions of alhambra.hookspec)"
            ) from None
        for name, p in [*zip(names, mods), *((plugin_name(p), p) for p in plugins)]:
            _refuse_unmarked_hooks(pm, name, p)
        for builtin, hook_name in ESSENTIAL_HOOKS.items():
            if builtin in blocked and not any(
                i.plugin_name not in known for i in getattr(pm.hook, hook_name).get_hookimpls()
            ):
                raise ConfigError(f"blocking {builtin} needs a replacement: no other plugin implements {hook_name}")
        self.pm = pm
        self.hook = pm.hook
        #: the built-in plugins by registration name (blocked ones included)
        self.builtins: Mapping[str, Any] = known
        self.modules: tuple[str, ...] = tuple(names)
        self.module_objects = tuple(mods)
        self.plugins = tuple(plugins)
        self.blocked = tuple(sorted(blocked))

        declared = [o for group in self.hook.alhambra_options() for o in group]
        self.option_specs = {o.name: o for o in declared}
        self.options = resolve_options(declared, options)

        extra_tiles = [t for group in self.hook.alhambra_tiles(options=self.options) for t in group]
        self.catalog = TileCatalog((*BASE_CATALOG.values(), *extra_tiles)) if extra_tiles else BASE_CATALOG
        #: tile id -> its printed price (R-COMP-2)
        self.prices: dict[Any, int] = {t: spec.price for t, spec in self.catalog.items()}
        #: per market space index (0-3): tile id -> the price paid for it on that space, the
        #: printed price as the ``alhambra_building_price`` hook makes it (folded once, here);
        #: with no such hook all four are ``prices`` itself. Every reader of a price uses these.
        self.space_prices: tuple[dict[Any, int], dict[Any, int], dict[Any, int], dict[Any, int]] = space_prices(
            self.hook, self.options, self.prices, {t for t, spec in self.catalog.items() if spec.kind == "building"}
        )
        #: bits per market space in the exact-payment bitsets (``Game.can_pay_exactly``):
        #: one more than the highest price
        self.price_bits: int = max([0, *(p for table in self.space_prices for p in table.values())]) + 1
        #: per market space index (0-3): tile id -> its price as a bit in that space's lane of
        #: those bitsets, and ``None`` (an empty space) -> 0
        self.price_lanes: tuple[dict[Any, int], ...] = tuple(
            {None: 0, **{t: 1 << (self.price_bits * i + p) for t, p in self.space_prices[i].items()}} for i in range(4)
        )

        #: the placement rules every Alhambra of the games is built by (``alhambra_placement_rules``, chained)
        self.placement_rules: PlacementRulesLike = chained(
            self.hook.alhambra_placement_rules,
            builtins.placement[self.options.get("holes", "cell")],
            instance_of("PlacementRules"),
            options=self.options,
        )
        #: the purchase rule every caller asks (``alhambra_purchase_rule``, chained)
        #: (the built-in one when core.purchase is blocked and no plugin offers one: a
        #: replacement of the Buy kind alone still pays as the base game does)
        #: R-TURN-2: the most several money cards taken at once may total (``alhambra_take_limit``,
        #: chained; :data:`TAKE_LIMIT`, 5, without it): core.turn's takes, the environments'
        #: action space and the web page's hints read it
        self.take_limit: int = take_limit(self.hook, self.options)
        self.purchase: PurchaseRuleLike = (
            chained(self.hook.alhambra_purchase_rule, None, instance_of("PurchaseRule"), options=self.options)
            or builtins.purchase
        )

        cards: dict[str, Card] = {c.code: c for c in (*money_deck(1), SCORING_A, SCORING_B)}
        for group in self.hook.alhambra_cards(options=self.options):
            for c in group:
                cards[c.code] = c
        self.cards = cards
        remember_cards(cards.values())  # pictures and pages name a card from its code alone

        self.state_classes: dict[str, type] = {}
        for group in self.hook.alhambra_state_classes():
            self.state_classes.update(group)

        #: every declared phase by name (the engine's and the plugins', ``alhambra_phases``)
        self.phase_specs: dict[str, PhaseSpec] = declared_phases(self.hook.alhambra_phases())

        self.kinds: dict[type, ActionKind] = action_kinds(self.hook.alhambra_action_kinds)
        if self.hook.alhambra_action_kind.get_hookimpls():  # plugins adjusting a kind (a hand limit)
            self.kinds = {
                a: chained(self.hook.alhambra_action_kind, k, instance_of("ActionKind"), options=self.options)
                for a, k in self.kinds.items()
            }
        self.phases: dict[str, list[ActionKind]] = {}
        for kind in self.kinds.values():
            for phase in sorted(kind.phases):
                self.phases.setdefault(phase, []).append(kind)
        undeclared = sorted(set(self.phases) - set(self.phase_specs))
        if undeclared:
            raise ConfigError(f"action kinds name phases no plugin declares (alhambra_phases): {undeclared}")
        self.action_types = {k.type_name: a for a, k in self.kinds.items()}
        #: phase -> the ``legal`` functions of its action kinds (the hot path of legal_actions)
        self.phase_legal: dict[str, tuple[Callable[..., Any], ...]] = {
            ph: tuple(k.legal for k in kinds) for ph, kinds in self.phases.items()
        }

        # which optional per-turn hooks have implementations (resolved once, not per call)
        self.has_payment_means = bool(self.hook.alhambra_payment_means.get_hookimpls())
        self.has_placement_filter = bool(self.hook.alhambra_placement_filter.get_hookimpls())
        self.has_city_changed = bool(self.hook.alhambra_city_changed.get_hookimpls())
        self.has_between_turns = bool(self.hook.alhambra_between_turns.get_hookimpls())
        self.has_turn_start = bool(self.hook.alhambra_turn_start.get_hookimpls())
        self.has_card_drawn = bool(self.hook.alhambra_card_drawn.get_hookimpls())
        self.has_game_ends = bool(self.hook.alhambra_game_ends.get_hookimpls())
        #: The hooks called every turn, resolved once into direct calls (see :func:`direct_caller`).
        self.fast = _FastHooks(self.hook, specs.DIRECT)
        #: the cattrs converter of saves (``alhambra.saving.serialize.converter_of``), built on first use
        self.converter_cache: Any = None
        #: Bounded caches of derived values shared by the games of this rule set: payments
        #: through payment means (``memo``, cleared when it reaches ``memo_limit`` entries),
        #: and plain payments (``buy_memo[exact][space index]``, by money key and price; each
        #: of the eight is cleared at a quarter of ``memo_limit``: the exact ones, asked only by
        #: the vizier, stay small).
        self.memo: dict[Any, Any] = {}
        self.buy_memo: tuple[tuple[dict[Any, Any], ...], ...] = tuple(
            tuple({} for _ in range(4)) for _ in (False, True)
        )
        self.memo_limit = 100_000

    def __repr__(self) -> str:
        return f"Ruleset(modules={self.modules!r}, options={self.options!r})"


def _implementation_name(impl: Any) -> str:
    """The name of the plugin behind a hook implementation, as errors name it: a built-in's
    registration name (``core.purchase``), else the plugin's :func:`plugin_name`."""
    name: str = impl.plugin_name
    return name if name in BUILTIN_PLUGINS else plugin_name(impl.plugin)


def chained(caller: Any, start: Any, check: Callable[[Any], str | None], *, where: str = "", **kwargs: Any) -> Any:
    """Call a *chained* hook (:data:`alhambra.hookspec.CHAINED`; the one mechanism for them all,
    described in :mod:`alhambra.hookspec`): its implementations in registration order
    (``trylast`` ones first, then built-in plugins, modules and house rules as registered,
    ``tryfirst`` ones last), each given the value the ones before it left (``start`` for the
    first) in the argument ``CHAINED`` names, and the keyword arguments it takes of
    ``kwargs``; each returns the new value, or ``None`` to keep it. ``check(value)`` says what
    is wrong with a value (the end of a sentence: ``"returned 3, not a PlacementRules"``), or
    ``None``. A wrong value, a wrapper, or an exception raised inside an implementation (other
    than a :class:`~alhambra.errors.AlhambraError`) is a :class:`ConfigError` naming the hook
    and the plugin, and ``where`` (``" for tile 1 on space 1"``) for a failure."""
    hook_name = caller.name
    arg = caller.spec.namespace.CHAINED[hook_name]  # the specifications' table (alhambra.hookspec)
    value = start
    for impl in caller.get_hookimpls():
        name = _implementation_name(impl)
        if impl.hookwrapper or impl.wrapper:
            raise ConfigError(f"{hook_name} is a chained hook: plugin {name!r} cannot wrap it")
        args = {**kwargs, arg: value}
        try:
            got = impl.function(*[args[n] for n in impl.argnames])
        except AlhambraError:
            raise
        except Exception as exc:
            raise ConfigError(f"{hook_name} of {name!r} failed{where}: {type(exc).__name__}: {exc}") from exc
        if got is None:
            continue
        problem = check(got)
        if problem is not None:
            raise ConfigError(f"{hook_name} of {name!r} {problem}")
        value = got
    return value


def instance_of(type_name: str) -> Callable[[Any], str | None]:
    """A ``check`` for :func:`chained`: the value's class is named ``type_name`` or derives from
    one so named."""

    def check(value: Any) -> str | None:
        if any(c.__name__ == type_name for c in type(value).__mro__):
            return None
        return f"returned {value!r}, not a {type_name}"

    return check


def action_kinds(caller: Any) -> dict[type, ActionKind]:
    """The action kind played for each action class: the ``alhambra_action_kinds`` answers in
    pluggy's call order (a *collected* hook whose answers are kept beside the plugin that
    gave them, see :mod:`alhambra.hookspec`), a plugin's kind replacing a built-in's (the
    earlier-called wins among built-ins). Raises :class:`ConfigError` naming both when two plugins that are not
    built-in offer a kind for the same class and neither lists the other in its
    ``ActionKind.replaces`` (the one no other replaces is played)."""
    impls = caller.get_hookimpls()
    if any(i.hookwrapper or i.wrapper for i in impls):  # cannot tell who offered what
        found: dict[type, ActionKind] = {}
        for group in caller():
            for kind in group:
                found.setdefault(kind.action, kind)
        return found
    offers: dict[type, dict[str, tuple[str, ActionKind]]] = {}  # action -> registration -> (name, kind)
    for impl in reversed(impls):  # pluggy's call order
        name = _implementation_name(impl)
        for kind in impl.function() or ():
            offers.setdefault(kind.action, {}).setdefault(impl.plugin_name, (name, kind))
    return {action: _played_kind(action, list(by.values())) for action, by in offers.items()}


def _played_kind(action: type, offers: list[tuple[str, ActionKind]]) -> ActionKind:
    """The kind played for ``action`` among ``offers`` (plugin name, kind), in call order."""
    for n, k in offers:
        if n in k.replaces:
            raise ConfigError(
                f"plugin {n!r} declares that its action kind {action.__name__} replaces itself: "
                f"a plugin cannot replace itself; list the plugins it replaces in replaces=(...)"
            )
    outside = [(n, k) for n, k in offers if n not in BUILTIN_PLUGINS]
    if len(outside) < 2:
        return (outside or offers)[0][1]
    replaced = {r for _, k in outside for r in k.replaces}
    left = [(n, k) for n, k in outside if n not in replaced]
    if len(left) == 1:
        return left[0][1]
    if not left:
        names = [repr(n) for n, _ in outside]
        raise ConfigError(
            f"plugins {', '.join(names[:-1])} and {names[-1]} each declare that their action kind "
            f"{action.__name__} replaces the other's: only one of them may replace the others"
        )
    names = [repr(n) for n, _ in left]
    raise ConfigError(
        f"plugins {', '.join(names[:-1])} and {names[-1]} each provide the action kind "
        f"{action.__name__}: "
        f"only one may, unless it declares that it replaces the others, e.g. "
        f"ActionKind({action.__name__}, ..., replaces=({names[0]},)) in {names[-1]}"
    )


#: The highest price a building may cost (``alhambra_building_price``): every money card of one
#: currency adds up to 135 (values 1-9, three each, R-COMP-3) and the dearest printed price is
#: 13 (R-COMP-2), so a variant never needs more than 100; the bound also keeps the rule set's
#: price lanes (one bit per price and space) small.
MAX_PRICE = 100
#: R-TURN-2: several money cards may be taken at once if their total is at most 5; a rule set's
#: own total is ``rules.take_limit`` (the ``alhambra_take_limit`` hook, chained).
TAKE_LIMIT = 5
#: The highest total a rule set may allow (``alhambra_take_limit``); four cards of the money
#: display total at most 36, so more than 100 never changes what may be taken.
MAX_TAKE_LIMIT = 100


def take_limit(hook: Any, options: dict[str, Any]) -> int:
    """The most several money cards taken at once may total in this rule set (R-TURN-2):
    :data:`TAKE_LIMIT` passed through the ``alhambra_take_limit`` implementations (a
    *chained* hook, :func:`chained`). Raises :class:`ConfigError` naming the plugin for a
    total that is not an int from 0 to :data:`MAX_TAKE_LIMIT`, or an exception raised inside
    an implementation."""

    def check(new: Any) -> str | None:
        if type(new) is int and 0 <= new <= MAX_TAKE_LIMIT:
            return None
        return (
            f"returned {shown(new)}; the total of a money take (R-TURN-2) is an int from 0 to "
            f"{MAX_TAKE_LIMIT} (MAX_TAKE_LIMIT)"
        )

    limit: int = chained(hook.alhambra_take_limit, TAKE_LIMIT, check, options=options)
    return limit


def space_prices(
    hook: Any, options: dict[str, Any], printed: dict[Any, int], asked: Any = None
) -> tuple[dict[Any, int], dict[Any, int], dict[Any, int], dict[Any, int]]:
    """The price of every tile on each market space (index 0-3): ``printed`` (tile id -> printed
    price, R-COMP-2) passed through the ``alhambra_building_price`` implementations (a
    *chained* hook, :func:`chained`: each gets the price the ones before it left; ``None``
    keeps it). Only the tiles in ``asked`` (default: all) are passed to the hook: the rule
    set asks about the market's buildings, never the fountain or huts, which keep their
    printed price. Without implementations, ``(printed,) * 4``: the base game pays nothing
    for the hook. Raises :class:`ConfigError` naming the plugin, tile and space for a price
    that is not an int from 0 to :data:`MAX_PRICE`, or an exception raised inside an
    implementation."""
    caller = hook.alhambra_building_price
    if not caller.get_hookimpls():
        return (printed, printed, printed, printed)
    tables = []
    for space in range(1, 5):
        table: dict[Any, int] = {}
        for tile, price in printed.items():
            if asked is not None and tile not in asked:
                table[tile] = price
                continue
            table[tile] = chained(
                caller,
                price,
                _price_check(tile, space),
                where=f" for tile {tile!r} on space {space}",
                options=options,
                space=space,
                tile=tile,
            )
        tables.append(table)
    return (tables[0], tables[1], tables[2], tables[3])


def _price_check(tile: Any, space: int) -> Callable[[Any], str | None]:
    """The ``check`` of a price of ``tile`` on market ``space`` (see :func:`space_prices`)."""

    def check(new: Any) -> str | None:
        if type(new) is int and 0 <= new <= MAX_PRICE:
            return None
        return (
            f"made the price of tile {tile!r} on space {space} {new!r}; a price is an int >= 0 and at most "
            f"{MAX_PRICE} (MAX_PRICE)"
        )

    return check


def direct_caller(caller: pluggy.HookCaller, *, results: bool = True) -> Callable[..., Any]:
    """A plain function equivalent to calling the pluggy hook ``caller`` with keyword
    arguments, for the hooks the engine calls every turn (the *direct* hooks of
    :data:`alhambra.hookspec.DIRECT`, the one mechanism for them, described there).

    The implementations are looked up once (in pluggy's call order: ``tryfirst`` and later
    registered first) and called directly, which saves pluggy's per-call bookkeeping. With a
    wrapper among them, or none at all, the hook caller itself is returned. With
    ``results=False`` (a hook whose results the engine ignores, such as
    ``alhambra_city_changed``), a single implementation is returned as it is."""
    impls = caller.get_hookimpls()
    if not impls or any(i.hookwrapper or i.wrapper for i in impls):
        return caller
    spec_names = set(caller.spec.argnames) if caller.spec is not None else None
    # an implementation taking every argument of the spec is called with the keywords as
    # they come; one taking fewer gets just its own (``names``)
    funcs = [(i.function, None if set(i.argnames) == spec_names else tuple(i.argnames)) for i in reversed(impls)]
    if caller.spec is not None and caller.spec.opts.get("firstresult"):
        if len(funcs) == 1 and funcs[0][1] is None:
            return funcs[0][0]

        def first(**kwargs: Any) -> Any:
            for f, names in funcs:
                r = f(**kwargs) if names is None else f(*[kwargs[n] for n in names])
                if r is not None:
                    return r
            return None

        return first

    if len(funcs) == 1 and funcs[0][1] is None:
        only = funcs[0][0]
        if not results:
            return only

        def collect_one(**kwargs: Any) -> list[Any]:
            r = only(**kwargs)
            return [] if r is None else [r]

        return collect_one

    def collect(**kwargs: Any) -> list[Any]:
        out = []
        for f, names in funcs:
            r = f(**kwargs) if names is None else f(*[kwargs[n] for n in names])
            if r is not None:
                out.append(r)
        return out

    return collect


class _FastHooks:
    """Direct callers of the *direct* hooks (``rules.fast.alhambra_between_turns(game=…)``;
    :data:`alhambra.hookspec.DIRECT`)."""

    #: the hooks among them whose results the engine ignores
    NOTIFY = ("alhambra_turn_start", "alhambra_city_changed")

    alhambra_turn_start: Callable[..., Any]
    alhambra_payment_means: Callable[..., Any]
    alhambra_placement_filter: Callable[..., Any]
    alhambra_city_changed: Callable[..., Any]
    alhambra_between_turns: Callable[..., Any]
    alhambra_card_drawn: Callable[..., Any]
    alhambra_game_ends: Callable[..., Any]

    def __init__(self, hook: Any, names: Iterable[str]) -> None:
        #: the direct hooks, as the hook specifications list them (``DIRECT``)
        self.names = tuple(names)
        for name in self.names:
            setattr(self, name, direct_caller(getattr(hook, name), results=name not in self.NOTIFY))


class _ListKey(tuple[Any, ...]):
    """A list option value, frozen for the rule-set cache's key (:func:`_frozen`)."""

    __slots__ = ()


def _frozen(value: Any) -> Any:
    """``value`` with every list in it (in lists and tuples) made a :class:`_ListKey`."""
    if type(value) is list:
        return _ListKey([_frozen(v) for v in value])
    if type(value) is tuple:
        return tuple([_frozen(v) for v in value])
    return value


def _thawed(value: Any) -> Any:
    """:func:`_frozen` undone: a new list for each :class:`_ListKey`."""
    if type(value) is _ListKey:
        return [_thawed(v) for v in value]
    if type(value) is tuple:
        return tuple([_thawed(v) for v in value])
    return value


def _refuse_unmarked_hooks(pm: pluggy.PluginManager, name: str, plugin: object) -> None:
    """Raise :class:`ConfigError` if ``plugin`` has a function named like a hook but not
    marked with ``@alhambra.hookimpl``: pluggy registers only marked ones, so the engine would
    never call it and the rule would silently not apply (a forgotten decorator)."""
    for attr in dir(plugin):
        if not attr.startswith("alhambra_") or not hasattr(pm.hook, attr):
            continue
        value = getattr(plugin, attr, None)
        if callable(value) and pm.parse_hookimpl_opts(plugin, attr) is None:
            raise ConfigError(
                f"plugin {name!r}: {attr} is not marked with @alhambra.hookimpl, so it would never "
                "be called: decorate it (from alhambra import hookimpl)"
            )
