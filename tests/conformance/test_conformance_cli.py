"""`dekal conformance run` and `fuzz` end to end: real subprocess engines (this file is also a
small faulty engine: `python tests/conformance/test_conformance_cli.py MODE`), exit codes, reports,
--expect, --junit, --json, and fuzz catching a broken engine and saving a replayable case."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from dekal.cli._app import app
from dekal.conformance.cases._vectors import Case, load_cases, manifest, matches, schema

HERE = Path(__file__).resolve()
PYTHON = shlex.quote(sys.executable)
REF = f"{PYTHON} -m dekal.conformance.serve --engine ref"
runner = CliRunner()


def faulty(mode: str) -> str:
    return f"{PYTHON} {shlex.quote(str(HERE))} {mode}"


def ids_of(cases: list[Case]) -> set[str]:
    return {str(case["id"]) for case in cases}


def dekal(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout


def test_the_bundled_engines_pass_and_the_json_names_the_versions() -> None:
    code, out = dekal("conformance", "run", "--filter", "B1-neg,perft-0005", "--json")
    report = json.loads(out)
    assert code == 0 and (report["suite"], report["protocol"], report["ok"]) == ("v4", 1, True)
    assert [e["hello"]["name"] for e in report["engines"]] == ["dekal-ref", "dekal-fast"]
    assert all(e["summary"]["fail"] == 0 and e["summary"]["pass"] > 20 for e in report["engines"])


def test_a_subprocess_engine_passes_one_case_of_every_rule_and_kind() -> None:
    """Every kind of request and reply crosses the pipes (`--smoke`: one short case per rule
    and kind). The whole suite through a subprocess is the JavaScript engine's (test_js_engine)
    and, in-process, the bundled engines' (test_conformance_runner)."""
    code, out = dekal("conformance", "run", "--engine", REF, "--smoke")
    (summary,) = [line for line in out.splitlines() if " cases: " in line]
    ran, passed = summary.split(" cases: ")
    assert code == 0 and passed == f"{ran} pass" and int(ran) >= 40
    lines = out.splitlines()
    assert lines[0] == lines[-1] == f"PASS: {ran} cases"  # the verdict, first and last
    assert lines[2].startswith("engine dekal-ref") and lines[4].split()[:3] == [
        "rule",
        "pass",
        "fail",
    ]


def test_a_broken_engine_fails_with_exit_1_a_matrix_and_pictures(tmp_path: Path) -> None:
    junit = tmp_path / "report.xml"
    code, out = dekal(
        "conformance",
        "run",
        "--python",
        "test_conformance_runner:diagonal",
        "--filter",
        "score-0001,score-0003,game-0005",
        "--junit",
        str(junit),
    )
    assert code == 1
    assert "FAIL score-0003" in out and "FAIL game-0005" in out
    assert "cancelled cells are bracketed" in out and "[" in out
    matrix = {
        line.split()[0]: line
        for line in out.splitlines()
        if line[:1] in "MTPFSB" and line[1:2].isdigit()
    }
    assert "✗" in matrix["S1"]
    suites = ET.parse(junit).getroot()
    assert suites.find("testsuite").get("failures") == "2"  # type: ignore[union-attr]


def run_diagonal(known: Path, cases: str = "score-0001,score-0003") -> tuple[int, str]:
    return dekal(
        "conformance",
        "run",
        "--python",
        "test_conformance_runner:diagonal",
        "--filter",
        cases,
        "--expect",
        str(known),
    )


