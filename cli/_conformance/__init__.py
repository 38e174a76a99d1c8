"""`dekal conformance`: judge a Dékal implementation, in any language, rule by rule.

The engine under test speaks the protocol of spec/protocol.md over stdin/stdout (--engine
CMD), or is a Python object judged in-process (--python MODULE:FACTORY). One module per
subcommand: `run` (conformance_run), `fuzz` (conformance_fuzz), `report`
(conformance_report), `trend` (conformance_trend); what they share is conformance_options's.
"""

from __future__ import annotations

import typer

from dekal.cli._common import DekalCommand, DekalGroup
from dekal.cli._conformance.fuzz import FUZZ_HELP, fuzz
from dekal.cli._conformance.report import REPORT_HELP, report
from dekal.cli._conformance.run import FILTER_CHARS, RUN_HELP, run
from dekal.cli._conformance.trend import TREND_HELP, trend
from dekal.conformance.cases._vectors import SUITE_VERSION
from dekal.conformance.drive._protocol import PROTOCOL_VERSION

__all__ = ["FILTER_CHARS", "conformance_app", "register"]

conformance_app = typer.Typer(
    name="conformance",
    help=(
        "Judge a Dékal implementation, in any language, rule by rule.\n\n"
        f"Suite {SUITE_VERSION}, protocol {PROTOCOL_VERSION}: see spec/protocol.md and"
        " docs/validate.md."
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
    cls=DekalGroup,
)


def register(app: typer.Typer) -> None:
    conformance_app.command("run", help=RUN_HELP, cls=DekalCommand)(run)
    conformance_app.command("fuzz", help=FUZZ_HELP, cls=DekalCommand)(fuzz)
    conformance_app.command("report", help=REPORT_HELP, cls=DekalCommand)(report)
    conformance_app.command("trend", help=TREND_HELP, cls=DekalCommand)(trend)
    app.add_typer(conformance_app, name="conformance")
