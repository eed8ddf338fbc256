"""Caches correct by construction: cached listings always equal freshly computed ones, also when
a house rule changes another module's state through the operations and never calls
``alhambra.operations.invalidate(game)``."""

from __future__ import annotations

import random

from attrs import frozen
from hypothesis import given, settings, strategies as st

import alhambra
from alhambra import Action, ActionKind, Game, hookimpl, operations
from helpers import COMBINATIONS, players_st, seeds_st

HUTS, BONUS = "building_huts", "bonus_cards"


@frozen(slots=True)
class StealHut(Action):
    """House rule: the face-up hut of the first non-empty stack goes to the seat's reserve."""


@frozen(slots=True)
class GiveBonus(Action):
    """House rule: bonus card ``building`` moves to the seat's hand (from anywhere)."""

    building: int


@frozen(slots=True)
class DropMoney(Action):
    """House rule: the seat's last money card goes to the discard pile."""


class Meddler:
    """A house rule changing other modules' state through ``operations.edit_module`` (and a
    hand in place), once per turn, as a free action; it never calls ``alhambra.operations.invalidate(game)``."""

    NAME = "meddler"

    def __init__(self, per_turn: int = 1) -> None:
        self.per_turn = per_turn
        self.used: tuple[int, int] = (0, 0)  # (turn, meddles in it)

    @hookimpl
    def alhambra_action_kinds(self) -> list[ActionKind]:
        return [
            ActionKind(StealHut, {"turn"}, self._steals, self._apply),
            ActionKind(GiveBonus, {"turn"}, self._gifts, self._apply),
            ActionKind(DropMoney, {"turn"}, self._drops, self._apply),
        ]

    def _free(self, game: Game) -> bool:
        turn, used = self.used
        return game.state.turn != turn or used < self.per_turn

    def _steals(self, game: Game, seat: int) -> list[Action]:
        hs = game.state.modules.get(HUTS)
        return [StealHut()] if self._free(game) and hs and any(hs.stacks.values()) else []

    def _gifts(self, game: Game, seat: int) -> list[Action]:
        bs = game.state.modules.get(BONUS)
        if not self._free(game) or bs is None:
            return []
        return [
            GiveBonus(b)
            for b in sorted(bs.out_of_play)
            if b not in bs.hands[seat] and not (bs.not_held and b in bs.not_held[seat])
        ]  # R-BON-5

    def _drops(self, game: Game, seat: int) -> list[Action]:
        return [DropMoney()] if self._free(game) and game.state.players[seat].hand else []

    def _apply(self, game: Game, seat: int, action: Action) -> None:
        turn, used = self.used
        self.used = (game.state.turn, used + 1 if turn == game.state.turn else 1)
        if type(action) is StealHut:
            hs = operations.edit_module(game, HUTS)
            stack = next(s for s in hs.stacks.values() if s)
            game.state.players[seat].reserve.append(stack.pop())
        elif type(action) is GiveBonus:
            bs = operations.edit_module(game, BONUS)
            for group in (bs.out_of_play, *bs.hands):
                if action.building in group:
                    group.remove(action.building)
            bs.hands[seat] = sorted([*bs.hands[seat], action.building])
        else:
            game.state.discard.append(game.state.players[seat].hand.pop())
        return None  # free: the same seat decides again


def fresh(game: Game, plugins: list = ()) -> Game:
    """The game rebuilt from its save: nothing cached. Not checked against its history: the
    Meddler keeps its per-turn count in the plugin object, and some games are edited by hand."""
    return Game.from_json(game.to_json(), plugins=plugins, check_history=False)


def assert_listings_fresh(game: Game, plugins: list = ()) -> None:
    again = fresh(game, plugins)
    assert game.legal_actions() == again.legal_actions()
    for seat in range(game.num_players):
        for exact in (False, True):
            assert game.rules.purchase.purchases(game, seat, exact=exact) == again.rules.purchase.purchases(
                again, seat, exact=exact
            )
        assert game.rules.purchase.can_pay_exactly(game, seat) == again.rules.purchase.can_pay_exactly(again, seat)
    seats = list(range(game.num_players))
    assert game.rules.purchase.first_exact_payer(game, seats) == again.rules.purchase.first_exact_payer(again, seats)


def _play_to_turn_with(game: Game, rng: random.Random, wanted: type) -> None:
    """Random play (never choosing a house-rule action) until ``wanted`` is listed."""
    while not any(type(a) is wanted for a in game.legal_actions()):
        game.apply(rng.choice([a for a in game.legal_actions() if type(a) not in (StealHut, GiveBonus, DropMoney)]))


