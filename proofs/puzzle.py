"""A Dékal puzzle: one grid, perfect information, a few steps to play (rules T1, T4, P1–P2, S1–S2).

Given a grid whose sixteen values are all known, the set of its cells that are still face
down, and the cards that will come in, a *step* reveals one face-down cell (its card leaves
the grid and a hole remains, T1) and inserts the next card by a legal push (T4, P1 or P2).
Inserted cards are face up; cards that move keep their face. After the last step the grid is
scored as at the end of a round (S1, S2): the objective is the lowest score, then the fewest
cards left (S3).

In *solo* mode (the one-player game) the card revealed at a step comes straight back in: the
incoming card of a step is the card its reveal took out.

A `Puzzle` is validated when it is built: a puzzle with no legal answer is refused with a
`PuzzleError` naming the rule or field, never half-solved.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal_ref.errors import DekalError
from dekal_ref.notation import (
    CELLS,
    HOLE,
    Grid,
    Push,
    cell_name,
    format_grid,
    parse_cell,
    parse_value,
    parse_variant,
)

KEY_CARDS = 32
"""An outcome's key is points·KEY_CARDS + cards left (0..16 < 32): ordering keys is S3's order
(lowest score, then fewest cards)."""


class PuzzleError(DekalError):
    """A puzzle that has no legal answer, or a malformed part of one. `field` names the part."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True, order=True)
class Move:
    """One step of a puzzle: reveal a face-down cell (T1), then insert the card by `push` (T4)."""

    reveal: int
    push: Push

    def __str__(self) -> str:
        return f"{cell_name(self.reveal)}:{self.push}"

    def as_json(self) -> dict[str, str]:
        """`{"reveal": "b3", "push": "L"}`: the push in spec notation (eject names the line)."""
        return {"reveal": cell_name(self.reveal), "push": str(self.push)}


@dataclass(frozen=True)
class Puzzle:
    """The grid (no hole), its face-down cells, the incoming cards (None = solo), the rule.

    `turns` is the number of steps: the number of incoming cards, or in solo mode the number
    of cards revealed (default: every face-down card).
    """

    grid: Grid
    face_down: frozenset[int]
    incoming: tuple[int, ...] | None
    turns: int
    variant: str = "slide"

    def __post_init__(self) -> None:
        if len(self.grid) != len(CELLS):
            raise PuzzleError("grid", f"a grid has 16 cells, not {len(self.grid)}")
        if HOLE in self.grid:
            where = cell_name(self.grid.index(HOLE))
            raise PuzzleError(
                "grid", f"the puzzle grid has a hole at {where}: give all sixteen values (T1)"
            )
        for value in self.grid:
            _check_card(value, "grid")
        for cell in self.face_down:
            if cell not in CELLS:
                raise PuzzleError("face-down", f"{cell} is not a cell number 0..15")
        if self.variant not in ("slide", "eject"):
            raise PuzzleError("variant", f"{self.variant!r} is not a push variant: slide or eject")
        if not self.face_down:
            raise PuzzleError(
                "face-down",
                "no face-down cell left: a step must reveal one (T1), so nothing can be played",
            )
        if self.incoming is not None:
            for value in self.incoming:
                _check_card(value, "incoming")
            if len(self.incoming) != self.turns:
                raise PuzzleError(
                    "turns",
                    f"{self.turns} turns but {len(self.incoming)} incoming cards: "
                    "each step inserts exactly one card (T4)",
                )
        if self.turns < 1:
            raise PuzzleError("turns", "a puzzle needs at least one step (one incoming card)")
        if self.turns > len(self.face_down):
            what = "incoming cards" if self.incoming is not None else "turns"
            raise PuzzleError(
                "turns",
                f"{self.turns} {what} but only {len(self.face_down)} face-down cells: "
                "each step reveals one face-down card first (T1)",
            )

    @property
    def solo(self) -> bool:
        return self.incoming is None

    @property
    def face_down_mask(self) -> int:
        """The face-down cells as a 16-bit set: bit i for cell i."""
        return sum(1 << cell for cell in self.face_down)

    def card_for(self, step: int, revealed: int) -> int:
        """The card inserted at `step` (0-based) when the reveal took out `revealed`."""
        return revealed if self.incoming is None else self.incoming[step]

    def values(self) -> tuple[int, ...]:
        """Every card value that can ever be in the grid, ascending."""
        return tuple(sorted(set(self.grid) | set(self.incoming or ())))

    def describe(self) -> str:
        """One line: grid, face-down cells, cards, variant."""
        down = (
            "all"
            if len(self.face_down) == len(CELLS)
            else ",".join(cell_name(c) for c in sorted(self.face_down))
        )
        cards = (
            f"solo, {self.turns} turns"
            if self.incoming is None
            else "incoming " + ",".join(str(v) for v in self.incoming)
        )
        return f"{format_grid(self.grid)}  face down: {down}  {cards}  ({self.variant})"


def _check_card(value: int, field: str) -> None:
    if not isinstance(value, int) or not 1 <= value <= 10:
        raise PuzzleError(field, f"{value!r} is not a card: values are 1 to 10 (M1)")


def parse_cards(text: str) -> tuple[int, ...]:
    """`7,3,T` -> (7, 3, 10). Commas or spaces separate the cards; T or 10 is ten."""
    tokens = [token for token in text.replace(",", " ").split() if token]
    if not tokens:
        raise PuzzleError("incoming", "no card given: write the cards like 7,3,3 (T for ten)")
    cards: list[int] = []
    for token in tokens:
        try:
            cards.append(parse_value(token, "incoming"))
        except DekalError as error:
            raise PuzzleError(
                "incoming", f"{token!r} is not a card value: write 1–9, or T (or 10) for ten (M1)"
            ) from error
    return tuple(cards)


def parse_cells(text: str) -> frozenset[int]:
    """`a1,b3,d4` -> the cells; `all` -> every cell; `none` or empty -> no cell."""
    token = text.strip().lower()
    if token == "all":
        return frozenset(CELLS)
    if token in ("", "none", "-"):
        return frozenset()
    cells: set[int] = set()
    for name in token.replace(",", " ").split():
        try:
            cells.add(parse_cell(name))
        except DekalError as error:
            raise PuzzleError(
                "face-down", f"{name!r} is not a cell: write a column a–d and a row 1–4, like b3"
            ) from error
    return frozenset(cells)


def make_puzzle(
    grid: Grid,
    *,
    incoming: tuple[int, ...] | None = None,
    face_down: frozenset[int] | None = None,
    turns: int | None = None,
    variant: str = "slide",
) -> Puzzle:
    """Build a validated puzzle. `incoming=None` is solo mode, whose turns default to every
    face-down card."""
    down = frozenset(CELLS) if face_down is None else face_down
    try:
        rule = parse_variant(variant.strip().lower())
    except DekalError as error:
        raise PuzzleError(
            "variant", f"{variant!r} is not a push variant: slide or eject"
        ) from error
    if incoming is not None:
        steps = len(incoming) if turns is None else turns
    else:
        steps = len(down) if turns is None else turns
    return Puzzle(grid=tuple(grid), face_down=down, incoming=incoming, turns=steps, variant=rule)
