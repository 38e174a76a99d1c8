"""Driving an engine over the protocol: as a subprocess, or in-process (spec/protocol.md).

Both drivers send one request and wait for one reply with a deadline. Anything that is not a
well-formed reply — the process died, said nothing in time, printed something that is not a
JSON object, echoed the wrong id, or (in-process) raised — is an EngineError: the runner
marks the case errored, calls `restart()` and goes on.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import json
import os
import queue
import selectors
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any, Protocol

from dekal.conformance import PROTOCOL_VERSION
from dekal.conformance.adapter import ProtocolAdapter
from dekal.conformance.protocol import Message
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import read_json
from dekal_ref.reading import shown

DEFAULT_TIMEOUT = 10.0


class EngineError(Exception):
    """The engine crashed, hung, or broke the protocol's framing."""


class EngineUnusable(Exception):
    """The engine cannot be started or does not complete the handshake (exit code 3)."""


class Engine(Protocol):
    """What the runner needs from a driven engine."""

    label: str
    info: Message

    def request(self, message: Message, timeout: float) -> Message: ...
    def restart(self) -> None: ...
    def close(self) -> None: ...


def check_reply(reply: object, expected_id: int) -> Message:
    """A reply must be a JSON object echoing the id with a boolean `ok`."""
    if not isinstance(reply, dict):
        raise EngineError(f"the reply is not a JSON object: {str(reply)[:120]!r}")
    if reply.get("id") != expected_id:
        raise EngineError(f"the reply echoes id {reply.get('id')!r}, expected {expected_id}")
    if not isinstance(reply.get("ok"), bool):
        raise EngineError("the reply has no boolean 'ok'")
    if not reply["ok"]:
        error = reply.get("error")
        if not isinstance(error, dict) or not isinstance(error.get("kind"), str):
            raise EngineError("a refusing reply needs an 'error' object with a 'kind'")
    return reply


STARTUP_TIMEOUT = 15.0
"""Seconds an engine gets to answer hello: start-up (an interpreter, a JVM) is not a case."""


def handshake(engine: Engine, timeout: float) -> Message:
    """Send hello; EngineUnusable if the engine cannot answer it or speaks another protocol."""
    try:
        reply = engine.request(
            {"cmd": "hello", "protocol": PROTOCOL_VERSION}, max(timeout, STARTUP_TIMEOUT)
        )
    except EngineError as error:
        raise EngineUnusable(f"no answer to hello: {error}") from None
    if not reply.get("ok"):
        raise EngineUnusable(f"hello refused: {reply.get('error')}")
    if reply.get("protocol") != PROTOCOL_VERSION:
        raise EngineUnusable(
            f"the engine speaks protocol {reply.get('protocol')!r}; "
            f"this runner speaks {PROTOCOL_VERSION}"
        )
    info = {key: value for key, value in reply.items() if key not in ("id", "ok")}
    problem = hello_problem(info)
    if problem:
        raise EngineUnusable(f"hello: {problem} (see spec/protocol.md, 'hello')")
    return info


def hello_problem(info: Message) -> str | None:
    """What is wrong with a hello reply's claims, if anything."""
    players, variants, features = (
        info.get("players"),
        info.get("variants"),
        info.get("features", []),
    )
    if not isinstance(players, list) or not all(isinstance(p, int) for p in players):
        return "'players' must be a list of numbers"
    if not isinstance(variants, dict):
        return "'variants' must be an object with 'push' and 'first' lists"
    for name in ("push", "first"):
        listed = variants.get(name)
        if not isinstance(listed, list) or not all(isinstance(v, str) for v in listed):
            return f"'variants.{name}' must be a list of names"
    if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
        return "'features' must be a list of names"
    return None


STDERR_TAIL_BYTES = 8192
"""How much of an engine's standard error is kept: its last 8 KiB, whatever it floods."""

STDERR_LINE_CHARS = 240
"""A kept stderr line longer than this is cut when shown."""

MAX_REPLY_BYTES = 16 * 1024 * 1024
"""A reply line longer than this is garbage (the longest real reply, a perft divide, is KBs)."""

QUIT_GRACE = 0.5
"""Seconds an engine gets to exit by itself after `quit` and the end of its input."""

TERM_GRACE = 1.0
"""Seconds an engine's process group gets after SIGTERM, before SIGKILL."""

POLL = 0.05
"""Seconds between two looks at whether the engine process is still alive."""


