"""A module's data file read onto attrs classes (``alhambra.read_data``,
``alhambra.read_data_file``): the values as declared, every problem a ConfigError naming the
file and the place (keys joined by ".", list items counted from 1)."""

from __future__ import annotations

from typing import Any

import pytest
from attrs import field, frozen

import alhambra
from alhambra import ConfigError, read_data, read_data_file


def _positive(row: Row, _attribute: Any, value: int) -> None:
    if value <= 0:
        raise ConfigError(f"row {row.name!r}: size must be positive, not {value}")


@frozen
class Row:
    name: str
    size: int = field(validator=_positive)
    sides: tuple[str, ...] = ()
    share: float = 0.5
    shown: bool = True


def _names_distinct(_table: Table, _attribute: Any, rows: list[Row]) -> None:
    names = [r.name for r in rows]
    if len(set(names)) != len(names):
        raise ConfigError(f"names repeat in {names}")


@frozen
class Table:
    rows: list[Row] = field(validator=_names_distinct)


def _refusal(data: Any) -> str:
    with pytest.raises(ConfigError) as exc:
        read_data(data, Table, "my data")
    return str(exc.value)


def test_a_table_is_read_onto_the_classes_with_its_defaults() -> None:
    data = {"rows": [{"name": "a", "size": 2, "sides": ["north", "east"]}, {"name": "b", "size": 1, "shown": False}]}
    assert read_data(data, Table, "my data") == Table([Row("a", 2, ("north", "east")), Row("b", 1, (), 0.5, False)])


def test_each_problem_names_its_place() -> None:
    assert _refusal({}) == "my data: rows: a required key is missing"
    assert _refusal({"rows": [], "title": "x"}) == "my data: unknown keys ['title'] (allowed: rows)"
    assert _refusal({"rows": "ab"}) == "my data: rows: expected a list, not 'ab'"
    assert _refusal({"rows": ["ab"]}) == "my data: rows #1: expected a table, not 'ab'"
    assert _refusal(7) == "my data: expected a table, not 7"
    assert _refusal({"rows": [{"name": "a", "size": 1}, {"name": "b", "size": 1, "colour": 2}]}) == (
        "my data: rows #2: unknown keys ['colour'] (allowed: name, size, sides, share, shown)"
    )


def test_no_value_is_converted() -> None:
    assert _refusal({"rows": [{"name": 2, "size": "3"}]}) == (
        "my data: rows #1.name: expected a string, not 2; rows #1.size: expected an integer, not '3'"
    )
    assert _refusal({"rows": [{"name": "a", "size": True}]}) == "my data: rows #1.size: expected an integer, not True"
    assert _refusal({"rows": [{"name": "a", "size": 1, "sides": "north"}]}) == (
        "my data: rows #1.sides: expected a list, not 'north'"
    )
    assert _refusal({"rows": [{"name": "a", "size": 1, "shown": 1}]}) == (
        "my data: rows #1.shown: expected true or false, not 1"
    )


def test_the_validators_say_the_rule_in_their_place() -> None:
    assert _refusal({"rows": [{"name": "a", "size": 0}]}) == "my data: rows #1: row 'a': size must be positive, not 0"
    assert _refusal({"rows": [{"name": "a", "size": 1}, {"name": "a", "size": 2}]}) == (
        "my data: names repeat in ['a', 'a']"
    )


def test_at_most_three_problems_are_listed() -> None:
    text = _refusal({"rows": [{"name": k} for k in "abcde"]})
    assert text.startswith("my data: rows #1.size: a required key is missing; rows #2.size: ")
    assert text.endswith("rows #3.size: a required key is missing; and 2 more")


def test_a_data_file_is_read_and_named(tmp_path: Any) -> None:
    path = tmp_path / "rows.toml"
    path.write_text('[[rows]]\nname = "a"\nsize = 4\n', encoding="utf-8")
    assert read_data_file(str(path), Table, "row file") == Table([Row("a", 4)])
    path.write_text('[[rows]]\nname = "a"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^row file '.*rows\.toml': rows #1\.size: a required key is missing$"):
        read_data_file(str(path), Table, "row file")
    with pytest.raises(ConfigError, match="cannot read row file"):
        read_data_file(str(tmp_path / "missing.toml"), Table, "row file")
    assert alhambra.read_data_file is read_data_file
