"""spec/bot-protocol.md is true: its transcripts are what our bot server answers (every reply,
`message` texts aside), and its whole bot of section 6, written from the page alone, plays
through the table loop move for move as the same policy in-process."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

from dekal.bots._protocol.check import check_bot
from dekal.bots._protocol.process_bot import ProcessBot
from dekal.bots.observation import Observation, legal_actions
from dekal.bots.serve import BotServer, serve
from dekal.bots.table import play_game
from dekal.draws import Draws
from dekal_ref.actions import Action
from dekal_ref.state import Rules

PAGE = Path(__file__).resolve().parents[2] / "spec" / "bot-protocol.md"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text("utf-8"), re.DOTALL)


def without_messages(reply: dict[str, object]) -> dict[str, object]:
    error = reply.get("error")
    if isinstance(error, dict):
        reply = {**reply, "error": {k: v for k, v in error.items() if k != "message"}}
    return {k: v for k, v in reply.items() if k != "version"}


@pytest.mark.parametrize("index", [0, 1], ids=["random session", "pimc info"])
def test_the_transcript_is_what_the_server_answers(index: int) -> None:
    transcript = blocks("protocol")[index]
    requests = [line[2:] for line in transcript.splitlines() if line.startswith("> ")]
    shown = [json.loads(line[2:]) for line in transcript.splitlines() if line.startswith("< ")]
    spec = str(shown[0]["name"]).removeprefix("dekal-")  # the hello reply names the bot served
    output = io.StringIO()
    serve(BotServer(spec), io.StringIO("\n".join(requests) + "\n"), output)
    answered = [json.loads(line) for line in output.getvalue().splitlines()]
    assert [without_messages(r) for r in answered] == [without_messages(r) for r in shown]


class FirstLegal:
    """Section 6's policy, in-process."""

    name = "first-legal"

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        return legal_actions(obs, seat)[0]


def test_the_whole_bot_of_section_6_plays_as_its_policy_in_process(tmp_path: Path) -> None:
    (program,) = blocks("python")
    script = tmp_path / "first_legal.py"
    script.write_text(program)
    rules = Rules(players=3, push="eject")
    with ProcessBot(f"{sys.executable} {script}") as outside:
        piped = play_game(rules, [FirstLegal(), outside, outside], seed=11)
        assert outside.hello(1)["name"] == "first-legal"
    assert piped.record == play_game(rules, [FirstLegal()] * 3, seed=11).record
    report = check_bot(lambda: ProcessBot(f"{sys.executable} {script}"), games=1)
    assert [check.findings for check in report.checks] == [[], [], [], []]
