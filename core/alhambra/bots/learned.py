"""The learned bot: a value network trained on this engine, scoring the outcome of each
candidate action after one turn of greedy look-ahead.

For each candidate action (the greedy heuristic's best few) the bot applies it to a copy of the
world it believes in (a determinized copy of the game, :func:`~alhambra.bots.base.observe`:
the bag and deck order it cannot see are resampled, so it never peeks at the next building
drawn), lets greedy play every seat until its own next turn begins (:func:`rollout`), reads a
small vector of features of the position reached (:func:`features`: projected points of the
deciding seat against the others, per component, through the rule set's own scoring values,
:func:`~alhambra.bots.evaluate.scoring_values`) and scores it with a small network whose
weights ship with the package (``learned_weights.npz``, plain numpy arrays loaded with
``allow_pickle=False``). A game that ends in the look-ahead scores its real result. It plays
the action of the best score.

The weights were trained by ``benchmarks/train_learned.py`` (Monte-Carlo regression of the
final result on the features, from games of greedy bots and of the learned bot against
greedy) on the base game with 2 and 4 players; the features are read through the rule set,
so the bot plays any module combination and 2-6 players, but it was trained on none of them.
"""

from __future__ import annotations

import io
import math
import zipfile
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, SupportsFloat

import numpy as np

from ..errors import AlhambraError
from ..saving.files import read_limited
from .base import Bot, BotSpecError, observe
from ..engine.actions import RemoveToReserve, Swap
from .evaluate import DEFAULT_WEIGHTS, Evaluator, play_greedy_step

if TYPE_CHECKING:  # pragma: no cover
    from numpy.typing import ArrayLike

#: file name of the shipped weights inside this package
WEIGHTS_FILE = "learned_weights.npz"

#: format version written into (and required of) a weights file
WEIGHTS_VERSION = 1

#: names of the features of :func:`features`, in order
FEATURE_NAMES: tuple[str, ...] = (
    "value_vs_best",  # seat value (score + projected points) minus the best other seat's
    "value_vs_mean",  # seat value minus the other seats' mean
    "score_vs_best",  # points scored so far minus the best other seat's
    "majority_vs_mean",  # projected majority points minus the others' mean
    "majority_vs_best",
    "wall_vs_mean",  # projected outer-wall points minus the others' mean
    "money_vs_mean",  # value of the hand (coins, what it pays for) minus the others' mean
    "money_vs_best",
    "reserve",  # value of the reserve
    "pending",  # value of bought buildings still to place
    "value_vs_best_late",  # value_vs_best times the share of the game played
    "money_vs_mean_late",
    "majority_vs_mean_late",
    "progress",  # share of the bag drawn (0 at the start, 1 when it is empty)
    "extra_action",  # 1 while the seat's turn goes on (an exact payment, R-TURN-4)
    "one_opponent",  # 1 / (players - 1): 1 in a two-player game, 1/3 with four players
)
N_FEATURES = len(FEATURE_NAMES)


class WeightsError(AlhambraError):
    """A weights file of the learned bot that is missing, unreadable or of the wrong shape."""


def _components(ev: Evaluator, seat: int) -> tuple[float, float, float, float, float, float]:
    """(score, majorities, walls, money, reserve, pending) of ``seat`` as ``ev`` values them."""
    st = ev.st
    p = st.players[seat]
    maj = ev.majority_value(seat, ev.counts[seat])
    wall = ev._shapes[seat]
    money = ev.money_value(seat, p.hand)
    reserve = sum(ev.reserve_value(seat, t) for t in p.reserve)
    pending = 0.0
    owner = st.decider if st.phase == "place" else st.turn_player
    if st.pending and owner == seat:
        for q in st.pending:
            pending += max(0.0, ev.tile_value(seat, q.tile, q.dirk_ok))
    if ev.holds_token(seat):
        money += ev.w.vizier * ev.progress_left
    return float(p.score), maj, wall, money, reserve, pending


