"""The piles of the money deck (R-SET-6, R-EXC-1, R-TURN-8) and ``Game.determinize``.

At setup the money deck is split into five piles; scoring card A is shuffled into pile 2, B
into pile 4, and (module ``exchange_offices``) two offices into each of piles 2, 3 and 4. What
a player knows afterwards is which pile each such card lies in, not where in it, so a
determinized copy must place each of them uniformly within the undrawn part of its pile.
Once the discard pile has been reshuffled into a new deck there are no piles: anywhere.

Situations are built by drawing from the top of the deck (as the game does), setting drawn
scoring cards aside and putting other drawn cards on the discard pile, so that every card
stays accounted for (``check_invariants``).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from alhambra import operations
import alhambra
from alhambra import SaveFormatError
from alhambra.components import SCORING_A, SCORING_B, MoneyCard, ScoringCard
from alhambra.rules.setup import split_piles
from alhambra.testing import check_invariants, random_playout
from alhambra_exchange_offices import OFFICES, ExchangeOffice
from helpers import advance

ALL_MODULES = ["vizier", "building_huts", "bonus_cards", "exchange_offices"]


def draw(game, count: int) -> None:
    """Draw ``count`` cards from the top of the deck: scoring cards are set aside and their
    scoring is carried out (as after R-SCORE-1, so that a save of the game loads), anything
    else goes to the discard pile."""
    st = game.state
    for _ in range(count):
        card = operations.draw_money(game)
        if type(card) is ScoringCard:
            st.scoring_cards.append(card)
            operations.run_scoring(game, card.number)
        else:
            st.discard.append(card)
    alhambra.operations.invalidate(game)


def pile_ranges(game) -> dict[int, range]:
    """Computed here from the record, independently of ``Game.pile_range``: pile number ->
    the deck indices of its undrawn part (top pile first, the deck's top card last)."""
    sizes = game.state.pile_sizes
    n = len(game.state.deck)
    out, hi = {}, sum(sizes)
    for number, size in enumerate(sizes, 1):
        out[number] = range(hi - size, min(hi, n))
        hi -= size
    return out


def positions(deck, card) -> list[int]:
    return [k for k, c in enumerate(deck) if c == card]


# ---------------------------------------------------------------------------------------------
# The pile record
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("offices", [False, True], ids=["base", "offices"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_r_set_6_setup_records_the_pile_sizes(players, offices):
    modules = ["exchange_offices"] if offices else []
    g = alhambra.new_game(players, modules=modules, seed=40 + players)
    st = g.state
    extra = 2 + (len(OFFICES) if offices else 0)
    expected = [len(p) for p in split_piles(list(range(len(st.deck) - extra)))]
    expected[1] += 1  # A
    expected[3] += 1  # B
    if offices:
        for pile in (1, 2, 3):
            expected[pile] += 2
    assert st.pile_sizes == expected
    assert sum(st.pile_sizes) == len(st.deck)
    assert operations.pile_of(g, st.deck.index(SCORING_A)) == 2
    assert operations.pile_of(g, st.deck.index(SCORING_B)) == 4
    found = Counter(operations.pile_of(g, k) for k, c in enumerate(st.deck) if type(c) is ExchangeOffice)
    assert found == (Counter({2: 2, 3: 2, 4: 2}) if offices else Counter())
    # the deck's bottom card is in pile 5, its top card in pile 1
    assert operations.pile_of(g, 0) == 5 and operations.pile_of(g, len(st.deck) - 1) == 1
    assert operations.pile_range(g, 0) == range(0, st.pile_sizes[4])


def test_r_set_6_pile_range_follows_draws_from_the_top():
    g = alhambra.new_game(3, seed=5)
    st = g.state
    s1, s2, s3, s4, s5 = st.pile_sizes
    n = len(st.deck)
    assert operations.pile_range(g, n - 1) == range(n - s1, n)
    assert operations.pile_range(g, n - s1 - 1) == range(n - s1 - s2, n - s1)
    draw(g, 3)
    assert operations.pile_range(g, len(st.deck) - 1) == range(n - s1, n - 3)
    assert operations.pile_range(g, n - s1 - 1) == range(n - s1 - s2, n - s1)  # pile 2 untouched
    assert operations.pile_range(g, 0) == range(0, s5)
    draw(g, s1 - 3 + 4)  # pile 1 gone, 4 cards of pile 2 drawn
    top = len(st.deck) - 1
    assert top == n - s1 - 5
    assert operations.pile_of(g, top) == 2
    assert operations.pile_range(g, top) == range(n - s1 - s2, n - s1 - 4)
    assert pile_ranges(g)[1] == range(n - s1, n - s1 - 4)  # empty
    assert operations.pile_range(g, s5 + s4) == range(s5 + s4, s5 + s4 + s3)
    check_invariants(g)
    for bad in (len(st.deck), -1, True, 1.0, "0"):
        with pytest.raises(IndexError):
            operations.pile_range(g, bad)
        with pytest.raises(IndexError):
            operations.pile_of(g, bad)


def test_r_turn_8_reshuffled_deck_is_one_pile():
    """After the discard pile is reshuffled into a new deck (R-TURN-8) there are no setup
    piles any more: the record is that one pile, and every position ranges over the deck."""
    g = alhambra.new_game(3, seed=6)
    st = g.state
    draw(g, len(st.deck))  # the whole deck, scoring cards set aside
    assert st.deck == [] and SCORING_A in st.scoring_cards and SCORING_B in st.scoring_cards
    size = len(st.discard)
    draw(g, 1)  # reshuffles
    assert st.pile_sizes == [size]
    assert len(st.deck) == size - 1
    for k in range(len(st.deck)):
        assert operations.pile_of(g, k) == 1
        assert operations.pile_range(g, k) == range(0, size - 1)
    check_invariants(g)


def test_r_set_6_pile_record_survives_clone_and_save():
    g = alhambra.new_game(4, modules=["exchange_offices"], seed=12)
    advance(g, random.Random(1), 60)
    assert not g.is_over
    sizes = list(g.state.pile_sizes)
    assert len(sizes) == 5
    c = g.clone()
    assert c.state.pile_sizes == sizes and c.state.pile_sizes is not g.state.pile_sizes
    text = g.to_json()
    assert json.loads(text)["state"]["pile_sizes"] == sizes
    loaded = alhambra.Game.from_json(text)
    assert loaded.state.pile_sizes == sizes
    assert loaded.to_json() == text
    # after a reshuffle, the one-pile record round-trips too
    draw(g, len(g.state.deck) + 1)
    assert len(g.state.pile_sizes) == 1
    again = alhambra.Game.from_json(g.to_json(), check_history=False)  # drawn by hand: no history leads there
    assert again.state.pile_sizes == g.state.pile_sizes
    assert again.to_json() == g.to_json()


def test_r_set_6_save_without_pile_record_still_loads():
    """Saves written before the record existed load: the history check rebuilds the record
    from the history (the replayed game has it); without the check they load with no pile
    information, and determinize then leaves the scoring cards where they are, and the game
    plays on."""
    g = alhambra.new_game(3, modules=["exchange_offices"], seed=13)
    data = json.loads(g.to_json())
    del data["state"]["pile_sizes"]
    assert alhambra.Game.from_json(json.dumps(data)).state.pile_sizes == g.state.pile_sizes
    loaded = alhambra.Game.from_json(json.dumps(data), check_history=False)
    st = loaded.state
    assert st.pile_sizes == [] and st.deck == g.state.deck
    assert operations.pile_of(loaded, 0) is None
    assert operations.pile_range(loaded, 7) == range(7, 8)
    specials = [(k, c) for k, c in enumerate(st.deck) if type(c) is ScoringCard]
    offices = [k for k, c in enumerate(st.deck) if type(c) is ExchangeOffice]
    for seed in range(20):
        sample = loaded.determinize(0, random.Random(seed))
        assert [(k, c) for k, c in enumerate(sample.state.deck) if type(c) is ScoringCard] == specials
        assert [k for k, c in enumerate(sample.state.deck) if type(c) is ExchangeOffice] == offices
        assert sample.view(0) == loaded.view(0)
        check_invariants(sample)
    random_playout(loaded, 3, each_step=lambda game, _a: check_invariants(game))


def _sizes(d):
    return d["state"]["pile_sizes"]


def _shift_a_out_of_pile_2(d):
    s = _sizes(d)
    d["state"]["pile_sizes"] = [s[0] + s[1], 0, s[2], s[3], s[4]]  # pile 2's cards now count as pile 1


def _shift_b_out_of_pile_4(d):
    s = _sizes(d)
    d["state"]["pile_sizes"] = [s[0], s[1], s[2] + s[3], 0, s[4]]


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda d: d["state"].update(pile_sizes="17,17"), "pile record"),
        (lambda d: d["state"].update(pile_sizes=None), "pile record"),
        (lambda d: d["state"].update(pile_sizes=[16.0, 17, 17, 17, 16]), "pile record"),
        (lambda d: d["state"].update(pile_sizes=[True, 17, 17, 17, 16]), "pile record"),
        (lambda d: d["state"].update(pile_sizes=_sizes(d)[:4]), "5 setup piles"),
        (lambda d: _sizes(d).__setitem__(0, -1), "integers >= 0"),
        (lambda d: _sizes(d).__setitem__(4, 0), "but the deck holds"),
        (_shift_a_out_of_pile_2, "scoring-A lies in pile 1 of the deck, not in pile 2"),
        (_shift_b_out_of_pile_4, "scoring-B lies in pile 3 of the deck, not in pile 4"),
    ],
    ids=["string", "null", "float", "bool", "four-piles", "negative", "too-few-cards", "A-moved", "B-moved"],
)
def test_r_set_6_corrupted_pile_record_is_rejected(edit, message):
    g = alhambra.new_game(3, seed=14)
    data = json.loads(g.to_json())
    edit(data)
    with pytest.raises(SaveFormatError, match=message):
        alhambra.Game.from_json(json.dumps(data))


