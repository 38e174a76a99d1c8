"""Writing a game down as it is played: record_from_game (spec/notation.md, "Game records").

The actions are played on the reference engine (T1–T5, P1/P2, and M5 for each new deal) and
the record gets the result the play shows (S2–S4), so a record written here always replays.
"""

from __future__ import annotations

from collections.abc import Sequence

from dekal_ref import game
from dekal_ref.actions import Action, NewRound, apply
from dekal_ref.deal import Deal
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.record.model import GameRecord, Move, RoundRecord
from dekal_ref.record.playback import ReplayError, result_of
from dekal_ref.state import Phase, Rules


def record_from_game(
    rules: Rules,
    deals: Sequence[Deal],
    first_player: int | None,
    actions: Sequence[Action],
    *,
    seed: int | None = None,
    event: str | None = None,
    date: str | None = None,
) -> GameRecord:
    """Play `actions` on the reference engine and write them down with their result.

    `deals[k]` deals round k + 1. A NewRound in `actions` starts the next round with its own
    deal; without one, the next round starts by itself with the next of `deals` as soon as a
    move follows a scored round. Raises ReplayError on the first illegal action.

    A record may also be built directly from GameRecord and RoundRecord, without playing: that
    is how to write down a game that ends with an illegal action (a fuzzer's counterexample);
    format_record and record_to_json never check the rules, replay does.
    """
    if not deals:
        raise NotationError("deals", "a game needs at least the deal of round 1")
    round_deals = [deals[0]]
    round_moves: list[list[Move]] = [[]]
    try:
        state = game.new_game(rules, deals[0], first_player)
    except IllegalAction as error:
        raise ReplayError(error.rule, error.message, round=1, turn=None, action="deal") from None
    states = [state]
    for action in actions:
        if isinstance(action, NewRound) or state.phase is Phase.NEXT_ROUND:
            if isinstance(action, NewRound):
                deal = action.deal
            elif len(deals) > len(round_deals):
                deal = deals[len(round_deals)]
            else:
                deal = None
            if deal is not None:
                try:
                    state = game.start_round(state, deal)
                except IllegalAction as error:
                    raise ReplayError(
                        error.rule, error.message, round=state.round + 1, turn=None, action="deal"
                    ) from None
                states.append(state)
                round_deals.append(deal)
                round_moves.append([])
            if isinstance(action, NewRound):
                continue
        try:
            state = apply(state, action)
        except IllegalAction as error:
            raise ReplayError(
                error.rule, error.message, round=state.round, turn=state.turn, action=str(action)
            ) from None
        states.append(state)
        round_moves[-1].append(action)
    played = result_of(states, len(round_deals))
    return GameRecord(
        rules=rules,
        rounds=tuple(
            RoundRecord(deal, tuple(moves), scores, totals)
            for deal, moves, scores, totals in zip(
                round_deals, round_moves, played.scores, played.totals, strict=True
            )
        ),
        first_player=first_player,
        seed=seed,
        event=event,
        date=date,
        places=played.places,
    )
