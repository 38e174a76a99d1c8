"""Shell completion of option values (issue 21): what `dekal … --option <TAB>` offers, asked
in-process through click's completion API, and once through the environment a shell sets."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer._completion_classes import BashComplete
from typer.main import get_command

from dekal.bots.bot import BOT_NAMES
from dekal.cli._app import app
from dekal.cli._replay import bundled_examples
from dekal_ref.notation import FIRST_RULES, VARIANTS


def offered(args: list[str], incomplete: str) -> list[str]:
    completer = BashComplete(get_command(app), {}, "dekal", "_DEKAL_COMPLETE")
    return [item.value for item in completer.get_completions(args, incomplete)
            if item.type == "plain"]  # fmt: skip


@pytest.mark.parametrize("command", ["simulate", "play", "solve", "push"])
def test_variant_completes_to_the_push_rules_p1_p2(command: str) -> None:
    assert offered([command, "--variant"], "") == list(VARIANTS)


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_first_completes_to_the_first_player_rules(command: str) -> None:
    assert offered([command, "--first"], "") == list(FIRST_RULES)
    assert offered([command, "--first"], "ch") == ["chosen"]


def test_bots_completes_to_every_bot() -> None:
    assert offered(["simulate", "--bots"], "") == list(BOT_NAMES)


def test_a_bot_s_options_complete_after_its_colon() -> None:
    assert offered(["simulate", "--bots"], "pimc:sa") == ["pimc:samples="]


def test_after_a_comma_the_next_bot_completes_with_the_list_kept() -> None:
    assert offered(["simulate", "--bots"], "greedy,ra") == ["greedy,random"]


def test_after_a_bot_s_option_both_its_next_option_and_the_next_bot_complete() -> None:
    assert offered(["simulate", "--bots"], "pimc:samples=9,r") == [
        "pimc:samples=9,rollout=",
        "pimc:samples=9,random",
    ]


def test_advise_bot_completes_too() -> None:
    assert offered(["advise", "--bot"], "is") == ["ismcts"]


def test_replay_record_completes_to_the_bundled_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an empty folder: no file to offer beside them
    names = offered(["replay"], "")
    assert names == sorted(bundled_examples()) and names


def test_a_record_prefix_offers_only_what_completes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`replay two<TAB>` offered `two` itself beside `two-players-first-tie` (issue 26)."""
    monkeypatch.chdir(tmp_path)
    bundled = sorted(name for name in bundled_examples() if name.startswith("two"))
    assert bundled and offered(["replay"], "two") == bundled
    (tmp_path / "two-notes.dkr").write_text("")
    (tmp_path / "twofold").mkdir()
    assert offered(["annotate"], "two") == [*bundled, "two-notes.dkr", "twofold/"]
    assert offered(["replay"], "nothing-starts-so") == []


def test_a_record_in_a_folder_completes_to_that_folder_s_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "first.dkr").write_text("")
    (tmp_path / "games" / ".hidden.dkr").write_text("")
    assert offered(["replay"], "games/") == ["games/first.dkr"]
    assert offered(["replay"], "games/.") == ["games/.hidden.dkr"]
    assert offered(["replay"], "games/f") == ["games/first.dkr"]


def test_play_record_is_a_file_to_write_not_a_bundled_name() -> None:
    assert offered(["play", "--record"], "") == []


def test_solve_method_completes_to_the_solver_methods() -> None:
    from dekal.cli._solver.solve import METHODS

    assert offered(["solve", "--method"], "") == list(METHODS)


def test_the_shell_s_environment_gets_the_values_one_a_line() -> None:
    env = os.environ | {
        "_DEKAL_COMPLETE": "complete_bash",
        "COMP_WORDS": "dekal simulate --variant ",
        "COMP_CWORD": "3",
    }
    script = Path(sys.executable).parent / "dekal"  # the installed command: its name is dekal
    done = subprocess.run([str(script)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == list(VARIANTS)
