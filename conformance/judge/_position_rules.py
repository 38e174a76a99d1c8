"""Every rule a position line breaks, not only the first (dekal.conformance.drive._reachable names
the first, in the order of spec/protocol.md).

Used for blame (issue 27): an engine that refuses an unreachable position with another rule
than the reference is blamed on the reference's rule when the position breaks the engine's
rule too (the two disagree on the order), and on the engine's rule when the position does
not break it at all (the engine misapplied it).
"""

from __future__ import annotations

from collections.abc import Callable

from dekal.conformance.drive import _reachable as reachable
from dekal.conformance.drive._protocol import Message
from dekal.conformance.judge._attribution import RULE_IDS, Blame
from dekal_ref.errors import DekalError, IllegalAction
from dekal_ref.position import parse_position
from dekal_ref.state import GameState, Phase


def _start_rules(state: GameState) -> set[str]:
    """Each rule of reachable._check_start on its own (it raises the first only)."""
    broken = set()
    if state.start is None:
        if state.rules.first == "chosen":
            broken.add("F3")
        if (state.round, state.turn, state.phase) != (1, 1, Phase.REVEAL):
            broken.add("F1")
    elif not 0 <= state.start < state.players:
        broken.add("M4")
    if state.removed and (state.rules.first != "lowest" or state.round != 1 or state.start is None):
        broken.add("F2")
    return broken


CHECKS: tuple[Callable[[GameState], None], ...] = (
    reachable._check_cards,
    reachable._check_clock,
    reachable._check_rounds,
    reachable._check_grids,
    reachable._check_threshold,
)


def broken_rules(position: str) -> set[str] | None:
    """The rules the position breaks (None when it does not read as a position)."""
    try:
        state = parse_position(position)
    except (DekalError, ValueError):
        return None
    broken = _start_rules(state)
    if not 2 <= state.players <= 6:
        broken.add("M2")
    for check in CHECKS:
        try:
            check(state)
        except IllegalAction as refusal:
            broken.add(refusal.rule)
        except (IndexError, TypeError, ValueError):
            continue
    return broken


def blame_position_refusal(position: str, reply: Message, fallback: Blame) -> Blame:
    """A position refused with another rule than the reference's: the engine's rule when the
    position does not break it (misapplied), else `fallback` (the reference's rule)."""
    error = reply.get("error")
    rule = error.get("rule") if isinstance(error, dict) else None
    if not isinstance(rule, str) or rule not in RULE_IDS:
        return fallback
    broken = broken_rules(position)
    if broken is None or rule in broken:
        return fallback
    return Blame(rule, "verdict (a rule the position does not break)")
