"""The search's bounds (proofs/_bounds.py, proofs/_beam.py): admissible, exact at the leaves, and
a search that uses them still finds the true optimum.

The yardstick is a plain exhaustive search written here on the reference engine
(`dekal_ref.push`, `dekal_ref.scoring`): every sequence of steps, nothing pruned, no engine
word in sight. Puzzles are small (Hypothesis-generated grids over few values, one to three
steps) so that it finishes; the properties are the ones the search relies on at any size.
"""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dekal import bits, tables
from dekal.proofs import _beam as beam
from dekal.proofs import _bounds as bounds
from dekal.proofs import _symmetry as symmetry
from dekal.proofs import search
from dekal.proofs._obligations import reach as ob_reach
from dekal.proofs._obligations import symmetry as ob_symmetry
from dekal.proofs._obligations.catalogue import OBLIGATIONS
from dekal.proofs._obligations.obligation import Kernels
from dekal.proofs.puzzle import KEY_CARDS, Puzzle, make_puzzle
from dekal_ref.notation import HOLE, Push, parse_grid
from dekal_ref.push import apply_chain, legal_pushes, push_card, push_chain
from dekal_ref.scoring import score_grid

State = tuple[tuple[int, ...], frozenset[int]]


def plain_best_key(puzzle: Puzzle) -> int:
    """The least key over every sequence of steps, on the reference engine, nothing pruned."""
    level: set[State] = {(puzzle.grid, puzzle.face_down)}
    finals: set[tuple[int, ...]] = set() if puzzle.turns else {puzzle.grid}
    for step in range(puzzle.turns):
        last = step == puzzle.turns - 1
        following: set[State] = set()
        for grid, down in level:
            for cell in down:
                holed = grid[:cell] + (HOLE,) + grid[cell + 1 :]
                card = puzzle.card_for(step, grid[cell])
                for push in legal_pushes(cell, puzzle.variant):
                    after = push_card(holed, push, card, puzzle.variant)
                    if last:  # no step follows: the faces of a final grid do not matter
                        finals.add(after)
                        continue
                    following.add((after, moved_faces(down, cell, push, puzzle.variant)))
        level = following
    # many final states share a grid (only their face-down cells differ): each grid scored once
    return min(key_of(grid) for grid in finals)


@functools.cache
def face_chain(hole: int, push: Push, variant: str) -> tuple[int, ...]:
    """dekal_ref's chain of a push, asked once per hole and push (it depends on nothing else)."""
    return tuple(push_chain(hole, push, variant))


def moved_faces(down: frozenset[int], hole: int, push: Push, variant: str) -> frozenset[int]:
    """The face-down cells after the push: each face moves along the chain with its card,
    and the card that enters is face up."""
    chain = face_chain(hole, push, variant)
    faces = apply_chain([c in down for c in range(16)], chain, False)
    return frozenset(c for c, is_down in enumerate(faces) if is_down)


def key_of(grid: tuple[int, ...]) -> int:
    result = score_grid(grid)
    return result.points * KEY_CARDS + result.remaining


DOWN_AT_MOST = 10
"""Face-down cells at most in a puzzle of the most steps: 16 would cost the plain search up to
2 s per example (48³ slide leaves); every card face down still comes with fewer steps."""


@st.composite
def puzzles(draw: st.DrawFn, variant: str, most_steps: int) -> Puzzle:
    """A small puzzle: a grid over 2–6 values, some face-down cells, 1–`most_steps` steps,
    incoming cards or solo. At `most_steps` steps at most DOWN_AT_MOST cells are face down:
    the plain search's leaves grow as the face-down count to the power of the steps."""
    alphabet = draw(st.lists(st.integers(1, 10), min_size=2, max_size=6, unique=True))
    grid = draw(st.lists(st.sampled_from(alphabet), min_size=16, max_size=16))
    steps = draw(st.integers(1, most_steps))
    most_down = 16 if steps < most_steps else DOWN_AT_MOST
    down = draw(st.sets(st.integers(0, 15), min_size=steps, max_size=most_down))
    solo = draw(st.booleans())
    incoming = None
    if not solo:
        extra = draw(st.lists(st.integers(1, 10), max_size=2))
        incoming = tuple(draw(st.sampled_from(alphabet + extra)) for _ in range(steps))
    return make_puzzle(
        tuple(grid),
        incoming=incoming,
        face_down=frozenset(down),
        turns=steps,
        variant=variant,
    )


SMALL = st.one_of(puzzles("slide", 3), puzzles("eject", 2))


@given(SMALL)
def test_the_lower_bound_never_exceeds_the_best_reachable_key(puzzle: Puzzle) -> None:
    assert bounds.start_key(puzzle) <= plain_best_key(puzzle)


@given(SMALL)
def test_with_no_step_left_the_bound_is_the_score_itself(puzzle: Puzzle) -> None:
    # S1/S2 on a finished grid: a card is left exactly when no neighbour has its value
    assert bounds.lower_key(
        bits.pack(puzzle.grid), puzzle.face_down_mask, (), 0, puzzle.variant
    ) == key_of(puzzle.grid)


