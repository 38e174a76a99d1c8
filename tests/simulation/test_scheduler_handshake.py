"""A `--scheduler` that is not a working Dask scheduler is refused in bounded time
(dekal.simulation.runner; docs/simulate.md, "On a real cluster"): a port that accepts and
says nothing, a web server, a Dask scheduler with no worker. Each is a real listener on
127.0.0.1, closed (and every process reaped) when its test ends.
"""

from __future__ import annotations

import json
import math
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dekal.cli._app import app
from dekal.simulation import runner
from dekal.simulation.runner import ClusterUnavailable, run_chunks

DEKAL = str(Path(sys.executable).parent / "dekal")
JS_ENGINE = f"node {Path(__file__).resolve().parents[2] / 'examples/engines/js/engine.js'}"
ADVISE_VIEW = (
    "slide/lowest/single 1.15 take@1 1 TTT2/T338/T917/5.?4|3518/2688/7427/.?21 -,- 5T #68 - 0,0"
)
SLACK = 10.0  # seconds on top of the documented wait: a busy machine, Dask's imports


@pytest.fixture
def silent_listener() -> Iterator[str]:
    """A port that accepts every connection and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for connection in accepted:
            connection.close()
        server.close()


class Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"hello")

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def web_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture
def lonely_scheduler() -> Iterator[str]:
    """A real Dask scheduler (in this process) that no worker ever joins."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None
    ) as cluster:
        yield str(cluster.scheduler_address)


def refused_within(scheduler: str, seconds: float) -> str:
    began = time.monotonic()
    with pytest.raises(ClusterUnavailable) as refused:
        run_chunks(math.factorial, [3], scheduler=scheduler)
    assert time.monotonic() - began < seconds
    return str(refused.value)


def test_a_port_that_says_nothing_is_not_a_scheduler(
    silent_listener: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1.0)
    message = refused_within(silent_listener, 1.0 + SLACK)
    assert "did not answer as a Dask scheduler" in message and "\n" not in message


def test_a_web_server_is_not_a_scheduler(web_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1.0)
    assert "did not answer as a Dask scheduler" in refused_within(web_server, 1.0 + SLACK)


def test_a_scheduler_with_no_worker_is_refused_after_the_worker_wait(
    lonely_scheduler: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1.0)
    assert "has no worker" in refused_within(lonely_scheduler, 2.0 + SLACK)


def dekal(*args: str, limit: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [DEKAL, *args], capture_output=True, text=True, timeout=limit, check=False
    )


def test_simulate_at_a_silent_port_is_one_json_error_and_exit_2_in_time(
    silent_listener: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # in this process (typer's runner) and with a wait of 1 s instead of 10: the command's
    # answer is the point, not a process idling for 10 s (the deep variants below run one)
    monkeypatch.setattr(runner, "CONNECT_SECONDS", 1.0)
    began = time.monotonic()
    done = CliRunner().invoke(
        app, ["simulate", "--games", "10", "--scheduler", silent_listener, "--json"]
    )
    assert time.monotonic() - began < 1.0 + SLACK
    assert done.exit_code == 2 and isinstance(done.exception, SystemExit), done.output
    (line,) = done.stdout.splitlines()
    error = json.loads(line)["error"]
    assert error["field"] == "--scheduler" and "Dask scheduler" in error["message"]


@pytest.mark.deep
@pytest.mark.parametrize(
    "command",
    [
        ["advise", ADVISE_VIEW, "--seat", "1", "--bot", "random"],
        ["conformance", "fuzz", "--games", "4", "--engine", JS_ENGINE],
    ],
)
def test_advise_and_fuzz_at_a_web_server_exit_2_in_time(
    web_server: str, command: list[str]
) -> None:
    began = time.monotonic()
    done = dekal(*command, "--scheduler", web_server, limit=runner.CONNECT_SECONDS + 3 * SLACK)
    assert time.monotonic() - began < runner.CONNECT_SECONDS + 2 * SLACK
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0, done.stderr
    assert "Dask scheduler" in done.stderr
