"""An engine program driven over its standard input and output (spec/protocol.md).

SubprocessEngine starts the user's command line in its own session, writes one JSON request
per line and reads one reply per line, each with a deadline; dekal.conformance.drive._engine_link
checks the replies and the handshake, dekal.conformance.drive._process_group ends the engine.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
import threading
import time
import uuid
from typing import Any

from dekal.conformance.drive._engine_link import (
    DEFAULT_TIMEOUT,
    EngineError,
    EngineUnusable,
    check_reply,
    handshake,
)
from dekal.conformance.drive._engine_text import visible
from dekal.conformance.drive._process_group import ENGINE_MARK, exit_status, pauses, stop_group
from dekal.conformance.drive._protocol import Message
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import read_json
from dekal_ref.reading import shown

STDERR_TAIL_BYTES = 8192
"""How much of an engine's standard error is kept: its last 8 KiB, whatever it floods."""

STDERR_LINE_CHARS = 240
"""A kept stderr line longer than this is cut when shown."""

MAX_REPLY_BYTES = 16 * 1024 * 1024
"""A reply line longer than this is garbage (the longest real reply, a perft divide, is KBs)."""

QUIT_GRACE = 0.5
"""Seconds an engine gets to exit by itself after `quit` and the end of its input."""

POLL = 0.05
"""Seconds between two looks at whether the engine process is still alive."""


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

    max_reply_bytes = MAX_REPLY_BYTES
    """A reply line longer than this is garbage (a protocol with shorter replies lowers it)."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command
        self.label = command
        self.timeout = timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.pending = bytearray()  # stdout bytes not yet taken as a reply
        self.stderr_tail = bytearray()
        self.stderr_done = False  # its end of file was read
        self.selector: selectors.BaseSelector | None = None  # the running process's pipes
        self.next_id = 0
        self.info: Message = {}
        self.mark = ""  # ENGINE_MARK of the running process (process_group)
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
            self.info = self.greet()
        except EngineUnusable as error:
            self.close()  # reads what is left of its stderr too
            said = " | ".join(self.diagnostics().splitlines()[-3:])
            raise EngineUnusable(
                f"{error}; its stderr ends: {said}" if said else str(error)
            ) from None
        except BaseException:  # a Ctrl-C while it starts: nobody else holds the engine
            self.close()
            raise

    def greet(self) -> Message:
        """The handshake of a started process, its claims: here the engine protocol's `hello`
        (a driver of another protocol over the same transport, dekal.bots' bot link, says its
        own); EngineUnusable if it fails."""
        return handshake(self, self.timeout)

    def _spawn(self, args: list[str]) -> None:
        """Start the engine as `self.process`, with non-blocking pipes.

        Popen runs in a helper thread: a Ctrl-C (raised in the main thread only) while the
        engine is being started would otherwise leave a started engine that no one holds.
        Here the main thread waits for the helper before the Ctrl-C goes on to `start`,
        which closes the engine.
        """
        failed: list[OSError] = []
        mark = self.mark = uuid.uuid4().hex

        def spawn() -> None:
            try:
                process = subprocess.Popen(
                    args,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    start_new_session=True,
                    env={**os.environ, ENGINE_MARK: mark},  # inherited by all it starts
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
        selector = self._selector(stdout, stderr)
        # A request line fits in the pipe: written at once, without waiting for the
        # selector to say stdin is writable (the selector waits only for a full pipe).
        unsent = self._write(process, memoryview(data))
        if unsent:
            selector.register(stdin, selectors.EVENT_WRITE)
        try:
            while True:
                if not unsent and (line := self._take_line()) is not None:
                    return line
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                events = selector.select(min(remaining, POLL))
                for key, _ in events:
                    if key.fileobj is stdin:
                        unsent = self._write(process, unsent)
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
        finally:
            if unsent:
                selector.unregister(stdin)

    def _selector(self, stdout: Any, stderr: Any) -> selectors.BaseSelector:
        """The selector of the running process's output pipes, made once per process (a
        selector per request was most of the driver's cost): stdout, and stderr until its
        end of file."""
        if self.selector is None:
            self.selector = selectors.DefaultSelector()
            self.selector.register(stdout, selectors.EVENT_READ)
            if not self.stderr_done:
                self.selector.register(stderr, selectors.EVENT_READ)
        return self.selector

    def _write(self, process: subprocess.Popen[bytes], unsent: memoryview) -> memoryview:
        """Write what the pipe takes now of `unsent`; what is left."""
        assert process.stdin is not None
        try:
            return unsent[os.write(process.stdin.fileno(), unsent) :]
        except BlockingIOError:
            return unsent
        except OSError:  # a broken pipe: it closed its input or exited
            raise EngineError(self._gone(process, "closed its input")) from None

    def _read_stdout(self, fd: int) -> bool:
        """Append what stdout has to `pending`; False at end of file."""
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return True
        most = self.max_reply_bytes
        if len(self.pending) + len(chunk) > most and b"\n" not in chunk:
            raise EngineError(f"a reply line longer than {most} bytes")
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
        if self.selector is not None:
            self.selector.close()
            self.selector = None
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
        stop_group(process, mark=self.mark)
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
        text = visible(bytes(self.stderr_tail).decode("utf-8", errors="replace"))
        lines = [shown_line(line.rstrip()) for line in text.splitlines() if line.strip()]
        return "\n".join(lines[-20:])
