"""Which positions advise can be asked about: a view some game reaches, read from its text.

advise plays the round on from the position it is asked about, so a clock, a phase or grids
that contradict each other would make its figures (and the legal actions) meaningless: such
a position is refused, naming the rule (check_reachable). A full position is checked whole
(M1, T1) before it is hidden (M3).
"""

from __future__ import annotations

from collections import Counter

from dekal.bots.observation import Observation, check_view, read_public_view
from dekal.state import TURNS_PER_ROUND
from dekal_ref.deal import DECK
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import HOLE, cell_name
from dekal_ref.position import parse_position
from dekal_ref.state import GameState, Phase


def check_reachable(view: Observation) -> None:
    """Refuse, naming the rule, a view that no game can reach: advise plays the round on from
    it, and a clock, a phase or grids that contradict each other would make its figures (and
    the legal actions) meaningless. dekal.bots.observation.check_view has checked the deck
    (M1, M2); this checks the round's shape, from what every turn does to every grid:

    * T5: a round has turns 1 to 16; a single game has one round (S4); `next` is a match's;
    * T1: each turn reveals one face-down card of each grid, and pushes never turn a card
      over (P1, P2), so a grid has 17 - turn face-down cards at the reveal, 16 - turn after
      it, none once the round is scored; picks are made, and stay secret, in the reveal only,
      and the last pick reveals them all at once; the centre fills at the reveal;
    * T3, T4: a take finds 1 to n cards in the centre, a push 0 to n - 1; a card waits in
      hand only for its push; a seat that has not pushed this turn has its hole, one that
      has pushed has none, and before the reveal no grid has a hole;
    * F1, F3, M4: the start is a seat at the table, unknown only on turn 1 of round 1, before
      the reveal, when the lowest card decides it; F2: tie-break draws leave play in round 1
      only, and not before the first reveal;
    * S4: a match goes on only while every total is under its threshold.
    """
    n, rules, phase, turn = view.players, view.rules, view.phase, view.turn
    if {len(view.grids), len(view.picked), len(view.totals)} != {n}:
        raise IllegalAction("M2", f"the rules seat {n}: one grid, pick and total per seat")
    check_view(view)  # M1, M2: the deck, for a view made in Python rather than read
    playing = phase in (Phase.REVEAL, Phase.TAKE, Phase.PUSH)
    if not 1 <= turn <= TURNS_PER_ROUND or view.round < 1:
        raise IllegalAction("T5", f"round {view.round}, turn {turn}: a round has turns 1 to 16")
    if not playing and turn != TURNS_PER_ROUND:
        raise IllegalAction("T5", f"the round is scored only after turn 16, not turn {turn}")
    if rules.threshold is None and view.round != 1:
        raise IllegalAction("S4", f"a single game has one round, not round {view.round}")
    if rules.threshold is None and phase is Phase.NEXT_ROUND:
        raise IllegalAction("T5", "a single game has no next round: it is over (write over)")
    over_threshold = rules.threshold is not None and max(view.totals) >= rules.threshold
    if over_threshold and phase is not Phase.OVER:
        raise IllegalAction("S4", f"a total reached {rules.threshold}: the match is over")
    if rules.threshold is None and phase is not Phase.OVER and any(view.totals):
        raise IllegalAction("S4", "a single game has no totals before its round is scored")
    first_reveal = view.round == 1 and turn == 1 and phase is Phase.REVEAL
    if (view.start is None) != (first_reveal and rules.first == "lowest"):
        raise IllegalAction(
            "F1", "the lowest card of round 1's first reveal gives the start: before it the"
            " start is unknown (-), after it known (F3: given from the outset)",
        )  # fmt: skip
    if view.start is not None and view.start >= n:
        raise IllegalAction("M4", f"the start {view.start} is not a seat: seats are 0 to {n - 1}")
    if view.removed and (view.round != 1 or first_reveal or rules.first != "lowest"):
        raise IllegalAction("F2", "cards leave play to break the first tie of round 1 only")
    if any(view.picked) and phase is not Phase.REVEAL or all(view.picked):
        raise IllegalAction("T1", "picks are secret during the reveal only; the last reveals all")
    if (phase is Phase.REVEAL or not playing) and view.centre:
        raise IllegalAction("T1", f"the centre fills at the reveal; in {phase.value} it is empty")
    if phase is Phase.TAKE and not 1 <= len(view.centre) <= n:
        raise IllegalAction("T3", f"a take finds 1 to {n} cards in the centre")
    if phase is Phase.PUSH and len(view.centre) > n - 1:
        raise IllegalAction("T4", f"a push leaves 0 to {n - 1} cards in the centre")
    down = {Phase.REVEAL: 17 - turn}.get(phase, 16 - turn if playing else 0)
    pushed = _pushed_this_turn(view)
    for seat, cells in enumerate(view.grids):
        if len(view.face_down_cells(seat)) != down:
            raise IllegalAction(
                "T1", f"seat {seat} has {len(view.face_down_cells(seat))} face-down cards:"
                f" {down} in {phase.value} of turn {turn}, one revealed each turn",
            )  # fmt: skip
        holes = cells.count(HOLE)
        if holes != int(phase in (Phase.TAKE, Phase.PUSH) and seat not in pushed):
            raise IllegalAction(
                "T4", f"seat {seat} has {holes} holes: a seat's reveal leaves one, its push"
                " fills it",
            )  # fmt: skip


def _pushed_this_turn(view: Observation) -> set[int]:
    """T3, T4: the seats that have taken and pushed this turn, from the token holder on."""
    if view.phase not in (Phase.TAKE, Phase.PUSH) or view.start is None:
        return set()
    token = (view.start + view.turn - 1) % view.players
    done = view.players - len(view.centre) - (view.phase is Phase.PUSH)
    return {(token + k) % view.players for k in range(done)}


def check_full_position(state: GameState) -> None:
    """A full position shows what its view hides, so it must hold the deck exactly (M1: the
    face-down cards and the pile included) and each made pick must be a face-down cell of its
    seat (T1)."""
    cards = Counter(card.value for grid in state.grids for card in grid if card is not None)
    cards.update(state.centre + state.pile + state.removed)
    if state.hand is not None:
        cards[state.hand] += 1
    for value in sorted(set(cards) | set(DECK)):
        if cards[value] != DECK.count(value):
            raise IllegalAction(
                "M1", f"the position holds {cards[value]} cards of value {value}; the deck"
                f" has {DECK.count(value)}",
            )  # fmt: skip
    for seat, pick in enumerate(state.picks):
        if pick is not None and pick not in state.face_down_cells(seat):
            raise IllegalAction(
                "T1", f"seat {seat} picked {cell_name(pick)}, which is not a face-down card"
            )


def read_question(text: str) -> Observation:
    """The position `dekal advise` is asked about: a public view line, or a full position
    (checked whole, then hidden). NotationError naming the field, or IllegalAction naming the
    rule for a position no game reaches (check_view, check_full_position, check_reachable)."""
    stripped = text.strip()
    if "?" not in stripped and "#" not in stripped:  # a full position: no view writes neither
        check_full_position(parse_position(stripped))
    view = read_public_view(stripped)
    check_reachable(view)
    return view
