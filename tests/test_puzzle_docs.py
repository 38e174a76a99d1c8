"""docs/puzzles.md: every `$ dekal …` example and every Python example is run as written.

Timings are blurred (`0.09 s`, `"seconds":0.09`), and so are Z3's witnesses: Z3 may pick
another of several optimal sequences from one process to the next (its choices depend on
what the process asked before). A blurred Z3 witness is instead replayed on the reference
engine here and must reach the score printed beside it. Everything else must match.
"""

from __future__ import annotations

import doctest
import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dekal.cli.app import app
from dekal.cli.solve import build_puzzle
from dekal.proofs.puzzle import Move
from dekal.proofs.replay import replay
from dekal_ref.notation import parse_cell, parse_push

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "puzzles.md"
CONSOLE = re.compile(r"^```console\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
PYCON = re.compile(r"^```pycon\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
TIMES = re.compile(r"\d+\.\d+ s\b")
runner = CliRunner()


def examples(text: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for block in CONSOLE.finditer(text):
        for chunk in block.group(1).split("$ ")[1:]:
            command, _, output = chunk.partition("\n")
            found.append((command, output))
    return found


def z3_witnesses(payload: object, found: list[dict[str, object]]) -> object:
    """The payload with its times blurred and every Z3 answer's moves replaced by a mark
    (the answers are collected in `found`, to be replayed)."""
    if isinstance(payload, list):
        return [z3_witnesses(item, found) for item in payload]
    if not isinstance(payload, dict):
        return payload
    copy = {
        key: "…" if key == "seconds" else z3_witnesses(value, found)
        for key, value in payload.items()
    }
    if payload.get("method") == "z3" and "moves" in payload:
        found.append(payload)
        copy["moves"] = "<z3 witness>"
    return copy


def blurred(output: str, found: list[dict[str, object]] | None = None) -> str:
    lines = []
    for line in output.strip("\n").splitlines():
        if line.startswith("{"):
            marked = z3_witnesses(json.loads(line), [] if found is None else found)
            line = json.dumps(marked, separators=(",", ":"), ensure_ascii=False)
        lines.append(TIMES.sub("… s", line).rstrip())
    return "\n".join(lines)


def replays(command: list[str], answer: dict[str, object]) -> bool:
    """A Z3 answer's moves reach its score on the reference engine."""
    options = dict(zip(command[2::2], command[3::2], strict=False))
    puzzle = build_puzzle(
        command[1],
        options.get("--incoming"),
        "--solo" in command,
        options.get("--face-down"),
        int(options["--turns"]) if "--turns" in options else None,
        options.get("--variant", "slide"),
    )
    moves = [
        Move(parse_cell(str(m["reveal"])), parse_push(str(m["push"])))
        for m in answer["moves"]  # type: ignore[attr-defined]
    ]
    return replay(puzzle, moves).points == answer["score"]


EXAMPLES = examples(DOC.read_text(encoding="utf-8"))


def test_the_guide_has_examples_of_every_question() -> None:
    commands = " ".join(command for command, _ in EXAMPLES)
    for option in ("--json", "--check", "--at-most", "--reach", "--rank", "--solo", "eject"):
        assert option in commands
    assert any(command.startswith("dekal prove") for command, _ in EXAMPLES)


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_console_example(command: str, expected: str) -> None:
    args = shlex.split(command)
    assert args[0] == "dekal"
    result = runner.invoke(app, args[1:])
    found: list[dict[str, object]] = []
    shown: list[dict[str, object]] = []
    assert blurred(result.output, found) == blurred(expected, shown)
    # Z3 may answer with other moves than the page shows: both must reach the same score
    assert all(replays(args[1:], answer) for answer in found + shown)
    if expected.startswith("error:"):
        assert result.exit_code == 2
    elif "no, unreachable" in expected or expected.startswith("wrong:"):
        assert result.exit_code == 1
    else:
        assert result.exit_code == 0


def test_python_examples() -> None:
    blocks = PYCON.findall(DOC.read_text(encoding="utf-8"))
    assert blocks
    parser = doctest.DocTestParser()
    doc_runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        doc_runner.run(parser.get_doctest(block, {}, f"puzzles-{number}", str(DOC), 0))
    assert doc_runner.summarize(verbose=False).failed == 0