@given(SMALL)
def test_the_search_with_its_bounds_finds_the_plain_optimum(puzzle: Puzzle) -> None:
    answer = search.minimum(puzzle, timeout=60)
    assert answer.proved_optimal
    assert answer.points * KEY_CARDS + answer.remaining == plain_best_key(puzzle)


@given(SMALL)
def test_the_beam_reaches_what_it_claims_and_never_beats_the_optimum(puzzle: Puzzle) -> None:
    guess = beam.quick_bound(puzzle)
    assert guess.key >= plain_best_key(puzzle)
    assert search.certified(
        puzzle, guess.moves, guess.points, guess.remaining, started=0, method="beam", proof=""
    )


def test_solo_singletons_are_a_floor_the_search_meets_at_once() -> None:
    # 7, 8, 9 and T occur once each: whatever the play, they stay (S1), 34 points, 4 cards
    puzzle = make_puzzle((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 3, 4, 5, 6), turns=6)
    assert bounds.start_key(puzzle) == 34 * KEY_CARDS + 4
    answer = search.minimum(puzzle, timeout=60)
    assert (answer.points, answer.remaining, answer.proof) == (34, 4, bounds.PROOF)


def test_far_cards_count_only_under_slide() -> None:
    # two 9s at opposite corners, one step left: under slide they cannot meet; an eject
    # push can drop a corner card into the hole anywhere, so eject claims nothing
    grid = (9, 1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7, 9)
    word, up = bits.pack(grid), 0b0000_0000_0000_0010  # b1 face down, the rest face up
    assert bounds.lower_key(word, up, (1,), 1, "slide") >= 2 * (9 * KEY_CARDS + 1)
    assert bounds.lower_key(word, up, (1,), 1, "eject") < 9 * KEY_CARDS


def test_the_distance_obligation_is_proved_and_in_the_catalogue() -> None:
    (obligation,) = ob_reach.OBLIGATIONS
    assert obligation in OBLIGATIONS
    assert obligation.check(timeout=60).proved


def test_the_distance_obligation_fails_on_a_slide_table_with_a_jump() -> None:
    # hole a1's slide push L replaced by the eject push L2: d2's card jumps into a1
    legal = {v: list(tables.LEGAL[v]) for v in tables.LEGAL}
    jump = next(step for push, step in tables.LEGAL["eject"][0] if str(push) == "L2")
    legal["slide"][0] = tuple(
        (push, jump if push.side == "R" else step) for push, step in tables.LEGAL["slide"][0]
    )
    broken = replace(Kernels(), legal={v: tuple(rows) for v, rows in legal.items()})
    verdict = ob_reach.OBLIGATIONS[0].check(broken, timeout=60)
    assert not verdict.proved and "hole a1, push R" in verdict.counterexample


# -- symmetry merging (proofs/_symmetry.py) ----------------------------------------------------


def test_the_eight_symmetries_are_the_square_group_of_the_obligations() -> None:
    # generated twice, independently: here from turns and a mirror, there as a closure
    assert set(symmetry.symmetries()) == set(ob_symmetry.symmetries())
    assert symmetry.symmetries()[0] == tuple(range(16))


@given(
    st.lists(st.integers(1, 10), min_size=16, max_size=16),
    st.integers(0, 15),
    st.integers(1, 10),
    st.sampled_from(["slide", "eject"]),
    st.data(),
)
def test_every_push_has_an_image_push_under_every_symmetry(
    values: list[int], hole: int, card: int, variant: str, data: st.DataObject
) -> None:
    """P1/P2 know no compass: the image of a push's result is the result of a legal push
    into the image hole, so a state and its images have the same futures."""
    holed = tuple(HOLE if cell == hole else v for cell, v in enumerate(values))
    push = data.draw(st.sampled_from(legal_pushes(hole, variant)))
    after = push_card(holed, push, card, variant)
    for turn in symmetry.symmetries():
        mirror, _ = symmetry.image(bits.pack(holed), 0, turn)
        wanted, _ = symmetry.image(bits.pack(after), 0, turn)
        images = {
            bits.pack(push_card(tuple(bits.unpack(mirror)), other, card, variant))
            for other in legal_pushes(turn[hole], variant)
        }
        assert wanted in images


def test_a_symmetric_start_merges_mirror_states_and_keeps_the_optimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # mirrored left to right: every line of play has a mirror line
    puzzle = make_puzzle(parse_grid("1221/3443/5665/7887"), incoming=(9, 1, 3))
    merged = search.minimum(puzzle, timeout=60)
    assert merged.stats["symmetries"] == 1
    monkeypatch.setattr(symmetry, "stabiliser", lambda grid, down: ())
    plain = search.minimum(puzzle, timeout=60)
    assert merged.stats["memo_states"] < plain.stats["memo_states"]
    best = plain_best_key(puzzle)
    assert merged.points * KEY_CARDS + merged.remaining == best
    assert plain.points * KEY_CARDS + plain.remaining == best