# ---------------------------------------------------------------------------------------------
# Determinize: scoring cards (R-SET-6)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 6])
def test_r_set_6_determinize_keeps_scoring_card_in_pile(players):
    g = alhambra.new_game(players, seed=20 + players)
    truth = g.to_json()
    ranges = pile_ranges(g)
    seen_a, seen_b = Counter(), Counter()
    for seed in range(400):
        seat = seed % players
        sample = g.determinize(seat, random.Random(seed))
        deck = sample.state.deck
        assert sample.state.pile_sizes == g.state.pile_sizes
        (a,), (b,) = positions(deck, SCORING_A), positions(deck, SCORING_B)
        assert a in ranges[2] and b in ranges[4]
        seen_a[a] += 1
        seen_b[b] += 1
        if seed % 40 == 0:
            assert sample.view(seat) == g.view(seat)
            check_invariants(sample)
    assert g.to_json() == truth  # the game itself is untouched
    # really resampled: every position of the pile is taken in some sample
    assert set(seen_a) == set(ranges[2]) and set(seen_b) == set(ranges[4])


def test_r_set_6_determinize_places_scoring_card_uniformly():
    g = alhambra.new_game(4, seed=2)
    pile2 = pile_ranges(g)[2]
    samples = 100 * len(pile2)
    seen = Counter(g.determinize(1, random.Random(s)).state.deck.index(SCORING_A) for s in range(samples))
    assert set(seen) == set(pile2)
    assert all(50 <= n <= 150 for n in seen.values()), seen  # 100 expected each, sd about 10


