"""The reference's own trace of a step: which rule produced each field of the position.

The reference engine (dekal_ref, behind the protocol adapter) plays the step from the
position before it; the trace lists, in the order the reference applied them, the rules of
the step and the position fields each one wrote. A divergence is then blamed on the rule that
produced the differing field (dekal.conformance.judge._attribution.blame_step), not guessed from the
field's name: after a push the grid is P1's (or P2's), but who acts next is T3's (the next
taker), T5's (the token passes, a new turn) or the scoring's; after the last reveal of a turn
the holes and the centre are T1's, the first player F1's or F2's, the first taker T2's or T5's.

An engine can also do something by itself right after a step: play the last take (one card
left, one seat to take it), reveal the last face-down cards (one per seat on turn 16). Such
an engine shows the position the reference reaches after forced actions nobody sent:
`forced_action` finds the first of them, and the divergence is that action's rule (T3, T1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import dekal_ref
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import Message
from dekal_ref.actions import PushMove, Reveal, Take
from dekal_ref.errors import DekalError
from dekal_ref.state import GameState, Phase

MAX_FORCED = 12
"""The most forced actions followed after a step (six seats' last reveals, a last take…)."""


@dataclass(frozen=True)
class Stage:
    """One rule the reference applied in a step, and the position fields it wrote."""

    rule: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class StepTrace:
    """The stages of one step, in order, and the position the reference reached.

    `tied`: when F2 broke a tie for the first player, the seats that were tied (F1 named
    them); an engine whose first player is none of them got F1 wrong, not F2."""

    stages: tuple[Stage, ...]
    after: str
    tied: tuple[int, ...] = ()

    def rule_of(self, field: str) -> str | None:
        """The rule of the first stage that wrote `field` ("grid of seat 1", "phase"…)."""
        for stage in self.stages:
            if _writes(stage, field):
                return stage.rule
        return None

    def order_of(self, field: str) -> int:
        """The index of the stage that wrote `field`; fields no stage wrote come last."""
        for index, stage in enumerate(self.stages):
            if _writes(stage, field):
                return index
        return len(self.stages)


def _writes(stage: Stage, field: str) -> bool:
    """Whether the stage wrote the field; "grids" stands for every seat's grid."""
    return field in stage.fields or (field.startswith("grid of seat") and "grids" in stage.fields)


def grid_fields(*seats: int) -> tuple[str, ...]:
    return tuple(f"grid of seat {seat}" for seat in seats)


def trace_step(before: str, step: str, deal: Message | None = None) -> StepTrace | None:
    """The reference's trace of `step` ("reveal 0 a1", "take 1 5", "push 0 L", "new_round")
    played from the position `before` through the protocol adapter; `deal` is a new round's
    deal as the protocol writes it. None when the reference does not accept the step there
    (nothing to trace)."""
    adapter = ProtocolAdapter(dekal_ref)
    if not adapter.handle({"cmd": "new_game", "position": before}).get("ok"):
        return None
    state = adapter.state
    request = (
        {"cmd": "new_round", "deal": deal}
        if step == "new_round"
        else {"cmd": "action", "action": step}
    )
    if not adapter.handle(request).get("ok"):
        return None
    after: GameState = adapter.state
    line = dekal_ref.format_position(after)
    if step == "new_round":
        return StepTrace(new_round_stages(), line)
    action = dekal_ref.parse_action(step)
    if isinstance(action, Reveal):
        return reveal_trace(state, after, action, line)
    if isinstance(action, Take):
        return StepTrace((Stage("T3", ("centre",)), Stage("T4", ("phase",))), line)
    assert isinstance(action, PushMove)
    return StepTrace(push_stages(state, after, action.seat), line)


def reveal_trace(before: GameState, after: GameState, action: Reveal, line: str) -> StepTrace:
    """T1 picks; after the last pick, T1 turns every pick over (holes, centre), then the first
    player is found on turn 1 of round 1 (F1, or F2 on a tie), and the first taker is the
    first player (T2) or the token holder of this turn (T5)."""
    if after.phase is Phase.REVEAL:
        return StepTrace((Stage("T1", ("picks",)),), line)
    seats = tuple(range(before.players))
    stages = [Stage("T1", (*grid_fields(*seats), "picks", "centre"))]
    tied: tuple[int, ...] = ()
    if before.start is None:
        picks = [action.cell if s == action.seat else pick for s, pick in enumerate(before.picks)]
        revealed = [before.values(s)[cell] for s, cell in enumerate(picks) if cell is not None]
        low = min(revealed)
        tied = tuple(s for s, value in enumerate(revealed) if value == low)
        rule = "F2" if len(tied) > 1 else "F1"
        stages.append(Stage(rule, ("start", "pile", "removed")))
    first_turn = before.round == 1 and before.turn == 1
    stages.append(Stage("T2" if first_turn else "T5", ("phase",)))
    return StepTrace(tuple(stages), line, tied if len(tied) > 1 else ())


def push_stages(before: GameState, after: GameState, seat: int) -> tuple[Stage, ...]:
    """P1/P2 push the card into the taker's grid; then the next taker (T3), or the turn ends
    (T5: the token passes, a new turn), or the round is scored (S2 or S4 totals; the game or
    the match ends or goes on: T5 or S4)."""
    push_rule = "P2" if before.rules.push == "eject" else "P1"
    stages = [Stage(push_rule, grid_fields(seat))]
    match = before.rules.threshold is not None
    if after.phase is Phase.TAKE:
        stages.append(Stage("T3", ("phase",)))
    elif after.phase is Phase.REVEAL:
        stages.append(Stage("T5", ("round.turn", "phase")))
    else:
        stages.append(Stage("S4" if match else "S2", ("totals",)))
        stages.append(Stage("S4" if match else "T5", ("phase",)))
    return tuple(stages)


def new_round_stages() -> tuple[Stage, ...]:
    """M5 deals the new round (grids, pile, a fresh turn); F4 moves the start one seat left."""
    fields = ("round.turn", "grids", "picks", "centre", "pile", "removed", "phase")
    return (Stage("M5", fields), Stage("F4", ("start",)))


def forced_action(expected: str, actual: str) -> str | None:
    """The first of the actions the reference would be forced to play from `expected` (a seat
    with a single choice: the last card to take, the last face-down card to reveal) after
    which it reaches the engine's `actual` position; None if no such run of actions does."""
    try:
        state = dekal_ref.parse_position(expected)
    except (DekalError, ValueError):
        return None
    first: str | None = None
    for _ in range(MAX_FORCED):
        action = _only_choice(state)
        if action is None:
            return None
        first = first or str(action)
        state = dekal_ref.apply(state, action)
        if dekal_ref.format_position(state) == actual:
            return first
    return None


def _only_choice(state: GameState) -> Any:
    """An action some seat has no choice about: the only distinct value left to take, or
    the only face-down card of a seat that has not picked; None if every seat has a choice."""
    actions = dekal_ref.legal_actions(state)
    if state.phase is Phase.TAKE:
        return actions[0] if len(actions) == 1 else None
    if state.phase is not Phase.REVEAL:
        return None
    by_seat: dict[int, list[Any]] = {}
    for action in actions:
        if isinstance(action, Reveal):
            by_seat.setdefault(action.seat, []).append(action)
    return next((only[0] for only in by_seat.values() if len(only) == 1), None)
