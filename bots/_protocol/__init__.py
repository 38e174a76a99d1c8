"""The bot protocol (spec/bot-protocol.md), internal: `bot_protocol`, its messages;
`process_bot`, `cmd:COMMAND`, a bot that is a program; `check`, `dekal bots check`, a bot's
promises tested; `spec_string`, a bot's canonical spec (the inverse of make_bot). Nothing is
imported here."""
