"""Playing Dékal on packed states: same moves, same checks, same rule IDs as dekal_ref.game.

Every function checks in the reference's order and raises dekal_ref.errors.IllegalAction
naming the broken rule (B1); a state is an immutable tuple, so a refused move changes nothing.
Pushes are table reads (dekal.tables) applied by the bit kernels (dekal.bits).
"""

from __future__ import annotations

from dekal import bits
from dekal.state import TURNS_PER_ROUND, FastState
from dekal.tables import SIDES, STEP, own_line
from dekal_ref.deal import Deal, check_deal
from dekal_ref.errors import IllegalAction
from dekal_ref.game import check_setup
from dekal_ref.notation import CELL_NAMES, Push
from dekal_ref.state import Phase, Rules

CLEAR_CELL = tuple(bits.MASK64 ^ (0xF << (4 * cell)) for cell in range(16))
ALL_FACE_DOWN = bits.MASK16


def _fresh_round(deal: Deal) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """M3: the dealt grid words, every card face down."""
    grids = tuple(bits.pack(grid) for grid in deal.grids)
    return grids, (ALL_FACE_DOWN,) * len(grids)


def new_game(rules: Rules, deal: Deal, first_player: int | None = None) -> FastState:
    """Set up round 1 from an explicit deal (M3); a `first_player` only with "chosen" (F3)."""
    check_setup(rules, deal, first_player)  # set-up is not a hot path: the reference checks it
    grids, down = _fresh_round(deal)
    n = rules.players
    return FastState(
        rules,
        1,
        1,
        Phase.REVEAL,
        first_player,
        grids,
        down,
        (None,) * n,
        (),
        None,
        deal.pile,
        (),
        (0,) * n,
    )


def _check_not_finished(state: FastState) -> None:
    if state.phase is Phase.OVER:
        if state.rules.threshold is None:
            raise IllegalAction(
                "T5", "the game is over: 16 turns were played and the round was scored"
            )
        raise IllegalAction("S4", "the match is over: a total reached the threshold")
    if state.phase is Phase.NEXT_ROUND:
        raise IllegalAction("M5", "this round is scored: the next round starts with a new deal")


def _check_seat(state: FastState, seat: int) -> None:
    if not 0 <= seat < state.rules.players:
        raise IllegalAction(
            "M4", f"seats are numbered 0 to {state.rules.players - 1}; there is no seat {seat}"
        )


def reveal(state: FastState, seat: int, cell: int) -> FastState:
    """T1: `seat` secretly picks a face-down card; when all have picked, all go to the centre."""
    _check_not_finished(state)
    _check_seat(state, seat)
    if state.phase is not Phase.REVEAL:
        raise IllegalAction(
            "T1",
            "reveals happen at the start of a turn; "
            f"now seat {state.to_act} must {state.phase.value}",
        )
    if state.picks[seat] is not None:
        raise IllegalAction("T1", f"seat {seat} has already picked a card this turn")
    if not 0 <= cell < 16:
        raise IllegalAction("T1", f"cell {cell} is not in the grid (cells are a1–d4)")
    if not state.down[seat] >> cell & 1:  # a hole is never face down, a face-up card neither
        raise IllegalAction(
            "T1", f"seat {seat} must reveal a face-down card; {CELL_NAMES[cell]} is face up"
        )
    picks = state.picks[:seat] + (cell,) + state.picks[seat + 1 :]
    if None in picks:
        r, rnd, turn, phase, start, grids, down, _, centre, hand, pile, removed, totals = state
        return FastState(
            r, rnd, turn, phase, start, grids, down, picks, centre, hand, pile, removed, totals
        )
    return _reveal_all(state, picks)  # type: ignore[arg-type]


def _reveal_all(state: FastState, picks: tuple[int, ...]) -> FastState:
    """T1: every pick is turned face up at once and goes to the centre, leaving a hole."""
    revealed = [(word >> (4 * cell)) & 0xF for word, cell in zip(state.grids, picks, strict=True)]
    grids = tuple(word & CLEAR_CELL[cell] for word, cell in zip(state.grids, picks, strict=True))
    down = tuple(mask & ~(1 << cell) for mask, cell in zip(state.down, picks, strict=True))
    start, pile, removed = state.start, state.pile, state.removed
    if start is None:
        start, pile, removed = first_player_by_lowest_card(revealed, pile, removed)
    return FastState(
        state.rules, state.round, state.turn, Phase.TAKE, start, grids, down,
        (None,) * len(picks), tuple(sorted(revealed)), None, pile, removed, state.totals,
    )  # fmt: skip


def first_player_by_lowest_card(
    revealed: list[int], pile: tuple[int, ...], removed: tuple[int, ...]
) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """F1–F2: the single lowest reveal starts; tied seats draw from the pile, ascending seats.

    Returns (first seat, pile after, removed after). F2 ruling: if the pile cannot serve every
    tied seat, the lowest tied seat starts.
    """
    lowest = min(revealed)
    tied = [seat for seat, value in enumerate(revealed) if value == lowest]
    while len(tied) > 1:
        if len(pile) < len(tied):
            return tied[0], pile, removed
        draws = pile[: len(tied)]  # tied is ascending: seat tied[k] draws the k-th card
        pile, removed = pile[len(tied) :], removed + draws
        low = min(draws)
        tied = [seat for seat, draw in zip(tied, draws, strict=True) if draw == low]
    return tied[0], pile, removed


