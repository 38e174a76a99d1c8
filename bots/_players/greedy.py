"""The greedy policy: the lowest visible score after the push, no draws (rules S1, S2, T3, T4).

Its exact definition is shared with the compiled kernel (docs/contracts.md, "two policies"); a
differential test pins the two together, so this module says it literally:

* reveal: the first legal reveal. Every face-down card is the same unknown to its owner
  (M3), so every reveal has the same expected immediate effect.
* take: for each distinct centre value v (ascending) and each legal push p (in notation
  order) into the seat's hole, the grid after pushing v by p; its *visible score* is the
  S1/S2 points of that grid counting face-up cards only (a face-down card or the hole is an
  empty cell: it neither cancels nor scores). Take the v of the first (v, p) with the
  lowest visible score.
* push: the first legal push of the value in hand with the lowest visible score.

`visible_score`, `greedy_take` and `greedy_push` work on packed grid words (dekal.bits),
so the table's bot and the Python rollouts (dekal.bots._players.rollout) run the very same code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dekal import bits
from dekal.bots.observation import Observation, legal_actions
from dekal.draws import Draws
from dekal.tables import LEGAL
from dekal_ref.actions import Action, PushMove, Take
from dekal_ref.notation import HOLE
from dekal_ref.state import Phase


def visible_word(word: int, down: int) -> int:
    """The grid word with every face-down card emptied: what the greedy policy scores."""
    return bits.kept(word, bits.expand(down))


def visible_score(word: int) -> int:
    """S1/S2 points of a visible grid word: empty cells (0) neither cancel nor score."""
    return bits.score(word)[0]


def greedy_push_index(word: int, hole: int, value: int, variant: str) -> int:
    """The index (in LEGAL order) of the first push of `value` with the lowest visible score."""
    best, best_index = 1 << 30, 0
    for index, (_, step) in enumerate(LEGAL[variant][hole]):
        score = visible_score(bits.push_grid(word, step, value))
        if score < best:
            best, best_index = score, index
    return best_index


def greedy_take_value(word: int, hole: int, centre: Iterable[int], variant: str) -> int:
    """The v of the first (v, push) pair, v ascending over the distinct centre values, whose
    grid has the lowest visible score."""
    best, best_value = 1 << 30, 0
    steps = LEGAL[variant][hole]
    for value in sorted(set(centre)):
        for _, step in steps:
            score = visible_score(bits.push_grid(word, step, value))
            if score < best:
                best, best_value = score, value
    return best_value


@dataclass(frozen=True)
class GreedyBot:
    """The greedy policy (module docstring): deterministic, it never draws."""

    @property
    def name(self) -> str:
        return "greedy"

    def act(self, obs: Observation, seat: int, draws: Draws) -> Action:
        legal = legal_actions(obs, seat)
        if obs.phase is Phase.REVEAL:
            return legal[0]
        word, _ = obs.words[seat]
        hole = obs.grids[seat].index(HOLE)
        variant = obs.rules.push
        if obs.phase is Phase.TAKE:
            return Take(seat, greedy_take_value(word, hole, obs.centre, variant))
        assert obs.hand is not None
        push, _ = LEGAL[variant][hole][greedy_push_index(word, hole, obs.hand, variant)]
        return PushMove(seat, push)
