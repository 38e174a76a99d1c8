"""PIMC's evaluation in one compiled call: sample, play each action, score (M3, T1–T5, S1–S3).

`world_values` does what dekal.bots._players.pimc.PimcBot.evaluate does with dekal.bots.sampler and
dekal.kernel.rollouts, draw for draw:

* world j: a Fisher–Yates shuffle of the unseen cards (sorted) with the bot's own stream
  (sampler.shuffle: one Draws.below(i + 1) per i from the last index down to 1), the first
  cards into the hidden slots (seat by seat, cell order), the rest the pile, then one
  Draws.below(k) per seat that picked, in seat order, over its k face-down cells;
* then one Draws.below(2**53) per world: its rollout seed;
* each action played in each world (a reveal is the pick: play_on reveals once every seat has
  picked; a take leaves the centre and waits to be pushed; a push ends the seat's move), the
  round played out by play_on from the rollout seed's streams (dekal.kernel.rollouts);
* the seat's utility of the outcome, as dekal.bots._players.utility computes it, float op for float
  op: values[action, world].

The mean over worlds is left to the caller (Python's own `sum`, whose summation changed in
Python 3.12): the estimates are the interpreted path's, bit for bit, on every version.
"""

from __future__ import annotations

from dekal.extras import needed
from dekal.kernel._bits import (
    GOLDEN_GAMMA,
    cell_total,
    mixed,
    nth_cell,
    push_face_down,
    push_grid,
    scaled,
    score,
    seed_streams,
)
from dekal.kernel._cache import compiled
from dekal.kernel._play import end_turn, play_on
from dekal.kernel._state import (
    CENTRE,
    DECK_SIZE,
    DOWN,
    HAND,
    HOLE,
    MAX_SEATS,
    NCENTRE,
    PHASE,
    PICKS,
    PILE,
    PLAYERS,
    PUSH,
    ROUND,
    TAKE,
    THRESHOLD,
    TOTALS,
    VARIANT,
)

with needed("the compiled game kernel (dekal.kernel)"):
    import numpy as np
    from numpy.typing import NDArray

REVEAL_KIND, TAKE_KIND, PUSH_KIND = range(3)
UTILITY_CODES = {"win": 0, "margin": 1, "blend": 2}
"""dekal.bots._players.utility's utilities by code."""
SEED_RANGE = 2**53  # Draws.below(2**53): one whole 53-bit draw, a rollout's seed


@compiled
def draw(stream: NDArray[np.uint64], k: int) -> int:
    """Draws.below(k) on the one-state generator `stream` (advanced in place)."""
    state = stream[0] + GOLDEN_GAMMA
    stream[0] = state
    return scaled(mixed(state), k)


@compiled
def utility(
    code: int, seat: int, points: NDArray[np.int64], left: NDArray[np.int64],
    totals: NDArray[np.int64], n: int, match: bool,
) -> float:  # fmt: skip
    """dekal.bots._players.utility's win share, margin or blend for `seat`, in its float operations
    and their order (max(0.0, x) keeps 0.0 unless x > 0.0, min(1.0, x) keeps 1.0 unless
    x < 1.0, as Python's max and min keep their first argument on ties)."""
    win = 0.0
    if code != 1:
        ties = 0
        for other in range(n):  # the seats whose key equals the least key
            least = True
            for third in range(n):
                if match:
                    better = totals[third] < totals[other]
                else:
                    better = points[third] < points[other] or (
                        points[third] == points[other] and left[third] < left[other]
                    )
                if better:
                    least = False
                    break
            ties += least
        mine = True
        for third in range(n):
            if match:
                better = totals[third] < totals[seat]
            else:
                better = points[third] < points[seat] or (
                    points[third] == points[seat] and left[third] < left[seat]
                )
            if better:
                mine = False
        win = 1 / ties if mine else 0.0
        if code == 0:
            return win
    own = totals if match else points
    total = 0
    for other in range(n):
        total += own[other]
    value = 0.5 + ((total - own[seat]) / (n - 1) - own[seat]) / 200
    value = value if value > 0.0 else 0.0
    margin = value if value < 1.0 else 1.0
    if code == 1:
        return margin
    return (win + margin) / 2


