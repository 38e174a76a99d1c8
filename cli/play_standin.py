"""TEMPORARY stand-in for dekal.bots (branch bots) until it is merged: a random bot only."""

from __future__ import annotations

from typing import Any, Protocol

from dekal.draws import Draws
from dekal_ref.actions import Action, legal_actions
from dekal_ref.errors import NotationError
from dekal_ref.state import GameState

BOT_NAMES = ("random", "greedy", "pimc", "ismcts")


class Bot(Protocol):
    name: str

    def act(self, obs: Any, seat: int, draws: Draws) -> Action: ...


class RandomBot:
    def __init__(self, name: str) -> None:
        self.name = name

    def act(self, obs: Any, seat: int, draws: Draws) -> Action:
        legal = [a for a in legal_actions(obs) if getattr(a, "seat", None) == seat]
        return legal[draws.below(len(legal))]


def make_bot(spec: str) -> Bot:
    if spec.split(":")[0] not in BOT_NAMES:
        raise NotationError("bot", f"{spec!r} is not a bot: {', '.join(BOT_NAMES)}")
    return RandomBot(spec)


def observation_of(state: GameState) -> GameState:
    return state
