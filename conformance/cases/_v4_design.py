"""A designed case: what one generated case of suite v4 plays (`Design`), and the case it
makes, played and recorded on the reference (`build`, `record`).

A design fixes the player count and variants, the round and how it is entered (dealt,
loaded from a position, played into by new_round), the seat that starts, the values revealed
on turn 1 and the pile the tie-break draws from, the final grids (so the ranking), the totals
before the round and the threshold; everything else follows from its seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import dekal_ref
from dekal.conformance.cases._designed_rounds import (
    Shortage,
    dealt_grid,
    full_stock,
    pile_of,
    round_plan,
    scored_grid,
    take,
)
from dekal.conformance.cases._generate_games import position_needs
from dekal.conformance.cases._recorder import observation, request_observation, who_acts
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import Message, position_fields
from dekal_ref.deal import SplitMix64
from dekal_ref.notation import CELL_NAMES, format_grid, value_symbol
from dekal_ref.state import GameState, Phase

Case = dict[str, Any]


@dataclass(frozen=True)
class Design:
    """What one generated case plays (every field has a value the map's values choose)."""

    seats: int = 2
    push: str = "slide"
    first: str = "chosen"
    match: bool = False
    round: int = 1
    entry: str = "dealt"
    start: int = 0  # the seat that starts the round (under lowest in round 1: found by F1-F2)
    load_at: int = 0  # loaded: the steps of the round played before the position is taken
    load_end: bool = False  # loaded once the round is scored
    reveal: tuple[int, ...] | None = None  # the values revealed on turn 1, seat by seat
    pile_top: tuple[int, ...] = ()
    levels: tuple[int, ...] | None = None  # the rank of each seat's final grid (0 best)
    split: int | None = None  # a level whose seats score as the level above, with more cards
    threshold: str = "below"  # the highest total after the round against the threshold
    differs: bool = False  # the round ranks otherwise than the totals
    split_seat: int | None = None  # a seat that keeps its level's points on one card more
    next_round: bool = True  # after a scored match round, deal the next and play its turn 1
    next_reveal: tuple[int, ...] | None = None
    seed: int = 0
    extra: tuple[str, ...] = field(default=())  # requests after the round ("result")
    turns: int = 16  # the turns of the round played (the first player needs only turn 1)


# -- building a case from a design -----------------------------------------------------------
KEPT = 3
"""Cards a designed final grid keeps (the rest cancel): few enough cells in cancelling runs
that six grids find their runs' values in the deck."""


def points_of(level: int) -> int:
    return 10 + 2 * level


def kept_cards(points: int, count: int, stock: Counter[int] | None = None) -> list[int]:
    """`count` distinct card values summing to `points` (the cards a grid keeps: its score),
    of the values the stock holds most of."""
    import itertools

    fits = [list(c) for c in itertools.combinations(range(1, 11), count) if sum(c) == points]
    if not fits:
        raise Shortage(f"{count} distinct cards cannot score {points}")
    if stock is None:
        return fits[0]
    return max(fits, key=lambda cards: (min(stock[v] for v in cards), sum(stock[v] for v in cards)))


def _final_grids(design: Design, stock: Counter[int]) -> list[tuple[int, ...]]:
    """Final grids ranked by the design's levels (a split level scores as the level above,
    on one card more)."""
    assert design.levels is not None
    kept = []
    # six grids leave the runs 4 cards of slack, unless a split level keeps one more already
    count = KEPT + (design.seats == 6 and design.split is None)
    levels = _point_levels(design)
    by_level: dict[tuple[int, bool], list[int]] = {}  # seats of one level keep the same cards
    for seat, level in enumerate(levels):
        alone = seat == design.split_seat
        key = (level, alone)
        if key not in by_level:
            split = design.split is not None and level == design.split
            points = points_of(level - 1 if split else level)
            by_level[key] = kept_cards(points, count + split + alone, stock)
        kept.append(by_level[key])
        for value in by_level[key]:
            stock[value] -= 1
    if min(stock.values()) < 0:
        raise Shortage("the kept cards need more of a value than the deck holds")
    return [scored_grid(cards, stock, reserved=True) for cards in kept]


def _point_levels(design: Design) -> tuple[int, ...]:
    """The levels the final grids score by: the design's, or, for a later match round whose
    own ranking differs from the totals', the reverse of them (seat order if all share)."""
    assert design.levels is not None
    levels = design.levels
    if not (design.match and design.round > 1 and design.differs):
        return levels
    if len(set(levels)) == 1:
        return tuple(range(design.seats))
    return tuple(max(levels) - level for level in levels)


def _random_grids(
    design: Design, stock: Counter[int], reveal: tuple[int, ...] | None
) -> list[tuple[int, ...]]:
    """Grids of the cards left (a1 dealt the design's turn-1 reveal, when it has one)."""
    generator = SplitMix64(design.seed + 17)
    grids = []
    for seat in range(design.seats):
        cells: list[int] = []
        for cell in range(16):
            if cell == 0 and reveal is not None:
                cells.append(reveal[seat])  # reserved already
                continue
            floor = 0 if reveal is None else min(reveal)
            options = [v for v in range(1, 11) if stock[v] > 0 and v > floor] or [
                v for v in range(1, 11) if stock[v] > 0
            ]
            value = options[generator.next() % len(options)]
            take(stock, value)
            cells.append(value)
        grids.append(tuple(cells))
    return grids


def _designed_pile(design: Design, stock: Counter[int]) -> list[int]:
    """The pile's top as the design's tie-break needs: `pile_top` is a pattern, each group of
    equal values written as one value repeated; a group of 0s is filled with any values that
    are equal within the group (a draw that ties again), a group of -1s with values that all
    differ (a decisive draw)."""
    top: list[int] = []
    index = 0
    pattern = list(design.pile_top)
    while index < len(pattern):
        value = pattern[index]
        size = 1
        while index + size < len(pattern) and pattern[index + size] == value and value in (0, -1):
            size += 1
        if value == -2:
            index += 1
            continue
        if value == 0:
            choice = max(range(2, 11), key=lambda v: (stock[v], -v))
            take(stock, choice, size)
            top += [choice] * size
        elif value == -1:
            group = sorted(range(2, 11), key=lambda v: -stock[v])[:size]
            for v in group:
                take(stock, v)
            top += group
        else:
            take(stock, value)
            top.append(value)
        index += size
    return top


def _totals_before(design: Design, points: list[int]) -> tuple[list[int], int | None]:
    """Totals before the round and the threshold: the totals after it rank by `levels` (or
    by points in round 1, where the totals are the points)."""
    if not design.match:
        return [0] * design.seats, None
    levels = design.levels or tuple(0 for _ in range(design.seats))
    if design.round == 1:
        after = list(points)
    else:
        order = list(levels)
        ranks = sorted(set(order))
        base = max(points) + 1
        after = [base + 7 * ranks.index(o) for o in order]
    before = [a - p for a, p in zip(after, points, strict=True)]
    if min(before) < 0:
        raise Shortage("a total before the round would be negative")
    high = max(after)
    threshold = {"below": high + 3, "at": high, "above": high - 1}[design.threshold]
    if max(before) >= threshold or threshold < 1:
        raise Shortage("a total before the round reaches the threshold")
    return before, threshold


def _letters(grid: tuple[int, ...]) -> str:
    return format_grid(grid).translate(str.maketrans("123456789T", "abcdefghij"))


def _symbols(values: list[int] | tuple[int, ...]) -> str:
    return "".join(value_symbol(v) for v in values) or "-"


def build(design: Design, case_id: str) -> Case:
    """The case a design plays, recorded on the reference (Shortage if the deck cannot give
    the design's cards)."""
    n = design.seats
    plan = round_plan(design.push, design.seed)
    stock = full_stock()
    if design.reveal is not None:
        for value in design.reveal:
            take(stock, value)
    pile_top = _designed_pile(design, stock)
    if design.levels is not None:
        grids = [dealt_grid(plan, grid) for grid in _final_grids(design, stock)]
    else:
        grids = _random_grids(design, stock, design.reveal)
    pile = pile_of(stock, pile_top)
    from dekal_ref.scoring import score_grid

    finals = _finals(plan, grids)
    points = [score_grid(grid).points for grid in finals]
    before, threshold = _totals_before(design, points)
    length = "single" if threshold is None else str(threshold)
    rules = f"{design.push}/{design.first}/{length}"
    lowest_unknown = design.round == 1 and design.first == "lowest"
    start = "-" if lowest_unknown else str(design.start)
    deal = {"grids": [format_grid(g) for g in grids], "pile": _symbols(pile)}
    items: list[Message] = []
    if design.entry == "dealt":
        setup: Message = {
            "rules": {
                "players": n,
                "push": design.push,
                "first": design.first,
                "threshold": threshold,
            },
            "deal": deal,
            "first_player": None if design.first == "lowest" else design.start,
        }
    elif design.entry == "played into":
        previous = (design.start - 1) % n
        grids_up = "|".join(format_grid(g) for g in grids)
        text = (
            f"{rules} {design.round - 1}.16 next {previous} {grids_up} {','.join('-' * n)} - "
            f"{_symbols(pile)} - {','.join(map(str, before))}"
        )
        setup = {"position": text}
        items.append({"new_round": deal})
    else:
        text = (
            f"{rules} {design.round}.1 reveal {start} {'|'.join(_letters(g) for g in grids)} "
            f"{','.join('-' * n)} - {_symbols(pile)} - {','.join(map(str, before))}"
        )
        setup = {"position": text}
    actions = list(_round_actions(setup, items, plan))[: design.turns * 3 * n]
    if design.entry == "loaded":
        cut = len(actions) if design.load_end else min(design.load_at, len(actions) - 1)
        state = state_after(setup, [{"action": a} for a in actions[:cut]])
        setup = {"position": dekal_ref.format_position(state)}
        actions = actions[cut:]
    items += [{"action": a} for a in actions]
    end = state_after(setup, items)
    if end.phase is Phase.NEXT_ROUND and design.next_round:
        next_deal, next_actions = _next_round(design, end)
        items.append({"new_round": next_deal})
        items += [{"action": a} for a in next_actions]
    items += [{"request": {"cmd": cmd}} for cmd in design.extra]
    return record(case_id, _title(design), setup, items)


def _finals(plan: Any, grids: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The final grids the plan makes of dealt `grids`."""
    finals = []
    for grid in grids:
        final = [0] * 16
        for cell in range(16):
            final[plan.final[cell]] = grid[cell]
        finals.append(tuple(final))
    return finals


def _title(design: Design) -> str:
    parts = [
        f"{design.seats} seats",
        f"{design.push}/{design.first}",
        "match" if design.match else "single round",
        f"round {design.round} {design.entry}",
    ]
    if design.reveal is not None:
        parts.append("turn 1 reveals " + _symbols(design.reveal))
    if design.pile_top:
        parts.append("pile " + _symbols(design.pile_top) + "…")
    if design.levels is not None:
        parts.append("final ranks " + "".join(map(str, design.levels)))
    return "designed: " + ", ".join(parts)


def state_after(setup: Message, items: list[Message]) -> GameState:
    adapter = ProtocolAdapter(dekal_ref)
    reply = adapter.handle({"cmd": "new_game", **setup})
    if not reply["ok"]:
        raise Shortage(f"the reference refuses the set-up: {reply['error']}")
    for item in items:
        if "action" in item:
            reply = adapter.handle({"cmd": "action", "action": item["action"]})
        elif "new_round" in item:
            reply = adapter.handle({"cmd": "new_round", "deal": item["new_round"]})
        else:
            continue
        if not reply["ok"]:
            raise Shortage(f"the reference refuses {item}: {reply['error']}")
    state: GameState = adapter.state
    return state


def _round_actions(setup: Message, items: list[Message], plan: Any) -> Iterator[str]:
    """The designed round's actions from the set-up (and a new round): every seat reveals
    the plan's cell, takes back its own value when its turn comes, pushes the plan's side."""
    state = state_after(setup, items)
    for turn in range(16):
        cell = plan.cells[turn]
        revealed = [state.values(seat)[cell] for seat in range(state.players)]
        for seat in range(state.players):
            yield f"reveal {seat} {CELL_NAMES[cell]}"
            state = dekal_ref.reveal(state, seat, cell)
        for _ in range(state.players):
            taker = state.to_act
            assert taker is not None
            seat = taker
            yield f"take {seat} {value_symbol(revealed[seat])}"
            state = dekal_ref.take(state, seat, revealed[seat])
            yield f"push {seat} {plan.pushes[turn]}"
            state = dekal_ref.push(state, seat, plan.pushes[turn])


def _next_round(design: Design, end: GameState) -> tuple[Message, list[str]]:
    """The next round's deal (turn 1 reveals `next_reveal` at a1) and its turn 1."""
    n = design.seats
    stock = full_stock()
    grids = []
    generator = SplitMix64(design.seed + 99)
    for seat in range(n):
        cells = []
        if design.next_reveal is not None:
            take(stock, design.next_reveal[seat])
            cells.append(design.next_reveal[seat])
        while len(cells) < 16:
            options = [
                v
                for v in range(1, 11)
                if stock[v] > 0 and (design.next_reveal is None or v > max(design.next_reveal))
            ]
            if not options:
                options = [v for v in range(1, 11) if stock[v] > 0]
            value = options[generator.next() % len(options)]
            take(stock, value)
            cells.append(value)
        grids.append(tuple(cells))
    pile = pile_of(stock, [])
    deal = {"grids": [format_grid(g) for g in grids], "pile": _symbols(pile)}
    state = dekal_ref.start_round(end, dekal_ref.Deal(grids=tuple(grids), pile=tuple(pile)))
    actions = []
    for seat in range(n):
        actions.append(f"reveal {seat} a1")
        state = dekal_ref.reveal(state, seat, 0)
    for _ in range(n):
        taker = state.to_act
        assert taker is not None
        seat = taker
        value = state.centre[0]
        actions.append(f"take {seat} {value_symbol(value)}")
        state = dekal_ref.take(state, seat, value)
        move = dekal_ref.legal_pushes(0, design.push)[0]
        actions.append(f"push {seat} {move}")
        state = dekal_ref.push(state, seat, move)
    return deal, actions


def record(case_id: str, title: str, setup: Message, items: list[Message]) -> Case:
    """A game case: `items` played on the reference from `setup`, every observation kept."""
    engine = ProtocolAdapter(dekal_ref)
    reply = engine.handle({"id": 0, "cmd": "new_game", **setup})
    if not reply["ok"]:
        raise Shortage(f"{case_id}: set-up refused: {reply['error']}")
    start = str(engine.handle({"cmd": "position"})["position"])
    if "position" in setup:
        needs = position_needs(str(setup["position"]))
    else:
        rules = setup["rules"]
        needs = {
            "players": rules["players"],
            "push": rules["push"],
            "first": rules["first"],
            "features": ["match"] if rules["threshold"] is not None else [],
        }
    if any("new_round" in item for item in items) and "match" not in needs["features"]:
        needs["features"] = [*needs["features"], "match"]
    steps = []
    for item in items:
        before = str(engine.handle({"cmd": "position"})["position"])
        scored = position_fields(before)["phase"] in ("next", "over")
        if "action" in item:
            reply = engine.handle({"id": 0, "cmd": "action", "action": item["action"]})
            steps.append({**item, "expect": observation(engine, reply, scored, False)})
        elif "new_round" in item:
            reply = engine.handle({"id": 0, "cmd": "new_round", "deal": item["new_round"]})
            steps.append({**item, "expect": observation(engine, reply, scored, False)})
        else:
            reply = engine.handle({"id": 0, **item["request"]})
            steps.append({**item, "expect": request_observation(reply)})
    return {
        "id": case_id,
        "kind": "game",
        "title": title,
        "rules": sorted({rule for rule in _rules_of(steps, start)}),
        "level": "must",
        "needs": needs,
        "setup": setup,
        "start": {"position": start, **who_acts(start)},
        "steps": steps,
    }


def _rules_of(steps: list[Message], start: str) -> set[str]:
    rules = {"T1", "T3", "T4", "T5"}
    push = position_fields(start)["rules"].split("/")[0]
    rules.add("P2" if push == "eject" else "P1")
    first = position_fields(start)["rules"].split("/")[1]
    rules.add("F3" if first == "chosen" else "F1")
    if any(s["expect"].get("result") for s in steps):
        rules |= {"S1", "S2", "S4" if "single" not in position_fields(start)["rules"] else "S3"}
    if any("new_round" in s for s in steps):
        rules |= {"M5", "F4"}
    if any("F2" in str(s) for s in steps) or position_fields(start)["removed"] != "-":
        rules.add("F2")
    return rules
