"""The compiled search of --unknown (proofs/_unknown/kernel.py, two.py) against the
Python search (proofs/_unknown/search.py): the same guaranteed and expected values and the
same first steps (U5–U7), pruning on and off (U8), slide and eject. The Python search is
itself pinned to the brute force on the reference engine (test_unknown_search.py)."""

from __future__ import annotations

import pytest
import unknown_brute as brute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_unknown_search import positions, reference

from dekal.proofs._unknown.position import VALUES, UnknownPosition, make_unknown
from dekal.proofs._unknown.search import solve
from dekal.proofs.limits import Deadline

pytest.importorskip("numba")
np = pytest.importorskip("numpy")

POSITIONS = [
    ("T133/1?11/?231/2231", None, "eject"),
    pytest.param("9T9?/5T5?/3737/1T1?", "1,2,5,9,9", "eject", marks=pytest.mark.deep),
    pytest.param("9T9?/5T5?/37?7/1T1?", "1,1,5,7,9,T", "slide", marks=pytest.mark.deep),
    pytest.param("3311/3?71/5225/T5??", "1,1,2,3,7", "eject", marks=pytest.mark.deep),
]
"""The first is the default run's (the kernel's compilation is most of its cost, once); the
others, seconds each in Python, run under the deep profile."""


@pytest.mark.parametrize(("grid", "unseen", "variant"), POSITIONS)
@pytest.mark.parametrize("prune", [True, pytest.param(False, marks=pytest.mark.deep)])
def test_the_compiled_search_is_the_python_search_U5_U6_U7(
    grid: str, unseen: str | None, variant: str, prune: bool
) -> None:
    position = make_unknown(grid, unseen=unseen, variant=variant)
    compiled = solve(position, compiled=True, prune=prune)
    python = solve(position, compiled=False, prune=prune)
    assert (compiled.guaranteed, compiled.expected) == (python.guaranteed, python.expected)
    assert compiled.expected_first == python.expected_first
    assert compiled.guaranteed_first == python.guaranteed_first


def test_a_search_out_of_time_says_so_and_gives_no_value_U10() -> None:
    from dekal.proofs._unknown.search import OutOfTime

    position = make_unknown("9T9?/5T5?/37?7/1T1?", variant="eject")
    with pytest.raises(OutOfTime):
        solve(position, compiled=True, deadline=Deadline(0.0))


FEW = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(positions(most_unknown=3))
def test_the_compiled_windows_and_order_are_the_brute_force_U8_G3_E2(
    position: UnknownPosition,
) -> None:
    """G1–G3 and E1–E2 as the kernel runs them (windows passed down, children reordered),
    pinned to the literal recursion on the reference engine."""
    grid, unseen = reference(position)
    compiled = solve(position, compiled=True)
    assert compiled.guaranteed == brute.guaranteed(grid, unseen, position.variant)
    assert compiled.expected == brute.expected(grid, unseen, position.variant)


@FEW
@given(positions(most_unknown=1), st.sampled_from(VALUES))
def test_the_last_cells_least_points_are_the_plain_scoring_S1_S2(
    position: UnknownPosition, value: int
) -> None:
    """The four-update rule of `last_least` against pushing and scoring every grid."""
    from dekal import bits, tables
    from dekal.kernel import _tables as kernel_tables
    from dekal.proofs._unknown import kernel as kernel

    grid = bits.pack(position.grid)
    least = kernel.last_least(
        np.uint64(grid),
        position.face_down_mask,
        kernel_tables.STEPS,
        kernel_tables.PUSH_COUNT,
        kernel_tables.VARIANT_CODE[position.variant],
    )
    plain = min(
        int(bits.score_points(bits.push_grid(grid, step, value)))
        for _, step in tables.LEGAL[position.variant][position.face_down[0]]
    )
    assert int(least[value - 1]) == plain


@FEW
@given(
    positions(most_unknown=2).filter(lambda p: len(p.face_down) == 2),
    st.sampled_from(VALUES),
    st.sampled_from(VALUES),
)
def test_two_cells_terms_are_the_plain_scoring_of_every_pair_of_pushes_S1_S2(
    position: UnknownPosition, first: int, second: int
) -> None:
    """`two_terms` and `two_least` (each pair of pushes scored once with marks, the values'
    terms added after, v = w corrected) against pushing and scoring every grid, and the
    bounds E3 and E4 sum ahead (floors, starts or push_starts + seconds_least) below every
    grid's points."""
    from dekal import bits, tables
    from dekal.kernel import _tables as kernel_tables
    from dekal.proofs._unknown import two as two

    grid = bits.pack(position.grid)
    legal = tables.LEGAL[position.variant]
    terms = np.empty((16, 16, two.TERMS), dtype=np.int32)
    floors = np.empty(11, dtype=np.int64)
    starts = np.empty(11, dtype=np.int64)
    seconds_least = np.empty((16, 11), dtype=np.int64)
    push_starts = np.empty((16, 11), dtype=np.int64)
    least = np.empty(10, dtype=np.int64)
    for cell in position.face_down:
        count = two.two_terms(
            np.uint64(grid),
            cell,
            kernel_tables.STEPS,
            kernel_tables.PUSH_COUNT,
            kernel_tables.VARIANT_CODE[position.variant],
            terms,
            floors,
            starts,
            seconds_least,
            push_starts,
        )
        assert count == len(legal[cell])
        for index, (_, step) in enumerate(legal[cell]):
            child = bits.push_grid(grid, step, first)
            other = next(c for c in range(16) if (child >> (4 * c)) & 0xF == 0)
            plain = min(
                int(bits.score_points(bits.push_grid(child, last, second)))
                for _, last in legal[other]
            )
            two.two_least(terms, index, first, least)
            assert int(least[second - 1]) == plain
            # E3's bounds: below every pair's points, whatever the pushes
            assert 0 <= int(floors[first]) <= plain
            assert int(starts[first]) + int(seconds_least[index, second]) <= plain
            # E4's, push by push: the same bound with this push's own least start
            assert int(push_starts[index, first]) + int(seconds_least[index, second]) <= plain


