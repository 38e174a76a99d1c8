"""Forfeits (spec/bot-protocol.md, section 5): a bot program that answers illegally, late,
with garbage, refuses, or dies loses its game at that decision with a BotForfeit naming the
seat and the kind; its process group is ended, and its seat's next game starts a new process.
A program that cannot be played at all (another protocol version) is BotUnusable.
The planted faults are the modes of tests/miniatures/bots/faulty_bot.py."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from dekal.bots._protocol.process_bot import BotForfeit, BotUnusable, ProcessBot
from dekal.bots.bot import make_bot
from dekal.bots.table import play_game
from dekal.conformance.drive._process_group import group_alive, process_table
from dekal_ref.state import Rules

FAULTY = Path(__file__).resolve().parents[1] / "miniatures" / "bots" / "faulty_bot.py"


def faulty(mode: str, think_ms: int = 2000) -> ProcessBot:
    return ProcessBot(f"{sys.executable} {FAULTY} {mode}", think_ms=think_ms)


def forfeit_of(bot: ProcessBot) -> BotForfeit:
    with bot, pytest.raises(BotForfeit) as caught:
        play_game(Rules(players=2), [make_bot("greedy"), bot], seed=3)
    assert caught.value.seat == 1 and caught.value.bot == bot.name
    assert bot.links == []  # the forfeiting seat's process is gone
    return caught.value


@pytest.mark.parametrize(
    ("mode", "kind"),
    [("illegal", "illegal"), ("crash", "crash"), ("garbage", "garbage"), ("refuse", "refused")],
)
def test_a_faulty_answer_forfeits_with_its_kind(mode: str, kind: str) -> None:
    assert forfeit_of(faulty(mode)).kind == kind


def test_an_answer_later_than_the_budget_forfeits_on_time() -> None:
    start = time.monotonic()
    forfeit = forfeit_of(faulty("late", think_ms=300))
    assert forfeit.kind == "time" and time.monotonic() - start < 5


def test_an_illegal_answer_is_named_with_the_legal_ones() -> None:
    forfeit = forfeit_of(faulty("illegal"))
    assert "reveal 9 a1" in forfeit.message and "reveal 1 a1" in forfeit.message


def test_the_next_game_after_a_forfeit_starts_a_new_process() -> None:
    bot = faulty("crash")
    with bot:
        for _ in range(2):  # the crash comes at the third decision of every process
            with pytest.raises(BotForfeit):
                play_game(Rules(players=2), [bot, make_bot("random")], seed=4)


def test_a_bot_of_another_protocol_version_is_unusable() -> None:
    with faulty("old") as bot, pytest.raises(BotUnusable, match="protocol"):
        play_game(Rules(players=2), [bot, make_bot("random")], seed=4)


def test_a_command_that_does_not_start_is_unusable() -> None:
    with ProcessBot("/nonexistent/bot") as bot, pytest.raises(BotUnusable):
        play_game(Rules(players=2), [bot, make_bot("random")], seed=4)


def test_the_processes_a_bot_starts_end_with_it() -> None:
    bot = faulty("noisy")
    play_game(Rules(players=2), [bot, make_bot("random")], seed=4)
    (link,) = bot.links
    group = link.process.process.pid  # type: ignore[union-attr]
    assert sum(pgrp == group for _, _, pgrp in process_table().values()) == 2  # bot and child
    bot.close()
    assert not group_alive(group)


def test_a_command_whose_bot_program_forfeits_stops_with_exit_3_naming_it() -> None:
    """spec/bot-protocol.md, section 5: play, simulate, advise and annotate cannot score a
    game that was not played out."""
    import json

    from typer.testing import CliRunner

    from dekal.cli._app import app

    bot = f"cmd:{sys.executable} {FAULTY} illegal"
    args = ["simulate", "--players", "2", "--games", "2", "--bots", f"{bot},greedy", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 3
    error = json.loads(result.output)["error"]
    assert error["kind"] == "engine" and error["field"] == "--bots"
    assert "forfeits (illegal)" in error["message"]
