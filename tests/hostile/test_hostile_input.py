"""Every `dekal` command under hostile input (issue 9; rule B1; the error convention of issue 13).

Whatever the arguments, options, files or standard input, a command ends with a documented
exit code (0 ok, 1 negative verdict, 2 bad input or illegal action, 3 engine unusable), never
a traceback; a refusal is one line on standard error naming the field or the rule, or under
--json one object {"error": {"kind", "rule" or "field", "message"}} on standard output; a
refused option changes no file; and the work done is bounded by the documented sizes
(docs/guide.md, "Limits"), which these tests state by feeding inputs just past them.
"""

from __future__ import annotations

import json
import re
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from dekal.cli._app import app
from dekal.cli._common import MAX_SECONDS
from dekal.cli._conformance import FILTER_CHARS
from dekal.conformance.cases._vectors import MAX_CASE_FILE_CHARS
from dekal.conformance.drive._adapter import MAX_PERFT_DEPTH
from dekal.conformance.drive._serve import MAX_LINE_CHARS
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import MAX_JSON_DEPTH, MAX_JSON_NUMBER_CHARS
from dekal_ref.reading import COUNT_MAX, QUOTE_LIMIT, SEAT_MAX, SEED_MAX
from dekal_ref.record import parse_record, record_from_json, record_to_json
from dekal_ref.record.text import MAX_RECORD_CHARS, MAX_TAG_CHARS

ROOT = Path(__file__).resolve().parents[2]
TIE = (ROOT / "spec" / "examples" / "two-players-first-tie.dkr").read_text(encoding="utf-8")
TIE_JSON = (ROOT / "spec" / "examples" / "two-players-first-tie.json").read_text(encoding="utf-8")
GRID = "1112/3131/1435/2435"
runner = CliRunner()

FOREIGN_DIGITS = ["²", "¹", "١", "٣", "۵", "१", "০", "๓", "０", "𝟙", "①"]
SPECIAL_NUMBERS = ["inf", "-inf", "nan", "NaN", "1e308", "1e-400", "0", "-1", "-0", "0x10"]
SPECIAL_NUMBERS += ["1_0", "+5", " 5", "5 ", "", " ", "2147483648", str(2**64), "9" * 5000]

