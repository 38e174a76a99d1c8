"""An admissible lower bound on a puzzle's final key from any state (rules T1, T4, P1, S1–S3).

The search prunes a state when even this bound cannot beat its best leaf, and stops when a
leaf meets the bound at the start. The bound never exceeds the best key reachable from the
state (`tests/solver/test_solver_bounds.py` checks it against plain exhaustive search), because it
only counts cards that no sequence of the remaining steps can cancel:

* **cards are conserved** (push.conserves-*): a card leaves the grid only when a step reveals
  it, and only a face-down card can be revealed (T1); an inserted card is face up (T4). So the
  final cards of a value v are the grid's v cards, less those revealed, plus the v cards
  still to come (solo: a revealed card comes straight back, so every count stays);
* **a lone card is left** (S1): when at most one v card can be in the final grid, it scores;
* **a far card is left** (slide only, reach.slide-distance): one slide step changes the
  distance (rows + columns apart) between two cards that stay by at most one, so two cards
  more than `steps + 1` apart now can never be neighbours at the end; a v card with no other
  v card that near, and no v card still to come, scores. (An eject push drops the card it
  pushes out into the hole, anywhere: eject gets no distance argument.)

Each remaining step reveals exactly one face-down card, so the reveals are shared out among
the values: the bound is the least total over every way to choose how many face-down cards of
each value are revealed (a small knapsack over at most ten values).

Keys are S3's order in one number, as everywhere in `proofs`: points·32 + cards left.
"""

from __future__ import annotations

from dekal import bits
from dekal.proofs.puzzle import KEY_CARDS, Puzzle

INFINITE = 1 << 30

PROOF = "lower bound met: no play can cancel the cards left (bounds.lower_key)"
"""The proof of an answer whose key equals the lower bound at the start."""

_ROW = tuple(cell // 4 for cell in range(16))
_COLUMN = tuple(cell % 4 for cell in range(16))
DISTANCE = tuple(
    tuple(abs(_ROW[a] - _ROW[b]) + abs(_COLUMN[a] - _COLUMN[b]) for b in range(16))
    for a in range(16)
)
"""Rows plus columns apart: one slide step changes it by at most one for two cards that stay."""


def lower_key(
    grid: int, down: int, coming: tuple[int, ...] | None, steps: int, variant: str
) -> int:
    """A key no leaf `steps` steps below this state can beat (never more than the best one).

    `grid` is a dekal.bits word, `down` the face-down cells as a 16-bit set, `coming` the
    cards still to come in order (None: solo), `steps` how many steps remain.
    """
    face_up: dict[int, list[int]] = {}
    face_down: dict[int, list[int]] = {}
    for cell in range(16):
        value = (grid >> (4 * cell)) & 0xF
        if value:
            side = face_down if (down >> cell) & 1 else face_up
            side.setdefault(value, []).append(cell)
    reach = steps + 1 if variant == "slide" else (1 if steps == 0 else 16)
    if coming is None:
        return _solo(face_up, face_down, reach)
    costs = []
    for value in set(face_up) | set(face_down) | set(coming):
        up, hidden = face_up.get(value, []), face_down.get(value, [])
        costs.append(_value_costs(value, up, hidden, coming.count(value), steps, reach))
    return _share_reveals(costs, steps)


def start_key(puzzle: Puzzle) -> int:
    """`lower_key` at the puzzle's start: no outcome of the puzzle beats it."""
    grid, down = bits.pack(puzzle.grid), puzzle.face_down_mask
    return lower_key(grid, down, puzzle.incoming, puzzle.turns, puzzle.variant)


def _far(cell: int, others: list[int], reach: int) -> bool:
    """No other card of the list is within `reach` of `cell`."""
    near = DISTANCE[cell]
    return all(other == cell or near[other] > reach for other in others)


def _value_costs(
    value: int, up: list[int], hidden: list[int], to_come: int, steps: int, reach: int
) -> list[int]:
    """cost[k]: the least key value v's cards can add when k of its face-down cards are
    revealed (k = 0 .. the most it can give)."""
    weight = KEY_CARDS * value + 1
    everyone = up + hidden
    lonely_up = 0 if to_come else sum(_far(c, everyone, reach) for c in up)
    lonely_hidden = 0 if to_come else sum(_far(c, everyone, reach) for c in hidden)
    costs = []
    for revealed in range(min(len(hidden), steps) + 1):
        count = len(everyone) - revealed + to_come
        if count <= 1:
            costs.append(weight * count)
        else:  # the reveals take the lonely face-down cards first, the cheapest for the bound
            costs.append(weight * (lonely_up + max(0, lonely_hidden - revealed)))
    return costs


def _share_reveals(costs: list[list[int]], steps: int) -> int:
    """The least total cost when exactly `steps` reveals are shared out among the values."""
    best = [0] + [INFINITE] * steps  # best[r]: least cost of the values so far, r reveals
    for options in costs:
        following = [INFINITE] * (steps + 1)
        for used, so_far in enumerate(best):
            if so_far >= INFINITE:
                continue
            for revealed, cost in enumerate(options):
                total = used + revealed
                if total > steps:
                    break
                if so_far + cost < following[total]:
                    following[total] = so_far + cost
        best = following
    return best[steps]


def _solo(face_up: dict[int, list[int]], face_down: dict[int, list[int]], reach: int) -> int:
    """Solo: every count stays (a revealed card comes back, at the edge where it enters). A
    value with one card scores it; a face-up card with no v card near and no face-down v
    card (which could come back anywhere on the edge) scores."""
    total = 0
    for value in set(face_up) | set(face_down):
        up, hidden = face_up.get(value, []), face_down.get(value, [])
        weight = KEY_CARDS * value + 1
        if len(up) + len(hidden) == 1:
            total += weight
        elif not hidden:
            total += weight * sum(_far(c, up, reach) for c in up)
    return total
