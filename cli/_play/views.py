"""What the human at a `dekal play` table sees: text for a terminal, or JSON lines for a program.

Both views show the public view of the game only (M3), plus the human's own pick before the
reveal (T1): face-down values, the other seats' picks and the set-aside pile never appear
until the rules make them public (a reveal turns a card face up; an F2 draw shows the pile's
top cards). The text view tells the game with `dekal replay`'s own words and pictures
(dekal.cli._replay, dekal.cli._pictures), fed one step at a time.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, Protocol

from rich.text import Text

from dekal.bots._advice.figures import Advice
from dekal.bots.annotate import Annotation
from dekal.cli._bots.advise import print_table
from dekal.cli._bots.annotate import print_annotation
from dekal.cli._common import describe, err, error_object, out, print_json
from dekal.cli._pictures import position_picture
from dekal.cli._play.table import VERB_OF_PHASE, Refused, Step, Table, deciding_seat, seat_actions
from dekal.cli._replay import _round_header, ranking_lines, story
from dekal_ref.actions import Action, NewRound, PushMove, Reveal, Take
from dekal_ref.deal import Deal
from dekal_ref.errors import DekalError, IllegalAction, NotationError
from dekal_ref.notation import cell_name, value_symbol
from dekal_ref.position import format_grid_cells, format_position
from dekal_ref.ranking import ranking, round_scores
from dekal_ref.record.playback import Step as ReplayStep
from dekal_ref.state import GameState, Phase

COMMANDS_HELP = """How a round is won: after turn 16 every card that shares a side with a card of
the same value is removed (S1); your score is the sum of the cards left (S2). The lowest
score wins the round, a tie goes to the fewest cards left (S3); in a match the scores add
up, and when a total reaches the threshold the lowest total wins (S4). Each turn every seat
reveals a card, leaving a hole (T1); the lowest card revealed takes first (T2); each seat
takes a card from the centre (T3) and pushes it into its grid, sliding cards into the hole
(T4, P1) or, in the eject variant, pushing one card out (P2).
Type your action in the notation of spec/notation.md, or shorter:
  reveal: b3, reveal b3 or reveal SEAT b3 (a face-down cell of your grid, T1)
  take:   7, T or 10, take 7 or take SEAT 7 (a value in the centre, T3)
  push:   L R T B (slide, P1), or with the line, L2 T4 (eject, P2), push L or push SEAT L
A lone word is read with the verb of the phase: in a take T is ten, in a push T is the top.
  legal  list your legal actions     help  this text     quit  stop (Ctrl-D too)
  hint   what dekal advise says here, from a few hundred worlds (practice games)
  undo   take back your last decision (practice games, within the round)
The game is recorded as it goes; the record is saved when it ends or you quit."""


def public_view(state: GameState) -> str:
    """The position as the players see it (spec/notation.md, Positions; M3)."""
    return format_position(state, public=True)


def what_to_do(state: GameState, seat: int) -> str:
    """The prompt's request, with the legal choices of a take (T3) and a push (P1, P2) only:
    a corner hole, say, leaves two sides of L R T B."""
    if state.phase is Phase.REVEAL:
        return "pick a face-down card of your grid to reveal"
    legal = seat_actions(state, seat)
    if state.phase is Phase.TAKE:
        values = " ".join(value_symbol(a.card) for a in legal if isinstance(a, Take))
        return f"take a card from the centre ({values})"
    pushes = " ".join(str(a.push) for a in legal if isinstance(a, PushMove))
    return f"push the {value_symbol(state.hand or 0)} you took into your grid ({pushes})"


class View(Protocol):
    """The human's side of the table."""

    def started(self, table: Table) -> None: ...
    def waiting(self, table: Table) -> AbstractContextManager[object]: ...
    def step(self, table: Table, step: Step) -> None: ...
    def prompt(self, table: Table) -> None: ...
    def heard(self, line: str | None) -> None: ...
    def legal(self, actions: Sequence[Action]) -> None: ...
    def help(self) -> None: ...
    def hint(self, advice: Advice) -> None: ...
    def undone(self, table: Table, actions: Sequence[Action]) -> None: ...
    def refused(self, error: DekalError) -> None: ...
    def annotated(self, record: str, annotation: Annotation) -> None: ...
    def ended(self, table: Table, record: Path | None) -> None: ...


def _bots_line(table: Table) -> str:
    return ", ".join(
        f"seat {seat} ({bot.name})" for seat, bot in enumerate(table.bots) if bot is not None
    )


