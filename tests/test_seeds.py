"""One seed range everywhere (``0 <= seed < alhambra.SEED_LIMIT``): every game any entry point
makes, with or without a seed, saves, loads and continues identically."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import alhambra
from alhambra import ConfigError, Game, SEED_LIMIT
from alhambra.saving.config import load_config

MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 6),
    mods=st.lists(st.sampled_from(MODULES), unique=True),
    seed=st.one_of(st.none(), st.integers(0, SEED_LIMIT - 1)),
    steps=st.integers(0, 60),
)
def test_every_new_game_saves_loads_and_continues_identically(players, mods, seed, steps):
    game = alhambra.new_game(players, modules=mods, seed=seed)
    assert 0 <= game.seed < SEED_LIMIT
    _play(game, random.Random(steps), steps)
    loaded = Game.from_json(game.to_json())
    assert loaded.seed == game.seed
    assert loaded.to_json() == game.to_json()
    rng_a, rng_b = random.Random(1), random.Random(1)
    _play(game, rng_a, 40)
    _play(loaded, rng_b, 40)
    assert loaded.to_json() == game.to_json()


def test_default_seeded_game_loads_ten_times_in_ten():
    for _ in range(10):
        game = alhambra.new_game(3)
        assert Game.from_json(game.to_json()).seed == game.seed


def test_largest_seed_saves_and_loads():
    game = alhambra.new_game(4, modules=MODULES, seed=SEED_LIMIT - 1)
    _play(game, random.Random(3), 30)
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


@pytest.mark.parametrize("seed", [SEED_LIMIT, 2**64, -1])
def test_out_of_range_seed_refused_at_new_game(seed):
    with pytest.raises(ConfigError, match="seed"):
        alhambra.new_game(3, seed=seed)


def test_out_of_range_seed_refused_in_config(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text(f"players = 3\nseed = {SEED_LIMIT}\n")
    with pytest.raises(ConfigError, match="below 2\\*\\*63"):
        load_config(path)


def test_out_of_range_seed_in_save_refused_with_place():
    text = alhambra.new_game(3, seed=5).to_json().replace('"seed":5,', f'"seed":{SEED_LIMIT},')
    with pytest.raises(alhambra.SaveFormatError, match="seed"):
        Game.from_json(text)
