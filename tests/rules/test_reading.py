"""Reading untrusted text (dekal_ref.reading, dekal_ref.json_reading; rule B1): a number is
ASCII digits, bounded and range-checked; JSON is bounded in size and depth and never NaN;
every refusal is a NotationError naming the field, quoting at most a short prefix."""

from __future__ import annotations

import doctest
import json
import math
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal_ref import Rules, json_reading, new_game, reading, seeded_deal
from dekal_ref.actions import Reveal, parse_action
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import (
    MAX_JSON_CHARS,
    MAX_JSON_DEPTH,
    nesting_depth,
    read_json,
)
from dekal_ref.notation import parse_cell, parse_grid, parse_push, parse_value
from dekal_ref.position import format_position, parse_position
from dekal_ref.reading import QUOTE_LIMIT, SEED_MAX, read_number, shortened, shown

# Characters that str.isdigit() accepts, and int() reads or refuses, that are not Dékal digits.
FOREIGN_DIGITS = ["²", "³", "¹", "١", "٣", "۵", "߁", "१", "৩", "๓", "０", "𝟙", "①", "⑴"]


# --- numbers ------------------------------------------------------------------------------


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
def test_a_number_is_written_in_ascii_digits_only(digit: str) -> None:
    with pytest.raises(NotationError) as refused:
        read_number(digit, "seat")
    assert refused.value.field == "seat" and "digits 0–9" in refused.value.message


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
def test_an_action_with_a_foreign_digit_seat_is_malformed_not_played(digit: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_action(f"reveal {digit} b2")
    assert refused.value.field == "seat"


@given(st.integers(min_value=0, max_value=SEED_MAX))
def test_every_seed_reads_back_as_itself(seed: int) -> None:
    assert read_number(str(seed), "Seed", most=SEED_MAX) == seed


def test_a_seed_of_2_to_the_64_is_refused_not_reduced() -> None:
    """spec/rules.md, Seeded deals: 0 ≤ seed < 2⁶⁴; the generator would reduce it silently."""
    with pytest.raises(NotationError, match="out of range"):
        read_number(str(SEED_MAX + 1), "Seed", most=SEED_MAX)


def test_a_number_past_python_int_digit_limit_is_malformed_not_a_crash() -> None:
    with pytest.raises(NotationError) as refused:
        read_number("9" * 5000, "seed", most=SEED_MAX)
    assert len(refused.value.message) < 200


@given(st.text(max_size=30))
def test_any_text_is_a_number_in_range_or_a_notation_error(text: str) -> None:
    try:
        value = read_number(text, "count", most=1000)
    except NotationError as error:
        assert error.field == "count"
    else:
        assert text.isascii() and text.isdigit() and int(text) == value <= 1000


def test_a_seat_written_out_of_the_game_still_parses_so_the_rules_can_refuse_it() -> None:
    assert parse_action("reveal 7 b2") == Reveal(7, 5)  # M2 refuses seat 7, not the notation


# --- quoting ------------------------------------------------------------------------------


@given(st.text(max_size=500))
def test_quoted_input_is_short_whatever_its_length(text: str) -> None:
    # At most QUOTE_LIMIT characters, each escaped in at most 10 (\U0001f600), and the length.
    assert len(shortened(text)) <= 10 * QUOTE_LIMIT + 30
    assert len(shown(text)) <= 10 * QUOTE_LIMIT + 32


def test_short_input_is_quoted_whole() -> None:
    assert shown("b3") == "'b3'" and shortened("9991/446T/T27T") == "9991/446T/T27T"


# --- JSON ---------------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63)
    | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


def depth_of(value: Any) -> int:
    """The nesting depth of a decoded value: the independent path to nesting_depth."""
    if isinstance(value, list):
        return 1 + max((depth_of(item) for item in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth_of(item) for item in value.values()), default=0)
    return 0


@given(json_values)
def test_nesting_depth_agrees_with_the_decoded_value(value: Any) -> None:
    assert nesting_depth(json.dumps(value)) == depth_of(value)


@given(json_values)
def test_every_json_value_within_the_bounds_reads_back(value: Any) -> None:
    assert read_json(json.dumps(value), "request") == value


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1000, 100_000])
def test_json_nested_deeper_than_the_bound_is_refused_naming_where(depth: int) -> None:
    with pytest.raises(NotationError) as refused:
        read_json("[" * depth + "]" * depth, "--cases x.jsonl:1")
    assert refused.value.field == "--cases x.jsonl:1" and "deep" in refused.value.message


def test_json_nested_exactly_to_the_bound_is_read() -> None:
    depth = MAX_JSON_DEPTH
    assert depth_of(read_json("[" * depth + "]" * depth, "x")) == depth


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert read_json(json.dumps({"a": "[" * 10_000}), "x") == {"a": "[" * 10_000}


@pytest.mark.parametrize(
    "text", ['{"id": NaN}', '{"id": Infinity}', "[-Infinity]", '{"seed": 1e999}', "1" * 40]
)
def test_json_numbers_that_are_not_finite_or_not_short_are_refused(text: str) -> None:
    with pytest.raises(NotationError) as refused:
        read_json(text, "request")
    assert refused.value.field == "request"


def test_json_longer_than_the_bound_is_refused_before_it_is_parsed() -> None:
    with pytest.raises(NotationError, match="longer than"):
        read_json(" " * (MAX_JSON_CHARS + 1), "record")


@given(st.text(max_size=60))
def test_any_text_is_json_or_a_notation_error_naming_where(text: str) -> None:
    try:
        value = read_json(text, "line")
    except NotationError as error:
        assert error.field == "line"
    else:
        json.dumps(value, allow_nan=False)  # what was read can be written back as JSON
        assert not isinstance(value, float) or math.isfinite(value)


@pytest.mark.parametrize("module", [reading, json_reading])
def test_the_docstring_examples_hold(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


# --- every parser: any text parses or is one NotationError --------------------------------

START = format_position(new_game(Rules(players=2), seeded_deal(42, 2)))
hostile_words = st.one_of(
    st.text(max_size=12),
    st.sampled_from(FOREIGN_DIGITS + ["9" * 5000, str(SEED_MAX + 1), "-1", ""]),
)


@given(st.integers(0, 9), hostile_words)
def test_a_position_with_any_field_replaced_parses_or_names_the_field(
    index: int, word: str
) -> None:
    fields = START.split(" ")
    fields[index] = word
    try:
        parse_position(" ".join(fields))
    except NotationError as error:
        assert error.field and len(error.message) < 1000


@pytest.mark.parametrize("parser", [parse_action, parse_cell, parse_grid, parse_push, parse_value])
@given(text=hostile_words)
def test_every_notation_parser_reads_any_text_or_refuses_it(
    parser: Callable[[str], object], text: str
) -> None:
    try:
        parser(text)
    except NotationError as error:
        assert error.field and len(error.message) < 1000
