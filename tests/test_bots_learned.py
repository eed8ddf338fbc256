"""The learned bot: registered, loads its shipped weights (numpy, no pickle), plays legal full
games for any player count and module combination, honest and deterministic, and refuses a
missing or corrupt weights file."""

from __future__ import annotations

import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import alhambra
from alhambra import AlhambraError
from alhambra.bots import bot_class, bot_names, make_bot
from alhambra.bots.learned import (
    FEATURE_NAMES,
    N_FEATURES,
    WEIGHTS_FILE,
    LearnedBot,
    ValueNet,
    WeightsError,
    default_net,
    features,
    load_weights,
    save_weights,
    shipped_weights,
)
from alhambra.simulate import play
from helpers import COMBINATIONS6, seeds_st

modules6_all = st.sampled_from(COMBINATIONS6)


def _saved_members(tmp_path, **kwargs):
    """The default network saved as ``good.npz`` in ``tmp_path`` (``save_weights`` keyword
    arguments passed on), and its members as arrays."""
    good = tmp_path / "good.npz"
    save_weights(good, default_net(), **kwargs)
    with np.load(good, allow_pickle=False) as data:
        return good, {k: data[k] for k in data.files}


def test_registered_and_found_by_name():
    assert "learned" in bot_names()  # through the entry point in pyproject.toml
    assert bot_class("learned") is LearnedBot
    bot = make_bot("learned", 3)
    assert isinstance(bot, LearnedBot) and bot.seed == 3 and bot.spec() == "learned"
    assert make_bot("learned:top_k=4").spec() == "learned:top_k=4"
    assert alhambra.bots.LearnedBot is LearnedBot  # re-exported lazily


def test_shipped_weights_load_without_pickle(tmp_path):
    net = shipped_weights()
    assert net.mean.shape == (N_FEATURES,) and net.lin.shape == (N_FEATURES,)
    assert np.all(np.isfinite(net.lin)) and np.any(net.lin != 0.0)  # trained, not the zero net
    from importlib import resources

    src = resources.files("alhambra.bots").joinpath(WEIGHTS_FILE)
    with src.open("rb") as fh, np.load(fh, allow_pickle=False) as data:
        assert all(data[k].dtype != object for k in data.files)  # plain arrays only
        assert tuple(str(s) for s in data["features"]) == FEATURE_NAMES
    assert len(src.read_bytes()) < 3_000_000  # small package data


def test_save_load_round_trip(tmp_path):
    net = default_net()
    path = tmp_path / "w.npz"
    save_weights(path, net, seed=7)
    back = load_weights(path)
    x = np.arange(2 * N_FEATURES, dtype=float).reshape(2, N_FEATURES)
    assert np.array_equal(back(x), net(x))
    assert back(x)[1] == x[1, FEATURE_NAMES.index("value_vs_mean")]


def test_missing_weights_file_is_refused(tmp_path):
    with pytest.raises(WeightsError, match="not found: .*nowhere.npz"):
        load_weights(tmp_path / "nowhere.npz")
    with pytest.raises(WeightsError):
        make_bot(f"learned:weights={tmp_path / 'nowhere.npz'}")
    assert issubclass(WeightsError, AlhambraError)


