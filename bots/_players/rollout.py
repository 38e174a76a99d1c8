"""Fast rollouts: a full position played to the end of its round by one policy (T1–T5, S1–S2).

The search bots (pimc, ismcts) estimate an action by playing sampled worlds on with a cheap
policy. `play_round_out` is that playout in plain Python on packed states, with the random
or greedy policy of docs/contracts.md, exactly as the table plays them: seat s draws from
Draws(seat_seed(seed, s)), reveals in seat order, takes and pushes clockwise from the token.
`round_outcomes` is the one function the bots call: it is where the compiled kernel's
batched rollouts (dekal.kernel.rollouts) take over when they are installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from dekal import _arguments as arguments
from dekal import bits
from dekal._game import CLEAR_CELL, first_player_by_lowest_card, hole_of
from dekal._grid import nth_cell
from dekal.bots._players.greedy import greedy_push_index, greedy_take_value, visible_word
from dekal.draws import Draws, seat_seed
from dekal.extras import available
from dekal.state import TURNS_PER_ROUND, FastState
from dekal.tables import LEGAL
from dekal_ref.state import Phase

POLICIES = {"random": 0, "greedy": 1}
"""The rollout policies, numbered as dekal.kernel.POLICIES numbers them."""


class Outcome(NamedTuple):
    """A played-out round: per seat, its points and cards left (S2) and its match total (S4)."""

    points: tuple[int, ...]
    remaining: tuple[int, ...]
    totals: tuple[int, ...]


def play_round_out(state: FastState, policy: str, seed: int) -> Outcome:
    """Play `state` (any decision point of a round) to the end of its round by `policy`."""
    arguments.seed("seed", seed)
    if state.phase in (Phase.NEXT_ROUND, Phase.OVER):  # the round is scored already (S4)
        scores = [bits.score(word) for word in state.grids]
        return Outcome(tuple(p for p, _ in scores), tuple(r for _, r in scores), state.totals)
    n, variant = state.rules.players, state.rules.push
    legal = LEGAL[variant]
    greedy = POLICIES[policy] == POLICIES["greedy"]
    below = [Draws(seat_seed(seed, seat)).below for seat in range(n)]
    grids, down, picks = list(state.grids), list(state.down), list(state.picks)
    centre, hand, turn, phase = list(state.centre), state.hand, state.turn, state.phase
    start, pile, removed = state.start, state.pile, state.removed
    push_grid, push_face_down = bits.push_grid, bits.push_face_down
    while True:
        taken = 0
        if phase is Phase.REVEAL:
            for seat in range(n):  # T1: the seats still to pick, in seat order
                if picks[seat] is None:
                    mask = down[seat]
                    index = 0 if greedy else below[seat](mask.bit_count())
                    picks[seat] = nth_cell(mask, index)
            revealed = [(grids[s] >> (4 * picks[s])) & 0xF for s in range(n)]  # type: ignore[operator]
            for seat in range(n):
                cell: int = picks[seat]  # type: ignore[assignment]
                grids[seat] &= CLEAR_CELL[cell]
                down[seat] &= ~(1 << cell)
            if start is None:
                start, pile, removed = first_player_by_lowest_card(revealed, pile, removed)
            centre = sorted(revealed)
        else:
            taken = n - len(centre) - (phase is Phase.PUSH)
        assert start is not None
        token = (start + turn - 1) % n
        for offset in range(taken, n):  # T3, T4: clockwise from the token
            seat = (token + offset) % n
            word = grids[seat]
            hole = hole_of(word)
            if hand is None:
                if greedy:
                    value = greedy_take_value(visible_word(word, down[seat]), hole, centre, variant)
                else:
                    values = sorted(set(centre))
                    value = values[below[seat](len(values))]
                centre.remove(value)
            else:
                value, hand = hand, None
            moves = legal[hole]
            if greedy:
                index = greedy_push_index(visible_word(word, down[seat]), hole, value, variant)
            else:
                index = below[seat](len(moves))
            step = moves[index][1]
            grids[seat] = push_grid(word, step, value)
            down[seat] = push_face_down(down[seat], step)
        if turn == TURNS_PER_ROUND:
            break
        turn, phase, picks = turn + 1, Phase.REVEAL, [None] * n
    scores = [bits.score(word) for word in grids]
    points = tuple(p for p, _ in scores)
    return Outcome(
        points,
        tuple(r for _, r in scores),
        tuple(total + p for total, p in zip(state.totals, points, strict=True)),
    )


def round_outcomes(
    states: Sequence[FastState], policy: str, seeds: Sequence[int], *, compiled: bool = True
) -> list[Outcome]:
    """Each state played to the end of its round by `policy`, state k with seed seeds[k].

    compiled=True plays them in one call of the compiled kernel (dekal.kernel.rollouts, the
    same games: tests/bots/test_bots.py checks it); False, or numba not installed (the `fast`
    extra), one by one in Python (play_round_out).
    """
    if not compiled or not available("numba"):
        return [play_round_out(s, policy, seed) for s, seed in zip(states, seeds, strict=True)]
    from dekal import kernel  # numba: imported only when a search bot first plays out

    results = kernel.rollouts(
        states, [POLICIES[policy]] * states[0].rules.players, seeds, until="round"
    )
    return [
        Outcome(tuple(points), tuple(left), tuple(totals))
        for points, left, totals in zip(
            results.scores.tolist(),
            results.cards_left.tolist(),
            results.totals.tolist(),
            strict=True,
        )
    ]
