"""The compiled search (dekal.kernel._search, driven by proofs.compiled_search) is the Python
search of proofs.search compiled: the same bound, the same optima.

Three paths are compared: the kernel's `lower_key` with proofs.bounds.lower_key on random
states; the compiled search's optimum with the plain exhaustive search on the reference engine
(tests/test_solver_bounds.plain_best_key) on small puzzles; and the compiled search with the
Python search on puzzles of four and five steps, where the kernel is what `dekal solve` runs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_solver_bounds import plain_best_key, puzzles

from dekal import bits
from dekal.kernel import _search as kernel_search
from dekal.proofs import _beam as beam
from dekal.proofs import _bounds as bounds
from dekal.proofs import search
from dekal.proofs._answer import Answer
from dekal.proofs._replay import replay
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import KEY_CARDS, Move, Puzzle, make_puzzle
from dekal_ref.notation import HOLE, parse_grid
from dekal_ref.push import legal_pushes, push_card
from dekal_ref.scoring import score_grid


def key(answer: Answer) -> int:
    return answer.points * KEY_CARDS + answer.remaining


def coming_counts(coming: tuple[int, ...] | None) -> np.ndarray:
    counts = np.zeros(kernel_search.VALUES, np.int64)
    for value in coming or ():
        counts[value] += 1
    return counts


def both_searches(puzzle: Puzzle, first: Move | None = None) -> tuple[Answer, Answer]:
    """The compiled and the Python search's answers, both warm-started from one beam: each
    would run that same beam (proofs.beam, pure Python, most of a small search's time)."""
    warm = beam.quick_bound(puzzle, first=first)
    compiled = search.minimum(puzzle, timeout=120, first=first, warm=warm, compiled=True)
    python = search.minimum(puzzle, timeout=120, first=first, warm=warm, compiled=False)
    return compiled, python


@settings(max_examples=300)
@given(
    st.lists(st.integers(1, 10), min_size=16, max_size=16),
    st.integers(0, 0xFFFF),
    st.data(),
    st.sampled_from(["slide", "eject"]),
    st.booleans(),
)
def test_the_compiled_lower_bound_is_proofs_bounds_lower_key(
    values: list[int], down: int, data: st.DataObject, variant: str, solo: bool
) -> None:
    """kernel_search.lower_key == bounds.lower_key on any full grid, face-down set, cards
    still to come and steps left (at most one per face-down card)."""
    steps = data.draw(st.integers(0, down.bit_count()))
    coming = (
        None
        if solo
        else tuple(data.draw(st.lists(st.integers(1, 10), min_size=steps, max_size=steps)))
    )
    grid = bits.pack(tuple(values))
    wanted = bounds.lower_key(grid, down, coming, steps, variant)
    got = kernel_search.lower_key(
        np.uint64(grid), down, coming_counts(coming), steps, variant == "slide", solo
    )
    assert got == wanted


@settings(max_examples=60, deadline=None)
@given(  # the plain search enumerates every leaf: three slide or two eject steps at most
    st.sampled_from([("slide", 3), ("eject", 2)]).flatmap(lambda kind: puzzles(*kind))
)
def test_the_compiled_search_finds_the_plain_exhaustive_optimum(puzzle: Puzzle) -> None:
    """S3: the least (points, cards) over every sequence of steps, and a witness that replays
    on the reference engine to it."""
    answer = search.minimum(puzzle, timeout=60, compiled=True)
    assert answer.proved_optimal
    assert key(answer) == plain_best_key(puzzle)
    assert answer.stats["compiled"] == 1.0
    final = replay(puzzle, answer.moves)
    assert (final.points, final.remaining) == (answer.points, answer.remaining)


@st.composite
def hard_puzzles(draw: st.DrawFn) -> Puzzle:
    """Puzzles the bounds rarely close at once: 8–10 values, 4 slide or 3 eject steps."""
    variant, steps = draw(st.sampled_from([("slide", 4), ("eject", 3)]))
    alphabet = draw(st.lists(st.integers(1, 10), min_size=8, max_size=10, unique=True))
    grid = tuple(draw(st.lists(st.sampled_from(alphabet), min_size=16, max_size=16)))
    down = draw(st.sets(st.integers(0, 15), min_size=steps + 2, max_size=16))
    incoming = tuple(draw(st.lists(st.sampled_from(alphabet), min_size=steps, max_size=steps)))
    return make_puzzle(grid, incoming=incoming, face_down=frozenset(down), variant=variant)


@settings(max_examples=15, deadline=None)  # x20 under the deep profile
@given(hard_puzzles())
def test_the_compiled_and_python_searches_agree_on_generated_puzzles(puzzle: Puzzle) -> None:
    """Two searches over the same states with different orders, memos and bounds one step
    from the end: the same optimum, every time."""
    compiled, python = both_searches(puzzle)
    assert compiled.proved_optimal and python.proved_optimal
    assert key(compiled) == key(python)


LARGER = [
    ("1112/3131/1435/2435", (5, 3, 1, 4), "slide"),
    ("8T31/2665/9247/366T", (6, 2, 7, 7), "slide"),
    ("7448/3896/251T/T921", (2, 3, 4, 10), "slide"),
    ("1234/5678/9T12/3456", (7, 8, 9), "eject"),
    ("6123/4495/7829/17T8", (2, 2, 1, 4, 7), "slide"),
]


@pytest.mark.parametrize(("grid", "incoming", "variant"), LARGER)
def test_the_compiled_and_python_searches_agree_on_the_optimum(
    grid: str, incoming: tuple[int, ...], variant: str
) -> None:
    puzzle = make_puzzle(parse_grid(grid), incoming=incoming, variant=variant)
    compiled, python = both_searches(puzzle)
    assert compiled.proved_optimal and python.proved_optimal
    assert key(compiled) == key(python)


def test_a_solo_puzzle_is_searched_with_the_revealed_card_coming_back() -> None:
    """Solo: each step's incoming card is the card its reveal took out."""
    puzzle = make_puzzle(parse_grid("1221/3443/5665/7817"), turns=4)
    compiled, python = both_searches(puzzle)
    assert compiled.proved_optimal and key(compiled) == key(python)


@pytest.mark.parametrize("bound", [0, 3, 8, 20])
def test_at_most_answers_as_the_python_search_does(bound: int) -> None:
    puzzle = make_puzzle(parse_grid("1112/3131/1435/2435"), incoming=(5, 3, 1, 4))
    compiled = search.at_most(puzzle, bound, timeout=60, compiled=True)
    python = search.at_most(puzzle, bound, timeout=60, compiled=False)
    assert (compiled is None) == (python is None)
    if compiled is not None:
        assert compiled.points <= bound
        final = replay(puzzle, compiled.moves)
        assert final.points == compiled.points


def test_a_fixed_first_move_is_kept_and_its_best_outcome_found() -> None:
    """rank asks the best outcome after each first move: the witness starts with that move."""
    puzzle = make_puzzle(parse_grid("8T31/2665/9247/366T"), incoming=(6, 2, 7, 7))
    for move in search.first_moves(puzzle)[:6]:
        compiled, python = both_searches(puzzle, first=move)
        assert compiled.moves[0] == move
        assert key(compiled) == key(python)


def test_a_full_memo_table_only_costs_time() -> None:
    """A state the table has no room for is expanded again: the optimum is unchanged."""
    puzzle = make_puzzle(parse_grid("1112/3131/1435/2435"), incoming=(5, 3, 1, 4))
    wanted = key(search.minimum(puzzle, timeout=60, compiled=False))
    stack = kernel_search.Stack(
        bits.pack(puzzle.grid),
        puzzle.face_down_mask,
        puzzle.incoming,
        puzzle.turns,
        puzzle.variant,
        best_key=1 << 30,
        best_path=None,
        stop_below=1,
        memo_bits=3,  # eight slots: full at once
    )
    while stack.advance(10_000) == kernel_search.RUNNING:
        pass
    assert stack.best_key == wanted
    assert stack.count(kernel_search.MEMO) <= 8


@pytest.fixture
def compiled_already() -> None:
    """The kernel compiled before the clock starts: a first compile (seconds, once per cache)
    happens inside a slice, where no deadline can stop it."""
    search.minimum(make_puzzle(parse_grid("1112/3131/1435/2435"), incoming=(5,)), compiled=True)


@pytest.mark.usefixtures("compiled_already")
def test_the_compiled_search_stops_at_its_deadline_with_its_best_leaf_unproved() -> None:
    puzzle = make_puzzle(parse_grid("1234/5678/9T12/3456"), incoming=(7, 8, 9, 10), variant="eject")
    deadline = Deadline(0.3)
    answer = search.minimum(puzzle, deadline=deadline, compiled=True)
    assert not answer.proved_optimal
    assert answer.seconds < 3
    final = replay(puzzle, answer.moves)
    assert (final.points, final.remaining) == (answer.points, answer.remaining)


@pytest.mark.usefixtures("compiled_already")
def test_a_cancelled_deadline_stops_the_compiled_search_at_its_next_slice() -> None:
    """The portfolio cancels the loser's deadline: the search must notice between slices."""
    puzzle = make_puzzle(parse_grid("1234/5678/9T12/3456"), incoming=(7, 8, 9, 10), variant="eject")
    deadline = Deadline(60)
    deadline.cancel()
    answer = search.minimum(puzzle, deadline=deadline, compiled=True)
    assert not answer.proved_optimal
    assert answer.seconds < 3


def test_moves_are_named_as_in_the_legal_tables() -> None:
    puzzle = make_puzzle(parse_grid("1112/3131/1435/2435"), incoming=(5, 3, 1, 4))
    answer = search.minimum(puzzle, timeout=60, compiled=True)
    assert all(isinstance(move, Move) for move in answer.moves)
    assert len(answer.moves) == puzzle.turns


def one_step_leaves(grid: tuple[int, ...], down: int, card: int | None, variant: str) -> list[int]:
    """The key of every leaf one step below, on the reference engine (card None: solo, the
    revealed card comes back in)."""
    leaves = []
    for hole in (cell for cell in range(16) if (down >> cell) & 1):
        holed = grid[:hole] + (HOLE,) + grid[hole + 1 :]
        incoming = grid[hole] if card is None else card
        for push in legal_pushes(hole, variant):
            result = score_grid(push_card(holed, push, incoming, variant))
            leaves.append(result.points * KEY_CARDS + result.remaining)
    return leaves


LAST_STEP_BOUNDS = {"slide": kernel_search.last_slide_key, "eject": kernel_search.last_eject_key}


@pytest.mark.parametrize("variant", ["slide", "eject"])
@settings(max_examples=300)
@given(
    st.lists(st.integers(1, 10), min_size=16, max_size=16),
    st.integers(1, 0xFFFF),
    st.integers(1, 10),
    st.booleans(),
)
def test_the_last_step_bound_never_exceeds_a_leaf_one_step_below(
    variant: str, values: list[int], down: int, card: int, solo: bool
) -> None:
    """T1, P1/P2, S1: one slide step changes one line only, one eject step one line and the
    hole, so a card beside no changed cell keeps its neighbours. The bound is at most the
    best of every one-step leaf, played on the reference engine."""
    grid = tuple(values)
    bound = LAST_STEP_BOUNDS[variant](np.uint64(bits.pack(grid)), down)
    assert bound <= min(one_step_leaves(grid, down, None if solo else card, variant))


def test_the_last_slide_step_bound_counts_a_lone_card_far_from_every_open_line() -> None:
    """Only column a holds a face-down card: d4's T touches no equal card and is neither in
    column a nor beside it, so it is left whatever the last step does."""
    grid = parse_grid("1122/3344/5566/778T")
    down = 1 << 0  # a1 only
    assert kernel_search.last_slide_key(np.uint64(bits.pack(grid)), down) >= 10 * KEY_CARDS + 1


def test_the_last_eject_step_bound_counts_a_lone_card_away_from_every_line_and_hole() -> None:
    """Three cards touch no equal card: d1's 9, a4's 8 and d4's T, in three corners; only b3
    is face down. No line together with b3 and the cells beside them reaches all three, so
    at least the 8 is left whatever the last step does."""
    grid = parse_grid("1149/3344/5566/877T")
    b3 = 9
    assert kernel_search.last_eject_key(np.uint64(bits.pack(grid)), 1 << b3) == 8 * KEY_CARDS + 1
