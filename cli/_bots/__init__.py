"""The bots' commands (internal; the commands are the surface), one module per command:

- `advise`: `dekal advise`, each legal action's expected score and chance to win;
- `annotate`: `dekal annotate`, every decision of a record judged as advise would, and
  `annotate_page` its HTML page;
- `check`: `dekal bots`, bots checked against the bot protocol (spec/bot-protocol.md);
- `match`: `dekal match`, bots against each other on paired deals (Elo, SPRT, ratings).

`dekal play` is a wing of its own (`dekal.cli._play`); the bot specs every command reads
are `dekal.cli._bot_specs`. Nothing is imported here.
"""
