"""The one-line position notation for packed states (spec/notation.md, "Positions").

format_position writes its grids from the packed words and the rest of the line with the
reference's position_line, the one definition of the notation's fields. Reading a position is
notation, not rules: parse_position lets the reference read and check the text, then packs it.
`from_reference` / `to_reference` convert between the two engines' states.
"""

from __future__ import annotations

import functools

from dekal import bits
from dekal.state import FastState
from dekal_ref.position import parse_position as parse_reference_position
from dekal_ref.position import position_line
from dekal_ref.state import GameState

FACE_UP = ".123456789T"  # FACE_UP[v]: a face-up card of value v; FACE_UP[0] is the hole
FACE_DOWN = ".abcdefghij"  # FACE_DOWN[v]: a face-down card of value v (full view)


def format_grid_word(word: int, down: int, public: bool = False) -> str:
    """A grid word and its face-down mask as four rows joined by '/'."""
    hidden = "?" * 11 if public else FACE_DOWN
    symbols = [
        (hidden if down >> cell & 1 else FACE_UP)[(word >> (4 * cell)) & 0xF] for cell in range(16)
    ]
    return "/".join("".join(symbols[r : r + 4]) for r in range(0, 16, 4))


def format_position(state: FastState, public: bool = False) -> str:
    """The position as one line. public=True hides what no player may see (M3, T1)."""
    try:
        hash(state)
    except TypeError:  # a state built with a list in it: written out, not remembered
        return _position_text(state, public)
    return _remembered_position_text(state, public)


def _position_text(state: FastState, public: bool) -> str:
    grids = [format_grid_word(w, d, public) for w, d in zip(state.grids, state.down, strict=True)]
    return position_line(state, grids, public)


# A FastState is a tuple of numbers, tuples and frozen Rules: equal states write the same line,
# and a suite asks the same position again after every refused probe.
_remembered_position_text = functools.lru_cache(maxsize=4096)(_position_text)


def from_reference(state: GameState) -> FastState:
    """The packed form of a reference state (same position)."""
    grids = tuple(
        bits.pack([0 if card is None else card.value for card in cells]) for cells in state.grids
    )
    down = tuple(
        sum(1 << cell for cell, card in enumerate(cells) if card is not None and card.face_down)
        for cells in state.grids
    )
    return FastState(
        state.rules, state.round, state.turn, state.phase, state.start, grids, down, state.picks,
        state.centre, state.hand, state.pile, state.removed, state.totals,
    )  # fmt: skip


def to_reference(state: FastState) -> GameState:
    """The reference form of a packed state (same position)."""
    return state.reference()


def parse_position(text: str) -> FastState:
    """Read a full position (NotationError naming the field if malformed)."""
    return from_reference(parse_reference_position(text))
