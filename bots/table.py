"""The table loop: a whole game played by bots, each seeing only its own observation.

The table holds the full position (a packed dekal.state.FastState, played by the optimized
engine) and, at each decision, gives the seat to act its public view (observation_of) and
its own Draws stream, nothing else. The order is fixed by docs/contracts.md ("table loop"):

* reveal phase: the seats still to pick act in seat order 0..n-1, one reveal each (T1);
* then the takes and pushes in the order the rules give: token holder first, clockwise
  (T3, T4);
* between rounds of a match (phase `next`) the table deals the next round from the game's
  deal stream: round r's deal is the r-th shuffle of the SplitMix64 stream seeded by the
  game's seed (M5, dekal_ref.deal.seeded_deals);
* seat s draws from Draws(seat_seed(seed, s)) (dekal.draws).

The game is written down as a .dkr record by dekal_ref.record, which replays every action
on the reference engine: a record the table returns always replays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dekal import _arguments as arguments
from dekal import fast
from dekal.bots.observation import legal_actions, observation_of
from dekal.draws import Draws, seat_seed
from dekal.position import to_reference
from dekal.simulate import deal_stream
from dekal.state import FastState
from dekal_ref.actions import Action
from dekal_ref.errors import IllegalAction
from dekal_ref.ranking import ranking
from dekal_ref.record import format_record, record_from_game
from dekal_ref.state import GameState, Phase, Rules

if TYPE_CHECKING:  # the bots import the table loop (seat_to_act): a type only, here
    from dekal.bots.bot import Bot


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: every action in playing order, the final position and its record."""

    actions: tuple[Action, ...]
    final: GameState
    record: str


def seat_to_act(state: FastState) -> int:
    """Who decides next: in the reveal phase the first seat still to pick (seat order),
    otherwise the seat to take or push (T3, T4)."""
    if state.phase is Phase.REVEAL:
        return state.picks.index(None)
    seat = state.to_act
    assert seat is not None, f"no seat acts in phase {state.phase.value}"
    return seat


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int,
    first_player: int | None = None,
    draws_seed: int | None = None,
    event: str | None = None,
    recorded: bool = True,
) -> PlayedGame:
    """Play one game (a single round, or a match to the threshold) from the game seed `seed`.

    `bots[s]` plays seat s. A bot that answers with an action that is not one of its legal
    actions is refused with IllegalAction naming rule B1 (and the bot and the action).
    With `draws_seed`, seat s draws from Draws(seat_seed(draws_seed, s)) instead of the
    game seed's stream: a seed that says nothing about the deal (`dekal match` gives one,
    spec/bot-protocol.md, `new_game`). `event`: the record's Event tag (where it was played).
    `recorded=False`: no record (an empty one), and none of its replay on the reference
    engine, a fifth of a game's time, for a caller that only counts (dekal match, bots check).
    """
    arguments.seed("seed", seed)
    if draws_seed is not None:
        arguments.seed("draws_seed", draws_seed)
    if len(bots) != rules.players:
        raise IllegalAction("M2", f"{len(bots)} bots for {rules.players} seats")
    deals = deal_stream(seed, rules.players)
    dealt = [next(deals)]
    state = fast.new_game(rules, dealt[0], first_player)
    stream = seed if draws_seed is None else draws_seed
    draws = [Draws(seat_seed(stream, seat)) for seat in range(rules.players)]
    actions: list[Action] = []
    while state.phase is not Phase.OVER:
        if state.phase is Phase.NEXT_ROUND:
            dealt.append(next(deals))
            state = fast.start_round(state, dealt[-1])
            continue
        seat = seat_to_act(state)
        obs = observation_of(state)
        action = bots[seat].act(obs, seat, draws[seat])
        if action not in legal_actions(obs, seat):
            raise IllegalAction(
                "B1", f"bot {bots[seat].name} at seat {seat} played {action}: not a legal action"
            )
        state = fast.apply(state, action)
        actions.append(action)
    text = ""
    if recorded:
        record = record_from_game(rules, dealt, first_player, actions, seed=seed, event=event)
        text = format_record(record)
    final = to_reference(state)
    tell_game_over(bots, final)
    return PlayedGame(tuple(actions), final, text)


def tell_game_over(bots: Sequence[Bot], final: GameState) -> None:
    """Each bot that listens (a `game_over(view, places)` method: a program's seats,
    spec/bot-protocol.md) is told the final public view and every seat's place, once."""
    places = [0] * final.players
    for standing in ranking(final):
        places[standing.seat] = standing.place
    view = observation_of(final)
    for bot in {id(bot): bot for bot in bots}.values():
        listener = getattr(bot, "game_over", None)
        if listener is not None:
            listener(view, places)
