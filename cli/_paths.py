"""The files and folders `dekal` options name, checked before any work starts (issue 19).

Every option or argument that names a file goes through here, so that a path which could
only fail late, or never return, is refused at once with the option named:

* a file to read is a regular file that opens for reading (a FIFO would block the read for
  ever, a device like /dev/zero never ends, a directory is no file);
* a file to write is an existing regular file that opens for writing, or a new file in a
  folder that exists (no folder is made: a typo in a folder's name is an error, not a new
  tree); it is opened, not merely asked about, because os.access says yes to root for any
  path, /proc and read-only mounts included;
* a folder to write into exists, or is new in a folder that exists, and takes a new file;
* kernel interfaces (/proc, /sys) and devices are refused: they look like files and are not
  (but /dev/null is a file to write: the Unix way to throw output away);
* the empty name is refused (it would otherwise mean the current folder, or "not given").

Each check raises PathRefused with a one-line message that quotes at most 40 characters of
the name; `parser(check)` makes it a typer `parser=` (a usage error naming the option) and
`dekal.cli._common.checked(check, value, field)` reports it from a command's body (`fail`
naming `field`): this module imports nothing of the CLI.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn, TypeVar

import typer

from dekal_ref.reading import shown

KERNEL_FOLDERS = ("/proc", "/sys")
"""Pseudo file systems: their files report a size of 0 and may block or never end."""

T = TypeVar("T")

STDOUT = "-"
"""The name that means standard output where an option allows it."""


class PathRefused(ValueError):
    """A path an option cannot use; the message says why, quoting the name short."""


def _refuse(text: str, why: str) -> NoReturn:
    raise PathRefused(f"{shown(text)} {why}")


def _reason(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error)


def _status(path: Path, text: str) -> os.stat_result | None:
    """os.stat of `path` (following links), None when nothing is there."""
    try:
        return path.stat()
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RuntimeError) as error:  # a NUL, a name too long, a loop
        _refuse(text, f"cannot be used: {_reason(error)}")


def _in_kernel_folder(path: Path) -> bool:
    try:
        resolved = str(path.resolve())
    except (OSError, RuntimeError):
        return False  # _status has said why
    return any(resolved == top or resolved.startswith(top + "/") for top in KERNEL_FOLDERS)


def _what(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (it would wait for a writer or reader for ever)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _named(value: object, what: str = "a file") -> tuple[str, Path]:
    text = str(value)
    if not text.strip():
        raise PathRefused(f"an empty name: name {what}")
    return text, Path(text)


def input_file(value: object) -> Path:
    """A regular file that can be read (see the module docstring)."""
    text, path = _named(value)
    status = _status(path, text)
    if status is None:
        _refuse(text, "does not exist")
    if not stat.S_ISREG(status.st_mode):
        _refuse(text, f"is {_what(status.st_mode)}: name a file")
    if _in_kernel_folder(path):
        _refuse(text, "is a kernel interface (/proc, /sys), not a file")
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
    except OSError as error:
        _refuse(text, f"cannot be read: {_reason(error)}")
    return path


def input_file_or_folder(value: object) -> Path:
    """A regular file that can be read, or a folder that can be listed (--cases)."""
    text, path = _named(value)
    status = _status(path, text)
    if status is not None and stat.S_ISDIR(status.st_mode):
        if _in_kernel_folder(path):
            _refuse(text, "is a kernel interface (/proc, /sys), not a folder of files")
        if not os.access(path, os.R_OK | os.X_OK):
            _refuse(text, "cannot be read (permission denied)")
        return path
    return input_file(value)


def output_file(value: object) -> Path:
    """A file to write: an existing regular file that opens for writing (it is not emptied
    here), or a new one in an existing folder that takes it (made, then removed again)."""
    text, path = _named(value)
    status = _status(path, text)
    if status is not None and os.path.realpath(path) == os.devnull:
        return path  # the Unix way to throw output away: it never blocks, never fills
    if status is not None and not stat.S_ISREG(status.st_mode):
        _refuse(text, f"is {_what(status.st_mode)}: name a file")
    if _in_kernel_folder(path if status is not None else path.parent):
        _refuse(text, "is in a kernel interface (/proc, /sys): name a file elsewhere")
    if status is None:
        parent = _status(path.parent, text)
        if parent is None or not stat.S_ISDIR(parent.st_mode):
            _refuse(text, f"cannot be made: the folder {shown(str(path.parent))} does not exist")
    flags = os.O_WRONLY | os.O_NONBLOCK | (os.O_APPEND if status else os.O_CREAT | os.O_EXCL)
    try:
        os.close(os.open(path, flags, 0o666))
    except OSError as error:
        _refuse(text, f"cannot be written: {_reason(error)}")
    if status is None:
        path.unlink(missing_ok=True)
    return path


def output_file_or_stdout(value: object) -> str:
    """A file to write, or `-` for standard output."""
    return STDOUT if str(value) == STDOUT else str(output_file(value))


def output_folder(value: object) -> Path:
    """A folder to write files into: an existing one that takes a new file, or a new one
    whose parent exists and takes it (made later, by the command, without parents)."""
    text, path = _named(value, "a folder")
    status = _status(path, text)
    if status is not None and not stat.S_ISDIR(status.st_mode):
        _refuse(text, f"is {_what(status.st_mode)}: name a folder")
    target = path if status is not None else path.parent
    if status is None:
        parent = _status(target, text)
        if parent is None or not stat.S_ISDIR(parent.st_mode):
            _refuse(text, f"cannot be made: the folder {shown(str(target))} does not exist")
    if _in_kernel_folder(target):
        _refuse(text, "is in a kernel interface (/proc, /sys): name a folder elsewhere")
    try:
        with tempfile.NamedTemporaryFile(dir=target, prefix=".dekal-check-"):
            pass
    except OSError as error:
        _refuse(text, f"cannot be written: {_reason(error)}")
    return path


OUTPUT_CHECKS = frozenset({"output_file", "output_file_or_stdout", "plot_file"})
"""The parsers (by name) of the options that name a file the command writes."""


def identity(value: object) -> tuple[int, int] | None:
    """(device, inode) of the regular file at this name, following links; None if there is
    none (nothing there, a folder, a device, an unreadable name)."""
    try:
        status = os.stat(str(value))
    except (OSError, ValueError):
        return None
    return (status.st_dev, status.st_ino) if stat.S_ISREG(status.st_mode) else None


def output_among_inputs(
    outputs: dict[str, object], inputs: dict[str, object]
) -> tuple[str, str] | None:
    """The first (output, input) pair of parameter names whose values are one file (the
    same inode: a link, `./x` and `x` alike), None when each output is a file of its own.
    Writing it would destroy what the command reads (`report R.json --html R.json`)."""
    read = {found: name for name, value in inputs.items() if (found := identity(value))}
    for name, value in outputs.items():
        found = identity(value)
        if found is not None and found in read:
            return name, read[found]
    return None


def names_something(value: object) -> bool:
    """Is there anything (a file, a folder, a pipe, a broken link) at this name? Never raises
    (a NUL, a name too long): for options that take a file or else a value (fuzz --expect)."""
    try:
        return os.path.lexists(str(value))
    except (OSError, ValueError):
        return False


def parser(check: Callable[[object], object]) -> Callable[[object], object]:
    """`check` as a typer `parser=`: a refused path is a usage error naming the option."""

    def parse(value: object) -> object:
        try:
            return check(value)
        except PathRefused as error:
            raise typer.BadParameter(str(error)) from None

    parse.__name__ = check.__name__
    return parse