def test_r_set_6_determinize_keeps_scoring_card_in_undrawn_part_of_pile():
    """Pile 2 partly drawn, A not yet: A lands only in what is left of pile 2."""
    for seed in range(100):
        g = alhambra.new_game(3, seed=seed)
        a = g.state.deck.index(SCORING_A)
        full = pile_ranges(g)[2]
        if full.start + 3 <= a <= full.stop - 5:
            break
    n = len(g.state.deck)
    draw(g, n - (a + 1) - 2)  # two cards of pile 2 stay above A
    st = g.state
    left = pile_ranges(g)[2]
    assert left == range(full.start, a + 3) and len(left) < len(full)
    assert operations.pile_range(g, a) == left and st.deck[a] == SCORING_A
    assert operations.pile_of(g, len(st.deck) - 1) == 2
    seen = Counter()
    for s in range(300):
        sample = g.determinize(s % 3, random.Random(s))
        k = sample.state.deck.index(SCORING_A)
        assert k in left
        seen[k] += 1
        if s % 50 == 0:
            assert sample.view(s % 3) == g.view(s % 3)
            check_invariants(sample)
    assert set(seen) == set(left)


def test_r_set_6_determinize_without_scoring_cards_left():
    """Once A and B have been drawn there is nothing to place; money still fills the deck."""
    g = alhambra.new_game(3, seed=7)
    draw(g, len(g.state.deck) - 3)
    assert not any(type(c) is ScoringCard for c in g.state.deck)
    sample = g.determinize(0, random.Random(1))
    assert all(type(c) is MoneyCard for c in sample.state.deck)
    assert sample.view(0) == g.view(0)
    check_invariants(sample)