def test_corrupt_weights_files_are_refused(tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip file at all")
    with pytest.raises(WeightsError, match="is not a .npz archive"):
        load_weights(junk)
    plain = tmp_path / "plain.npy"  # one array, not an archive
    np.save(plain, np.zeros(3))
    with pytest.raises(WeightsError, match="is not a .npz archive"):
        load_weights(plain)
    # an object array (would need pickle): refused, never unpickled
    obj = tmp_path / "obj.npz"
    arrays = {k: v for k, v in default_net().arrays().items()}
    np.savez(
        obj,
        version=np.array(1),
        features=np.array(FEATURE_NAMES),
        **{**arrays, "lin": np.array([object()] * N_FEATURES, dtype=object)},
    )
    with pytest.raises(WeightsError, match="array 'lin' holds object, not real floats"):
        load_weights(obj)
    # wrong shape, wrong version, missing array, other features, not finite
    good, base = _saved_members(tmp_path)
    cases = [
        ({"lin": np.zeros(N_FEATURES + 1)}, "array 'lin' has shape"),
        ({"version": np.array(99)}, "format version 99"),
        ({"features": np.array(FEATURE_NAMES[::-1])}, "other features"),
        ({"b2": np.array(np.nan)}, "not finite"),
        ({"scale": np.zeros(N_FEATURES)}, "'scale' must be positive"),
    ]
    for change, match in cases:
        bad = tmp_path / "bad.npz"
        np.savez(bad, **{**base, **change})
        with pytest.raises(WeightsError, match=match):
            load_weights(bad)
    missing = tmp_path / "missing.npz"
    np.savez(missing, **{k: v for k, v in base.items() if k != "w1"})
    with pytest.raises(WeightsError, match="lacks the array 'w1'"):
        load_weights(missing)
    # a truncated archive
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[:40])
    with pytest.raises(WeightsError):
        load_weights(cut)
    assert zipfile.is_zipfile(good)


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"mean": np.ones(N_FEATURES, dtype=bool)}, r"array 'mean' holds bool, not real floats"),
        ({"w2": np.zeros(8, dtype=complex)}, r"array 'w2' holds complex128, not real floats"),
        ({"lin": np.zeros(N_FEATURES, dtype=np.int64)}, r"array 'lin' holds int64, not real floats"),
        ({"scale": np.array(["1.0"] * N_FEATURES)}, r"array 'scale' holds <U3, not real floats"),
        ({"b2": np.array(True)}, r"array 'b2' holds bool, not real floats"),
        ({"b2": np.array([0.5])}, r"array 'b2' holds one value, not an array of shape \(1,\)"),
        ({"version": np.array("1")}, r"array 'version' holds <U1, not integers"),
        ({"version": np.array(1.0)}, r"array 'version' holds float64, not integers"),
        ({"version": np.array([1])}, r"array 'version' holds one value"),
        ({"features": np.arange(N_FEATURES)}, r"array 'features' holds int64, not text"),
        ({"meta_seed": np.array(1 + 2j)}, r"array 'meta_seed' holds complex128, not real floats or integers or text"),
        ({"extra": np.zeros(3)}, r"array 'extra' that is no part of the format"),
    ],
    ids=lambda v: v if isinstance(v, str) else next(iter(v)),
)
def test_weights_members_of_the_wrong_kind_are_refused_naming_them(tmp_path, change, match):
    """Only real floats for the network, an integer version and text feature names: a bool
    or complex array, a version stored as the text "1" used to load."""
    good, base = _saved_members(tmp_path, seed=7)
    assert load_weights(good) is not None
    bad = tmp_path / "bad.npz"
    np.savez(bad, **{**base, **change})
    with pytest.raises(WeightsError, match=match):
        load_weights(bad)


def test_features_shape_and_rule_set_values():
    game = alhambra.new_game(3, seed=4)
    f = features(game, 0)
    assert f.shape == (N_FEATURES,) and np.all(np.isfinite(f))
    # at the start nobody has scored and nothing is drawn yet
    assert f[FEATURE_NAMES.index("score_vs_best")] == 0.0
    assert f[FEATURE_NAMES.index("progress")] == 0.0


def _finished(players, modules, seed, honest=False):
    bots = [make_bot("learned", seed * 10 + i) if i < 2 else make_bot("greedy", i) for i in range(players)]
    return play(alhambra.new_game(players, modules=modules, seed=seed), bots, honest=honest)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), modules=modules6_all, seed=seeds_st)
def test_full_legal_games_any_players_and_modules(players, modules, seed):
    """Two learned seats and greedy in the rest play a whole game of any module combination
    (play() refuses an illegal choice): it ends (R-END-3) with the winners among the seats."""
    game = _finished(players, modules, seed)
    assert game.is_over and set(game.winners) <= set(range(players))


@pytest.mark.parametrize("players", [2, 4])
def test_deterministic_for_a_seed_and_honest(players):
    a = _finished(players, (), 11)
    b = _finished(players, (), 11)
    assert a.history == b.history and a.scores == b.scores
    h = _finished(players, (), 11, honest=True)  # deciding on game.determinize(seat)
    assert h.is_over


def test_does_not_read_the_bag_order():
    """The bot values actions on a determinized copy: reordering the bag (unseen, R-SET-3)
    does not change its choice."""
    game = alhambra.new_game(2, seed=21)
    bot_a, bot_b = LearnedBot(5), LearnedBot(5)
    other = game.clone()
    other.state.bag.reverse()
    legal = game.legal_actions()
    assert bot_a.choose(game, game.state.decider, legal) == bot_b.choose(
        other, other.state.decider, other.legal_actions()
    )


def test_bad_parameters():
    with pytest.raises(AlhambraError, match="top_k"):
        make_bot("learned:top_k=-1")
    with pytest.raises(AlhambraError, match="no parameter 'depth'"):
        make_bot("learned:depth=2")
    with pytest.raises(AlhambraError, match="worlds must be at least 1"):
        make_bot("learned:worlds=0")
    with pytest.raises(AlhambraError, match="lookahead must be 0 or more"):
        make_bot("learned:lookahead=-1")
    assert make_bot("learned:worlds=2:lookahead=0").spec() == "learned:lookahead=0:worlds=2"


