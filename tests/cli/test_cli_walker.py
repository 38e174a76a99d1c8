"""Every command and every option of `dekal`, given hostile values (issue 19; rule B1).

The walker (tests/support/cli_walk.py) enumerates the command tree as the `dekal` command builds it,
lazy commands and sub-groups included, so a new command is walked without a new test. Each
parameter gets values a careless or hostile user types (empty, huge, negative, NaN, other
scripts' digits, 100,000 characters, a NUL) or names (a FIFO, /proc, a device, a missing
folder, a directory, a symlink loop), one at a time in the command's cheap invocation, with
and without --json and with one of its flags. Whatever the value:

* the exit code is one of the documented 0-4, and no traceback is shown;
* under --json standard output is JSON lines; a refusal's errors all have the one shape
  {"error": {"kind", "rule" or "field", "message"}}; a usage error names one of the
  command's parameters; without --json it is an `error:` line on standard error;
* a number is written in ASCII digits: '١٢', '２', '1_0', ' 7 ' are refused where a number
  is wanted (int() reads them all);
* at most 40 characters of the value are quoted back;
* it answers within two minutes and raises the peak memory by less than 1 GB;
* it writes nothing into the current folder (`--svg ''` once meant "here").

Every parameter meets the commonest hostile values (long text and digits, '', a FIFO); the
default run draws three more per parameter, `--hypothesis-profile=deep` forty. A real argv
that is not UTF-8 needs a subprocess: the last test starts two.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli_walk import (
    BASELINES,
    EXIT_CODES,
    HOSTILE_TEXT,
    LONG_MARKS,
    MEMORY,
    Invocation,
    Walked,
    check_error_object,
    commands,
    error_objects,
    first_example,
    hostile_paths,
    invoke,
    is_number,
    label,
    takes_value,
)
from typer.testing import Result

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
# a traceback in a thread the command started is a traceback too

DEEP = settings.default.max_examples >= 1000  # --hypothesis-profile=deep
WALK = settings(
    max_examples=40 if DEEP else 3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
WALKED = list(commands())
PARAMETERS = [
    pytest.param(walked, param, id=f"{walked.name} {label(param)}")
    for walked in WALKED
    for param in walked.command.params
    if takes_value(param)
]
ALWAYS = ("long text", "long digits", "empty", "fifo")
NOT_NUMBERS = ("arabic digits", "fullwidth digit", "superscript", "underscore", "hex", "padded")
"""Values int() or float() would read, which are not numbers on the command line."""
FLAGS = {walked.name: [p for p in walked.command.params if not takes_value(p)] for walked in WALKED}


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder of hostile paths, and a saved conformance report for `conformance report`."""
    folder = tmp_path_factory.mktemp("walk")
    result, _ = invoke(["conformance", "run", "--engine=ref", "--filter=perft-0001", "--json"])
    assert result.exit_code == 0, result.output
    (folder / "report.json").write_text(result.stdout)
    yield folder


