"""Both engines play whole games in lock-step (Hypothesis RuleBasedStateMachine).

Every game: 2–6 players, slide or eject (P1/P2), lowest or chosen first player (F1–F3), a
single round or a match to a small threshold (S4), so that games and matches end inside one
run. Each step plays a legal action (drawn from the reference's list, which must equal the
optimized engine's) or tries a plausible-but-wrong action (wrong seat, face-up cell, value
not in the centre, forbidden push, out-of-phase move, bad deal, acting after the end), which
both engines must refuse naming the same rule, leaving the position unchanged; if the
reference accepts such an action, the optimized engine must too, with the same result.
After every step the two full and public positions must be the same line, and the rules'
invariants must hold. A failing game is printed as a game record (dekal_ref.record).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import HealthCheck, event, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import dekal_ref
from dekal import fast
from dekal.simulate import deal_stream
from dekal_ref.actions import Action, NewRound, PushMove, Reveal, Take
from dekal_ref.deal import Deal
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import Push
from dekal_ref.state import Phase, Rules

ENGINES = (dekal_ref, fast)
GAME_STEPS = 16 * 18 * 2 + 24  # a 2-round match of 6 seats × (reveal, take, push) × 16 turns
THRESHOLDS = [None, None, 40, 90, 150]  # single rounds; matches of about 1–3 rounds


def _outcome(engine: Any, state: Any, action: Action) -> tuple[str, Any]:
    try:
        return "ok", engine.apply(state, action)
    except IllegalAction as error:
        return error.rule, None


class LockStepGames(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._states: list[Any] = []
        self._texts: list[str] | None = None
        self.game_rules = Rules(players=2)
        self.deals: list[Deal] = []
        self.deal_source: Iterator[Deal] = iter(())
        self.first: int | None = None
        self.actions: list[Action] = []
        self.start: int | None = None  # the start seat as this machine expects it (F1–F4)
        self.taken = 0  # seats that took a card this turn (T3)
        self.attempts_after_end = 0

    # ---- set-up -------------------------------------------------------------------------

    @initialize(data=st.data())
    def first_game(self, data: st.DataObject) -> None:
        self.new_game(data)

    def new_game(self, data: st.DataObject) -> None:
        """Draw the variants and a seed, and deal round 1 to both engines."""
        players = data.draw(st.integers(2, 6), label="players")
        self.game_rules = Rules(
            players=players,
            push=data.draw(st.sampled_from(["slide", "eject"]), label="push"),
            first=data.draw(st.sampled_from(["lowest", "chosen"]), label="first"),
            threshold=data.draw(st.sampled_from(THRESHOLDS), label="threshold"),
        )
        seed = data.draw(st.integers(0, 2**64 - 1), label="seed")
        self.deal_source = deal_stream(seed, players)
        self.deals = [next(self.deal_source)]
        self.first = None
        if self.game_rules.first == "chosen":
            self.first = data.draw(st.integers(0, players - 1), label="first player")
        self.start = self.first
        self.taken = 0
        self.actions = []
        self.attempts_after_end = 0
        self.states = [
            engine.new_game(self.game_rules, self.deals[0], self.first) for engine in ENGINES
        ]

    # ---- helpers ------------------------------------------------------------------------

    def over(self) -> bool:
        return self.ref.phase is Phase.OVER

    @property
    def states(self) -> list[Any]:
        """The reference's state and the optimized engine's, in ENGINES order."""
        return self._states

    @states.setter
    def states(self, states: list[Any]) -> None:
        self._states = states
        self._texts = None

    def texts(self) -> list[str]:
        """The full position of each state, written once per state: the invariant and the
        next step's unchanged-state checks (B1) read the same text of the same state."""
        if self._texts is None:
            self._texts = [e.format_position(s) for e, s in zip(ENGINES, self.states, strict=True)]
        return self._texts

    @property
    def ref(self) -> dekal_ref.GameState:
        return self.states[0]  # type: ignore[no-any-return]

    def record_text(self) -> str:
        """The game so far as a game record, or as a plain action list if that fails."""
        try:
            from dekal_ref.record import format_record, record_from_game

            moves = [a for a in self.actions if not isinstance(a, NewRound)]
            return format_record(record_from_game(self.game_rules, self.deals, self.first, moves))
        except Exception as error:  # the reference itself may be what is broken
            listing = "\n".join(str(a) for a in self.actions)
            return f"(no record: {error})\nrules {self.game_rules} first {self.first}\n{listing}"

    @contextmanager
    def explained(self, what: str) -> Iterator[None]:
        """On a failed check, note the game record: Hypothesis prints it for the final example."""
        try:
            yield
        except AssertionError:
            note(f"{what}\n--- game record ---\n{self.record_text()}")
            for engine, state in zip(ENGINES, self.states, strict=True):
                note(f"{engine.__name__}: {engine.format_position(state)}")
            raise

    def play(self, action: Action) -> None:
        """Apply a legal action to both engines; the old states must not change (B1)."""
        before = self.texts()
        after = [e.apply(s, action) for e, s in zip(ENGINES, self.states, strict=True)]
        for engine, old, text in zip(ENGINES, self.states, before, strict=True):
            assert engine.format_position(old) == text, (
                f"{engine.__name__} changed a state in place"
            )
        self.actions.append(action)
        self.track(action)
        self.states = after

    def track(self, action: Action) -> None:
        """This machine's own bookkeeping of the start seat and of the seats that took."""
        if isinstance(action, NewRound):
            assert self.start is not None
            self.start = (self.start + 1) % self.game_rules.players  # F4
            self.taken = 0
        elif isinstance(action, Take):
            self.taken += 1
        elif isinstance(action, PushMove) and self.taken == self.game_rules.players:
            self.taken = 0  # the turn ends (T5)

    # ---- rules --------------------------------------------------------------------------

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        """One step of the game: sometimes (one in four) a wrong action first, then a legal one.

        Once the game is over, two more attempts (T5 / S4: all refused), then a new game, so
        that every step of a run plays (one rule, no preconditions: no draw is wasted).
        """
        if self.ref.phase is Phase.OVER:
            if self.attempts_after_end < 2:
                self.attempts_after_end += 1
                self.attempt(data)
            else:
                self.new_game(data)
            return
        if data.draw(ONE_IN_FOUR, label="try a wrong action first") == 0:
            self.attempt(data)
            if self.over():  # the attempt happened to be legal and ended the game
                return
        with self.explained("legal actions differ"):
            if self.ref.phase is Phase.NEXT_ROUND:
                deal = next(self.deal_source)
                self.deals.append(deal)
                self.play(NewRound(deal))
                return
            legal = [
                engine.legal_actions(state)
                for engine, state in zip(ENGINES, self.states, strict=True)
            ]
            assert legal[0] == legal[1]
            assert legal[0], "a game that is not over always has a legal action"
            self.play(data.draw(st.sampled_from(legal[0]), label="legal action"))

    def attempt(self, data: st.DataObject) -> None:
        action = draw_wrong_action(data, self.ref, self.deals[0])
        with self.explained(f"the engines disagree on {action!r}"):
            before = self.texts()
            outcomes = [_outcome(e, s, action) for e, s in zip(ENGINES, self.states, strict=True)]
            assert outcomes[0][0] == outcomes[1][0], (
                f"{action!r}: ref says {outcomes[0][0]}, fast says {outcomes[1][0]}"
            )
            for engine, state, text in zip(ENGINES, self.states, before, strict=True):
                assert engine.format_position(state) == text, f"{engine.__name__} changed a state"
            if outcomes[0][0] == "ok":  # the attempt happened to be legal: keep playing it
                event("attempt was legal")
                if isinstance(action, NewRound):
                    self.deals.append(action.deal)
                self.actions.append(action)
                self.track(action)
                self.states = [outcome[1] for outcome in outcomes]
            else:
                event(f"refused {outcomes[0][0]}")

    # ---- invariants ---------------------------------------------------------------------

    @invariant()
    def same_position(self) -> None:
        if not self.states:
            return
        with self.explained("positions differ"):
            ref_state, fast_state = self.states
            ref_text, fast_text = self.texts()
            assert ref_text == fast_text
            assert dekal_ref.format_position(ref_state, public=True) == fast.format_position(
                fast_state, public=True
            )

    @invariant()
    def rules_hold(self) -> None:
        if not self.states:
            return
        with self.explained("an invariant of the rules fails"):
            n = self.game_rules.players
            for state in self.states:
                # M1: the 100 cards are all somewhere: grids, centre, hand, pile, removed.
                assert state.card_count() == 100
                phase, turn = state.phase, state.turn
                for seat in range(n):
                    values = state.values(seat)
                    holes = values.count(0)
                    # T1/T4: 16 cards, but for the hole of a card revealed and not replaced yet.
                    if phase in (Phase.TAKE, Phase.PUSH):
                        assert holes <= 1
                    else:
                        assert holes == 0
                    # T1, T5: each played turn turned one card of every grid face up.
                    played = {Phase.REVEAL: turn - 1, Phase.TAKE: turn, Phase.PUSH: turn}.get(
                        phase, 16
                    )
                    assert len(state.face_down_cells(seat)) == 16 - played
                threshold = self.game_rules.threshold
                if phase is Phase.NEXT_ROUND:  # S4: a match goes on while every total is below
                    assert threshold is not None and max(state.totals) < threshold
                if phase is Phase.OVER:  # S4 / T5: a single round, or a total reached the threshold
                    assert threshold is None or max(state.totals) >= threshold
                if phase in (Phase.TAKE, Phase.PUSH):
                    # T3: the centre holds one card per seat still to take.
                    assert len(state.centre) == n - self.taken
                    holes = sum(state.values(seat).count(0) for seat in range(n))
                    assert holes == n - self.taken + (phase is Phase.PUSH)
                if self.start is None and state.start is not None:
                    assert self.game_rules.first == "lowest" and state.round == 1 and turn == 1
                    self.start = state.start  # F1–F2 decided it on turn 1's reveal
                assert state.start == self.start
                if self.start is not None:
                    token = (self.start + turn - 1) % n  # T5: the token moves left each turn
                    assert state.token == token
                    if phase is Phase.TAKE:
                        assert state.to_act == (token + self.taken) % n
                    elif phase is Phase.PUSH:
                        assert state.to_act == (token + self.taken - 1) % n
                else:
                    assert state.token is None and state.to_act is None


