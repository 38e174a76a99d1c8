"""An outside engine's bug is blamed on its rule: the JavaScript engine of examples/engines/js,
written from the spec alone, with one deliberately broken build per bug (`--bug NAME`,
described in bugs.js as "RULE: what goes wrong"). The whole suite runs on the build; every
failing case must be blamed on a rule its description names.

Two builds here and two more under the deep profile (the whole suite takes seconds each);
all fourteen were measured when the blame table was written (every failure of every build
on its own rule; see docs/validate.md).
Skipped when `node` is not on PATH.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import JS_DEEP_WHOLE_RUNS, JS_WHOLE_RUNS

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not on PATH")
ENGINE_JS = Path(__file__).resolve().parents[3] / "examples" / "engines" / "js" / "engine.js"


def described_rules() -> dict[str, set[str]]:
    """bug name -> the rule IDs its description starts with (`P1/P2: …` names two)."""
    listing = subprocess.run(
        [NODE or "node", str(ENGINE_JS), "--list-bugs"], capture_output=True, text=True, check=True
    )
    rules: dict[str, set[str]] = {}
    for line in listing.stdout.splitlines():
        name, _, description = line.strip().partition(" ")
        head = description.strip().partition(":")[0]
        rules[name] = set(re.findall(r"[MTPFSB]\d", head))
    return rules


@pytest.mark.parametrize(
    "bug", [*JS_WHOLE_RUNS, *(pytest.param(b, marks=pytest.mark.deep) for b in JS_DEEP_WHOLE_RUNS)]
)
def test_every_failure_of_a_broken_js_build_is_blamed_on_the_rule_it_breaks(
    bug: str, js_suite_run: Callable[[str], dict[str, Any]]
) -> None:
    rules = described_rules()[bug]
    result = js_suite_run(bug)  # the whole suite's run, shared with the HTML report's tests
    (engine,) = json.loads(result["stdout"])["engines"]
    failed = [case for case in engine["cases"] if case["status"] in ("fail", "error")]
    assert result["code"] == 1 and failed
    assert {case["id"]: case["rule"] for case in failed if case["rule"] not in rules} == {}
    matrix = engine["rules"]
    assert {rule for rule, row in matrix.items() if row["fail"] or row["error"]} <= rules
