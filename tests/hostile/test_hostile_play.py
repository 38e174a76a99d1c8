"""`dekal play` under hostile standard input and options: whatever is typed, the game ends
with exit 0 at the end of input and never a traceback; a bad table or record is refused
before the game, naming its option."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.hostile import BOUND, DEKAL, assert_refused, dekal, runner
from support.keyboard import at_the_keyboard
from typer.testing import Result

from dekal.cli._app import app
from dekal.cli._bot_specs import SEARCH_LIMITS
from dekal_ref.reading import SEED_MAX

# --- play: hostile standard input and options ---------------------------------------------


def play(*args: str, stdin: bytes, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """`dekal play --seed 3 ARGS` in a process of its own: its standard input is a real pipe,
    decoded as the interpreter decodes one."""
    return subprocess.run(
        [DEKAL, "play", "--seed", "3", *args], input=stdin, capture_output=True,
        timeout=BOUND, cwd=cwd, check=False,
    )  # fmt: skip


def play_here(*args: str, stdin: bytes, cwd: Path) -> Result:
    """The same game in this process (CliRunner, standard input decoded as UTF-8 strictly):
    about a hundredth of a process's CPU, for what is about the game, not the process."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)  # the record is saved in the current folder
        result = runner.invoke(app, ["play", "--seed", "3", *args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


@pytest.mark.parametrize(
    "stdin",
    [
        b"",
        b"\xff\xfe\x00\x01\n" * 3,
        b"\x00" * 10_000 + b"\n",
        b"a" * 3_000_000 + b"\n",
        b"\x1b[2J\x07\r\n\x04\n",
        "é١\u202e\n".encode(),
        b"reveal 9 a1\ntake 0 99999999999999999999\npush 0 Q\n",
    ],
    ids=["empty", "binary", "NUL", "3 MB line", "control characters", "non-ASCII", "junk actions"],
)
@pytest.mark.parametrize("json_mode", [True, False], ids=["json", "text"])
def test_play_survives_hostile_input_and_ends_at_its_end(
    stdin: bytes, json_mode: bool, tmp_path: Path
) -> None:
    """Under --json in a real process (its stdin a pipe the interpreter decodes); as text in
    this process, where any exception, not only a printed traceback, fails the test."""
    if json_mode:
        done = play("--json", stdin=stdin, cwd=tmp_path)
        code, output = done.returncode, done.stdout.decode() + done.stderr.decode()
        stdout = done.stdout.decode()
    else:
        result = play_here(stdin=stdin, cwd=tmp_path)
        code, output, stdout = result.exit_code, result.output, result.stdout
    assert code == 0, output[-2000:]
    assert "Traceback" not in output
    if json_mode:
        events = [json.loads(line) for line in stdout.splitlines()]
        assert events[-1]["event"] == "end"


def first_legal_actions(moves: int) -> list[str]:
    """The first legal action of each of the human's first `moves` prompts (in process)."""
    typed: list[str] = []

    def type_next(screen: str) -> str | None:
        if len(typed) == moves:
            return None
        prompts = [json.loads(x) for x in screen.splitlines() if '"prompt"' in x]
        typed.append(prompts[-1]["legal"][0])
        return typed[-1]

    at_the_keyboard(["play", "--seed", "3", "--json", "--record", os.devnull], type_next)
    assert len(typed) == moves
    return typed


@pytest.mark.parametrize("moves", [0, 1, 2, 3, 5, 8])
def test_play_ends_cleanly_when_input_ends_at_any_prompt(moves: int, tmp_path: Path) -> None:
    """EOF after `moves` of the human's actions (each prompt's first legal action): the game
    stops, the record replays."""
    lines = "".join(f"{x}\n" for x in first_legal_actions(moves))
    done = play_here("--json", stdin=lines.encode(), cwd=tmp_path)  # the end of input is
    assert done.exit_code == 0, done.output  # the point here, not the process
    events = [json.loads(x) for x in done.stdout.splitlines()]
    assert sum("prompt" in event for event in events) == moves + 1  # ended at a prompt
    assert events[-1]["event"] == "end" and events[-1]["over"] is False
    if events[-1]["record"] is not None:
        replayed = dekal("replay", str(tmp_path / events[-1]["record"]), "--quiet")
        assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--players", "1"], "--players"),
        (["--players", "7"], "--players"),
        (["--players", "3", "--bots", "greedy,greedy,greedy"], "--bots"),
        (["--players", "4", "--bots", "greedy,random"], "--bots"),
        (["--bots", "greedy,,random"], "--bots"),
        (["--bots", f"pimc:samples={SEARCH_LIMITS['samples'] + 1}"], "--bots"),
        (["--bots", "pimc:samples=٣"], "--bots"),
        (["--seat", "99"], "--seat"),
        (["--seed", str(SEED_MAX + 1)], "--seed"),
        (["--match", "0"], "--match"),
    ],
)
def test_a_bad_table_is_refused_before_the_game(args: list[str], field: str) -> None:
    result = dekal("play", *args, "--json", stdin="")
    assert assert_refused(result, json_mode=True)["field"] == field


def test_a_record_into_a_directory_is_refused_before_the_game(tmp_path: Path) -> None:
    result = dekal("play", "--record", str(tmp_path), "--json", stdin="a1\n")
    assert assert_refused(result, json_mode=True)["field"] == "--record"


@pytest.mark.skipif(os.geteuid() != 0, reason="as root, os.access says any path is writable")
def test_a_record_nobody_can_write_is_refused_before_the_game_even_for_root() -> None:
    result = dekal("play", "--record", "/proc/dekal-play.dkr", "--json", stdin="a1\n")
    assert assert_refused(result, json_mode=True)["field"] == "--record"


def test_the_record_check_leaves_no_file_when_the_game_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "game.dkr"
    result = dekal("play", "--record", str(target), "--bots", "chess", "--json", stdin="")
    assert_refused(result, json_mode=True)
    assert not target.exists()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lines=st.lists(
        st.text(max_size=60)
        | st.sampled_from(
            ["legal", "help", "quit", "", "b3", "T", "L2", "reveal 0 a1", "take 9 T"]
        ),
        max_size=12,
    )
)
def test_play_reads_any_lines_and_answers_each_with_json(lines: list[str]) -> None:
    """Whatever is typed, --json output stays one JSON object a line, ending with `end`."""
    typed = "\n".join(line.replace("\n", " ").replace("\r", " ") for line in lines)
    result = dekal("play", "--seed", "1", "--json", "--record", os.devnull, stdin=typed)
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in result.stdout.splitlines()]
    assert events[-1]["event"] == "end"