def test_default_budget_and_named_values():
    """3 worlds over 8 candidates by default (measured in docs/bots.md); named values stay."""
    bot = make_bot("learned", 1)
    assert (bot.worlds, bot.top_k, bot.lookahead) == (3, 8, 1)
    named = make_bot("learned:worlds=2:top_k=3", 1)
    game = alhambra.new_game(2, seed=2)
    named.choose(game, game.state.decider, game.legal_actions())
    assert (named.worlds, named.top_k) == (2, 3)


def test_value_net_shapes():
    net = ValueNet(
        np.zeros(N_FEATURES),
        np.ones(N_FEATURES),
        np.ones((N_FEATURES, 2)),
        np.zeros(2),
        np.ones(2),
        np.zeros(N_FEATURES),
        0.5,
    )
    x = np.zeros((3, N_FEATURES))
    assert net(x).shape == (3,) and np.allclose(net(x), 0.5)


def test_training_script_writes_loadable_weights(tmp_path):
    """benchmarks/train_learned.py, run tiny: a weights file the bot loads and plays with."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "train_learned.py"
    spec = importlib.util.spec_from_file_location("train_learned", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "w.npz"
    assert mod.main(["--rounds", "0", "--games", "2", "--check", "2", "--players", "2", "--out", str(out)]) == 0
    net = load_weights(out)
    assert np.any(net.lin != 0.0)
    game = play(alhambra.new_game(2, seed=3), [LearnedBot(1, weights=str(out)), make_bot("greedy", 2)])
    assert game.is_over


def test_a_weights_file_that_claims_more_than_it_holds_is_refused_before_reading(tmp_path):
    """A header declaring 10**12 floats over 64 bytes of data, and an archive unpacking to far
    more than any weights: refused by their sizes, nothing of that size allocated."""
    import zipfile

    liar = tmp_path / "liar.npz"
    with zipfile.ZipFile(liar, "w") as z:
        z.writestr("mean.npy", _npy_with_header((10**12,)))
    with pytest.raises(WeightsError, match="holds less data than its shape says"):
        load_weights(liar)
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("mean.npy", bytes(50_000_000))
    assert bomb.stat().st_size < 200_000
    with pytest.raises(WeightsError, match="unpacks to more than"):
        load_weights(bomb)


def _npy_with_header(shape) -> bytes:
    import io

    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<f8", "fortran_order": False, "shape": shape})
    return buf.getvalue() + bytes(64)  # the header (with its magic), then 64 bytes of data


def test_a_declared_shape_beyond_int64_is_refused_naming_the_array(tmp_path):
    """10**30 floats used to overflow numpy's product (OverflowError), 2**32 x 2**32 to wrap
    to 0 and pass the size check."""
    for shape in ((10**30,), (2**32, 2**32)):
        liar = tmp_path / "liar.npz"
        with zipfile.ZipFile(liar, "w") as z:
            z.writestr("mean.npy", _npy_with_header(shape))
        with pytest.raises(WeightsError, match="array 'mean' holds less data than its shape says"):
            load_weights(liar)


@pytest.mark.skipif(not __import__("os").path.exists("/dev/zero"), reason="no /dev/zero")
def test_weights_from_dev_zero_are_refused_unread():
    """Used to be read until the memory ran out (MemoryError)."""
    with pytest.raises(WeightsError, match="at most 4000000 bytes"):
        load_weights("/dev/zero")


def test_a_network_matrix_that_is_not_two_dimensional_is_named(tmp_path):
    """A flat ``w1`` was reported as "array 'mean' has shape (16,), expected (16,)"."""
    good, base = _saved_members(tmp_path)
    bad = tmp_path / "bad.npz"
    np.savez(bad, **{**base, "w1": base["w1"].reshape(-1)})
    with pytest.raises(WeightsError, match=r"array 'w1' has shape \(\d+,\), expected \(16, hidden units\)"):
        load_weights(bad)


def test_big_endian_and_fortran_order_arrays_load(tmp_path):
    good, base = _saved_members(tmp_path)
    other = tmp_path / "other.npz"
    np.savez(other, **{**base, "w1": np.asfortranarray(base["w1"].astype(">f8")), "b2": base["b2"].astype(">f4")})
    net = load_weights(other)
    assert np.array_equal(net.w1, base["w1"])
