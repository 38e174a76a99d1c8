"""Worlds: full positions consistent with a public view, drawn uniformly (rules M1, M3, T1).

Given an Observation, the unseen cards (the deck less every visible card) lie in the
face-down cells and the pile in an order no seat knows: every arrangement of them is equally
likely, since the deal is a uniform shuffle (M3) and nothing anyone saw since depends on a
hidden value (nobody may look at a face-down card, not even its owner). A pick that was made
but not revealed yet (T1) is in a face-down cell of its seat that the observer cannot tell
apart from the others: the sampler puts it in one chosen uniformly.

* sample_world(obs, draws): one world, drawn with the seat's Draws stream (reproducible);
* sample_worlds(obs, n, seed): n worlds from one stream;
* exact_worlds(obs, limit): every distinct world with its probability, when there are few.

The public view of every world is the view it was drawn from (the tests check it).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from itertools import product

from dekal import _arguments as arguments
from dekal.bots.observation import Observation, unseen_cards
from dekal.draws import Draws
from dekal.position import to_reference
from dekal.state import FastState
from dekal_ref.deal import MASK64
from dekal_ref.state import GameState

GAMMA, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # SplitMix64
UNIT = 2.0**-53  # Draws.below: the top 53 bits of one output, as a fraction of 1


MOST_DRAWN = 100_000
"""The most worlds sample_worlds draws at once (each a full position: some kilobytes)."""
MOST_WORLDS = 1_000_000
"""The largest `limit` of exact_worlds (a view with more worlds is answered None)."""


def hidden_slots(obs: Observation) -> list[tuple[int, int]]:
    """The face-down cells as (seat, cell), seat by seat in cell order: where unseen cards go
    before the rest of them make the pile."""
    return [(seat, cell) for seat in range(obs.players) for cell in obs.face_down_cells(seat)]


def _world(obs: Observation, cards: list[int], picks: tuple[int | None, ...]) -> FastState:
    """The full position that puts `cards` in the hidden slots, then the pile (top first)."""
    words = [word for word, _ in obs.words]
    slots = hidden_slots(obs)
    for (seat, cell), value in zip(slots, cards, strict=False):
        words[seat] |= value << (4 * cell)
    return FastState(
        obs.rules, obs.round, obs.turn, obs.phase, obs.start, tuple(words),
        tuple(down for _, down in obs.words), picks, obs.centre, obs.hand,
        tuple(cards[len(slots) :]), obs.removed, obs.totals,
    )  # fmt: skip


def shuffle(cards: list[int], draws: Draws) -> None:
    """Fisher–Yates in place: for i from the last index down to 1, swap cards[i] with
    cards[draws.below(i + 1)]. The draws are Draws.below's own, computed inline (SplitMix64,
    dekal_ref.deal) since the sampler spends most of its time here; the stream is left
    exactly where that many below() calls would leave it."""
    generator = draws.generator
    state = generator.state
    for i in range(len(cards) - 1, 0, -1):
        state = (state + GAMMA) & MASK64
        z = ((state ^ (state >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        j = int(((z ^ (z >> 31)) >> 11) * UNIT * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    generator.state = state


def sample_fast(obs: Observation, draws: Draws) -> FastState:
    """One uniform world as a packed state (dekal.state.FastState): a Fisher–Yates shuffle of
    the unseen cards with `draws`, then one draw per made pick for its cell."""
    cards = sorted(unseen_cards(obs).elements())
    shuffle(cards, draws)
    picks = tuple(
        _draw_pick(obs, seat, draws) if made else None for seat, made in enumerate(obs.picked)
    )
    return _world(obs, cards, picks)


def sample_template(obs: Observation, unseen: list[int]) -> FastState:
    """A full state of the view with `unseen` laid out in order and no pick made: the shape
    of every world, for the compiled sampler (dekal.kernel.world_values) to fill."""
    return _world(obs, unseen, (None,) * obs.players)


def _draw_pick(obs: Observation, seat: int, draws: Draws) -> int:
    cells = obs.face_down_cells(seat)
    return cells[draws.below(len(cells))]


def sample_world(obs: Observation, draws: Draws) -> GameState:
    """One world consistent with `obs`, uniform over the distinct worlds (see the module)."""
    return to_reference(sample_fast(obs, draws))


def sample_worlds(obs: Observation, n: int, seed: int) -> list[GameState]:
    """`n` worlds drawn one after the other from the stream Draws(seed) (n at most
    MOST_DRAWN; ValueError naming the argument otherwise)."""
    arguments.whole("n", n, 0, MOST_DRAWN)
    draws = Draws(arguments.seed("seed", seed))
    return [sample_world(obs, draws) for _ in range(n)]


def world_count(obs: Observation) -> int:
    """How many distinct worlds are consistent with `obs`: the distinct arrangements of the
    unseen cards (a multinomial coefficient), times each made pick's possible cells."""
    unseen = unseen_cards(obs)
    arrangements = math.factorial(unseen.total())
    for count in unseen.values():
        arrangements //= math.factorial(count)
    for seat, made in enumerate(obs.picked):
        if made:
            arrangements *= len(obs.face_down_cells(seat))
    return arrangements


def distinct_arrangements(counts: dict[int, int]) -> Iterator[list[int]]:
    """Every distinct ordering of a multiset of card values (value -> copies), each once."""
    total = sum(counts.values())
    if total == 0:
        yield []
        return
    for value in sorted(counts):
        if counts[value]:
            counts[value] -= 1
            for rest in distinct_arrangements(counts):
                yield [value, *rest]
            counts[value] += 1


def exact_worlds(obs: Observation, limit: int) -> list[tuple[GameState, Fraction]] | None:
    """Every distinct world consistent with `obs` and its probability (all equal, summing to
    1), or None when there are more than `limit` of them (limit 0 to MOST_WORLDS)."""
    arguments.whole("limit", limit, 0, MOST_WORLDS)
    count = world_count(obs)
    if count > limit:
        return None
    probability = Fraction(1, count)
    pick_choices = [
        obs.face_down_cells(seat) if made else [None] for seat, made in enumerate(obs.picked)
    ]
    return [
        (to_reference(_world(obs, cards, picks)), probability)
        for cards in distinct_arrangements(dict(unseen_cards(obs)))
        for picks in product(*pick_choices)
    ]