# ---------------------------------------------------------------------------------------------
# Determinize: exchange offices (R-EXC-1)
# ---------------------------------------------------------------------------------------------


def _office_piles(game, deck=None) -> Counter:
    deck = game.state.deck if deck is None else deck
    return Counter(operations.pile_of(game, k) for k, c in enumerate(deck) if type(c) is ExchangeOffice)


def test_r_exc_1_determinize_keeps_offices_in_piles_2_to_4():
    g = alhambra.new_game(4, modules=["exchange_offices"], seed=30)
    ranges = pile_ranges(g)
    truth_piles = _office_piles(g)
    assert truth_piles == Counter({2: 2, 3: 2, 4: 2})
    where: dict = {o: set() for o in OFFICES}  # office -> piles it was sampled in
    spots = set()
    for seed in range(400):
        sample = g.determinize(seed % 4, random.Random(seed))
        deck = sample.state.deck
        assert _office_piles(g, deck) == truth_piles  # two per pile, still
        for k, c in enumerate(deck):
            if type(c) is ExchangeOffice:
                assert any(k in ranges[p] for p in (2, 3, 4))
                where[c].add(operations.pile_of(g, k))
                spots.add(k)
        if seed % 50 == 0:
            assert sample.view(seed % 4) == g.view(seed % 4)
            check_invariants(sample)
    # which office went into which pile is secret: each office turns up in every pile
    assert all(piles == {2, 3, 4} for piles in where.values()), where
    assert spots == set(ranges[2]) | set(ranges[3]) | set(ranges[4])


def test_r_exc_1_determinize_scoring_card_and_offices_share_pile_2_uniformly():
    """Pile 2 holds A and two offices: all three are placed anew and independently of their
    true places. A takes every position of the pile (those of the true offices too), lies on
    one of the two true office positions in 2 of every len(pile) samples (not more: placing
    the offices must not push A into the places they left), and lies above both offices of
    pile 2 in about a third of the samples."""
    g = alhambra.new_game(3, modules=["exchange_offices"], seed=31)
    pile2 = pile_ranges(g)[2]
    true_offices = [k for k in pile2 if type(g.state.deck[k]) is ExchangeOffice]
    assert len(true_offices) == 2
    samples = 1500
    seen_a, seen_office, a_on_top, a_on_true_office = Counter(), Counter(), 0, 0
    for s in range(samples):
        deck = g.determinize(s % 3, random.Random(s)).state.deck
        a = deck.index(SCORING_A)
        offices = [k for k in pile2 if type(deck[k]) is ExchangeOffice]
        assert len(offices) == 2 and a not in offices
        seen_a[a] += 1
        seen_office.update(offices)
        a_on_top += a > max(offices)
        a_on_true_office += a in true_offices
    assert set(seen_a) == set(pile2) and set(seen_office) == set(pile2)
    assert all(seen_a[k] > 0 for k in true_offices)
    assert abs(a_on_true_office / samples - 2 / len(pile2)) < 0.03, a_on_true_office / samples
    assert abs(a_on_top / samples - 1 / 3) < 0.05, a_on_top / samples


