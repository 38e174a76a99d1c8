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

from collections.abc import Sequence
from itertools import chain

from dekal.extras import needed
from dekal.kernel._tables import VARIANT_CODE
from dekal.position import from_reference
from dekal.state import FastState
from dekal_ref.state import GameState, Phase, Rules

with needed("the compiled game kernel (dekal.kernel)"):
    import numpy as np
    from numpy.typing import NDArray

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


def rules_columns(rules: Rules) -> tuple[int, int, int]:
    """(PLAYERS, VARIANT, THRESHOLD) of a row under these rules."""
    threshold = NO_THRESHOLD if rules.threshold is None else rules.threshold
    return rules.players, VARIANT_CODE[rules.push], threshold


def state_rows(
    rules: Rules, states: Sequence[FastState | GameState]
) -> tuple[NDArray[np.int64], NDArray[np.uint64]]:
    """The rows and grid words of full states under `rules` (either engine's), field by field
    over all states at once: one NumPy array per field, not one per state."""
    fast = [from_reference(s) if isinstance(s, GameState) else s for s in states]
    n = rules.players
    rows = np.zeros((len(fast), WIDTH), np.int64)
    rows[:, [PLAYERS, VARIANT, THRESHOLD]] = rules_columns(rules)
    rows[:, [ROUND, TURN, PHASE, START, HAND, PILE_END]] = [
        (
            s.round, s.turn, PHASE_CODE[s.phase], NONE if s.start is None else s.start,
            s.hand or 0, len(s.pile),
        )
        for s in fast
    ]  # fmt: skip
    rows[:, PICKS : PICKS + n] = [
        [NONE if pick is None else pick for pick in s.picks] for s in fast
    ]
    rows[:, TOTALS : TOTALS + n] = [s.totals for s in fast]
    rows[:, DOWN : DOWN + n] = [s.down for s in fast]
    rows[:, NCENTRE] = _fill(rows, CENTRE, [s.centre for s in fast])
    _fill(rows, PILE, [s.pile for s in fast])
    rows[:, NREMOVED] = _fill(rows, REMOVED, [s.removed for s in fast])
    grids = np.array([s.grids for s in fast], np.uint64).reshape(len(fast), n)
    rows[:, HOLE : HOLE + n] = first_holes(grids)
    return rows, grids


def _fill(
    rows: NDArray[np.int64], column: int, cards: Sequence[tuple[int, ...]]
) -> NDArray[np.int64]:
    """rows[k, column : column + len(cards[k])] = cards[k] for every k, in one scatter; the
    lengths. (A card's place: its row repeated per card, its rank in the concatenation less
    its row's start.)"""
    lengths = np.fromiter(map(len, cards), np.int64, count=len(cards))
    values = np.fromiter(chain.from_iterable(cards), np.int64, count=int(lengths.sum()))
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    row_of = np.repeat(np.arange(len(cards)), lengths)
    rows[row_of, column + np.arange(len(values)) - starts] = values
    return lengths


def first_holes(grids: NDArray[np.uint64]) -> NDArray[np.int64]:
    """Each grid word's first empty cell, NONE for a full grid (cells tried last to first, so
    the first empty one is written last)."""
    holes = np.full(grids.shape, NONE, np.int64)
    for cell in reversed(range(16)):
        holes[(grids >> np.uint64(4 * cell)) & np.uint64(0xF) == 0] = cell
    return holes


def row_state(rules: Rules, row: NDArray[np.int64], grids: NDArray[np.uint64]) -> FastState:
    """The FastState a row stands for (the inverse of state_rows)."""
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
