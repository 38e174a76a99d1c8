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
    GOLDEN_GAMMA,
    NEIGHBOURS,
    NIBBLE_SPREAD,
    cancelled_and_occupied,
    cell_count,
    cell_total,
    cell_value,
    cleared,
    equal_cells,
    first_cell,
    mixed,
    nibble_sum,
    nth_cell,
    pack,
    points,
    push_face_down,
    push_grid,
    scaled,
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
from dekal.kernel._tables import ENTRY, STEPS
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
    order, lowest draw wins, again while tied; a pile too short for them: the lowest tied seat.
    The tied seats are a bit set (bit s: seat s), read from the low end: seat order, and no
    array allocated per game."""
    n = row[PLAYERS]
    lowest = row[REVEALED]
    for seat in range(1, n):
        lowest = min(lowest, row[REVEALED + seat])
    tied, count = 0, 0
    for seat in range(n):
        if row[REVEALED + seat] == lowest:
            tied |= 1 << seat
            count += 1
    row[F2_TIE] = count > 1
    while count > 1:
        top = row[PILE_TOP]
        if row[PILE_END] - top < count:
            row[EXHAUSTED] = 1
            break
        low = row[PILE + top]
        for k in range(1, count):
            low = min(low, row[PILE + top + k])
        still, survivors, k = 0, 0, 0
        for seat in range(n):  # the k-th tied seat draws pile[top + k]; drawn cards leave play
            if tied >> seat & 1:
                drawn = row[PILE + top + k]
                k += 1
                row[REMOVED + row[NREMOVED]] = drawn
                row[NREMOVED] += 1
                if drawn == low:
                    survivors |= 1 << seat
                    still += 1
        row[PILE_TOP] = top + count
        tied, count = survivors, still
    row[START] = first_cell(tied)


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
def visible_points_with(
    points_: int, base: np.uint64, beside: np.uint64, kept_beside: np.uint64, value: int
) -> int:
    """The visible points of `base` (points `points_`) with `value` put in its empty entry cell.

    Invariant (S1): a card is cancelled exactly when an orthogonal neighbour holds its value,
    so filling one empty cell changes only that cell and its neighbours: the value scores if
    no neighbour holds it; otherwise it and every neighbour holding it that was not cancelled
    yet drop out."""
    same = equal_cells(base, value) & beside
    if same == 0:
        return points_ + value
    return points_ - value * cell_count(same & kept_beside)


@compiled
def greedy_choice(
    seen: np.uint64, variant: int, hole: int, count: int, values: int
) -> tuple[int, int]:
    """(value, push index) of the first (v, p), v ascending over `values` (distinct values,
    ascending, one a nibble from the low end, 0 after the last), pushes in order, with the
    lowest visible score of `seen` (the grid with its face-down cards emptied).

    Each push is scored once with an empty entry (the push of the visible grid is the visible
    grid of the push: a push permutes cells and faces, and the entry is face up), then every
    value in it by visible_points_with. Pushes run outside, values inside: keeping the lowest
    score and, on a tie, the lower value finds the same (v, p) as the v-major order, and the p
    kept for the chosen v is its first push with that score (greedy's push, docs/contracts.md).
    Scalars only, the tables as the module's constants (STEPS): no array argument, so no
    reference count per call.
    """
    best_value, best_index, best_score = 0, 0, 1 << 30
    for index in range(count):
        base = push_grid(seen, STEPS, variant, hole, index, 0)
        gone, _ = cancelled_and_occupied(base)
        base_points = nibble_sum(base & ~(gone * NIBBLE_SPREAD))  # gone ⊆ NIBBLE_LOW
        beside = NEIGHBOURS[int(STEPS[variant, hole, index, ENTRY])]
        kept_beside = beside & ~gone
        rest = values
        while rest:
            value = rest & 0xF
            rest >>= 4
            score_ = visible_points_with(base_points, base, beside, kept_beside, value)
            if score_ < best_score or (score_ == best_score and value < best_value):
                best_value, best_index, best_score = value, index, score_
    return best_value, best_index


@compiled
def play_on(
    grids: NDArray[np.uint64],
    row: NDArray[np.int64],
    streams: NDArray[np.uint64],
    policies: NDArray[np.int64],
    push_count: NDArray[np.int64],
    deck: NDArray[np.int64],
    log: NDArray[np.int64],
    until_round: bool,
) -> int:
    """Play the row's game on, in place, to its end (or its round's end): the action count.

    Phases as dekal_ref.game: REVEAL → TAKE ⇄ PUSH → … → NEXT (a match round scored, M5: the
    next deal, F4: the start one seat left) or OVER. The takes and pushes of a turn run in one
    loop, seat after seat from the token holder (T3, T4), with every draw and push written out
    here on scalars: no call that holds an array reference, so no reference count, in the
    loop of a decision.
    """
    logged = 0
    capacity = len(log)
    variant = row[VARIANT]
    n = row[PLAYERS]
    while True:
        phase = row[PHASE]
        if phase == OVER or (phase == NEXT and until_round):
            return logged
        if phase == NEXT:
            deal(grids, row, streams, deck, row[ROUND] + 1, (row[START] + 1) % n)
            logged = record(log, logged, DEAL_ACTION, -1, row[ROUND])
            continue
        if phase == REVEAL:
            # Each seat's pick and its reveal in one pass (here, not in a function of the
            # row: a call that takes arrays costs two atomic reference counts per array, once
            # a turn). A pick reads only its own seat's face-down cells, so turning one seat's
            # card up before the next seat picks changes no pick, and T1's turning up "at
            # once" is every pick revealed before anyone takes.
            for seat in range(n):
                cell = row[PICKS + seat]
                if cell == NONE:
                    down = row[DOWN + seat]
                    if policies[seat] == RANDOM:
                        state = streams[1 + seat] + GOLDEN_GAMMA  # next_output, inline
                        streams[1 + seat] = state
                        cell = nth_cell(down, scaled(mixed(state), cell_total(down)))
                    else:
                        cell = first_cell(down)
                    if logged < capacity:
                        log[logged, 0], log[logged, 1], log[logged, 2] = REVEAL_ACTION, seat, cell
                    logged += 1
                # T1: the pick is turned up into the centre (ascending), leaving its hole;
                # the value as int64, as the row is (numba compares int64 with uint64 as floats)
                value = np.int64(cell_value(grids[seat], cell))
                row[REVEALED + seat], row[HOLE + seat] = value, cell
                grids[seat] = cleared(grids[seat], cell)
                row[DOWN + seat] ^= 1 << cell  # the cell was face down: XOR turns it up
                row[PICKS + seat] = NONE
                # Insertion into the ascending centre[:seat] (empty at the reveal) without a
                # branch on the card: with a[-1] = -inf and a[seat] = +inf, the new a[k] is
                # min(max(a[k - 1], value), a[k]) (a[k] stays if a[k] <= value, a[k - 1]
                # moves up if it is above value, value lands between), written top down so
                # each step reads old cells only.
                upper = np.int64(1 << 30)  # +inf: above every card
                for k in range(seat, 0, -1):
                    lower = row[CENTRE + k - 1]
                    row[CENTRE + k] = min(max(lower, value), upper)
                    upper = lower
                row[CENTRE] = min(value, upper)  # a[-1] = -inf: max(a[-1], value) is value
            row[NCENTRE], row[PHASE] = n, TAKE
            if row[START] == NONE:
                first_player_by_lowest_card(row)
        # T3, T4: the seats still to take this turn, clockwise from the token holder
        taken = n - row[NCENTRE] - (row[PHASE] == PUSH)
        seat = (row[START] + row[TURN] - 1 + taken) % n
        while True:
            policy = policies[seat]
            grid = grids[seat]
            hole = row[HOLE + seat]
            down = row[DOWN + seat]
            count = push_count[variant, hole]
            index = -1
            if row[PHASE] == TAKE:
                first, end = CENTRE, CENTRE + row[NCENTRE]
                if policy == RANDOM:
                    distinct = 1
                    for k in range(first + 1, end):
                        distinct += row[k] != row[k - 1]
                    state = streams[1 + seat] + GOLDEN_GAMMA
                    streams[1 + seat] = state
                    chosen = scaled(mixed(state), distinct)
                    # The chosen-th distinct value of the ascending centre is at its first
                    # card of rank `chosen` (rank: the value changes before it), so `at` is
                    # how many cards rank below it: a loop of fixed length, no branch on
                    # the draw (a loop that stopped at the draw mispredicted its exit).
                    at, rank = first, 0
                    for k in range(first + 1, end):
                        rank += row[k] != row[k - 1]
                        at += rank < chosen
                    at += chosen > 0  # the first card has rank 0 and ranks below any chosen > 0
                    card = row[at]
                else:  # greedy's push for the card it takes comes with the take
                    distinct, shift = 0, 0  # the centre's distinct values, packed ascending
                    for k in range(first, end):
                        if k == first or row[k] != row[k - 1]:
                            distinct |= row[k] << shift
                            shift += 4
                    card, index = greedy_choice(visible(grid, down), variant, hole, count, distinct)
                    at = first
                    while row[at] != card:
                        at += 1
                if logged < capacity:
                    log[logged, 0], log[logged, 1], log[logged, 2] = TAKE_ACTION, seat, card
                logged += 1
                # T3: the card leaves, the centre stays ascending. Every card from the first
                # on is rewritten, those from `at` on by their successor: a loop whose length
                # is the centre's, not the draw's, so its exit is predicted.
                for k in range(first, end - 1):
                    row[k] = row[k + (k >= at)]
                row[NCENTRE] -= 1
            else:
                card = row[HAND]
            if index < 0:
                if policy == RANDOM:
                    state = streams[1 + seat] + GOLDEN_GAMMA
                    streams[1 + seat] = state
                    index = scaled(mixed(state), count)
                else:
                    _, index = greedy_choice(visible(grid, down), variant, hole, count, card)
            if logged < capacity:
                log[logged, 0], log[logged, 1] = PUSH_ACTION, seat
                log[logged, 2] = 16 * hole + index
            logged += 1
            # The module's STEPS as a constant, not an argument: a constant array's strides
            # are constants, so a step's address is one lea, not three multiplies by strides
            # read from the stack on the push's chain.
            grids[seat] = push_grid(grid, STEPS, variant, hole, index, card)
            row[DOWN + seat] = push_face_down(down, STEPS, variant, hole, index)
            row[HAND], row[PHASE] = 0, TAKE
            if row[NCENTRE] == 0:
                # T5 as end_turn does it, written out here for the 15 turns of 16 that score
                # nothing: a call that takes arrays costs two atomic reference counts per array
                if row[TURN] < TURNS_PER_ROUND:
                    row[TURN] += 1
                    row[PHASE] = REVEAL
                else:
                    end_turn(grids, row)
                break
            seat = seat + 1 if seat + 1 < n else 0


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
