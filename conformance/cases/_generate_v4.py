"""Suite v4's cases: generated to reach every feasible combination of the situation map.

For each combination of spec/situations.json that the cases so far leave unreached (pairs,
and triples for scoring, ranking and the first player), `design` turns its values into the
parameters of a designed round (dekal.conformance.cases._designed_rounds): the player count and
variants, the round and how it is entered (dealt, loaded from a position, played into by
new_round), the seat that starts, the values revealed on turn 1 and the pile the tie-break
draws from, the final grids (so the ranking), the totals before the round and the
threshold. The case is played on the reference and recorded; it is kept when the
reference's trace of it (dekal.conformance.judge._situations) reaches the combination, and what it
reaches besides is crossed off too. Perft at every depth in every phase, seeded deals of
every round and positions loaded or refused in every phase are built the same way.

Everything is derived from fixed seeds: generating twice gives the same cases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import dekal_ref
from dekal.conformance.cases._anchors import anchor_of
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
from dekal.conformance.cases._situation_map import situation_map
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import Message, position_fields
from dekal_ref.deal import SplitMix64
from dekal_ref.notation import CELL_NAMES, format_grid, value_symbol
from dekal_ref.state import GameState, Phase

Case = dict[str, Any]
T = TypeVar("T")


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
        state = _state_after(setup, [{"action": a} for a in actions[:cut]])
        setup = {"position": dekal_ref.format_position(state)}
        actions = actions[cut:]
    items += [{"action": a} for a in actions]
    end = _state_after(setup, items)
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


def _state_after(setup: Message, items: list[Message]) -> GameState:
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
    state = _state_after(setup, items)
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


# -- from a combination of the map to a design -----------------------------------------------
LEVELS = {
    "distinct": None,
}


def _levels(shape: str, n: int, rng: SplitMix64) -> tuple[int, ...] | None:
    """Levels (0 best) per seat giving the ranking shape (None if `n` seats cannot)."""
    if shape == "distinct":
        order = list(range(n))
    else:
        size_word, _, rest = shape.partition(" share ")
        where, _, follow = rest.partition(", ")
        options = []  # (place, size) pairs giving the shape
        for size in [2] if size_word == "2" else range(3, n + 1):
            for place in range(1, n - size + 2):
                last = place - 1 + size == n
                if (place == 1) == (where == "1st") and last == (follow == "last"):
                    options.append((place, size))
        if not options:
            return None
        place, size = options[rng.next() % len(options)]
        order = list(range(place - 1)) + [place - 1] * size
        order += list(range(place, place + n - len(order)))
    seats = list(range(n))
    shuffled = []
    while seats:
        shuffled.append(seats.pop(rng.next() % len(seats)))
    levels = [0] * n
    for seat, level in zip(shuffled, order, strict=True):
        levels[seat] = level
    return tuple(levels)


def _seat(word: str, n: int, rng: SplitMix64) -> int:
    if word == "first":
        return 0
    if word == "last":
        return n - 1
    return 1 + rng.next() % (n - 2) if n > 2 else 0


def design_for(rule: str, values: dict[str, str], attempt: int) -> Design | None:
    """A design whose case should reach `values` under `rule` (random where they say
    nothing, seeded by the combination and the attempt)."""
    rng = SplitMix64(hash_of(rule, values, attempt))

    def pick(options: Sequence[T]) -> T:
        return options[rng.next() % len(options)]

    n = int(values.get("seats", pick(["2", "3", "4", "5", "6"])))
    if rule == "F2" and "seats" not in values and values.get("pile", "").startswith("out"):
        n = 6  # only six seats leave a pile (4 cards) that a short chain exhausts
    push = values.get("push", pick(["slide", "eject"]))
    first = values.get("first", pick(["lowest", "chosen"]))
    length = values.get("length")
    match = length == "match" if length else rule in ("S4", "F4", "M5") or pick([True, False])
    if rule in ("S3",):
        match = False
    if rule in ("S4", "F4", "M5"):
        match = True
    round_word = values.get("round", pick(["1", "2", "3+"]) if match else "1")
    round_number = {"1": 1, "2": 2, "3+": 3 + rng.next() % 2}[round_word]
    if not match:
        round_number = 1
    entry = values.get("entry")
    if entry is None:
        entry = pick(["dealt", "loaded"]) if round_number == 1 else pick(["loaded", "played into"])
    if entry == "dealt" and round_number > 1:
        return None
    if entry == "played into" and round_number == 1:
        if rule in ("F4", "M5"):
            round_number = 1
        return None
    design = Design(
        seats=n,
        push=push,
        first=first,
        match=match,
        round=round_number,
        entry=entry,
        seed=rng.next() % 1000,
    )
    start = _seat(values.get("start", pick(["first", "middle", "last"])), n, rng)
    design = replace(design, start=start)
    steps_per_turn = 3 * n
    turn = values.get("turn")
    if entry == "loaded":
        if turn == "1" or (turn is None and rng.next() % 2 == 0):
            load_at = rng.next() % steps_per_turn
        elif turn == "16":
            load_at = 15 * steps_per_turn + rng.next() % steps_per_turn
        else:
            load_at = steps_per_turn * (1 + rng.next() % 14) + rng.next() % steps_per_turn
        design = replace(design, load_at=load_at)
    if rule in ("F1", "F2", "F3", "T2"):
        turn_one = _turn_one(rule, values, design, rng)
        if turn_one is None:
            return None
        design = replace(design, **turn_one, turns=1)  # the first player: turn 1 is enough
    if rule in ("S3", "S4"):  # how the round began changes no ranking: load it at turn 16
        design = replace(design, entry="loaded", load_at=15 * steps_per_turn + rng.next() % n)
        if round_number > 1 and design.first == "lowest":
            design = replace(design, start=design.start)
    if rule in ("S2", "S3", "S4"):
        shape = values.get("ranking", pick(situation_map().dimensions["ranking"]))
        levels = _levels(shape, n, rng)
        if levels is None:
            return None
        split = split_seat = None
        if values.get("cards") == "yes":
            above = sorted(lv for lv in set(levels) if lv > 0)
            if not above:
                return None
            split = above[rng.next() % len(above)]
        if rule == "S4" and values.get("differs") == "yes" and round_number == 1:
            shared = [seat for seat, lv in enumerate(levels) if levels.count(lv) > 1]
            if not shared:
                return None
            split_seat = shared[rng.next() % len(shared)]
        design = replace(
            design,
            levels=levels,
            split=split,
            split_seat=split_seat,
            threshold=values.get("threshold", pick(["below", "at", "above"])),
            differs=values.get("differs") == "yes",
        )
    if rule in ("F4", "M5", "T2"):
        design = replace(design, threshold="below")
    return design


def _turn_one(
    rule: str, values: dict[str, str], design: Design, rng: SplitMix64
) -> dict[str, Any] | None:
    """Turn 1's reveals (and the pile) for a first-player rule: who reveals the lowest card,
    how many tie, how their draws run."""
    n = design.seats
    entry = "dealt" if design.entry == "played into" else design.entry
    if rule in ("F1", "F2", "F3"):
        if design.entry == "played into" and values.get("entry") == "played into":
            return None
        base: dict[str, Any] = {"round": 1, "entry": entry}
        if entry == "loaded":
            base["load_at"] = rng.next() % n  # before turn 1's last reveal
    if rule == "F3":
        return {**base, "first": "chosen"}
    if rule == "F1":
        low = _seat(values.get("start", "first"), n, rng)
        reveal = tuple(1 if s == low else 2 + (s % 3) for s in range(n))
        return {**base, "first": "lowest", "reveal": reveal}
    if rule == "T2":
        lowest = values.get("lowest", "token")
        if design.round == 1 and design.first == "lowest" and lowest == "another seat":
            return None
        token = design.start
        if lowest == "tied":
            tied = {token, (token + 1) % n}
            reveal = tuple(1 if s in tied else 3 for s in range(n))
        else:
            low = token if lowest == "token" else (token + 1 + rng.next() % (n - 1)) % n
            reveal = tuple(1 if s == low else 3 + (s % 2) for s in range(n))
        extra: dict[str, Any] = {"reveal": reveal}
        if design.entry == "loaded":
            extra["load_at"] = rng.next() % n
        return extra
    # F2: how many tie, how many draws, where the pile runs out
    short = values.get("pile", "").startswith("out") and values.get("draws") in ("0", "1")
    tie_word = values.get("tie", "all" if n == 2 else "3+" if short else "2")
    if tie_word == "2":
        size = 2
    elif tie_word == "all":
        size = n
    else:
        size = 3 + rng.next() % (n - 3) if n > 3 else 0
        if values.get("pile") == "out at first draw" or values.get("draws") == "0":
            size = n - 1  # more seats tied than cards in the pile (six seats, four cards)
    if size < 2 or size > n or (tie_word == "2" and n == 2) or (tie_word == "3+" and size >= n):
        return None
    first_tied = rng.next() % n
    tied = {(first_tied + k) % n for k in range(size)}
    reveal = tuple(1 if s in tied else 2 + (s % 3) for s in range(n))
    pile_size = 100 - 16 * n
    pile_word = values.get("pile", "lasts")
    top: list[int] = []
    if pile_word == "out at first draw":
        if pile_size >= size:
            return None
    elif pile_word == "out at a re-draw":
        groups = pile_size // size
        if groups == 0:
            return None
        for _ in range(groups):
            top += [0] * size + [99]  # 99: a marker between groups, dropped below
    else:
        draws = {"1": 1, "2": 2, "3+": 3 + rng.next() % 3, "0": 0}[values.get("draws", "1")]
        if draws == 0 or draws * size > pile_size:
            return None
        for _ in range(draws - 1):
            top += [0] * size + [99]
        top += [-1] * size
    pattern = tuple(v for v in _groups(top))
    return {**base, "first": "lowest", "reveal": reveal, "pile_top": pattern}


def _groups(top: list[int]) -> list[int]:
    """The pile pattern with the markers between groups kept as -2 (a group boundary)."""
    return [-2 if v == 99 else v for v in top]


def hash_of(rule: str, values: dict[str, str], attempt: int) -> int:
    text = rule + "|" + "|".join(f"{k}={v}" for k, v in sorted(values.items())) + f"|{attempt}"
    number = 0
    for char in text.encode():
        number = (number * 131 + char) % (2**61 - 1)
    return number


# -- perft, deals and positions ----------------------------------------------------------------
def _round_positions(design: Design) -> dict[str, GameState]:
    """States of a designed round (round 1, dealt) at turn 16 in each phase, and scored."""
    case_setup = build(replace(design, next_round=False, extra=()), "probe")
    adapter = ProtocolAdapter(dekal_ref)
    adapter.handle({"cmd": "new_game", **case_setup["setup"]})
    found: dict[str, GameState] = {}
    for step in case_setup["steps"]:
        if "action" not in step:
            continue
        adapter.handle({"cmd": "action", "action": step["action"]})
        state: GameState = adapter.state
        if state.turn == 16 or state.phase in (Phase.NEXT_ROUND, Phase.OVER):
            found.setdefault(state.phase.value, state)
    return found


def perft_cases(prefix: str = "perft") -> list[Case]:
    """Perft at depths 0 to 3 in every phase (turn 16, where the counts stay small), for every
    player count and both lengths: depth 0 is one node in every phase, `next` and `over`
    have no moves."""
    cases: list[Case] = []
    for seats in range(2, 7):
        for match, threshold in ((False, "above"), (True, "below"), (True, "at")):
            design = Design(
                seats=seats,
                push="eject" if seats % 2 else "slide",
                first="chosen",
                match=match,
                seed=seats,
                threshold=threshold,
            )
            states = _round_positions(design)
            for phase, state in sorted(states.items()):
                for depth in range(4):
                    text = dekal_ref.format_position(state)
                    adapter = ProtocolAdapter(dekal_ref)
                    adapter.handle({"cmd": "new_game", "position": text})
                    answer = adapter.handle({"cmd": "perft", "depth": depth})
                    needs = position_needs(text)
                    needs["features"] = [*needs["features"], "perft"]
                    variant = "P2" if design.push == "eject" else "P1"
                    cases.append(
                        {
                            "id": f"{prefix}-{4001 + len(cases):04d}",
                            "kind": "perft",
                            "title": f"perft depth {depth} in phase {phase}, {seats} seats, "
                            f"{'match' if match else 'single round'}, turn 16",
                            "rules": ["T1", "T3", "T4", variant],
                            "level": "must",
                            "needs": needs,
                            "setup": {"position": text},
                            "script": [],
                            "position": text,
                            "depth": depth,
                            "expect": {"nodes": answer["nodes"], "divide": answer["divide"]},
                        }
                    )
    return cases


def deal_cases(prefix: str = "deal") -> list[Case]:
    """Seeded deals of rounds 1, 2, 7, 500 and 1000 (the last protocol.md allows) for every
    player count."""
    adapter = ProtocolAdapter(dekal_ref)
    cases: list[Case] = []
    for seats in range(2, 7):
        for round_number in (1, 2, 7, 500, 1000):
            request = {"seed": 2026 + seats, "players": seats, "round": round_number}
            reply = adapter.handle({"cmd": "deal", **request})
            cases.append(
                {
                    "id": f"{prefix}-{4001 + len(cases):04d}",
                    "kind": "deal",
                    "title": f"the seeded deal of seed {2026 + seats}, {seats} players, "
                    f"round {round_number}",
                    "rules": ["M1", "M3", "M5"],
                    "level": "must",
                    "needs": {"features": ["seeded-deal"]},
                    "input": request,
                    "expect": {"ok": True, "deal": reply["deal"]},
                }
            )
    return cases


def position_cases(prefix: str = "position") -> list[Case]:
    """Positions loaded in every phase for every player count: accepted as they are, and
    refused once their start names no seat (M4); with removed cards on turn 1 and after it,
    and match totals exactly at the threshold once a match is over (refused while it plays:
    S4)."""
    cases: list[Case] = []
    for seats in range(2, 7):
        for length in ("single", "below", "at"):
            for tie in (False, True):
                reveal = tuple(1 if (tie and s < 2) else 3 + s % 2 for s in range(seats))
                design = Design(  # a tie needs the lowest-card rule; the rest is chosen's
                    seats=seats,
                    push="slide",
                    first="lowest" if tie else "chosen",
                    match=length != "single",
                    seed=seats + 40,
                    reveal=reveal,
                    pile_top=(-1, -1) if tie else (),
                    threshold="at" if length == "at" else "below",
                    next_round=False,
                )
                try:
                    whole = build(design, "whole")
                except Shortage:
                    continue
                for cut in _cuts(seats, len(whole["steps"])):
                    state = _state_after(whole["setup"], whole["steps"][:cut])
                    text = dekal_ref.format_position(state)
                    cases.append(_loaded(f"{prefix}-{4001 + len(cases):04d}", text, whole, cut))
                    for refused in _unreachable(state):
                        cases.append(_refused(f"{prefix}-{4001 + len(cases):04d}", refused))
    for text in _grid_counts():
        cases.append(_refused(f"{prefix}-{4001 + len(cases):04d}", text))
    return cases


def _grid_counts() -> list[str]:
    """Positions of 7 and of exactly 100 grids (M2: 2 to 6 players; 100 is the most grids
    a position line may hold, notation.md). Which kind 101 grids get (the line's bound, or
    M2) the spec does not say of a position: no case asks it."""
    grid = "jjab/gfhh/gabg/baja"
    pile = "25566376374645612481935447358T196T78935165878718672994349226493T1992"
    return [
        f"slide/chosen/single 1.1 reveal 0 {'|'.join([grid] * n)} {','.join('-' * n)} - "
        f"{pile} - {','.join('0' * n)}"
        for n in (7, 100)
    ]


def _unreachable(state: GameState) -> list[str]:
    """The position of `state` made unreachable: its start names no seat (M4); in a match,
    its highest total at the threshold while it plays (S4), or every total under it once it
    is over (S4)."""
    fields = dekal_ref.format_position(state).split(" ")
    broken = [fields[:3] + [str(state.players)] + fields[4:]]
    threshold = state.rules.threshold
    if threshold is not None:
        totals = list(state.totals)
        if state.phase is Phase.OVER:
            totals = [min(t, threshold - 1) for t in totals]
        else:
            totals[0] = threshold
        broken.append(fields[:9] + [",".join(map(str, totals))])
    return [" ".join(line) for line in broken]


def _cuts(seats: int, steps: int) -> list[int]:
    """Where to load a round: in turn 1's reveal, take and push, in turn 2 (removed cards
    after turn 1), at turn 16, and scored."""
    turn = 3 * seats
    return [seats - 1, seats, seats + 1, turn + 1, turn + seats, 15 * turn + seats + 1, steps]


def _loaded(case_id: str, text: str, whole: Case, cut: int) -> Case:
    steps = whole["steps"][cut : cut + 6]
    items = [{k: v for k, v in step.items() if k != "expect"} for step in steps]
    case = record(
        case_id,
        f"position loaded in phase {position_fields(text)['phase']}",
        {"position": text},
        items,
    )
    return case


def _first_rule(text: str) -> str:
    """F1 for a position under the lowest-card rule, F3 under chosen: what it depends on."""
    return "F1" if position_fields(text)["rules"].split("/")[1] == "lowest" else "F3"


def _refused(case_id: str, text: str) -> Case:
    adapter = ProtocolAdapter(dekal_ref)
    reply = adapter.handle({"cmd": "new_game", "position": text})
    error = reply["error"]
    expect = (
        {"ok": False, "rule": error["rule"]}
        if "rule" in error
        else {"ok": False, "kind": error["kind"]}
    )
    refusal = expect.get("rule", expect.get("kind"))
    rules = {str(expect.get("rule", "B1" if expect.get("kind") == "notation" else "M3"))}
    return {
        "id": case_id,
        "kind": "setup",
        "title": f"position refused in phase {position_fields(text)['phase']}: {refusal}",
        "rules": sorted(rules | {_first_rule(text)}),
        "level": "must",
        "needs": position_needs(text),
        "setup": {"position": text},
        "expect": expect,
    }


# -- the suite ---------------------------------------------------------------------------------
DESIGNS = "v4/designs.jsonl"
"""The designs the search kept (spec/conformance/sources/v4/), one a line, in case order."""


def read_designs() -> list[Design]:
    from dekal.conformance.cases._source_files import lines

    designs = []
    for line in lines(DESIGNS):
        fields: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else v for k, v in line.fields.items()
        }
        designs.append(Design(**fields))
    return designs


def write_designs(designs: list[Design], path: Any) -> None:
    import dataclasses
    import json

    default = dataclasses.asdict(Design())
    with open(path, "w", encoding="utf-8") as out:
        for design in designs:
            fields = {k: v for k, v in dataclasses.asdict(design).items() if v != default[k]}
            out.write(json.dumps(fields, separators=(",", ":")) + "\n")


def v4_files(v3: dict[str, list[Case]]) -> dict[str, list[Case]]:
    """Suite v4: every case of v3 as it is, then the designed games of the search (their
    designs frozen in sources/v4/designs.jsonl), perft in every phase at every depth, deals
    of every round and positions in every phase, loaded and refused."""
    from dekal.conformance.cases._probe import probed_case

    designed = [
        build(design, f"game-{4000 + index:04d}") for index, design in enumerate(read_designs(), 1)
    ]
    files = {name: list(cases) for name, cases in v3.items()}
    def probed(cases: list[Case]) -> list[Case]:  # every game case is probed, as in v3
        return [probed_case(case) if case["kind"] == "game" else case for case in cases]

    files["games"] += probed(designed)
    files["negative"] += probed(deal_refusal_cases())
    files["perft"] += perft_cases()
    files["deal"] += deal_cases()
    files["position"] += probed(position_cases())
    files.update(decided_cases(files, probed))
    for cases in files.values():  # every must case names the section that decides it
        for case in cases:
            if case.get("level") == "must":
                case["anchor"] = anchor_of(case)
    return files


def decided_cases(
    files: dict[str, list[Case]], probed: Callable[[list[Case]], list[Case]]
) -> dict[str, list[Case]]:
    """The written cases where the spec now decides what engines disagreed on
    (dekal.conformance.cases._suites.v4): set-up refusals join `negative`, games `games`,
    positions `position`."""
    from dekal.conformance.cases._generate_games import game_case, position_case
    from dekal.conformance.cases._suites import v4

    games = [game_case(game) for game in v4.DECIDED_GAMES]
    return {
        "games": files["games"] + probed([c for c in games if c["kind"] == "game"]),
        "negative": files["negative"] + [c for c in games if c["kind"] != "game"],
        "position": files["position"] + [position_case(p) for p in v4.DECIDED_POSITIONS],
    }


def deal_refusal_cases() -> list[Case]:
    """For every player count, a new game's deal and a new round's deal refused: one card
    too many of a value (M1), a hole in a dealt grid (M3)."""
    from dekal.conformance.cases._deals import break_deal, seeded_message
    from dekal.conformance.cases._recorder import typed_refusal

    cases: list[Case] = []
    for seats in range(2, 7):
        scored = _round_positions(Design(seats=seats, match=True, seed=seats + 70))["next"]
        for how, rule in (("extra-1", "M1"), ("hole", "M3")):
            deal = break_deal(seeded_message(seats * 11, seats), how)
            rules = {"players": seats, "push": "slide", "first": "chosen", "threshold": None}
            setup = {"rules": rules, "deal": deal, "first_player": 0}
            reply = ProtocolAdapter(dekal_ref).handle({"cmd": "new_game", **setup})
            assert reply["error"]["rule"] == rule, reply
            cases.append(
                {
                    "id": f"{rule}-neg-{4001 + 2 * seats:04d}",
                    "kind": "setup",
                    "title": f"{seats} seats: a new game's deal refused ({how}: {rule})",
                    "rules": [rule],
                    "level": "must",
                    "needs": {"players": seats, "push": "slide", "first": "chosen", "features": []},
                    "setup": setup,
                    "expect": typed_refusal(rule),
                }
            )
            text = dekal_ref.format_position(scored)
            case = record(
                f"{rule}-neg-{4002 + 2 * seats:04d}",
                f"{seats} seats: a new round's deal refused ({how}: {rule})",
                {"position": text},
                [{"new_round": deal}],
            )
            case["rules"] = [rule, "M5"]
            cases.append(case)
    return cases
