"""The anchor of a case: the section of the spec whose text decides its expected answer.

As test262 tests carry `esid`, a `must` case names where the spec says what it expects
(`spec/protocol.md#new_game-from-a-position`, `spec/rules.md#t5`), and a test holds the
expectation to the anchor: the section must state the rule ID or the error kind the case
expects. A case whose answer no section states cannot be `must` (issue 27: correct engines
failed cases the spec did not decide).

The anchor follows from what the case asks, in the order a reader looks things up:

* a set-up from a position: spec/protocol.md, "`new_game` from a position" (its list says
  which rule refuses which unreachable position, in order);
* a set-up from a deal, and every `bad_request`: spec/protocol.md, "`new_game`" (its
  precedence list) or the command's own section;
* a `notation` refusal of a single-grid command: spec/notation.md, "Grids";
* anything else: spec/rules.md, the section of the case's first rule (a refusal must name
  that section's rule, or B1 for an action refused as illegal).
"""

from __future__ import annotations

import functools
import re
from importlib import resources
from typing import Any

Case = dict[str, Any]

SPEC_FILES = ("rules.md", "protocol.md", "notation.md")

COMMAND_SECTIONS = {
    "score": "score-pushes-push-single-grid-commands-need-no-game",
    "push": "score-pushes-push-single-grid-commands-need-no-game",
    "pushes": "score-pushes-push-single-grid-commands-need-no-game",
    "deal": "deal-feature-seeded-deal",
    "perft": "perft-feature-perft",
}
"""The protocol section of each single-request kind of case (its refusals are stated there)."""


def slug(heading: str) -> str:
    """A heading as a GitHub-style anchor: lower case, punctuation dropped, spaces as `-`."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"\s", "-", text)


@functools.cache
def sections(name: str) -> dict[str, str]:
    """Every section of spec/`name` by its anchor, with its text up to the next heading of
    the same or a higher level."""
    text = (resources.files("dekal.spec") / name).read_text(encoding="utf-8")
    found: dict[str, str] = {}
    heads = [(m.start(), len(m.group(1)), m.group(2)) for m in
             re.finditer(r"^(#{1,6}) (.+)$", text, flags=re.M)]  # fmt: skip
    for index, (start, level, heading) in enumerate(heads):
        end = next((s for s, lv, _ in heads[index + 1 :] if lv <= level), len(text))
        found[slug(heading)] = text[start:end]
    return found


def rule_section(rule: str) -> str:
    """The anchor of rule `rule`'s own section of spec/rules.md (`### T5. End of turn…`)."""
    for anchor in sections("rules.md"):
        if anchor.split("-", 1)[0] == rule.lower():
            return f"spec/rules.md#{anchor}"
    raise KeyError(rule)


def anchor_of(case: Case) -> str:
    """The section that decides `case`'s expected answer (see the module's docstring)."""
    expect: dict[str, Any] = case["expect"] if isinstance(case.get("expect"), dict) else {}
    setup: dict[str, Any] = case.get("setup", {})
    refused = expect.get("ok") is False
    kind = case["kind"]
    if kind == "setup" and "position" in setup:
        return "spec/protocol.md#new_game-from-a-position-feature-position"
    if kind == "setup" and refused and ("kind" in expect or expect.get("rule") in _SETUP):
        return "spec/protocol.md#new_game"
    if kind in COMMAND_SECTIONS and refused:
        return f"spec/protocol.md#{COMMAND_SECTIONS[kind]}"
    return rule_section(case["rules"][0])


_SETUP = ("M1", "M2", "M3", "F1", "F3")
"""The rules `new_game`'s precedence list orders (spec/protocol.md)."""


def expected_words(case: Case) -> list[str]:
    """What the anchor must state for the case's expectation: the rule ID it refuses with,
    or its error kind; for an accepted case, its first rule."""
    expect: dict[str, Any] = case["expect"] if isinstance(case.get("expect"), dict) else {}
    if expect.get("ok") is False:
        return [expect["rule"]] if "rule" in expect else [expect.get("kind", "")]
    return [case["rules"][0]]


def undecided(case: Case) -> str | None:
    """Why the case's anchor does not decide its answer, or None when it does."""
    anchor = case.get("anchor") or anchor_of(case)
    name, _, section = anchor.removeprefix("spec/").partition("#")
    text = sections(name).get(section) if name in SPEC_FILES else None
    if text is None:
        return f"{anchor} is no section of the spec"
    missing = [word for word in expected_words(case) if not re.search(rf"\b{word}\b", text)]
    return f"{anchor} does not state {', '.join(missing)}" if missing else None
