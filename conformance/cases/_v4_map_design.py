"""From a combination of the situation map (spec/situations.json) to a design whose case
should reach it (`design_for`): random where the combination says nothing, seeded by the
combination and the attempt, None where the values cannot go together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, TypeVar

from dekal.conformance.cases._situation_map import situation_map
from dekal.conformance.cases._v4_design import Design
from dekal_ref.deal import SplitMix64

T = TypeVar("T")


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
