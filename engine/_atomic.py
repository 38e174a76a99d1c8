"""One way to write a file: whole, or not at all (issue 29).

Every file a `dekal` command writes (pages, badges, SVG pictures, JUnit, JSON, plots,
records, the fuzz database's cases, the kernel cache's stamp) is written by `write_atomic`
or inside `atomic_path`: the bytes go to a temporary file in the same folder, are flushed
and synced to the disk, then renamed over the target at once. So a kill, a full disk, a
`ulimit -f` or a Ctrl-C mid-write leaves the previous file as it was (or no file), never a
half-written one, and no temporary file is left behind. A write that fails raises
`NotWritten`, an OSError whose message is one line: `PATH: cannot write: why`.

The target is the file a symbolic link names (the link stays), and a device (/dev/null,
the one a path option accepts) is written in place: it cannot be replaced.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

_UMASK = os.umask(0)
os.umask(_UMASK)  # read once: the mode a new file gets, as open() would give it


class NotWritten(OSError):
    """A file could not be written whole; the previous file, if any, is left as it was."""

    def __init__(self, path: Path | str, error: BaseException) -> None:
        why = getattr(error, "strerror", None) or str(error)
        super().__init__(getattr(error, "errno", None) or errno.EIO, f"{path}: cannot write: {why}")
        self.path = str(path)
        self.why = why

    def __str__(self) -> str:
        return str(self.strerror)


def _target(path: Path) -> Path:
    """The file to replace: the one a symbolic link names."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _is_device(path: Path) -> bool:
    try:
        return not stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _mode(target: Path) -> int:
    """An existing file's permissions are kept; a new one gets what open() would give."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        return 0o666 & ~_UMASK


def write_atomic(path: Path | str, data: str | bytes, encoding: str = "utf-8") -> None:
    """Replace the file at `path` by `data` whole (see the module docstring); text is
    encoded with `encoding` (a lone surrogate as U+FFFD's bytes would be a lie: it is
    written as `?`, and no text of dekal's holds one). NotWritten if it cannot be."""
    payload = data if isinstance(data, bytes) else data.encode(encoding, errors="replace")
    with atomic_path(path) as temporary, open(temporary, "wb") as handle:
        handle.write(payload)


@contextlib.contextmanager
def atomic_path(path: Path | str, suffix: str | None = None) -> Iterator[Path]:
    """A temporary path beside `path` for a writer that wants a name (matplotlib's savefig):
    whatever is written there replaces `path` whole when the block ends without an error.
    NotWritten if it cannot; the temporary file is removed whatever happens."""
    given = Path(path)
    target = _target(given)
    if _is_device(target):  # /dev/null: written in place (there is nothing to keep whole)
        try:
            yield target
        except OSError as error:
            raise NotWritten(given, error) from None
        return
    ending = target.suffix if suffix is None else suffix
    try:
        fd, name = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name[:80]}.", suffix=f".writing{ending}"
        )
        os.close(fd)
    except OSError as error:
        raise NotWritten(given, error) from None
    temporary = Path(name)
    try:
        try:
            yield temporary
            with open(temporary, "rb+") as handle:
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, _mode(target))
            os.replace(temporary, target)
            _sync_folder(target.parent)
        except OSError as error:
            raise NotWritten(given, error) from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


def _sync_folder(folder: Path) -> None:
    """Sync the folder, so the rename itself survives a crash (where folders can be opened)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
