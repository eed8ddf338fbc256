"""A plugin's part of the observation tensor (``alhambra.ObservationPart``, hook
``alhambra_observation_parts``; docs/env.md): declared by the plugin, kept up to date from the
state when it says how, observed through the reference encoding when it does not."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import alhambra
from alhambra import EAST, ConfigError, ObservationPart, hookimpl
from alhambra.env import Session, ViewEncoder
from alhambra.env.incremental import SeatObservations
from alhambra.env.observation import VIEW_ENCODERS, ObservationEncoder
from alhambra_city_gates.plugin import GateCard


def _reserves_write(out: dict[str, np.ndarray], seen: Any, order: Any, layout: Any) -> None:
    for k, s in enumerate(order):
        out["counts"][k] = seen[s]


def _reserves_encode(out: dict[str, np.ndarray], part: Any, view: Any, order: Any, layout: Any) -> None:
    _reserves_write(out, part["counts"], order, layout)


def _reserves_snapshot(game: Any, seat: int, layout: Any, cache: Any) -> tuple[int, ...]:
    return tuple(len(p.reserve) for p in game.state.players)


class ReserveCounts:
    """A third-party plugin whose view entry ``reserve_counts`` shows each reserve's size."""

    NAME = "reserve_counts"

    def __init__(self, declare: str | None = "incremental") -> None:
        self.declare = declare

    @hookimpl
    def alhambra_view(self, game: Any, seat: Any, view: dict[str, Any]) -> None:
        view["modules"]["reserve_counts"] = {"counts": [len(p.reserve) for p in game.state.players]}


class DeclaredReserveCounts(ReserveCounts):
    @hookimpl
    def alhambra_observation_parts(self, game: Any, layout: Any) -> list[ObservationPart]:
        fast = {"snapshot": _reserves_snapshot, "write": _reserves_write} if self.declare == "incremental" else {}
        shape = {"counts": (layout.num_players,)}
        return [ObservationPart("reserve_counts", shape, _reserves_encode, high={"counts": 30}, **fast)]


def _observer(players: int, modules: list[Any]) -> tuple[alhambra.Game, ObservationEncoder, SeatObservations]:
    game = alhambra.new_game(players, modules=modules, seed=3, engine="python")
    encoder = ObservationEncoder(game)
    return game, encoder, SeatObservations(encoder, game)


def _play_and_compare(game: alhambra.Game, encoder: ObservationEncoder, obs: SeatObservations, moves: int) -> None:
    rng = random.Random(1)
    for _ in range(moves):
        if game.is_over:
            break
        for seat in range(game.num_players):
            assert np.array_equal(obs.observe(game, seat), encoder.encode(game.view(seat)))
        game.apply(rng.choice(game.legal_actions()))


def test_a_third_party_part_declared_with_snapshot_and_write_is_kept_up_to_date() -> None:
    game, encoder, obs = _observer(3, ["vizier", DeclaredReserveCounts()])
    assert obs.fast
    names = list(encoder.slices)
    # the plugins' parts after the core's slices, sorted by key
    assert names.index("reserve_counts.counts") == names.index("vizier.active") - 1
    assert encoder.shapes["reserve_counts.counts"] == (3,)
    assert set(encoder.high()[encoder.slices["reserve_counts.counts"]]) == {30}
    _play_and_compare(game, encoder, obs, 150)
    assert any(encoder.views(obs.observe(game, 0))["reserve_counts.counts"])  # something was reserved


def test_a_part_without_snapshot_is_observed_through_the_reference() -> None:
    game, encoder, obs = _observer(3, [DeclaredReserveCounts(declare="reference only")])
    assert not obs.fast
    assert "reserve_counts.counts" in encoder.slices
    _play_and_compare(game, encoder, obs, 60)


def test_a_plugin_that_adds_to_the_view_without_declaring_is_observed_through_the_reference() -> None:
    """Its entry is left out of the tensor, and since the plugin did not say that its view
    changes nothing else, the vector is encoded from ``view(seat)``."""
    game, encoder, obs = _observer(3, ["exchange_offices", ReserveCounts()])
    assert not obs.fast
    assert not any(name.startswith("reserve_counts") for name in encoder.slices)
    _play_and_compare(game, encoder, obs, 60)


def test_a_view_encoder_registered_for_a_module_key_replaces_its_part(monkeypatch: pytest.MonkeyPatch) -> None:
    def write(out: dict[str, np.ndarray], part: Any, view: Any, order: Any, obs: Any) -> None:
        out["tokens"][0] = sum(part["active"])

    monkeypatch.setitem(VIEW_ENCODERS, "vizier", ViewEncoder(lambda g: {"tokens": (1,)}, write))
    game, encoder, obs = _observer(3, ["vizier"])
    assert "vizier.tokens" in encoder.slices and "vizier.active" not in encoder.slices
    assert not obs.fast
    _play_and_compare(game, encoder, obs, 40)


def _declaring(answer: Any) -> Any:
    class Bad:
        NAME = "bad_parts"

        @hookimpl
        def alhambra_observation_parts(self, game: Any, layout: Any) -> Any:
            return answer(layout)

    return Bad()


def _part(**kw: Any) -> ObservationPart:
    return ObservationPart("mine", {"x": (1,)}, _reserves_encode, **kw)