@FEW
@given(positions(most_unknown=3))
def test_the_singles_floor_is_its_sum_over_the_draws_and_below_the_value_U8_E5(
    position: UnknownPosition,
) -> None:
    """E5's bound, the closed formula, against its definition summed over every ordered draw
    (a final card scores when no other final card has its value) and below the brute force's
    expectation, scaled by the falling factorial (U6)."""
    import itertools
    from collections import Counter

    from dekal import bits
    from dekal.proofs._unknown import two as two
    from dekal.proofs._unknown.search import falling

    unknown = len(position.face_down)
    held = np.empty(11, dtype=np.int64)
    two.face_up(np.uint64(bits.pack(position.grid)), held)
    counts = np.array(position.unseen, dtype=np.int64)
    floor = int(two.singles_floor(held, counts, unknown))
    face_up = Counter(v for v in position.grid if v in VALUES)
    cards = [v for v in VALUES for _ in range(position.unseen[v - 1])]
    plain = 0
    for draw in itertools.permutations(range(len(cards)), unknown):
        final = face_up + Counter(cards[i] for i in draw)
        plain += sum(v for v, n in final.items() if n == 1)
    assert floor == plain
    grid, unseen = reference(position)
    scale = falling(position.unseen_total, unknown)
    assert floor <= brute.expected(grid, unseen, position.variant) * scale


E5_POSITIONS = [
    ("T133/1??1/?231/2231", "eject"),
    ("9T9?/5T5?/37?7/1T1?", "slide"),
    pytest.param("T3?4/8T43/1?8T/4?8?", "eject", marks=pytest.mark.deep),
]


@pytest.mark.parametrize(("grid", "variant"), E5_POSITIONS)
def test_the_singles_floor_changes_no_value_and_no_window_U8_E5(grid: str, variant: str) -> None:
    """The compiled search with E5 against the same search without it: the same exact value,
    and in every window a fail-soft answer (exact below the ceiling, else a bound from below
    of the exact value)."""
    from dekal.proofs._unknown.search import CompiledGame

    position = make_unknown(grid, variant=variant)

    def game(singles: bool) -> CompiledGame:
        return CompiledGame(position, Deadline(600.0), prune=True, singles=singles)

    with_e5, without = game(True), game(False)
    exact = without.expected(without.start, without.start_down)
    assert with_e5.expected(with_e5.start, with_e5.start_down) == exact
    for high in (1, exact // 2, exact - 1, exact, exact + 1, 2 * exact):
        windowed = game(True).expected(with_e5.start, with_e5.start_down, high)
        assert windowed == exact if windowed < high else exact >= windowed >= high


@FEW
@given(positions(most_unknown=3))
def test_the_singles_worst_is_its_most_over_the_draws_and_below_the_guarantee_U8_G4(
    position: UnknownPosition,
) -> None:
    """G4's bound, the dynamic programme, against its definition (the most E5's cards score
    over every draw the unseen cards allow) and below the brute force's guarantee."""
    import itertools
    from collections import Counter

    from dekal import bits
    from dekal.proofs._unknown import two as two

    unknown = len(position.face_down)
    held = np.empty(11, dtype=np.int64)
    two.face_up(np.uint64(bits.pack(position.grid)), held)
    counts = np.array(position.unseen, dtype=np.int64)
    floor = int(two.singles_worst(held, counts, unknown))
    face_up = Counter(v for v in position.grid if v in VALUES)
    cards = [v for v in VALUES for _ in range(position.unseen[v - 1])]
    plain = max(
        sum(v for v, n in (face_up + Counter(cards[i] for i in draw)).items() if n == 1)
        for draw in itertools.combinations(range(len(cards)), unknown)
    )
    assert floor == plain
    grid, unseen = reference(position)
    assert floor <= brute.guaranteed(grid, unseen, position.variant)


@pytest.mark.parametrize(("grid", "variant"), E5_POSITIONS)
def test_the_singles_worst_changes_no_guarantee_and_no_window_U8_G4(
    grid: str, variant: str
) -> None:
    """The compiled guarantee with G4 (and E5) against the same search without them: the
    same exact value, and in every window (low, high) a fail-soft answer."""
    from dekal.proofs._unknown.search import CompiledGame

    position = make_unknown(grid, variant=variant)

    def game(singles: bool) -> CompiledGame:
        return CompiledGame(position, Deadline(600.0), prune=True, singles=singles)

    without = game(False)
    exact = without.guaranteed(without.start, without.start_down)
    with_g4 = game(True)
    assert with_g4.guaranteed(with_g4.start, with_g4.start_down) == exact
    for high in (1, exact // 2, exact, exact + 1, 2 * exact):
        windowed = game(True).guaranteed_below(with_g4.start, with_g4.start_down, high)
        assert windowed == exact if windowed < high else exact >= windowed >= high