def test_a_hut_taken_by_another_plugin_leaves_the_take_actions_right_R_HUT_2() -> None:
    rule = Meddler()
    game = alhambra.new_game(3, modules=[HUTS], seed=5, plugins=[rule])
    takes = [a for a in game.legal_actions() if type(a).__name__ == "TakeHut"]
    top = next(s for s in game.state.modules[HUTS].stacks.values() if s)[-1]
    assert any(a.hut == top for a in takes)  # type: ignore[attr-defined]
    game.apply(StealHut())
    after = [a for a in game.legal_actions() if type(a).__name__ == "TakeHut"]
    assert top not in [a.hut for a in after]  # type: ignore[attr-defined]
    assert top in game.state.players[game.current_player or 0].reserve
    assert_listings_fresh(game, [rule])


def test_a_seat_at_the_hut_limit_through_another_plugin_may_take_none_R_HUT_4() -> None:
    rule = Meddler(per_turn=3)
    game = alhambra.new_game(3, modules=[HUTS], seed=6, plugins=[rule])
    seat = game.current_player
    for _ in range(3):  # three huts into the reserve (R-HUT-4: at most 3 owned)
        assert [a for a in game.legal_actions() if type(a).__name__ == "TakeHut"]
        game.apply(StealHut())
        assert_listings_fresh(game, [rule])
    assert not [a for a in game.legal_actions() if type(a).__name__ == "TakeHut"]
    assert game.current_player == seat


def test_a_bonus_card_moved_by_another_plugin_is_revealable_at_once_R_BON_3() -> None:
    rule = Meddler()
    rng = random.Random(3)
    game = alhambra.new_game(2, modules=[BONUS], seed=8, plugins=[rule])
    while True:  # play until the turn player has a bonus building not in their hand
        _play_to_turn_with(game, rng, GiveBonus)
        seat = game.current_player
        assert seat is not None
        bs = game.state.modules[BONUS]
        loose = [b for b in game.state.players[seat].city.tile_ids() if b in bs.out_of_play]
        if loose:
            break
        game.apply(rng.choice([a for a in game.legal_actions() if type(a) not in (StealHut, GiveBonus, DropMoney)]))
    reveals = {a.building for a in game.legal_actions() if type(a).__name__ == "RevealBonus"}  # type: ignore[attr-defined]
    assert loose[0] not in reveals
    game.apply(GiveBonus(loose[0]))
    reveals = {a.building for a in game.legal_actions() if type(a).__name__ == "RevealBonus"}  # type: ignore[attr-defined]
    assert loose[0] in reveals
    assert_listings_fresh(game, [rule])


def test_a_hand_edited_in_place_by_a_plugin_leaves_the_purchases_right_R_TURN_3() -> None:
    rule = Meddler()
    game = alhambra.new_game(4, modules=["vizier", "exchange_offices"], seed=9, plugins=[rule])
    seat = game.current_player
    assert seat is not None
    before = game.rules.purchase.purchases(game, seat)
    game.apply(DropMoney())
    assert_listings_fresh(game, [rule])
    again = fresh(game, [rule])
    assert len(game.state.players[seat].hand) >= 0
    assert game.rules.purchase.purchases(game, seat) == again.rules.purchase.purchases(again, seat)
    assert before is not None


def test_invalidate_still_serves_hand_edits_of_a_module_state() -> None:
    game = alhambra.new_game(3, modules=[HUTS], seed=5)
    game.legal_actions()
    hs = game.state.modules[HUTS]
    top = next(s for s in hs.stacks.values() if s).pop()  # by hand, no operation
    game.state.players[0].reserve.append(top)
    alhambra.operations.invalidate(game)
    assert top not in [getattr(a, "hut", None) for a in game.legal_actions()]
    assert_listings_fresh(game)


@settings(max_examples=12, deadline=None)
@given(
    players=players_st, seed=seeds_st, modules=st.sampled_from(COMBINATIONS[-1:] + COMBINATIONS), meddle=st.booleans()
)
def test_cached_listings_equal_fresh_ones_at_every_step(players: int, seed: int, modules: tuple, meddle: bool) -> None:
    """Random play (with the meddling house rule or without): at every step the listing, the
    purchases and the exact-payment answers equal those of a fresh game loaded from the save."""
    plugins = [Meddler()] if meddle else []
    game = alhambra.new_game(players, modules=list(modules), seed=seed, plugins=plugins)
    rng = random.Random(seed)
    for _ in range(120):
        if game.is_over:
            break
        assert_listings_fresh(game, plugins)
        game.apply(rng.choice(game.legal_actions()))
