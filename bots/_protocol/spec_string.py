"""A bot's canonical spec string (the inverse of dekal.bots.bot.make_bot), apart from the
factory so that the bots it makes can name themselves without importing it."""

from __future__ import annotations

import dataclasses


def spec_of(kind: str, bot: object) -> str:
    """The canonical spec string of a bot: its kind, then every option that differs from the
    default, in field order (`pimc:samples=40`)."""
    changed = [
        f"{field.name}={getattr(bot, field.name)}"
        for field in dataclasses.fields(bot)  # type: ignore[arg-type]
        if getattr(bot, field.name) != field.default
    ]
    return f"{kind}:{','.join(changed)}" if changed else kind
