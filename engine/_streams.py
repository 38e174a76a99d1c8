"""Standard streams that never make a program fall over: closed, full, broken, or ASCII-only.

`install()` is the first thing the `dekal` command and `python -m dekal.conformance.serve`
do. After it, every byte either writes goes through `SafeOutput` (issue 29):

* a stream that was closed when the program started (`>&-`, `<&-`) is reopened on
  /dev/null, so that no file the program opens takes its number (a record written to
  descriptor 1 would be printed, and the report written into the record); the first read
  or write of it raises `StreamLost` naming it;
* a write that fails (a reader gone: EPIPE; a full disk: ENOSPC; a size limit: EFBIG; EIO)
  raises `StreamLost` once, in the main thread, and every later byte is dropped: the
  program's unwinding, its last words and the interpreter's final flush cannot fail again;
  the caller turns it into its exit code (`lost_exit`);
* text the stream's encoding cannot hold (an ASCII locale, `PYTHONIOENCODING=ascii`, a lone
  surrogate anywhere) is written as the nearest ASCII (`·` as `.`, `é` as `e`, `–` as `-`),
  else `?`, never an exception; `encodes(text)` tells a JSON writer to escape instead.

Standard error never raises: where it is gone too, its lines are dropped.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import select
import sys
import threading
import unicodedata
from typing import Any

EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: the reader went away (`dekal replay GAME | head`), said by nobody."""
EXIT_NOT_WRITTEN = 2
"""A standard stream that cannot be used (closed, full, over a size limit): one line on
standard error, as any other input of the command that is unusable (docs/guide.md)."""

ERRORS = "dekal-nearest"
"""The codec error handler of the streams: the nearest character the encoding holds."""

_NEAREST = {
    "\u00b7": ".", "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",
    "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "...",
    "\u00d7": "x", "\u2192": "->", "\u2190": "<-", "\u2264": "<=", "\u2265": ">=",
    "\u2260": "!=", "\u2248": "~", "\u00b1": "+/-", "\u2022": "*", "\u00a0": " ",
    "\u2500": "-", "\u2502": "|", "\u2588": "#", "\u2591": ".", "\u2713": "v", "\u2717": "x",
    "\u00ab": '"', "\u00bb": '"', "\u00b0": " deg", "\u2030": " per mille",
}  # fmt: skip
"""Characters with no decomposition to ASCII that the commands' text uses."""


def nearest(char: str, encoding: str) -> str:
    """`char` as the nearest text `encoding` holds: itself, its decomposition's base
    characters, a look-alike (_NEAREST), U+FFFD for a lone surrogate where it fits, else `?`."""
    if 0xD800 <= ord(char) <= 0xDFFF:
        candidates = ["\ufffd"]
    else:
        parts = unicodedata.normalize("NFKD", char)
        base = "".join(c for c in parts if not unicodedata.combining(c))
        candidates = [char, base, _NEAREST.get(char, "")]
    for candidate in candidates:
        if candidate and _fits(candidate, encoding):
            return candidate
    return "?"


