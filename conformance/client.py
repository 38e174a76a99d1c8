"""Driving an engine over the protocol: as a subprocess, or in-process (spec/protocol.md).

Both drivers send one request and wait for one reply with a deadline. Anything that is not a
well-formed reply — the process died, said nothing in time, printed something that is not a
JSON object, echoed the wrong id, or (in-process) raised — is an EngineError: the runner
marks the case errored, calls `restart()` and goes on.

This module gathers the pieces under one name: what a driven engine is and how replies and
the handshake are checked (engine_link), the subprocess driver (subprocess_engine) and its
process-group handling (process_group), the in-process driver and the loading of a Python
factory (inprocess_engine), and our own engines driven in the caller's thread (direct_engine).
"""

from __future__ import annotations

from dekal.conformance.direct_engine import DirectEngine, bundled_engine
from dekal.conformance.engine_link import (
    DEFAULT_TIMEOUT,
    STARTUP_TIMEOUT,
    Engine,
    EngineError,
    EngineUnusable,
    check_reply,
    handshake,
    hello_problem,
)
from dekal.conformance.inprocess_engine import (
    HUNG_WORKERS_LIMIT,
    STOP_GRACE,
    Handler,
    InProcessEngine,
    import_within,
    interrupt_thread,
    load_factory,
)
from dekal.conformance.process_group import (
    TERM_GRACE,
    exit_status,
    group_alive,
    pauses,
    stop_group,
)
from dekal.conformance.subprocess_engine import (
    MAX_REPLY_BYTES,
    POLL,
    QUIT_GRACE,
    STDERR_LINE_CHARS,
    STDERR_TAIL_BYTES,
    SubprocessEngine,
    shown_line,
)

__all__ = [
    "DEFAULT_TIMEOUT", "HUNG_WORKERS_LIMIT", "MAX_REPLY_BYTES", "POLL", "QUIT_GRACE",
    "STARTUP_TIMEOUT", "STDERR_LINE_CHARS", "STDERR_TAIL_BYTES", "STOP_GRACE", "TERM_GRACE",
    "DirectEngine", "Engine", "EngineError", "EngineUnusable", "Handler", "InProcessEngine",
    "SubprocessEngine",
    "bundled_engine", "check_reply", "exit_status", "group_alive", "handshake",
    "hello_problem", "import_within", "interrupt_thread", "load_factory", "pauses",
    "shown_line", "stop_group",
]  # fmt: skip
