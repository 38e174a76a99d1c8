"""ISMCTS: single-observer information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012; SO-ISMCTS).

One tree, grown from the bot's own public view; its nodes are sequences of actions (the
bot's and the other seats'), not states. Each iteration:

1. determinize: draw one world consistent with the view (sampler; the exact belief, since
   nobody sees a face-down card, M3);
2. select: from the root, while every action legal *in this world* has a child, follow the
   child maximising UCB1 with availability counts,
       mean reward + c · sqrt(ln(availability) / visits),
   where a child's availability counts the iterations in which its action was legal at its
   parent (the parent's visits would overstate how often it could be chosen);
3. expand: add one untried action legal in this world, chosen by a draw;
4. play out: the rest of the round by the rollout policy (dekal.bots._players.rollout), `batch`
   iterations' playouts in one call of the compiled kernel;
5. back up: every node on the path gets the utility (dekal.bots._players.utility) of the seat that
   chose its action, so each seat's nodes are chosen in that seat's interest.

After `iterations` iterations it plays the root's most visited action (the first on ties).
The horizon is the end of the round. Known weaknesses: the other seats are modelled as if
they saw the determinized world's history (a single observer's tree), and rewards of
different worlds are averaged in one node (strategy fusion is reduced, not removed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from dekal import fast
from dekal.bots._players.rollout import POLICIES, round_outcomes
from dekal.bots._players.utility import UTILITIES
from dekal.bots._protocol.spec_string import spec_of
from dekal.bots.observation import Observation, legal_actions
from dekal.bots.sampler import sample_fast
from dekal.bots.table import seat_to_act
from dekal.draws import Draws
from dekal.state import FastState
from dekal_ref.actions import Action
from dekal_ref.errors import NotationError
from dekal_ref.state import Phase

SEED_RANGE = 2**53
PLAYING = (Phase.REVEAL, Phase.TAKE, Phase.PUSH)


@dataclass
class Node:
    """One action sequence from the root: its statistics and the seat that chose it."""

    seat: int
    visits: int = 0
    reward: float = 0.0
    available: int = 0
    children: dict[Action, Node] = field(default_factory=dict)


def actions_in(state: FastState, seat: int) -> list[Action]:
    """The seat's legal actions in a full position, in the reference's order."""
    return [a for a in fast.legal_actions(state) if getattr(a, "seat", None) == seat]


@dataclass(frozen=True)
class IsmctsBot:
    """`ismcts:iterations=200,c=0.05,batch=8,rollout=greedy,utility=margin` (the defaults)."""

    iterations: int = 200
    c: float = 0.05
    batch: int = 8
    rollout: str = "greedy"
    utility: str = "margin"

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise NotationError(
                "bot", f"ismcts: iterations must be at least 1, not {self.iterations}"
            )
        if self.batch < 1:
            raise NotationError("bot", f"ismcts: batch must be at least 1, not {self.batch}")
        if self.rollout not in POLICIES:
            raise NotationError("bot", f"ismcts: rollout is {' or '.join(POLICIES)}")
        if self.utility not in UTILITIES:
            raise NotationError("bot", f"ismcts: utility is {', '.join(UTILITIES)}")

    @property
    def name(self) -> str:
        return spec_of("ismcts", self)

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        legal = legal_actions(obs, seat)
        if len(legal) == 1:
            return legal[0]
        root = Node(seat=-1)
        utility = UTILITIES[self.utility]
        pending: list[tuple[FastState, list[Node]]] = []
        for iteration in range(1, self.iterations + 1):
            pending.append(self._descend(root, sample_fast(obs, draws), draws))
            if len(pending) == self.batch or iteration == self.iterations:
                seeds = [draws.below(SEED_RANGE) for _ in pending]
                outcomes = round_outcomes([state for state, _ in pending], self.rollout, seeds)
                for (_, path), outcome in zip(pending, outcomes, strict=True):
                    rewards = utility(outcome, obs.rules)
                    for node in path:
                        node.reward += rewards[node.seat]
                pending = []
        visits = [
            root.children[action].visits if action in root.children else 0 for action in legal
        ]
        return legal[visits.index(max(visits))]

    def _descend(self, root: Node, state: FastState, draws: Draws) -> tuple[FastState, list[Node]]:
        """Selection and expansion in one determinized world: the state reached and the path.

        Each node on the path is counted visited at once; its reward comes with the batch's
        playouts, so until then it looks worse than it is (a "virtual loss"), which steers the
        batch's other descents elsewhere."""
        node, path = root, []
        while state.phase in PLAYING:
            mover = seat_to_act(state)
            options = actions_in(state, mover)
            for action in options:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            untried = [action for action in options if action not in node.children]
            if untried:
                action = untried[draws.below(len(untried))]
                node.children[action] = Node(seat=mover, available=1)
            else:
                action = max(options, key=lambda a: self._ucb(node.children[a]))
            node = node.children[action]
            node.visits += 1
            path.append(node)
            state = fast.apply(state, action)
            if untried:
                break
        return state, path

    def _ucb(self, node: Node) -> float:
        return node.reward / node.visits + self.c * math.sqrt(
            math.log(node.available) / node.visits
        )
