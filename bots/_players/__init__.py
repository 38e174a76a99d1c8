"""The bots themselves (internal: make a bot with `dekal.bots.bot.make_bot`), one module per
idea: `greedy` and `random_bot`, the two policies docs/contracts.md defines exactly;
`rollout`, a world played to the round's end by one policy, and `utility`, what a seat wants
from it; `pimc` and `ismcts`, the search bots built on them. Nothing is imported here."""
