"""Many games in one compiled call: whole seeded games, and rollouts of given states.

Each driver reuses one set of work arrays for all its games (no allocation per game) and
writes each game's results into preallocated arrays (dekal.kernel.GameResults's columns).
"""

from __future__ import annotations

from dekal.extras import needed
from dekal.kernel._bits import seed_streams
from dekal.kernel._cache import compiled
from dekal.kernel._play import play_on, start_game, write_result
from dekal.kernel._state import DECK_SIZE, MAX_SEATS, PLAYERS, ROUND

with needed("the compiled game kernel (dekal.kernel)"):
    import numpy as np
    from numpy.typing import NDArray


@compiled
def play_many(
    template: NDArray[np.int64],
    seeds: NDArray[np.uint64],
    first_players: NDArray[np.int64],
    policies: NDArray[np.int64],
    push_count: NDArray[np.int64],
    scores: NDArray[np.int64],
    cards_left: NDArray[np.int64],
    totals: NDArray[np.int64],
    places: NDArray[np.int64],
    flags: NDArray[np.int64],
) -> None:
    """Game k: seeded seeds[k], first player first_players[k] (-1: F1 decides), under the
    rules of the template row (PLAYERS, VARIANT, THRESHOLD)."""
    row = template.copy()
    grids = np.zeros(row[PLAYERS], np.uint64)
    streams = np.zeros(1 + MAX_SEATS, np.uint64)
    deck = np.empty(DECK_SIZE, np.int64)
    no_log = np.empty((0, 3), np.int64)
    for k in range(len(seeds)):
        start_game(grids, row, streams, deck, seeds[k], first_players[k])
        play_on(grids, row, streams, policies, push_count, deck, no_log, False)
        write_result(k, grids, row, scores, cards_left, totals, places, flags)


@compiled
def roll_many(
    rows: NDArray[np.int64],
    grids: NDArray[np.uint64],
    seeds: NDArray[np.uint64],
    policies: NDArray[np.int64],
    push_count: NDArray[np.int64],
    until_round: bool,
    scores: NDArray[np.int64],
    cards_left: NDArray[np.int64],
    totals: NDArray[np.int64],
    places: NDArray[np.int64],
    flags: NDArray[np.int64],
) -> None:
    """Play rows[k] (in place) on with seed seeds[k]: seat s draws from seat_seed(seed, s),
    and a later round's deal is the next shuffle of SplitMix64(seed) after the state's rounds."""
    streams = np.zeros(1 + MAX_SEATS, np.uint64)
    deck = np.empty(DECK_SIZE, np.int64)
    no_log = np.empty((0, 3), np.int64)
    for k in range(len(seeds)):
        row = rows[k]
        seed_streams(streams, seeds[k], row[PLAYERS], row[ROUND])
        play_on(grids[k], row, streams, policies, push_count, deck, no_log, until_round)
        write_result(k, grids[k], row, scores, cards_left, totals, places, flags)
