"""Broken bot programs and a peeking bot (spec/bot-protocol.md): what `dekal bots check` catches."""
