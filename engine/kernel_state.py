"""A game state as one row of int64 plus one uint64 grid word per seat: what the kernel plays on.

A row holds every field of a FastState (rules T1–T5, F1–F2, S4) at fixed columns, so that
many states are one 2-D array converted once, and the compiled loop reads and writes them in
place. Grids stay in a separate uint64 array: a grid word uses all 64 bits, which an int64
would read as negative.

Columns: the rules (PLAYERS, VARIANT, THRESHOLD, -1 for a single round), ROUND, TURN, PHASE
(the codes below), START (-1 while F1 has not found it), HAND (0: no card waiting), NCENTRE
and CENTRE (ascending), PICKS (-1: not picked), REVEALED (this turn's reveals by seat, for
F1), HOLE (each grid's hole, where its reveal left it; -1 for a full grid), TOTALS, DOWN
(16-bit masks), the pile as PILE[PILE_TOP:PILE_END] (top first; F2 draws move PILE_TOP),
REMOVED[:NREMOVED], and two flags the results report: F2_TIE (turn 1 of round 1 had a tie
for the lowest card) and EXHAUSTED (F2's short-pile ruling gave the token).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from dekal.bits import NIBBLE_LOW, occupied
from dekal.kernel_tables import VARIANT_CODE
from dekal.position import from_reference
from dekal.state import FastState
from dekal_ref.state import GameState, Phase, Rules

MAX_SEATS = 6
DECK_SIZE = 100

REVEAL, TAKE, PUSH, NEXT, OVER = range(5)
PHASES = (Phase.REVEAL, Phase.TAKE, Phase.PUSH, Phase.NEXT_ROUND, Phase.OVER)
"""PHASES[code] is the Phase a PHASE column code stands for."""
PHASE_CODE = {phase: code for code, phase in enumerate(PHASES)}

(
    PLAYERS, VARIANT, THRESHOLD, ROUND, TURN, PHASE, START, HAND, NCENTRE,
    PILE_TOP, PILE_END, NREMOVED, F2_TIE, EXHAUSTED,
) = range(14)  # fmt: skip
PICKS = 14
REVEALED = PICKS + MAX_SEATS
HOLE = REVEALED + MAX_SEATS
CENTRE = HOLE + MAX_SEATS
TOTALS = CENTRE + MAX_SEATS
DOWN = TOTALS + MAX_SEATS
PILE = DOWN + MAX_SEATS
REMOVED = PILE + DECK_SIZE
WIDTH = REMOVED + DECK_SIZE
NO_THRESHOLD = -1  # a single round (S3): no total ends it
NONE = -1  # no start yet, no pick yet


def hole_of(word: int) -> int:
    """The first empty cell of a grid word, or NONE: bit 4i of occupied ^ NIBBLE_LOW is set
    for each empty cell i, so the lowest set bit's position // 4 is the first."""
    holes = occupied(word) ^ NIBBLE_LOW
    return ((holes & -holes).bit_length() - 1) // 4 if holes else NONE


def rules_columns(rules: Rules) -> tuple[int, int, int]:
    """(PLAYERS, VARIANT, THRESHOLD) of a row under these rules."""
    threshold = NO_THRESHOLD if rules.threshold is None else rules.threshold
    return rules.players, VARIANT_CODE[rules.push], threshold


def state_row(state: FastState | GameState) -> tuple[NDArray[np.int64], NDArray[np.uint64]]:
    """The row and grid words of a full state (either engine's)."""
    fast = from_reference(state) if isinstance(state, GameState) else state
    n = fast.rules.players
    row = np.zeros(WIDTH, np.int64)
    row[[PLAYERS, VARIANT, THRESHOLD]] = rules_columns(fast.rules)
    row[ROUND], row[TURN], row[PHASE] = fast.round, fast.turn, PHASE_CODE[fast.phase]
    row[START] = NONE if fast.start is None else fast.start
    row[HAND] = fast.hand or 0
    row[NCENTRE] = len(fast.centre)
    row[CENTRE : CENTRE + len(fast.centre)] = fast.centre
    row[PICKS : PICKS + n] = [NONE if pick is None else pick for pick in fast.picks]
    row[TOTALS : TOTALS + n] = fast.totals
    row[DOWN : DOWN + n] = fast.down
    row[HOLE : HOLE + n] = [hole_of(word) for word in fast.grids]
    row[PILE_TOP], row[PILE_END] = 0, len(fast.pile)
    row[PILE : PILE + len(fast.pile)] = fast.pile
    row[NREMOVED] = len(fast.removed)
    row[REMOVED : REMOVED + len(fast.removed)] = fast.removed
    return row, np.array(fast.grids, np.uint64)


def row_state(rules: Rules, row: NDArray[np.int64], grids: NDArray[np.uint64]) -> FastState:
    """The FastState a row stands for (the inverse of state_row)."""
    n = rules.players
    values = row.tolist()
    start, hand = values[START], values[HAND]
    return FastState(
        rules, values[ROUND], values[TURN], PHASES[values[PHASE]],
        None if start == NONE else start,
        tuple(int(word) for word in grids[:n]),
        tuple(values[DOWN : DOWN + n]),
        tuple(None if pick == NONE else pick for pick in values[PICKS : PICKS + n]),
        tuple(values[CENTRE : CENTRE + values[NCENTRE]]),
        hand or None,
        tuple(values[PILE + values[PILE_TOP] : PILE + values[PILE_END]]),
        tuple(values[REMOVED : REMOVED + values[NREMOVED]]),
        tuple(values[TOTALS : TOTALS + n]),
    )  # fmt: skip
