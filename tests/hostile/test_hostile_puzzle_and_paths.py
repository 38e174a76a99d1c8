"""`dekal puzzle`'s bad options, and output paths that would hang (a named pipe) or cannot be
names (a NUL), refused naming their option."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from support.hostile import BOUND, DEKAL, assert_refused, dekal

from dekal_ref.reading import SEED_MAX

# --- puzzle -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["0"], "NUMBER"),
        (["100000"], "NUMBER"),
        (["--random", "--seed", str(SEED_MAX + 1)], "--seed"),
        (["--random", "--seed", "-1"], "--seed"),
        (["1", "--answer", "zz"], "--answer"),
        (["1", "--answer", "a1\x00:L"], "--answer"),
        (["1", "--answer", "١:L"], "--answer"),
        (["1", "--answer", "c3:L" * 250_000], "--answer"),
        (["--rating", "impossible"], "--rating"),
    ],
)
@pytest.mark.parametrize("json_mode", [True, False], ids=["json", "text"])
def test_a_bad_puzzle_option_is_refused_naming_it(
    args: list[str], field: str, json_mode: bool
) -> None:
    error = assert_refused(dekal("puzzle", *args, *["--json"] * json_mode), json_mode)
    assert error.get("field", field) == field
    assert error["message"].count(f"{field}:") <= 1  # named once, not "--answer: … --answer:"


def test_every_seed_of_the_notation_chooses_a_puzzle() -> None:
    result = dekal("puzzle", "--random", "--seed", str(SEED_MAX), "--json")
    assert result.exit_code == 0 and "number" in json.loads(result.stdout)


# --- output paths that would hang or cannot be names ----------------------------------------


@pytest.mark.parametrize(
    "command",
    [["play", "--json", "--record"], ["puzzle", "1", "--json", "--svg"]],
    ids=["play --record", "puzzle --svg"],
)
def test_a_named_pipe_as_output_is_refused_not_waited_on(
    command: list[str], tmp_path: Path
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = subprocess.run(
        [DEKAL, *command, str(fifo)], input="", capture_output=True, text=True, timeout=BOUND,
        check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert json.loads(done.stdout)["error"]["field"] == command[-1]


@pytest.mark.parametrize(
    "command",
    [["play", "--json", "--record"], ["puzzle", "1", "--json", "--svg"]],
    ids=["play --record", "puzzle --svg"],
)
def test_a_nul_in_an_output_path_is_refused_naming_the_option(command: list[str]) -> None:
    error = assert_refused(dekal(*command, "/tmp/a\x00b", stdin=""), json_mode=True)
    assert error["field"] == command[-1]
