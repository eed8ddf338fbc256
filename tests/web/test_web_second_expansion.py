"""The web table with the second expansion's modules: gate and diamond cards named in words
(from what the cards say of themselves), the gate actions in sentences (``alhambra_action_words``,
R-GATE-4 … R-GATE-6), a purchase in diamonds said like any purchase (R-DIA-4), the gate
space shown beside the market (R-GATE-3) and the gates on the walls of the Alhambras."""

from __future__ import annotations

import re
from pathlib import Path

import alhambra
from alhambra import WEST
from alhambra.web.pages import sorted_hand
from alhambra.web.words import action_label, card_words, describe
from alhambra_city_gates import BuildThroughGate, GateCard, PlayGate, TakeGate
from alhambra_diamonds import BuyWithDiamonds, Diamond

from .conftest import create, seat_url

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "positions" / "city_gate.toml"
SIX = ["vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds"]


def _example() -> alhambra.Game:
    return alhambra.Game.from_position(EXAMPLE)


def test_cards_of_the_second_expansion_in_words() -> None:
    _example()
    assert card_words("diamond-5a") == "diamond 5"
    assert card_words("diamond-5b") == "diamond 5"
    assert card_words("gate-3") == "gate card 3"
    assert card_words("no-such-card") == "no-such-card"  # an unknown code as it is


def test_the_hand_sorts_diamonds_as_money_after_the_four_currencies() -> None:
    _example()
    hand = sorted_hand(["gate-1", "diamond-7a", "florin-3", "office-florin-dinar", "ducat-2", "diamond-3a"])
    assert [(c["code"], c["currency"], c["value"], c["words"]) for c in hand] == [
        ("florin-3", "florin", 3, "florin 3"),
        ("ducat-2", "ducat", 2, "ducat 2"),
        ("diamond-3a", "diamond", 3, "diamond 3"),
        ("diamond-7a", "diamond", 7, "diamond 7"),
        ("gate-1", None, 0, "gate card 1"),
        ("office-florin-dinar", None, 0, "exchange office florin/dinar"),
    ]


def test_gate_actions_in_sentences() -> None:
    """R-GATE-5/6: the building through a gate; R-GATE-4: the gate card taken."""
    g = _example()
    build = BuildThroughGate(GateCard(1), 12, 2, 0, WEST)
    spec = g.rules.catalog[12]
    assert describe(g, 0, build) == (
        f"Ana built the {spec.type} {spec.price} at (2, 0) through a gate on its west side, playing the gate card 1"
    )
    assert action_label(g, 0, build).startswith(f"build the {spec.type} {spec.price} at (2, 0) through a gate")
    g.apply(build)
    take = TakeGate(GateCard(3))
    assert take in g.legal_actions()
    assert describe(g, 1, take) == "Bo took the gate card 3 from the gate space"
    assert action_label(g, 1, take) == "take the gate card 3 from the gate space"
    play = PlayGate(GateCard(2), 0, 0, 2)
    assert (
        action_label(g, 0, play) == "put a gate on the double wall between (0, 0) and (1, 0), playing the gate card 2"
    )


def test_a_purchase_in_diamonds_is_said_like_any_purchase() -> None:
    """R-DIA-4: any space, exactness earning another action (R-TURN-4)."""
    g = _example()
    g.apply(g.legal_actions()[0])
    tile = g.state.market[1]
    spec = g.rules.catalog[tile]
    buy = BuyWithDiamonds(2, (Diamond(5),))
    assert buy in g.legal_actions()
    extra = "exact: another action" if spec.price == 5 else f"overpaying {5 - spec.price}"
    assert describe(g, 1, buy) == (
        f"Bo bought the {spec.type} {spec.price} from the dirham space, paying diamond 5 (5, {extra})"
    )


