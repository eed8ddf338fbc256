"""Secret hands: dealt at set-up (``operations.deal_hands``) and dealt anew by determinization
(``operations.redeal_hands``, declared by ``declared.Redeal``), keeping what is public."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from attrs import define, field

import alhambra
from alhambra import Declared, DeclaredState, declared, operations


def test_deal_hands_deals_k_to_each_seat_from_the_games_generator() -> None:
    game = alhambra.new_game(3, seed=5)
    rng = random.Random()  # the game's generator, copied
    rng.setstate(game._rng.getstate())
    rng.shuffle(order := list(range(10)))
    hands, rest = operations.deal_hands(game, range(10), 3)
    assert hands == [sorted(order[0:3]), sorted(order[3:6]), sorted(order[6:9])]
    assert rest == [order[9]]
    assert operations.deal_hands(game, [4, 2], 0) == ([[], [], []], [2, 4])


def test_redeal_hands_keeps_the_seats_hand_sizes_and_the_public_record() -> None:
    hands = [[1, 2], [3, 4], [5, 6]]
    rest = [7, 8]
    kept = [[], [3], []]  # seat 1 revealed 3 before: it stays there
    barred = [[], [], [7, 8, 1]]  # seat 2 cannot hold these
    seen = Counter()
    for k in range(300):
        h = [list(x) for x in hands]
        left = operations.redeal_hands(h, rest, 0, random.Random(k), kept, barred)
        assert h[0] == [1, 2]  # the seat determinizing keeps its own hand
        assert 3 in h[1] and len(h[1]) == 2 and len(h[2]) == 2 and len(left) == 2
        assert not set(h[2]) & {7, 8, 1}
        assert sorted(h[1] + h[2] + left) == [3, 4, 5, 6, 7, 8]
        assert all(x == sorted(x) for x in (*h, left))
        seen[tuple(h[2])] += 1
    assert set(seen) == {(4, 5), (4, 6), (5, 6)}  # every allowed hand of seat 2 comes up


def test_redeal_hands_without_a_record_and_when_nothing_is_allowed() -> None:
    h = [[1], [2], [3]]
    left = operations.redeal_hands(h, [4], 1, random.Random(1), kept=[[2]], barred=None)  # one list: no record
    assert h[1] == [2] and sorted(h[0] + h[2] + left) == [1, 3, 4]
    h = [[1], [2]]
    left = operations.redeal_hands(h, [], 0, random.Random(1), barred=[[], [2]])  # no allowed deal: a plain one
    assert h == [[1], [2]] and left == []


@define(slots=True)
class _Hands(DeclaredState):
    hands: list[list[int]] = field(
        metadata=declared.secret(redeal=declared.Redeal("rest", kept="shown", barred="never"))
    )
    rest: list[int] = field(metadata=declared.internal())
    shown: list[list[int]] = field(metadata=declared.internal(per_seat=True))
    never: list[list[int]] = field(metadata=declared.internal(per_seat=True))


def test_a_declared_redeal_is_the_derived_determinization() -> None:
    d = Declared("hands_test", _Hands, label="hands")
    plugin: Any = d.plugin()
    assert plugin.alhambra_determinize is not None and plugin.alhambra_hidden_piles is None
    game = alhambra.new_game(3, seed=1)
    state = _Hands([[1, 2], [3, 4], [5, 6]], [7], [[], [4], []], [[], [], [7]])
    game.state.modules["hands_test"] = state
    plugin.alhambra_determinize(game, 2, random.Random(3))
    expected = [[1, 2], [3, 4], [5, 6]]
    rest = operations.redeal_hands(expected, [7], 2, random.Random(3), [[], [4], []], [[], [], [7]])
    assert state.hands == expected and state.rest == rest
    assert state.hands[2] == [5, 6] and 4 in state.hands[1]


@define(slots=True)
class _Shown(DeclaredState):
    hands: list[list[int]] = field(
        metadata=declared.secret(
            redeal=declared.Redeal("rest", kept="owned", barred="never", held="shown", rules=("R-X-1", "R-X-2"))
        )
    )
    rest: list[int] = field(metadata=declared.internal())
    shown: list[list[int]] = field(metadata=declared.internal(per_seat=True))
    owned: list[list[int]] = field(metadata=declared.internal(per_seat="or none"))
    never: list[list[int]] = field(metadata=declared.internal(per_seat="or none"))


def test_a_declared_redeal_checks_the_record_against_the_hands() -> None:
    """A loaded game's record agrees with the seats' cards: a kept card still held (in the
    hand or face up in ``held``), no barred card held; an empty record says nothing."""
    d = Declared("shown_test", _Shown, label="shown")
    game = alhambra.new_game(2, seed=1)
    game.state.modules["shown_test"] = state = _Shown([[1], [2]], [5], [[3], [4]], [[3, 1], [4]], [[5], [1]])
    assert d.problem(game) is None
    state.hands = [[1], [5]]
    state.rest = [2]
    assert d.problem(game) is None  # 5 held by seat 1: barred for seat 0 alone
    state.owned = [[3, 1], [4, 2]]
    assert d.problem(game) == "shown: seat 1 no longer holds 2 of its owned [4, 2], cards known to be its (R-X-1)"
    state.owned = [[3, 1], [4]]
    state.never = [[5], [4]]
    assert d.problem(game) == "shown: seat 1 holds 4 of its never [4], cards known not to be its (R-X-2)"
    state.owned, state.never = [], []
    assert d.problem(game) is None
