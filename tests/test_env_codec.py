"""Hand-built situations for the environments' action space and observations."""

from __future__ import annotations

import alhambra
import numpy as np
import pytest
from alhambra import (
    Action,
    ActionKind,
    ConfigError,
    IllegalActionError,
    Place,
    hookimpl,
)
from alhambra.env import (
    ActionCodec,
    ActionEncoding,
    Field,
    Session,
    WindowError,
    city_slots,
    register_encoding,
)
from alhambra.env.observation import SLOT_FEATURES
from attrs import frozen
from helpers import cards, florin, situation


def _segment(codec: ActionCodec, name: str) -> int:
    return next(start for n, start, _ in codec.layout() if n == name)


def test_r_turn_3_a_purchase_is_its_space_then_each_card_then_pay():
    """Market space 1 (florin) holds tile 2 (price 3); the hand pays it with florin-1 +
    florin-2 or with florin-3 alone (the non-dominated payments, R-TURN-3)."""
    g = situation(3, market=[2, None, None, None], hands={0: cards("florin-1", "florin-2", "florin-3")})
    s = Session(3, [])
    s.load(g)
    codec = s.codec
    buy, pay = _segment(codec, "Buy.space+via"), _segment(codec, "Buy.cards")
    money = [c for c in g.rules.cards.values() if type(c) is alhambra.MoneyCard]
    payment = alhambra.Buy(1, (florin(1), florin(2)))
    assert codec.encode(payment) == (buy, pay + money.index(florin(1)), pay + money.index(florin(2)), pay + 36)
    assert codec.decode(codec.encode(payment)) == payment
    # after the space, the first card of each listed payment (cards come in canonical
    # order: florin-2 never comes first); "pay" only once the payment is complete
    assert buy in s.legal_ints()
    assert s.step(buy) is None
    assert s.legal_ints() == [pay + money.index(florin(1)), pay + money.index(florin(3))]
    assert s.step(pay + money.index(florin(1))) is None
    assert s.legal_ints() == [pay + money.index(florin(2))]
    with pytest.raises(IllegalActionError):
        s.step(pay + 36)  # florin-1 alone does not cover the price
    s.step(pay + money.index(florin(2)))
    assert s.step(pay + 36) == payment and g.history[-1] == payment
    assert g.phase == "turn" and g.state.pending  # exact: another action (R-TURN-4), placed later


