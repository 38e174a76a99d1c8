"""Playing a game record on an engine and checking its written result (spec/notation.md).

`replay` plays the record on the reference engine and refuses an illegal action (B1), a deal
that is not the 100 cards or not the seed's (M1, M3), or a written result that the replay
contradicts (S2, S3, S4, T5), with a ReplayError naming the round, the turn, the action and
the rule. `iter_replay` does the same step by step, on the reference or another engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dekal_ref import game
from dekal_ref.actions import Action, NewRound, apply
from dekal_ref.deal import Deal, seeded_deals
from dekal_ref.errors import IllegalAction
from dekal_ref.position import format_position, parse_position
from dekal_ref.ranking import ranking, round_scores
from dekal_ref.record.model import GameRecord, SeatScore
from dekal_ref.state import GameState, Phase, Rules


class ReplayError(IllegalAction):
    """A record that the rules refuse: an illegal action (B1), a deal that is not the 100
    cards or not the seed's, or a written result that the replay contradicts.

    `round` and `turn` locate it (turn None: at the round's set-up or its result), `action`
    is the action or line in notation, `rule` the rule ID, `reason` the engine's message.
    """

    def __init__(
        self, rule: str, reason: str, *, round: int, turn: int | None, action: str
    ) -> None:
        where = f"round {round}" + (f", turn {turn}" if turn is not None else "")
        super().__init__(rule, f"{where}, {action}: {reason}")
        self.round = round
        self.turn = turn
        self.action = action
        self.reason = reason


@dataclass(frozen=True)
class Step:
    """One step of a replay: the action and the state after it."""

    action: Action
    state: GameState


def _round_label(action: Action) -> str:
    return "deal" if isinstance(action, NewRound) else str(action)


def _check_seed(rec: GameRecord) -> None:
    """M3/M5: a record that names its seed must hold exactly the deals that seed gives."""
    if rec.seed is None:
        return
    if not 2 <= rec.rules.players <= 6:
        return  # new_game refuses the player count itself (M2)
    expected = seeded_deals(rec.seed, rec.rules.players, len(rec.rounds))
    for number, (played, deal) in enumerate(zip(rec.rounds, expected, strict=True), start=1):
        if played.deal != deal:
            raise ReplayError(
                "M3",
                f"the deal is not the one seed {rec.seed} gives for round {number} "
                "(spec/rules.md, Seeded deals)",
                round=number,
                turn=None,
                action="deal",
            )


class Engine(Protocol):
    """The part of an engine's game API a replay needs (dekal.engines.GameAPI has it)."""

    def new_game(self, rules: Rules, deal: Deal, first_player: int | None = None) -> Any: ...
    def apply(self, state: Any, action: Action) -> Any: ...
    def format_position(self, state: Any, public: bool = False) -> str: ...


class _Reference:
    """The reference engine seen through the Engine protocol."""

    new_game = staticmethod(game.new_game)
    apply = staticmethod(apply)
    format_position = staticmethod(format_position)


_REFERENCE: Engine = _Reference()


def iter_replay(rec: GameRecord, engine: Engine | None = None) -> Iterator[Step]:
    """Play the record's steps, yielding each state as it comes.

    By default the reference engine plays. Another `engine` (e.g. the optimized one) plays
    with its own states; each is read back through its position notation, so what is shown
    is exactly what that engine computed.
    The first step is the set-up of round 1 (its action is NewRound(deal of round 1)).
    Raises ReplayError on the first step the rules refuse.
    """
    _check_seed(rec)
    first_deal = rec.rounds[0].deal
    player: Engine = _REFERENCE if engine is None else engine

    def seen(own: Any) -> GameState:
        return own if engine is None else parse_position(player.format_position(own))

    new_game, play = player.new_game, player.apply
    try:
        own_state = new_game(rec.rules, first_deal, rec.first_player)
    except IllegalAction as error:
        raise ReplayError(error.rule, error.message, round=1, turn=None, action="deal") from None
    state = seen(own_state)
    yield Step(NewRound(first_deal), state)
    for action in rec.steps():
        try:
            own_state = play(own_state, action)
            state = seen(own_state)
        except IllegalAction as error:
            turn = None if isinstance(action, NewRound) else state.turn
            round_number = state.round + (1 if isinstance(action, NewRound) else 0)
            raise ReplayError(
                error.rule,
                error.message,
                round=round_number,
                turn=turn,
                action=_round_label(action),
            ) from None
        yield Step(action, state)


@dataclass(frozen=True)
class PlayedResult:
    """What a replay shows: each round's scores (None if unscored), totals, final places."""

    scores: tuple[tuple[SeatScore, ...] | None, ...]
    totals: tuple[tuple[int, ...] | None, ...]
    places: tuple[int, ...] | None


def result_of(states: Sequence[GameState], rounds: int) -> PlayedResult:
    """The result shown by a replay's states: a round is scored when its 16th turn ends."""
    scores: list[tuple[SeatScore, ...] | None] = [None] * rounds
    totals: list[tuple[int, ...] | None] = [None] * rounds
    for state in states:
        if state.phase in (Phase.NEXT_ROUND, Phase.OVER):
            scores[state.round - 1] = tuple(
                SeatScore(s.points, s.remaining) for s in round_scores(state)
            )
            if state.rules.threshold is not None:
                totals[state.round - 1] = state.totals
    places = None
    final = states[-1]
    if final.phase is Phase.OVER:
        by_seat = {standing.seat: standing.place for standing in ranking(final)}
        places = tuple(by_seat[seat] for seat in range(final.players))
    return PlayedResult(tuple(scores), tuple(totals), places)


def check_result(rec: GameRecord, states: Sequence[GameState]) -> None:
    """A written result must be the one the replay's `states` show; a missing one is allowed
    (nothing to contradict). Raises ReplayError naming the rule (S2, S3, S4 or T5)."""
    played = result_of(states, len(rec.rounds))
    single = rec.rules.threshold is None
    for number, written in enumerate(rec.rounds, start=1):
        shown = played.scores[number - 1]
        if written.scores is not None:
            if shown is None:
                raise ReplayError(
                    "T5",
                    "the record gives this round's scores, but its 16 turns were not all played",
                    round=number,
                    turn=None,
                    action="scores",
                )
            for seat, (w, s) in enumerate(zip(written.scores, shown, strict=True)):
                if w != s:
                    raise ReplayError(
                        "S2",
                        f"the record says seat {seat} scored {w.points} with {w.remaining} cards "
                        f"left; the replay gives {s.points} with {s.remaining}",
                        round=number,
                        turn=None,
                        action="scores",
                    )
        if written.totals is not None and written.totals != played.totals[number - 1]:
            shown_totals = played.totals[number - 1]
            replayed = (
                "no match totals" if shown_totals is None else " ".join(map(str, shown_totals))
            )
            raise ReplayError(
                "S4",
                f"the record says totals {' '.join(map(str, written.totals))}; "
                f"the replay gives {replayed}",
                round=number,
                turn=None,
                action="totals",
            )
    if rec.places is not None and rec.places != played.places:
        replayed = (
            "no final places: the game is not over"
            if played.places is None
            else "places " + " ".join(map(str, played.places))
        )
        raise ReplayError(
            "S3" if single else "S4",
            f"the record says places {' '.join(map(str, rec.places))}; the replay gives {replayed}",
            round=len(rec.rounds),
            turn=None,
            action="places",
        )


def replay(rec: GameRecord) -> list[GameState]:
    """Every state of the record: after the set-up of round 1, then after each step of
    `rec.steps()` (new rounds included). Raises ReplayError (an IllegalAction naming the
    round, turn, action and rule) on an illegal step or a result the replay contradicts."""
    states = [step.state for step in iter_replay(rec)]
    check_result(rec, states)
    return states
