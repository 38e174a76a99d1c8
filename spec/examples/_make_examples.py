"""Writes the bundled game records of spec/examples/ (tests/rules/test_record.py re-derives them).

    .venv/bin/python spec/examples/make_examples.py      # rewrites the files beside this one

Each record is a real game: seeded deals (spec/rules.md, "Seeded deals") played by a simple,
fully deterministic player on the reference engine, then written with dekal_ref.record.
The player reveals blind (nobody may look at a face-down card, M3): the cell comes from a
SplitMix64 stream. It takes and pushes greedily: the card and push that leave the fewest
points among its face-up cards, ties to the first legal choice.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from dekal_ref.actions import Action, NewRound, PushMove, Reveal, Take, apply, legal_actions
from dekal_ref.deal import SplitMix64, seeded_deals
from dekal_ref.game import new_game
from dekal_ref.record import GameRecord, format_record, record_from_game, record_to_json
from dekal_ref.scoring import score_grid
from dekal_ref.state import GameState, Phase, Rules

HERE = Path(__file__).resolve().parent


def visible_points(state: GameState, seat: int) -> int:
    """S1–S2 on the seat's face-up cards only (face-down cards and the hole count as nothing)."""
    grid = tuple(0 if card is None or card.face_down else card.value for card in state.grids[seat])
    return score_grid(grid).points


def best_push(state: GameState) -> PushMove:
    """The push that leaves the fewest visible points for the seat that must push."""
    pushes = [a for a in legal_actions(state) if isinstance(a, PushMove)]
    return min(pushes, key=lambda a: visible_points(apply(state, a), a.seat))


def choose(state: GameState, blind: SplitMix64) -> Action:
    legal = legal_actions(state)
    first = legal[0]
    if isinstance(first, Reveal):
        cells = [a for a in legal if isinstance(a, Reveal) and a.seat == first.seat]
        return cells[blind.next() % len(cells)]
    if isinstance(first, Take):
        takes = [a for a in legal if isinstance(a, Take)]

        def after_best_push(take: Take) -> int:
            pushed = apply(state, take)
            return visible_points(apply(pushed, best_push(pushed)), take.seat)

        return min(takes, key=after_best_push)
    return best_push(state)


def play(
    rules: Rules, seed: int, first_player: int | None = None, rounds: int = 12
) -> tuple[list[Action], list[GameState]]:
    """Play a whole game (or match) from `seed` with the deterministic player."""
    deals = seeded_deals(seed, rules.players, rounds)
    blind = SplitMix64(seed ^ 0xDEC4A1)
    state = new_game(rules, deals[0], first_player)
    actions: list[Action] = []
    states = [state]
    while state.phase is not Phase.OVER:
        action: Action
        if state.phase is Phase.NEXT_ROUND:
            action = NewRound(deals[state.round])
        else:
            action = choose(state, blind)
        state = apply(state, action)
        actions.append(action)
        states.append(state)
    return actions, states


def recorded(rules: Rules, seed: int, event: str, first_player: int | None = None) -> GameRecord:
    actions, states = play(rules, seed, first_player)
    deals = seeded_deals(seed, rules.players, states[-1].round)
    return record_from_game(rules, deals, first_player, actions, seed=seed, event=event)


def first_tie_seed(players: int) -> int:
    """The first seed whose turn-1 reveals tie for the lowest card (F2: the pile decides)."""
    seed = 0
    while True:
        _, states = play(Rules(players=players), seed)
        after_reveals = next(s for s in states if s.phase is Phase.TAKE)
        if after_reveals.removed:
            return seed
        seed += 1


def build_examples() -> dict[str, str]:
    """File name -> exact file content, for every bundled record."""
    four = recorded(Rules(players=4), 2026, "Four players, slide push, lowest card starts")
    match = recorded(
        Rules(players=3, push="eject", first="chosen", threshold=100),
        7,
        "Three players, eject push, seat 2 chosen to start, match to 100",
        first_player=2,
    )
    tie_seed = first_tie_seed(2)
    tie = recorded(
        Rules(players=2),
        tie_seed,
        "Two players: the lowest card is tied on turn 1, the set-aside draw decides",
    )
    return {
        "four-players-slide.dkr": format_record(four),
        "three-players-eject-match.dkr": format_record(match),
        "two-players-first-tie.dkr": format_record(tie),
        "two-players-first-tie.json": json.dumps(record_to_json(tie), indent=1, ensure_ascii=False)
        + "\n",
    }


def main() -> None:
    for name, text in build_examples().items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote spec/examples/{name}", file=sys.stderr)


if __name__ == "__main__":
    main()