def exit_status(process: subprocess.Popen[bytes]) -> int | None:
    """The exit status of a finished engine (negative: killed by that signal), None while it
    runs. The process is not reaped, so its id — its process group's id — cannot be reused
    before `stop_group` has signalled the group."""
    if process.returncode is not None:
        return process.returncode
    try:
        found = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return process.poll()
    if found is None:
        return None
    return found.si_status if found.si_code == os.CLD_EXITED else -found.si_status


def group_alive(group: int) -> bool:
    """Does any process of this group still run? Zombies (dead, not yet reaped by whoever
    inherited them) do not count."""
    proc = "/proc"
    if not os.path.isdir(proc):
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    for name in os.listdir(proc):
        if not name.isdigit():
            continue
        try:
            with open(f"{proc}/{name}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:
            continue
        # after the command's closing parenthesis: state, parent id, process group id
        if len(fields) > 2 and fields[2] == str(group).encode() and fields[0] != b"Z":
            return True
    return False


def pauses(longest: float = 0.02) -> Iterator[float]:
    """Waits between two looks at a process: short at first (an engine told to quit is
    usually gone within a millisecond or two), then longer."""
    pause = 0.001
    while True:
        yield pause
        pause = min(2 * pause, longest)


def stop_group(process: subprocess.Popen[bytes], grace: float = TERM_GRACE) -> None:
    """End an engine and every process it started (they share its session and group):
    SIGTERM to the group, SIGKILL to whatever is left after `grace` seconds; reap the engine.
    """
    group = process.pid  # start_new_session: the engine leads its own group
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGTERM)
    end = time.monotonic() + grace
    for pause in pauses():
        if process.poll() is not None and not group_alive(group):
            return
        if time.monotonic() > end:
            break
        time.sleep(pause)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def shown_line(line: str) -> str:
    """A stderr line as shown: at most STDERR_LINE_CHARS characters, then how many more."""
    if len(line) <= STDERR_LINE_CHARS:
        return line
    return f"{line[:STDERR_LINE_CHARS]}… ({len(line) - STDERR_LINE_CHARS} more characters)"


