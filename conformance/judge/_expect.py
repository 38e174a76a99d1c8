"""Known failures (`--expect`), one format for `dekal conformance run` and `fuzz`.

A text file, one entry per line (`#` starts a comment):

    game-0007 S3 our tie-break is still the old one     # that case, failing on that rule
    M3 the public view shows the pile's size            # any failure blamed on that rule

or the JSON equivalent, a list of objects:

    [{"case": "game-0007", "rule": "S3", "reason": "…"}, {"rule": "M3"}]

`run` counts a failure as expected when its case is listed with the rule it is blamed on, or
its rule is listed without a case; a listed case that fails on another rule is an unexpected
failure, and a listed case that passes an unexpected pass. `fuzz` plays random games, not
cases: it reads the same file and uses the lines without a case.
"""

from __future__ import annotations

from dataclasses import dataclass

from dekal.conformance.judge._attribution import RULE_IDS
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import read_json
from dekal_ref.reading import describe_json, shortened

DEFAULT_REASON = "known failure"

LINE_SHAPES = "`ID RULE [reason]` or `RULE [reason]`"
"""The two kinds of line this module reads, as `dekal conformance run --help` shows them."""

FORMAT = f"write {LINE_SHAPES} (rule IDs: M1-M5, T1-T5, P1-P2, F1-F4, S1-S4, B1)"


@dataclass(frozen=True)
class Expected:
    """One known failure: `case` failing on `rule`, or (case None) any failure on `rule`."""

    rule: str
    case: str | None = None
    reason: str = DEFAULT_REASON

    def __str__(self) -> str:
        return f"{self.case} {self.rule}" if self.case else self.rule


@dataclass(frozen=True)
class ExpectedFailures:
    """Every entry of an --expect file."""

    entries: tuple[Expected, ...] = ()

    def match(self, case: str, rule: str | None) -> Expected | None:
        """The entry that makes a failure of `case` blamed on `rule` expected: the case's
        own entry for that rule first, then an entry for the rule alone."""
        if rule is None:
            return None
        for entry in self.entries:
            if entry.case == case and entry.rule == rule:
                return entry
        return next((e for e in self.entries if e.case is None and e.rule == rule), None)

    def for_case(self, case: str) -> list[Expected]:
        """The entries that name `case`."""
        return [entry for entry in self.entries if entry.case == case]

    @property
    def cases(self) -> set[str]:
        return {entry.case for entry in self.entries if entry.case is not None}

    @property
    def rules(self) -> frozenset[str]:
        """The rules listed without a case (what `fuzz` uses)."""
        return frozenset(entry.rule for entry in self.entries if entry.case is None)


def parse_expect(text: str, source: str) -> ExpectedFailures:
    """An --expect file's text; NotationError (naming `source` and the line) otherwise."""
    if text.lstrip().startswith(("[", "{")):
        return _from_json(text, source)
    entries = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            entries.append(parse_line(line, f"{source}, line {number}"))
    return ExpectedFailures(tuple(entries))


def parse_line(line: str, where: str) -> Expected:
    """`ID RULE [reason]` or `RULE [reason]`."""
    first, _, rest = line.partition(" ")
    if first in RULE_IDS:
        return Expected(first, None, rest.strip() or DEFAULT_REASON)
    second, _, reason = rest.strip().partition(" ")
    if second not in RULE_IDS:
        said = f"{shortened(second)!r} is not a rule ID" if second else "no rule after the case"
        raise NotationError("--expect", f"{where}: {said}: {FORMAT}")
    return Expected(second, first, reason.strip() or DEFAULT_REASON)


def parse_rules(value: str) -> ExpectedFailures:
    """Rule IDs written inline, comma separated (`fuzz --expect M3,S3`)."""
    entries = []
    for token in (t.strip() for t in value.split(",")):
        if token and token not in RULE_IDS:
            raise NotationError("--expect", f"{shortened(token)} is not a rule ID nor a file")
        if token:
            entries.append(Expected(token))
    return ExpectedFailures(tuple(entries))


def _from_json(text: str, source: str) -> ExpectedFailures:
    data = read_json(text, source)
    if not isinstance(data, list):
        raise NotationError(
            "--expect",
            f'{source}: a JSON --expect is a list of {{"case", "rule", "reason"}} objects'
            f' ("case" and "reason" optional), not {describe_json(data)}',
        )
    entries = []
    for index, item in enumerate(data):
        where = f"{source}, entry {index}"
        if not isinstance(item, dict) or item.get("rule") not in RULE_IDS:
            said = f'{where}: needs a "rule" that is a rule ID'
            raise NotationError("--expect", f"{said}; {FORMAT}")
        case, reason = item.get("case"), item.get("reason", DEFAULT_REASON)
        if (case is not None and not isinstance(case, str)) or not isinstance(reason, str):
            raise NotationError("--expect", f'{where}: "case" and "reason" are strings')
        entries.append(Expected(str(item["rule"]), case, reason or DEFAULT_REASON))
    return ExpectedFailures(tuple(entries))