def _rules_words(table: Table) -> str:
    rules = table.rules
    first = (
        "the lowest card revealed starts (F1)"
        if rules.first == "lowest"
        else f"seat {table.first_player} starts (F3)"
    )
    length = "one round" if rules.threshold is None else f"a match to {rules.threshold} (S4)"
    return f"{rules.push} push ({'P1' if rules.push == 'slide' else 'P2'}), {first}, {length}"


# --- Text ---------------------------------------------------------------------------------


class TextView:
    """The game told in words and pictures, as `dekal replay` tells it, from one seat."""

    def __init__(self) -> None:
        self.last_take: Take | None = None
        self.drawn: GameState | None = None  # the state last drawn: redraw only when it changed

    def started(self, table: Table) -> None:
        out.print(
            Text(f"Dékal: you are seat {table.human}, against {_bots_line(table)}.", style="bold")
        )
        out.print(f"Rules: {_rules_words(table)}. Seed {table.seed}.")
        out.print("Type help for the ways to write an action.")
        self._header(table.state, table.deals[0])

    def waiting(self, table: Table) -> AbstractContextManager[object]:
        """While a bot thinks (a search bot may take seconds): a spinner on a terminal's
        standard error, nothing in a pipe."""
        seat = deciding_seat(table.state)
        bot = table.bots[seat] if seat is not None else None
        if bot is None or not err.is_terminal:
            return nullcontext()
        return err.status(f"seat {seat} ({bot.name}) is thinking…")

    def _header(self, state: GameState, deal: Deal) -> None:
        # only the header line: the lines after it list the deal, which nobody may see (M3)
        out.print(next(_round_header(state, deal)))

    def step(self, table: Table, step: Step) -> None:
        action, after = step.action, step.after
        if isinstance(action, NewRound):
            self._header(after, action.deal)
        elif isinstance(action, Take):
            self.last_take = action
        elif isinstance(action, Reveal) and after.phase is Phase.REVEAL:
            if action.seat == table.human:
                out.print(f"you picked {cell_name(action.cell)}; it stays secret until every"
                          " seat has picked (T1)")  # fmt: skip
            else:
                out.print(f"seat {action.seat} has picked")
        else:
            for line in self._told(step):
                out.print(line)
        if after.phase is Phase.OVER:
            for line in ranking_lines(after):
                out.print(line)

    def _told(self, step: Step) -> Iterator[Text]:
        """`dekal replay`'s story of one step: fed the step before it too, for its context
        (the state before a reveal, the take before a push)."""
        context = self.last_take or Take(0, 1)  # a take: it tells nothing by itself
        yield from story(
            iter([ReplayStep(context, step.before), ReplayStep(step.action, step.after)])
        )

    def prompt(self, table: Table) -> None:
        state = table.state
        if state is not self.drawn:
            out.print(position_picture(state, public=True, width=out.width), end="")
            self.drawn = state
        out.print(f"seat {table.human}, {what_to_do(state, table.human)}> ", end="")

    def heard(self, line: str | None) -> None:
        if line is None:  # Ctrl-D leaves the cursor after the prompt
            out.print()
        elif not sys.stdin.isatty():  # piped in: echo it, so the transcript reads as a session
            out.print(line)

    def legal(self, actions: Sequence[Action]) -> None:
        out.print("legal: " + ", ".join(str(action) for action in actions))

    def help(self) -> None:
        out.print(COMMANDS_HELP)

    def hint(self, advice: Advice) -> None:
        out.print("hint: what dekal advise says of this position, best first")
        print_table(advice)

    def undone(self, table: Table, actions: Sequence[Action]) -> None:
        taken_back = ", ".join(str(action) for action in reversed(actions))
        out.print(f"taken back: {taken_back}; you decide again")
        # a push is told with the take before it: the one the table still holds
        self.last_take = next((a for a in reversed(table.actions) if isinstance(a, Take)), None)

    def refused(self, error: DekalError) -> None:
        out.print(Text(describe(error), style="bold red"))

    def annotated(self, record: str, annotation: Annotation) -> None:
        print_annotation(record, annotation)

    def ended(self, table: Table, record: Path | None) -> None:
        if not table.over:
            state = table.state
            out.print(f"stopped in round {state.round}, turn {state.turn}: no result")
        if record is None:
            out.print("nothing was played: no record saved")
        else:
            out.print(f"record saved to {record} (dekal replay {record})")


# --- JSON lines ---------------------------------------------------------------------------