class SubprocessEngine:
    """An engine program started from a command line, spoken to over its stdin/stdout.

    The engine runs in its own session, so it and every process it starts form one process
    group: `close()` ends the whole group (SIGTERM, then SIGKILL) and reaps the engine, and a
    Ctrl-C in the terminal reaches `dekal`, which then closes the engine, not the engine
    itself. The pipes are non-blocking and read only by the calling thread (a selector with
    the request's deadline): no reader thread, so nothing can block on a stream another
    thread holds, and a child that inherits the pipes and lingers cannot hang a request:
    the engine's own exit is watched too. Standard error is kept as its last
    `STDERR_TAIL_BYTES` bytes and shown when a case errs or the handshake fails.
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command
        self.label = command
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.pending = bytearray()  # stdout bytes not yet taken as a reply
        self.stderr_tail = bytearray()
        self.stderr_done = False  # its end of file was read
        self.next_id = 0
        self.info: Message = {}
        self.start()

    def __enter__(self) -> SubprocessEngine:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def start(self) -> None:
        try:
            args = shlex.split(self.command)
            if not args:
                raise ValueError("the command is empty")
        except ValueError as error:
            raise EngineUnusable(f"cannot start {self.command!r}: {error}") from None
        self.pending = bytearray()
        self.stderr_tail = bytearray()
        self.stderr_done = False
        try:
            self._spawn(args)
            self.info = handshake(self, self.timeout)
        except EngineUnusable as error:
            self.close()  # reads what is left of its stderr too
            said = " | ".join(self.diagnostics().splitlines()[-3:])
            raise EngineUnusable(
                f"{error}; its stderr ends: {said}" if said else str(error)
            ) from None
        except BaseException:  # a Ctrl-C while it starts: nobody else holds the engine
            self.close()
            raise

    def _spawn(self, args: list[str]) -> None:
        """Start the engine as `self.process`, with non-blocking pipes.

        Popen runs in a helper thread: a Ctrl-C (raised in the main thread only) while the
        engine is being started would otherwise leave a started engine that no one holds.
        Here the main thread waits for the helper before the Ctrl-C goes on to `start`,
        which closes the engine.
        """
        failed: list[OSError] = []

        def spawn() -> None:
            try:
                process = subprocess.Popen(
                    args,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    start_new_session=True,
                )
            except OSError as error:
                failed.append(error)
                return
            for stream in (process.stdin, process.stdout, process.stderr):
                assert stream is not None
                os.set_blocking(stream.fileno(), False)
            self.process = process

        helper = threading.Thread(target=spawn, name="engine start", daemon=True)
        helper.start()
        try:
            helper.join()
        finally:
            helper.join()
        if failed:
            raise EngineUnusable(f"cannot start {self.command!r}: {failed[0]}")

    def request(self, message: Message, timeout: float) -> Message:
        process = self.process
        if process is None:
            raise EngineError("the engine is not running")
        self.next_id += 1
        message = {"id": self.next_id, **message}
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        line = self._exchange(process, data, time.monotonic() + timeout)
        if line is None:
            raise EngineError(f"no reply within {timeout:.1f} s to {message['cmd']!r}")
        text = line.decode("utf-8", errors="replace").strip()
        try:
            reply = read_json(text, "reply")
        except NotationError as error:  # not JSON, too deep, NaN: never a crash of the judge
            garbage = shown(text.strip())
            raise EngineError(f"garbage on stdout: {garbage} ({error.message})") from None
        return check_reply(reply, self.next_id)

    def _exchange(
        self, process: subprocess.Popen[bytes], data: bytes, deadline: float
    ) -> bytes | None:
        """Write `data`, then read until a non-empty stdout line, all before `deadline`
        (None when it passes); EngineError when the engine exits or closes its stdout."""
        stdin, stdout, stderr = process.stdin, process.stdout, process.stderr
        assert stdin is not None and stdout is not None and stderr is not None
        unsent = memoryview(data)
        with selectors.DefaultSelector() as selector:
            selector.register(stdin, selectors.EVENT_WRITE)
            selector.register(stdout, selectors.EVENT_READ)
            if not self.stderr_done:
                selector.register(stderr, selectors.EVENT_READ)
            while True:
                if not unsent and (line := self._take_line()) is not None:
                    return line
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                events = selector.select(min(remaining, POLL))
                for key, _ in events:
                    if key.fileobj is stdin:
                        try:
                            unsent = unsent[os.write(stdin.fileno(), unsent) :]
                        except BlockingIOError:
                            continue
                        except OSError:  # a broken pipe: it closed its input or exited
                            raise EngineError(self._gone(process, "closed its input")) from None
                        if not unsent:
                            selector.unregister(stdin)
                    elif key.fileobj is stdout:
                        if not self._read_stdout(stdout.fileno()):
                            if not unsent and self.pending.strip():
                                return self._take_rest()
                            raise EngineError(self._gone(process, "closed its stdout"))
                    elif not self._read_stderr(stderr.fileno()):
                        selector.unregister(stderr)
                if not events and exit_status(process) is not None:
                    # nothing more to read and the engine is gone (a child that inherited
                    # the pipes may keep them open: its silence is not the engine's answer)
                    raise EngineError(self._gone(process, "exited"))

    def _read_stdout(self, fd: int) -> bool:
        """Append what stdout has to `pending`; False at end of file."""
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return True
        if len(self.pending) + len(chunk) > MAX_REPLY_BYTES and b"\n" not in chunk:
            raise EngineError(f"a reply line longer than {MAX_REPLY_BYTES} bytes")
        self.pending += chunk
        return bool(chunk)

    def _read_stderr(self, fd: int) -> bool:
        """Keep the last STDERR_TAIL_BYTES of stderr; False at end of file."""
        with contextlib.suppress(BlockingIOError):
            self._keep_stderr(os.read(fd, 1 << 16))
        return not self.stderr_done

    def _keep_stderr(self, chunk: bytes) -> None:
        if not chunk:
            self.stderr_done = True
        self.stderr_tail += chunk[-STDERR_TAIL_BYTES:]
        del self.stderr_tail[:-STDERR_TAIL_BYTES]

    def _take_line(self) -> bytes | None:
        """The first non-empty complete line of `pending`, removed from it."""
        while (end := self.pending.find(b"\n")) >= 0:
            line = bytes(self.pending[:end])
            del self.pending[: end + 1]
            if line.strip():
                return line
        return None

    def _take_rest(self) -> bytes:
        rest = bytes(self.pending)
        self.pending.clear()
        return rest

    def _gone(self, process: subprocess.Popen[bytes], what: str) -> str:
        """Why the engine cannot answer, with its exit status once it has one."""
        end = time.monotonic() + 0.2  # let the exit status settle for the message
        while (status := exit_status(process)) is None and time.monotonic() < end:
            time.sleep(0.01)
        if status is None:
            return f"the engine {what}"
        return f"the engine exited (status {status})"

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        """Say quit, give the engine QUIT_GRACE seconds, then end its whole process group."""
        process, self.process = self.process, None
        if process is None:
            return
        stdin, stdout, stderr = process.stdin, process.stdout, process.stderr
        assert stdin is not None and stdout is not None and stderr is not None
        with contextlib.suppress(OSError, ValueError):
            os.write(stdin.fileno(), json.dumps({"id": 0, "cmd": "quit"}).encode() + b"\n")
        with contextlib.suppress(OSError, ValueError):
            stdin.close()
        end = time.monotonic() + QUIT_GRACE
        for pause in pauses():
            if exit_status(process) is not None or time.monotonic() > end:
                break
            self._drain(stdout.fileno(), stderr)  # an engine blocked on a full pipe can exit
            time.sleep(pause)
        stop_group(process)
        self._drain(stdout.fileno(), stderr)
        for stream in (stdout, stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _drain(self, stdout_fd: int, stderr: Any) -> None:
        """Read whatever both pipes hold now, without waiting; stdout is discarded."""
        with contextlib.suppress(OSError):
            while os.read(stdout_fd, 1 << 16):
                pass
        with contextlib.suppress(OSError, ValueError):
            while not self.stderr_done:
                self._keep_stderr(os.read(stderr.fileno(), 1 << 16))

    def diagnostics(self) -> str:
        """The last lines of the engine's stderr (within its last 8 KiB), long lines cut."""
        text = bytes(self.stderr_tail).decode("utf-8", errors="replace")
        lines = [shown_line(line.rstrip()) for line in text.splitlines() if line.strip()]
        return "\n".join(lines[-20:])


