"""docs/ci.md: the CI job and its plain shell version run what they say.

* The GitHub Actions job's `run:` steps are the shell version's commands, in order.
* The install step is this checkout's (`pip install .`, as the README installs it); the
  suite's command runs in a fresh folder beside this checkout's `examples/` (a CI job runs in
  its checkout), passes with its expect file, and leaves the JUnit file, the HTML page and
  the badge it names, each saying the verdict.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support.doc_pages import fenced_blocks

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "ci.md"


def block(info: str) -> list[str]:
    (found,) = [b for b in fenced_blocks(PAGE.read_text("utf-8")) if b.info == info]
    return list(found.lines)


def shell_commands() -> list[str]:
    return [line for line in block("sh") if line.strip()]


def test_the_job_runs_the_shell_versions_commands() -> None:
    steps = [m.group(1) for line in block("yaml") if (m := re.match(r"\s+- run: (.+)$", line))]
    assert steps == shell_commands()


def test_the_job_is_ten_lines_of_steps_or_fewer() -> None:
    lines = block("yaml")
    steps = lines[[line.strip() for line in lines].index("steps:") + 1 :]
    assert len(steps) <= 10


def test_the_install_step_is_the_readmes() -> None:
    install, *_ = shell_commands()
    assert install == "pip install ."
    assert "pip install --no-compile ." in (ROOT / "README.md").read_text("utf-8")


@pytest.mark.skipif(
    shutil.which("node") is None and not os.environ.get("CI"), reason="node is not on PATH"
)
def test_the_suite_command_passes_and_keeps_its_three_files(tmp_path: Path) -> None:
    _, command = shell_commands()
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}
    done = subprocess.run(
        shlex.split(command), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    first, last = done.stdout.splitlines()[0], done.stdout.splitlines()[-1]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert first == last and re.fullmatch(r"PASS: \d+ cases \(\d+ expected failures\)", first)
    suite = next(ET.parse(tmp_path / "conformance.xml").getroot().iter("testsuite"))
    verdict = {p.get("name"): p.get("value") for p in suite.iter("property")}["verdict"]
    assert verdict == first and int(suite.get("skipped", "0")) > 0
    assert f"{first}</strong>" in (tmp_path / "conformance.html").read_text("utf-8")
    assert (tmp_path / "conformance.svg").read_text("utf-8").startswith("<svg")
