"""Actions on packed states: apply one, or list the legal ones (T1–T4), as dekal_ref.actions.

The action values are the reference's own (Reveal, Take, PushMove, NewRound), so a move
list can be replayed on either engine. Legal-move generation reads tables of prebuilt,
immutable action values: no action object is created on the hot path.
"""

from __future__ import annotations

from dekal import _game as game
from dekal.state import FastState
from dekal.tables import LEGAL, VARIANTS
from dekal_ref.actions import Action, NewRound, PushMove, Reveal, Take
from dekal_ref.state import Phase

REVEALS_LOW = tuple(
    tuple(tuple(Reveal(seat, cell) for cell in range(8) if byte >> cell & 1) for byte in range(256))
    for seat in range(6)
)
"""REVEALS_LOW[seat][byte]: the reveals of the cells a1..d2 (0..7) set in a mask's low byte."""
REVEALS_HIGH = tuple(
    tuple(
        tuple(Reveal(seat, 8 + cell) for cell in range(8) if byte >> cell & 1)
        for byte in range(256)
    )
    for seat in range(6)
)
"""REVEALS_HIGH[seat][byte]: the reveals of the cells a3..d4 (8..15) set in a mask's high byte."""
TAKES = tuple(tuple(Take(seat, value) for value in range(11)) for seat in range(6))
PUSH_MOVES = {
    variant: tuple(
        tuple(tuple(PushMove(seat, push) for push, _ in LEGAL[variant][hole]) for hole in range(16))
        for seat in range(6)
    )
    for variant in VARIANTS
}
"""PUSH_MOVES[variant][seat][hole]: every legal push of that seat, in notation order."""


def apply(state: FastState, action: Action) -> FastState:
    """Play one action; IllegalAction (state untouched) if the rules forbid it."""
    kind = type(action)
    if kind is Reveal:
        return game.reveal(state, action.seat, action.cell)  # type: ignore[union-attr]
    if kind is Take:
        return game.take(state, action.seat, action.card)  # type: ignore[union-attr]
    if kind is PushMove:
        return game.push(state, action.seat, action.push)  # type: ignore[union-attr]
    if kind is NewRound:
        return game.start_round(state, action.deal)  # type: ignore[union-attr]
    raise TypeError(f"{action!r} is not an action")


def legal_actions(state: FastState) -> list[Action]:
    """Every legal action except a new deal, in the reference's order.

    REVEAL: every face-down cell of every seat that has not picked yet (seat, then cell).
    TAKE: each distinct value in the centre, ascending (two 7s are one choice).
    PUSH: every legal push for the seat to act, in notation order.
    """
    phase = state.phase
    if phase is Phase.REVEAL:
        actions: list[Action] = []
        for seat, pick in enumerate(state.picks):
            if pick is None:
                mask = state.down[seat]
                actions += REVEALS_LOW[seat][mask & 0xFF]
                actions += REVEALS_HIGH[seat][mask >> 8]
        return actions
    to_act = state.to_act
    if to_act is None:
        return []
    if phase is Phase.TAKE:
        takes = TAKES[to_act]
        return [takes[value] for value in sorted(set(state.centre))]
    return list(PUSH_MOVES[state.rules.push][to_act][game.hole_of(state.grids[to_act])])
