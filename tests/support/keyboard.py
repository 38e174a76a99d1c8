"""A human at `dekal play`'s keyboard, in process: each line is typed after reading what the
command printed so far (used by tests/bots/test_play.py and tests/hostile/test_hostile_play.py).

A scripted human could only be replayed from the start with one more line for each decision
(the square of the game's length in runs); this one plays a whole game in one run of the
command, reading the screen before each line as a person does.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from typer.testing import CliRunner, Result

from dekal.cli._app import app

TypeNext = Callable[[str], "str | None"]
"""The human: given the screen so far (standard output), the next line to type, without its
end, or None to end the input (Ctrl-D)."""


class Keyboard(io.RawIOBase):
    """Standard input that asks the human for a line each time the command reads one."""

    def __init__(self, screen: io.BytesIO, type_next: TypeNext) -> None:
        super().__init__()
        self._screen, self._type_next = screen, type_next
        self._pending, self._ended = b"", False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if len(buffer) == 0:  # a probe (read(0)) is not a read of a line
            return 0
        if not self._pending and not self._ended:
            sys.stdout.flush()  # what the command printed is on the screen before it reads
            line = self._type_next(self._screen.getvalue().decode("utf-8"))
            if line is None:
                self._ended = True
            else:
                self._pending = f"{line}\n".encode()
        size = min(len(buffer), len(self._pending))
        buffer[:size], self._pending = self._pending[:size], self._pending[size:]
        return size


class _KeyboardRunner(CliRunner):
    def __init__(self, type_next: TypeNext) -> None:
        super().__init__()
        self._type_next = type_next

    @contextlib.contextmanager
    def isolation(
        self,
        input: str | bytes | None = None,
        env: Mapping[str, str | None] | None = None,
        color: bool = False,
    ) -> Iterator[tuple[io.BytesIO, io.BytesIO, io.BytesIO]]:
        with super().isolation(input, env, color) as streams:
            keys = io.BufferedReader(Keyboard(streams[0], self._type_next))
            sys.stdin = io.TextIOWrapper(keys, encoding=self.charset)
            yield streams


def at_the_keyboard(args: Sequence[str], type_next: TypeNext) -> Result:
    """`dekal ARGS` run in process, its standard input typed by `type_next`."""
    return _KeyboardRunner(type_next).invoke(app, list(args))