hostile_numbers = st.one_of(
    st.sampled_from(FOREIGN_DIGITS + SPECIAL_NUMBERS),
    st.integers(-(10**30), 10**30).map(str),
    st.floats().map(str),
    st.text(max_size=12),
)
hostile_text = st.one_of(
    st.text(max_size=40),
    st.sampled_from(FOREIGN_DIGITS + SPECIAL_NUMBERS),
    st.builds(lambda c, n: c * n, st.sampled_from('19T./[{"\\ ,é\x00'), st.integers(0, 20_000)),
)
HOSTILE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def dekal(*args: str, stdin: str | bytes | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


def assert_handled(result: Result, json_mode: bool = False) -> None:
    """A documented exit code, no traceback, no Python None, and the error convention."""
    assert result.exit_code in (0, 1, 2, 3), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    if result.exit_code in (2, 3):  # 1 is a verdict: a report, not an error
        assert_error_convention(result, json_mode)


def assert_error_convention(result: Result, json_mode: bool) -> None:
    if json_mode:
        lines = result.stdout.splitlines()
        assert len(lines) == 1, result.stdout
        error = json.loads(lines[0])["error"]
        assert {"kind", "message"} <= set(error) and None not in error.values()
        assert error["kind"] != "illegal" or "rule" in error
        assert "None" not in error["message"].replace("'None'", "")  # quoted: the user's
    else:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert "None" not in lines[0].replace("'None'", "")  # quoted input is the user's


# --- numbers as text, in every parser -----------------------------------------------------


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
def test_a_record_with_a_foreign_digit_player_count_is_refused_naming_the_tag(digit: str) -> None:
    result = dekal(
        "replay", "-", "--json", stdin=TIE.replace('[Players "2"]', f'[Players "{digit}"]')
    )
    assert_handled(result, json_mode=True)
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["field"] == "Players"


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
def test_a_record_with_a_foreign_digit_seat_is_refused_not_replayed(digit: str) -> None:
    record = TIE.replace("reveal 1 c1, take 0 3", f"reveal {digit} c1, take 0 3", 1)
    result = dekal("replay", "-", "-q", stdin=record)
    assert_handled(result)
    assert result.exit_code == 2 and "seat" in result.stderr


@pytest.mark.parametrize("seed", [str(SEED_MAX + 1), "9" * 150, "١"])
def test_a_seed_outside_0_to_2_64_is_refused_in_both_record_forms(seed: str) -> None:
    with pytest.raises(NotationError) as text_refused:
        parse_record(TIE.replace('[Seed "23"]', f'[Seed "{seed}"]'))
    assert text_refused.value.field == "Seed"
    twin = record_to_json(parse_record(TIE))
    twin["seed"] = int(seed) if seed.isascii() and len(seed) < 100 else seed
    with pytest.raises(NotationError) as json_refused:
        record_from_json(twin)
    assert json_refused.value.field == "record.seed"


def test_the_largest_seed_is_kept_exactly() -> None:
    record = parse_record(TIE.replace('[Seed "23"]', f'[Seed "{SEED_MAX}"]'))
    assert record.seed == SEED_MAX


@HOSTILE
@given(field=st.sampled_from(["Players", "Threshold", "Seed", "FirstSeat"]), value=hostile_text)
def test_any_tag_value_is_read_or_refused_on_one_line(field: str, value: str) -> None:
    tag = f'[{field} "{value}"]'.replace("\n", " ")
    record = (
        re.sub(rf"\[{field} [^\n]*\]", lambda _: tag, TIE) if field in TIE else tag + "\n" + TIE
    )
    assert_handled(dekal("replay", "-", "-q", stdin=record))
    assert_handled(dekal("replay", "-", "--json", stdin=record), json_mode=True)


@HOSTILE
@given(number=hostile_numbers, index=st.integers(0, 400))
def test_any_number_in_a_record_line_is_read_or_refused_on_one_line(
    number: str, index: int
) -> None:
    """Replace one number of the record's body (a seat, a turn, a score) with hostile text."""
    spots = [m.span() for m in re.finditer(r"(?<=[ \n])[0-9]+(?=[ ./\n,])", TIE)]
    start, end = spots[index % len(spots)]
    record = TIE[:start] + number.replace("\n", " ") + TIE[end:]
    assert_handled(dekal("replay", "-", "--json", stdin=record), json_mode=True)


# --- JSON: depth, shape, numbers ----------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 100_000])
def test_a_deeply_nested_json_record_is_refused_naming_the_record(depth: int) -> None:
    record = '{"format": "dekal-record/1", "rounds": ' + "[" * depth + "]" * depth + "}"
    result = dekal("replay", "-", "--json", stdin=record)
    assert_handled(result, json_mode=True)
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["field"] == "record"


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999", "1" * 30])
def test_a_json_record_with_a_number_json_cannot_hold_is_refused(value: str) -> None:
    record = TIE_JSON.replace('"seed": 23', f'"seed": {value}')
    assert record != TIE_JSON
    result = dekal("replay", "-", "--json", stdin=record)
    assert_handled(result, json_mode=True)
    assert result.exit_code == 2


json_leaves = st.none() | st.booleans() | st.integers() | st.text(max_size=6) | st.floats()
json_shapes = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)


