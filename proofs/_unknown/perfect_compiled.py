"""U9's known-values optima on the compiled kernel (`proofs._unknown.perfect_kernel`): the
same layouts and deals as `proofs._unknown.perfect`, with three savings that change no value.

* The layouts are enumerated level by level on arrays, equal states merged on a hash table.
* A deal is *reduced* before it is scored: a card whose value no face-up card holds and no
  other card of the deal holds can never be cancelled nor cancel (S1 needs an equal
  neighbour), so it scores exactly its value in every layout; it is replaced by a marker
  (11..15, one per such card: unique, so never equal to anything) and its value added back
  after. Deals equal once reduced are scored once (pinned to the Python path by
  tests/solver/unknown/test_unknown_perfect_compiled.py).
* The deals are scanned by group, the face-up values they hold: a face-up card next to a
  card, with no equal face-up neighbour, of a value the deal does not hold scores whatever
  the layout's cards are (S1), so `fixed` plus those cards bounds a layout from below under
  every deal of the group (`group_bounds`); a deal is scanned first on the layouts bounded
  below a threshold, and its least is exact when it is below it (U8's spirit: a bound
  stands in only where it cannot be the minimum).
"""

from __future__ import annotations

import time
from fractions import Fraction

from dekal import bits
from dekal.extras import needed
from dekal.proofs._unknown.deals import KnownOptima, deals
from dekal.proofs._unknown.position import UNKNOWN, UnknownPosition
from dekal.proofs._unknown.search import OutOfTime, falling
from dekal.proofs.limits import Deadline

with needed("the compiled perfect-information figure of --unknown"):
    import numpy as np
    from numpy.typing import NDArray

MARKS = (11, 12, 13, 14, 15)
"""Nibbles no card holds: the reduced deal's stand-ins for cards that can meet no equal."""
MOST_STATES = 50_000_000
"""States one level may be expanded into: past it the layouts are out of reach, reported as
OutOfTime before the memory is asked for (16 bytes a state in the expansion, up to 64 more
in `distinct`'s table, at most half full)."""
LEVEL_MARGIN = 2.0
"""How much longer than the last level's seconds per state a level is assumed to take (the
merge's table grows a little faster than the states)."""
THRESHOLDS = (8, 16)
"""The scan of a group's deals is tried on the layouts bounded below 8, then 16 (measured:
eject k=5's optima are mostly 0–6), before every layout."""
SLICE_SECONDS = 0.05  # the deadline is read between slices of deals this long
FIRST_SLICE = 16


def compiled_layouts(
    position: UnknownPosition, deadline: Deadline
) -> tuple[NDArray[np.uint64], NDArray[np.uint64]]:
    """The distinct layouts' face words and number words (U9), as uint64 arrays."""
    from dekal.kernel import _tables as kernel_tables
    from dekal.proofs._unknown import perfect_kernel as kernel

    down = position.face_down
    if len(down) > kernel.MOST_CARDS:
        raise ValueError(f"at most {kernel.MOST_CARDS} unknown cells for the compiled layouts")
    faces = np.array([bits.pack(position.grid)], dtype=np.uint64)
    numbers = np.array(
        [bits.pack([down.index(c) + 1 + kernel.DOWN_FLAG if c in down else 0 for c in range(16)])],
        dtype=np.uint64,
    )
    variant = kernel_tables.VARIANT_CODE[position.variant]
    per_state = 0.0  # the last level's seconds per state
    for left in range(len(down), 0, -1):
        if deadline.expired():
            raise OutOfTime
        room = len(faces) * left * 16
        if room > MOST_STATES:
            raise OutOfTime
        # a level cannot be cut short: one that cannot end in time is not begun (it would
        # hold a core past the deadline, long after a watchdog has answered)
        if room * per_state * LEVEL_MARGIN > deadline.left():
            raise OutOfTime
        began = time.perf_counter()
        out_faces = np.empty(room, dtype=np.uint64)
        out_numbers = np.empty(room, dtype=np.uint64)
        written = kernel.expand(
            faces,
            numbers,
            kernel_tables.STEPS,
            kernel_tables.PUSH_COUNT,
            variant,
            out_faces,
            out_numbers,
        )
        kept = kernel.distinct(out_faces, out_numbers, written)  # one state per pair of words
        faces, numbers = out_faces[:kept].copy(), out_numbers[:kept].copy()
        per_state = (time.perf_counter() - began) / room
    return faces, numbers


