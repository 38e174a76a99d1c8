"""The watchdog answers on time while a compiled kernel runs (dekal.proofs.limits.Watched,
dekal.kernel._cache.compiled): the kernels release the interpreter, so the waiting thread
wakes at the deadline even in the middle of one long call. When they held it, a level of
`solve --unknown`'s perfect-information layouts (54 s on eject k=5) made `--timeout 20`
answer after 48.7 s."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("numba")

SPINNING = """
from dekal.kernel._cache import compiled
from dekal.proofs.limits import Deadline, Watched

@compiled
def spin(n):
    x = 1
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFF
    return x

spin(10)  # compiled (or loaded) before the clock starts
watched = Watched(lambda: spin(4_000_000_000), lambda: "fallback")  # seconds of work
print(watched.result(Deadline(0.2)), watched.abandoned)
"""


def test_the_watchdog_answers_in_the_middle_of_a_long_kernel_call(tmp_path: Path) -> None:
    script = tmp_path / "spinning.py"  # a file: numba caches a function by its file
    script.write_text(textwrap.dedent(SPINNING))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout) == (0, "fallback True\n"), done.stderr
