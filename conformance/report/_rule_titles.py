"""The title of each rule ID, read from spec/rules.md (its `### ID. Title` headings).

Reports name a rule with its title beside its ID (`S1 Equal neighbours cancel`): the titles
are parsed from the installed spec each time they are needed, never copied, so a heading
renamed in spec/rules.md is renamed in every report.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

HEADING = re.compile(r"^### ([MTPFSB][0-9])\. (.+?)\s*$", re.MULTILINE)


@functools.cache
def rule_titles() -> dict[str, str]:
    """Rule ID -> its title, in the order spec/rules.md gives them (M1 … B1)."""
    text = resources.files("dekal.spec").joinpath("rules.md").read_text("utf-8")
    return {rule: title.replace("`", "") for rule, title in HEADING.findall(text)}


def titled(rule: str) -> str:
    """`S1 Equal neighbours cancel`; an ID spec/rules.md does not head is shown alone."""
    title = rule_titles().get(rule)
    return f"{rule} {title}" if title else rule
