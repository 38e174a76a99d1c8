"""The compiled table loop: deal, reveal, take, push, score, again (M3, M5, T1–T5, F1–F4, S1–S4).

`play_on` plays a state row (dekal.kernel._state) on in place until the game ends (or the
round, for rollouts), every decision made by the seat's policy (docs/contracts.md, "Two policies"):

* random (0): one Draws.below(k) on the seat's own stream over its k legal actions, in the
  reference's order (reveals by cell, takes by ascending distinct value, pushes as LEGAL);
* greedy (1): no draws. Reveal the first face-down cell; take the value v of the first (v, p)
  (values ascending, pushes in order) whose grid after pushing v by p has the lowest
  *visible score* (S1/S2 points of the face-up cards only); push by the first push of the
  hand with the lowest visible score.

Decision order is the table loop's: the seats still to pick reveal in seat order, then takes
and pushes from the token holder clockwise (T3, T4). Streams: streams[0] is the deal stream
(round r's deal is its r-th shuffle, M5), streams[1 + s] seat s's draws. Every action can be
written to a log of (kind, seat, argument) rows for game_actions.
"""

from __future__ import annotations

from dekal.extras import needed
from dekal.kernel._bits import (
    below,
    cell_total,
    cell_value,
    cleared,
    first_cell,
    nth_cell,
    pack,
    points,
    push_face_down,
    push_grid,
    score,
    seed_streams,
    shuffle,
    visible,
)
from dekal.kernel._cache import compiled
from dekal.kernel._state import (
    CENTRE,
    DOWN,
    EXHAUSTED,
    F2_TIE,
    HAND,
    HOLE,
    NCENTRE,
    NEXT,
    NONE,
    NREMOVED,
    OVER,
    PHASE,
    PICKS,
    PILE,
    PILE_END,
    PILE_TOP,
    PLAYERS,
    PUSH,
    REMOVED,
    REVEAL,
    REVEALED,
    ROUND,
    START,
    TAKE,
    THRESHOLD,
    TOTALS,
    TURN,
    VARIANT,
)
from dekal.state import TURNS_PER_ROUND

with needed("the compiled game kernel (dekal.kernel)"):
    import numpy as np
    from numpy.typing import NDArray

RANDOM, GREEDY = 0, 1
REVEAL_ACTION, TAKE_ACTION, PUSH_ACTION, DEAL_ACTION = range(4)
CELLS = 16


@compiled
def record(log: NDArray[np.int64], logged: int, kind: int, seat: int, argument: int) -> int:
    """Write one action to the log if it has room; return how many actions were played."""
    if logged < len(log):
        log[logged, 0], log[logged, 1], log[logged, 2] = kind, seat, argument
    return logged + 1


@compiled
def deal(
    grids: NDArray[np.uint64],
    row: NDArray[np.int64],
    streams: NDArray[np.uint64],
    deck: NDArray[np.int64],
    round_number: int,
    start: int,
) -> None:
    """M3, M5: round `round_number` from the deal stream's next shuffle, every card face down."""
    n = row[PLAYERS]
    shuffle(deck, streams, 0)
    for seat in range(n):
        grids[seat] = pack(deck, 16 * seat)
        row[DOWN + seat] = 0xFFFF
        row[PICKS + seat] = NONE
    row[PILE : PILE + len(deck) - 16 * n] = deck[16 * n :]
    row[PILE_TOP], row[PILE_END], row[NREMOVED] = 0, len(deck) - 16 * n, 0
    row[ROUND], row[TURN], row[PHASE], row[START] = round_number, 1, REVEAL, start
    row[HAND], row[NCENTRE] = 0, 0


@compiled
def first_player_by_lowest_card(row: NDArray[np.int64]) -> None:
    """F1–F2: the single lowest reveal starts; tied seats draw from the pile in ascending seat
    order, lowest draw wins, again while tied; a pile too short for them: the lowest tied seat."""
    n = row[PLAYERS]
    lowest = row[REVEALED : REVEALED + n].min()
    tied = np.empty(n, np.int64)
    count = 0
    for seat in range(n):
        if row[REVEALED + seat] == lowest:
            tied[count] = seat
            count += 1
    row[F2_TIE] = count > 1
    while count > 1:
        top = row[PILE_TOP]
        if row[PILE_END] - top < count:
            row[EXHAUSTED] = 1
            break
        low = row[PILE + top : PILE + top + count].min()
        still = 0
        for k in range(count):  # tied[k] draws pile[top + k]; drawn cards leave play
            drawn = row[PILE + top + k]
            row[REMOVED + row[NREMOVED]] = drawn
            row[NREMOVED] += 1
            if drawn == low:
                tied[still] = tied[k]  # still <= k: the survivors stay in seat order
                still += 1
        row[PILE_TOP] = top + count
        count = still
    row[START] = tied[0]