def features(game: Any, seat: int) -> np.ndarray:
    """The feature vector (shape ``(N_FEATURES,)``, float64, points unless named a share) of
    ``game``'s position for ``seat`` (:data:`FEATURE_NAMES`). Values come from
    :class:`~alhambra.bots.evaluate.Evaluator`, so a variant's scoring (its scoring table,
    wall points, huts, bonus cards) is what is measured; other seats' hands are read as they
    are in ``game`` (call it on a determinized copy, where they are what ``seat`` knows,
    R-SET-3)."""
    ev = Evaluator(game, seat, DEFAULT_WEIGHTS)
    comps = [_components(ev, s) for s in range(ev.n)]
    totals = [sum(c) for c in comps]
    me = comps[seat]
    others = [s for s in range(ev.n) if s != seat]
    if not others:  # a game of one: nothing to compare against
        others = [seat]

    def best(i: int) -> float:
        return max(comps[s][i] for s in others)

    def mean(i: int) -> float:
        return sum(comps[s][i] for s in others) / len(others)

    t_best = max(totals[s] for s in others)
    t_mean = sum(totals[s] for s in others) / len(others)
    late = 1.0 - ev.progress_left
    st = ev.st
    v_best = totals[seat] - t_best
    money_mean = me[3] - mean(3)
    maj_mean = me[1] - mean(1)
    return np.array(
        [
            v_best,
            totals[seat] - t_mean,
            me[0] - best(0),
            maj_mean,
            me[1] - best(1),
            me[2] - mean(2),
            money_mean,
            me[3] - best(3),
            me[4],
            me[5],
            v_best * late,
            money_mean * late,
            maj_mean * late,
            late,
            1.0 if (st.phase == "turn" and st.decider == seat and st.turn_player == seat) else 0.0,
            1.0 / max(1, ev.n - 1),
        ],
        dtype=np.float64,
    )


