"""A node limit on the exhaustive search (`proofs.search.minimum(nodes=…)`): unlike the clock,
it stops the search at the same place on every machine, so a figure derived under it (the
perfect-information bound of bench/unknown_figures.py) re-derives anywhere."""

from __future__ import annotations

import pytest

from dekal.proofs import search
from dekal.proofs.puzzle import Puzzle, make_puzzle
from dekal_ref.notation import parse_grid

pytest.importorskip("numba")

PUZZLE = make_puzzle(
    parse_grid("495T/6396/5572/7337"), face_down=frozenset({1, 2, 6, 8, 9, 10, 11, 12, 14})
)
"""Nine solo steps: the compiled search expands a few tens of thousands of nodes to prove
its optimum (16 points, 3 cards), from a beam outcome of 19 points."""
SMALL = make_puzzle(parse_grid("495T/6396/5572/7337"), face_down=frozenset({1, 2, 6, 8, 9}))
"""Five solo steps, for the Python search (which takes seconds over PUZZLE)."""


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
def test_a_search_stopped_by_its_node_limit_is_unproved(compiled: bool) -> None:
    found = search.minimum(PUZZLE, nodes=500, compiled=compiled)
    assert not found.proved_optimal
    assert (found.points, found.remaining) >= (16, 3)


@pytest.mark.parametrize(
    ("puzzle", "compiled"), [(PUZZLE, True), (SMALL, False)], ids=["compiled", "python"]
)
def test_a_node_limit_the_search_stays_within_changes_nothing(
    puzzle: Puzzle, compiled: bool
) -> None:
    free = search.minimum(puzzle, compiled=compiled)
    limited = search.minimum(puzzle, nodes=10**7, compiled=compiled)
    assert free.proved_optimal and limited.proved_optimal
    assert (limited.points, limited.remaining, limited.moves) == (
        free.points,
        free.remaining,
        free.moves,
    )
    assert limited.stats["nodes"] == free.stats["nodes"]


@pytest.mark.parametrize("limit", [3_000, 6_000])
def test_where_the_node_limit_stops_the_compiled_search_does_not_depend_on_its_slices(
    limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled search runs in slices sized by the clock (SLICE_SECONDS): a limit of many
    slices stops it at the same node however the slices fell."""
    outcomes = set()
    for seconds in (1e-9, 10.0):  # slices as small as they go; one slice for the whole limit
        monkeypatch.setattr(search, "SLICE_SECONDS", seconds)
        found = search.minimum(PUZZLE, nodes=limit, compiled=True)
        outcomes.add((found.points, found.remaining, found.moves, found.stats["nodes"]))
    assert len(outcomes) == 1