def take(state: FastState, seat: int, card: int) -> FastState:
    """T3: from the first player clockwise, each seat takes one card from the centre."""
    _check_not_finished(state)
    _check_seat(state, seat)
    phase = state.phase
    if phase is Phase.REVEAL:
        raise IllegalAction("T3", "no card can be taken before every seat has revealed (T1)")
    if phase is Phase.PUSH:
        raise IllegalAction(
            "T4", f"seat {state.to_act} must push the {state.hand} it took before anyone takes"
        )
    if seat != state.to_act:
        raise IllegalAction("T3", f"it is seat {state.to_act}'s turn to take, not seat {seat}'s")
    centre = state.centre
    if card not in centre:
        raise IllegalAction(
            "T3",
            f"there is no {card} in the centre (the centre holds {' '.join(map(str, centre))})",
        )
    index = centre.index(card)
    centre = centre[:index] + centre[index + 1 :]
    r, rnd, turn, _, start, grids, down, picks, _, _, pile, removed, totals = state
    return FastState(
        r, rnd, turn, Phase.PUSH, start, grids, down, picks, centre, card, pile, removed, totals
    )


def push(state: FastState, seat: int, move: Push) -> FastState:
    """T4 with P1 (slide) or P2 (eject): the taken card enters face up (then T5, S1–S4)."""
    _check_not_finished(state)
    _check_seat(state, seat)
    hand = state.hand
    if state.phase is not Phase.PUSH or hand is None:
        raise IllegalAction(
            "T4", "a push inserts the card just taken; no card is waiting to be pushed"
        )
    if seat != state.to_act:
        raise IllegalAction(
            "T4", f"seat {state.to_act} must push the card it took, not seat {seat}"
        )
    word = state.grids[seat]
    hole = hole_of(word)
    step = STEP[state.rules.push][hole].get(move)
    if step is None:
        raise forbidden_push(state.rules.push, hole, move)
    grids = state.grids[:seat] + (bits.push_grid(word, step, hand),) + state.grids[seat + 1 :]
    mask = bits.push_face_down(state.down[seat], step)
    down = state.down[:seat] + (mask,) + state.down[seat + 1 :]
    r, rnd, turn, _, start, _, _, picks, centre, _, pile, removed, totals = state
    after = FastState(
        r, rnd, turn, Phase.TAKE, start, grids, down, picks, centre, None, pile, removed, totals
    )
    return after if centre else _end_turn(after)


def hole_of(word: int) -> int:
    """The cell of the single hole of a grid word (T4 otherwise).

    Invariant: occupied ^ NIBBLE_LOW has bit 4i set for each empty cell i; x & (x - 1) == 0
    for exactly one set bit, and bit_length() // 4 is then its cell.
    """
    holes = bits.occupied(word) ^ bits.NIBBLE_LOW
    if holes & (holes - 1) or not holes:
        count = holes.bit_count()
        raise IllegalAction(
            "T4", f"a push needs a grid with exactly one hole; this one has {count}"
        )
    return holes.bit_length() // 4


def forbidden_push(variant: str, hole: int, move: Push) -> IllegalAction:
    """P1 / P2: the error for a push that the table does not hold, worded as the reference
    words it (the error path is not hot: the rule is found by reading the push)."""
    rule = "P1" if variant == "slide" else "P2"
    if move.side not in SIDES:
        return IllegalAction(rule, f"{move.side!r} is not a side: L, R, T or B")
    hole_line = own_line(move.side, hole)
    line = hole_line if move.line is None else move.line
    if variant == "slide" and line != hole_line:
        return IllegalAction(
            "P1",
            f"slide push {move}: a card can only enter the hole's row or column "
            f"(the hole is {CELL_NAMES[hole]}; use {move.side} alone)",
        )
    if variant == "eject" and move.line is None:
        return IllegalAction(
            "P2", f"eject push {move}: name the line too, like {move.side}{hole_line}"
        )
    if not 1 <= line <= 4:
        return IllegalAction(rule, f"push {move}: lines are numbered 1–4")
    return IllegalAction(
        rule,
        f"push {move} would put the card straight into the hole at {CELL_NAMES[hole]}: "
        "it must enter at the other end of the line and push cards into the hole",
    )


def _end_turn(state: FastState) -> FastState:
    """T5: the token passes left; after turn 16 the round is scored (S1–S4)."""
    if state.turn < TURNS_PER_ROUND:
        return state._replace(phase=Phase.REVEAL, turn=state.turn + 1)
    totals = tuple(
        total + bits.score(word)[0] for total, word in zip(state.totals, state.grids, strict=True)
    )
    threshold = state.rules.threshold
    over = threshold is None or max(totals) >= threshold
    return state._replace(phase=Phase.OVER if over else Phase.NEXT_ROUND, totals=totals)


def start_round(state: FastState, deal: Deal) -> FastState:
    """M5, F4: a new round of a match, dealt anew; the start rotates one seat left."""
    if state.phase is Phase.OVER:
        _check_not_finished(state)
    if state.phase is not Phase.NEXT_ROUND:
        raise IllegalAction("M5", "a new round starts only after a match round has been scored")
    if deal.players != state.rules.players:
        raise IllegalAction(
            "M2", f"the deal has {deal.players} grids for {state.rules.players} players"
        )
    check_deal(deal)
    assert state.start is not None
    grids, down = _fresh_round(deal)
    n = state.rules.players
    return FastState(
        state.rules, state.round + 1, 1, Phase.REVEAL, (state.start + 1) % n, grids, down,
        (None,) * n, (), None, deal.pile, (), state.totals,
    )  # fmt: skip