class ValueNet:
    """A small network ``features -> value``: standardisation (``mean``, ``scale``, shape
    ``(F,)``), one hidden tanh layer (``w1`` ``(F, H)``, ``b1`` ``(H,)``; ``H`` may be 0) and
    a linear output (``w2`` ``(H,)``, ``lin`` ``(F,)`` straight from the inputs, ``b2``)."""

    def __init__(
        self,
        mean: ArrayLike,
        scale: ArrayLike,
        w1: ArrayLike,
        b1: ArrayLike,
        w2: ArrayLike,
        lin: ArrayLike,
        b2: SupportsFloat,
    ) -> None:
        self.mean = np.asarray(mean, dtype=np.float64)
        self.scale = np.asarray(scale, dtype=np.float64)
        self.w1 = np.asarray(w1, dtype=np.float64)
        self.b1 = np.asarray(b1, dtype=np.float64)
        self.w2 = np.asarray(w2, dtype=np.float64)
        self.lin = np.asarray(lin, dtype=np.float64)
        self.b2 = float(b2)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """Values of the rows of ``x`` (shape ``(N, F)`` -> ``(N,)``)."""
        z = (x - self.mean) / self.scale
        out = z @ self.lin + self.b2
        if self.w1.shape[1]:
            out = out + np.tanh(z @ self.w1 + self.b1) @ self.w2
        return out

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays :func:`save_weights` writes."""
        return {
            "mean": self.mean,
            "scale": self.scale,
            "w1": self.w1,
            "b1": self.b1,
            "w2": self.w2,
            "lin": self.lin,
            "b2": np.array(self.b2),
        }


def save_weights(path: str | Path, net: ValueNet, **meta: Any) -> None:
    """Write ``net`` to ``path`` (``.npz``) with the feature names and format version; extra
    ``meta`` values must be numbers or strings (stored as 0-d arrays)."""
    arrays: dict[str, Any] = {"version": np.array(WEIGHTS_VERSION), "features": np.array(FEATURE_NAMES)}
    arrays.update(net.arrays())
    arrays.update({f"meta_{k}": np.array(v) for k, v in meta.items()})
    np.savez_compressed(path, **arrays)


def load_weights(path: str | Path | None = None) -> ValueNet:
    """The value network stored at ``path`` (default: the weights shipped in this package).

    Read with ``np.load(..., allow_pickle=False)``: nothing in the file is executed. Raises
    :class:`WeightsError` naming the file for a missing or unreadable file, one larger than
    :data:`MAX_WEIGHTS_BYTES` (or one that never ends, ``/dev/zero``), a member of the
    wrong kind (a network array that is not real floats, a version that is not an integer:
    :func:`_read_npz`), another format version, other feature names, arrays of the wrong
    shape, and values that are not finite."""
    if path is None:
        src = resources.files(__package__).joinpath(WEIGHTS_FILE)
        where = str(src)
    else:
        src = Path(path)
        where = str(path)
    try:
        if isinstance(src, Path):  # at most MAX_WEIGHTS_BYTES read: /dev/zero would never end
            arrays = _read_npz(io.BytesIO(read_limited(src, MAX_WEIGHTS_BYTES, "weights", WeightsError)), where)
        else:
            with src.open("rb") as fh:
                arrays = _read_npz(fh, where)
    except FileNotFoundError:
        raise WeightsError(f"weights file of the learned bot not found: {where}") from None
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as exc:
        raise WeightsError(f"weights file {where} cannot be read as numpy arrays: {exc}") from None
    try:
        version = int(arrays["version"])
        names = tuple(str(s) for s in arrays["features"])
        net = ValueNet(*(arrays[k] for k in ("mean", "scale", "w1", "b1", "w2", "lin", "b2")))
    except KeyError as exc:
        raise WeightsError(f"weights file {where} lacks the array {exc}") from None
    except (TypeError, ValueError) as exc:
        raise WeightsError(f"weights file {where} holds a malformed array: {exc}") from None
    if version != WEIGHTS_VERSION:
        raise WeightsError(f"weights file {where} has format version {version}, expected {WEIGHTS_VERSION}")
    if names != FEATURE_NAMES:
        raise WeightsError(f"weights file {where} was trained on other features: {', '.join(names)}")
    f = N_FEATURES
    if net.w1.ndim != 2:
        raise WeightsError(f"weights file {where}: array 'w1' has shape {net.w1.shape}, expected ({f}, hidden units)")
    h = net.w1.shape[1]
    shapes = {
        "mean": (net.mean.shape, (f,)),
        "scale": (net.scale.shape, (f,)),
        "w1": (net.w1.shape, (f, h)),
        "b1": (net.b1.shape, (h,)),
        "w2": (net.w2.shape, (h,)),
        "lin": (net.lin.shape, (f,)),
    }
    for key, (got, want) in shapes.items():
        if got != want:
            raise WeightsError(f"weights file {where}: array {key!r} has shape {got}, expected {want}")
    for key, arr in net.arrays().items():
        if not np.all(np.isfinite(arr)):
            raise WeightsError(f"weights file {where}: array {key!r} holds a value that is not finite")
    if np.any(net.scale <= 0):
        raise WeightsError(f"weights file {where}: array 'scale' must be positive")
    return net


#: the most bytes a weights file may hold, unpacked (the shipped one holds a few kB)
MAX_WEIGHTS_BYTES = 4_000_000

#: the members of a weights file (as :func:`save_weights` writes them) and the numpy dtype
#: kinds each may hold: the network's arrays real floats, the version an integer, the
#: feature names text; ``meta_*`` members (training notes) numbers or text
MEMBER_KINDS: dict[str, str] = {
    "version": "iu",
    "features": "U",
    **{k: "f" for k in ("mean", "scale", "w1", "b1", "w2", "lin", "b2")},
}
META_KINDS = "fiuU"
#: the members that hold one value (0-d arrays)
SCALAR_MEMBERS = frozenset({"version", "b2"})

_KIND_NAMES = {"f": "real floats", "i": "integers", "u": "integers", "U": "text"}


def _member_kinds(name: str, where: str) -> str:
    """The dtype kinds member ``name`` may hold; :class:`WeightsError` for a member that is
    none of the format's."""
    kinds = MEMBER_KINDS.get(name, META_KINDS if name.startswith("meta_") else None)
    if kinds is None:
        raise WeightsError(f"weights file {where} holds an array {name!r} that is no part of the format")
    return kinds