@HOSTILE
@given(
    path=st.lists(
        st.sampled_from(
            [
                "rules",
                "players",
                "rounds",
                0,
                "deal",
                "grids",
                "turns",
                "scores",
                "ranking",
                "seed",
                "pile",
            ]
        ),
        min_size=1,
        max_size=4,
    ),
    value=json_shapes,
)
def test_any_json_value_anywhere_in_a_json_record_is_read_or_refused(
    path: list[Any], value: Any
) -> None:
    twin = record_to_json(parse_record(TIE))
    node: Any = twin
    for key in path[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
    if isinstance(node, dict) and isinstance(path[-1], str):
        node[path[-1]] = value
    elif isinstance(node, list) and node:
        node[0] = value
    text = json.dumps(twin)  # NaN and Infinity are written as the bare words Python accepts
    assert_handled(dekal("replay", "-", "--json", stdin=text), json_mode=True)


# --- long text: bounded work --------------------------------------------------------------


def test_a_record_longer_than_the_limit_is_refused_before_it_is_parsed() -> None:
    result = dekal("replay", "-", "--json", stdin="#" * (MAX_RECORD_CHARS + 1))
    assert_handled(result, json_mode=True)
    assert "longer than" in json.loads(result.stdout)["error"]["message"]


def test_a_tag_longer_than_its_limit_is_refused_naming_its_length() -> None:
    result = dekal("replay", "-", stdin=TIE.replace("Two players", "x" * (MAX_TAG_CHARS + 1)))
    assert_handled(result)
    assert "the tag Event is" in result.stderr


@pytest.mark.parametrize("body", ["x" * 2_000_000, 'x\\"' * 700_000, "x" * 2_000_000 + '"'])
def test_a_long_tag_is_read_in_memory_linear_in_its_length(body: str) -> None:
    """The old tag regex kept a backtracking frame per character (8.7 GB for 50 MB)."""
    text = '[Format "dekal-record/1"]\n[Event "' + body + '"]\n'
    tracemalloc.start()
    with pytest.raises(NotationError):
        parse_record(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 8 * len(text)


def test_a_long_bad_grid_is_quoted_short() -> None:
    result = dekal("score", "9" * 1_000_000)
    assert_handled(result)
    assert len(result.stderr) < 400


@HOSTILE
@given(grids=st.lists(hostile_text, min_size=1, max_size=3))
def test_score_reads_or_refuses_any_grid(grids: list[str]) -> None:
    """score judges each grid on its own: one result (or one error line) per grid."""
    result = dekal("score", "--", *grids)
    assert result.exit_code in (0, 2) and "Traceback" not in result.output
    errors = result.stderr.splitlines()
    assert len(errors) <= len(grids) and all(line.startswith("error: ") for line in errors)
    result = dekal("score", "--json", "--", *grids)
    assert result.exit_code in (0, 2) and "Traceback" not in result.output
    # `-` reads grids from standard input (empty here): it adds no result of its own
    assert [json.loads(line)["grid"] for line in result.stdout.splitlines()] == [
        g[:40] for g in grids if g != "-"
    ] or result.exit_code == 0


@HOSTILE
@given(grid=hostile_text, side=hostile_text, card=hostile_numbers)
def test_push_plays_or_refuses_any_arguments(grid: str, side: str, card: str) -> None:
    assert_handled(dekal("push", "--json", "--", grid, side, card), json_mode=True)


def test_score_refuses_standard_input_that_is_not_utf8() -> None:
    result = dekal("score", "-", stdin=b"1111/1111/1111/1111\n\xff\xfe\n")
    assert_handled(result)
    assert result.exit_code == 2 and "UTF-8" in result.stderr


# --- options: checked once, before any work -----------------------------------------------


@HOSTILE
@given(option=st.sampled_from(["--timeout", "--at-most", "--turns"]), value=hostile_numbers)
def test_solve_checks_its_numeric_options_before_solving(option: str, value: str) -> None:
    puzzle = (
        ["--solo", "--face-down", "a1"]
        if option == "--turns"
        else ["--incoming", "5", "--face-down", "a1"]
    )
    assert_handled(dekal("solve", GRID, *puzzle, f"{option}={value}", "--json"), json_mode=True)


@pytest.mark.parametrize("value", ["inf", "nan", "1e308", "0", "-1", "١"])
@pytest.mark.parametrize(
    "command",
    [
        ["solve", GRID, "--incoming", "5"],
        ["prove", "--list"],
        ["conformance", "run", "--filter", "no-such-case"],
        ["conformance", "fuzz", "--engine", "true"],
    ],
)
def test_every_timeout_is_a_finite_positive_number_of_seconds(
    value: str, command: list[str]
) -> None:
    result = dekal(*command, f"--timeout={value}", "--json")
    assert_handled(result, json_mode=True)
    error = json.loads(result.stdout)["error"]
    assert result.exit_code == 2 and (error["kind"], error["field"]) == ("usage", "--timeout")


def test_at_most_past_any_score_is_refused_before_z3_sees_it() -> None:
    result = dekal("solve", GRID, "--incoming", "5", "--at-most", "2147483648")
    assert_handled(result)
    assert result.exit_code == 2 and "--at-most" in result.stderr


@HOSTILE
@given(option=st.sampled_from(["--games", "--seed", "--timeout"]), value=hostile_numbers)
def test_fuzz_checks_its_numeric_options_before_any_game(option: str, value: str) -> None:
    # No engine is given: a valid value reaches "give the engine" (exit 2) and plays nothing.
    assert_handled(dekal("conformance", "fuzz", f"{option}={value}", "--json"), json_mode=True)


@pytest.mark.parametrize("option", ["--engine", "--python"])
@pytest.mark.parametrize("command", ["run", "fuzz"])
def test_an_empty_engine_is_refused_naming_the_option(option: str, command: str) -> None:
    result = dekal("conformance", command, option, "", "--json")
    assert_handled(result, json_mode=True)
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["field"] == option


def test_junit_naming_a_directory_or_a_missing_parent_is_refused_before_the_run(
    tmp_path: Path,
) -> None:
    for target in (tmp_path, tmp_path / "missing" / "report.xml"):
        result = dekal("conformance", "run", "--junit", str(target), "--json")
        assert_handled(result, json_mode=True)
        assert result.exit_code == 2 and json.loads(result.stdout)["error"]["field"] == "--junit"
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_fuzz_save_naming_an_existing_file_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    existing = tmp_path / "notes.txt"
    existing.write_text("mine", "utf-8")
    result = dekal("conformance", "fuzz", "--engine", "true", "--save", str(existing))
    assert_handled(result)
    assert result.exit_code == 2 and "--save" in result.stderr
    assert existing.read_text("utf-8") == "mine"


@pytest.mark.parametrize("option", ["--expect", "--cases"])
@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe not utf-8", b"[" * 10_000, b'{"B1-neg-0001": NaN}', b"{" + b'"a": {' * 5000],
)
def test_expect_and_cases_files_that_cannot_be_read_are_one_line(
    option: str, content: bytes, tmp_path: Path
) -> None:
    path = tmp_path / "file.jsonl"
    path.write_bytes(content)
    result = dekal("conformance", "run", option, str(path), "--json")
    assert_handled(result, json_mode=True)
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["field"] == option


@pytest.mark.parametrize("option", ["--expect", "--cases", "--junit", "--save"])
def test_a_path_with_a_nul_byte_is_refused_naming_the_option(option: str) -> None:
    command = "fuzz" if option == "--save" else "run"
    result = dekal("conformance", command, option, "a\x00b", "--json")
    assert_handled(result, json_mode=True)
    assert result.exit_code == 2


# --- one error convention (issue 13) ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kind", "key"),
    [
        (["score", "1111", "--engine", "nope"], "usage", "field"),
        (["push", "5T32/.144/9999/TT11", "L", "7"], "illegal", "rule"),
        (["push", "5T32/1.44/9999/TT11", "X", "7"], "notation", "field"),
        (["replay", "no-such-record"], "input", "field"),
        (["solve", "1112/3.31/1435/2435", "--incoming", "5"], "notation", "field"),
        (["prove", "--only", "nothing"], "usage", "field"),
        (["conformance", "run", "--filter", "no-such-case"], "usage", "field"),
        (["conformance", "fuzz"], "usage", None),
        (["push"], "usage", "field"),
    ],
)
def test_every_command_reports_an_error_as_one_json_object(
    args: list[str], kind: str, key: str | None
) -> None:
    result = dekal(*args, "--json")
    assert_handled(result, json_mode=True)
    error = json.loads(result.stdout)["error"]
    assert result.exit_code == 2 and error["kind"] == kind
    assert key is None or key in error
    assert result.stderr == ""


def test_without_json_the_same_error_is_one_line_on_stderr_and_stdout_stays_empty() -> None:
    result = dekal("push", "5T32/.144/9999/TT11", "L", "7")
    assert_handled(result)
    assert result.stdout == "" and "rule P1" in result.stderr


# --- docs/guide.md states the convention and the limits as they are -----------------------

GUIDE = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")


def test_the_guide_json_error_example_is_what_the_command_prints() -> None:
    command = re.search(r"^(dekal .*--json)\s+# exit code 2$", GUIDE, re.MULTILINE)
    shown_json = re.search(r"```json\n(\{\"error\".*)\n```", GUIDE)
    assert command is not None and shown_json is not None
    result = dekal(*command.group(1).split()[1:])
    assert result.exit_code == 2 and result.stdout.strip() == shown_json.group(1)


@pytest.mark.parametrize(
    "bound",
    [
        f"{MAX_RECORD_CHARS:,} characters",
        f"a tag value {MAX_TAG_CHARS} characters",
        f"nested at most {MAX_JSON_DEPTH} deep",
        f"numbers of at most {MAX_JSON_NUMBER_CHARS} characters",
        f"{MAX_CASE_FILE_CHARS:,} characters",
        f"{MAX_LINE_CHARS:,} characters",
        f"depth 0–{MAX_PERFT_DEPTH}",
        f"0–{SEAT_MAX}",
        f"0–{SEED_MAX}",
        f"0–{COUNT_MAX:,}",
        f"at most {MAX_SECONDS:,} seconds",
        f"first {QUOTE_LIMIT} characters",
        f"`conformance run --filter` | {FILTER_CHARS:,} characters",
    ],
)
def test_the_guide_states_each_limit_as_the_code_has_it(bound: str) -> None:
    assert bound in " ".join(GUIDE.split())


# --- an engine under test is hostile input too --------------------------------------------

HOSTILE_ENGINE = """
import json, sys
from dekal.conformance.serve import bundled_adapter
adapter = bundled_adapter("ref")
for line in sys.stdin:
    request = json.loads(line)
    reply = adapter.handle(request)
    if request["cmd"] == "score" and "{mode}" == "nan":
        reply = {"id": request["id"], "ok": True, "points": float("nan")}
    elif request["cmd"] == "score":
        reply = "[" * 100000 + "]" * 100000
    sys.stdout.write((reply if isinstance(reply, str) else json.dumps(reply)) + "\\n")
    sys.stdout.flush()
    if request["cmd"] == "quit":
        break
"""


@pytest.mark.parametrize("mode", ["nan", "deep"])
def test_an_engine_replying_nan_or_deep_json_is_judged_not_a_crash(
    mode: str, tmp_path: Path
) -> None:
    engine = tmp_path / "engine.py"
    engine.write_text(HOSTILE_ENGINE.replace("{mode}", mode), "utf-8")
    command = f"{sys.executable} {engine}"
    result = dekal("conformance", "run", "--engine", command, "--filter", "score-0001", "--json")
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    (case,) = json.loads(result.stdout)["engines"][0]["cases"]
    assert case["status"] == "error" and "garbage on stdout" in case["message"]


@HOSTILE
@given(only=hostile_text, timeout=hostile_numbers)
def test_prove_reads_or_refuses_any_only_and_timeout(only: str, timeout: str) -> None:
    # --list: the options are checked, the obligations listed, none proved.
    result = dekal("prove", "--list", "--only", only, f"--timeout={timeout}", "--json")
    assert_handled(result, json_mode=True)


@pytest.mark.parametrize("factory", ["..:x", ":", "a:", "os:nothing", "os.path:sep"])
def test_a_python_factory_that_cannot_be_loaded_is_an_unusable_engine(factory: str) -> None:
    result = dekal("conformance", "run", "--python", factory, "--json")
    assert_handled(result, json_mode=True)
    assert result.exit_code == 3 and json.loads(result.stdout)["error"]["kind"] == "engine"


@pytest.mark.parametrize("option", ["--python", "--engine"])
def test_an_engine_named_with_a_nul_is_bad_input_naming_the_option(option: str) -> None:
    """No command line can hold a NUL: refused before an engine is started (issue 19)."""
    result = dekal("conformance", "fuzz", option, "\x00:x", "--json")
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["field"] == option


@pytest.mark.parametrize("args", [["nosuch"], ["conformance", "nosuch"], ["solve", "--bogus"]])
def test_an_unknown_command_or_option_is_one_line_or_one_json_object(args: list[str]) -> None:
    assert_handled(dekal(*args))
    result = dekal(*args, "--json")
    assert_handled(result, json_mode=True)
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["kind"] == "usage"


def test_an_output_path_through_a_symlink_loop_is_refused_naming_the_option(
    tmp_path: Path,
) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for args in (
        ["run", "--junit", str(tmp_path / "a" / "r.xml")],
        ["fuzz", "--save", str(tmp_path / "a" / "d")],
    ):
        result = dekal("conformance", *args, "--engine", "true", "--json")
        assert_handled(result, json_mode=True)
        assert result.exit_code == 2 and json.loads(result.stdout)["error"]["field"] == args[1]