@compiled
def reveal_all(grids: NDArray[np.uint64], row: NDArray[np.int64]) -> None:
    """T1: every pick is turned up at once into the centre (ascending), leaving its hole."""
    n = row[PLAYERS]
    for seat in range(n):
        cell = row[PICKS + seat]
        value = cell_value(grids[seat], cell)
        row[REVEALED + seat], row[HOLE + seat] = value, cell
        grids[seat] = cleared(grids[seat], cell)
        row[DOWN + seat] ^= 1 << cell  # the cell was face down: XOR turns it up
        row[PICKS + seat] = NONE
        k = seat  # insertion into the sorted centre[:seat]
        while k > 0 and row[CENTRE + k - 1] > value:
            row[CENTRE + k] = row[CENTRE + k - 1]
            k -= 1
        row[CENTRE + k] = value
    row[NCENTRE], row[PHASE] = n, TAKE
    if row[START] == NONE:
        first_player_by_lowest_card(row)


@compiled
def remove_from_centre(row: NDArray[np.int64], card: int) -> None:
    """T3: one `card` leaves the centre, which stays ascending (a loop: no temporary copy)."""
    k = CENTRE
    while row[k] != card:
        k += 1
    last = CENTRE + row[NCENTRE] - 1
    while k < last:
        row[k] = row[k + 1]
        k += 1
    row[NCENTRE] -= 1


@compiled
def to_act(row: NDArray[np.int64]) -> int:
    """T3, T4: the token holder, plus the seats that took (less one while a push waits)."""
    n = row[PLAYERS]
    taken = n - row[NCENTRE] - (row[PHASE] == PUSH)
    return int((row[START] + row[TURN] - 1 + taken) % n)


@compiled
def end_turn(grids: NDArray[np.uint64], row: NDArray[np.int64]) -> None:
    """T5: the next turn; after turn 16, S1–S2 into the totals and S4's threshold test."""
    if row[TURN] < TURNS_PER_ROUND:
        row[TURN] += 1
        row[PHASE] = REVEAL
        return
    n = row[PLAYERS]
    highest = 0
    for seat in range(n):
        row[TOTALS + seat] += points(grids[seat])
        highest = max(highest, row[TOTALS + seat])
    threshold = row[THRESHOLD]
    row[PHASE] = OVER if threshold < 0 or highest >= threshold else NEXT


@compiled
def choose_reveal(policy: int, down: int, streams: NDArray[np.uint64], seat: int) -> int:
    """T1: the cell a seat reveals: among its face-down cells in order, the draw's or the first."""
    if policy == RANDOM:
        return nth_cell(down, below(streams, 1 + seat, cell_total(down)))
    return first_cell(down)


@compiled
def greedy_push(
    grid: np.uint64,
    down: int,
    card: int,
    steps: NDArray[np.uint64],
    variant: int,
    hole: int,
    count: int,
) -> tuple[int, int]:
    """(index of the first push with the lowest visible score, that score).

    Pushing the visible grid equals the visible grid of the push: a push permutes cells and
    their faces, and the entering card is face up.
    """
    seen = visible(grid, down)
    best, best_score = 0, 1 << 30
    for index in range(count):
        value = points(push_grid(seen, steps, variant, hole, index, card))
        if value < best_score:  # strict: the first minimum wins
            best, best_score = index, value
    return best, best_score


@compiled
def choose_take(
    policy: int,
    row: NDArray[np.int64],
    grid: np.uint64,
    seat: int,
    steps: NDArray[np.uint64],
    variant: int,
    count: int,
    streams: NDArray[np.uint64],
) -> int:
    """T3: the value a seat takes among the centre's distinct values, ascending."""
    start, end = CENTRE, CENTRE + row[NCENTRE]
    if policy == RANDOM:
        distinct = 1
        for k in range(start + 1, end):
            distinct += row[k] != row[k - 1]
        index = below(streams, 1 + seat, distinct)
        for k in range(start, end):
            if k == start or row[k] != row[k - 1]:
                if index == 0:
                    return int(row[k])
                index -= 1
        return -1
    hole = row[HOLE + seat]
    down = row[DOWN + seat]
    best, best_score = -1, 1 << 30
    for k in range(start, end):
        if k == start or row[k] != row[k - 1]:
            _, value = greedy_push(grid, down, row[k], steps, variant, hole, count)
            if value < best_score:  # strict: the first (v, p) with the lowest score wins
                best, best_score = row[k], value
    return best


