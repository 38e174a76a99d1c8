"""The two ways an input can be wrong (rule B1).

* `NotationError`: the text does not parse (a malformed grid, cell, push or position).
  It names the field that is wrong.
* `IllegalAction`: the text parses, but the rules forbid the action. It names the rule ID
  (from spec/rules.md) that the action breaks.

Every engine of this project raises exactly these, and never changes a state when it does.
"""

from __future__ import annotations


class DekalError(Exception):
    """Base class of every error that Dékal Lab reports to a user."""


class NotationError(DekalError, ValueError):
    """A piece of notation is malformed. `field` names what was being read."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class IllegalAction(DekalError):
    """An action the rules forbid. `rule` is the rule ID it breaks (e.g. "P1")."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message


class RuleArgument(IllegalAction, ValueError):
    """An argument outside what a rule allows, refused where the value is built: an
    IllegalAction naming the rule (M2 for `Rules(players=7)`) that is also a ValueError
    naming the argument (`field`) and the range allowed."""

    def __init__(self, rule: str, field: str, message: str) -> None:
        super().__init__(rule, f"{field}: {message}")
        self.field = field
