"""A saved conformance report checked against its schema before any of it is used (issue 29).

`dekal conformance report` reads files written by `run --json`, or edited, cut or forged
since: `"summary": {"pass": {}}`, `"fail": ""`, `"summary": 5` or `"claimed": 1.5` each
once ended in a traceback deep in the text summary. spec/schemas/conformance-report.schema.json
says what every reader of a report (the summary, the page, the badge) relies on; `problem`
names the first field of a report that breaks it, in one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from dekal.conformance.cases._vectors import schema
from dekal_ref.reading import describe_json, shortened

SCHEMA = "conformance-report"


@cache
def _validator() -> Any:
    import jsonschema  # type: ignore[import-untyped, unused-ignore]

    return jsonschema.Draft202012Validator(schema(SCHEMA))


def field_name(path: Iterable[object]) -> str:
    """A JSON path as the error names it: `engines[0].summary.pass`."""
    name = ""
    for step in path:
        name += (
            f"[{step}]" if isinstance(step, int) else f"{'.' if name else ''}{shortened(str(step))}"
        )
    return name or "the report"


def _why(error: Any) -> str:
    """What the field should be, and what it is, in words (never the whole value)."""
    found = describe_json(error.instance)
    expected = error.validator_value
    if error.validator == "type":
        kinds = expected if isinstance(expected, list) else [expected]
        return f"{' or '.join(map(str, kinds))} expected, not {found}"
    if error.validator in ("minimum", "maximum"):
        bound = "at least" if error.validator == "minimum" else "at most"
        return f"{bound} {expected} expected, not {found}"
    if error.validator in ("enum", "const"):
        choices = expected if isinstance(expected, list) else [expected]
        return f"one of {', '.join(map(str, choices))} expected, not {found}"
    if error.validator == "minItems":
        return f"at least {expected} item{'s' if expected != 1 else ''} expected"
    return shortened(str(error.message))


def problem(report: object) -> tuple[str, str] | None:
    """(field, why) of the first place `report` breaks the schema; None when it fits."""
    errors = sorted(
        _validator().iter_errors(report), key=lambda error: list(map(str, error.absolute_path))
    )
    if not errors:
        return None
    first = errors[0]
    if first.validator == "required":  # the field missing is named, not its parent
        missing = str(first.message).split("'")[1] if "'" in str(first.message) else ""
        return field_name([*first.absolute_path, missing]), "missing"
    return field_name(first.absolute_path), _why(first)