def reduced(position: UnknownPosition) -> tuple[list[tuple[int, ...]], list[tuple[int, int, int]]]:
    """The distinct reduced deals, and per ordered deal (index of its reduced deal, the
    values its markers stand for, its weight)."""
    face_up = {v for v in position.grid if v != UNKNOWN}
    index: dict[tuple[int, ...], int] = {}
    rows: list[tuple[int, int, int]] = []
    for deal, weight in deals(position):
        marks, extra, out = iter(MARKS), 0, []
        for value in deal:
            lone = value not in face_up and deal.count(value) == 1
            mark = next(marks, None) if lone else None
            if mark is None:
                out.append(value)
            else:
                out.append(mark)
                extra += value
        key = tuple(out)
        rows.append((index.setdefault(key, len(index)), extra, weight))
    return list(index), rows


def compiled_optima(position: UnknownPosition, deadline: Deadline) -> KnownOptima:
    """`_unknown.perfect.known_optima` on the kernel (OutOfTime past the deadline)."""
    from dekal.proofs._unknown import perfect_kernel as kernel

    faces, numbers = compiled_layouts(position, deadline)
    k = len(position.face_down)
    fixed, shifts = kernel.fixed_and_shifts(faces, numbers, k)
    sums = kernel.loose_sums(faces, numbers)
    order = np.argsort(fixed, kind="stable")  # the scan stops at the first fixed ≥ best
    faces, shifts, fixed, sums = faces[order], shifts[order], fixed[order], sums[order]
    keys, rows = reduced(position)
    table = np.array(keys, dtype=np.int64).reshape(len(keys), k)
    marks = np.where(table > 10, table, 0).sum(axis=1).astype(np.int64)
    face_up = sum(1 << v for v in set(position.grid) if v != UNKNOWN)
    present = np.zeros(len(keys), dtype=np.int64)  # the face-up values each deal holds
    for card in range(k):
        present |= np.where(table[:, card] <= 10, np.left_shift(1, table[:, card]), 0)
    present &= face_up
    least = np.empty(len(keys), dtype=np.int64)
    bounds = np.empty(len(fixed), dtype=np.int64)
    for group in np.unique(present).tolist():
        members = np.flatnonzero(present == group)
        kernel.group_bounds(fixed, sums, group, bounds)
        for threshold in THRESHOLDS:
            # a deal whose least over the layouts bounded below `threshold` is below it has
            # that least over all of them: every other layout scores ≥ its bound ≥ threshold
            kept = np.flatnonzero(bounds < threshold)
            kept = kept[np.argsort(bounds[kept], kind="stable")]
            found = _scan(
                faces[kept], shifts[kept], bounds[kept], table[members], marks[members], deadline
            )
            exact = found < threshold
            least[members[exact]] = found[exact]
            members = members[~exact]
            if not len(members):
                break
        if len(members):
            least[members] = _scan(faces, shifts, fixed, table[members], marks[members], deadline)
    total, worst = 0, 0
    for which, extra, weight in rows:
        best = int(least[which]) + extra
        total += best * weight
        worst = max(worst, best)
    return KnownOptima(Fraction(total, falling(position.unseen_total, k)), worst)


def _scan(
    faces: NDArray[np.uint64],
    shifts: NDArray[np.uint64],
    bounds: NDArray[np.int64],
    table: NDArray[np.int64],
    marks: NDArray[np.int64],
    deadline: Deadline,
) -> NDArray[np.int64]:
    """`least_scores` of the deals of `table`, in slices between which the deadline is read."""
    from dekal.proofs._unknown import perfect_kernel as kernel

    least = np.empty(len(table), dtype=np.int64)
    start, size = 0, FIRST_SLICE
    while start < len(table):
        if deadline.expired():
            raise OutOfTime
        began = time.perf_counter()
        stop = min(len(table), start + size)
        least[start:stop] = kernel.least_scores(
            faces, shifts, bounds, table[start:stop], marks[start:stop]
        )
        took = time.perf_counter() - began
        start = stop
        size = max(FIRST_SLICE, int(min(size * 4, size * SLICE_SECONDS / max(took, 1e-6))))
    return least
