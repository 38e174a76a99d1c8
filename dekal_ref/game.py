"""Playing Dékal: every move takes a state and returns a new one (rules M2–M5, T1–T5, F1–F4, S4).

Each function checks the move first and raises IllegalAction naming the rule it breaks
(B1); because states are immutable, a refused move leaves the state exactly as it was.
"""

from __future__ import annotations

from dataclasses import replace

from dekal_ref.deal import Deal, check_deal
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import Push, cell_name
from dekal_ref.push import apply_chain, hole_of, push_chain
from dekal_ref.ranking import round_scores
from dekal_ref.state import TURNS_PER_ROUND, Card, Cells, GameState, Phase, Rules


def face_down_grid(values: tuple[int, ...]) -> Cells:
    """M3: a freshly dealt grid, every card face down."""
    return tuple(Card(value, face_down=True) for value in values)


def check_setup(rules: Rules, deal: Deal, first_player: int | None) -> None:
    """M2, M3, M1, F3, F1: what a set-up must satisfy, checked in this order.

    With the "chosen" variant (F3) `first_player` is the seat given the token at set-up;
    with "lowest" (F1) it must be None: turn 1's reveals decide.
    """
    if rules.players != deal.players:
        raise IllegalAction(
            "M2", f"the rules say {rules.players} players but the deal has {deal.players} grids"
        )
    check_deal(deal)
    if rules.first == "chosen":
        if first_player is None or not 0 <= first_player < rules.players:
            raise IllegalAction(
                "F3", f"the chosen variant needs a first player 0–{rules.players - 1} at set-up"
            )
    elif first_player is not None:
        raise IllegalAction(
            "F1", "with the lowest-card rule the first player is found by turn 1's reveals"
        )


def new_game(rules: Rules, deal: Deal, first_player: int | None = None) -> GameState:
    """Set up round 1 from an explicit deal (M3), after check_setup."""
    check_setup(rules, deal, first_player)
    return GameState(
        rules=rules,
        round=1,
        turn=1,
        phase=Phase.REVEAL,
        start=first_player,
        grids=tuple(face_down_grid(grid) for grid in deal.grids),
        picks=(None,) * rules.players,
        centre=(),
        hand=None,
        pile=deal.pile,
        removed=(),
        totals=(0,) * rules.players,
    )


def _check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < state.players:
        raise IllegalAction(
            "M4", f"seats are numbered 0 to {state.players - 1}; there is no seat {seat}"
        )


def _check_not_finished(state: GameState) -> None:
    if state.phase is Phase.OVER:
        if state.rules.threshold is None:
            raise IllegalAction(
                "T5", "the game is over: 16 turns were played and the round was scored"
            )
        raise IllegalAction("S4", "the match is over: a total reached the threshold")
    if state.phase is Phase.NEXT_ROUND:
        raise IllegalAction("M5", "this round is scored: the next round starts with a new deal")


def reveal(state: GameState, seat: int, cell: int) -> GameState:
    """T1: `seat` secretly picks one of its face-down cards. When every seat has picked,
    all picks are revealed at once and go to the centre, each leaving a hole."""
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
    card = state.grids[seat][cell]
    if card is None or not card.face_down:
        raise IllegalAction(
            "T1", f"seat {seat} must reveal a face-down card; {cell_name(cell)} is face up"
        )
    picks = state.picks[:seat] + (cell,) + state.picks[seat + 1 :]
    if any(pick is None for pick in picks):
        return replace(state, picks=picks)
    return _reveal_all(replace(state, picks=picks))


def _reveal_all(state: GameState) -> GameState:
    """T1: every pick is turned face up at once and goes to the centre."""
    revealed: list[int] = []
    grids: list[Cells] = []
    for seat, cell in enumerate(state.picks):
        assert cell is not None
        grid = state.grids[seat]
        card = grid[cell]
        assert card is not None
        revealed.append(card.value)
        grids.append(grid[:cell] + (None,) + grid[cell + 1 :])
    state = replace(
        state,
        phase=Phase.TAKE,
        grids=tuple(grids),
        picks=(None,) * state.players,
        centre=tuple(sorted(revealed)),
    )
    if state.start is None:
        return _first_player_by_lowest_card(state, revealed)
    return state