@pytest.mark.parametrize(
    "answer, match",
    [
        (lambda layout: _part(), "must return a list"),
        (lambda layout: ["a part"], "must return ObservationPart"),
        (lambda layout: [_part(), _part()], "two observation parts declare the view key 'mine'"),
        (lambda layout: [ObservationPart("vizier", {"x": (1,)}, _reserves_encode)], "view key 'vizier'"),
    ],
    ids=["not a list", "not a part", "one key twice", "a module's key"],
)
def test_a_bad_declaration_is_a_config_error(answer: Any, match: str) -> None:
    game = alhambra.new_game(3, modules=["vizier", _declaring(answer)], seed=1)
    with pytest.raises(ConfigError, match=match):
        ObservationEncoder(game)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: ObservationPart("", {"x": (1,)}, _reserves_encode), "key must be a non-empty str"),
        (lambda: ObservationPart("k", {}, _reserves_encode), "shapes must be a non-empty dict"),
        (lambda: ObservationPart("k", {"x": (0,)}, _reserves_encode), "positive ints"),
        (lambda: ObservationPart("k", {"x": 3}, _reserves_encode), "positive ints"),
        (lambda: ObservationPart("k", {"x": (1,)}, None), "encode must be callable"),  # type: ignore[arg-type]
        (lambda: _part(snapshot=_reserves_snapshot), "both snapshot and write"),
        (lambda: _part(write=_reserves_write), "both snapshot and write"),
        (lambda: _part(snapshot="no"), "snapshot must be callable"),
        (lambda: _part(high={"y": 3}), "high names a slice"),
        (lambda: _part(high={"x": True}), "high names a slice"),
    ],
    ids=[
        "empty key",
        "no slices",
        "empty axis",
        "shape not a tuple",
        "no encode",
        "snapshot alone",
        "write alone",
        "snapshot not callable",
        "high of no slice",
        "high not a number",
    ],
)
def test_a_bad_part_is_a_config_error(make: Any, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        make()


def test_every_module_declares_its_parts_so_every_combination_takes_the_fast_path() -> None:
    s = Session(2, "all")
    assert s._observations.fast
    keys = [key for key, _part, _names in s.encoder.modules]
    assert keys == ["bonus_cards", "building_huts", "city_gates", "dirk", "exchange_offices", "vizier"]
    assert all(part.incremental for _key, part, _names in s.encoder.modules)


def test_the_city_gates_part_follows_edits_by_hand() -> None:
    """The gate space, gate cards moved between the deck, a hand and the discard pile, and a
    gate put on a cell: the kept-up-to-date vector follows each edit."""
    s = Session(3, ["city_gates", "diamonds"])
    s.reset(2)
    rng = random.Random(2)
    for _ in range(40):
        s.play(rng.choice(s.game.legal_actions()))

    def same() -> None:
        for seat in range(3):
            assert np.array_equal(s.observe(seat), s.encoder.encode(s.game.view(seat))), f"seat {seat}"

    same()
    st = s.game.state
    gs = st.modules["city_gates"]
    in_deck = [c for c in st.deck if type(c) is GateCard]
    assert in_deck, "the deck still holds gate cards"
    st.deck.remove(in_deck[0])
    st.players[1].hand.append(in_deck[0])
    same()
    gs.space = 0 if gs.space else in_deck[0].number
    same()
    gs.gates[2].append([0, 0, EAST])  # the fountain's east side (the view shows it, legal or not)
    same()
    st.discard.append(st.players[1].hand.pop())
    same()


def test_the_example_of_docs_env_md_declares_a_part_that_is_kept_up_to_date() -> None:
    """The code block of "Your own module's observation", in a module whose state counts the
    turns each seat has begun."""
    import types
    from pathlib import Path

    from attrs import define, field

    text = Path(__file__).resolve().parents[1].joinpath("docs", "env.md").read_text("utf-8")
    section = text[text.index("### Your own module's observation") :]
    block = section[
        section.index("```python\n") + len("```python\n") : section.index("```\n", section.index("```python"))
    ]
    favour = types.ModuleType("favour")
    exec(compile(block, "docs/env.md", "exec"), favour.__dict__)

    @define
    class Favour:
        points: list[int] = field(factory=list)

        def clone(self) -> Favour:
            return Favour(self.points.copy())

    @hookimpl
    def alhambra_state_classes() -> dict[str, type]:
        return {"favour": Favour}

    @hookimpl
    def alhambra_setup(game: Any) -> None:
        game.state.modules["favour"] = Favour([0] * game.num_players)

    @hookimpl
    def alhambra_turn_start(game: Any, seat: int) -> None:
        game.state.modules["favour"].points[seat] += 1

    @hookimpl
    def alhambra_view(game: Any, seat: Any, view: dict[str, Any]) -> None:
        view["modules"]["favour"] = {"points": list(game.state.modules["favour"].points)}

    for hook in (alhambra_state_classes, alhambra_setup, alhambra_turn_start, alhambra_view):
        setattr(favour, hook.__name__, hook)
    favour.NAME = "favour"  # type: ignore[attr-defined]
    game, encoder, obs = _observer(3, [favour])
    assert obs.fast and encoder.shapes["favour.points"] == (3,)
    _play_and_compare(game, encoder, obs, 80)
    assert encoder.views(obs.observe(game, 0))["favour.points"].sum() > 3
