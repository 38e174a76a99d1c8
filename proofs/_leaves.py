"""The last one or two steps of a search, all at once on arrays (dekal.batch).

Near the leaves a depth-first search spends nearly all its time: a node two steps from the
end has up to 48 × 48 (slide) or 240 × 240 (eject) leaves. Here they are built and scored as
NumPy uint64 arrays with the optimized engine's own kernels (`dekal.batch.push_many`,
`dekal.batch.score_many`), instead of one Python call per leaf.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from dekal import batch, tables
from dekal.extras import needed
from dekal.proofs.puzzle import KEY_CARDS, Move

with needed("the solver's leaf evaluation (on arrays)"):
    import numpy as np
    from numpy.typing import NDArray

U64 = np.uint64
Words = NDArray[np.uint64]


@dataclass(frozen=True)
class Shapes:
    """Every legal (hole, push) of a variant as parallel arrays, in dekal.tables order."""

    hole: NDArray[np.uint64]  # the reveal cell
    index: NDArray[np.intp]  # position in tables.LEGAL[variant][hole]
    step_id: NDArray[np.intp]  # position in tables.ALL_STEPS (what dekal.batch indexes)
    moves: tuple[Move, ...]


@cache
def shapes_of(variant: str) -> Shapes:
    holes, indices, ids, moves = [], [], [], []
    for hole in range(16):
        for index, (push, step) in enumerate(tables.LEGAL[variant][hole]):
            holes.append(hole)
            indices.append(index)
            ids.append(tables.STEP_INDEX[step])
            moves.append(Move(hole, push))
    return Shapes(
        hole=np.array(holes, dtype=U64),
        index=np.array(indices, dtype=np.intp),
        step_id=np.array(ids, dtype=np.intp),
        moves=tuple(moves),
    )


def expand(
    words: Words, downs: Words, shapes: Shapes, card: int | None, allowed: NDArray[Any] | None
) -> tuple[Words, Words, NDArray[np.intp], NDArray[np.intp]]:
    """Every legal step from every state: (grids, face-down masks, parent, shape).

    A step is legal when its reveal cell is face down (T1); `card` None is solo mode (the
    revealed card comes back in); `allowed` restricts the shapes (a fixed first move).
    """
    legal = ((downs[:, None] >> shapes.hole[None, :]) & U64(1)).astype(bool)
    if allowed is not None:
        legal &= allowed[None, :]
    parent, shape = np.nonzero(legal)
    shift = shapes.hole[shape] * U64(4)
    before = words[parent]
    cards = (before >> shift) & U64(0xF) if card is None else np.full(len(parent), card, U64)
    holed = before & ~(U64(0xF) << shift)
    after, after_down = batch.push_many(holed, shapes.step_id[shape], cards, downs[parent])
    assert after_down is not None
    return after, after_down, parent, shape


@dataclass(frozen=True)
class Best:
    """The best leaf below a node: its key (or -1: none), grid, and the shapes leading to it."""

    key: int
    grid: int
    shapes: tuple[int, ...]
    leaves: int


def best_leaf(
    grid: int,
    down: int,
    *,
    variant: str,
    cards: tuple[int | None, ...],
    first: Move | None = None,
    target: int | None = None,
) -> Best:
    """The lowest-key leaf `len(cards)` steps below a state, or the `target` leaf.

    `cards[i]` is the card of the i-th remaining step (None: solo). `first` restricts the
    first of those steps. Between steps, equal (grid, face-down) states are merged, keeping
    one path to each.
    """
    shapes = shapes_of(variant)
    allowed = None
    if first is not None:
        allowed = np.array([m == first for m in shapes.moves], dtype=bool)
    words = np.array([grid], dtype=U64)
    downs = np.array([down], dtype=U64)
    trail: list[tuple[NDArray[np.intp], NDArray[np.intp]]] = []  # (parent, shape) per step
    for number, card in enumerate(cards):
        words, downs, parent, shape = expand(words, downs, shapes, card, allowed)
        allowed = None
        if number < len(cards) - 1 and len(words) > 1:  # merge equal states before expanding
            _, keep = np.unique(np.stack([words, downs], axis=1), axis=0, return_index=True)
            words, downs, parent, shape = words[keep], downs[keep], parent[keep], shape[keep]
        trail.append((parent, shape))
    if len(words) == 0:
        return Best(-1, 0, (), 0)
    if target is not None:
        hits = np.nonzero(words == U64(target))[0]
        if len(hits) == 0:
            return Best(-1, 0, (), len(words))
        pick = int(hits[0])
        points, left = batch.score_many(words[pick : pick + 1])
        key = int(points[0]) * KEY_CARDS + int(left[0])
    else:
        points, left = batch.score_many(words)
        keys = points * KEY_CARDS + left
        pick = int(np.argmin(keys))
        key = int(keys[pick])
    path: list[int] = []
    at = pick
    for parent, shape in reversed(trail):
        path.append(int(shape[at]))
        at = int(parent[at])
    return Best(key, int(words[pick]), tuple(reversed(path)), len(words))


def steps_at_once(variant: str) -> int:
    """How many last steps to evaluate at once: two (48² slide, 240² eject leaves a node).

    Three slide steps at once (110 592 leaves) was faster before the search had a lower
    bound; with it, stopping one step earlier lets the bound, tighter with fewer steps left,
    prune about four batches in five: on three five-step slide puzzles of the hard set the
    search went from 7.3, 5.4, 3.9 s to 4.6, 4.2, 2.4 s of CPU (one step at a time: 11 s).
    """
    return 2
