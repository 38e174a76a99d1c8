"""What every test module shares: Hypothesis profiles, the `deep` marker, the parallel run, and
expensive results computed once per test run.

Hypothesis profiles (`pytest --hypothesis-profile=NAME`):

* default: sized for a default run of a few minutes (its budget is five minutes wall on
  two idle cores, the install included; a fresh clone's tests took 390–425 s on 2026-12-04).
  A test's own `@settings(max_examples=N)` states its share.
* ci: loaded by Hypothesis itself when CI is set; the default's sizes, derandomized (the
  same examples every run), no example database, failures printed as a reproducible blob.
* deep: every property at full strength: DEEP_FACTOR times the examples it runs by default
  (its own `max_examples` too), plus the tests marked `@pytest.mark.deep`. One command:
  `pytest --hypothesis-profile=deep` (hours; for a nightly run or before a release).

Tests run in parallel (pytest-xdist, `-n auto --dist loadfile` in pyproject.toml): each test
file runs whole on one worker, so a module-scoped fixture is built once per run. (`--dist
loadgroup` with `xdist_group` marks would balance finer, but pytest-xdist 3.8 cannot group
under pytest 9: it renames `item._nodeid`, which pytest 9 no longer reads.) A result several
files need (a whole-suite run, a started engine build) is a session fixture built with
`computed_once`: the first worker computes it, the others read it from a file under the
run's shared temporary directory.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent
# The tests mirror the rooms (tests/rules, tests/conformance/judge, ...) and share pieces by
# module name: tests/support (tools: the CLI walker, doc pages, the browser), tests/miniatures
# (planted-fault engines and misreadings) and a few test modules whose fixtures others reuse.
# File names are unique across the tree (tests/house/test_layout.py holds that), so every
# folder can sit on the path and `from test_solver_bounds import SMALL` means one file.
for _folder in sorted({path.parent for path in TESTS.rglob("test_*.py")} | {TESTS}):
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))

DEFAULT_EXAMPLES = 30
"""Examples of a property that does not state its own count, in the default and ci runs
(such properties are cheap: the 3,000 tests' CPU is mostly suite runs and engines; 60 until
the test command had to fit in five minutes with its install, then 40 until the suite grew
past 3,000 tests)."""

DEEP_FACTOR = 40
"""The deep profile runs each property DEEP_FACTOR times the examples of the default run
(1,200 for a property without a count of its own, as when the default was 60 and this 20)."""

settings.register_profile("default", max_examples=DEFAULT_EXAMPLES, deadline=None)
settings.register_profile(
    "ci",
    settings.get_profile("default"),
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "deep",
    max_examples=DEFAULT_EXAMPLES * DEEP_FACTOR,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Re-registering the active profile (default, or ci under CI) reloads it with these sizes.


def _deep(config: pytest.Config) -> bool:
    return bool(config.getoption("hypothesis_profile", None) == "deep")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject.toml): one worker more than this process may use cores. About a
    tenth of the suite's time is spent waiting, not computing (engines' and schedulers'
    timeouts, processes starting, a silent listener): the extra worker computes meanwhile.
    Measured on 2 idle cores, the same tree: 2 workers 324 s, 3 workers 296 s."""
    return len(os.sched_getaffinity(0)) + 1


KERNEL_FREE = ("conformance", "house", "miniatures", "rules")
"""The folders of tests/ whose tests never call a numba kernel (the conformance room, the
reference and the layout import neither dekal.kernel nor the solver's kernels): they run
first, while the kernel compiles (`_kernel_compiled_once`), and do not wait for it."""


