"""A bot over pipes is the same bot (spec/bot-protocol.md): our bots served by
`python -m dekal.bots.serve` play the very games they play in-process, record for record,
across games and across a match's rounds, and every process is ended when the bot closes."""

from __future__ import annotations

import sys

from dekal.bots.bot import make_bot
from dekal.bots.table import play_game
from dekal.conformance.drive._process_group import group_alive
from dekal_ref.state import Rules

SERVE = f"cmd:{sys.executable} -m dekal.bots.serve"


def test_a_served_bot_plays_the_same_games_as_in_process() -> None:
    """random draws once a decision from its seat's stream: one draw out of step anywhere
    (a seed passed wrong, a new game not told) and the records part."""
    outside = make_bot(f"{SERVE} random")
    games = [(Rules(players=3), 5), (Rules(players=3), 6), (Rules(players=2, threshold=40), 7)]
    try:
        for rules, seed in games:
            inside = play_game(rules, [make_bot("random")] * rules.players, seed)
            seats = [outside, make_bot("random"), outside][: rules.players]
            assert play_game(rules, seats, seed).record == inside.record, (rules, seed)
    finally:
        outside.close()


def test_closing_the_bot_ends_every_process_it_started() -> None:
    outside = make_bot(f"{SERVE} greedy")
    play_game(Rules(players=2), [outside, outside], seed=1)
    groups = [link.process.process.pid for link in outside.links]  # type: ignore[union-attr]
    assert len(groups) == 2
    outside.close()
    assert not any(group_alive(group) for group in groups)