@pytest.fixture
def at_work(place: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test runs in a folder of its own (`play` saves its record in the current one)."""
    monkeypatch.chdir(tmp_path)
    return place


def baseline(walked: Walked, place: Path) -> Invocation:
    text = BASELINES.get(walked.name) or first_example(walked)
    return Invocation.parse(walked, text.format(place=place))


def check(result: Result, growth: int, value: str, json_mode: bool, walked: Walked) -> None:
    """The walker's assertions (the module docstring) on one invocation."""
    output = result.stdout + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in EXIT_CODES, output[-2000:]
    assert "Traceback" not in output, output[-2000:]
    assert not any(mark in output for mark in LONG_MARKS if mark[0] in value), output[-500:]
    assert growth < MEMORY, f"peak memory grew by {growth >> 20} MB"
    written = sorted(path.name for path in Path.cwd().iterdir() if path.name != value)
    assert not written, f"wrote where nobody asked, into the current folder: {written[:5]}"
    for path in Path.cwd().iterdir():  # a file the value named, here: gone for the next
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
    # under --json every line is a JSON object (`-` may ask for a record or picture there)
    errors = list(error_objects(result.stdout)) if json_mode and value != "-" else []
    if result.exit_code not in (2, 3):
        return
    if not json_mode:
        assert any(line.startswith("error: ") for line in result.stderr.splitlines()), output
        return
    errors = errors or list(error_objects(result.stdout))
    assert errors, f"a refusal under --json printed no error object: {output[-2000:]}"
    for error in errors:
        check_error_object(error)
        if error["kind"] == "usage" and "rule" not in error:  # names one of its parameters
            assert error.get("field") in {label(p) for p in walked.command.params}, error


@pytest.mark.parametrize(("walked", "param"), PARAMETERS)
@WALK
@given(data=st.data())
def test_any_value_of_any_parameter_is_answered_or_refused_by_the_convention(
    walked: Walked, param: object, data: st.DataObject, at_work: Path
) -> None:
    values = HOSTILE_TEXT | hostile_paths(at_work)
    kind = data.draw(st.sampled_from(sorted(values)), label="value")
    json_mode = data.draw(st.booleans(), label="--json")
    flags = [flag for flag in FLAGS[walked.name] if flag.name != "json_output"]
    flag = data.draw(st.sampled_from([None, *flags]), label="flag")
    invocation = baseline(walked, at_work).with_value(param, values[kind])  # type: ignore[arg-type]
    if flag is not None:
        invocation = invocation.with_flag(flag)
    if json_mode:
        invocation = invocation.with_flag(_json_flag(walked))
    result, growth = invoke(invocation.args())
    check(result, growth, values[kind], json_mode, walked)
    if kind in NOT_NUMBERS and is_number(walked, param):  # type: ignore[arg-type]
        assert result.exit_code == 2, f"{values[kind]!r} read as a number: {result.output}"


@pytest.mark.parametrize(("walked", "param"), PARAMETERS)
def test_the_commonest_hostile_values_are_tried_on_every_parameter(
    walked: Walked, param: object, at_work: Path
) -> None:
    """Beside the draws above, every parameter meets these, with and without --json: long
    values (quoted back whole by a library's message), the empty name, a named pipe."""
    values = HOSTILE_TEXT | hostile_paths(at_work)
    for number, kind in enumerate(ALWAYS):
        invocation = baseline(walked, at_work).with_value(param, values[kind])  # type: ignore[arg-type]
        json_mode = number % 2 == 0
        if json_mode:
            invocation = invocation.with_flag(_json_flag(walked))
        result, growth = invoke(invocation.args())
        check(result, growth, values[kind], json_mode, walked)


def _json_flag(walked: Walked) -> object:
    (flag,) = [p for p in walked.command.params if p.name == "json_output"]
    return flag


@pytest.mark.parametrize("walked", WALKED, ids=[walked.name for walked in WALKED])
def test_every_command_takes_json(walked: Walked) -> None:
    assert any("--json" in param.opts for param in walked.command.params), walked.name


@pytest.mark.parametrize("walked", WALKED, ids=[walked.name for walked in WALKED])
def test_every_command_has_an_invocation_that_runs(walked: Walked, at_work: Path) -> None:
    """The walker's starting point works: its refusals come from the value it changed."""
    args = baseline(walked, at_work).args()
    result, _ = invoke(args)
    assert result.exit_code in (0, 1), (args, result.output[-2000:])


def test_the_walk_covers_every_command_of_the_root() -> None:
    from dekal.cli._app import COMMANDS

    walked = {walked.path[0] for walked in WALKED}
    assert walked == set(COMMANDS)
    assert len(PARAMETERS) > 50


@pytest.mark.parametrize("seed", ["\uff12", "\u0661\u0662", "1_0", " 7", "9" * 100_000])
def test_the_engine_server_reads_its_seed_in_ascii_digits_only(
    seed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m dekal.conformance.serve --seed ２` was read as 2 (issue 19)."""
    from dekal.conformance.serve import main

    with pytest.raises(SystemExit) as stopped:
        main(["--seed", seed])
    assert stopped.value.code == 2
    assert "9" * 41 not in capsys.readouterr().err


DEKAL = str(Path(sys.executable).with_name("dekal"))
NOT_UTF8 = b"\xff\xfe"  # a word of a real command line need not be UTF-8: only a subprocess has one


@pytest.mark.parametrize("words", [[b"score", NOT_UTF8], [b"replay", NOT_UTF8]])
def test_a_word_that_is_not_utf8_is_answered_in_json_that_is(words: list[bytes]) -> None:
    """Python keeps such bytes as lone surrogates; --json must still be UTF-8 JSON."""
    done = subprocess.run([DEKAL, *words, b"--json"], capture_output=True, timeout=120)
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    error = json.loads(done.stdout.decode("utf-8"))["error"]
    check_error_object(error)
