"""`dekal bots check` (dekal.bots._protocol.check) catches every planted fault of
tests/miniatures/bots — an illegal action, a late answer, a crash, a bot that is not
deterministic under its seed, one that does not refuse bad input, one that peeks — and
passes correct bots, ours and a program."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from miniatures.bots.peeking_bot import PeekingBot
from typer.testing import CliRunner

from dekal.bots._protocol.check import check_bot
from dekal.bots._protocol.process_bot import ProcessBot
from dekal.bots.bot import make_bot
from dekal.cli._app import app

MINIATURES = Path(__file__).resolve().parents[1] / "miniatures" / "bots"


def program(mode: str, think_ms: int = 2000) -> ProcessBot:
    return ProcessBot(f"{sys.executable} {MINIATURES / 'faulty_bot.py'} {mode}", think_ms)


def failed_checks(make: object) -> list[str]:
    report = check_bot(make, games=1)  # type: ignore[arg-type]
    return [check.name for check in report.checks if not check.passed]


def test_a_correct_program_passes_every_check() -> None:
    assert failed_checks(lambda: program("fine")) == []


def test_our_bots_pass_in_process() -> None:
    assert failed_checks(lambda: make_bot("greedy")) == []
    assert failed_checks(lambda: make_bot("random")) == []


@pytest.mark.parametrize(
    ("mode", "caught"),
    [
        ("illegal", ["legal and in time"]),
        ("crash", ["legal and in time"]),
        ("random_unseeded", ["deterministic"]),
        ("refuse", ["legal and in time"]),
    ],
)
def test_a_planted_fault_is_caught_by_its_check(mode: str, caught: list[str]) -> None:
    assert failed_checks(lambda: program(mode)) == caught


def test_an_answer_past_the_budget_is_caught() -> None:
    report = check_bot(lambda: program("late", think_ms=200), games=1, players=[2])
    assert [check.name for check in report.checks if not check.passed] == ["legal and in time"]
    assert "forfeits (time)" in report.checks[0].findings[0]


def test_a_bot_that_peeks_at_the_pile_is_caught() -> None:
    report = check_bot(PeekingBot, games=1)
    (blind,) = [check for check in report.checks if check.name == "blind"]
    assert blind.findings and "it sees hidden cards" in blind.findings[0]


def test_the_command_exits_1_on_a_failed_check_and_says_which() -> None:
    result = CliRunner().invoke(
        app,
        ["bots", "check", "--bot", f"cmd:{sys.executable} {MINIATURES / 'faulty_bot.py'} illegal",
         "--games", "1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert not report["passed"] and not report["checks"][0]["passed"]
    assert report["hello"]["name"] == "faulty-illegal"
