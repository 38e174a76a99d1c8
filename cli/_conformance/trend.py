"""`dekal conformance trend`: a rule × report table across saved JSON reports."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from dekal.cli._common import (
    EXIT_OK,
    EXIT_VERDICT,
    fail,
    input_file,
    out,
    print_json,
    read_text_file,
)
from dekal.cli._conformance.options import HtmlFile, write_file
from dekal.cli._written import Quiet
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import MAX_JSON_CHARS

TREND_HELP = """A rule × report table across saved JSON reports (of `run --json`), oldest first.

Each engine of each report is a column (its name and version), each rule a row (its ID and
title): how a rule fared from one build to the next. A cell says `✗ n` (failures that fail
the run), `n should` (should-level failures only), `n elsewhere` (the rule's own cases
pass, n cases covering it fail, blamed on other rules), `n pass` or `not run`; a `*` marks
a cell that changed since the column before. The verdict line of each report ends the
table.

\b
    dekal conformance run --engine "./my-engine-0.1" --json > r1.json
    dekal conformance run --engine "./my-engine-0.2" --json > r2.json
    dekal conformance trend r1.json r2.json
    dekal conformance trend r1.json r2.json --html trend.html

Exit codes: 0 the last report passed; 1 the last report has unexpected failures; 2 bad
usage or a file that is not a known report.
"""


def trend(
    results: Annotated[
        list[Path],
        typer.Argument(
            metavar="RESULTS",
            help="Reports saved by `run --json`, oldest first.",
            parser=input_file,
        ),
    ],
    html_file: HtmlFile = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the table as one JSON object (trend_version 1).")
    ] = False,
    quiet: Quiet = False,
) -> None:
    from dekal.conformance.report._html import read_report
    from dekal.conformance.report._trend import columns_of, trend_html, trend_json, trend_text

    reports = []
    for path in results:
        text = read_text_file(path, "RESULTS", MAX_JSON_CHARS)
        try:
            reports.append((path.name, read_report(text, str(path))))
        except NotationError as error:
            fail(f"{error.field}: {error.message}", kind="input", field="RESULTS")
    columns = columns_of(reports)
    if html_file is not None:
        write_file(html_file, trend_html(columns), "--html", quiet)
    if json_output:
        print_json(trend_json(columns))
    else:
        out.print(trend_text(columns), markup=False, highlight=False)
    raise typer.Exit(EXIT_OK if reports[-1][1].get("ok") is True else EXIT_VERDICT)
