"""The figures of an advice: what one world gave a seat, and what many worlds say on average.

For each legal action advise plays many worlds to the end of the round; each world gives the
seat an Outcome (its S2 points, whether it won the round, S3). Here those outcomes become
Figures: the expected score with its 95% interval (a confidence interval over sampled worlds,
or the exact range over enumerated ones), P(win), and the interval of the difference to the
best action, world by world (common random numbers). See docs/analysis.md, "What the
numbers are".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from statistics import NormalDist

from dekal_ref.actions import Action
from dekal_ref.ranking import places

CONFIDENCE = 0.95
Z95 = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)  # 1.959963…: the normal interval's half-width


# --- outcomes of one played-out round -----------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What one world and one action gave the advised seat at the end of the round."""

    points: int  # S2: the seat's score this round
    won: bool  # S3: placed first in this round, shared or not


def outcome_of(points: Sequence[int], remaining: Sequence[int], seat: int) -> Outcome:
    """S3 for the seat in a scored round (every seat's points and cards left, S2): its points,
    and whether it placed first. The round's own ranking, even in a match, where the places
    of dekal_ref.ranking go by totals (S4)."""
    keys: list[tuple[int, ...]] = [(p, r) for p, r in zip(points, remaining, strict=True)]
    return Outcome(keys[seat][0], places(keys)[seat] == 1)


# --- statistics ---------------------------------------------------------------------------


Interval = tuple[float, float]


def mean_interval(values: Sequence[int]) -> tuple[float, Interval]:
    """The mean of equally likely sampled values and its 95% confidence interval: mean ± 1.96
    standard errors (the normal approximation, sound from some thirty values on)."""
    n = len(values)
    mean = math.fsum(values) / n
    variance = math.fsum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(variance / n)
    return mean, (mean - half, mean + half)


def exact_mean_range(values: Sequence[int], weights: Sequence[Fraction]) -> tuple[float, Interval]:
    """The exact mean of values with these probabilities (summing to 1), and the range of the
    values that can happen: it holds all the probability, and has zero width exactly when
    the value is certain."""
    mean = sum((weight * value for value, weight in zip(values, weights, strict=True)), Fraction(0))
    possible = [value for value, weight in zip(values, weights, strict=True) if weight > 0]
    return float(mean), (float(min(possible)), float(max(possible)))


@dataclass(frozen=True)
class Figures:
    """One action's figures.

    `ci95` is the 95% confidence interval of the expected score over sampled worlds (see
    mean_interval); in an exact answer the mean is exact and `ci95` is the range of the
    scores the action can end on (see exact_mean_range). `versus_best` is the same interval
    for this action's score minus the best action's, world by world: on the same worlds
    (common random numbers) the difference is known far better than either score."""

    action: Action
    expected_score: float
    ci95: Interval
    p_win: float
    versus_best: Interval = (0.0, 0.0)


def figures_of(
    actions: Sequence[Action],
    per_world: Sequence[Sequence[Outcome]],
    weights: Sequence[Fraction] | None = None,
) -> list[Figures]:
    """Every action's figures, best first: `per_world[k][i]` is action i's outcome in world
    k; `weights` are the worlds' probabilities in an exact answer (None: equally likely
    sampled worlds). P(win) is the share (or the probability) of the worlds won."""

    def estimate(values: Sequence[int]) -> tuple[float, Interval]:
        if weights is None:
            return mean_interval(values)
        return exact_mean_range(values, weights)

    share = [Fraction(1, len(per_world))] * len(per_world) if weights is None else weights
    points = [[row[i].points for row in per_world] for i in range(len(actions))]
    figures = []
    for i, action in enumerate(actions):
        mean, interval = estimate(points[i])
        p_win = sum((w for row, w in zip(per_world, share, strict=True) if row[i].won), Fraction(0))
        figures.append(Figures(action, mean, interval, float(p_win)))
    ranked = best_first(figures)
    best = points[actions.index(ranked[0].action)]

    def versus_best(figures: Figures) -> Interval:
        mine = points[actions.index(figures.action)]
        return estimate([a - b for a, b in zip(mine, best, strict=True)])[1]

    return [replace(f, versus_best=versus_best(f)) for f in ranked]


def best_first(figures: Sequence[Figures]) -> list[Figures]:
    """Lowest expected score first (the lowest score wins, S3); equal expectations go to the
    higher P(win), then to the legal order."""
    return sorted(figures, key=lambda f: (f.expected_score, -f.p_win))


@dataclass(frozen=True)
class Advice:
    """The answer: every legal action of `seat`, best first.

    `samples` is the number of worlds the figures are over: sampled worlds, or the distinct
    worlds of an exact answer. `exact` is true when every world was enumerated with its
    probability and the play after each action is certain in each world (the model makes
    no draws, or no decision is left)."""

    seat: int
    phase: str
    samples: int
    model: str
    exact: bool
    seed: int
    actions: tuple[Figures, ...]

    @property
    def best(self) -> Action:
        return self.actions[0].action

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "phase": self.phase,
            "samples": self.samples,
            "model": self.model,  # issue 10 names the key: the bot that plays every later move
            "exact": self.exact,
            "seed": self.seed,
            "actions": [
                {
                    "action": str(f.action),
                    "expected_score": round(f.expected_score, 4),
                    "ci95": [round(f.ci95[0], 4), round(f.ci95[1], 4)],
                    "p_win": round(f.p_win, 4),
                    "versus_best": [round(f.versus_best[0], 4), round(f.versus_best[1], 4)],
                }
                for f in self.actions
            ],
            "best": str(self.best),
        }
