"""The log and the buttons in words (R-TURN-2 … R-TURN-7, R-TWO-5 and the modules' actions)."""

from __future__ import annotations

import alhambra
from alhambra import (
    BuildFromReserve,
    Buy,
    GiveToDirk,
    MoneyCard,
    Pass,
    Place,
    RemoveToReserve,
    Reserve,
    Swap,
    TakeMoney,
)
from alhambra.web.words import action_label, card_words, describe, tile_words


def _game() -> alhambra.Game:
    game = alhambra.new_game(["Ana", "Bo"], modules=["building_huts", "exchange_offices"], seed=1)
    st = game.state
    st.market[:] = [1, 2, 3, 4]
    st.players[0].city = alhambra.Alhambra.from_tiles({(1, 0): 5}, catalog=game.rules.catalog)
    alhambra.operations.invalidate(game)
    return game


def test_purchases_say_the_building_the_space_and_what_the_payment_earns() -> None:
    game = _game()
    spec = game.rules.catalog[2]
    exact = Buy(2, [MoneyCard("dirham", spec.price)])
    assert describe(game, 0, exact) == (
        f"Ana bought the {spec.type} {spec.price} from the dirham space, paying "
        f"dirham {spec.price} ({spec.price}, exact: another action)"
    )
    over = Buy(2, [MoneyCard("dirham", 9), MoneyCard("dirham", 1)])
    assert action_label(game, 0, over) == f"pay dirham 1 + dirham 9 (10, overpaying {10 - spec.price})"
    from alhambra_exchange_offices import ExchangeOffice

    via = Buy(2, [MoneyCard("florin", spec.price)], ExchangeOffice("florin", "dirham"))
    assert action_label(game, 0, via).startswith(f"pay florin {spec.price} via the exchange office florin/dirham")


def test_placements_and_redesign_name_tile_and_cell() -> None:
    game = _game()
    cat = game.rules.catalog
    t7, t5 = f"{cat[7].type} {cat[7].price}", f"{cat[5].type} {cat[5].price}"
    assert describe(game, 0, Place(7, (0, 1))) == f"Ana built the {t7} at (0, 1)"
    assert describe(game, 0, Reserve(7)) == f"Ana put the {t7} into the reserve"
    assert action_label(game, 0, Reserve(7)) == f"keep the {t7} in the reserve"
    assert describe(game, 0, BuildFromReserve(7, (0, 1))) == f"Ana built the {t7} from the reserve at (0, 1)"
    assert describe(game, 0, RemoveToReserve((1, 0))) == f"Ana moved the {t5} at (1, 0) into the reserve"
    assert describe(game, 0, Swap(7, (1, 0))) == f"Ana swapped the {t7} from the reserve for the {t5} at (1, 0)"
    assert describe(game, 1, GiveToDirk(7)) == f"Bo gave the {t7} to Dirk"
    assert describe(game, 1, Pass()) == "Bo could do nothing and passed"
    assert (
        describe(game, 0, TakeMoney([MoneyCard("ducat", 2), MoneyCard("florin", 3)])) == "Ana took ducat 2 + florin 3"
    )  # the cards in the action's canonical order
    assert tile_words(cat, 0) == "Lion Fountain" and tile_words(cat, "nope") == "tile nope"


def test_module_actions_and_cards() -> None:
    game = _game()
    take = next(a for a in game.legal_actions() if type(a).__name__ == "TakeHut")
    spec = game.rules.catalog[take.hut]
    assert describe(game, 0, take) == f"Ana took the {spec.type} hut {take.hut}"
    assert action_label(game, 0, take) == f"take the {spec.type} hut {take.hut}"
    assert card_words("office-dirham-dinar") == "exchange office dirham/dinar"
    assert card_words("scoring-B") == "scoring card B" and card_words("joker") == "joker"


def test_payments_are_judged_at_the_price_the_rules_set() -> None:
    from pathlib import Path

    from alhambra.saving.config import load_module_file

    tax = load_module_file(Path(__file__).parents[2] / "examples" / "market_tax.py")
    game = alhambra.new_game(["Ana", "Bo"], modules=[tax], seed=1)
    game.state.market[:] = [1, 2, 3, 4]
    alhambra.operations.invalidate(game)
    printed = game.state.players[0].city.catalog[2].price
    taxed = Buy(2, [MoneyCard("dirham", printed + 1)])
    assert action_label(game, 0, taxed) == f"pay dirham {printed + 1} ({printed + 1}, exact: another action)"
    assert describe(game, 0, Buy(2, [MoneyCard("dirham", printed + 2)])).endswith(f"({printed + 2}, overpaying 1)")


def test_a_declined_vizier_offer_leaves_no_line_in_the_log_R_VIZ_5() -> None:
    """R-VIZ-5: a seat that could not pay exactly is not asked, so a decline must not show
    either: the shared log has a line for every action but the declines."""
    import random

    from alhambra.web.replays import build_replay
    from alhambra.web.words import logged

    game = alhambra.new_game(["Ana", "Bo", "Cy"], modules=["vizier"], seed=4)
    rng = random.Random(4)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    kinds = [type(a).__name__ for a in game.history]
    declines = kinds.count("DeclineVizier")
    assert declines > 0
    replay = build_replay(game.to_json())
    acted = [e for e in replay.log if e.seat is not None]
    assert len(acted) == len(kinds) - declines
    assert not any("vizier" in e.text and "did not" in e.text for e in replay.log)
    assert [logged(a) for a in game.history].count(False) == declines