def test_r_exc_1_determinize_offices_in_partly_drawn_piles():
    """Drawn offices are out of the count: with pile 2 partly drawn, each pile keeps its
    number of undrawn offices and the offices stay within what is left of their piles."""
    g = alhambra.new_game(3, modules=["exchange_offices"], seed=32)
    s1, s2 = g.state.pile_sizes[:2]
    draw(g, s1 + s2 // 2)
    ranges = pile_ranges(g)
    truth_piles = _office_piles(g)
    assert sum(truth_piles.values()) == sum(type(c) is ExchangeOffice for c in g.state.deck)
    for seed in range(200):
        sample = g.determinize(seed % 3, random.Random(seed))
        deck = sample.state.deck
        assert _office_piles(g, deck) == truth_piles
        for k, c in enumerate(deck):
            if type(c) is ExchangeOffice or type(c) is ScoringCard:
                assert k in ranges[operations.pile_of(g, k)]
        if seed % 40 == 0:
            assert sample.view(seed % 3) == g.view(seed % 3)
            check_invariants(sample)


def test_r_turn_8_after_reshuffle_offices_may_land_anywhere():
    """R-EXC-5 brings spent offices back with the reshuffled discard pile; the new deck is
    one shuffled pile, so in a sample an office may lie anywhere in it."""
    g = alhambra.new_game(3, modules=["exchange_offices"], seed=33)
    st = g.state
    draw(g, len(st.deck))
    draw(g, 1)  # reshuffle
    assert len(st.pile_sizes) == 1
    n = len(st.deck)
    in_deck = sum(type(c) is ExchangeOffice for c in st.deck)
    assert in_deck >= 5
    spots = Counter()
    for seed in range(300):
        sample = g.determinize(seed % 3, random.Random(seed))
        offices = [k for k, c in enumerate(sample.state.deck) if type(c) is ExchangeOffice]
        assert len(offices) == in_deck
        spots.update(offices)
        if seed % 50 == 0:
            assert sample.view(seed % 3) == g.view(seed % 3)
            check_invariants(sample)
    assert set(spots) == set(range(n))


# ---------------------------------------------------------------------------------------------
# Determinize in played games, every module on
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_r_set_6_determinize_mid_game_keeps_view_piles_and_invariants(seed):
    rng = random.Random(seed)
    players = 2 + seed % 5
    g = alhambra.new_game(players, modules=ALL_MODULES, seed=seed)
    for checkpoint in range(8):
        for _ in range(40):
            if g.is_over:
                return
            g.apply(rng.choice(g.legal_actions()))
        truth = g.to_json()
        seat = rng.randrange(players)
        sample = g.determinize(seat, random.Random(seed * 100 + checkpoint))
        assert g.to_json() == truth
        assert sample.view(seat) == g.view(seat)
        assert sample.state.pile_sizes == g.state.pile_sizes
        check_invariants(sample)
        for k, c in enumerate(sample.state.deck):
            if c == SCORING_A:
                assert operations.pile_of(g, k) == 2 and k in operations.pile_range(g, g.state.deck.index(SCORING_A))
            elif c == SCORING_B:
                assert operations.pile_of(g, k) == 4
        assert _office_piles(g, sample.state.deck) == _office_piles(g)
        # the sample is a game like any other: it plays on and saves
        alhambra.Game.from_json(
            sample.to_json(), check_history=False
        )  # a resampled world: its state is checked, not its history