def _kernel_free(item: pytest.Item) -> bool:
    path = Path(item.path)
    return path.is_relative_to(TESTS) and path.relative_to(TESTS).parts[0] in KERNEL_FREE


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of KERNEL_FREE folders come first (a stable sort: each file's tests stay in
    order, and every xdist worker collects the same order); deep tests are skipped outside
    the deep profile; under it every property is made DEEP_FACTOR times stronger."""
    items.sort(key=lambda item: not _kernel_free(item))
    deep = _deep(config)
    skip = pytest.mark.skip(reason="deep profile only: pytest --hypothesis-profile=deep")
    strengthened: set[int] = set()
    for item in items:
        if "deep" in item.keywords and not deep:
            item.add_marker(skip)
        if deep:
            _strengthen(item, strengthened)


def _strengthen(item: pytest.Item, done: set[int]) -> None:
    """A property with its own max_examples runs DEEP_FACTOR times as many under deep (one
    without runs the deep profile's count already)."""
    test = getattr(item, "obj", None)
    if not getattr(test, "is_hypothesis_test", False) or id(test) in done:
        return
    done.add(id(test))
    # Hypothesis reads a @given test's settings from this attribute each time it runs.
    own: settings = test._hypothesis_internal_use_settings  # type: ignore[union-attr]
    deep_count = settings.get_profile("deep").max_examples
    if own.max_examples != deep_count:
        test._hypothesis_internal_use_settings = settings(  # type: ignore[union-attr]
            own, max_examples=own.max_examples * DEEP_FACTOR
        )


T = TypeVar("T")


def _once(shared: Path, name: str, compute: Callable[[], T]) -> T:
    """compute()'s JSON-able result, computed once in the directory `shared`: the first
    caller computes it under a file lock, every later caller reads the file it wrote."""
    path = shared / f"once-{name}.json"
    with open(f"{path}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if path.is_file():
            result: T = json.loads(path.read_text("utf-8"))
            return result
        value = compute()
        path.write_text(json.dumps(value), "utf-8")
        return value


@pytest.fixture(scope="session")
def computed_once(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, Callable[[], T]], T]:
    """`computed_once(name, compute)`: compute()'s JSON-able result, computed once per test
    run however many xdist workers ask for it (the run's shared temporary directory holds it).
    For work several modules need; within one module a module-scoped fixture is enough."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # each worker's basetemp is a folder of the run's
    return lambda name, compute: _once(shared, name, compute)


JS_ENGINE = Path(__file__).resolve().parent.parent / "examples" / "engines" / "js" / "engine.js"
DRAWN = frozenset({"token-right"})
"""The JS builds whose shared run also draws its HTML page (test_conformance_html's)."""
JS_WHOLE_RUNS = ("token-right", "take-leaks")
"""The broken JS builds run on the whole suite once (js_suite_run), read by the blame, HTML
and JS engine tests alike."""
JS_DEEP_WHOLE_RUNS = ("tie-more-cards", "eject-wrong-card")
"""Builds whose whole-suite blame run is deep-only, each because the default run blames
the same fault over the whole suite planted in the reference (test_conformance_blame):
tie-more-cards is "ties broken by more cards" (S3), eject-wrong-card is "eject push does
not shift the line" (P2; its named cases still run on the JS build by default)."""


@pytest.fixture(scope="session")
def js_suite_run(
    computed_once: Callable[[str, Callable[[], dict[str, object]]], dict[str, object]],
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str], dict[str, object]]:
    """`js_suite_run(bug)`: one `dekal conformance run --json --quiet` of the whole suite on
    the JS engine's build `--bug BUG`, once per test run (the HTML report's tests and the
    blame tests read the same run): {"code", "stdout", "stderr", "page"}. The build the HTML
    tests read (DRAWN) is run with `--html PAGE` too; the others' page is None (drawing a
    page costs about a second)."""
    import shlex
    import shutil

    from typer.testing import CliRunner

    from dekal.cli._app import app

    def run(bug: str) -> dict[str, object]:
        node = shutil.which("node") or "node"
        command = f"{shlex.quote(node)} {shlex.quote(str(JS_ENGINE))} --bug {bug}"
        page = tmp_path_factory.mktemp(f"js-{bug}") / "report.html"
        args = ["conformance", "run", "--engine", command, "--json", "--quiet"]
        done = CliRunner().invoke(app, [*args, "--html", str(page)] if bug in DRAWN else args)
        return {
            "code": done.exit_code,
            "stdout": done.stdout,
            "stderr": done.stderr,
            "page": page.read_text("utf-8") if page.is_file() else None,
        }

    return lambda bug: computed_once(f"js-suite-{bug}", lambda: run(bug))


@pytest.fixture(scope="session")
def every_verdict(
    computed_once: Callable[[str, Callable[[], dict[str, object]]], dict[str, object]],
) -> dict[str, object]:
    """One `dekal prove --json` over the whole catalogue (every obligation, ~3 s of Z3) per
    test run: {"code", "stdout"}. test_proofs reads it (every obligation proved),
    test_solver_cli too (the command's exit code and JSON contract)."""
    from typer.testing import CliRunner

    from dekal.cli._app import app

    def prove() -> dict[str, object]:
        result = CliRunner().invoke(app, ["prove", "--json"])
        return {"code": result.exit_code, "stdout": result.stdout}

    return computed_once("dekal-prove-json", prove)


def _cpu_seconds() -> float:
    mine, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With DEKAL_TEST_CPU=FILE, each test's CPU seconds (setup, call and teardown, with the
    processes it started and reaped) are appended to FILE as `seconds<TAB>test id<TAB>wall
    seconds`: wall times (--durations) mislead on a busy machine, CPU times do not; a test
    whose wall time is far above its CPU time waits (a timeout, a sleep, a child's start)."""
    record = os.environ.get("DEKAL_TEST_CPU")
    start, began = _cpu_seconds(), time.monotonic()
    try:
        return (yield)
    finally:
        if record:
            with open(record, "a", encoding="utf-8") as out:
                cpu, wall = _cpu_seconds() - start, time.monotonic() - began
                out.write(f"{cpu:.2f}\t{item.nodeid}\t{wall:.2f}\n")


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tests never write to the user's own cache: `dekal conformance fuzz` keeps its
    example database under $XDG_CACHE_HOME, which points into pytest's temporary tree here
    (and into the children the tests start, which inherit the environment)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


def _compile_the_kernel() -> bool:
    """Call each entry point of the compiled kernel once: numba compiles what it has not
    cached yet (21 s of CPU on a cold cache, measured idle, before the --unknown kernels were
    added) and writes it to its cache."""
    from dekal import kernel
    from dekal.proofs import search
    from dekal.proofs.puzzle import make_puzzle
    from dekal_ref import Rules
    from dekal_ref.deal import seeded_deal
    from dekal_ref.game import new_game
    from dekal_ref.notation import parse_grid

    rules = Rules(players=2)
    kernel.play_games(rules, [1], [0, 0])
    kernel.game_actions(rules, 1, [0, 0])
    kernel.rollouts([new_game(rules, seeded_deal(1, 2))], [0, 0], [1])
    puzzle = make_puzzle(parse_grid("1234/5678/9T12/3456"), incoming=(7, 8, 9), variant="eject")
    search.minimum(puzzle, timeout=60, compiled=True)
    # the --unknown solver's kernels (guaranteed, expected, perfect information), both pushes
    from dekal.proofs._unknown.perfect import perfect_information
    from dekal.proofs._unknown.position import make_unknown
    from dekal.proofs._unknown.search import solve

    for variant in ("slide", "eject"):
        position = make_unknown("T133/1?11/?231/2231", variant=variant)
        solve(position, compiled=True)
        perfect_information(position, compiled=True)
    return True


KERNEL_ONCE = "numba-kernel-compiled"


_KERNEL_READY: list[bool] = []
"""Set once this worker has seen the kernel compiled (`_kernel_compiled_once`)."""


@pytest.fixture(autouse=True)
def _kernel_compiled_once(
    request: pytest.FixtureRequest, computed_once: Callable[[str, Callable[[], bool]], bool]
) -> None:
    """On a cold numba cache (a fresh clone, a changed kernel source) every process that
    uses the kernel before its cache is written compiles it again: each xdist worker, and
    each `dekal` a test starts meanwhile. So under xdist it is compiled once: by the process
    the controller starts for it (below), or by the first worker to get there; every later
    process loads the cache (warm, this costs about 1.5 s once). A worker waits for it
    before its first test outside KERNEL_FREE: those tests run first, so the workers are
    not idle meanwhile (a fresh clone's compile is about 40 s of CPU)."""
    if _KERNEL_READY or _kernel_free(request.node):
        return
    if os.environ.get("PYTEST_XDIST_WORKER") and importlib.util.find_spec("numba") is not None:
        computed_once(KERNEL_ONCE, _compile_the_kernel)
    _KERNEL_READY.append(True)


_COMPILER = pytest.StashKey["subprocess.Popen[bytes]"]()


@pytest.hookimpl(trylast=True)  # after pytest's own configure has set up the temporary tree
def pytest_configure(config: pytest.Config) -> None:
    """Under xdist the controller starts the kernel's compilation in a process of its own
    before the workers start: it takes the lock of `_kernel_compiled_once` and compiles
    (about 20 s of CPU when cold) while the workers start and collect (about 9 s each),
    instead of after, with the workers waiting. (The run's bytecode is not redirected to a
    cache of its own: PYTHONPYCACHEPREFIX makes Python ignore the bytecode .ci/run compiles
    into the venv; a fresh clone's run took 366 s with it and 356 s without, no gain.)"""
    workers = getattr(config.option, "numprocesses", None)
    if os.environ.get("PYTEST_XDIST_WORKER") or not workers:
        return
    shared = config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]
    if importlib.util.find_spec("numba") is None:
        return
    script = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); import conftest;"
        f" conftest._once(Path(sys.argv[2]), {KERNEL_ONCE!r}, conftest._compile_the_kernel)"
    )
    tests = str(Path(__file__).resolve().parent)
    config.stash[_COMPILER] = subprocess.Popen(
        [sys.executable, "-c", script, tests, str(shared)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # a failure shows anyway: the first worker compiles again
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    """The compiling process is reaped, whether or not the run waited for it."""
    compiler = config.stash.get(_COMPILER, None)
    if compiler is not None:
        if compiler.poll() is None:
            compiler.kill()
        compiler.wait()
