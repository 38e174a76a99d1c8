"""A table of `dekal play`: one human seat, bots on the others, the game on the reference engine.

No input or output here (dekal.cli._play reads the human's lines, dekal.cli._play.views shows
the game): a Table only knows whose decision comes next and plays it. It follows the table
loop of docs/contracts.md, as `dekal.bots.table.play_game` does, so a game played here by bots
alone would be the game that function plays:

* reveal phase: the seats still to pick decide in seat order 0..n-1, one reveal each (T1);
* take and push: the seat the rules name (T3, T4);
* phase `next` of a match: the table deals the next round from the game's seed (M5);
* a bot sees its observation only (the public view, M3) and draws from its own stream,
  `Draws(seat_seed(seed, seat))`.

The human types actions in the notation (spec/notation.md, Actions), or shorter: see
read_human_action.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from dekal.bots.advise import Advice, advise
from dekal.bots.bot import Bot
from dekal.bots.observation import observation_of
from dekal.draws import Draws, seat_seed
from dekal_ref.actions import Action, NewRound, Reveal, apply, legal_actions, parse_action
from dekal_ref.deal import Deal, SplitMix64, deal_from_deck, shuffled_deck
from dekal_ref.errors import DekalError, NotationError
from dekal_ref.game import new_game
from dekal_ref.record import GameRecord, record_from_game
from dekal_ref.state import GameState, Phase, Rules
from dekal_ref.words import plural


class Refused(DekalError):
    """A table command the game does not allow now (hint or undo): `field` names it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


RATED_REFUSAL = "this game is rated: hint and undo are for practice games (dekal play --practice)"
"""Why a rated game refuses hint and undo: its record shows the human's own play, unaided."""

HINT_SAMPLES = 200
"""Worlds a hint samples: an answer within a second, enough to rank moves that differ by a
few points (dekal advise, docs/analysis.md, for finer questions)."""

VERB_OF_PHASE = {Phase.REVEAL: "reveal", Phase.TAKE: "take", Phase.PUSH: "push"}
"""The verb a one-word action takes in each phase: `b3` reveals, `7` takes, `L` pushes."""


def deciding_seat(state: GameState) -> int | None:
    """The seat whose decision comes next in the table loop (docs/contracts.md), or None when
    nobody decides (the round waits for its deal, or the game is over)."""
    if state.phase is Phase.REVEAL:
        return next(seat for seat, pick in enumerate(state.picks) if pick is None)
    return state.to_act


def seat_actions(state: GameState, seat: int) -> list[Action]:
    """The legal actions of one seat, in the reference's order (docs/contracts.md)."""
    return [action for action in legal_actions(state) if getattr(action, "seat", None) == seat]


def read_human_action(text: str, state: GameState, seat: int) -> Action:
    """The human's line as an action of `seat` (NotationError naming the field otherwise).

    Accepted: the full notation (`reveal 0 b3`, `take 0 T`, `push 0 L2`); the verb and its
    argument without the seat (`reveal b3`); or the argument alone, read with the verb of the
    phase (`b3` in a reveal, `7` or `T` in a take, `L` or `L2` in a push: so in a take `T`
    is ten, in a push it is the top side). Case does not matter where the notation allows it.
    Whether the action is legal is the engine's to say (B1), not this reader's.
    """
    words = text.split()
    if len(words) == 3:
        action = parse_action(" ".join(words))
        if getattr(action, "seat", seat) != seat:
            raise NotationError(
                "seat", f"you play seat {seat}: write your own seat, or leave it out"
            )
        return action
    if len(words) == 2 and words[0] in VERB_OF_PHASE.values():
        return parse_action(f"{words[0]} {seat} {words[1]}")
    verb = VERB_OF_PHASE.get(state.phase)
    if len(words) == 1 and verb is not None:
        return parse_action(f"{verb} {seat} {words[0]}")
    raise NotationError(
        "action",
        f"{' '.join(words)!r} is not an action: write 'reveal b3', 'take 7', 'push L'"
        " (or the argument alone), or legal, help, quit",
    )


@dataclass(frozen=True)
class Step:
    """One thing that happened at the table: the state before, the action, the state after."""

    before: GameState
    action: Action
    after: GameState


