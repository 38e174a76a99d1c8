"""The test command itself (issue 20): CI runs exactly the README's command; the command runs
on every core and lists the slowest tests; the deep run the README documents exists and is
the only run where tests marked `deep` run."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_test_command() -> str:
    commands: list[str] = [
        line
        for block in re.findall(r"^```sh\n(.*?)```", README, re.S | re.M)
        for line in block.splitlines()
        if line.endswith("/pytest")
    ]
    (command,) = commands
    return command


def test_ci_runs_the_readme_test_command_word_for_word() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_test_command() in lines


def test_the_test_command_runs_on_every_core_and_lists_the_slowest_tests() -> None:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        options = tomllib.load(handle)["tool"]["pytest"]["ini_options"]
    words = shlex.split(options["addopts"])
    assert words[words.index("-n") + 1] == "auto"
    assert "--dist" in words and words[words.index("--dist") + 1] == "loadfile"
    assert any(word.startswith("--durations=") for word in words)


def test_the_readme_documents_the_deep_run_and_it_is_registered() -> None:
    assert ".venv/bin/pytest --hypothesis-profile=deep" in README
    deep, default = settings.get_profile("deep"), settings.get_profile("default")
    assert deep.max_examples > default.max_examples
    assert settings.get_profile("ci").max_examples == default.max_examples


@pytest.mark.deep
def test_a_deep_test_runs_only_under_the_deep_profile(request: pytest.FixtureRequest) -> None:
    assert request.config.getoption("hypothesis_profile") == "deep"
