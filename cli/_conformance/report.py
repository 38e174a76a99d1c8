"""`dekal conformance report`: saved JSON reports summarized, and drawn again as one HTML
page and a badge."""

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
    whole_number,
)
from dekal.cli._conformance.options import BadgeFile, HtmlFile, write_file
from dekal.cli._written import Quiet
from dekal_ref.errors import NotationError
from dekal_ref.json_reading import MAX_JSON_CHARS

REPORT_HELP = """Summarize saved JSON reports (of `run --json`), draw them as a page and a badge.

Every engine of every report gets a column of the rule × engine matrix, side by side:
compare builds, or your engine with ours, without running anything again. The text summary
(each engine's cases by status, its coverage, the first --show cases that did not pass,
then the verdict) is printed unless --json; each file written is said on standard error
(`wrote FILE`) unless --quiet.

\b
    dekal conformance report mine.json
    dekal conformance run --engine "./my-engine" --json > mine.json
    dekal conformance run --json > ours.json
    dekal conformance report mine.json ours.json --html report.html
    dekal conformance report mine.json --badge badge.svg

The badge shows the first engine's must-level coverage of what it claims
("dekal conformance | 1362/1362"): green when every claimed must case passes, red
otherwise. The files are read as untrusted input; a report_version this dekal does not
know is refused.

Exit codes: 0 every report passed; 1 a report has unexpected failures (as `run` said);
2 bad usage or a file that is not a known report.
"""


def report(
    results: Annotated[
        list[Path],
        typer.Argument(metavar="RESULTS", help="Reports saved by `run --json`.", parser=input_file),
    ],
    html_file: HtmlFile = None,
    badge: BadgeFile = None,
    show: Annotated[
        int,
        typer.Option(
            metavar="N",
            help="How many failures per engine to draw in full.",
            parser=whole_number(0, 1_000_000),
        ),
    ] = 20,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the reports merged into one JSON report.")
    ] = False,
    quiet: Quiet = False,
) -> None:
    from dekal.conformance.report._html import (
        html_page,
        read_report,
        report_badge,
    )
    from dekal.conformance.report._saved import reports_text

    reports = []
    for path in results:
        text = read_text_file(path, "RESULTS", MAX_JSON_CHARS)
        try:
            reports.append(read_report(text, str(path)))
        except NotationError as error:
            fail(f"{error.field}: {error.message}", kind="input", field="RESULTS")
    if html_file is not None:
        write_file(html_file, html_page(reports, show), "--html", quiet)
    if badge is not None:
        write_file(badge, report_badge(reports[0]), "--badge", quiet)
    ok = all(r.get("ok") is True for r in reports)
    if json_output:
        suites = ", ".join(sorted({str(r.get("suite")) for r in reports}))
        merged = {**reports[0], "suite": suites, "ok": ok}
        merged["engines"] = [engine for r in reports for engine in r["engines"]]
        print_json(merged)
    else:
        out.print(reports_text(reports, show), markup=False, highlight=False)
    raise typer.Exit(EXIT_OK if ok else EXIT_VERDICT)
