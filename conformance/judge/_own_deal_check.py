"""What an own-deal engine dealt, checked against the rules of a deal (issue 27, part 3).

An engine that deals for itself (spec/protocol.md, own-deal mode) shows its deal in the next
`position` reply: every grid and the pile. The runner cannot compare that deal with the
case's, but the rules say what any deal is: 16 cards a seat, every one face down, nobody
picked, nothing in the centre (M3); the grids and the pile are exactly the 100 cards, ten of
each value, none kept out (M1: the cards F2 removed come back); a new round is dealt anew,
turn 1 of the next round with nothing drawn yet (M5). `deal_fault` names the first rule the
dealt position breaks, in that order, or None.
"""

from __future__ import annotations

from collections import Counter

from dekal.conformance.drive._protocol import position_fields
from dekal.conformance.judge._attribution import Blame

FACE_DOWN = "abcdefghij"
FACE_UP = "123456789T"


def deal_fault(position: str, new_round: bool) -> Blame | None:
    """The rule the position an engine shows right after dealing for itself breaks (M3, M1,
    M5), with the field that shows it; None when it is a deal the rules allow."""
    fields = position_fields(position)
    grids = fields.get("grids", "").split("|")
    for seat, grid in enumerate(grids):
        cells = grid.replace("/", "")
        if len(cells) != 16 or grid.count("/") != 3:
            return Blame("M3", f"grid of seat {seat}: {len(cells)} cards dealt, not 16")
        if any(symbol not in FACE_DOWN for symbol in cells):
            return Blame("M3", f"grid of seat {seat}: a card dealt face up or a hole")
    picks = fields.get("picks", "")
    if any(pick != "-" for pick in picks.split(",")) or fields.get("centre") != "-":
        return Blame("M3", "picks" if fields.get("centre") == "-" else "centre")
    values: Counter[int] = Counter()
    for grid in grids:
        values.update(FACE_DOWN.index(s) + 1 for s in grid if s in FACE_DOWN)
    pile = fields.get("pile", "-")
    if pile != "-":
        values.update(FACE_UP.index(s) + 1 if s in FACE_UP else 0 for s in pile)
    if values != Counter({value: 10 for value in range(1, 11)}):
        return Blame("M1", "pile" if sum(values.values()) != 100 else "grids")
    if fields.get("removed") != "-":
        return Blame("M5" if new_round else "M3", "removed")
    turn = fields.get("round.turn", "").partition(".")[2]
    if turn != "1" or fields.get("phase") != "reveal":
        return Blame("M5" if new_round else "M3", "round.turn" if turn != "1" else "phase")
    return None
