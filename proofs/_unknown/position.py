"""A solo position whose face-down cards are unknown (spec/solo-unknown.md, U1–U3).

The grid is written as the public view shows it: `?` for a face-down card, 1–9 and T for
the face-up ones (`5T3?/1?44/9999/TT11`). The *unseen* cards are the multiset the face-down
values are drawn from (U2): by default the 100-card deck (M1) less the grid's face-up cards,
or a multiset the caller gives (`--unseen 1,1,5,T`). A position is validated when it is
built: a bad one is refused with a `PuzzleError` naming the field, never half-solved.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal.proofs.puzzle import PuzzleError, parse_cards
from dekal_ref.errors import DekalError
from dekal_ref.notation import CELL_NAMES, SIZE, cell_at, parse_variant
from dekal_ref.reading import shown
from dekal_ref.words import plural

UNKNOWN = 0
"""The value kept for a face-down cell: unknown (its nibble in a grid word is 0)."""
VALUES = tuple(range(1, 11))
COPIES = 10
"""Cards of each value in the deck (M1)."""

Counts = tuple[int, ...]
"""How many unseen cards of each value: counts[v - 1] for v = 1..10."""


@dataclass(frozen=True)
class UnknownPosition:
    """A grid (UNKNOWN for `?`), the unseen multiset, the push rule (P1 or P2)."""

    grid: tuple[int, ...]
    unseen: Counts
    variant: str = "slide"

    @property
    def face_down(self) -> tuple[int, ...]:
        """The `?` cells, in reading order."""
        return tuple(cell for cell, value in enumerate(self.grid) if value == UNKNOWN)

    @property
    def face_down_mask(self) -> int:
        return sum(1 << cell for cell in self.face_down)

    @property
    def unseen_total(self) -> int:
        return sum(self.unseen)

    def describe(self) -> str:
        """One line: the grid, how many unknown cells, the unseen cards, the rule."""
        unseen = ",".join(_symbol(v) for v in VALUES for _ in range(self.unseen[v - 1]))
        shown_unseen = unseen if len(unseen) <= 40 else f"{self.unseen_total} cards"
        return (
            f"{format_unknown_grid(self.grid)}  {len(self.face_down)} unknown  "
            f"unseen {shown_unseen}  ({self.variant})"
        )


def _symbol(value: int) -> str:
    return "?" if value == UNKNOWN else ("T" if value == 10 else str(value))


def format_unknown_grid(grid: tuple[int, ...]) -> str:
    """The public-view notation: `?` for a face-down card."""
    return "/".join(
        "".join(_symbol(grid[cell_at(row, column)]) for column in range(SIZE))
        for row in range(SIZE)
    )


def parse_unknown_grid(text: str) -> tuple[int, ...]:
    """`5T3?/1?44/9999/TT11` -> sixteen values, UNKNOWN for each `?` (field "grid")."""
    rows = text.strip().split("/")
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise PuzzleError(
            "grid", f"{shown(text)} is not 4 rows of 4 cells joined by '/' (1–9, T, or ? face down)"
        )
    values: list[int] = []
    for number, row in enumerate(rows):
        for column, symbol in enumerate(row):
            if symbol == "?":
                values.append(UNKNOWN)
            elif symbol.upper() == "T" or symbol in "123456789":
                values.append(10 if symbol.upper() == "T" else int(symbol))
            else:
                where = CELL_NAMES[cell_at(number, column)]
                raise PuzzleError(
                    "grid",
                    f"cell {where} is {symbol!r}: a cell is 1–9, T for ten, or ? (face down)",
                )
    return tuple(values)


def deck_less(grid: tuple[int, ...]) -> Counts:
    """U2's default unseen multiset: the deck (ten of each value, M1) less the face-up cards."""
    return tuple(COPIES - grid.count(value) for value in VALUES)


def parse_unseen(text: str) -> Counts:
    """`1,1,5,T` -> the counts of each value (field "unseen")."""
    try:
        cards = parse_cards(text)
    except PuzzleError as error:
        raise PuzzleError("unseen", error.message.replace("incoming", "unseen")) from error
    return tuple(cards.count(value) for value in VALUES)


def make_unknown(
    grid_text: str, *, unseen: str | None = None, variant: str = "slide"
) -> UnknownPosition:
    """The validated position of a grid with `?` cells (U1) and its unseen multiset (U2)."""
    grid = parse_unknown_grid(grid_text)
    try:
        rule = parse_variant(variant)
    except DekalError as error:
        raise PuzzleError(
            "variant", f"{shown(variant)} is not a push variant: slide or eject"
        ) from error
    down = grid.count(UNKNOWN)
    if down == 0:
        raise PuzzleError(
            "grid", "no face-down cell (?): a step must reveal one (T1), so nothing is left to play"
        )
    for value in VALUES:
        if grid.count(value) > COPIES:
            raise PuzzleError(
                "grid",
                f"{grid.count(value)} face-up cards of {_symbol(value)}: "
                f"the deck has {COPIES} (M1)",
            )
    counts = deck_less(grid) if unseen is None else parse_unseen(unseen)
    for value in VALUES:
        if grid.count(value) + counts[value - 1] > COPIES:
            raise PuzzleError(
                "unseen",
                f"{counts[value - 1]} unseen cards of {_symbol(value)} and "
                f"{grid.count(value)} face up: the deck has {COPIES} of each value (M1)",
            )
    if sum(counts) < down:
        raise PuzzleError(
            "unseen",
            f"{plural(sum(counts), 'unseen card')} for {plural(down, 'face-down cell')}: "
            "every face-down card is one "
            "of the unseen cards (U2)",
        )
    return UnknownPosition(grid=grid, unseen=counts, variant=rule)
