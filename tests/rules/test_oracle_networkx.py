"""networkx as an independent oracle for cancellation and scoring (rules S1, S2).

networkx computes S1 its own way, as graph theory: cells holding a card are nodes, an edge
joins two orthogonal neighbours of equal value, and every connected component of two or
more cells is removed. Both engines (and the batch path) must agree with it:

* on every grid Hypothesis generates (uniform values, and small alphabets so that big
  groups, rings and snakes appear; with and without a hole);
* exhaustively on every grid over two values: all 2^16 patterns of two values, for every
  pair of distinct values 1–10 (45 pairs, 2,949,120 grids) through the batch path, and all
  2^16 patterns of one pair through both scalar engines. Over two values a pattern fixes
  which neighbours are equal, so networkx is run once per pattern (65,536 graphs) and the
  points follow from the pattern and the pair.
"""

from __future__ import annotations

import itertools
from functools import cache

import networkx as nx  # type: ignore[import-untyped]
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import dekal_ref
from dekal import batch, bits, fast

EDGES = [(4 * r + c, 4 * r + c + 1) for r in range(4) for c in range(3)] + [
    (4 * r + c, 4 * r + c + 4) for r in range(3) for c in range(4)
]
"""The 24 pairs of cells that share a side: 12 horizontal, 12 vertical."""


def oracle_cancelled(grid: tuple[int, ...]) -> frozenset[int]:
    """S1 by connected components of the equal-neighbour graph (holes are not nodes)."""
    graph = nx.Graph()
    graph.add_nodes_from(cell for cell in range(16) if grid[cell] != 0)
    graph.add_edges_from((u, v) for u, v in EDGES if grid[u] != 0 and grid[u] == grid[v])
    return frozenset(
        cell for group in nx.connected_components(graph) if len(group) >= 2 for cell in group
    )


def oracle_score(grid: tuple[int, ...]) -> tuple[int, int, frozenset[int]]:
    gone = oracle_cancelled(grid)
    left = [grid[cell] for cell in range(16) if grid[cell] != 0 and cell not in gone]
    return sum(left), len(left), gone


@st.composite
def grids(draw: st.DrawFn) -> tuple[int, ...]:
    alphabet = draw(
        st.one_of(
            st.just(list(range(1, 11))),
            st.lists(st.integers(1, 10), min_size=1, max_size=3, unique=True),
        )
    )
    values = draw(st.lists(st.sampled_from(alphabet), min_size=16, max_size=16))
    if draw(st.booleans()):
        values[draw(st.integers(0, 15))] = 0
    return tuple(values)


@given(grids())
def test_both_engines_agree_with_networkx(grid: tuple[int, ...]) -> None:
    points, remaining, gone = oracle_score(grid)
    for engine in (dekal_ref, fast):
        score = engine.score_grid(grid)
        assert (score.points, score.remaining, score.cancelled) == (points, remaining, gone)
        assert engine.cancelled_cells(grid) == gone
    assert bits.score(bits.pack(grid)) == (points, remaining)
    words = batch.pack_many([grid])
    assert int(batch.cancelled_many(words)[0]) == sum(1 << cell for cell in gone)
    batch_points, batch_remaining = batch.score_many(words)
    assert (batch_points[0], batch_remaining[0]) == (points, remaining)


@cache
def pattern_truth() -> np.ndarray:
    """For each 16-bit pattern p (cell i holds value B if bit i is set, else A, with A != B):
    the cancelled cells as a 16-bit mask, by networkx."""
    truth = np.zeros(1 << 16, dtype=np.uint16)
    for pattern in range(1 << 16):
        grid = tuple(2 if pattern >> cell & 1 else 1 for cell in range(16))
        truth[pattern] = sum(1 << cell for cell in oracle_cancelled(grid))
    return truth


def _popcount16(masks: np.ndarray) -> np.ndarray:
    counts = np.zeros(masks.shape, dtype=np.int64)
    for cell in range(16):
        counts += (masks >> cell) & 1
    return counts


def test_every_two_valued_grid_through_the_batch_path() -> None:
    truth = pattern_truth()
    patterns = np.arange(1 << 16, dtype=np.uint64)
    is_b = (patterns[:, None] >> np.arange(16, dtype=np.uint64)) & np.uint64(1)  # (65536, 16)
    kept = ~truth.astype(np.int64) & 0xFFFF
    kept_b = _popcount16(kept & patterns.astype(np.int64))
    kept_a = _popcount16(kept & ~patterns.astype(np.int64) & 0xFFFF)
    for a, b in itertools.combinations(range(1, 11), 2):
        values = np.where(is_b == 1, b, a)
        words = batch.pack_many(values)
        points, remaining = batch.score_many(words)
        assert (batch.cancelled_many(words) == truth).all(), (a, b)
        assert (points == a * kept_a + b * kept_b).all(), (a, b)
        assert (remaining == kept_a + kept_b).all(), (a, b)


def test_every_two_valued_grid_through_both_scalar_engines() -> None:
    truth = pattern_truth()
    a, b = 8, 9  # 8 = 0b1000 and 9 = 0b1001 differ in one bit only: the XOR test's hard case
    for pattern in range(1 << 16):
        grid = tuple(b if pattern >> cell & 1 else a for cell in range(16))
        expected = int(truth[pattern])
        assert bits.compact(bits.cancelled(bits.pack(grid))) == expected
        assert sum(1 << cell for cell in fast.score_grid(grid).cancelled) == expected
        if pattern % 16 == 0:  # the reference is slower: every 16th pattern (4,096 grids)
            assert sum(1 << cell for cell in dekal_ref.score_grid(grid).cancelled) == expected
