"""Every format a `--help` describes is the one the command accepts (issue 26, item 4).

`dekal conformance run --help` once described `--expect` as `"ID  reason"` lines or a JSON
object ID -> reason, both refused by its parser. dekal.cli._formats lists every parameter
whose help shows what it reads, with the examples the help shows: each example must be in
the command's --help, and the command, run with it (from the walker's cheap invocation,
tests/support/cli_walk.py), must accept it. A parameter that takes a value is a number, a
listed format, or listed in NOT_FORMATS with what it is instead: a new parameter that
describes a format cannot be added without its examples being held to the parser.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support.cli_walk import (
    BASELINES,
    Invocation,
    Walked,
    commands,
    first_example,
    invoke,
    is_number,
    label,
    takes_value,
)

from dekal.cli._formats import FORMATS, NOT_FORMATS, Example, Format

WALKED = {walked.name: walked for walked in commands()}
CASES = [
    pytest.param(form, command, example, id=f"{command} {form.parameter} {example.value[:30]}")
    for form in FORMATS
    for command in form.commands
    for example in form.examples
]


@functools.cache
def help_text(command: str) -> str:
    return flat(invoke([*command.split(), "--help"])[0].output)


def flat(text: str) -> str:
    """Text with every run of white space one space (Click re-wraps help paragraphs)."""
    return re.sub(r"\s+", " ", text)


def parameter(walked: Walked, name: str) -> object:
    (found,) = [p for p in walked.command.params if label(p) == name]
    return found


def run_with(walked: Walked, form: Format, example: Example, folder: Path) -> list[str]:
    """The command's cheap invocation with the example as the parameter's value."""
    text = example.instead or (BASELINES.get(walked.name) or first_example(walked))
    text = text.format(place=folder)
    invocation = Invocation.parse(walked, text)
    beside = Invocation.parse(walked, example.beside)
    invocation = Invocation(
        walked, invocation.values | beside.values, invocation.flags | beside.flags
    )
    value = example.value
    if example.text:
        written = folder / "example.txt"
        written.write_text(value + "\n", encoding="utf-8")
        value = str(written)
    return invocation.with_value(parameter(walked, form.parameter), value).args()  # type: ignore[arg-type]


@pytest.mark.parametrize(("form", "command", "example"), CASES)
def test_every_example_a_help_shows_is_in_that_help(
    form: Format, command: str, example: Example
) -> None:
    shown = help_text(command)
    assert flat(example.value) in shown, f"dekal {command} --help does not show {example.value!r}"


@pytest.mark.parametrize(("form", "command", "example"), CASES)
def test_every_example_a_help_shows_is_accepted_by_the_command(
    form: Format, command: str, example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    if form.parser:  # running the command costs seconds: its parser, on the value
        parse = parser_of(form, WALKED[command])
        value = [example.value] if form.parameter == "--seat" else example.value  # repeatable
        try:
            parse(value)
        except SystemExit:  # dekal.cli._common.fail: a refusal
            raise AssertionError(f"{command} {form.parameter} refuses {example.value!r}") from None
        return
    args = run_with(WALKED[command], form, example, tmp_path)
    result, _ = invoke(args)
    assert result.exit_code in (0, 1), (shlex.join(args), result.output[-1500:])


def parser_of(form: Format, walked: Walked) -> Callable[[object], object]:
    """The function a Format names, checked to be one the command's own module calls."""
    module_name, _, name = form.parser.partition(":")
    callback = walked.command.callback
    assert callback is not None
    source = inspect.getsource(sys.modules[callback.__module__])
    assert re.search(rf"\b{name}\(", source), f"{callback.__module__} never calls {name}"
    parse: Callable[[object], object] = getattr(importlib.import_module(module_name), name)
    return parse


def test_every_parameter_with_a_value_is_a_number_a_format_or_said_to_be_neither() -> None:
    described = {(command, form.parameter) for form in FORMATS for command in form.commands}
    unlisted = [
        f"{walked.name} {label(param)}"
        for walked in WALKED.values()
        for param in walked.command.params
        if takes_value(param)
        and not is_number(walked, param)
        and (walked.name, label(param)) not in described
        and label(param) not in NOT_FORMATS
    ]
    assert unlisted == [], "list their formats in dekal.cli._formats (or in NOT_FORMATS)"


def test_the_expect_file_the_help_describes_is_what_the_parser_reads() -> None:
    """The drift issue 26 found, stated on its own: the help's shapes are the parser's."""
    from dekal.conformance.judge._expect import LINE_SHAPES, parse_expect

    shown = help_text("conformance run")
    assert flat(LINE_SHAPES) in shown and '"ID  reason"' not in shown
    for shape in re.findall(r"`([^`]+)`", LINE_SHAPES):
        concrete = shape.replace("ID", "game-0007").replace("RULE", "S3").replace("[reason]", "x")
        (entry,) = parse_expect(concrete, "the help").entries
        assert entry.rule == "S3"