ONE_IN_FOUR = st.integers(0, 3)
WRONG_KINDS = st.integers(0, 11)
ANY_SEAT = st.integers(-1, 6)  # includes seats that do not exist (M4)
ANY_CELL = st.integers(-1, 17)  # includes cells off the grid (T1)
ANY_VALUE = st.integers(0, 11)  # includes values that are no card
SIDES = st.sampled_from(["L", "R", "T", "B", "X"])
LINES = st.sampled_from([None, 0, 1, 2, 3, 4, 5])


def _pick(data: st.DataObject, items: list[Any], label: str) -> Any:
    return items[data.draw(st.integers(0, len(items) - 1), label=label)]


def draw_wrong_action(data: st.DataObject, state: dekal_ref.GameState, deal: Deal) -> Action:
    """An action a careless player or a buggy client would send in this state.

    Drawn from primitive strategies only (building composite strategies at every step costs
    more than playing the game).
    """
    n = state.players
    to_act = 0 if state.to_act is None else state.to_act
    others = [seat for seat in range(n) if seat != to_act]
    kind = data.draw(WRONG_KINDS, label="kind of wrong action")
    if kind == 0:  # reveal anything, anywhere (T1, M4, out of phase)
        return Reveal(data.draw(ANY_SEAT), data.draw(ANY_CELL))
    if kind == 1:  # T1: a face-up card or the hole
        seat = _pick(data, list(range(n)), "seat")
        face_up = [cell for cell in range(16) if cell not in state.face_down_cells(seat)]
        return Reveal(seat, _pick(data, face_up or [0], "face-up cell"))
    if kind == 2:  # T1: a second pick in the same turn
        picked = [seat for seat in range(n) if state.picks[seat] is not None] or [0]
        seat = _pick(data, picked, "seat that picked")
        return Reveal(seat, _pick(data, state.face_down_cells(seat) or [0], "cell"))
    if kind == 3:  # take anything (T3, T4, M4)
        return Take(data.draw(ANY_SEAT), data.draw(ANY_VALUE))
    if kind == 4:  # T3: a value that is not in the centre
        absent = [value for value in range(1, 11) if value not in state.centre]
        return Take(to_act, _pick(data, absent or [0], "absent value"))
    if kind == 5:  # T3 / T4: the wrong seat takes a card that is there
        return Take(
            _pick(data, others, "wrong seat"), _pick(data, list(state.centre) or [5], "value")
        )
    if kind == 6:  # P1 / P2 / T4: any push by the seat to act
        return PushMove(to_act, Push(data.draw(SIDES), data.draw(LINES)))
    if kind == 7:  # T4: a push by the wrong seat
        return PushMove(_pick(data, others, "wrong seat"), Push(data.draw(SIDES), data.draw(LINES)))
    if kind == 8:  # push anything (M4 ...)
        return PushMove(data.draw(ANY_SEAT), Push(data.draw(SIDES), data.draw(LINES)))
    if kind == 9:  # M5: a new deal in the middle of a round (legal between match rounds)
        return NewRound(deal)
    if kind == 10:  # M2: a deal for another number of players
        return NewRound(Deal(deal.grids[:-1], deal.pile) if n > 2 else Deal(deal.grids * 2, ()))
    # M1 (or M3): seat 0's a1 replaced by a copy of its b1
    return NewRound(Deal(((deal.grids[0][1], *deal.grids[0][1:]), *deal.grids[1:]), deal.pile))


