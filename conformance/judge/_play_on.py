"""A game played on from an own-deal engine's deal, with the reference's answers on it
(issue 27, part 3).

An engine that deals for itself (spec/protocol.md, own-deal mode) cannot be given the case's
deal, so the case's frozen positions do not hold on its cards. What the case plans for the
round does, mostly: which cell each seat reveals and which side it pushes from do not depend
on the values dealt, and a take names a value, which is read as its place in the centre
(the lowest card, the second lowest…). So the round is played on from the engine's own deal
with the case's actions, and the reference plays the same actions on the same dealt cards:
its positions, legal actions and result are what the engine must answer.

Where a case's action is not legal on the dealt cards (the lowest card, F1-F2, gave the
token to another seat; a push follows a take by another seat), the most similar legal action
is played instead: the same verb by the seat to act, with the same cell, value place or side
when it is legal, else the first legal one. The case allows a play-on as far as its steps
for the round go: its accepted actions up to the next new round, the next request step or
its end, and never past the end of the round. A step the case expects refused is about the
case's own deal: it is left out (it is judged after the case's position is loaded back).

`played_on(dealt, planned, before)` lists the moves, each with the reference's position before
and after it, the legal actions after it where the case's step checks them, and the result
when it ends the round. It depends on the reference only, never on the engine's answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import dekal_ref
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import Message, position_fields

ON_OWN_DEAL = "played on from the engine's own deal"
"""What a divergence of a play-on says it was (the case's steps say what was planned)."""


@dataclass(frozen=True)
class Move:
    """One action of a play-on and the reference's answers to it on the dealt cards."""

    step: int  # the case's step it stands for
    action: str  # sent as the case has it, or the legal action chosen in its stead
    before: str  # the reference's position before the action
    after: str  # and after it
    legal: tuple[str, ...] | None = None  # the legal actions after it, when the case checks them
    result: Message | None = None  # the result, when the action ends the round


def planned_actions(steps: list[Message], first: int) -> list[tuple[int, Message]]:
    """The case's steps a play-on stands for, numbered from 1 as the runner numbers them:
    from step number `first`, the accepted actions up to the next new round or request step
    (or the end); refused actions are left out."""
    planned: list[tuple[int, Message]] = []
    for number, step in enumerate(steps[first - 1 :], start=first):
        if "action" not in step:
            break
        if step["expect"].get("ok"):
            planned.append((number, step))
    return planned


def played_on(dealt: str, planned: Iterable[tuple[int, Message]], before: str) -> list[Move]:
    """The moves of a play-on from the engine's dealt position `dealt`, standing for the
    `planned` steps of a case whose position before the first of them is `before`."""
    return list(_moves(dealt, planned, before))


def _moves(dealt: str, planned: Iterable[tuple[int, Message]], before: str) -> Iterator[Move]:
    oracle = ProtocolAdapter(dekal_ref, features=("match", "position"))  # no public view
    if not oracle.handle({"cmd": "new_game", "position": dealt}).get("ok"):
        return  # not a position the reference loads: deal_fault has said why
    case_before, position = before, dealt
    for number, step in planned:
        if position_fields(position).get("phase") in ("next", "over"):
            return
        legal = list(oracle.handle({"cmd": "legal"})["actions"])
        if not legal:
            return
        action = chosen(translated(str(step["action"]), case_before, position), legal)
        if not oracle.handle({"cmd": "action", "action": action}).get("ok"):
            return  # the reference refuses its own legal action: nothing to judge against
        after = str(oracle.handle({"cmd": "position"})["position"])
        expect = step["expect"]
        checks_legal = "legal" in expect
        scored = position_fields(after).get("phase") in ("next", "over")
        result = _reply(oracle.handle({"cmd": "result"})) if scored else None
        actions = tuple(oracle.handle({"cmd": "legal"})["actions"]) if checks_legal else None
        yield Move(number, action, position, after, actions, result)
        case_before, position = str(expect.get("position", case_before)), after


def _reply(reply: Message) -> Message:
    return {name: value for name, value in reply.items() if name not in ("id", "ok")}


def translated(action: str, case_before: str, dealt_before: str) -> str:
    """The case's action read on the dealt cards: a take's value becomes the card at the same
    place in the dealt centre (the centre is in ascending order); reveals and pushes name
    cells and sides, which the values do not decide."""
    words = action.split(" ")
    if len(words) != 3 or words[0] != "take":
        return action
    case_centre = position_fields(case_before).get("centre", "-")
    dealt_centre = position_fields(dealt_before).get("centre", "-")
    place = case_centre.find(words[2])
    if place < 0 or place >= len(dealt_centre) or dealt_centre == "-":
        return action
    return f"take {words[1]} {dealt_centre[place]}"


def chosen(action: str, legal: list[str]) -> str:
    """`action` when it is legal, else the most similar legal action: the same verb and
    argument, then the same verb, then the first legal action (legal is never empty)."""
    if action in legal:
        return action
    verb, _, rest = action.partition(" ")
    argument = rest.partition(" ")[2]
    same_verb = [a for a in legal if a.split(" ")[0] == verb]
    same_argument = [a for a in same_verb if a.split(" ")[2:] == [argument]]
    return (same_argument or same_verb or legal)[0]
