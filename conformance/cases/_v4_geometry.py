"""Suite v4's games toward the grid geometry of the situation map (spec/situations.json: S2's
`left` and `ten` against the game around them, S1's `group` block): designed rounds whose
final grids are chosen so that one seat cancels every card (four 2x2 blocks), one keeps every
card with 10s among them and one keeps every card without a 10.

S2 is a triples rule: every points-left value is crossed with the player count, the push
variant, the length, the round and how it began. The games are a fixed rotation of those, built
so by construction (`GEOMETRY_GAMES`), each played and recorded on the reference as suite v4's
other designed rounds are (dekal.conformance.cases._v4_design).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from dekal.conformance.cases._designed_rounds import (
    Shortage,
    dealt_grid,
    full_stock,
    pile_of,
    round_plan,
    take,
)
from dekal.conformance.drive._protocol import Message
from dekal_ref.deal import SplitMix64
from dekal_ref.notation import format_grid, value_symbol
from dekal_ref.scoring import score_grid

Case = dict[str, Any]

ALL_CANCEL: tuple[int, ...] = (1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4)
"""Four 2x2 blocks of four values, each touching two of other values: every card cancels."""
ALL_KEPT_WITH_TEN: tuple[int, ...] = (9, 10, 9, 10, 10, 9, 10, 9, 9, 10, 9, 10, 10, 9, 10, 9)
"""A checkerboard of 9s and 10s: no two equal cards share a side, 152 points on 16 cards."""
ALL_KEPT: tuple[int, ...] = (5, 6, 7, 8, 6, 7, 8, 5, 7, 8, 5, 6, 8, 5, 6, 7)
"""Diagonals of equal values: nothing cancels (corners only), no 10."""


@dataclass(frozen=True)
class GeometryGame:
    """One game: the player count, variant, length, round and entry; seat 0's final grid
    cancels every card, the next seats' keep every card."""

    seats: int
    push: str
    match: bool
    round: int
    entry: str
    ten_first: bool = True  # with two seats: seat 1 keeps the 10s (else the grid without)


TRIADS = (
    ((False, 1, "dealt"), (True, 2, "loaded"), (True, 3, "played into")),
    ((False, 1, "dealt"), (True, 2, "played into"), (True, 3, "loaded")),
)
"""Three games that give one player count every round, entry and length."""
ROUND_ONES = ((False, 1, "loaded"), (True, 1, "dealt"), (True, 1, "loaded"))
"""The other ways round 1 begins (a single round is round 1; round 1 is never played into,
a later one never dealt)."""


def geometry_games() -> list[GeometryGame]:
    """Four games a player count: a triad (alternating) and one other start of round 1, the
    push variant alternating so that each player count, round, entry and length comes with
    both: S2's triples of a grid's points left with any two of them (checked in
    tests/conformance/cases/test_conformance_v4_geometry.py)."""
    games = []
    for i in range(5):
        for j, (match, round_number, entry) in enumerate((*TRIADS[i % 2], ROUND_ONES[i % 3])):
            push = ("slide", "eject")[(i + j + j // 2) % 2]
            games.append(
                GeometryGame(2 + i, push, match, round_number, entry, ten_first=j % 2 == 0)
            )
    return games


def _finals(game: GeometryGame, seed: int) -> list[tuple[int, ...]]:
    """Seat 0 cancels every card; seats 1 and 2 keep every card (with 10s, without); the rest
    are random grids of what the deck has left."""
    chosen = [ALL_CANCEL, ALL_KEPT_WITH_TEN, ALL_KEPT]
    if game.seats == 2:
        chosen = [ALL_CANCEL, ALL_KEPT_WITH_TEN if game.ten_first else ALL_KEPT]
    stock = full_stock()
    for grid in chosen[: game.seats]:
        for value in grid:
            take(stock, value)
    generator = SplitMix64(seed)
    finals: list[tuple[int, ...]] = list(chosen[: game.seats])
    while len(finals) < game.seats:
        cells = []
        for _ in range(16):
            options = [v for v in range(1, 11) if stock[v] > 0]
            value = options[generator.next() % len(options)]
            take(stock, value)
            cells.append(value)
        finals.append(tuple(cells))
    return finals


def _symbols(values: list[int]) -> str:
    return "".join(value_symbol(v) for v in values) or "-"


def _letters(grid: tuple[int, ...]) -> str:
    return format_grid(grid).translate(str.maketrans("123456789T", "abcdefghij"))


def build_geometry(game: GeometryGame, case_id: str, seed: int) -> Case:
    """The game, played and recorded on the reference: the deal that the designed plan turns
    into the chosen final grids, set up as the entry says (a new game, a position at turn 1
    of the round, or the round before's end and a new round)."""
    from dekal.conformance.cases._v4_design import _round_actions, record

    n = game.seats
    plan = round_plan(game.push, seed)
    finals = _finals(game, seed)
    grids = [dealt_grid(plan, final) for final in finals]
    stock: Counter[int] = full_stock()
    for grid in grids:
        for value in grid:
            take(stock, value)
    pile = pile_of(stock, [])
    points = [score_grid(final).points for final in finals]
    if game.match:
        base = max(points) + 1
        before = [base - p for p in points] if game.round > 1 else [0] * n
        threshold: int | None = (base if game.round > 1 else max(points)) + 3
    else:
        before, threshold = [0] * n, None
    if min(before) < 0:
        raise Shortage("a total before the round would be negative")
    rules = f"{game.push}/chosen/{threshold if threshold else 'single'}"
    deal = {"grids": [format_grid(g) for g in grids], "pile": _symbols(pile)}
    totals = ",".join(map(str, before))
    items: list[Message] = []
    if game.entry == "dealt":
        setup: Message = {
            "rules": {"players": n, "push": game.push, "first": "chosen", "threshold": threshold},
            "deal": deal,
            "first_player": 0,
        }
    elif game.entry == "played into":
        grids_up = "|".join(format_grid(g) for g in grids)
        setup = {
            "position": f"{rules} {game.round - 1}.16 next {n - 1} {grids_up} "
            f"{','.join('-' * n)} - {_symbols(pile)} - {totals}"
        }
        items.append({"new_round": deal})
    else:
        setup = {
            "position": f"{rules} {game.round}.1 reveal 0 {'|'.join(_letters(g) for g in grids)} "
            f"{','.join('-' * n)} - {_symbols(pile)} - {totals}"
        }
    items += [{"action": a} for a in _round_actions(setup, items, plan)]
    length = "match" if game.match else "single round"
    title = (
        f"designed grids: {n} seats, {game.push}, {length}, round {game.round} {game.entry}; "
        "seat 0 cancels every card (four 2x2 blocks), the next seats keep every card"
    )
    case = record(case_id, title, setup, items)
    case["rules"] = sorted({*case["rules"], "S1", "S2"})
    return case


def geometry_game_cases(first: int = 4901) -> list[Case]:
    """The games of `geometry_games`, numbered from `first`."""
    return [
        build_geometry(game, f"game-{first + index:04d}", seed=31 + index)
        for index, game in enumerate(geometry_games())
    ]