def _read_npz(fh: Any, where: str) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` archive ``fh``, each checked before it is read: a ``.npy``
    member of the format (:data:`MEMBER_KINDS`, ``meta_*``) holding what that member holds
    (real floats for the network, an integer version, text for the feature names; one value
    for the :data:`SCALAR_MEMBERS` and ``meta_*``), no more than :data:`MAX_WEIGHTS_BYTES`
    unpacked in all, holding the data its header declares. Raises :class:`WeightsError`
    naming the member otherwise (never unpickles, never allocates what the header claims
    before the data is there)."""
    if not zipfile.is_zipfile(fh):
        raise WeightsError(f"weights file {where} is not a .npz archive (numpy's savez format)")
    fh.seek(0)
    out: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(fh) as archive:
        members = archive.infolist()
        if sum(m.file_size for m in members) > MAX_WEIGHTS_BYTES:
            raise WeightsError(f"weights file {where} unpacks to more than {MAX_WEIGHTS_BYTES} bytes")
        for m in members:
            if not m.filename.endswith(".npy"):
                raise WeightsError(f"weights file {where} holds {m.filename!r}, not a .npy array")
            raw = archive.read(m)
            if len(raw) > MAX_WEIGHTS_BYTES:
                raise WeightsError(f"weights file {where} unpacks to more than {MAX_WEIGHTS_BYTES} bytes")
            buf = io.BytesIO(raw)
            version = np.lib.format.read_magic(buf)
            read_header = (
                np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            )
            shape, _fortran, dtype = read_header(buf)
            name = m.filename[: -len(".npy")]
            kinds = _member_kinds(name, where)
            if dtype.hasobject or dtype.kind not in kinds:
                wanted = " or ".join(dict.fromkeys(_KIND_NAMES[k] for k in kinds))
                raise WeightsError(f"weights file {where}: array {name!r} holds {dtype}, not {wanted}")
            if (name in SCALAR_MEMBERS or name.startswith("meta_")) and shape != ():
                raise WeightsError(
                    f"weights file {where}: array {name!r} holds one value, not an array of shape {shape}"
                )
            if name == "features" and len(shape) != 1:
                raise WeightsError(f"weights file {where}: array 'features' is a list of names, not of shape {shape}")
            if math.prod(shape) * dtype.itemsize > len(raw):  # Python ints: a shape of 10**30 does not overflow
                raise WeightsError(f"weights file {where}: array {name!r} holds less data than its shape says")
            buf.seek(0)
            out[name] = np.lib.format.read_array(buf, allow_pickle=False)
    return out


_SHIPPED: list[ValueNet] = []


def shipped_weights() -> ValueNet:
    """The shipped value network (loaded once per process)."""
    if not _SHIPPED:
        _SHIPPED.append(load_weights())
    return _SHIPPED[0]


class LearnedBot(Bot):
    """Plays the action whose outcome a value network trained on this engine rates best: each
    of the greedy heuristic's best actions is applied to a determinized copy of the game,
    followed by greedy play to the seat's next turn, and the position reached is scored.

    Parameters: ``top_k`` (candidates per decision, default 8; 0 for every legal action),
    ``worlds`` (determinized copies per decision, the values summed, default 3), ``lookahead`` (turns of greedy play before the
    position is scored, default 1; 0 scores the position right after the action), ``weights``
    (path of a ``.npz`` weights file; default the shipped one, :data:`WEIGHTS_FILE`). Raises
    :class:`~alhambra.bots.base.BotSpecError` for a negative ``top_k`` or ``lookahead`` or
    ``worlds`` below 1, :class:`WeightsError` for a weights file it cannot use. Trained on the
    base game with 2 and 4 players (``benchmarks/train_learned.py``; win rates and time per
    decision in ``docs/bots.md``)."""

    name = "learned"
    params = {"top_k": int, "lookahead": int, "worlds": int, "weights": str}

    def __init__(
        self,
        seed: int | None = None,
        top_k: int | None = None,
        lookahead: int = 1,
        worlds: int | None = None,
        weights: str | None = None,
        net: ValueNet | None = None,
    ):
        super().__init__(seed)
        if top_k is not None and top_k < 0:
            raise BotSpecError(f"bot 'learned': top_k must be 0 or more, not {top_k}")
        if lookahead < 0:
            raise BotSpecError(f"bot 'learned': lookahead must be 0 or more, not {lookahead}")
        if worlds is not None and worlds < 1:
            raise BotSpecError(f"bot 'learned': worlds must be at least 1, not {worlds}")
        #: candidates per decision (None: the default, 8)
        self.top_k_param = top_k
        self.top_k = top_k if top_k is not None else 8
        self.lookahead = lookahead
        #: determinized worlds per decision (None: the default, 3)
        self.worlds_param = worlds
        self.worlds = worlds or 3
        self.weights_path = weights
        if net is not None:
            self.net = net
        elif weights is not None:
            self.net = load_weights(weights)
        else:
            self.net = shipped_weights()

    def spec(self) -> str:
        parts = [self.name]
        if self.top_k_param is not None:
            parts.append(f"top_k={self.top_k_param}")
        if self.lookahead != 1:
            parts.append(f"lookahead={self.lookahead}")
        if self.worlds_param is not None:
            parts.append(f"worlds={self.worlds_param}")
        if self.weights_path is not None:
            parts.append(f"weights={self.weights_path}")
        return ":".join(parts)

    def candidates(self, game: Any, seat: int, legal: list[Any]) -> list[int]:
        """Indices into ``legal`` of the actions to value: the greedy heuristic's ``top_k``
        best (ties: listed first; every action when ``top_k`` is 0), leaving out moving a tile
        of the Alhambra to the reserve or swapping it (R-TURN-5) unless the heuristic values
        that above 0."""
        vals = Evaluator(game, seat, DEFAULT_WEIGHTS).action_values(legal)
        order = sorted(range(len(legal)), key=lambda i: (-vals[i], i))
        # taking a tile out of the Alhambra (R-TURN-5) only when the heuristic sees a gain:
        # the network never learned to value a redesign, and moving tiles to and fro stalls
        keep = [i for i in order if vals[i] > 0 or type(legal[i]) not in (RemoveToReserve, Swap)] or order
        return keep[: self.top_k] if self.top_k else keep

    def choose(self, game: Any, seat: int, legal: list[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        idx = self.candidates(game, seat, legal)
        total = np.zeros(len(idx))
        for _ in range(self.worlds):
            total += self._values(game, seat, legal, idx)
        best = 0
        for j in range(1, len(idx)):
            if total[j] > total[best] + 1e-12:
                best = j
        return legal[idx[best]]

    def _values(self, game: Any, seat: int, legal: list[Any], idx: list[int]) -> np.ndarray:
        """Values of the actions ``legal[i]`` for ``i`` in ``idx`` in one determinized world
        (shape ``(len(idx),)``; an action the world does not allow gets -inf)."""
        world = observe(game, seat, self.rng)
        wlegal = set(world.legal_actions())
        turn0 = world.state.turn
        rows: list[np.ndarray] = []
        done: dict[int, float] = {}
        absent: list[int] = []
        for j, i in enumerate(idx):
            a = legal[i]
            if a not in wlegal:  # cannot happen for a consistent world; stay safe
                absent.append(j)
                rows.append(np.zeros(N_FEATURES))
                continue
            g = world.clone(seed=self.rng.getrandbits(32))
            g.apply(a)
            if self.lookahead:
                rollout(g, seat, turn0, self.lookahead)
            if g.is_over:
                done[j] = result_value(g, seat)
                rows.append(np.zeros(N_FEATURES))
            else:
                rows.append(features(g, seat))
        vals = self.net(np.vstack(rows))
        for j, v in done.items():
            vals[j] = v
        for j in absent:
            vals[j] = -np.inf
        return vals


def result_value(game: Any, seat: int) -> float:
    """The training target of a finished game for ``seat`` (the scale of the network's
    values): half its victory share (shared victories split, R-END-3) plus half of
    tanh(its final margin over the best other seat / 20 points)."""
    winners = game.winners
    scores = game.scores
    win = 1.0 / len(winners) if seat in winners else 0.0
    others = [scores[o] for o in range(game.num_players) if o != seat] or [scores[seat]]
    margin = scores[seat] - max(others)
    return 0.5 * win + 0.5 * float(np.tanh(margin / 20.0))


def rollout(game: Any, seat: int, turn0: int, turns: int = 1, max_actions: int = 400) -> None:
    """Play ``game`` on with the greedy heuristic for every seat until ``seat`` begins its
    ``turns``-th turn after turn ``turn0`` (deciding in phase ``"turn"``), or the game ends."""
    seen = 0
    last = turn0
    for _ in range(max_actions):
        if game.is_over:
            return
        st = game.state
        if st.phase == "turn" and st.decider == seat and st.turn != last:
            seen += 1
            last = st.turn
            if seen >= turns:
                return
        play_greedy_step(game)


def default_net() -> ValueNet:
    """A network that values a position by ``value_vs_mean`` alone (untrained: the start of
    training and a fallback for experiments)."""
    f = N_FEATURES
    lin = np.zeros(f)
    lin[FEATURE_NAMES.index("value_vs_mean")] = 1.0
    return ValueNet(np.zeros(f), np.ones(f), np.zeros((f, 0)), np.zeros(0), np.zeros(0), lin, 0.0)


__all__ = [
    "FEATURE_NAMES",
    "LearnedBot",
    "ValueNet",
    "WeightsError",
    "default_net",
    "features",
    "load_weights",
    "save_weights",
    "shipped_weights",
]
