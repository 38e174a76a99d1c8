"""The conventions every `dekal` command keeps (issue 13): -h, copyable examples, plain usage
lines, shell completion, a start-up that loads neither NumPy nor Z3, a quiet exit on a closed
pipe, and numbers that agree with their nouns."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dekal.cli._app import COMMANDS, EXIT_BROKEN_PIPE, app, commands_of

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def leaf_commands() -> dict[str, str]:
    """Every command a user runs, as its words after `dekal` -> its help text."""
    found: dict[str, str] = {}
    for name, entry in COMMANDS.items():
        command = commands_of(entry.module)[name]
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for sub_name, sub in subcommands.items():
                found[f"{name} {sub_name}"] = sub.help or ""
        else:
            found[name] = command.help or ""
    return found


LEAVES = leaf_commands()
EXAMPLE = re.compile(r"^    (\S.*)$", re.MULTILINE)
TYPE_NOISE = re.compile(r"<(?:str|int|float|bool|path|int range|float range|list\[\w+\])>")


def help_of(words: str, flag: str = "--help") -> str:
    result = runner.invoke(app, [*words.split(), flag])
    assert result.exit_code == 0, result.output
    return result.output


def examples(help_text: str) -> list[str]:
    """The help's example command lines: indented four spaces, starting with a command."""
    return [line for line in EXAMPLE.findall(help_text) if line.split()[0] in ("dekal", "printf")]


@pytest.mark.parametrize("words", ["", *COMMANDS, *LEAVES])
def test_h_is_the_same_as_help(words: str) -> None:
    assert help_of(words, "-h") == help_of(words, "--help")


@pytest.mark.parametrize("words", LEAVES)
def test_every_command_help_shows_its_examples_verbatim(words: str) -> None:
    written = examples(LEAVES[words])
    assert written, f"dekal {words} --help has no example"
    shown = {line.strip() for line in help_of(words).splitlines()}
    for example in written:
        assert example.strip() in shown, f"re-wrapped: {example}"


@pytest.mark.parametrize("words", ["", *COMMANDS, *LEAVES])
def test_usage_lines_and_option_lists_name_values_not_python_types(words: str) -> None:
    shown = help_of(words)
    usage = shown.splitlines()[0]
    assert usage.startswith("Usage: dekal")
    assert "{" not in usage and "<" not in usage
    assert not TYPE_NOISE.search(shown), TYPE_NOISE.search(shown)


def test_root_help_summaries_are_the_first_lines_of_the_commands_help() -> None:
    for name, entry in COMMANDS.items():
        command = commands_of(entry.module)[name]
        assert (command.help or "").splitlines()[0] == entry.summary, name


def test_shell_completion_is_offered_and_completes_command_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert "--install-completion" in help_of("")
    # --show-completion is a flag: the shell is the one typer finds among this process's
    # parents, and a test run outside a shell (nohup, a CI runner) has none; say it is bash
    import typer.completion

    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    script = runner.invoke(app, ["--show-completion"])
    assert script.exit_code == 0 and "_DEKAL_COMPLETE" in script.output
    completed = subprocess.run(
        [str(Path(sys.executable).with_name("dekal"))],  # the installed command: its name counts
        env={"_DEKAL_COMPLETE": "complete_bash", "COMP_WORDS": "dekal sc", "COMP_CWORD": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.stdout.split() == ["score"]


# --- Start-up -----------------------------------------------------------------------------

MODULES_AFTER = """
import json, sys
from dekal.cli._app import main
sys.argv = ["dekal", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
sys.stderr.write(json.dumps(sorted(sys.modules)))
"""


@functools.cache
def modules_after(*args: str) -> frozenset[str]:
    """The modules a fresh interpreter has loaded once `dekal ARGS` has run (asked once per
    test process: two tests read `score`'s)."""
    done = subprocess.run(
        [sys.executable, "-c", MODULES_AFTER, *args], capture_output=True, text=True, check=True
    )
    return frozenset(json.loads(done.stderr))


HEAVY = {"numpy", "z3", "numba", "distributed", "dask", "matplotlib", "pyspiel"}
"""The libraries a command imports only when it needs them (README, "import lazily")."""


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("score", "5T32/1444/9999/TT11"),
        ("score", "5T32/1444/9999/TT11", "--json"),
        ("advise", "--help"),
        ("play", "--help"),
        ("puzzle", "--help"),
    ],
)
def test_help_and_score_start_without_any_heavy_library(args: tuple[str, ...]) -> None:
    assert not HEAVY & modules_after(*args)


def test_the_scalar_engine_does_not_import_numpy() -> None:
    loaded = modules_after("push", "5T32/1.44/9999/TT11", "L", "7", "--engine", "fast")
    assert "dekal.fast" in loaded
    assert "numpy" not in loaded


def test_the_modules_of_other_commands_stay_unloaded_by_score() -> None:
    loaded = modules_after("score", "5T32/1444/9999/TT11")  # the run the test above reads
    assert "dekal.cli._grid_commands" in loaded
    heavy = {"dekal.cli._solver.solve", "dekal.cli._solver.prove", "dekal.cli._conformance"}
    assert not heavy & loaded


# --- Output -------------------------------------------------------------------------------


def test_a_closed_pipe_exits_quietly_with_141_never_1() -> None:
    grids = "1111/2222/3333/4444\n" * 4000  # far more output than a pipe holds
    with subprocess.Popen(
        [sys.executable, "-c", "from dekal.cli._app import main; main()", "score", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(grids.encode())
        process.stdin.close()
        process.stdout.readline()
        process.stdout.close()  # the reader stops, like `| head -1`
        assert process.wait(timeout=60) == EXIT_BROKEN_PIPE == 141
        assert process.stderr is not None and process.stderr.read() == b""


def test_one_card_left_is_written_in_the_singular() -> None:
    shown = runner.invoke(app, ["score", "1111/1111/1111/1112"]).output
    assert "score 2 with 1 card left" in shown
    assert "1 cards" not in shown


def test_score_says_when_a_grid_has_a_hole_in_text_and_json() -> None:
    shown = runner.invoke(app, ["score", "5T32/1.44/9999/TT11"]).output
    assert "the hole at b2 counts as no card" in shown
    payload = json.loads(runner.invoke(app, ["score", "5T32/1.44/9999/TT11", "--json"]).output)
    assert payload["hole"] == "b2"
    final = json.loads(runner.invoke(app, ["score", "5T32/1444/9999/TT11", "--json"]).output)
    assert "hole" not in final


@pytest.mark.parametrize(
    "args",
    [
        ("score", "5T32/1.44/9999/TT11"),
        ("push", "5T32/1.44/9999/TT11", "L", "7"),
        ("show", "5T32/1.44/9999/TT11"),
        ("replay", "two-players-first-tie"),
    ],
)
def test_no_line_of_a_picture_ends_in_a_space(args: tuple[str, ...]) -> None:
    shown = runner.invoke(app, list(args)).output
    assert [line for line in shown.splitlines() if line.endswith(" ")] == []
