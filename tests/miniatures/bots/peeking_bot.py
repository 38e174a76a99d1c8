"""A bot that peeks (rule M3): it walks up the call stack to the table's full position and
decides by the pile's top card, which no seat may see. Python, in-process: a program can
only be told its public view (spec/bot-protocol.md), so this is the peek `dekal bots check`
must catch by asking again in another world of the same view."""

from __future__ import annotations

import sys

from dekal.bots.observation import Observation, legal_actions
from dekal.draws import Draws
from dekal.state import FastState
from dekal_ref.actions import Action


class PeekingBot:
    name = "peeking"

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        legal = legal_actions(obs, seat)
        frame = sys._getframe(1)
        while frame is not None and not isinstance(frame.f_locals.get("state"), FastState):
            frame = frame.f_back
        if frame is None:
            return legal[0]
        state: FastState = frame.f_locals["state"]
        hidden = state.pile[0] if state.pile else 0
        return legal[hidden % len(legal)]