def test_a_placement_is_the_tile_then_the_cell_slot_of_the_movers_alhambra():
    # R-PLACE-2: a tile goes next to a tile; the slots are the occupied cells and their empty
    # neighbours, row by row
    g = situation(2, seat=0, cities={0: {(1, 0): 7}})
    codec = ActionCodec(g)
    tiles = [t for t in g.rules.catalog if t != 0]
    place, cell = _segment(codec, "Place.tile"), _segment(codec, "cell")
    slots = city_slots(g.state.players[0].city)
    assert slots == ((0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (2, 0), (0, 1), (1, 1))
    assert codec.encode(Place(17, (2, 0)), g) == (place + tiles.index(17), cell + 5)
    assert codec.encode(Place(17, (0, -1)), g) == (place + tiles.index(17), cell)
    assert codec.decode(codec.encode(Place(17, (1, 1)), g), g) == Place(17, (1, 1))
    assert codec.num_actions == ActionCodec(alhambra.new_game(5, seed=2)).num_actions
    assert codec.slots == 3 * 55 + 2  # 54 buildings and the fountain, 2 n + 2 empty neighbours


def test_a_cell_that_is_no_slot_is_a_window_error_and_a_cell_needs_the_game():
    g = alhambra.new_game(2, seed=1)
    codec = ActionCodec(g)
    with pytest.raises(WindowError, match="not a cell slot"):
        codec.encode(Place(17, (3, 0)), g)
    with pytest.raises(IllegalActionError, match="pass the game"):
        codec.encode(Place(17, (1, 0)))
    with pytest.raises(IllegalActionError, match="not a cell slot"):
        codec.decode((_segment(codec, "Place.tile"), _segment(codec, "cell") + 5), g)  # 5 slots only


def test_a_line_of_every_wall_less_building_stays_inside_the_layout():
    # an Alhambra far beyond any fixed window: the ten wall-less buildings in one row (R-COMP-2)
    line = {(x, 0): t for x, t in zip(range(1, 11), (7, 14, 22, 23, 31, 32, 41, 42, 52, 53))}
    far = situation(2, seat=0, cities={0: line})
    s = Session(2, [])
    s.load(far)
    part = s.encoder.views(s.observe(0))
    xs = part["cities"][0, :, SLOT_FEATURES.index("x")]
    assert xs.max() == 11 and part["cities"][0, :, 0].sum() == 11 + 2 * 11 + 2
    assert s.mask().sum() >= 1


def test_decode_refuses_incomplete_and_foreign_codes():
    codec = ActionCodec(alhambra.new_game(3, seed=1))
    buy = _segment(codec, "Buy.space+via")
    for bad in [(), (buy,), (codec.num_actions,), (-1,), (0, 0), ("1",)]:
        with pytest.raises(IllegalActionError):
            codec.decode(bad)
    assert codec.describe(0) == "Pass"


def test_the_observation_layout_names_own_hand_market_and_each_alhambra():
    g = situation(
        3,
        seat=1,
        market=[2, 10, None, None],
        hands={1: cards("florin-1", "florin-1", "dinar-9")},
        cities={2: {(1, 0): 7}},
    )
    s = Session(3, [])
    s.load(g)
    obs = s.observe(1)
    enc = s.encoder
    part = enc.views(obs)
    codes = [c.code for c in enc.cards]
    assert part["hand"][codes.index("florin-1")] == 2 and part["hand"][codes.index("dinar-9")] == 1
    assert part["hand"].sum() == 3
    assert part["market_prices"].tolist() == [3, g.rules.catalog[10].price, 0, 0]
    assert part["market_tiles"][0, enc.tile_index[2]] == 1 and part["market_tiles"][2].sum() == 0
    # seats relative to the observer: seat 2 is slot 1 for seat 1; tile 7 at (1, 0)
    spec = g.rules.catalog[7]
    slots = city_slots(g.state.players[2].city)
    here = part["cities"][1, slots.index((1, 0))]
    f = SLOT_FEATURES.index
    assert (
        here[f(spec.type)] == 1 and here[f("fountain")] == 0 and here[[f("slot"), f("x"), f("y")]].tolist() == [1, 1, 0]
    )
    assert part["cities"][1, slots.index((0, 0)), f("fountain")] == 1
    assert part["cities"][1, len(slots) :].sum() == 0
    assert part["current_player"].tolist() == [1, 0, 0]
    # the observer's own Alhambra: the fountain and its four neighbours
    assert part["cities"][0, :, f("slot")].sum() == 5 and part["cities"][0, :, f("fountain")].sum() == 1


# -- a third-party module's action kind --------------------------------------------------------


@frozen(slots=True, cache_hash=True)
class Pray(Action):
    """A house rule's turn action: pray at one of the four market spaces (does nothing)."""

    space: int

    def __str__(self) -> str:
        return f"pray at {self.space}"


class PrayerModule:
    NAME = "prayer"

    @hookimpl
    def alhambra_action_kinds(self):
        return [
            ActionKind(
                Pray,
                {"turn"},
                lambda game, seat: [Pray(i) for i in range(1, 5)],
                lambda game, seat, action: alhambra.ACTION_DONE,
            )
        ]


def test_a_third_party_action_kind_needs_a_declared_encoding_then_plays():
    game = alhambra.new_game(3, modules=[PrayerModule()], seed=1)
    with pytest.raises(ConfigError, match="register_encoding"):
        ActionCodec(game)
    register_encoding(Pray, lambda g, slots: ActionEncoding(Pray, (Field(("space",), [(i,) for i in range(1, 5)]),)))
    codec = ActionCodec(game)
    base = ActionCodec(alhambra.new_game(3, seed=1))
    assert codec.num_actions == base.num_actions + 4
    pray = _segment(codec, "Pray.space")
    assert [codec.encode(Pray(i)) for i in range(1, 5)] == [(pray + k,) for k in range(4)]
    s = Session(3, [PrayerModule()])
    s.reset(4)
    while s.game.phase != "turn":
        s.play(s.game.legal_actions()[0])
    assert set(range(pray, pray + 4)) <= set(s.legal_ints())
    assert s.step(pray + 2) == Pray(3) and s.game.history[-1] == Pray(3)
    assert np.count_nonzero(s.mask()) == len({codec.encode(a)[0] for a in s.game.legal_actions()})


@frozen(slots=True, cache_hash=True)
class Kneel(Action):
    """A house rule's turn action: kneel before one of the four market spaces (does nothing)."""

    space: int


class KneelingModule:
    """Declares its encoding with the hook, as the expansion modules do."""

    NAME = "kneeling"

    @hookimpl
    def alhambra_action_kinds(self):
        return [ActionKind(Kneel, {"turn"}, lambda g, s: [Kneel(i) for i in range(1, 5)], lambda g, s, a: None)]

    @hookimpl
    def alhambra_action_encodings(self, game, slots):
        return [ActionEncoding(Kneel, (Field(("space",), [(i,) for i in range(1, 5)]),))]


def test_a_plugin_declares_its_encoding_with_the_hook():
    codec = ActionCodec(alhambra.new_game(3, modules=[KneelingModule()], seed=1))
    kneel = _segment(codec, "Kneel.space")
    assert [codec.encode(Kneel(i)) for i in range(1, 5)] == [(kneel + k,) for k in range(4)]
    assert codec.num_actions == ActionCodec(alhambra.new_game(3, seed=1)).num_actions + 4


def test_an_encoding_hook_answering_anything_but_encodings_is_a_config_error():
    class Broken(KneelingModule):
        NAME = "broken"

        @hookimpl
        def alhambra_action_encodings(self, game, slots):
            return "Kneel"

    with pytest.raises(ConfigError, match="alhambra_action_encodings"):
        ActionCodec(alhambra.new_game(3, modules=[Broken()], seed=1))


def test_readme_agent_loops_run():
    """The three ten-line loops of the README's "Agents and search libraries" section."""
    import contextlib
    import io
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = text.split("## Agents and search libraries")[1].split("\n## ")[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) == 3
    for code in blocks:
        assert len(code.strip().splitlines()) <= 14
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})  # noqa: S102  (the README's own snippets)
        numbers = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", out.getvalue().split(":")[-1])]
        if "gymnasium" in code:  # the learner's share alone
            assert len(numbers) == 1 and 0.0 <= numbers[0] <= 1.0
        else:  # every seat's share: R-END-4, they sum to one
            assert len(numbers) in (2, 4) and sum(numbers) == pytest.approx(1.0)
