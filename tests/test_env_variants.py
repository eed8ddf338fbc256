"""The environments' action space follows the rule set it plays (issue 36): a house rule
allowing money takes up to 6 (R-TURN-2) plays environment games to the end, never a mid-game
``IllegalActionError: ... is not in the encoded values``; the base game's codes stay as they were."""

from __future__ import annotations

import importlib.util
import types
from itertools import combinations
from pathlib import Path

import attrs
import numpy as np
import pytest
from alhambra import ActionKind, TakeMoney, hookimpl
from alhambra.env import ActionCodec, Session, alhambra_v0
from helpers import cards, situation

VARIANTS = Path(__file__).resolve().parents[1] / "examples" / "variants"


def _variant(name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(f"variant_{name}", VARIANTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _six_by_hook() -> types.SimpleNamespace:
    """The money-six house rule as the rule set declares it: ``alhambra_take_limit``."""
    return types.SimpleNamespace(NAME="money_six", alhambra_take_limit=hookimpl(lambda limit: 6))


def _takes_up_to_six(game, seat):
    money = [c for c in game.state.display if c.is_money]
    out = {TakeMoney((c,)) for c in money}
    for k in range(2, len(money) + 1):
        out.update(TakeMoney(combo) for combo in combinations(money, k) if sum(c.value for c in combo) <= 6)
    return sorted(out, key=str)


def _six_by_own_kind() -> types.SimpleNamespace:
    """The money-six house rule written as a plugin's own TakeMoney listing (the environment
    cannot know its takes in advance: they are written card by card)."""

    def adjust(kind: ActionKind) -> ActionKind | None:
        return attrs.evolve(kind, legal=_takes_up_to_six) if kind.action is TakeMoney else None

    return types.SimpleNamespace(NAME="money_six_kind", alhambra_action_kind=hookimpl(adjust))


@pytest.mark.parametrize("make", [_six_by_hook, _six_by_own_kind], ids=["hook", "own_kind"])
def test_r_turn_2_money_six_house_rule_plays_200_environment_games(make):
    """200 PettingZoo games of the money-six house rule, every action drawn from the mask:
    none raises, each ends, and takes totalling 6 (R-TURN-2 as the house rule has it) are
    played through the integer codes."""
    env = alhambra_v0.env(players=2, modules=[make()])
    sixes = 0
    for seed in range(200):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            action = None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        game = env.unwrapped.session.game
        assert game.is_over, seed
        sixes += sum(
            1
            for a in game.history
            if isinstance(a, TakeMoney) and len(a.cards) > 1 and sum(c.value for c in a.cards) == 6
        )
    assert sixes > 0


def test_r_turn_2_the_base_game_keeps_its_take_codes():
    """The default codec is unchanged: one integer per take, 407 of them with every module
    (docs/env.md), 1021 integers without modules and 1910 with all six (the city gates' window
    adds its FinishGates)."""
    codec = Session(4, []).codec
    assert codec.num_actions == 1021
    assert ("TakeMoney.cards", 1, 375) in codec.layout()
    codec = Session(4, "all").codec
    assert codec.num_actions == 1910 and ("TakeMoney.cards", 1, 407) in codec.layout()


def test_r_turn_2_a_restricted_take_kind_keeps_the_base_codes():
    """A hand limit lists fewer takes (``ActionKind.restricted``): the codes stay the base
    game's, one integer per take."""
    codec = Session(3, [_variant("hand_limit")]).codec
    assert codec.num_actions == 1021 and ("TakeMoney.cards", 1, 375) in codec.layout()


def test_r_turn_2_a_higher_total_gets_every_take_of_its_own():
    """At a total of 6 the takes are still one integer each, more of them (the takes of 6);
    the layout of the other kinds only moves."""
    s = Session(2, [_six_by_hook()])
    assert ("TakeMoney.cards", 1, 721) in s.codec.layout()
    g = situation(2, display=cards("florin-1", "dinar-2", "ducat-3", "dirham-3"), modules=[_six_by_hook()])
    s.load(g)
    six = TakeMoney(cards("florin-1", "dinar-2", "ducat-3"))
    assert six in g.legal_actions()
    (i,) = s.encode(six)
    assert s.codec.decode((i,), g) == six and i in s.legal_ints()
    assert s.step(i) == six and g.history[-1] == six


def test_r_turn_2_takes_beyond_the_one_integer_table_are_written_card_by_card():
    """A total of 12 would make 15,980 one-integer takes with diamonds: the codec writes a take
    as ``TakeMoney``, its cards in canonical order, then "done" (as a payment is), which holds
    any take; so does a plugin's own TakeMoney listing."""
    twelve = types.SimpleNamespace(NAME="twelve", alhambra_take_limit=hookimpl(lambda limit: 12))
    s = Session(2, [twelve, "diamonds"])
    layout = {name: (start, size) for name, start, size in s.codec.layout()}
    take, size = layout["TakeMoney"][0], layout["TakeMoney.cards"][1]
    assert layout["TakeMoney"][1] == 1 and size == 46 + 1  # 36 money cards, 10 diamonds, "done"
    g = situation(2, display=cards("florin-1", "dinar-2", "ducat-4", "dirham-5"), modules=[twelve, "diamonds"])
    s.load(g)
    four = TakeMoney(cards("florin-1", "dinar-2", "ducat-4", "dirham-5"))
    code = s.encode(four)
    assert code[0] == take and len(code) == 6 and s.codec.decode(code, g) == four
    assert s.codec.describe(take) == "TakeMoney" and s.codec.describe(code[-1]) == "TakeMoney.cards=done"
    for i in code[:-1]:
        assert i in s.legal_ints() and s.step(i) is None
    assert s.step(code[-1]) == four and g.history[-1] == four
    own = ActionCodec(situation(2, modules=[_six_by_own_kind()]))
    assert [n for n, _start, _size in own.layout()][:3] == ["Pass", "TakeMoney", "TakeMoney.cards"]
