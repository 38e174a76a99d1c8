"""Rounds built on purpose: a deal and a script that reach a situation chosen in advance.

Every seat follows the same plan in a designed round: on each turn all seats reveal the same
cell, each takes back the value it revealed, and all push from the same side. The seats'
grids then keep one shape (the same cells face down, the hole in the same place), and each
card travels the same path in every grid: where a card dealt at cell c ends after turn 16 is
a permutation of the cells, found by playing the plan once on labelled cells. So the final
grids can be chosen first (their scores, hence the ranking) and the deal is their image under
the inverse permutation; the values revealed on turn 1 (who ties for the first player, F1-F2)
and the set-aside pile (how the tie-break draws run) are chosen too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from dekal_ref.deal import DECK
from dekal_ref.notation import CELL_NAMES, Push, format_grid, value_symbol
from dekal_ref.push import apply_chain, legal_pushes, push_chain
from dekal_ref.scoring import neighbours, score_grid

SNAKE = tuple(r * 4 + (c if r % 2 == 0 else 3 - c) for r in range(4) for c in range(4))
"""Cells in a path whose neighbours in it share a side: row 1 left to right, row 2 back…"""


@dataclass(frozen=True)
class Plan:
    """The common plan of a designed round: each turn's cell and push, and where every dealt
    cell's card ends (`final[c]`: the cell the card dealt at c is in after turn 16)."""

    cells: tuple[int, ...]
    pushes: tuple[Push, ...]
    final: tuple[int, ...]


def round_plan(variant: str, seed: int) -> Plan:
    """A plan whose holes vary with `seed` (corners, edges, inner cells; every push side)."""
    cells: list[tuple[int, bool]] = [(label, True) for label in range(16)]
    chosen, pushes = [], []
    for turn in range(16):
        face_down = [c for c, (_, down) in enumerate(cells) if down]
        cell = 0 if turn == 0 else face_down[(seed * 7 + turn * 5) % len(face_down)]
        label = cells[cell][0]
        options = legal_pushes(cell, variant)
        move = options[(seed + turn * 3) % len(options)]
        chain = push_chain(cell, move, variant)
        holed = list(cells)
        holed[cell] = (-1, False)
        cells = list(apply_chain(holed, chain, (label, False)))
        chosen.append(cell)
        pushes.append(move)
    final = [0] * 16
    for cell, (label, _) in enumerate(cells):
        final[label] = cell
    return Plan(tuple(chosen), tuple(pushes), tuple(final))


def dealt_grid(plan: Plan, final_grid: tuple[int, ...]) -> tuple[int, ...]:
    """The grid to deal so that the plan ends on `final_grid`."""
    return tuple(final_grid[plan.final[cell]] for cell in range(16))


def round_actions(plan: Plan, grids: list[tuple[int, ...]], order: list[int]) -> list[str]:
    """The actions of the designed round from its deal: `order` is the seat that takes first
    on each turn (the token), and every seat takes back its own card."""
    players = len(grids)
    cells = [list(grid) for grid in grids]
    actions: list[str] = []
    for turn in range(16):
        cell, move = plan.cells[turn], plan.pushes[turn]
        revealed = [cells[seat][cell] for seat in range(players)]
        actions += [f"reveal {seat} {CELL_NAMES[cell]}" for seat in range(players)]
        for offset in range(players):
            seat = (order[turn] + offset) % players
            actions.append(f"take {seat} {value_symbol(revealed[seat])}")
            actions.append(f"push {seat} {move}")
        for seat in range(players):
            chain = push_chain(cell, move, "eject" if move.line is not None else "slide")
            holed = list(cells[seat])
            holed[cell] = 0
            cells[seat] = list(apply_chain(holed, chain, revealed[seat]))
    return actions


class Shortage(Exception):
    """The deck cannot give the cards a design asks for."""


def scored_grid(
    kept: list[int],
    stock: Counter[int],
    extra: dict[int, int] | None = None,
    reserved: bool = False,
) -> tuple[int, ...]:
    """A grid whose score is the sum of `kept` with len(kept) cards left (S1-S2): the kept
    cards first along SNAKE, every other cell in runs of two or three equal cards (which
    cancel), none touching an equal kept card. `extra` fixes the value of some cells, which
    must lie in a cancelling run. Cards are taken from `stock` (the kept ones too, unless
    `reserved`: taken already)."""
    if len(set(kept)) != len(kept):
        raise Shortage("kept values repeat")
    grid = [0] * 16
    kept_cells = set(SNAKE[: len(kept)])
    for index, value in enumerate(kept):
        grid[SNAKE[index]] = value
        if not reserved:
            take(stock, value)
    rest = list(SNAKE[len(kept) :])
    fixed = dict(extra or {})
    runs: list[list[int]] = []
    while rest:
        size = 3 if len(rest) == 3 else 2
        if len(rest) == 1:
            raise Shortage("one cell left over")
        runs.append(rest[:size])
        rest = rest[size:]
    for run in runs:
        wanted = {fixed[c] for c in run if c in fixed}
        if len(wanted) > 1:
            raise Shortage("two fixed values in one run")
        if wanted:
            value = wanted.pop()
            if value in {grid[o] for c in run for o in neighbours(c) if o in kept_cells}:
                raise Shortage("a fixed value equals a kept one")
        else:
            # a kept card must touch no equal card: a run next to it takes another value
            touching = {grid[o] for c in run for o in neighbours(c) if o in kept_cells}
            options = [v for v in range(1, 11) if v not in touching and stock[v] >= len(run)]
            if not options:
                raise Shortage("no value left for a run")
            # never leave a single card of a value: it could fill no run later
            value = max(options, key=lambda v: (stock[v] - len(run) != 1, stock[v], -v))
        for cell in run:
            grid[cell] = value
            take(stock, value)
    result = tuple(grid)
    score = score_grid(result)
    if score.points != sum(kept) or score.remaining != len(kept):
        raise Shortage(f"the grid {format_grid(result)} does not score {sum(kept)}/{len(kept)}")
    return result


def take(stock: Counter[int], value: int, count: int = 1) -> None:
    if stock[value] < count:
        raise Shortage(f"no {value} left")
    stock[value] -= count


def full_stock() -> Counter[int]:
    return Counter(DECK)


def pile_of(stock: Counter[int], top: list[int]) -> list[int]:
    """The set-aside pile: `top` (taken from the stock already) first, then every card left
    in `stock`, ascending."""
    rest = [v for v in range(1, 11) for _ in range(stock[v])]
    return list(top) + rest
