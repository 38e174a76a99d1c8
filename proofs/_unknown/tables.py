"""The constant tables the compiled searches of --unknown share (spec/solo-unknown.md, U5–U9):
the cells' neighbours, which pairs of cells are adjacent and which cells they share, a bit's
index in two operations; and the rule that keeps numba's on-disk cache of those searches in
step with every source compiled into it (`refresh_cache`). Importing this module loads NumPy.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from dekal.extras import needed
from dekal.kernel import _cache as kernel_cache

with needed("the compiled search of --unknown"):
    import numpy as np

HERE = Path(__file__).resolve().parent
COMPILED_SOURCES = (
    "tables.py",
    "two.py",
    "kernel.py",
    "perfect_kernel.py",
)
"""The files of proofs/_unknown/ whose text the compiled --unknown code depends on: the compiled
modules and the tables they freeze into their code (a numba global is a constant)."""
FAR = 1 << 58
"""Above every value: the driver keeps scaled expectations below it (`fits`)."""
NEIGHBOURS = np.full((16, 4), -1, dtype=np.int64)
"""The cells next to each cell (up, down, left, right), -1 past the edge."""
for _cell in range(16):
    _row, _column = divmod(_cell, 4)
    for _side, (_r, _c) in enumerate(
        ((_row - 1, _column), (_row + 1, _column), (_row, _column - 1), (_row, _column + 1))
    ):
        if 0 <= _r < 4 and 0 <= _c < 4:
            NEIGHBOURS[_cell, _side] = 4 * _r + _c


ADJACENT = np.zeros((16, 16), dtype=np.int64)
"""ADJACENT[a, b]: 1 when the cells are neighbours."""
COMMON = np.zeros((16, 16), dtype=np.int64)
"""COMMON[a, b]: the 16-bit set of the cells next to both (none when a, b are neighbours:
the grid has no triangles)."""
for _a in range(16):
    for _b in NEIGHBOURS[_a]:
        if _b >= 0:
            ADJACENT[_a, _b] = 1
for _a in range(16):
    for _b in range(16):
        if _a != _b:
            for _near in NEIGHBOURS[_a]:
                if _near >= 0 and ADJACENT[_near, _b]:
                    COMMON[_a, _b] |= 1 << int(_near)
DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
BIT_INDEX = np.zeros(64, dtype=np.int64)
"""BIT_INDEX[(2^i · DE_BRUIJN) >> 58] = i: a single bit's index in two operations."""
for _i in range(64):
    BIT_INDEX[((1 << _i) * 0x03F79D71B4CB0A89 & ((1 << 64) - 1)) >> 58] = _i


def sources_digest() -> str:
    """A digest of every source an --unknown compiled file may have compiled in: the game
    kernel's (`dekal.kernel._cache.digest`) and every file of COMPILED_SOURCES."""
    hasher = hashlib.sha256(kernel_cache.digest().encode())
    for name in COMPILED_SOURCES:
        hasher.update((HERE / name).read_bytes())
    return hasher.hexdigest()


def refresh_cache(function: object, source: str) -> None:
    """numba caches a file's code keyed by that file alone, but compiles the game kernel's
    functions and this module's tables (and, for the search, `_unknown.two`'s functions)
    into it: drop the file's cached code when any of those sources changed (the kernel's own
    rule, dekal.kernel._cache). `function`: one of the file's compiled functions (numba says
    where it caches)."""
    cache_dir = Path(function.stats.cache_path)  # type: ignore[attr-defined]
    stem = Path(source).stem
    stamp = cache_dir / f"{stem}-sources.sha256"
    now = sources_digest()
    try:
        if stamp.read_text() == now:
            return
    except OSError:
        pass
    for cached in [*cache_dir.glob(f"{stem}.*.nbi"), *cache_dir.glob(f"{stem}.*.nbc")]:
        cached.unlink(missing_ok=True)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        stamp.write_text(now)
    except OSError:
        pass
