"""The explicit deal (grids and pile) each kind of source deal stands for: seeded,
arranged, mirrored, twins, explicit, or broken on purpose."""

from __future__ import annotations

from typing import Any

from dekal.conformance.cases import _source_types as sources
from dekal.conformance.drive._protocol import Message
from dekal_ref.deal import DECK, SplitMix64, seeded_deal
from dekal_ref.notation import CELL_NAMES, format_grid, parse_grid, value_symbol

Case = dict[str, Any]


class SourceError(Exception):
    """The source says one thing, the reference engine another."""


# -- deals ----------------------------------------------------------------------------------
def _shuffle(cards: list[int], seed: int) -> list[int]:
    """Fisher–Yates with the project's SplitMix64 (as in dekal_ref.deal)."""
    generator, cards = SplitMix64(seed), list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = generator.next() % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_message(
    grids: list[list[int]] | tuple[tuple[int, ...], ...], pile: list[int] | tuple[int, ...]
) -> Message:
    return {
        "grids": [format_grid(tuple(grid)) for grid in grids],
        "pile": "".join(value_symbol(v) for v in pile) or "-",
    }


def seeded_message(seed: int, players: int) -> Message:
    deal = seeded_deal(seed, players)
    return deal_message(deal.grids, deal.pile)


def build_deal(deal: sources.Deal, players: int) -> Message:
    """The explicit deal (grids and pile) a source deal stands for."""
    if isinstance(deal, sources.Seeded):
        return seeded_message(deal.seed, deal.players or players)
    if isinstance(deal, sources.Explicit):
        return {"grids": list(deal.grids), "pile": deal.pile or "-"}
    if isinstance(deal, sources.Broken):
        return break_deal(seeded_message(deal.seed, players), deal.how)
    if isinstance(deal, sources.Twins):
        return _twins_deal(deal, players)
    if isinstance(deal, sources.Mirrored):
        deck, grid = _shuffle(list(DECK), deal.seed), list[int]()
        limit = 10 // players
        for value in deck:
            if len(grid) < 16 and grid.count(value) < limit:
                grid.append(value)
        rest = list(deck)
        for value in grid * players:
            rest.remove(value)
        return deal_message([grid] * players, rest)
    fixed: dict[tuple[int, int], int] = {}
    for key, symbol in deal.cells.items():
        seat, _, cell = key.partition(":")
        fixed[(int(seat), CELL_NAMES.index(cell))] = parse_grid(symbol + "111/1111/1111/1111")[0]
    top = [parse_grid(s + "111/1111/1111/1111")[0] for s in deal.pile]
    rest = list(DECK)
    for value in [*fixed.values(), *top]:
        rest.remove(value)
    rest = _shuffle(rest, deal.seed)
    grids = [
        [fixed[(seat, cell)] if (seat, cell) in fixed else rest.pop() for cell in range(16)]
        for seat in range(players)
    ]
    return deal_message(grids, top + rest)


def _twins_deal(deal: sources.Twins, players: int) -> Message:
    """The seats of `deal.seats` get one grid (each value at most 10 // len(seats) times in
    it); the other seats and the pile are the rest of the deck, shuffled."""
    deck = _shuffle(list(DECK), deal.seed)
    limit, grid = 10 // len(deal.seats), list[int]()
    for value in deck:
        if len(grid) < 16 and grid.count(value) < limit:
            grid.append(value)
    rest = list(deck)
    for value in grid * len(deal.seats):
        rest.remove(value)
    grids: list[list[int]] = []
    for seat in range(players):
        if seat in deal.seats:
            grids.append(list(grid))
        else:
            grids.append(rest[:16])
            rest = rest[16:]
    return deal_message(grids, rest)


def break_deal(deal: Message, how: str) -> Message:
    """A deal broken on purpose (sources.Broken)."""
    grids, pile = list(deal["grids"]), str(deal["pile"])
    if how == "extra-1":
        pile = pile.replace("2", "1", 1)
    elif how == "short-pile":
        pile = pile[:-1]
    elif how == "drop-grid":
        grids = grids[:-1]
    elif how == "extra-grid":
        grids = [*grids, grids[0]]
    elif how == "hole":
        grids[-1] = grids[-1][:-1] + "."
    elif how == "short-grid":
        grids[-1] = grids[-1][:-1]
    elif how == "long-pile":
        pile = pile + "1"
    else:
        raise SourceError(f"unknown way to break a deal: {how!r}")
    return {"grids": grids, "pile": pile}
