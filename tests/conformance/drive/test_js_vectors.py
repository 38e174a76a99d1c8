"""examples/engines/js/run-vectors.mjs: the vectors run in Node alone, without our harness.

* The correct JavaScript build passes every case of the suite, read straight from the
  `.jsonl` files (docs/vectors.md), the manifest's hashes checked.
* It is a second runner, independent of dekal.conformance: on the broken builds both runners
  run on the whole suite, it fails exactly the cases `dekal conformance run` fails.
* A file that does not match the manifest is refused; a case that needs what the engine does
  not claim is skipped.

Skipped when `node` is not on PATH, except under CI (CI=true), where a missing node fails.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import JS_WHOLE_RUNS

from dekal.conformance.cases._vectors import SUITE_VERSION, manifest

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None and not os.environ.get("CI"), reason="node is not on PATH"
)
ROOT = Path(__file__).resolve().parents[3]
RUNNER = ROOT / "examples" / "engines" / "js" / "run-vectors.mjs"
FAILED = re.compile(r"^FAIL \((must|should)\) (\S+) ", re.MULTILINE)


def run_vectors(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [NODE or "node", str(RUNNER), *args], capture_output=True, text=True, timeout=120
    )


def test_the_correct_build_passes_every_case_of_the_suite() -> None:
    done = run_vectors()
    cases = manifest()["cases"]
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.splitlines()[-1] == (
        f"PASS: suite {SUITE_VERSION}, {cases} cases: {cases} pass (dekal-js)"
    )


@pytest.mark.parametrize(
    "bug",
    [  # one build by default; the other's run is shared too, but the Node run costs ~1 s
        pytest.param(bug, marks=[pytest.mark.deep] if k else [])
        for k, bug in enumerate(JS_WHOLE_RUNS)
    ],
)
def test_on_a_broken_build_it_fails_the_cases_the_python_runner_fails(
    bug: str, js_suite_run: Callable[[str], dict[str, object]]
) -> None:
    done = run_vectors("--bug", bug)
    failed_here = {case_id for _, case_id in FAILED.findall(done.stdout)}
    (engine,) = json.loads(str(js_suite_run(bug)["stdout"]))["engines"]
    failed_there = {case["id"] for case in engine["cases"] if case["status"] in ("fail", "error")}
    assert done.returncode == 1 and failed_there
    assert failed_here == failed_there


def one_case_suite(folder: Path, case: dict[str, object], sha256: str | None = None) -> Path:
    """A suite folder of one file holding `case`, its manifest's hash `sha256` (else the
    file's own)."""
    data = (json.dumps(case) + "\n").encode()
    (folder / "score.jsonl").write_bytes(data)
    digest = sha256 or hashlib.sha256(data).hexdigest()
    entry = {"sha256": digest, "cases": 1}
    (folder / "manifest.json").write_text(
        json.dumps({"suite": "t1", "files": {"score.jsonl": entry}})
    )
    return folder


SCORE_CASE = {
    "id": "score-0001",
    "kind": "score",
    "title": "t",
    "rules": ["S1"],
    "level": "must",
    "needs": {},
    "input": {"grid": "1234/5678/9T12/3456"},
    "expect": {"points": 76, "remaining": 16, "cancelled": []},
}


def test_a_file_that_does_not_match_the_manifest_is_refused(tmp_path: Path) -> None:
    done = run_vectors("--suite", str(one_case_suite(tmp_path, SCORE_CASE, sha256="0" * 64)))
    assert done.returncode == 2
    assert "score.jsonl does not match the manifest's sha256" in done.stderr


def test_a_case_needing_what_the_engine_does_not_claim_is_skipped(tmp_path: Path) -> None:
    case = {**SCORE_CASE, "needs": {"features": ["telepathy"]}}
    done = run_vectors("--suite", str(one_case_suite(tmp_path, case)))
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "PASS: suite t1, 1 case: 1 skip (dekal-js)"


def test_a_should_case_fails_the_run_only_with_strict(tmp_path: Path) -> None:
    case = {**SCORE_CASE, "level": "should", "expect": {**SCORE_CASE["expect"], "points": 75}}
    suite = str(one_case_suite(tmp_path, case))
    assert run_vectors("--suite", suite).returncode == 0
    assert run_vectors("--suite", suite, "--strict").returncode == 1