_PROFILE = settings()  # the active profile: dev, ci (CI=true) or deep (--hypothesis-profile=deep)
LockStepGames.TestCase.settings = settings(
    _PROFILE,
    # A run is GAME_STEPS steps (several whole games), so it needs fewer runs than a plain
    # test: a fifth of the profile's examples (ci: 20 runs, about 70 games; deep: 1000 runs).
    max_examples=max(10, _PROFILE.max_examples // 5),
    stateful_step_count=GAME_STEPS,
    suppress_health_check=[
        HealthCheck.large_base_example,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
TestLockStepGames = LockStepGames.TestCase


def test_setup_refusals_agree() -> None:
    """new_game refusals (M1, M2, M3, F1, F3) name the same rule in both engines."""
    deal = dekal_ref.seeded_deal(9, 3)
    cases = [
        (Rules(players=4), deal, None),  # M2: 3 grids for 4 players
        (Rules(players=3, first="chosen"), deal, None),  # F3: no first player
        (Rules(players=3, first="chosen"), deal, 3),  # F3: no seat 3
        (Rules(players=3), deal, 1),  # F1: lowest card decides
        (Rules(players=3), Deal(deal.grids, deal.pile[1:]), None),  # M1: 99 cards
        (Rules(players=3), Deal((deal.grids[0][:15], *deal.grids[1:]), deal.pile), None),  # M3
        (
            Rules(players=3),
            Deal(((11, *deal.grids[0][1:]), *deal.grids[1:]), deal.pile),
            None,
        ),  # M3
    ]
    for rules, bad, first in cases:
        rules_named = []
        for engine in ENGINES:
            try:
                engine.new_game(rules, bad, first)
                rules_named.append("ok")
            except IllegalAction as error:
                rules_named.append(error.rule)
        assert rules_named[0] == rules_named[1] != "ok", (rules, first, rules_named)