@dataclass
class Table:
    """A game in progress: the rules, the seed, who sits where, and every action so far.

    `bots[s]` plays seat s; the human's seat has None. The state is immutable; the table
    only moves from one state to the next.
    """

    rules: Rules
    seed: int
    human: int
    bots: Sequence[Bot | None]
    first_player: int | None
    practice: bool = False
    state: GameState = field(init=False)
    deals: list[Deal] = field(init=False, default_factory=list)
    actions: list[Action] = field(init=False, default_factory=list)
    draws: list[Draws] = field(init=False, default_factory=list)
    undos: int = field(init=False, default=0)
    hints: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        # M3, M5: round r is the r-th shuffle of one SplitMix64 stream (seeded_deals)
        self._deck_stream = SplitMix64(self.seed)
        self.deals = [self._next_deal()]
        self.state = new_game(self.rules, self.deals[0], self.first_player)
        self.draws = [Draws(seat_seed(self.seed, seat)) for seat in range(self.rules.players)]

    def _next_deal(self) -> Deal:
        return deal_from_deck(shuffled_deck(self._deck_stream), self.rules.players)

    @property
    def over(self) -> bool:
        return self.state.phase is Phase.OVER

    def human_decides(self) -> bool:
        return deciding_seat(self.state) == self.human

    def play(self, action: Action) -> Step:
        """Play one action (IllegalAction, naming the rule, leaves the table as it was: B1)."""
        before = self.state
        self.state = apply(before, action)
        self.actions.append(action)
        return Step(before, action, self.state)

    def undo(self) -> list[Action]:
        """Practice games only: take back the human's last decision and every action the
        table played after it, within the round in progress; the human decides again where
        it decided then. Returns the actions taken back, latest first. Refused (field
        "undo") in a rated game, or with nothing of the human's to take back."""
        if not self.practice:
            raise Refused("undo", RATED_REFUSAL)
        mine = [
            index
            for index, action in enumerate(self.actions)
            if getattr(action, "seat", None) == self.human
        ]
        since = mine[-1] if mine else None
        if since is None or any(isinstance(a, NewRound) for a in self.actions[since:]):
            raise Refused("undo", "nothing of yours to take back in this round")
        taken_back = self.actions[since:][::-1]
        del self.actions[since:]
        state = new_game(self.rules, self.deals[0], self.first_player)
        for action in self.actions:  # the reference replays what is kept (B1 held each step)
            state = apply(state, action)
        self.state = state
        self.undos += 1
        return taken_back

    def hint(self, samples: int = HINT_SAMPLES) -> Advice:
        """Practice games only: `dekal advise` on the human's public view (M3), at a small
        budget of worlds, seed 0 (the same answer as `dekal advise VIEW --samples 200`).
        Refused (field "hint") in a rated game."""
        if not self.practice:
            raise Refused("hint", RATED_REFUSAL)
        advice = advise(observation_of(self.state), self.human, samples=samples)
        self.hints += 1
        return advice

    def play_table(self) -> Step:
        """What the table does when the human does not decide: deal the next round of a
        match (M5), or let the deciding bot act on its observation."""
        if self.state.phase is Phase.NEXT_ROUND:
            deal = self._next_deal()
            self.deals.append(deal)
            return self.play(NewRound(deal))
        seat = deciding_seat(self.state)
        bot = self.bots[seat] if seat is not None else None
        if seat is None or bot is None:
            raise RuntimeError(f"no bot decides in phase {self.state.phase.value}")
        return self.play(bot.act(observation_of(self.state), seat, self.draws[seat]))

    def record(self) -> GameRecord:
        """The game so far as a record (spec/notation.md, Game records): it always replays."""
        names = ", ".join(
            f"seat {seat} {bot.name}" for seat, bot in enumerate(self.bots) if bot is not None
        )
        return record_from_game(
            self.rules,
            self.deals,
            self.first_player,
            self.actions,
            seed=self.seed,
            event=f"dekal play, {self.kind()}: you at seat {self.human}; {names}",
            date=datetime.now(UTC).date().isoformat(),
        )

    def kind(self) -> str:
        """How the record names the game: rated, or practice with its undos and hints."""
        if not self.practice:
            return "rated game"
        return f"practice game ({plural(self.undos, 'undo')}, {plural(self.hints, 'hint')})"

    def played_anything(self) -> bool:
        return any(isinstance(action, Reveal) for action in self.actions)
