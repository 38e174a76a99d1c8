"""dekal.simulation.runner.run_chunks (docs/contracts.md, Runner): the results of a chunked run, in
chunk order, are the same in this process and on a local Dask cluster; a task's error comes
back as itself; a cluster that cannot be reached is an error within a bounded time. And
dekal.simulation._reaper: a process group guarded by a process ends when that process dies."""

from __future__ import annotations

import contextlib
import math
import os
import socket
import subprocess
import sys
import time
from functools import partial

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal.draws import game_seed
from dekal.simulation import runner
from dekal.simulation._reaper import guarded
from dekal.simulation.runner import ClusterUnavailable, run_chunks

SEEDS_OF_RUN_7 = partial(game_seed, 7)  # a top-level function: it travels to worker processes


def test_in_process_the_results_come_in_chunk_order() -> None:
    assert run_chunks(SEEDS_OF_RUN_7, range(20)) == [game_seed(7, i) for i in range(20)]


def test_progress_is_told_after_each_chunk() -> None:
    told: list[tuple[int, int]] = []
    run_chunks(math.factorial, [3, 4, 5], progress=lambda done, total: told.append((done, total)))
    assert told == [(1, 3), (2, 3), (3, 3)]


def test_a_task_s_error_is_raised_as_itself() -> None:
    with pytest.raises(ValueError, match="factorial"):
        run_chunks(math.factorial, [3, -1, 5])


@pytest.mark.parametrize("workers", [0, runner.MAX_WORKERS + 1])
def test_the_number_of_workers_is_bounded(workers: int) -> None:
    with pytest.raises(ValueError, match="workers"):
        run_chunks(math.factorial, [3], workers=workers)


def test_a_local_cluster_of_two_workers_gives_the_in_process_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner, "MOST_TASKS", 7)  # 40 chunks travel in 7 parcels
    told: list[int] = []
    on_cluster = run_chunks(
        SEEDS_OF_RUN_7, range(40), workers=2, progress=lambda done, total: told.append(done)
    )
    assert on_cluster == run_chunks(SEEDS_OF_RUN_7, range(40))
    assert len(told) == 7 and told == sorted(told) and told[-1] == 40


@given(st.lists(st.integers()), st.integers(1, 50))
def test_parcels_cut_the_chunks_in_order_into_at_most_so_many_even_runs(
    chunks: list[int], most: int
) -> None:
    parcels = runner._parcels(chunks, most)
    assert [chunk for parcel in parcels for chunk in parcel] == chunks
    assert len(parcels) == min(len(chunks), most)
    assert max(map(len, parcels), default=0) - min(map(len, parcels), default=0) <= 1


def test_a_task_s_error_on_a_cluster_is_raised_here_as_itself() -> None:
    with pytest.raises(ValueError, match="factorial"):
        run_chunks(math.factorial, [3, -1, 5], workers=2)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens there once the probe is closed


def test_an_unreachable_scheduler_is_an_error_within_the_connect_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1.0)
    began = time.monotonic()
    with pytest.raises(ClusterUnavailable, match="cannot reach the scheduler"):
        run_chunks(math.factorial, [3], scheduler=f"tcp://127.0.0.1:{closed_port()}")
    assert time.monotonic() - began < 10  # bounded: CONNECT_SECONDS and some slack


# --- dekal.simulation._reaper: a process group that ends with its guard ----------------------

GUARD_THEN_DIE = """
import os, subprocess, sys
from dekal.simulation._reaper import guarded
lingering = subprocess.Popen(["sleep", "300"], start_new_session=True)
print(lingering.pid, flush=True)
with guarded(lingering.pid):
    os.kill(os.getpid(), 9)  # killed mid-block: no finally, no atexit
"""


def group_gone_within(group: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_guarded_group_ends_when_its_guard_is_killed() -> None:
    guard = subprocess.run(
        [sys.executable, "-c", GUARD_THEN_DIE], capture_output=True, text=True, check=False
    )
    assert guard.returncode == -9
    group = int(guard.stdout)
    try:
        assert group_gone_within(group, 10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, 9)


def test_a_guarded_group_ends_with_the_block() -> None:
    lingering = subprocess.Popen(["sleep", "300"], start_new_session=True)
    try:
        with guarded(lingering.pid):
            pass
        assert lingering.wait(timeout=10) == -15  # SIGTERM first
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(lingering.pid, 9)
        lingering.wait()
