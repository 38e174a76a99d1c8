"""Play under hidden information: what a seat may know (its public view), worlds consistent
with it, and bots that decide from it alone (installed as `dekal.bots`; docs/bots.md).

Data flows one way, one module per idea:

* observation — Observation, the public view as a value (M3, T1); read_public_view,
  observation_of, legal_actions(obs, seat), unseen_cards;
* sampler — sample_world, sample_worlds, exact_worlds: full positions consistent with a view;
* _players/ — the bots themselves: greedy and random_bot (the two policies docs/contracts.md
  defines exactly), rollout and utility (a world played to the round's end, and what a seat
  wants from it), pimc and ismcts (the search bots);
* advise — each legal action of one seat, with its expected score and P(win), built on
  _advice/: question (which positions), enumeration (exact worlds), playout (worlds played
  out in batches), figures (means, intervals, P(win)) and reachable (which views a game
  reaches);
* bot — the Bot protocol, make_bot(spec), BOT_NAMES;
* table — play_game, the table loop that gives each seat only its observation;
* serve — one of our bots over the bot protocol (spec/bot-protocol.md), and _protocol/:
  bot_protocol (its messages), process_bot (`cmd:COMMAND`, a bot that is a program), check
  (`dekal bots check`) and spec_string (a bot's canonical spec).

Nothing heavy is imported here: numba (the compiled rollouts) only when a search bot first
plays out.

Public: the modules in `__all__`; every module or wing with a leading `_` (the bots
themselves, rollouts, sampling helpers) is internal: make a bot with `dekal.bots.bot.make_bot`.
"""

__all__ = [
    "advise",
    "annotate",
    "bot",
    "observation",
    "sampler",
    "serve",
    "table",
    "work",
]