def _first_player_by_lowest_card(state: GameState, revealed: list[int]) -> GameState:
    """F1–F2: the single lowest reveal takes the token; ties draw from the set-aside pile."""
    lowest = min(revealed)
    tied = [seat for seat, value in enumerate(revealed) if value == lowest]
    pile, removed = list(state.pile), list(state.removed)
    while len(tied) > 1:
        if len(pile) < len(tied):
            # F2 (ruling): the pile cannot serve every tied seat: the lowest tied seat starts.
            tied = [min(tied)]
            break
        # F2: tied seats draw in clockwise order from the lowest tied seat, i.e. ascending seats.
        draws = {seat: pile.pop(0) for seat in sorted(tied)}
        removed.extend(draws[seat] for seat in sorted(tied))
        low = min(draws.values())
        tied = [seat for seat in sorted(tied) if draws[seat] == low]
    return replace(state, start=tied[0], pile=tuple(pile), removed=tuple(removed))


def take(state: GameState, seat: int, card: int) -> GameState:
    """T3: from the first player clockwise, each seat takes one card from the centre."""
    _check_not_finished(state)
    _check_seat(state, seat)
    if state.phase is Phase.REVEAL:
        raise IllegalAction("T3", "no card can be taken before every seat has revealed (T1)")
    if state.phase is Phase.PUSH:
        raise IllegalAction(
            "T4", f"seat {state.to_act} must push the {state.hand} it took before anyone takes"
        )
    if seat != state.to_act:
        raise IllegalAction("T3", f"it is seat {state.to_act}'s turn to take, not seat {seat}'s")
    if card not in state.centre:
        shown = " ".join(str(v) for v in state.centre)
        raise IllegalAction("T3", f"there is no {card} in the centre (the centre holds {shown})")
    centre = list(state.centre)
    centre.remove(card)
    return replace(state, phase=Phase.PUSH, centre=tuple(centre), hand=card)


def push(state: GameState, seat: int, move: Push) -> GameState:
    """T4 with P1 (slide) or P2 (eject): the taken card enters the taker's grid at once.

    The card goes in face up; cards that move keep their face. After the last seat has
    pushed, the token passes left (T5); after turn 16 the round is scored (S1–S4).
    """
    _check_not_finished(state)
    _check_seat(state, seat)
    if state.phase is not Phase.PUSH or state.hand is None:
        raise IllegalAction(
            "T4", "a push inserts the card just taken; no card is waiting to be pushed"
        )
    if seat != state.to_act:
        raise IllegalAction(
            "T4", f"seat {state.to_act} must push the card it took, not seat {seat}"
        )
    grid = state.grids[seat]
    chain = push_chain(hole_of(grid), move, state.rules.push)
    new_grid = apply_chain(grid, chain, Card(state.hand, face_down=False))
    grids = state.grids[:seat] + (new_grid,) + state.grids[seat + 1 :]
    state = replace(state, grids=grids, hand=None, phase=Phase.TAKE)
    if state.centre:
        return state
    return _end_turn(state)


def _end_turn(state: GameState) -> GameState:
    """T5: the token passes left; after turn 16 the round is scored."""
    if state.turn < TURNS_PER_ROUND:
        return replace(state, phase=Phase.REVEAL, turn=state.turn + 1)
    points = [score.points for score in round_scores(state)]
    totals = tuple(total + p for total, p in zip(state.totals, points, strict=True))
    threshold = state.rules.threshold
    over = threshold is None or max(totals) >= threshold
    return replace(state, phase=Phase.OVER if over else Phase.NEXT_ROUND, totals=totals)


def start_round(state: GameState, deal: Deal) -> GameState:
    """M5, F4: a new round of a match, dealt anew; the start rotates one seat left."""
    if state.phase is Phase.OVER:
        _check_not_finished(state)
    if state.phase is not Phase.NEXT_ROUND:
        raise IllegalAction("M5", "a new round starts only after a match round has been scored")
    if deal.players != state.players:
        raise IllegalAction("M2", f"the deal has {deal.players} grids for {state.players} players")
    check_deal(deal)
    assert state.start is not None
    return replace(
        state,
        round=state.round + 1,
        turn=1,
        phase=Phase.REVEAL,
        start=(state.start + 1) % state.players,
        grids=tuple(face_down_grid(grid) for grid in deal.grids),
        picks=(None,) * state.players,
        centre=(),
        hand=None,
        pile=deal.pile,
        removed=(),
    )
