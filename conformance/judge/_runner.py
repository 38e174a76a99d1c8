"""Run conformance cases against a driven engine and say where each first diverges.

This module runs a suite: one outcome per case, the engine restarted after an error, expected
failures (--expect) applied. How one case is played is dekal.conformance.judge._case_run's (and
perft_run's, for perft scripts); how a reply is compared and what a divergence holds is
dekal.conformance.judge._compare's; the rule a divergence breaks is
dekal.conformance.judge._attribution's.

A case is `pass`, `fail` (a divergence), `error` (the engine crashed, hung or broke the
framing; it is restarted), `skip` (it needs a variant, player count or feature the engine
does not claim), `xfail` (failed, listed in --expect) or `xpass` (passed, but listed).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from dekal.conformance.cases._needs import skip_reason, unmet_needs
from dekal.conformance.cases._own_deal import MODE_REASON, cannot_run
from dekal.conformance.cases._vectors import SUITE_VERSION, Case
from dekal.conformance.drive._engine_link import Engine, EngineError
from dekal.conformance.drive._protocol import Message
from dekal.conformance.drive._protocol_schema import ProtocolViolation, shown_value
from dekal.conformance.judge._attribution import Blame
from dekal.conformance.judge._case_run import CaseRun
from dekal.conformance.judge._compare import (
    Diverged,
    Divergence,
)
from dekal.conformance.judge._expect import ExpectedFailures
from dekal.conformance.judge._perft_run import PerftRun
from dekal_ref.reading import shortened

STATUSES = ("pass", "fail", "error", "skip", "xfail", "xpass")


@dataclass
class Outcome:
    case: Case
    status: str
    divergence: Divergence | None = None
    message: str = ""  # errors and skips: why
    reason: str = ""  # xfail/xpass: the reason from --expect
    seconds: float = 0.0
    blame: Blame | None = None  # failures: the divergence's rule; errors: the request's rule

    @property
    def id(self) -> str:
        return str(self.case["id"])


def missing_support(case: Case, info: Message) -> str | None:
    """Why the engine cannot run `case`, from its hello; None if it can."""
    unmet = unmet_needs(case, info)
    return skip_reason(unmet) if unmet else needs_given_deal(case, info)


def needs_given_deal(case: Case, info: Message) -> str | None:
    """An engine that deals for itself (hello `"deals": "own"`) cannot play a case that gives
    a deal unless it claims `position`, which gets the deal as a position
    (dekal.conformance.cases._own_deal; spec/protocol.md, own-deal mode)."""
    return MODE_REASON if cannot_run(case, info) else None


def run_case(engine: Engine, case: Case, timeout: float) -> Outcome:
    """Run one case; never raises for an engine fault (the outcome is `error`, blamed on the
    rule of the request in flight when there is one)."""
    reason = missing_support(case, engine.info)
    if reason:
        return Outcome(case, "skip", message=reason)
    started = time.monotonic()
    case_run = (PerftRun if case["kind"] == "perft" else CaseRun)(engine, case, timeout)
    try:
        case_run.run()
    except Diverged as diverged:
        divergence = diverged.divergence
        seconds = time.monotonic() - started
        return Outcome(case, "fail", divergence, seconds=seconds, blame=divergence.blame)
    except ProtocolViolation as violation:  # --strict-protocol: a failure naming the field
        divergence = schema_divergence(violation, case_run.blame_now)
        seconds = time.monotonic() - started
        return Outcome(case, "fail", divergence, seconds=seconds, blame=divergence.blame)
    except EngineError as error:
        seconds = time.monotonic() - started
        return Outcome(case, "error", message=str(error), seconds=seconds, blame=case_run.blame_now)
    except (TypeError, AttributeError, KeyError, ValueError, IndexError) as error:
        # A reply with the right framing but the wrong shape (a number where a list goes…).
        message = f"the engine's reply is malformed ({type(error).__name__}: {error})"
        seconds = time.monotonic() - started
        return Outcome(case, "error", message=message, seconds=seconds, blame=case_run.blame_now)
    message = "; ".join(case_run.notes)
    return Outcome(case, "pass", message=message, seconds=time.monotonic() - started)


def schema_divergence(violation: ProtocolViolation, blame: Blame | None) -> Divergence:
    """A reply that breaks the protocol's schema (--strict-protocol), as the case's failure:
    blamed on the rule of the request in flight, the field named after the reply's."""
    request, found = violation.request, violation.violation
    sent = " ".join(
        [str(request.get("cmd")), *(f"{k}={v!r}" for k, v in request.items() if k != "cmd")]
    )
    return Divergence(
        None,
        shortened(sent, 120),
        f"the reply breaks the protocol's schema at {found.field}: {found.message}",
        expected=f"{found.definition} in spec/schemas/protocol.schema.json",
        actual=shown_value(found.value),
        rule=blame.rule if blame is not None else "",
        field=f"reply field {found.field}",
    )


