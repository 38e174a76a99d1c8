"""Text pictures of grids and positions for the terminal, from the cell looks of dekal_ref.picture.

Each cell is three characters, so a picture reads the same without colour:

     a   b   c   d
  1  5   T   3   2        5   a face-up card
  2 (1)  .  [4] [4]      (1)  a face-down card, its value shown (full view)
  3  ?   ?   ?   ?        ?   a face-down card in a public view (M3)
                          .   the hole;  [4]  a card S1 cancels

No line ends in a space. Pictures of several seats go side by side, in as many rows as the
terminal's width needs (side_by_side).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from dekal_ref.notation import SIZE, Grid, value_symbol
from dekal_ref.picture import (
    CANCELLED,
    FACE_DOWN,
    FACE_UP,
    HOLE_STATE,
    CardLook,
    grid_looks,
    phase_caption,
    round_is_scored,
    seat_looks,
)
from dekal_ref.scoring import score_grid
from dekal_ref.state import GameState
from dekal_ref.words import plural

HIDDEN = "hidden"  # a face-down card in a public view: no value to show

FORMS = {
    # state: (left mark, right mark, style)
    FACE_UP: (" ", " ", "bold"),
    CANCELLED: ("[", "]", "strike dim"),
    FACE_DOWN: ("(", ")", "italic"),
    HOLE_STATE: (" ", " ", "dim"),
}
MEANINGS = {
    CANCELLED: "[x] cancelled (S1)",
    FACE_DOWN: "(x) face down",
    HIDDEN: "? face down, unseen (M3)",
    HOLE_STATE: ". the hole",
}


def _symbol(look: CardLook) -> str:
    if look.state == HOLE_STATE:
        return "."
    if look.value is None:
        return "?"
    return value_symbol(look.value)


def looks_picture(looks: Sequence[CardLook], title: str = "") -> Text:
    """A 4×4 picture with column letters and row digits (see the module docstring)."""
    text = Text()
    if title:
        text.append(title + "\n", style="bold")
    text.append("     a   b   c   d\n", style="dim")
    for row in range(SIZE):
        line = Text(f"  {row + 1} ", style="dim")
        for look in looks[row * SIZE : row * SIZE + SIZE]:
            left, right, style = FORMS[look.state]
            if look.state == FACE_DOWN and look.value is None:
                left, right = " ", " "  # a hidden card: the ? says it all
            line.append(f"{left}{_symbol(look)}{right}", style=style)
            line.append(" ")
        line.rstrip()
        text.append_text(line)
        text.append("\n")
    return text


def grid_picture(
    grid: Grid,
    marked: Iterable[int] = frozenset(),
    title: str = "",
    face_down: Iterable[int] = frozenset(),
) -> Text:
    """A grid's picture; `marked` cells are the cancelled ones, `face_down` the hidden ones."""
    gone = frozenset(marked)
    looks = [
        CardLook(look.cell, look.value, CANCELLED) if look.cell in gone else look
        for look in grid_looks(grid, face_down=face_down)
    ]
    return looks_picture(looks, title)


def legend(looks: Iterable[CardLook]) -> str:
    """One line naming the marks a picture uses, or '' when it uses none."""
    marks = {HIDDEN if look.state == FACE_DOWN and look.value is None else look.state
             for look in looks}  # fmt: skip
    return "  ".join(meaning for mark, meaning in MEANINGS.items() if mark in marks)


def side_by_side(pictures: Sequence[Text], width: int, gap: int = 4) -> Text:
    """The pictures in rows as wide as `width` allows: all in one row when they fit, else as
    many per row as fit (at least one), rows apart by a blank line.

    Each picture, and the result, ends with a newline; no line ends in a space.
    """
    rows: list[list[Text]] = []
    used = width + 1  # no row yet
    for picture in pictures:
        picture_width = _width(picture)
        if rows and used + gap + picture_width <= width:
            rows[-1].append(picture)
            used += gap + picture_width
        else:
            rows.append([picture])
            used = picture_width
    return Text("\n").join(_one_row(row, gap) for row in rows)


def _width(picture: Text) -> int:
    return max((line.cell_len for line in picture.split("\n")), default=0)


def _one_row(pictures: Sequence[Text], gap: int) -> Text:
    """Pictures next to each other, their lines joined across."""
    if len(pictures) == 1:
        return pictures[0]
    blocks = [picture.split("\n") for picture in pictures]
    widths = [_width(picture) for picture in pictures]
    joined = Text()
    for row in range(max(len(block) for block in blocks)):
        line = Text()
        for block, block_width in zip(blocks, widths, strict=True):
            part = block[row].copy() if row < len(block) else Text()
            part.pad_right(block_width + gap - part.cell_len)
            line.append_text(part)
        line.rstrip()
        joined.append_text(line)
        joined.append("\n")
    return joined


def seat_picture(state: GameState, seat: int, public: bool) -> Text:
    """One seat's grid in a position, with its score once the round is scored."""
    title = f"  seat {seat}" + (" (token)" if state.token == seat else "")
    picture = looks_picture(seat_looks(state, seat, public), title)
    if round_is_scored(state):
        score = score_grid(state.values(seat))
        points, left = plural(score.points, "point"), plural(score.remaining, "card")
        picture.append(f"  {points}\n  {left} left\n")
    return picture


def position_picture(state: GameState, public: bool, width: int) -> Text:
    """Every seat of a position, side by side when `width` allows, under its phase."""
    text = Text(phase_caption(state) + "\n", style="bold")
    seats = [seat_picture(state, seat, public) for seat in range(state.players)]
    text.append_text(side_by_side(seats, width))
    centre = " ".join(value_symbol(card) for card in state.centre) or "empty"
    pile = plural(len(state.pile), "card") if state.pile else "empty"
    text.append(f"centre: {centre}   set-aside pile: {pile}\n")
    if state.rules.threshold is not None:
        totals = ", ".join(str(total) for total in state.totals)
        text.append(f"totals: {totals} (threshold {state.rules.threshold})\n")
    looks = [look for seat in range(state.players) for look in seat_looks(state, seat, public)]
    if marks := legend(looks):
        text.append(marks + "\n", style="dim")
    return text
