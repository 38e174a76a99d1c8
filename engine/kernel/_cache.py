"""numba's on-disk cache of the kernel, kept in step with every source the kernel compiles.

`compiled` is numba.njit(cache=True): a process's first call loads the machine code a previous
process wrote, instead of compiling it again (seconds). But numba keys a function's cache by
its own file alone (numba/numba#8396, never merged): when _bits.py changes, the cached
_play.play_on, which compiled _bits' functions into itself, is loaded unchanged.
So a digest of every source the compiled code reads (the kernel modules and the fast
engine's and reference's modules whose constants it freezes) is kept beside the cache, and
the kernel's cached files are dropped at import when the digest has changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import dekal_ref.deal
from dekal import bits, draws, state, tables
from dekal._atomic import write_atomic
from dekal.extras import needed

with needed("the compiled game kernel (dekal.kernel)"):
    from numba import njit

Function = TypeVar("Function", bound=Callable[..., Any])
HERE = Path(__file__).resolve().parent
STAMP = "kernel-sources.sha256"


def compiled(function: Function) -> Function:
    """numba.njit(cache=True, nogil=True), typed for mypy: the compiled function keeps its
    signature. nogil: a call releases the interpreter while it runs, so another thread (a
    deadline's watchdog, dekal.proofs.limits.Watched; a Ctrl-C's handler) runs meanwhile;
    the kernels share no mutable state between threads (each call gets its own arrays)."""
    return cast(Function, njit(cache=True, nogil=True)(function))


def sources() -> list[Path]:
    """Every file whose text the compiled kernel depends on."""
    modules = (bits, draws, state, tables, dekal_ref.deal)
    return sorted(HERE.glob("*.py")) + [Path(str(m.__file__)).resolve() for m in modules]


def digest() -> str:
    hasher = hashlib.sha256()
    for path in sources():
        hasher.update(path.read_bytes())
    return hasher.hexdigest()


@compiled
def _where_numba_caches() -> int:
    """A compiled function of this folder: numba tells where it caches the kernel's code."""
    return 0


def refresh(cache_dir: Path) -> None:
    """Drop the kernel's cached code if any source changed since it was written."""
    stamp, now = cache_dir / STAMP, digest()
    try:
        if stamp.read_text() == now:
            return
    except OSError:
        pass  # no stamp yet: a cache written without one is not trusted either
    stems = [path.stem for path in HERE.glob("*.py")]  # numba names a file `module.function-line…`
    for cached in [c for stem in stems for c in cache_dir.glob(f"{stem}.*.nb[ic]")]:
        cached.unlink(missing_ok=True)  # another process may have dropped it first
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(stamp, now)  # processes starting together: one stamp, whole
    except OSError:
        pass  # a read-only cache: numba will not write there either


refresh(Path(_where_numba_caches.stats.cache_path))  # type: ignore[attr-defined]
