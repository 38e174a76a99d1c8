"""The batch path: score and push N grids at once as NumPy uint64 arrays (S1, S2, P1, P2).

The very kernels of dekal.bits run here on arrays: NumPy's `>>` on unsigned arrays is
logical and `<<`, `*` wrap modulo 2**64, which is exactly what the kernels assume. A push
step becomes one array per PushStep field, indexed by step number (dekal.tables.ALL_STEPS).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from dekal import bits
from dekal.bits import PushStep
from dekal.extras import needed
from dekal.tables import ALL_STEPS

with needed("dekal.batch (the NumPy batch paths)"):
    import numpy as np
    from numpy.typing import NDArray

Words = NDArray[np.uint64]
"""One grid word per element."""
_Kernel = Callable[[Words], Words]

_cancelled = cast(_Kernel, bits.cancelled)
_cancelled_and_occupied = cast(Callable[[Words], tuple[Words, Words]], bits.cancelled_and_occupied)
_nibble_sum = cast(_Kernel, bits.nibble_sum)
_cell_count = cast(_Kernel, bits.cell_count)
_compact = cast(_Kernel, bits.compact)
_kept = cast(Callable[[Words, Words], Words], bits.kept)
_push_grid = cast(Callable[[Words, Any, Words], Words], bits.push_grid)
_push_face_down = cast(Callable[[Words, Any], Words], bits.push_face_down)

_SHIFTS = np.arange(0, 64, 4, dtype=np.uint64)


def pack_many(grids: Sequence[Sequence[int]] | NDArray[Any]) -> Words:
    """An (N, 16) array or list of grids (values 0..10, reading order) -> N grid words."""
    cells = np.asarray(grids, dtype=np.uint64).reshape(-1, 16)
    words: Words = np.bitwise_or.reduce(cells << _SHIFTS, axis=1)
    return words


def unpack_many(words: Words) -> NDArray[np.uint8]:
    """N grid words -> an (N, 16) array of values."""
    return ((words[:, None] >> _SHIFTS) & np.uint64(0xF)).astype(np.uint8)


def score_many(words: Words) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(points, cards left) of every grid (S1, S2), sharing one cancellation per grid."""
    gone, cards = _cancelled_and_occupied(words)
    points = _nibble_sum(_kept(words, gone))
    remaining = _cell_count(cards ^ gone)
    return points.astype(np.int64), remaining.astype(np.int64)


def cancelled_many(words: Words) -> NDArray[np.uint16]:
    """The cancelled cells of every grid as a 16-bit compact mask (bit i = cell i)."""
    return _compact(_cancelled(words)).astype(np.uint16)


def _field(name: str) -> Words:
    return np.array([getattr(step, name) for step in ALL_STEPS], dtype=np.uint64)


class _StepArrays:
    """Every PushStep field as an array over ALL_STEPS; indexing picks one step per grid."""

    def __init__(self) -> None:
        self.fields = {name: _field(name) for name in PushStep.__dataclass_fields__}

    def take(self, step_ids: NDArray[np.intp]) -> Any:
        chosen = {name: column[step_ids] for name, column in self.fields.items()}
        return type("Steps", (), chosen)


_STEPS = _StepArrays()


def push_many(
    words: Words, step_ids: NDArray[np.intp], cards: NDArray[Any], down: Words | None = None
) -> tuple[Words, Words | None]:
    """Push cards[k] into grid k by step ALL_STEPS[step_ids[k]] (the caller checked legality:
    see dekal.tables.LEGAL and STEP_INDEX). Returns the new words and, if given, face-down masks."""
    steps = _STEPS.take(step_ids)
    after = _push_grid(words, steps, np.asarray(cards, dtype=np.uint64))
    return after, None if down is None else _push_face_down(down, steps)
