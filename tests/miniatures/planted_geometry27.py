"""Single-rule faults in the grid's geometry (issue 27: the dimensions spec/situations.json
gained for S1, S2, P1 and P2), each an engine: the reference behind the protocol adapter with
one rule read wrongly in one shape, side or line. Each fault wraps the game API (the judge's
own reference is untouched), the single-grid commands and the games alike
(tests/conformance/judge/test_conformance_geometry_faults.py). `FAULTS`: name -> (engine
maker, the rule it breaks)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import dekal_ref
from dekal_ref.notation import HOLE, SIZE, Grid, Push, column_of, row_of
from dekal_ref.push import apply_chain, hole_of, line_cells, push_chain
from dekal_ref.ranking import Standing, places
from dekal_ref.scoring import Score, cancelled_cells
from dekal_ref.state import Card, GameState
from miniatures.planted_issue27 import api


def scored_by(score_grid: Callable[[Grid], Score]) -> Any:
    """The API with every grid scored by `score_grid`: the `score` command, a round's scores
    and the single-round ranking they make (match totals stay the reference's)."""

    def round_scores(state: GameState) -> list[Score]:
        return [score_grid(state.values(seat)) for seat in range(state.players)]

    def ranking(state: GameState) -> list[Standing]:
        standings = dekal_ref.ranking(state)
        if state.rules.threshold is not None:
            return standings
        scores = round_scores(state)
        where = places([(s.points, s.remaining) for s in scores])
        fixed = [
            Standing(where[s], s, scores[s].points, scores[s].remaining, scores[s].points)
            for s in range(state.players)
        ]
        return sorted(fixed, key=lambda st: (st.place, st.seat))

    return api(score_grid=score_grid, round_scores=round_scores, ranking=ranking)


def _scored(grid: Grid, cancelled: frozenset[int]) -> Score:
    left = [v for c, v in enumerate(grid) if v != HOLE and c not in cancelled]
    return Score(points=sum(left), remaining=len(left), cancelled=cancelled)


def middle_of_a_run_stays() -> Any:
    """S1: the middle card of a straight run of three equal cards stays (it is cancelled only
    with an equal card on one side, not on both)."""

    def score_grid(grid: Grid) -> Score:
        cancelled = set(cancelled_cells(grid))
        for cell in list(cancelled):
            row, column = row_of(cell), column_of(cell)
            across = 0 < column < SIZE - 1 and grid[cell - 1] == grid[cell] == grid[cell + 1]
            down = 0 < row < SIZE - 1 and grid[cell - SIZE] == grid[cell] == grid[cell + SIZE]
            if across or down:
                cancelled.discard(cell)
        return _scored(grid, frozenset(cancelled))

    return scored_by(score_grid)


def pairs_down_on_an_edge_stay() -> Any:
    """S1: two equal cards one above the other in column a or d do not cancel (the engine
    looks below a card only away from the grid's sides)."""

    def score_grid(grid: Grid) -> Score:
        cancelled = set(cancelled_cells(grid))
        for cell in list(cancelled):
            column = column_of(cell)
            sides = [n for n in (cell - 1, cell + 1) if 0 <= n < 16 and row_of(n) == row_of(cell)]
            if column in (0, SIZE - 1) and not any(grid[n] == grid[cell] for n in sides):
                cancelled.discard(cell)
        return _scored(grid, frozenset(cancelled))

    return scored_by(score_grid)


def ten_left_scores_one() -> Any:
    """S2: a 10 left in the grid adds 1 point (T read as a one)."""

    def score_grid(grid: Grid) -> Score:
        right = dekal_ref.score_grid(grid)
        tens = sum(1 for c, v in enumerate(grid) if v == 10 and c not in right.cancelled)
        return replace(right, points=right.points - 9 * tens)

    return scored_by(score_grid)


def pushed_by(chain_of: Callable[[int, Push, str], list[int]]) -> Any:
    """The API with every push (a game's and the `push` command's) moving cards along the
    chain `chain_of` gives; the rules' checks stay the reference's."""

    def push(state: GameState, seat: int, move: Push) -> GameState:
        after = dekal_ref.push(state, seat, move)
        grid = state.grids[seat]
        assert state.hand is not None
        chain = chain_of(hole_of(grid), move, state.rules.push)
        new_grid = apply_chain(grid, chain, Card(state.hand, face_down=False))
        return replace(after, grids=after.grids[:seat] + (new_grid,) + after.grids[seat + 1 :])

    def push_card(grid: Grid, move: Push, card: int, variant: str = "slide") -> Grid:
        dekal_ref.push_card(grid, move, card, variant)  # the reference's refusals
        return apply_chain(grid, chain_of(hole_of(grid), move, variant), card)

    def apply(state: GameState, action: Any) -> GameState:
        if hasattr(action, "push"):
            return push(state, action.seat, action.push)
        return dekal_ref.apply(state, action)

    return api(push=push, push_card=push_card, apply=apply)


def slide_from_the_right_moves_one_card() -> Any:
    """P1: a slide from R moves only the card beside the hole (the new card enters next to
    it, not at the edge, when the hole is in column a or b)."""

    def chain_of(hole: int, move: Push, variant: str) -> list[int]:
        chain = push_chain(hole, move, variant)
        return chain[-2:] if variant == "slide" and move.side == "R" else chain

    return pushed_by(chain_of)


def eject_on_the_last_line_pushes_line_three() -> Any:
    """P2: an eject along full line 4 shifts line 3 instead (lines counted from 0 and
    clamped), unless line 3 holds the hole."""

    def chain_of(hole: int, move: Push, variant: str) -> list[int]:
        chain = push_chain(hole, move, variant)
        if variant != "eject" or move.line != SIZE or hole in line_cells(move.side, SIZE):
            return chain
        cells = line_cells(move.side, SIZE - 1)
        return chain if hole in cells else cells + [hole]

    return pushed_by(chain_of)


def moved_cards_turn_face_up() -> Any:
    """T4: the cards a push moves are turned face up (they should keep their face)."""

    def push(state: GameState, seat: int, move: Push) -> GameState:
        after = dekal_ref.push(state, seat, move)
        chain = push_chain(hole_of(state.grids[seat]), move, state.rules.push)
        grid = list(after.grids[seat])
        for cell in chain[1:]:
            card = grid[cell]
            if card is not None:
                grid[cell] = Card(card.value, face_down=False)
        return replace(after, grids=after.grids[:seat] + (tuple(grid),) + after.grids[seat + 1 :])

    def apply(state: GameState, action: Any) -> GameState:
        if hasattr(action, "push"):
            return push(state, action.seat, action.push)
        return dekal_ref.apply(state, action)

    return api(push=push, apply=apply)


FAULTS: dict[str, tuple[Callable[[], Any], str]] = {
    "the middle of a run of three stays": (middle_of_a_run_stays, "S1"),
    "pairs down on an edge column stay": (pairs_down_on_an_edge_stay, "S1"),
    "a 10 left scores 1": (ten_left_scores_one, "S2"),
    "a slide from the right moves one card": (slide_from_the_right_moves_one_card, "P1"),
    "an eject along line 4 shifts line 3": (eject_on_the_last_line_pushes_line_three, "P2"),
    "the cards a push moves turn face up": (moved_cards_turn_face_up, "T4"),
}
GAMES_ONLY = {"the cards a push moves turn face up"}
"""Faults no single-grid request can show (a single grid has no faces)."""