@compiled
def play_on(
    grids: NDArray[np.uint64],
    row: NDArray[np.int64],
    streams: NDArray[np.uint64],
    policies: NDArray[np.int64],
    steps: NDArray[np.uint64],
    push_count: NDArray[np.int64],
    deck: NDArray[np.int64],
    log: NDArray[np.int64],
    until_round: bool,
) -> int:
    """Play the row's game on, in place, to its end (or its round's end): the action count.

    Phases as dekal_ref.game: REVEAL → TAKE ⇄ PUSH → … → NEXT (a match round scored, M5: the
    next deal, F4: the start one seat left) or OVER.
    """
    logged = 0
    variant = row[VARIANT]
    n = row[PLAYERS]
    while True:
        phase = row[PHASE]
        if phase == OVER or (phase == NEXT and until_round):
            return logged
        if phase == NEXT:
            deal(grids, row, streams, deck, row[ROUND] + 1, (row[START] + 1) % n)
            logged = record(log, logged, DEAL_ACTION, -1, row[ROUND])
        elif phase == REVEAL:
            for seat in range(n):
                if row[PICKS + seat] == NONE:
                    cell = choose_reveal(policies[seat], row[DOWN + seat], streams, seat)
                    row[PICKS + seat] = cell
                    logged = record(log, logged, REVEAL_ACTION, seat, cell)
            reveal_all(grids, row)
        else:
            seat = to_act(row)
            grid = grids[seat]
            hole = row[HOLE + seat]
            count = push_count[variant, hole]
            if phase == TAKE:
                card = choose_take(policies[seat], row, grid, seat, steps, variant, count, streams)
                logged = record(log, logged, TAKE_ACTION, seat, card)
                remove_from_centre(row, card)
                row[HAND], row[PHASE] = card, PUSH
            card = row[HAND]
            if policies[seat] == RANDOM:
                index = below(streams, 1 + seat, count)
            else:
                down = row[DOWN + seat]
                index, _ = greedy_push(grid, down, card, steps, variant, hole, count)
            logged = record(log, logged, PUSH_ACTION, seat, 16 * hole + index)
            grids[seat] = push_grid(grid, steps, variant, hole, index, card)
            row[DOWN + seat] = push_face_down(row[DOWN + seat], steps, variant, hole, index)
            row[HAND], row[PHASE] = 0, TAKE
            if row[NCENTRE] == 0:
                end_turn(grids, row)


@compiled
def write_result(
    k: int,
    grids: NDArray[np.uint64],
    row: NDArray[np.int64],
    scores: NDArray[np.int64],
    cards_left: NDArray[np.int64],
    totals: NDArray[np.int64],
    places: NDArray[np.int64],
    flags: NDArray[np.int64],
) -> None:
    """Game k's results: last round's S1/S2, totals, places (S3 by points then cards left;
    S4 by totals in a match), and flags = (round 1's start, f2_tie, exhausted, rounds)."""
    n = row[PLAYERS]
    match = row[THRESHOLD] >= 0
    for seat in range(n):
        scores[k, seat], cards_left[k, seat] = score(grids[seat])
        totals[k, seat] = row[TOTALS + seat]
    for seat in range(n):
        place = 1
        for other in range(n):
            if match:
                better = totals[k, other] < totals[k, seat]
            else:
                better = scores[k, other] < scores[k, seat] or (
                    scores[k, other] == scores[k, seat]
                    and cards_left[k, other] < cards_left[k, seat]
                )
            place += better
        places[k, seat] = place
    start = row[START]
    flags[k, 0] = NONE if start == NONE else (start - (row[ROUND] - 1)) % n  # F4 undone
    flags[k, 1], flags[k, 2], flags[k, 3] = row[F2_TIE], row[EXHAUSTED], row[ROUND]


@compiled
def start_game(
    grids: NDArray[np.uint64],
    row: NDArray[np.int64],
    streams: NDArray[np.uint64],
    deck: NDArray[np.int64],
    seed: np.uint64,
    first_player: int,
) -> None:
    """Round 1 of the game seeded `seed`: its streams (dekal.draws) and its first deal."""
    n = row[PLAYERS]
    seed_streams(streams, seed, n, 0)
    for seat in range(n):
        row[TOTALS + seat] = 0
    row[F2_TIE], row[EXHAUSTED] = 0, 0
    deal(grids, row, streams, deck, 1, first_player)
