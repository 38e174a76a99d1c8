"""Which positions play can reach: the checks `new_game` applies to a given position.

Feature `position` of spec/protocol.md lets the runner start a game from a one-line position
(spec/notation.md). A position that parses may still be one no game can reach; such a
position is refused with the rule it breaks, checked in this order:

* M2: 2 to 6 grids;
* M1: grids, centre, the card in hand, pile and removed cards are the 100 cards;
* T5: the clock (turn 1–16; a finished round stands at turn 16, every card face up);
* F1/F3: the start is unknown (`-`) only on turn 1 of round 1 before the reveal, under the
  lowest-card rule (F1); under `chosen` it is always known (F3);
* M4: a start that is a number names a seat;
* F2: cards are removed only by a round-1 tie under the lowest-card rule, two at least (a
  draw gives a card to each of two or more tied seats);
* M5: a single-round game has one round and no phase `next`;
* T1: picks only in the reveal phase, each on a face-down card of its seat, and never every
  seat's (the last pick turns them all over); every grid holds 17 − t face-down cards in the
  reveal phase of turn t, 16 − t after it;
* T3: the take phase has cards in the centre;
* T4: a hole in exactly the grids of the seats that have not pushed yet this turn (none in
  the reveal phase nor in a scored round);
* S4: a match still playing (or between rounds) has every total under its threshold; a
  finished match has one at or over it;
* S2: a single round's totals are 0 each until it is scored, then each seat's points.
"""

from __future__ import annotations

from dekal_ref.deal import DECK, check_players
from dekal_ref.errors import IllegalAction
from dekal_ref.scoring import score_grid
from dekal_ref.state import TURNS_PER_ROUND, GameState, Phase


def check_reachable(state: GameState) -> None:
    """IllegalAction naming the first rule (in the order above) that `state` breaks."""
    check_players(state.players)
    _check_cards(state)
    _check_clock(state)
    _check_start(state)
    _check_rounds(state)
    _check_grids(state)
    _check_threshold(state)
    _check_single_totals(state)


def _check_cards(state: GameState) -> None:
    cards = [card.value for grid in state.grids for card in grid if card is not None]
    cards += [*state.centre, *state.pile, *state.removed]
    cards += [] if state.hand is None else [state.hand]
    if sorted(cards) != sorted(DECK):
        raise IllegalAction("M1", f"the position holds {len(cards)} cards, not the 100 of the box")


def _check_clock(state: GameState) -> None:
    if state.round < 1 or not 1 <= state.turn <= TURNS_PER_ROUND:
        raise IllegalAction("T5", f"round {state.round}, turn {state.turn}: turns are 1–16")
    if state.phase in (Phase.NEXT_ROUND, Phase.OVER) and state.turn != TURNS_PER_ROUND:
        raise IllegalAction("T5", "a round is scored only after its 16th turn")


def _check_start(state: GameState) -> None:
    if state.start is None:
        if state.rules.first == "chosen":
            raise IllegalAction("F3", "under the chosen rule the first player is always known")
        if (state.round, state.turn, state.phase) != (1, 1, Phase.REVEAL):
            raise IllegalAction("F1", "the first player is known once turn 1 is revealed")
    elif not 0 <= state.start < state.players:
        raise IllegalAction("M4", f"there is no seat {state.start}")
    elif state.rules.first == "lowest" and (state.round, state.turn, state.phase) == (
        1,
        1,
        Phase.REVEAL,
    ):
        raise IllegalAction("F1", "under the lowest-card rule nobody starts before turn 1's reveal")
    if state.removed and (state.rules.first != "lowest" or state.round != 1 or state.start is None):
        raise IllegalAction("F2", "only a round-1 tie for the lowest card removes cards")
    if len(state.removed) == 1:
        raise IllegalAction("F2", "a tie-break draws a card for each of two or more tied seats")


def _check_rounds(state: GameState) -> None:
    single = state.rules.threshold is None
    if single and (state.round != 1 or state.phase is Phase.NEXT_ROUND):
        raise IllegalAction("M5", "a single-round game has one round and no next round")


def _check_grids(state: GameState) -> None:
    players, turn = state.players, state.turn
    if state.phase is not Phase.REVEAL and any(pick is not None for pick in state.picks):
        raise IllegalAction("T1", "picks are made only in the reveal phase")
    for seat, pick in enumerate(state.picks):
        card = None if pick is None else state.grids[seat][pick]
        if pick is not None and (card is None or not card.face_down):
            raise IllegalAction("T1", f"seat {seat} picked a cell that is not face down")
    if state.phase is Phase.REVEAL and all(pick is not None for pick in state.picks):
        raise IllegalAction("T1", "the last pick turns every pick over: a seat is still to pick")
    if state.phase is Phase.TAKE and not state.centre:
        raise IllegalAction("T3", "the take phase has no card in the centre")
    finished = state.phase in (Phase.NEXT_ROUND, Phase.OVER)
    if state.phase is Phase.REVEAL:
        face_down, holes = 17 - turn, [0] * players
    elif finished:
        face_down, holes = 0, [0] * players
    else:
        face_down, holes = 16 - turn, _holes_mid_turn(state)
    for seat, grid in enumerate(state.grids):
        if sum(card is not None and card.face_down for card in grid) != face_down:
            raise IllegalAction(
                "T1", f"seat {seat}'s grid must hold {face_down} face-down cards on turn {turn}"
            )
        if sum(card is None for card in grid) != holes[seat]:
            raise IllegalAction(
                "T4", f"seat {seat}'s grid must hold {holes[seat]} hole(s) at this point"
            )


def _holes_mid_turn(state: GameState) -> list[int]:
    """In the take and push phases, the seats that have not pushed yet have a hole."""
    assert state.token is not None
    pushed = state.taken - (1 if state.phase is Phase.PUSH else 0)
    done = {(state.token + offset) % state.players for offset in range(pushed)}
    return [0 if seat in done else 1 for seat in range(state.players)]


def _check_threshold(state: GameState) -> None:
    threshold = state.rules.threshold
    if threshold is None:
        return
    reached = max(state.totals) >= threshold
    if reached != (state.phase is Phase.OVER):
        shown = "reached" if reached else "not reached"
        raise IllegalAction("S4", f"the threshold {threshold} is {shown} in phase {state.phase}")


def _check_single_totals(state: GameState) -> None:
    if state.rules.threshold is not None:
        return
    if state.phase is Phase.OVER:
        due = [score_grid(state.values(seat)).points for seat in range(state.players)]
    else:
        due = [0] * state.players
    if list(state.totals) != due:
        shown = ",".join(map(str, due))
        raise IllegalAction("S2", f"a single round's totals are {shown} at this point")