@dataclass
class Run:
    """Every outcome of one engine, with what it said in hello."""

    engine: str
    info: Message
    outcomes: list[Outcome] = field(default_factory=list)
    aborted: str = ""  # why the run stopped early (the engine could not be restarted)
    strict: bool = False  # count `should`-level failures too
    cases: list[Case] = field(default_factory=list)  # every case asked for, run or not
    stopped: str = ""  # why the run stopped before the last case by request (--fail-fast)
    suite: str = SUITE_VERSION  # the suite the cases come from (reports name it)

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def not_passing(self) -> list[Outcome]:
        """Failures, errors and unexpected passes, `must` cases first."""
        bad = [o for o in self.outcomes if o.status in ("fail", "error", "xpass")]
        return sorted(bad, key=lambda o: o.case.get("level") != "must")

    @property
    def unexpected(self) -> list[Outcome]:
        """What makes the run fail: every bad `must` outcome (and `should` ones if strict)."""
        return [o for o in self.not_passing if self.is_unexpected(o)]

    def is_unexpected(self, outcome: Outcome) -> bool:
        bad = outcome.status in ("fail", "error", "xpass")
        return bad and (self.strict or outcome.case.get("level") == "must")

    @property
    def not_run(self) -> list[Case]:
        """Cases asked for that have no outcome (the run stopped at --fail-fast)."""
        done = {id(o.case) for o in self.outcomes}
        return [case for case in self.cases if id(case) not in done]


def run_suite(
    engine: Engine,
    cases: list[Case],
    expected_failures: ExpectedFailures | None = None,
    timeout: float = 10.0,
    advance: Callable[[Outcome], None] | None = None,
    strict: bool = False,
    fail_fast: bool = False,
    suite: str = SUITE_VERSION,
) -> Run:
    """Run every case, restarting the engine after an error; stop only if it cannot restart,
    or, with `fail_fast`, after the first unexpected failure, error or pass. Failures listed
    in `expected_failures` (--expect) become expected ones (apply_expected). `suite` is the
    version the cases were loaded from (load_cases(suite)): the run's reports name it."""
    from dekal.conformance.drive._engine_link import EngineUnusable

    expected_failures = expected_failures or ExpectedFailures()
    run = Run(engine.label, dict(engine.info), strict=strict, cases=list(cases), suite=suite)
    for index, case in enumerate(cases):
        outcome = run_case(engine, case, timeout)
        if outcome.status == "error":
            diagnostics = getattr(engine, "diagnostics", lambda: "")()
            if diagnostics:
                outcome.message += "\n  engine stderr (last lines):\n    " + diagnostics.replace(
                    "\n", "\n    "
                )
            try:
                engine.restart()
            except EngineUnusable as error:
                run.outcomes.append(outcome)
                run.aborted = f"after case {case['id']} the engine could not be restarted: {error}"
                for rest in cases[index + 1 :]:
                    run.outcomes.append(
                        Outcome(rest, "error", message="not run: the engine could not be restarted")
                    )
                break
        apply_expected(outcome, expected_failures)
        run.outcomes.append(outcome)
        if advance is not None:
            advance(outcome)
        if fail_fast and run.is_unexpected(outcome) and index + 1 < len(cases):
            run.stopped = (
                f"stopped after {case['id']}, the first unexpected {outcome.status} "
                f"(--fail-fast): {len(cases) - index - 1} cases not run"
            )
            break
    return run


def apply_expected(outcome: Outcome, expected: ExpectedFailures) -> None:
    """A failure (or error) whose case is listed with the rule it is blamed on, or whose rule
    is listed alone, is expected (`xfail`); a listed case that passes is an unexpected pass
    (`xpass`); a listed case that fails on another rule stays a failure, and says so."""
    listed = expected.for_case(outcome.id)
    if outcome.status in ("fail", "error"):
        rule = outcome.blame.rule if outcome.blame is not None else None
        entry = expected.match(outcome.id, rule)
        if entry is not None:
            outcome.status, outcome.reason = "xfail", entry.reason
        elif listed:
            rules = ", ".join(entry.rule for entry in listed)
            outcome.reason = (
                f"as failing on {rules} ({listed[0].reason}); it fails on {rule or 'no rule'}"
            )
    elif outcome.status == "pass" and listed:
        outcome.status, outcome.reason = "xpass", listed[0].reason
