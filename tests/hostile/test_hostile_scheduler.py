"""`--scheduler` at an address where something else listens (a web server): advise, simulate
and fuzz refuse it naming the option, exit 2, never a traceback; an empty address is refused,
not read as none."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator

import pytest
from support.hostile import BOUND, DEKAL, LAST_PUSH, assert_refused, dekal

# --- advise --scheduler: an address where something else listens -------------------------


@pytest.fixture
def not_a_scheduler() -> Iterator[str]:
    """A TCP server that answers like a web server: Dask reads its reply as a frame length."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def answer() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            with connection:
                connection.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    server.close()


@pytest.mark.parametrize("json_mode", [True, False], ids=["json", "text"])
def test_a_scheduler_address_where_no_dask_listens_is_refused_naming_it(
    not_a_scheduler: str, json_mode: bool
) -> None:
    done = subprocess.run(
        [DEKAL, "advise", LAST_PUSH, "--seat", "0", "--scheduler", not_a_scheduler,
         *["--json"] * json_mode],
        capture_output=True, text=True, timeout=BOUND, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    if json_mode:
        assert json.loads(done.stdout)["error"]["field"] == "--scheduler"
    else:
        assert done.stderr.count("\n") == 1 and "--scheduler" in done.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["simulate", "--players", "2", "--games", "10", "--seed", "0"],
        ["conformance", "fuzz", "--engine", "ref", "--games", "2", "--no-db"],
    ],
    ids=["simulate", "fuzz"],
)
def test_every_command_with_a_scheduler_refuses_an_address_where_no_dask_listens(
    not_a_scheduler: str, command: list[str]
) -> None:
    """In this process: advise's test above runs a real `dekal` process against the same
    server (what only a process shows: one line on stderr up to its very end)."""
    done = dekal(*command, "--scheduler", not_a_scheduler, "--json")
    assert_refused(done, json_mode=True)  # exit 2, no exception escaped
    assert json.loads(done.stdout)["error"]["field"] == "--scheduler", done.stdout


def test_an_empty_scheduler_is_refused_not_read_as_none() -> None:
    error = assert_refused(
        dekal("advise", LAST_PUSH, "--seat", "0", "--scheduler", "", "--json"), True
    )
    assert error["field"] == "--scheduler"