def _fits(text: str, encoding: str) -> bool:
    try:
        text.encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def _handler(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    piece = error.object[error.start : error.end]
    return "".join(nearest(char, error.encoding) for char in piece), error.end


codecs.register_error(ERRORS, _handler)


class StreamLost(BaseException):
    """A standard stream can no longer be used. A BaseException, so that no `except
    Exception` on the way up swallows it: it unwinds like a Ctrl-C, closing engines and
    clusters, up to the program's entry point, which exits with `lost_exit(it)`."""

    def __init__(self, name: str, number: int, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.errno = number
        self.reason = reason

    @property
    def message(self) -> str:
        return f"cannot use {self.name}: {self.reason}"


def lost_exit(lost: StreamLost) -> int:
    """The exit code of a program whose stream was lost, after saying so on standard error
    (nothing is said when the reader went away: that is no error, as `yes | head`)."""
    if lost.errno == errno.EPIPE:
        return EXIT_BROKEN_PIPE
    say(f"error: {lost.message}")
    return EXIT_NOT_WRITTEN


def say(line: str) -> None:
    """One line on standard error, if it can still be written (never raises)."""
    stream = sys.stderr
    try:
        if stream is not None:
            stream.write(line + "\n")
            stream.flush()
    except (OSError, ValueError, StreamLost):
        pass


def _reason(number: int) -> str:
    return "it is closed" if number == errno.EBADF else os.strerror(number)


class SafeOutput(io.TextIOBase):
    """A text stream on a file descriptor that follows the module docstring's rules."""

    def __init__(
        self, fd: int, name: str, encoding: str, *, raises: bool, closed_at_start: bool = False
    ) -> None:
        super().__init__()
        self._fd = fd
        self._name = name
        self._encoding = encoding
        self._raises = raises
        self._pending: list[str] = []
        self._size = 0
        self._lock = threading.RLock()
        self._lost: int | None = errno.EBADF if closed_at_start else None
        self._said = not closed_at_start  # a stream closed at start has not said so yet
        self._terminal = not closed_at_start and os.isatty(fd)

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._encoding

    @property
    def errors(self) -> str:  # type: ignore[override]
        return ERRORS

    @property
    def name(self) -> str:
        return self._name

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return self._terminal

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # click tells a text stream by this TypeError
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        with self._lock:
            if self._lost is not None:
                self._raise_once()
                return len(text)
            self._pending.append(text)
            self._size += len(text)
            if self._size > 1 << 16 or (
                "\n" in text and (self._terminal or self._name == "standard error")
            ):
                self.flush()
        return len(text)

    def flush(self) -> None:
        with self._lock:
            if self._lost is not None:
                self._raise_once()
                return
            data = "".join(self._pending).encode(self._encoding, ERRORS)
            self._pending.clear()
            self._size = 0
            view = memoryview(data)
            while view:
                try:
                    view = view[os.write(self._fd, view) :]
                except BlockingIOError:  # a descriptor left non-blocking by someone else
                    select.select([], [self._fd], [], 1.0)
                except InterruptedError:
                    continue
                except OSError as error:
                    self._lost = error.errno or errno.EIO
                    self._said = False
                    self._raise_once()
                    return

    def _raise_once(self) -> None:
        """Raise StreamLost the first time the loss is met in the main thread; after it
        (and in any other thread) the text is dropped."""
        if self._said or not self._raises:
            return
        if threading.current_thread() is not threading.main_thread():
            return  # the main thread meets it at its next write or flush
        self._said = True
        assert self._lost is not None
        raise StreamLost(self._name, self._lost, _reason(self._lost))

    def close(self) -> None:  # the descriptor stays open: the interpreter owns it
        with self._lock:
            if self._lost is None:
                with contextlib.suppress(StreamLost):
                    self.flush()


class ClosedInput(io.TextIOBase):
    """Standard input that was closed when the program started (`<&-`): any read raises
    StreamLost naming it; it is no terminal."""

    name = "standard input"
    encoding = "utf-8"

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def _lost(self) -> StreamLost:
        return StreamLost("standard input", errno.EBADF, "it is closed")

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return False

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        raise self._lost()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise self._lost()

    def __iter__(self) -> Any:
        raise self._lost()

    def __next__(self) -> str:  # type: ignore[override]
        raise self._lost()


def _reopen_if_closed(fd: int) -> bool:
    """Put /dev/null on descriptor `fd` if nothing is open there; was it closed?"""
    try:
        os.fstat(fd)
    except OSError:
        null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        return True
    return False


def _encoding_of(stream: object) -> str:
    """The stream's encoding as Python chose it (the locale, PYTHONIOENCODING)."""
    name = getattr(stream, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"


_installed: list[bool] = []


def install(*, stdout_raises: bool = True) -> None:
    """Put the safe streams in place of sys.stdin (when closed), sys.stdout and sys.stderr
    (once per process: a second call does nothing)."""
    if _installed:
        return
    _installed.append(True)
    closed = [_reopen_if_closed(fd) for fd in (0, 1, 2)]
    if closed[0]:
        sys.stdin = ClosedInput(0)
    for fd, name, attribute in ((1, "standard output", "stdout"), (2, "standard error", "stderr")):
        previous = getattr(sys, attribute)
        encoding = _encoding_of(previous)
        if previous is not None:
            with contextlib.suppress(OSError, ValueError):
                previous.flush()
        stream = SafeOutput(
            fd, name, encoding, raises=stdout_raises and fd == 1, closed_at_start=closed[fd]
        )
        setattr(sys, attribute, stream)


def encodes(text: str, stream: object | None = None) -> bool:
    """Can `stream` (standard output by default) write `text` as it is?"""
    return _fits(text, _encoding_of(sys.stdout if stream is None else stream))
