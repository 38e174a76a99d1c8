"""The perfect-information value of a solo position with unknown cards (spec/solo-unknown.md,
U9): the expectation, over the deals of unseen values onto the face-down cards, of the best
score when the deal is known in advance.

Why the min can be taken over *layouts*, once for every deal: a line of play (which cell to
reveal, which push, step after step) is chosen by cell and side, never by value, so where
each card ends is the same whatever the deal. A line's *layout* is the final grid of the
face-up cards with, for each face-down card (numbered 1..k in reading order at the start),
the cell it ends in. The solo optimum of a deal is the least score over the distinct
layouts of that deal's values put in place (each value travels with its card, U9); the
layouts are enumerated once, merged when equal, and every deal is scored against all of
them (on arrays when NumPy is installed). Exact: a Fraction over the falling factorial of
ordered deals (U6).
"""

from __future__ import annotations

from fractions import Fraction

from dekal import bits, tables
from dekal.extras import available
from dekal.proofs._unknown.deals import KnownOptima, deals
from dekal.proofs._unknown.position import UnknownPosition
from dekal.proofs._unknown.search import OutOfTime, falling
from dekal.proofs.limits import Deadline

Layout = tuple[int, int]
"""(the face-up cards' final grid word, the final word of card numbers 1..k: which
face-down card of the start ends in each cell, 0 for the others)."""
MOST_CARDS = 15
"""Card numbers are nibbles 1..15: a position with 16 unknown cells has no layout word."""
CHUNK = 1 << 18  # deals × layouts scored per array operation
COMPILED_FROM = 3
"""Unknown cells from which the known-values optima run compiled: below, Python is done
before numba would have loaded."""
COMPILED_MOST = 7
"""The kernel's layout words carry a face-down flag beside card numbers 1..7."""
ARRAYS_FROM = 20_000
"""Deals × layouts from which the scoring goes on arrays: below, Python is done before NumPy
and the batch kernels would have loaded."""


def layouts(position: UnknownPosition, deadline: Deadline | None = None) -> list[Layout]:
    """Every distinct layout a line of play can end in (U3, U9), in a fixed order."""
    down = position.face_down_mask
    if len(position.face_down) > MOST_CARDS:
        raise ValueError(f"at most {MOST_CARDS} unknown cells for perfect information")
    legal = tables.LEGAL[position.variant]
    faces = bits.pack(position.grid)
    numbers = bits.pack(
        [position.face_down.index(c) + 1 if c in position.face_down else 0 for c in range(16)]
    )
    level: set[tuple[int, int, int]] = {(faces, numbers, down)}
    for _ in position.face_down:
        deeper: set[tuple[int, int, int]] = set()
        for face_word, number_word, mask in level:
            if deadline is not None and deadline.expired():
                raise OutOfTime
            for cell in range(16):
                if not (mask >> cell) & 1:
                    continue
                shift = 4 * cell
                card = (number_word >> shift) & 0xF
                holed = number_word & ~(0xF << shift)
                for _, step in legal[cell]:
                    deeper.add(
                        (
                            bits.push_grid(face_word, step, 0),
                            bits.push_grid(holed, step, card),
                            bits.push_face_down(mask, step),
                        )
                    )
        level = deeper
    return sorted((face_word, number_word) for face_word, number_word, _ in level)


def perfect_information(
    position: UnknownPosition, *, deadline: Deadline | None = None, compiled: bool | None = None
) -> Fraction:
    """U9's value, exact (OutOfTime if the deadline passes first)."""
    return known_optima(position, deadline=deadline, compiled=compiled).mean


def known_optima(
    position: UnknownPosition, *, deadline: Deadline | None = None, compiled: bool | None = None
) -> KnownOptima:
    """The mean and the worst of the deals' known-values optima (OutOfTime past the deadline).
    `compiled`: on the numba kernel (`_unknown.perfect_kernel`; None: from COMPILED_FROM
    unknown cells when numba is installed)."""
    if compiled is None:
        compiled = COMPILED_FROM <= len(position.face_down) <= COMPILED_MOST and available("numba")
    if compiled:
        from dekal.proofs._unknown.perfect_compiled import compiled_optima

        return compiled_optima(position, deadline or Deadline(3600.0 * 24))
    found = layouts(position, deadline)
    dealt = deals(position)
    k = len(position.face_down)
    if len(found) * len(dealt) > ARRAYS_FROM and available("numpy"):
        optima = _on_arrays(found, dealt, k, deadline)
    else:
        optima = []
        for deal, _ in dealt:
            if deadline is not None and deadline.expired():
                raise OutOfTime
            optima.append(min(bits.score(_placed(layout, deal))[0] for layout in found))
    total = sum(best * weight for best, (_, weight) in zip(optima, dealt, strict=True))
    return KnownOptima(Fraction(total, falling(position.unseen_total, k)), max(optima))


def _placed(layout: Layout, deal: tuple[int, ...]) -> int:
    """The final grid word of a layout with the deal's values put on its cards."""
    face_word, number_word = layout
    for cell in range(16):
        number = (number_word >> (4 * cell)) & 0xF
        if number:
            face_word |= deal[number - 1] << (4 * cell)
    return face_word


def _on_arrays(
    found: list[Layout], dealt: list[tuple[tuple[int, ...], int]], k: int, deadline: Deadline | None
) -> list[int]:
    """Each deal's least score over the layouts, deals × layouts in chunks (dekal.batch)."""
    from dekal.extras import needed

    with needed("the perfect-information figure's array path"):
        import numpy as np

    from dekal import batch

    values = np.array([deal for deal, _ in dealt], dtype=np.uint64).reshape(len(dealt), k)
    faces = np.array([face for face, _ in found], dtype=np.uint64)
    shifts = np.zeros((len(found), k), dtype=np.uint64)  # 4 · the cell each card ends in
    for row, (_, number_word) in enumerate(found):
        for cell in range(16):
            number = (number_word >> (4 * cell)) & 0xF
            if number:
                shifts[row, number - 1] = 4 * cell
    best = np.full(len(dealt), 1 << 30, dtype=np.int64)
    per_chunk = max(1, CHUNK // max(1, len(dealt)))
    for start in range(0, len(found), per_chunk):
        if deadline is not None and deadline.expired():
            raise OutOfTime
        face = faces[start : start + per_chunk]
        shift = shifts[start : start + per_chunk]
        words = np.broadcast_to(face[:, None], (len(face), len(dealt))).copy()
        for card in range(k):
            words |= values[None, :, card] << shift[:, card][:, None]
        points, _ = batch.score_many(words.ravel())
        best = np.minimum(best, points.reshape(len(face), len(dealt)).min(axis=0))
    return [int(b) for b in best.tolist()]