def test_expect_file_turns_known_failures_into_expected_ones(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("# our engine cancels diagonals\nscore-0003 S1 diagonal cancellation\n")
    code, out = run_diagonal(known)
    assert code == 0 and "1 expected failure" in out
    listed = [
        {"case": "score-0001", "rule": "S1", "reason": "by mistake"},
        {"case": "score-0003", "rule": "S1"},
    ]
    known.write_text(json.dumps(listed))
    code, out = run_diagonal(known)
    assert code == 1 and "UNEXPECTED PASS score-0001" in out


def test_expect_a_case_failing_on_another_rule_is_unexpected(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("score-0003 S2 we count cards our own way\n")
    code, out = run_diagonal(known)
    assert code == 1 and "FAIL score-0003" in out
    said = "listed in --expect: as failing on S2 (we count cards our own way); it fails on S1"
    assert said in out


def test_expect_a_rule_line_covers_every_case_failing_on_it(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("S1 diagonals cancel in our engine\n")
    code, out = run_diagonal(known, "score-0001,score-0003,score-0007")
    assert code == 0 and "2 expected failure" in out


def test_expect_a_line_without_a_rule_is_refused_naming_it(tmp_path: Path) -> None:
    known = tmp_path / "known.txt"
    known.write_text("# old style\nscore-0003 diagonal cancellation\n")
    result = runner.invoke(app, ["conformance", "run", "--expect", str(known), "--json"])
    error = json.loads(result.stdout)["error"]
    assert result.exit_code == 2 and error["field"] == "--expect"
    assert "line 2: 'diagonal' is not a rule ID" in error["message"]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--engine", "x", "--python", "y:z"], 2),
        (["--filter", "no-such-case"], 2),
        (["--python", "no_such_module:factory"], 3),
        (["--engine", "/no/such/engine"], 3),
    ],
)
def test_bad_usage_and_unusable_engines_have_their_exit_codes(args: list[str], code: int) -> None:
    assert dekal("conformance", "run", *args)[0] == code


@pytest.mark.deep  # docs/validate.md runs the same command and compares its whole report
def test_suite_v1_runs_every_frozen_v1_case_and_the_reference_passes_them() -> None:
    code, out = dekal("conformance", "run", "--engine", "ref", "--suite", "v1", "--json")
    report = json.loads(out)
    (engine,) = report["engines"]
    v1 = manifest("v1")["cases"]
    assert code == 0 and (report["suite"], engine["suite"]) == ("v1", "v1")
    assert engine["summary"]["pass"] == len(engine["cases"]) == v1 < manifest("v2")["cases"]
    assert {case["id"] for case in engine["cases"]} == {case["id"] for case in load_cases("v1")}


def test_the_text_and_junit_reports_name_the_suite_that_ran(tmp_path: Path) -> None:
    junit = tmp_path / "v1.xml"
    code, out = dekal(
        "conformance", "run", "--engine", "ref", "--suite", "v1", "--filter", "T5",
        "--junit", str(junit),
    )  # fmt: skip
    assert code == 0 and out.splitlines()[2].endswith("(dekal-ref), suite v1, protocol 1")
    suites = ET.parse(junit).getroot()
    assert suites.get("name") == "dekal-conformance-v1"
    assert {case.get("classname", "")[:3] for case in suites.iter("testcase")} == {"v1."}


def test_suite_v4_is_the_default_and_v3_still_runs() -> None:
    # B1's refusal cases: v3 added some (B1-neg-0009) and changed others (B1-neg-0107)
    def ran(*suite: str) -> tuple[int, str, list[tuple[str, str]]]:
        code, out = dekal(
            "conformance", "run", "--engine", "ref", "--filter", "B1-neg", *suite, "--json"
        )
        report = json.loads(out)
        (engine,) = report["engines"]
        return code, report["suite"], [(case["id"], case["status"]) for case in engine["cases"]]

    v3 = [(str(c["id"]), "pass") for c in load_cases("v3") if matches(c, ["B1-neg"])]
    assert ("B1-neg-0009", "pass") in v3 and "B1-neg-0009" not in ids_of(load_cases("v2"))
    assert ran("--suite", "v3") == (0, "v3", v3)
    v4 = [(str(c["id"]), "pass") for c in load_cases("v4") if matches(c, ["B1-neg"])]
    assert set(v3) < set(v4)  # v4 keeps every B1-neg case of v3 and adds its own (B1-neg-4901)
    assert ran() == (0, "v4", v4)


@pytest.mark.parametrize("value", ["v5", "V1", "", "v1,v2"])
def test_a_suite_that_does_not_exist_is_refused_naming_the_choices(value: str) -> None:
    result = runner.invoke(app, ["conformance", "run", "--engine", "ref", "--suite", value])
    (line,) = result.stderr.splitlines()
    assert result.exit_code == 2 and "--suite" in line and "choose one of v1, v2, v3" in line
    code, out = dekal("conformance", "run", "--engine", "ref", "--suite", value, "--json")
    error = json.loads(out)["error"]
    assert code == 2 and (error["kind"], error["field"]) == ("usage", "--suite")
    assert "choose one of v1, v2, v3" in error["message"]


def test_cases_from_files_and_a_suite_are_refused_together(tmp_path: Path) -> None:
    code, out = dekal("conformance", "run", "--suite", "v1", "--cases", str(tmp_path), "--json")
    assert code == 2 and json.loads(out)["error"]["field"] == "--suite"


def test_merged_reports_of_two_suites_name_both(tmp_path: Path) -> None:
    for suite in ("v1", "v2"):
        code, out = dekal(
            "conformance", "run", "--engine", "ref", "--suite", suite, "--filter", "score-0001",
            "--json",
        )  # fmt: skip
        (tmp_path / f"{suite}.json").write_text(out)
    code, out = dekal(
        "conformance", "report", str(tmp_path / "v1.json"), str(tmp_path / "v2.json"), "--json"
    )
    merged = json.loads(out)
    assert code == 0 and merged["suite"] == "v1, v2"
    assert [engine["suite"] for engine in merged["engines"]] == ["v1", "v2"]


def test_an_engine_that_breaks_the_handshake_is_unusable() -> None:
    assert (
        dekal("conformance", "run", "--engine", faulty("protocol-2"), "--filter", "score-0001")[0]
        == 3
    )


@pytest.mark.deep  # waits the whole STARTUP_TIMEOUT (15 s); tests/hostile/test_hostile_engines.py
# checks the silent engine in process with the limit at 0.5 s, and the case above exit 3
def test_an_engine_silent_at_hello_is_unusable() -> None:
    assert (
        dekal(
            "conformance",
            "run",
            "--engine",
            faulty("silent"),
            "--filter",
            "score-0001",
            "--timeout",
            "0.5",
        )[0]
        == 3
    )


def test_subprocess_crashes_hangs_and_garbage_are_errors_and_the_run_goes_on() -> None:
    for mode, kind in (
        ("crash-on-legal", "game-0001"),
        ("hang-on-perft", "perft-0001"),
        ("garbage-on-score", "score-0002"),
    ):
        code, out = dekal(
            "conformance",
            "run",
            "--engine",
            faulty(mode),
            "--timeout",
            "1",
            "--filter",
            f"{kind},pushes-0003,push-0001,M2-neg-0001",
            "--json",
        )
        report = json.loads(out)["engines"][0]
        by_id = {c["id"]: c["status"] for c in report["cases"]}
        assert code == 1 and by_id.pop(kind) == "error", mode
        assert set(by_id.values()) == {"pass"}, mode


def test_fuzz_finds_nothing_in_the_reference() -> None:
    code, out = dekal(
        "conformance", "fuzz", "--engine", REF, "--games", "4", "--seed", "3", "--json"
    )
    report = json.loads(out)
    assert (
        code == 0 and report["games"] == 4 and report["divergences"] == 0 and report["steps"] > 300
    )


def test_fuzz_catches_a_broken_engine_shrinks_it_and_saves_a_case(tmp_path: Path) -> None:
    code, out = dekal(
        "conformance",
        "fuzz",
        "--python",
        "test_conformance_runner:direct_placement",
        "--games",
        "20",
        "--seed",
        "1",
        "--shrink-seconds",  # it never ends within the default 10 s: 2 s shrink it some
        "2",
        "--save",
        str(tmp_path),
    )
    assert code == 1 and "1 divergence" in out
    assert "[Format" in out and "the reference refused with rule P1, the engine accepted" in out
    (saved,) = tmp_path.glob("fuzz-*.jsonl")
    case = json.loads(saved.read_text())
    jsonschema.validate(case, schema())
    assert case["steps"][-1]["expect"] == {"ok": False, "rule": "P1"}
    assert dekal("conformance", "run", "--engine", REF, "--cases", str(saved))[0] == 0
    code, out = dekal(
        "conformance",
        "run",
        "--python",
        "test_conformance_runner:direct_placement",
        "--cases",
        str(tmp_path),
    )
    assert code == 1 and "expected refused with rule P1, the engine accepted" in out


def test_smoke_runs_one_short_case_per_rule_and_kind() -> None:
    code, out = dekal("conformance", "run", "--engine", REF, "--smoke", "--json")
    (engine,) = json.loads(out)["engines"]
    ran = {case["id"] for case in engine["cases"]}
    assert code == 0 and 10 < len(ran) < 60 and engine["summary"]["pass"] == len(ran)
    kinds = {case["kind"] for case in load_cases()}
    assert {case["kind"] for case in engine["cases"]} == kinds


def test_fail_fast_stops_at_the_first_failure_and_says_what_was_not_run() -> None:
    code, out = dekal(
        "conformance",
        "run",
        "--python",
        "test_conformance_runner:diagonal",
        "--filter",
        "score",
        "--fail-fast",
    )
    assert code == 1 and out.count("\nFAIL ") == 1
    assert "(--fail-fast)" in out and "cases not run" in out


def test_the_json_report_is_versioned_with_coverage_and_blame() -> None:
    code, out = dekal(
        "conformance",
        "run",
        "--python",
        "test_conformance_runner:diagonal",
        "--filter",
        "score-0001,score-0003",
        "--json",
    )
    report = json.loads(out)
    (engine,) = report["engines"]
    assert code == 1 and report["report_version"] == 1
    assert engine["coverage"]["claimed"] == {"count": 1, "of": 2, "ratio": 0.5}
    failed = next(case for case in engine["cases"] if case["status"] == "fail")
    assert (failed["rule"], failed["field"]) == ("S1", "cancelled cells")


def test_the_text_report_shows_coverage_and_skips_grouped_by_need() -> None:
    code, out = dekal(
        "conformance",
        "run",
        "--python",
        "test_conformance_runner:chosen_only",
        "--filter",
        "F1,F3",
    )
    assert code == 0 and "must-level coverage of what you claim: 100.0%" in out
    assert "needs first: lowest (not claimed): " in out and "core coverage: " in out


# -- this file as a faulty engine ---------------------------------------------------------------
def serve_faulty(mode: str) -> None:
    """The reference, with one fault: used as a subprocess engine by the tests above."""
    import dekal_ref
    from dekal.conformance.drive._adapter import ProtocolAdapter

    adapter = ProtocolAdapter(dekal_ref)
    for line in sys.stdin:
        request = json.loads(line)
        cmd = request.get("cmd")
        if mode == "silent":
            continue
        reply = adapter.handle(request)
        if mode == "protocol-2" and cmd == "hello":
            reply["protocol"] = 2
        if mode == "crash-on-legal" and cmd == "legal":
            os._exit(3)
        if mode == "hang-on-perft" and cmd == "perft":
            time.sleep(30)
        if mode == "garbage-on-score" and cmd == "score":
            sys.stdout.write("Traceback (most recent call last): oops\n")
            sys.stdout.flush()
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if cmd == "quit":
            return


if __name__ == "__main__":
    serve_faulty(sys.argv[1])
