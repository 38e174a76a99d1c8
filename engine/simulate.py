"""Random games, fast: the whole game loop on plain ints, for simulations and fuzzing.

The policy is "a uniformly random legal action": at every decision, with `legal` the list
legal_actions(state) would return (in its fixed order), play legal[int(rng.random() * len(legal))].
`play_random_via(engine, ...)` plays it through any engine's public API (one action at a
time); `play_random` plays the very same game in one tight loop, without building states or
action objects, and returns the final state. Given the same rng seed, all of them end in the
same position, which the tests and bench/run.py check.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from dekal import bits
from dekal._game import CLEAR_CELL, first_player_by_lowest_card
from dekal._grid import nth_cell
from dekal.state import TURNS_PER_ROUND, FastState
from dekal.tables import LEGAL
from dekal_ref.actions import NewRound
from dekal_ref.deal import Deal, SplitMix64, check_deal, deal_from_deck, shuffled_deck
from dekal_ref.errors import IllegalAction
from dekal_ref.state import Phase, Rules

NO_PICK = -1


def deal_stream(seed: int, players: int) -> Iterator[Deal]:
    """The deals of rounds 1, 2, … of a match played from `seed` (dekal_ref.deal's spec)."""
    generator = SplitMix64(seed)
    while True:
        yield deal_from_deck(shuffled_deck(generator), players)


def play_random(
    rules: Rules,
    deals: Iterator[Deal],
    first_player: int | None = None,
    rng: random.Random | None = None,
) -> FastState:
    """Play a whole game (a single round, or a match to the threshold) by the random policy.

    `deals` gives round 1's deal, then each later round's. Returns the final state (phase OVER).
    """
    rng = rng or random.Random()
    draw = rng.random
    n, variant, threshold = rules.players, rules.push, rules.threshold
    legal = LEGAL[variant]
    push_grid, push_face_down, score = bits.push_grid, bits.push_face_down, bits.score
    if rules.first == "chosen" and (first_player is None or not 0 <= first_player < n):
        raise IllegalAction("F3", f"the chosen variant needs a first player 0–{n - 1} at set-up")
    if rules.first == "lowest" and first_player is not None:
        raise IllegalAction(
            "F1", "with the lowest-card rule the first player is found by turn 1's reveals"
        )
    start = first_player
    totals = [0] * n
    round_number = 0
    while True:
        deal = next(deals)
        if deal.players != n:
            raise IllegalAction("M2", f"the deal has {deal.players} grids for {n} players")
        check_deal(deal)
        round_number += 1
        if round_number > 1:
            assert start is not None
            start = (start + 1) % n  # F4: the start rotates
        grids = [bits.pack(grid) for grid in deal.grids]
        down = [bits.MASK16] * n
        pile: tuple[int, ...] = deal.pile
        removed: tuple[int, ...] = ()
        for turn in range(1, TURNS_PER_ROUND + 1):
            # T1: the policy picks among all seats' reveals (seat, then cell), one pick at a time.
            picks = [NO_PICK] * n
            counts = [16 - turn + 1] * n  # every grid has 17 - turn face-down cards (T5)
            waiting = n * counts[0]
            for _ in range(n):
                index = int(draw() * waiting)
                for seat in range(n):
                    if picks[seat] == NO_PICK:
                        if index < counts[seat]:
                            break
                        index -= counts[seat]
                picks[seat] = nth_cell(down[seat], index)
                waiting -= counts[seat]
            revealed = [0] * n
            for seat in range(n):
                cell = picks[seat]
                revealed[seat] = (grids[seat] >> (4 * cell)) & 0xF
                grids[seat] &= CLEAR_CELL[cell]
                down[seat] ^= 1 << cell  # the cell was face down: XOR clears it
            if start is None:
                start, pile, removed = first_player_by_lowest_card(revealed, pile, removed)
            centre = sorted(revealed)
            token = (start + turn - 1) % n
            # T3, T4: clockwise from the token, take a distinct value, push it in at once.
            for offset in range(n):
                seat = (token + offset) % n
                values = sorted(set(centre))
                value = values[int(draw() * len(values))]
                centre.remove(value)
                moves = legal[picks[seat]]  # the hole is where the seat's card was revealed
                step = moves[int(draw() * len(moves))][1]
                grids[seat] = push_grid(grids[seat], step, value)
                down[seat] = push_face_down(down[seat], step)
        totals = [total + score(word)[0] for total, word in zip(totals, grids, strict=True)]
        if threshold is None or max(totals) >= threshold:
            return FastState(
                rules, round_number, TURNS_PER_ROUND, Phase.OVER, start, tuple(grids), tuple(down),
                (None,) * n, (), None, pile, removed, tuple(totals),
            )  # fmt: skip


def play_random_via(
    engine: object,
    rules: Rules,
    deals: Iterator[Deal],
    first_player: int | None = None,
    rng: random.Random | None = None,
) -> object:
    """The same random game, through an engine's public API (dekal.engines.GameAPI)."""
    from dekal.engines import GameAPI

    api: GameAPI = engine  # type: ignore[assignment]
    draw = (rng or random.Random()).random
    state = api.new_game(rules, next(deals), first_player)
    legal_actions, apply = api.legal_actions, api.apply
    while True:
        phase = state.phase
        if phase is Phase.OVER:
            return state
        if phase is Phase.NEXT_ROUND:
            state = apply(state, NewRound(next(deals)))
            continue
        actions = legal_actions(state)
        state = apply(state, actions[int(draw() * len(actions))])


RandomGame = Callable[[Rules, Iterator[Deal], int | None, random.Random | None], object]