@compiled
def world_values(
    template: NDArray[np.int64],
    template_grids: NDArray[np.uint64],
    unseen: NDArray[np.int64],
    slot_seat: NDArray[np.int64],
    slot_cell: NDArray[np.int64],
    pickers: NDArray[np.int64],
    stream: NDArray[np.uint64],
    kinds: NDArray[np.int64],
    arguments: NDArray[np.int64],
    seat: int,
    policies: NDArray[np.int64],
    utility_code: int,
    steps: NDArray[np.uint64],
    push_count: NDArray[np.int64],
    values: NDArray[np.float64],
) -> None:
    """values[a, j]: the seat's utility of action a (kinds[a], arguments[a]: the cell, the
    value taken, or the push's index) in world j, played out to the round's end."""
    samples = values.shape[1]
    n = template[PLAYERS]
    variant = template[VARIANT]
    slots = len(slot_seat)
    pile = len(unseen) - slots
    world_grids = np.empty((samples, n), np.uint64)
    world_piles = np.empty((samples, pile), np.int64)
    world_picks = np.empty((samples, n), np.int64)
    cards = np.empty(len(unseen), np.int64)
    for j in range(samples):
        cards[:] = unseen
        for i in range(len(cards) - 1, 0, -1):  # sampler.shuffle
            k = draw(stream, i + 1)
            cards[i], cards[k] = cards[k], cards[i]
        world_grids[j] = template_grids
        for s in range(slots):  # a hidden cell of the template holds some card: replace it
            shift = np.uint64(4 * slot_cell[s])
            word = world_grids[j, slot_seat[s]] & ~(np.uint64(0xF) << shift)
            world_grids[j, slot_seat[s]] = word | (np.uint64(cards[s]) << shift)
        world_piles[j] = cards[slots:]
        world_picks[j] = template[PICKS : PICKS + n]
        for picker in pickers:  # sampler._draw_pick, in seat order
            down = template[DOWN + picker]
            world_picks[j, picker] = nth_cell(down, draw(stream, cell_total(down)))
    seeds = np.empty(samples, np.uint64)
    for j in range(samples):
        seeds[j] = np.uint64(draw(stream, SEED_RANGE))
    row = template.copy()
    grids = np.empty(n, np.uint64)
    streams = np.zeros(1 + MAX_SEATS, np.uint64)
    deck = np.empty(DECK_SIZE, np.int64)
    no_log = np.empty((0, 3), np.int64)
    points = np.empty(n, np.int64)
    left = np.empty(n, np.int64)
    totals = np.empty(n, np.int64)
    match = template[THRESHOLD] >= 0
    for a in range(len(kinds)):
        for j in range(samples):
            row[:] = template
            grids[:] = world_grids[j]
            row[PILE : PILE + pile] = world_piles[j]
            row[PICKS : PICKS + n] = world_picks[j]
            argument = arguments[a]
            if kinds[a] == REVEAL_KIND:
                row[PICKS + seat] = argument
            elif kinds[a] == TAKE_KIND:
                at = CENTRE
                while row[at] != argument:
                    at += 1
                for k in range(at, CENTRE + row[NCENTRE] - 1):
                    row[k] = row[k + 1]
                row[NCENTRE] -= 1
                row[HAND], row[PHASE] = argument, PUSH
            else:
                hole = row[HOLE + seat]
                grids[seat] = push_grid(grids[seat], steps, variant, hole, argument, row[HAND])
                row[DOWN + seat] = push_face_down(row[DOWN + seat], steps, variant, hole, argument)
                row[HAND], row[PHASE] = 0, TAKE
                if row[NCENTRE] == 0:
                    end_turn(grids, row)
            seed_streams(streams, seeds[j], n, row[ROUND])
            play_on(grids, row, streams, policies, push_count, deck, no_log, True)
            for s in range(n):
                points[s], left[s] = score(grids[s])
                totals[s] = row[TOTALS + s]
            values[a, j] = utility(utility_code, seat, points, left, totals, n, match)
