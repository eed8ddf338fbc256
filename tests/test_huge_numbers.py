"""Numbers too long to print (Python refuses to turn an integer of more than 4300 digits
into text) arrive as seeds, option values and coordinates from configs, positions, the web
form and the API: each is refused with a sentence, never a ValueError from printing it."""

from __future__ import annotations

import alhambra
import pytest
from alhambra import AlhambraError, ConfigError
from alhambra.cli import main
from alhambra.errors import shown
from starlette.testclient import TestClient

HUGE = int("f" * 4000, 16)
DECIMAL = "9" * 4400


def test_shown_names_an_integer_too_long_to_print_by_its_size() -> None:
    assert shown(HUGE) == f"an integer of {HUGE.bit_length()} bits"
    assert "too long to print" in shown([HUGE])
    assert shown("x" * 500).endswith("...") and len(shown("x" * 500)) == 120
    assert shown(5) == "5"


@pytest.mark.parametrize(
    "text",
    [
        f"players = 3\nseed = 0x{'f' * 4000}\n",
        f"players = 3\nseed = {DECIMAL}\n",
        f'players = 3\nmodules = ["city_gates"]\n[options]\n"city_gates.cards" = 0x{"f" * 4000}\n',
        f'players = 3\nmodules = ["city_gates"]\n[city_gates]\ngates = [[[0x{"f" * 4000}, 0, "east"]], [], []]\n',
    ],
)
def test_a_position_with_a_huge_number_is_refused_with_a_sentence(text: str, tmp_path, capsys) -> None:
    with pytest.raises(ConfigError):
        alhambra.Game.from_position(text)
    path = tmp_path / "p.toml"
    path.write_text(text)
    assert main(["replay", "--position", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("alhambra: error:") and err.count("\n") == 1


@pytest.mark.parametrize(
    "call",
    [
        lambda: alhambra.new_game(3, seed=HUGE),
        lambda: alhambra.new_game(3, options={"holes": HUGE}),
        lambda: alhambra.new_game(3, modules=["city_gates"], options={"city_gates.cards": HUGE}),
        lambda: alhambra.new_game(3, options={1: 2}),
        lambda: alhambra.Game.from_position({"players": 3, "seed": HUGE}),
        lambda: alhambra.Game.from_position({"players": 3, "options": {"holes": [HUGE]}}),
    ],
)
def test_the_api_refuses_huge_numbers_and_odd_option_names_as_config_errors(call) -> None:
    with pytest.raises(AlhambraError):
        call()


@pytest.mark.parametrize(
    "config",
    [
        f"seed = 0x{'f' * 4000}",
        f"seed = {DECIMAL}",
        f'[options]\n"city_gates.cards" = 0x{"f" * 4000}',
    ],
)
def test_the_web_form_answers_a_config_with_a_huge_number_with_a_400(tmp_path, config: str) -> None:
    from alhambra.web import create_app

    client = TestClient(create_app(tmp_path / "g"), base_url="http://localhost", raise_server_exceptions=False)
    form = {"kind0": "person", "kind1": "random", "kind2": "random", "config": config}
    form["module"] = ["vizier", "building_huts", "bonus_cards", "exchange_offices", "city_gates", "diamonds"]
    r = client.post("/games", data=form, follow_redirects=False)
    assert r.status_code == 400, r.text[:300]
