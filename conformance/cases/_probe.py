"""Negative probing: at each position of a scripted game, actions the reference refuses.

A scripted game shows the engine one action per step; most of what the rules forbid at that
point is never sent. Probing sends it. At the positions a probed game reaches (suite v3:
game cases with `"probe": true`), the runner sends actions that the reference refuses there
and expects the reference's refusal with its exact rule (B1: the first rule that applies, in
the order of spec/protocol.md), then the position unchanged. A refusal changes nothing, so
probes need no replay: the refusal each probe expects is what the
reference (dekal_ref behind the protocol adapter) answers at that position.

The candidates at a position, for every seat 0 … n (seat n is no seat: M4) and every verb:

* `reveal`: the seat's first face-down cell, first face-up cell, hole, and the cell it
  already picked — so a seat that reveals again after its own pick, or after its own push
  while others still take, is probed;
* `take`: the lowest and the highest value in the centre, and the lowest value not in it;
* `push`: a push the seat's own grid allows and one it forbids (a wrong seat's forbidden
  push is two refusals competing: T4 is due, not P1/P2), or the first push for a grid
  without exactly one hole.

Legal actions are never probes. The probes are frozen into suite v3's game cases (`probes`
at the start and at each step: [action, rule or kind] pairs) by the generator, so a run needs
no reference, and the expectations are hash-checked like every other.

Each candidate has a *situation*: the phase, whether the round is the first and the turn
the last, the verb, how the seat stands in the phase (to pick, picked, to act, done,
waiting, no seat…) and what the action names (a face-down cell, a value not in the centre, a
push its grid forbids…). A game is probed, at each step, with every candidate whose
situation it has not been probed with yet: each situation a game reaches is probed where it
first appears. Measured on suite v3's 11,624 game positions: 17,906 probes at 1,890 of
them; every candidate at every position would be 230,000 probes, several minutes of a run
instead of seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import dekal_ref
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import Message
from dekal_ref.notation import CELL_NAMES, value_symbol
from dekal_ref.position import HIDDEN_LETTERS, parse_position

SIDES = "LRTB"
ALL_PUSHES = {
    "slide": [*SIDES],
    "eject": [f"{side}{line}" for side in SIDES for line in "1234"],
}
"""Every push a variant writes (slide: the side alone; eject: side and line)."""
VALUES = "123456789T"
LAST_TURN = 16  # T5


@dataclass(frozen=True)
class Probe:
    """One action the reference refuses at a position, with the refusal it gives."""

    action: str
    expect: Message  # {"ok": False, "rule": …} or {"ok": False, "kind": …}


@dataclass(frozen=True)
class Candidate:
    action: str
    situation: tuple[str, ...]
    legal: bool


@dataclass(frozen=True)
class Seen:
    """What probing reads from a position line (spec/protocol.md, section 2), no more."""

    variant: str
    phase: str  # reveal, take, push, next, over
    to_act: int | None  # the seat of take@S / push@S:V
    token: int | None
    taken: int  # seats that took a card this turn (take, push)
    grids: tuple[str, ...]  # sixteen symbols a seat: a face-down letter, a value, "."
    picks: tuple[str, ...]  # a cell or "-"
    centre: tuple[int, ...]  # values 1-10, ascending
    moment: tuple[str, str, str]

    @property
    def players(self) -> int:
        return len(self.grids)


def read(position: str) -> Seen:
    """The fields probing needs from a full position line."""
    rules, clock, phase_text, start, grids, picks, centre = position.split(" ")[:7]
    variant = rules.split("/")[0]
    round_text, _, turn_text = clock.partition(".")
    phase, _, detail = phase_text.partition("@")
    seats = tuple(grid.replace("/", "") for grid in grids.split("|"))
    values = tuple(sorted(VALUES.index(s) + 1 for s in centre if s != "-"))
    to_act = int(detail.partition(":")[0]) if detail else None
    token = None if start == "-" else (int(start) + int(turn_text) - 1) % len(seats)
    moment = (
        phase,
        "round 1" if round_text == "1" else "later round",
        "last turn" if int(turn_text) == LAST_TURN else "turn",
    )
    taken = len(seats) - len(values) if phase in ("take", "push") else 0
    return Seen(
        variant, phase, to_act, token, taken, seats, tuple(picks.split(",")), values, moment
    )


def standing(seen: Seen, seat: int) -> str:
    """How `seat` stands in the phase: no seat; to pick or picked (reveal); to act, done
    (took and pushed this turn) or waiting (its turn to take is still to come)."""
    if seat >= seen.players:
        return "no seat"
    if seen.phase == "reveal":
        return "picked" if seen.picks[seat] != "-" else "to pick"
    if seen.to_act is None or seen.token is None:
        return "seat"
    if seat == seen.to_act:
        return "to act"
    return "done" if (seat - seen.token) % seen.players < seen.taken else "waiting"


def candidates(seen: Seen) -> list[Candidate]:
    """Every probe candidate at a position, legal or not, in a fixed order (see the module)."""
    found: dict[str, Candidate] = {}
    for seat in range(seen.players + 1):
        grid = seen.grids[seat] if seat < seen.players else ""
        where = standing(seen, seat)
        named = [
            *(
                (f"reveal {seat} {CELL_NAMES[c]}", "reveal", what, ok)
                for c, what, ok in _cells(seen, seat, grid)
            ),
            *(
                (f"take {seat} {value_symbol(v)}", "take", what, ok)
                for v, what, ok in _values(seen, where)
            ),
            *((f"push {seat} {p}", "push", what, ok) for p, what, ok in _pushes(seen, where, grid)),
        ]
        for action, verb, what, legal in named:
            situation = (*seen.moment, verb, where, what)
            found.setdefault(action, Candidate(action, situation, legal))
    return list(found.values())


def _cells(seen: Seen, seat: int, grid: str) -> list[tuple[int, str, bool]]:
    if not grid:
        return [(0, "a cell", False)]
    face_down = [c for c, s in enumerate(grid) if s in HIDDEN_LETTERS]
    face_up = [c for c, s in enumerate(grid) if s in VALUES]
    holes = [c for c, s in enumerate(grid) if s == "."]
    picked = seen.picks[seat]
    may_pick = seen.phase == "reveal" and picked == "-"
    return [
        *((c, "face down", may_pick) for c in face_down[:1]),
        *((c, "face up", False) for c in face_up[:1]),
        *((c, "the hole", False) for c in holes[:1]),
        *([] if picked == "-" else [(CELL_NAMES.index(picked), "its pick", False)]),
    ]


def _values(seen: Seen, where: str) -> list[tuple[int, str, bool]]:
    may_take = seen.phase == "take" and where == "to act"
    absent = next(value for value in range(1, 11) if value not in seen.centre)
    return [
        *((v, "lowest in the centre", may_take) for v in seen.centre[:1]),
        *((v, "highest in the centre", may_take) for v in seen.centre[-1:]),
        (absent, "not in the centre", False),
    ]


def _pushes(seen: Seen, where: str, grid: str) -> list[tuple[str, str, bool]]:
    every = ALL_PUSHES[seen.variant]
    if grid.count(".") != 1:
        return [(every[0], "no hole" if "." not in grid else "two holes", False)]
    allowed, forbidden = _split_pushes(grid.index("."), seen.variant)
    may_push = seen.phase == "push" and where == "to act"
    return [
        *((p, "allowed by its grid", may_push) for p in allowed[:1]),
        *((p, "forbidden by its grid", False) for p in forbidden[:1]),
    ]


@lru_cache(maxsize=64)
def _split_pushes(hole: int, variant: str) -> tuple[list[str], list[str]]:
    """The pushes into a hole at `hole` that the variant allows, and those it forbids."""
    allowed = [str(p) for p in dekal_ref.legal_pushes(hole, variant)]
    return allowed, [p for p in ALL_PUSHES[variant] if p not in allowed]


@lru_cache(maxsize=16384)
def refused_candidates(position: str) -> tuple[Candidate, ...]:
    """The candidates at `position` that are not legal there."""
    return tuple(c for c in candidates(read(position)) if not c.legal)


@lru_cache(maxsize=4096)
def _reference_at(position: str) -> ProtocolAdapter:
    """The reference (dekal_ref behind the protocol adapter) put at the state the position
    line describes; every position a scripted game reaches is one a game reaches."""
    reference = ProtocolAdapter(dekal_ref)
    reference.state = parse_position(position)
    return reference


@lru_cache(maxsize=65536)
def reference_refusal(position: str, action: str) -> Message:
    """What the reference answers to `action` at `position`: a typed refusal. A refusal
    leaves the reference as it was (B1); a probe it accepts was chosen wrongly (an error)."""
    reply = _reference_at(position).handle({"id": 0, "cmd": "action", "action": action})
    if reply["ok"]:
        _reference_at.cache_clear()
        raise AssertionError(f"{action!r} is legal at {position!r}: not a probe")
    error = reply["error"]
    if error["kind"] == "illegal":
        return {"ok": False, "rule": error["rule"]}
    return {"ok": False, "kind": error["kind"]}


@dataclass
class Prober:
    """The probes of one game, step by step: each candidate whose situation the game has
    not been probed with yet (see the module)."""

    seen: set[tuple[str, ...]] = field(default_factory=set)

    def probes(self, position: str) -> list[Probe]:
        chosen = [c for c in refused_candidates(position) if c.situation not in self.seen]
        self.seen.update(c.situation for c in chosen)
        return [Probe(c.action, reference_refusal(position, c.action)) for c in chosen]


def frozen(probes: list[Probe]) -> list[list[str]]:
    """Probes as suite v3 freezes them: [action, rule or refusal kind] pairs."""
    return [[p.action, str(p.expect.get("rule", p.expect.get("kind")))] for p in probes]


def probed_case(case: Message) -> Message:
    """A game case with its probes frozen in: `probes` at the start and at every accepted
    step, each the reference's refusal there (the runner sends them, spec/protocol.md §4)."""
    prober = Prober()
    start = {**case["start"], "probes": frozen(prober.probes(case["start"]["position"]))}
    steps = []
    for step in case["steps"]:
        position = step["expect"].get("position") if step["expect"].get("ok") else None
        probes = frozen(prober.probes(position)) if position else []
        steps.append({**step, "probes": probes} if probes else step)
    return {**case, "start": start, "steps": steps}


def all_probes(position: str) -> list[Probe]:
    """Every probe at `position`, situations seen before or not."""
    refused = refused_candidates(position)
    return [Probe(c.action, reference_refusal(position, c.action)) for c in refused]