class JsonView:
    """One JSON object per line: an event for each thing that happens, a prompt for each
    decision of the human, an answer for each of its lines (docs/guide.md, "Playing")."""

    def started(self, table: Table) -> None:
        rules = table.rules
        print_json(
            {
                "event": "start",
                "you": table.human,
                "seed": table.seed,
                "rules": {
                    "players": rules.players,
                    "push": rules.push,
                    "first": rules.first,
                    "threshold": rules.threshold,
                },
                "first_player": table.first_player,
                "bots": [
                    {"seat": seat, "bot": bot.name}
                    for seat, bot in enumerate(table.bots)
                    if bot is not None
                ],
                "position": public_view(table.state),
            }
        )

    def waiting(self, table: Table) -> AbstractContextManager[object]:
        return nullcontext()

    def step(self, table: Table, step: Step) -> None:
        action, before, after = step.action, step.before, step.after
        event: dict[str, Any]
        if isinstance(action, NewRound):
            event = {"event": "round", "round": after.round, "start": after.start}
        elif isinstance(action, Reveal) and after.phase is Phase.REVEAL:
            event = {"event": "picked", "seat": action.seat}
            if action.seat == table.human:
                event["cell"] = cell_name(action.cell)  # the human's own pick, theirs to know
        elif isinstance(action, Reveal):
            cells = [*before.picks[: action.seat], action.cell, *before.picks[action.seat + 1 :]]
            event = {
                "event": "revealed",
                "turn": after.turn,
                "cards": [
                    {
                        "seat": seat,
                        "cell": cell_name(cell),
                        "value": value_symbol(before.values(seat)[cell]),
                    }
                    for seat, cell in enumerate(cells)
                    if cell is not None
                ],
                "start": after.start,
                "draws": [value_symbol(card) for card in after.removed[len(before.removed) :]],
            }
        elif isinstance(action, Take):
            event = {"event": "take", "seat": action.seat, "card": value_symbol(action.card)}
        else:
            assert isinstance(action, PushMove)
            event = {
                "event": "push",
                "seat": action.seat,
                "push": str(action.push),
                "grid": format_grid_cells(after.grids[action.seat], public=True),
            }
        print_json(event | {"position": public_view(after)})
        if after.phase in (Phase.NEXT_ROUND, Phase.OVER) and before.phase is Phase.PUSH:
            self._scored(after)
        if after.phase is Phase.OVER:
            standings = ranking(after)
            print_json(
                {
                    "event": "over",
                    "ranking": [{"place": s.place, "seat": s.seat} for s in standings],
                    "winners": [s.seat for s in standings if s.place == 1],
                }
            )

    def _scored(self, state: GameState) -> None:
        print_json(
            {
                "event": "scored",
                "round": state.round,
                "scores": [
                    {"seat": seat, "points": score.points, "remaining": score.remaining}
                    for seat, score in enumerate(round_scores(state))
                ],
                "totals": list(state.totals) if state.rules.threshold is not None else None,
            }
        )

    def prompt(self, table: Table) -> None:
        state = table.state
        print_json(
            {
                "prompt": VERB_OF_PHASE[state.phase],
                "seat": table.human,
                "round": state.round,
                "turn": state.turn,
                "position": public_view(state),
                "legal": [str(action) for action in seat_actions(state, table.human)],
            }
        )

    def heard(self, line: str | None) -> None:
        pass  # the program that wrote the line knows it

    def legal(self, actions: Sequence[Action]) -> None:
        print_json({"legal": [str(action) for action in actions]})

    def help(self) -> None:
        print_json({"help": COMMANDS_HELP})

    def hint(self, advice: Advice) -> None:
        print_json({"hint": advice.to_json()})

    def undone(self, table: Table, actions: Sequence[Action]) -> None:
        print_json(
            {
                "undone": [str(action) for action in reversed(actions)],
                "position": public_view(table.state),
            }
        )

    def annotated(self, record: str, annotation: Annotation) -> None:
        print_json({"event": "annotation"} | annotation.to_json(record))

    def refused(self, error: DekalError) -> None:
        if isinstance(error, IllegalAction):
            print_json(error_object(describe(error), "illegal", rule=error.rule))
        elif isinstance(error, Refused):  # hint or undo, not allowed now
            print_json(error_object(describe(error), "refused", field=error.field))
        else:
            field = error.field if isinstance(error, NotationError) else None
            print_json(error_object(describe(error), "notation", field=field))

    def ended(self, table: Table, record: Path | None) -> None:
        state = table.state
        print_json(
            {
                "event": "end",
                "over": table.over,
                "round": state.round,
                "turn": state.turn,
                "record": str(record) if record is not None else None,
            }
        )
