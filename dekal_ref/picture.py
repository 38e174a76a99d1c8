"""What a picture of Dékal shows, whatever draws it: each cell's look, and the captions.

The SVG pictures (dekal_ref.svg) and the terminal's text pictures (dekal.cli._pictures) draw
the same looks, so they cannot disagree on what a cell is. Data flows one way: notation and
state in, looks and words out; nothing reads a picture back.

A cell's state is one of:

* `face-up`: a card everybody sees;
* `face-down`: a card nobody may look at (M3); its value is shown in a full view only;
* `hole`: the cell a revealed card left (T1), until a push fills it (T4);
* `cancelled`: a card S1 removes, marked only once its grid is scored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from dekal_ref.actions import Action, PushMove, Reveal, Take
from dekal_ref.notation import HOLE, Grid, cell_name
from dekal_ref.scoring import cancelled_cells, score_grid
from dekal_ref.state import GameState, Phase
from dekal_ref.words import plural

CardState = Literal["face-up", "face-down", "hole", "cancelled"]
FACE_UP: CardState = "face-up"
FACE_DOWN: CardState = "face-down"
HOLE_STATE: CardState = "hole"
CANCELLED: CardState = "cancelled"  # a card S1 removes, once its grid is scored


@dataclass(frozen=True)
class CardLook:
    """What one cell shows: its value (None when there is none to show) and its state."""

    cell: int
    value: int | None
    state: CardState
    picked: bool = False


# --- What each cell shows ------------------------------------------------------------------


def grid_looks(
    grid: Grid,
    *,
    face_down: Iterable[int] = (),
    public: bool = False,
    scored: bool = False,
    picked: int | None = None,
) -> tuple[CardLook, ...]:
    """The sixteen cells of `grid` as drawn.

    face_down: the cells whose card is face down (M3); public: hide their values;
    scored: mark the cards S1 cancels (only face-up cards are ever scored).
    """
    down = frozenset(face_down)
    gone = cancelled_cells(grid) if scored else frozenset()
    looks = []
    for cell, value in enumerate(grid):
        if value == HOLE:
            looks.append(CardLook(cell, None, HOLE_STATE))
        elif cell in down:
            shown = None if public else value
            looks.append(CardLook(cell, shown, FACE_DOWN, picked=cell == picked and not public))
        else:
            looks.append(CardLook(cell, value, CANCELLED if cell in gone else FACE_UP))
    return tuple(looks)


def seat_looks(state: GameState, seat: int, public: bool = False) -> tuple[CardLook, ...]:
    """A seat's grid in a position: cancelled cards are marked once its round is scored."""
    return grid_looks(
        state.values(seat),
        face_down=state.face_down_cells(seat),
        public=public,
        scored=round_is_scored(state),
        picked=state.picks[seat],
    )


def round_is_scored(state: GameState) -> bool:
    """S1 is applied only after turn 16: the round is scored in phases `next` and `over`."""
    return state.phase in (Phase.NEXT_ROUND, Phase.OVER)


# --- Captions -------------------------------------------------------------------------------------


def score_caption(grid: Grid) -> list[str]:
    """S2 in words, one line or two: a grid with a hole is not a final grid."""
    score = score_grid(grid)
    lines = [f"score {score.points}, {plural(score.remaining, 'card')} left"]
    if HOLE in grid:
        lines.append("not final: it has a hole")
    return lines


def phase_caption(state: GameState) -> str:
    """What the position waits for, in words, with the rule that governs it."""
    clock = f"round {state.round}, turn {state.turn}"
    if state.phase is Phase.REVEAL:
        return f"{clock}: every seat picks a face-down card (T1)"
    if state.phase is Phase.TAKE:
        return f"{clock}: seat {state.to_act} takes a card from the centre (T3)"
    if state.phase is Phase.PUSH:
        return f"{clock}: seat {state.to_act} pushes the {state.hand} it took (T4)"
    if state.phase is Phase.NEXT_ROUND:
        return f"{clock}: the round is scored, the next round waits for its deal (M5)"
    return f"{clock}: the game is over"


def action_caption(action: Action) -> str:
    """The action in notation, and in words."""
    if isinstance(action, Reveal):
        return f"{action}: seat {action.seat} picks {cell_name(action.cell)} to reveal (T1)"
    if isinstance(action, Take):
        return f"{action}: seat {action.seat} takes a {action.card} from the centre (T3)"
    if isinstance(action, PushMove):
        return f"{action}: seat {action.seat} pushes its card in from {action.push} (T4)"
    return "deal: a new round is dealt (M3, M5)"
