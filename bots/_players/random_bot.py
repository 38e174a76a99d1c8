"""The random policy: one uniform draw over the seat's legal actions (docs/contracts.md).

Every decision (reveal, take, push) is exactly one draw `below(k)` from the seat's own
stream over its k legal actions in the reference's order, so the compiled kernel plays the
very same games from the same seeds.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal.bots.observation import Observation, legal_actions
from dekal.draws import Draws
from dekal_ref.actions import Action


@dataclass(frozen=True)
class RandomBot:
    """Plays legal[draws.below(len(legal))]."""

    @property
    def name(self) -> str:
        return "random"

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        legal = legal_actions(obs, seat)
        return legal[draws.below(len(legal))]