Handler = Callable[[Message], Message]

HUNG_WORKERS_LIMIT = 16
"""Timed-out in-process calls still running (they could not be stopped) at which the engine
is declared unusable, so that a run does not pile up threads without end."""

STOP_GRACE = 0.5
"""Seconds a timed-out in-process call gets to stop once told to."""


class _Stopped(BaseException):
    """Raised inside a timed-out in-process call to end its worker thread."""


def interrupt_thread(thread: threading.Thread) -> None:
    """Ask a thread to raise _Stopped at its next Python instruction (CPython's documented
    PyThreadState_SetAsyncExc: the only way to stop a thread from outside it)."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(thread.ident), ctypes.py_object(_Stopped)
        )


class InProcessEngine:
    """A Python engine called in-process: an object with handle(request) -> reply, or a game
    API like dekal_ref's (wrapped in a ProtocolAdapter).

    The factory and the handler run in one worker thread, so a hang becomes a timeout.
    Requests and replies go through JSON, as they would over a pipe. When a call times out,
    `close()` (called by `restart()`) raises _Stopped inside the worker: a handler looping in
    Python code stops there. What Python cannot stop is a call blocked inside C code (a long
    `time.sleep`, a lock, a C extension's loop): that worker is left behind as a daemon thread
    (it dies with the process, or ends when the call returns), and while HUNG_WORKERS_LIMIT of
    them still run the engine cannot be restarted (EngineUnusable).
    """

    def __init__(
        self, factory: Callable[[], Any], label: str, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        self.factory = factory
        self.label = label
        self.timeout = timeout
        self.next_id = 0
        self.info: Message = {}
        self.hung: list[threading.Thread] = []  # timed-out workers that could not be stopped
        self.worker: threading.Thread | None = None
        self.requests: queue.Queue[str | None] = queue.Queue()
        self.replies: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.start()

    def __enter__(self) -> InProcessEngine:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def start(self) -> None:
        self.hung = [worker for worker in self.hung if worker.is_alive()]
        if len(self.hung) >= HUNG_WORKERS_LIMIT:
            raise EngineUnusable(
                f"{len(self.hung)} timed-out calls still run in code Python cannot interrupt "
                "(a sleep, a lock, C code)"
            )
        self.requests, self.replies = queue.Queue(), queue.Queue()
        self.worker = threading.Thread(
            target=self._work,
            args=(self.factory, self.label, self.requests, self.replies),
            name=f"engine {self.label}",
            daemon=True,
        )
        self.worker.start()
        try:
            tag, value = self.replies.get(timeout=max(self.timeout, STARTUP_TIMEOUT))
        except queue.Empty:
            self.close()
            raise EngineUnusable(
                f"the factory did not return within {max(self.timeout, STARTUP_TIMEOUT):g} s"
            ) from None
        if tag == "crash":
            raise EngineUnusable(f"the factory failed: {type(value).__name__}: {value}")
        try:
            self.info = handshake(self, self.timeout)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _work(
        factory: Callable[[], Any],
        label: str,
        requests: queue.Queue[str | None],
        replies: queue.Queue[tuple[str, Any]],
    ) -> None:
        try:
            try:
                made = factory()
                handler: Handler = (
                    made.handle
                    if hasattr(made, "handle")
                    else ProtocolAdapter(made, name=label).handle
                )
            except Exception as error:  # the user's factory: any failure means unusable
                replies.put(("crash", error))
                return
            replies.put(("ready", None))
            while (line := requests.get()) is not None:
                try:
                    reply = handler(json.loads(line))
                    replies.put(("reply", json.dumps(reply)))
                except _Stopped:
                    raise
                except BaseException as error:  # noqa: BLE001 - an engine crash is a case error
                    replies.put(("crash", error))
        except _Stopped:
            return

    def request(self, message: Message, timeout: float) -> Message:
        self.next_id += 1
        message = {"id": self.next_id, **message}
        self.requests.put(json.dumps(message))
        try:
            tag, value = self.replies.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"no reply within {timeout:.1f} s to {message['cmd']!r}") from None
        if tag == "crash":
            raise EngineError(f"the engine raised {type(value).__name__}: {value}")
        return check_reply(json.loads(value), self.next_id)

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        """End the worker: at once when it is idle; a busy (timed-out) one is interrupted."""
        worker, self.worker = self.worker, None
        if worker is None:
            return
        self.requests.put(None)
        worker.join(0.05)
        if worker.is_alive():
            interrupt_thread(worker)
            worker.join(STOP_GRACE)
        if worker.is_alive():
            self.hung.append(worker)

    def diagnostics(self) -> str:
        running = sum(worker.is_alive() for worker in self.hung)
        return f"{running} timed-out call(s) could not be stopped and still run" if running else ""


def import_within(name: str, seconds: float) -> ModuleType:
    """Import a user's module in a helper thread, so that one looping at import is stopped
    (as a timed-out in-process call is) instead of hanging the command."""
    outcome: list[ModuleType | BaseException] = []

    def load() -> None:
        try:
            outcome.append(importlib.import_module(name))
        except BaseException as error:  # noqa: BLE001 - handed to the caller below
            outcome.append(error)

    helper = threading.Thread(target=load, name=f"import {name}", daemon=True)
    helper.start()
    helper.join(seconds)
    if helper.is_alive():
        interrupt_thread(helper)
        raise ValueError(f"importing {name} did not finish within {seconds:g} s")
    (loaded,) = outcome
    if isinstance(loaded, BaseException):
        raise loaded
    return loaded


def load_factory(spec: str) -> Callable[[], Any]:
    """`MODULE:FACTORY` -> the factory. Python implementations are judged in-process with it.

    Every way the module can fail to provide one (not found, a syntax error, an exception
    while importing, an import that does not finish within STARTUP_TIMEOUT, no such
    callable) is a ValueError with a one-line message naming it.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"{spec!r}: write MODULE:FACTORY, like mypackage.engine:make_engine")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` would: the user's modules first
    try:
        module = import_within(module_name, STARTUP_TIMEOUT)
    except SyntaxError as error:
        where = f"{os.path.basename(error.filename or module_name)}, line {error.lineno}"
        raise ValueError(f"{module_name} does not compile: {error.msg} ({where})") from None
    except ModuleNotFoundError as error:
        raise ValueError(f"cannot import {module_name}: {error}") from None
    except (Exception, SystemExit) as error:  # the user's module: whatever it raises
        said = " ".join(str(error).split())[:200]
        raise ValueError(
            f"importing {module_name} raised {type(error).__name__}" + (f": {said}" if said else "")
        ) from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"{module_name} has no callable {attribute!r}")
    return factory  # type: ignore[no-any-return]


def bundled_engine(name: str, timeout: float = DEFAULT_TIMEOUT) -> InProcessEngine:
    """One of our own engines, `ref` or `fast`, judged in-process."""
    from dekal.conformance.serve import bundled_adapter

    return InProcessEngine(lambda: bundled_adapter(name), f"dekal-{name}", timeout)
