"""Messages say one thing one way: counts agree with their nouns, a range is the one the code
derives, a missing extra is named in a sentence that agrees (issue 26, item 4)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from support.agreement import disagreements
from support.cli_walk import commands, invoke

from dekal.proofs.puzzle_set import load_puzzles
from dekal_ref.words import plural

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "cli", "proofs", "bots", "conformance", "simulation", "dekal_ref")


def test_the_agreement_check_finds_both_kinds_of_slip() -> None:
    assert disagreements("'1.34/1444/9999/TT11' has 1 holes; 3 card left") == ["1 holes", "3 card"]
    assert disagreements("1 hole, 2 holes, 0 cards; the 1 leaves; 1.5 points; puzzle-035") == []


@pytest.mark.parametrize("count", [0, 1, 2])
def test_plural_agrees_with_its_count(count: int) -> None:
    assert disagreements(plural(count, "hole")) == []


def test_no_help_text_has_a_count_that_disagrees() -> None:
    wrong = {
        walked.name: found
        for walked in commands()
        if (found := disagreements(invoke([*walked.path, "--help"])[0].output))
    }
    assert wrong == {}


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "1.34/1444/9999/TT11", "--incoming", "5"],  # one hole where none may be
        ["show", "1.34/1.44/9999/TT11"],  # two holes
        ["solve", "1112/3131/1435/2435", "--incoming", "5", "--method", "search"],
        ["solve", "1112/3131/1435/2435", "--incoming", "5,3", "--at-most", "3", "--method",
         "search"],
        ["score", "1111/1111/1111/1112"],  # one card left
    ],
)  # fmt: skip
def test_messages_with_a_count_of_one_agree(args: list[str]) -> None:
    result, _ = invoke(args)
    assert disagreements(result.output) == [], result.output


@pytest.mark.parametrize("number", ["0", "999"])
def test_a_puzzle_number_out_of_range_is_told_the_one_range_of_the_set(number: str) -> None:
    result, _ = invoke(["puzzle", number])
    assert result.exit_code == 2
    count = len(load_puzzles())
    assert f"a number 1–{count} (there are {count} puzzles)" in result.output, result.output


def _needed_phrases() -> list[tuple[str, str]]:
    """(where, phrase) of every `needed("...")` of the product: what a MissingExtra names."""
    found = []
    for room in PRODUCT:
        for path in sorted((ROOT / room).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", None) == "needed"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.args[0].value))
    return found


def test_every_missing_extra_message_has_a_singular_subject() -> None:
    """MissingExtra says "{what} needs {module}": "the NumPy batch paths needs numpy" was
    wrong, so the subject (the phrase before any parenthesis) ends in a singular word."""
    phrases = _needed_phrases()
    assert len(phrases) > 5
    plural_subjects = [
        (where, phrase)
        for where, phrase in phrases
        if phrase.split(" (")[0].split()[-1].endswith("s")
    ]
    assert plural_subjects == []
