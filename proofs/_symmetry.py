"""The square's symmetries acting on a search state (grid word, face-down set).

The rules are the same in every direction: the pushes P1 and P2 are defined by sides and
lines, not by a compass, and the score S1/S2 by orthogonal neighbours (`dekal prove --only
symmetry`). So two states that are images of each other under one of the 8 symmetries of
the square have the same best outcome for the same cards still to come, and a search need
expand only one of them (`tests/solver/test_solver_bounds.py` checks the pushes commute with them).

Which symmetries to try: any image of a state reached from a start that has no symmetry of
its own is, in practice, never reached (the cards would have to be laid out as a mirror of
themselves). When the start *is* symmetric (a symmetric grid and face-down set), every line
of play has a mirror line, and merging the two halves the work or better. So the search uses
the start's own symmetries, the `stabiliser`: for a random puzzle there is none beside the
identity and merging costs nothing.
"""

from __future__ import annotations

from functools import cache

SIZE = 4
Permutation = tuple[int, ...]
"""image[cell]: where the symmetry sends the card of each cell."""


@cache
def symmetries() -> tuple[Permutation, ...]:
    """The 8 symmetries of the square as cell permutations, the identity first."""
    turns: list[Permutation] = [tuple(range(16))]
    for _ in range(3):  # a quarter turn: (row, column) -> (column, 3 - row)
        last = turns[-1]
        turns.append(tuple(_turned(last[cell]) for cell in range(16)))
    mirrored = [tuple(_mirrored(image[cell]) for cell in range(16)) for image in turns]
    return (*turns, *mirrored)


def _turned(cell: int) -> int:
    row, column = divmod(cell, SIZE)
    return column * SIZE + (SIZE - 1 - row)


def _mirrored(cell: int) -> int:
    row, column = divmod(cell, SIZE)
    return row * SIZE + (SIZE - 1 - column)


def image(grid: int, down: int, symmetry: Permutation) -> tuple[int, int]:
    """The state after the symmetry: the card (and face) of cell c moves to symmetry[c]."""
    grid_image = down_image = 0
    for cell, target in enumerate(symmetry):
        grid_image |= ((grid >> (4 * cell)) & 0xF) << (4 * target)
        down_image |= ((down >> cell) & 1) << target
    return grid_image, down_image


def stabiliser(grid: int, down: int) -> tuple[Permutation, ...]:
    """The symmetries other than the identity that leave this state as it is."""
    return tuple(s for s in symmetries()[1:] if image(grid, down, s) == (grid, down))


def canonical(grid: int, down: int, group: tuple[Permutation, ...]) -> int:
    """One number for the state and all its images under `group`: the least of them."""
    best = grid | (down << 64)
    for symmetry in group:
        turned, faces = image(grid, down, symmetry)
        best = min(best, turned | (faces << 64))
    return best
