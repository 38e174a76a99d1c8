"""Actions as values, their notation, and the legal ones in a state (rules T1–T4, M5).

Action notation (spec/notation.md): `reveal SEAT CELL`, `take SEAT CARD`, `push SEAT PUSH`,
for example `reveal 0 b3`, `take 2 T`, `push 2 L3`. A new round of a match is `deal`, with
the deal itself given alongside (see dekal_ref.record).
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal_ref import game
from dekal_ref.deal import Deal
from dekal_ref.errors import NotationError
from dekal_ref.notation import (
    Push,
    cell_name,
    parse_cell,
    parse_push,
    parse_value,
    value_symbol,
)
from dekal_ref.push import hole_of, legal_pushes
from dekal_ref.reading import SEAT_MAX, read_number, shown
from dekal_ref.state import GameState, Phase


@dataclass(frozen=True)
class Reveal:
    seat: int
    cell: int

    def __str__(self) -> str:
        return f"reveal {self.seat} {cell_name(self.cell)}"


@dataclass(frozen=True)
class Take:
    seat: int
    card: int

    def __str__(self) -> str:
        return f"take {self.seat} {value_symbol(self.card)}"


@dataclass(frozen=True)
class PushMove:
    seat: int
    push: Push

    def __str__(self) -> str:
        return f"push {self.seat} {self.push}"


@dataclass(frozen=True)
class NewRound:
    deal: Deal

    def __str__(self) -> str:
        return "deal"


Action = Reveal | Take | PushMove | NewRound


def parse_action_words(text: str) -> tuple[str, int, str]:
    """The verb, the seat and the argument of an action, the seat read as a number (0–99).

    NotationError with field "action" (not three words, an unknown verb) or "seat"."""
    # three words and single spaces (spec/notation.md, "Actions"): a double, leading or
    # trailing space, or a tab, leaves an empty or spaced word; a fourth piece is too many
    words = text.split(" ", 3)
    spaced = any(not word or any(symbol.isspace() for symbol in word) for word in words)
    if len(words) != 3 or spaced or words[0] not in ("reveal", "take", "push"):
        raise NotationError(
            "action",
            f"{shown(text)} is not an action: write 'reveal SEAT CELL', 'take SEAT CARD'"
            " or 'push SEAT SIDE'",
        )
    verb, seat_text, argument = words
    if len(seat_text) > 1 and seat_text.startswith("0"):
        # seats are written without a leading zero (spec/notation.md): `01` is not a seat
        raise NotationError("seat", f"{shown(seat_text)} is not a seat number (0, 1, 2, …)")
    return verb, read_number(seat_text, "seat", most=SEAT_MAX), argument


def parse_action(text: str) -> Action:
    """`reveal 0 b3`, `take 1 7`, `push 1 L2` (NotationError with field "action" otherwise)."""
    verb, seat, argument = parse_action_words(text)
    if verb == "reveal":
        return Reveal(seat, parse_cell(argument))
    if verb == "take":
        return Take(seat, parse_value(argument))
    return PushMove(seat, parse_push(argument))


def apply(state: GameState, action: Action) -> GameState:
    """Play one action; IllegalAction (state untouched) if the rules forbid it."""
    if isinstance(action, Reveal):
        return game.reveal(state, action.seat, action.cell)
    if isinstance(action, Take):
        return game.take(state, action.seat, action.card)
    if isinstance(action, PushMove):
        return game.push(state, action.seat, action.push)
    return game.start_round(state, action.deal)


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action except a new deal, in a fixed order.

    REVEAL: every face-down cell of every seat that has not picked yet.
    TAKE: each distinct value in the centre (two 7s are one choice) for the seat to act.
    PUSH: every legal push for the seat to act.
    """
    if state.phase is Phase.REVEAL:
        return [
            Reveal(seat, cell)
            for seat in range(state.players)
            if state.picks[seat] is None
            for cell in state.face_down_cells(seat)
        ]
    seat = state.to_act
    if state.phase is Phase.TAKE and seat is not None:
        return [Take(seat, card) for card in sorted(set(state.centre))]
    if state.phase is Phase.PUSH and seat is not None:
        hole = hole_of(state.grids[seat])
        return [PushMove(seat, move) for move in legal_pushes(hole, state.rules.push)]
    return []
