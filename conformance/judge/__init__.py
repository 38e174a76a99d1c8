"""Judging: a case played against a driven engine, compared, and blamed on one rule.

Reads: cases (cases/) and an Engine (drive/).
Hands on: a `Run` (`_runner.run_suite`): one Outcome per case (pass, fail, error, skip,
xfail, xpass), each failure's first Divergence with the rule it breaks; coverage figures;
which refusal branches of the reference the suite reaches.

Modules: _runner (a suite), _case_run (one case, step by step), _perft_run (perft scripts,
entry by entry), _compare (what differs), _attribution and _trace (which rule a difference
breaks, read from the reference's own trace), _expect (known failures, --expect),
_coverage, _refusal_sites, _own_deal_check (what an own-deal engine dealt) and _play_on (a
round played on from it, the reference answering on the same cards).
"""
