"""Notation for cells, card values, grids and pushes (spec/notation.md).

* A cell is a column letter a–d (left to right) and a row digit 1–4 (top to bottom):
  `a1` is the top-left cell. Cells are numbered 0..15 in reading order (a1=0, b1=1, …, d4=15).
* A card value is `1`–`9` or `T` for ten. A hole is `.`.
* A grid is four rows joined by `/`, four cells each: `53T2/1.44/9999/TT11`.
* A push is the entry side `L`, `R`, `T` or `B`; with the eject variant, the side and the
  line (row number for L/R, column number for T/B): `L2`, `T4`.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal_ref.errors import NotationError
from dekal_ref.reading import shown
from dekal_ref.words import plural

HOLE = 0
SIZE = 4
CELLS = tuple(range(SIZE * SIZE))
COLUMNS = "abcd"
ROW_DIGITS = "1234"
CELL_NAMES = tuple(f"{COLUMNS[i % SIZE]}{ROW_DIGITS[i // SIZE]}" for i in CELLS)
SIDES = ("L", "R", "T", "B")
VARIANTS = ("slide", "eject")
FIRST_RULES = ("lowest", "chosen")

Grid = tuple[int, ...]
"""Sixteen card values in reading order; HOLE (0) marks the hole."""


def row_of(cell: int) -> int:
    return cell // SIZE


def column_of(cell: int) -> int:
    return cell % SIZE


def cell_at(row: int, column: int) -> int:
    return row * SIZE + column


def parse_cell(text: str) -> int:
    """`b3` -> 9. Raises NotationError(field="cell") on anything else."""
    name = text.strip().lower()
    if name not in CELL_NAMES:
        raise NotationError(
            "cell", f"{shown(text)} is not a cell: write a column a–d and a row 1–4, like b3"
        )
    return CELL_NAMES.index(name)


def cell_name(cell: int) -> str:
    return CELL_NAMES[cell]


def value_symbol(value: int) -> str:
    """1–9 as digits, ten as T, the hole as '.'."""
    if value == HOLE:
        return "."
    if value == 10:
        return "T"
    return str(value)


def parse_value(text: str, field: str = "card") -> int:
    """A card value: 1–9, T (or 10) for ten."""
    token = text.strip().upper()
    if token in ("T", "10"):
        return 10
    if len(token) == 1 and token in "123456789":
        return int(token)
    raise NotationError(field, f"{shown(text)} is not a card value: write 1–9, or T for ten")


def parse_grid(text: str, *, allow_hole: bool = True) -> Grid:
    """Parse `53T2/1.44/9999/TT11` into sixteen values (hole = 0).

    At most one hole: a grid has one only between a reveal and the push that fills it.
    """
    rows = text.strip().split("/")
    if len(rows) != SIZE:
        raise NotationError(
            "grid", f"{shown(text)} has {plural(len(rows), 'row')}; a grid is 4 rows joined by '/'"
        )
    values: list[int] = []
    for number, row in enumerate(rows, start=1):
        if len(row) != SIZE:
            raise NotationError(
                "grid",
                f"row {number} of {shown(text)} is {shown(row)}:"
                " a row is exactly 4 cells (1–9, T, .)",
            )
        for column, symbol in enumerate(row):
            if symbol == ".":
                values.append(HOLE)
            elif symbol.upper() == "T" or symbol in "123456789":
                values.append(parse_value(symbol))
            else:
                where = CELL_NAMES[cell_at(number - 1, column)]
                raise NotationError(
                    "grid",
                    f"cell {where} of {shown(text)} is {symbol!r}: a cell is 1–9, T for ten, or .",
                )
    holes = values.count(HOLE)
    if holes > 1 or (holes and not allow_hole):
        allowed = "at most one hole" if allow_hole else "no hole"
        said = f"{shown(text)} has {plural(holes, 'hole')}; a grid has {allowed}"
        raise NotationError("grid", said)
    return tuple(values)


def format_grid(grid: Grid) -> str:
    return "/".join(
        "".join(value_symbol(grid[cell_at(row, column)]) for column in range(SIZE))
        for row in range(SIZE)
    )


@dataclass(frozen=True, order=True)
class Push:
    """Where a card enters a grid: a side, and (eject variant) the line it pushes.

    `line` is 1–4: a row number for L/R, a column number for T/B. None means the hole's line
    (the only line a slide push can use, rule P1).
    """

    side: str
    line: int | None = None

    def __str__(self) -> str:
        return self.side if self.line is None else f"{self.side}{self.line}"


def parse_push(text: str) -> Push:
    """`L` -> Push('L'); `T4` -> Push('T', 4). Raises NotationError(field="push")."""
    token = text.strip().upper()
    if not token or token[0] not in SIDES or len(token) > 2:
        raise NotationError(
            "push",
            f"{shown(text)} is not a push: write a side L, R, T or B"
            " (eject variant: plus a line 1–4, like L2)",
        )
    if len(token) == 1:
        return Push(token[0])
    if token[1] not in ROW_DIGITS:
        raise NotationError("push", f"{shown(text)}: the line after the side is 1–4")
    return Push(token[0], int(token[1]))


def parse_variant(text: str, field: str = "variant") -> str:
    """The push rule: `slide` (P1) or `eject` (P2), written exactly so (spec/notation.md,
    "Actions": `SLIDE` or ` slide` is no variant; the command line folds case before it asks)."""
    if text not in VARIANTS:
        raise NotationError(field, f"{shown(text)} is not a push variant: slide or eject")
    return text


def parse_first_rule(text: str, field: str = "first") -> str:
    """The first-player rule: `lowest` (F1–F2) or `chosen` (F3)."""
    if text not in FIRST_RULES:
        raise NotationError(field, f"{shown(text)} is not a first-player rule: lowest or chosen")
    return text
