"""PIMC: perfect-information Monte Carlo over sampled worlds (Long, Sturtevant, Buro and
Furtak, "Understanding the Success of Perfect Information Monte Carlo Sampling in Game Tree
Search", AAAI 2010).

To decide, the bot draws `samples` worlds consistent with its public view (sampler: the
unseen cards split uniformly between face-down cells and pile, M3), and for each legal
action plays it in every world and plays the rest of the round out with the `rollout`
policy (random or greedy, dekal.bots._players.rollout). Every action is scored on the *same* worlds
and the same rollout seeds (common random numbers), so the comparison between actions is
not drowned by the luck of the draw. It plays the action with the best mean `utility`
(dekal.bots._players.utility: `win` share, `margin`, or their `blend`; the first action on ties).

What it optimises: the expected utility, at the end of the round, of playing this action
now and then letting every seat (itself included) play the rollout policy: one step of
policy improvement over that policy, against opponents assumed to play it.

Known weaknesses (Long et al. 2010; Frank and Basin 1998):
* strategy fusion: a perfect-information search of each world would pick a different
  continuation per world, which no real player can do. Here the continuation is a policy
  that reads the public view only (greedy's visible score, or random), so the estimate is
  that of a strategy a player could follow; the fusion left is in the one action chosen.
* non-locality: the worlds are drawn from the public view alone, ignoring what the
  opponents' past choices say about the hidden cards. In Dékal nobody sees a face-down card,
  not even its owner (M3), so no choice carries such information and the uniform draw is
  the exact belief: this weakness does not arise.
* the opponent model is the rollout policy; and a round's end is the horizon (a match's
  later rounds are not looked at).
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal import fast
from dekal.bots._players.rollout import POLICIES, round_outcomes
from dekal.bots._players.utility import UTILITIES
from dekal.bots._protocol.spec_string import spec_of
from dekal.bots.observation import Observation, legal_actions, unseen_cards
from dekal.bots.sampler import hidden_slots, sample_fast, sample_template
from dekal.draws import Draws
from dekal.extras import available
from dekal_ref.actions import Action
from dekal_ref.errors import NotationError

SEED_RANGE = 2**53  # Draws.below(2**53) is one full 53-bit draw: a rollout's seed


@dataclass(frozen=True)
class PimcBot:
    """`pimc:samples=40,rollout=greedy,utility=margin` (the defaults)."""

    samples: int = 40
    rollout: str = "greedy"
    utility: str = "margin"

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise NotationError("bot", f"pimc: samples must be at least 1, not {self.samples}")
        if self.rollout not in POLICIES:
            raise NotationError("bot", f"pimc: rollout is {' or '.join(POLICIES)}")
        if self.utility not in UTILITIES:
            raise NotationError("bot", f"pimc: utility is {', '.join(UTILITIES)}")

    @property
    def name(self) -> str:
        return spec_of("pimc", self)

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        legal = legal_actions(obs, seat)
        if len(legal) == 1:
            return legal[0]
        values = [value for _, value in self.evaluate(obs, seat, draws)]
        return legal[values.index(max(values))]

    def evaluate(
        self, obs: Observation, seat: int, draws: Draws, *, compiled: bool = True
    ) -> list[tuple[Action, float]]:
        """Every legal action of the seat with its estimate: the mean utility, over the
        same `samples` worlds and rollout seeds, of playing it and then the rollout policy.

        compiled=True (and numba installed) does it all in one call of the compiled kernel
        (dekal.kernel.world_values: the same draws, the same worlds, the same utilities, so
        the same estimates; tests/bots/test_pimc_kernel.py pins the two); otherwise in
        Python, world by world."""
        legal = legal_actions(obs, seat)
        k = self.samples
        if compiled and available("numba"):
            per_action = self._compiled_values(obs, seat, draws, legal)
        else:
            worlds = [sample_fast(obs, draws) for _ in range(k)]
            seeds = [draws.below(SEED_RANGE) for _ in worlds]
            states = [fast.apply(world, action) for action in legal for world in worlds]
            outcomes = round_outcomes(states, self.rollout, seeds * len(legal), compiled=False)
            utility = UTILITIES[self.utility]
            per_action = [
                [utility(o, obs.rules)[seat] for o in outcomes[i * k : (i + 1) * k]]
                for i in range(len(legal))
            ]
        return [(action, sum(values) / k) for action, values in zip(legal, per_action, strict=True)]

    def _compiled_values(
        self, obs: Observation, seat: int, draws: Draws, legal: list[Action]
    ) -> list[list[float]]:
        from dekal import kernel  # numba: imported only when a search bot first plays

        unseen = sorted(unseen_cards(obs).elements())
        pickers = [s for s, made in enumerate(obs.picked) if made]
        template = sample_template(obs, unseen)
        answer = kernel.world_values(
            template, hidden_slots(obs), unseen, pickers, draws.generator.state, self.samples,
            legal, seat, POLICIES[self.rollout], self.utility,
        )  # fmt: skip
        draws.generator.state = answer.state  # as far as the Python path's draws leave it
        return answer.values