def test_every_action_and_card_of_an_all_six_game_has_words() -> None:
    """Random all-six games: every legal action's label and log line is a sentence, never a
    repr or a card code, and every card of the game has a name."""
    import random

    for seed in range(3):
        g = alhambra.new_game(3, modules=SIX, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if g.is_over:
                break
            seat = g.current_player
            for a in g.legal_actions():
                for said in (action_label(g, seat, a), describe(g, seat, a)):
                    assert not re.search(r"\w+\(|gate-\d|diamond-\d|office-\w", said), said
            g.apply(rng.choice(g.legal_actions()))
        for code in g.rules.cards:
            assert card_words(code) != code, code


def test_the_table_page_shows_the_gate_space_and_the_gates(client) -> None:
    table = create(client, ["person", "person"], modules=["city_gates", "diamonds"], seed=4)
    game = table.game
    # a gate card waiting on the gate space, and a gate on a double wall of seat 0's Alhambra
    gs = game.state.modules["city_gates"]
    card = next(c for c in game.state.deck if type(c) is GateCard)
    game.state.deck.remove(card)
    gs.space = card.number
    page = client.get(seat_url(table, game.current_player)).text
    assert re.search(
        rf'<div class="cards beside-market" id="beside-0" data-name="gate space">'
        rf'<span class="card gate" title="gate card {card.number}" data-code="gate-{card.number}">'
        rf"gate card {card.number}</span></div>",
        page,
    )
    assert f"take the gate card {card.number} from the gate space</button>" in page
    assert "GateCard(" not in page and "Diamond(" not in page


def test_the_table_page_draws_a_gate_on_the_wall(client) -> None:
    table = create(client, ["person", "person", "person"], modules=["city_gates"], seed=4)
    game = table.game
    st = game.state
    for t in (6, 12):  # 6: a wall east, 12: a wall west (R-GATE-5: their double wall)
        if t in st.bag:
            st.bag.remove(t)
        st.market = [None if m == t else m for m in st.market]
    city = alhambra.Alhambra.from_tiles({(1, 0): 6, (2, 0): 12}, catalog=game.rules.catalog, check=False)
    city.open_side((1, 0), 2)
    st.players[1].city = city
    st.modules["city_gates"].gates[1].append([1, 0, 2])
    alhambra.operations.invalidate(game)
    page = client.get(seat_url(table, 0)).text
    assert 'class="alh-open-side" id="p1-open-1_0-east"' in page
    assert 'class="alh-open-side" id="mine-open' not in page


def test_gate_cards_in_hand_are_shown_to_everyone_and_diamonds_counted(client) -> None:
    """R-GATE-4: the others see a player's gate cards; a player's own diamonds are summed
    like a currency under the hand (R-DIA-1)."""
    table = create(client, ["person", "person", "person"], modules=["city_gates", "diamonds"], seed=4)
    st = table.game.state
    gate = next(c for c in st.deck if type(c) is GateCard)
    st.deck.remove(gate)
    st.players[1].hand.append(gate)
    diamonds = [c for c in st.deck if type(c) is Diamond][:2]
    for d in diamonds:
        st.deck.remove(d)
        st.players[0].hand.append(d)
    alhambra.operations.invalidate(table.game)
    page = client.get(seat_url(table, 0)).text
    assert f'<span class="shown" id="shown-1"> · shown: gate card {gate.number}</span>' in page
    assert f" · diamond {sum(d.value for d in diamonds)}</p>" in page


def test_the_table_page_offers_the_gates_after_a_change(client) -> None:
    """R-GATE-5: after a placement, the window for gates: the banner says so, each gate on a
    double wall is a button, and so is putting up none."""
    from test_module_city_gates import buy_into_place_phase, give, set_city

    table = create(client, ["person", "person"], modules=["city_gates"], seed=4)
    game = table.game
    seat = game.current_player
    set_city(game, seat, {(1, 0): 6, (1, 1): 7, (2, 1): 14, (2, 0): 12})
    card = next(c for c in game.state.deck if type(c) is GateCard)
    give(game, seat, [card])
    buy_into_place_phase(game, seat, 20)
    game.apply(alhambra.Place(20, (-1, 0)))
    assert game.phase == "gates"
    page = client.get(seat_url(table, seat)).text
    assert "you changed your Alhambra; put a gate on any of its double walls" in page
    assert (
        f"put a gate on the double wall between (1, 0) and (2, 0), playing the gate card {card.number}</button>" in page
    )
    assert 'data-kind="FinishGates">put up no more gates</button>' in page
