"""PIMC's compiled evaluation (dekal.kernel.world_values) is its interpreted one: the same
worlds from the same draws, the same rollouts, the same utilities, so the same estimates, bit
for bit, and the bot's stream left where the interpreted sampler leaves it (issue 30, item 5).

The interpreted path is PimcBot.evaluate(compiled=False): dekal.bots.sampler.sample_fast,
dekal.fast.apply, the Python rollouts of dekal.bots._players.rollout and
dekal.bots._players.utility.
"""

from __future__ import annotations

import pytest

import dekal_ref
from dekal import fast
from dekal.bots._players.pimc import PimcBot
from dekal.bots.bot import make_bot
from dekal.bots.observation import Observation, observation_of
from dekal.bots.table import seat_to_act
from dekal.draws import Draws, seat_seed
from dekal_ref.state import Phase, Rules

pytest.importorskip("numba")


def decision_points(rules: Rules, seed: int, every: int) -> list[tuple[Observation, int]]:
    """Every `every`-th decision of a greedy game: (the view, the seat to decide)."""
    greedy = make_bot("greedy")
    first = 0 if rules.first == "chosen" else None
    state = fast.new_game(rules, dekal_ref.seeded_deal(seed, rules.players), first)
    draws = [Draws(seat_seed(seed, s)) for s in range(rules.players)]
    points = []
    step = 0
    while state.phase not in (Phase.OVER, Phase.NEXT_ROUND):
        who, obs = seat_to_act(state), observation_of(state)
        step += 1
        if step % every == 0:
            points.append((obs, who))
        state = fast.apply(state, greedy.act(obs, who, draws[who]))
    return points


CASES = [
    (Rules(4), PimcBot(samples=3)),
    (Rules(3, "eject"), PimcBot(samples=2, rollout="random", utility="win")),
    (Rules(2, "slide", "lowest", 60), PimcBot(samples=2, utility="blend")),
    (Rules(5, "eject", "chosen", 60), PimcBot(samples=2, rollout="random")),
]


@pytest.mark.parametrize(
    "case", CASES, ids=["4p-greedy-margin", "3p-eject-win", "2p-match-blend", "5p-eject-match"]
)
def test_compiled_estimates_are_the_interpreted_ones(case: tuple[Rules, PimcBot]) -> None:
    """Same view, same seed: equal estimates for every action and the same stream after, in
    every phase (reveals with other seats' picks hidden, takes, pushes)."""
    rules, bot = case
    points = decision_points(rules, 7, 11)
    assert {obs.phase for obs, _ in points} == {Phase.REVEAL, Phase.TAKE, Phase.PUSH}
    for k, (obs, seat) in enumerate(points):
        compiled, interpreted = Draws(k), Draws(k)
        assert bot.evaluate(obs, seat, compiled) == bot.evaluate(
            obs, seat, interpreted, compiled=False
        )
        assert compiled.generator.state == interpreted.generator.state
