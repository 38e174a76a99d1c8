"""Every figure a page states about the code is the code's (issue 20: docs that cannot drift).

A figure in a console example is checked by running the example (tests/docs/test_docs_examples.py);
this module covers the figures stated in prose: suite sizes, case counts, the puzzle set's
size, the deck bounds `dekal prove` finds, the obligations it lists, the time bound the
deadline tests hold. Each entry of FIGURES is a page, a pattern whose groups are the figure as
the page writes it, and a function that computes it from the code; every place the pattern
matches must agree, and a pattern that no longer matches fails too (the sentence moved: point
the entry at its new wording).

Figures that record a measurement at a past commit ("Measured on suite v2 (1,363 cases) at
the commit that added this paragraph") are history, not claims about the code: not listed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pytest
from support.doc_pages import ROOT

from dekal.cli._stopping import STOP_GRACE
from dekal.conformance.cases._needs import smoke_cases
from dekal.conformance.cases._vectors import SUITE_VERSION, load_cases, matches
from dekal.conformance.drive._serve import bundled_adapter
from dekal.proofs._obligations.catalogue import OBLIGATIONS
from dekal.proofs.puzzle_set import load_puzzles
from dekal_ref.notation import parse_grid
from dekal_ref.scoring import score_grid

Truth = Callable[[], tuple[str, ...]]


@cache
def suite_size() -> int:
    return len(load_cases())


def current_suite() -> tuple[str, ...]:
    return (SUITE_VERSION,)


def whole_suite() -> tuple[str, ...]:
    return (SUITE_VERSION, str(suite_size()))


def must_cases() -> tuple[str, ...]:
    must = str(sum(1 for case in load_cases() if case["level"] == "must"))
    return (must, must)  # the reference passes every case it claims


def grid_cases() -> tuple[str, ...]:
    """`--filter score,pushes,push`: the grid rules alone."""
    return (str(sum(1 for case in load_cases() if matches(case, ["score", "pushes", "push"]))),)


def smoke_about() -> tuple[str, ...]:
    hello = bundled_adapter("ref").handle({"id": 1, "cmd": "hello", "protocol": 1})
    return (str(round(len(smoke_cases(load_cases(), hello)), -1)),)


def more_than_a_thousand() -> tuple[str, ...]:
    """The suite's size in whole thousands, in words ("more than two thousand cases")."""
    words = ("", "a", "two", "three", "four", "five")
    thousands = suite_size() // 1000
    return (words[thousands],) if 0 < thousands < len(words) else (str(suite_size()),)


def puzzle_count() -> tuple[str, ...]:
    return (str(len(load_puzzles())),)


@cache
def deck_bound(name: str) -> str:
    """The extreme score `dekal prove` finds for bounds.highest or bounds.lowest (Z3, ~1 s)."""
    (obligation,) = [o for o in OBLIGATIONS if o.name == name]
    verdict = obligation.check()
    assert verdict.proved, verdict
    found = re.search(r"score (\d+), witness", verdict.detail)
    assert found, verdict.detail
    return found.group(1)


def deck_bounds() -> tuple[str, ...]:
    return (deck_bound("bounds.highest"), deck_bound("bounds.lowest"))


def load_slack() -> tuple[str, ...]:
    from test_deadlines_under_load import SLACK

    return (f"{1 + SLACK:g}",)


def js_deals() -> tuple[str, ...]:
    from test_js_engine import DEAL_SEEDS

    return (str(len(DEAL_SEEDS) * len(range(2, 7)) * 3), str(len(DEAL_SEEDS)))


WORDS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
WORDS += "fifteen sixteen seventeen eighteen nineteen twenty"
SPELLED_TENS = {30: "thirty", 40: "forty", 50: "fifty"}
SPELLED = dict(enumerate(WORDS.split()))


def spelled(count: int) -> str:
    return SPELLED.get(count) or SPELLED_TENS.get(count, str(count))


def promoted_should_cases() -> tuple[str, ...]:
    """v1 `should` cases that v2 holds as `must`."""
    v2 = {str(case["id"]): case for case in load_cases("v2")}
    ids = [c["id"] for c in load_cases("v1") if c["level"] == "should"]
    return (spelled(sum(1 for i in ids if v2.get(str(i), {}).get("level") == "must")),)


def whole_game_rules() -> tuple[str, ...]:
    (game,) = [case for case in load_cases() if case["id"] == "game-0002"]
    return (spelled(len(game["rules"])), spelled(len(game["rules"])))


def broken_builds() -> tuple[str, ...]:
    from test_js_engine import CAUGHT_BY

    return (spelled(len(CAUGHT_BY)),)


def hard_set() -> tuple[str, ...]:
    return (spelled(len(json.loads((ROOT / "bench" / "hard_puzzles.json").read_text()))),)


def hypothesis_sizes() -> tuple[str, ...]:
    from conftest import DEEP_FACTOR, DEFAULT_EXAMPLES

    return (str(DEFAULT_EXAMPLES), spelled(DEEP_FACTOR))


def chosen_one_round_core() -> tuple[str, ...]:
    """The core coverage of the reference restricted to slide, chosen and one round (every
    case it claims passed: coverage is arithmetic on the cases' needs, no engine runs)."""
    import dekal_ref
    from dekal.conformance.cases._needs import unmet_needs
    from dekal.conformance.drive._adapter import ProtocolAdapter
    from dekal.conformance.judge._coverage import core_coverage
    from dekal.conformance.judge._runner import Outcome, Run

    info = ProtocolAdapter(
        dekal_ref, push_variants=("slide",), first_rules=("chosen",), features=()
    ).hello({})
    cases = load_cases()
    outcomes = [Outcome(c, "skip" if unmet_needs(c, info) else "pass") for c in cases]
    figure = core_coverage(Run("restricted", info, outcomes, cases=list(cases)))
    share = f"{100 * figure.count / figure.of:.1f}"
    return (share, str(figure.count), str(figure.of), str(figure.of - figure.count))


@dataclass(frozen=True)
class Figure:
    page: str
    pattern: str
    truth: Truth
    what: str


FIGURES = [
    Figure(
        "docs/validate.md",
        r"one round gets ([\d.]+)% \((\d+) of (\d+) checks\); the (\d+) it misses",
        chosen_one_round_core,
        "the core coverage of the reference restricted to slide, chosen and one round",
    ),
    Figure("docs/validate.md", r"suite \*\*(v\d+)\*\*", current_suite, "the current suite"),
    Figure(
        "docs/validate.md", r"instead of the current (v\d+)", current_suite, "the current suite"
    ),
    Figure(
        "docs/validate.md",
        r"plays more than (\w+) thousand cases",
        more_than_a_thousand,
        "the size of the current suite",
    ),
    Figure(
        "docs/validate.md",
        r'"dekal conformance \| ([\d,]+)/([\d,]+)"',
        must_cases,
        "the badge of a run of the whole suite: its must cases",
    ),
    Figure(
        "docs/validate.md",
        r"are ([\d,]+) cases and need no game",
        grid_cases,
        "the cases of --filter score,pushes,push",
    ),
    Figure(
        "docs/validate.md",
        r"about (\d+) cases, seconds",
        smoke_about,
        "the size of --smoke for the reference, to the nearest ten",
    ),
    Figure(
        "examples/engines/js/README.md",
        r"the whole suite (v\d+), ([\d,]+) cases",
        whole_suite,
        "the current suite and its size",
    ),
    Figure(
        "examples/engines/js/README.md",
        r"it reads `spec/conformance/(v\d+)/\*\.jsonl`",
        current_suite,
        "the suite run-vectors.mjs reads: the default, newest one",
    ),
    Figure(
        "examples/engines/js/README.md",
        r"failing cases \(of ([\d,]+)\)",
        lambda: (str(suite_size()),),
        "the size of the current suite",
    ),
    Figure(
        "examples/engines/js/README.md",
        r"compares (\d+) deals\s+\((\d+) seeds",
        js_deals,
        "the deals tests/conformance/drive/test_js_engine.py compares",
    ),
    Figure(
        "docs/engine.md",
        r"\(suite (v\d+),\s+now ([\d,]+) cases\)",
        whole_suite,
        "the current suite and its size",
    ),
    Figure(
        "docs/validate.md",
        r"(\w+) `should` cases\s+promoted to `must`",
        promoted_should_cases,
        "the v1 should cases v2 holds as must",
    ),
    Figure(
        "docs/validate.md",
        r"A whole game lists (\w+) rules, but .*? not (\w+)\.",
        whole_game_rules,
        "the rules a whole game (game-0002) covers",
    ),
    Figure(
        "docs/validate.md",
        r"the (\w+) deliberately broken builds",
        broken_builds,
        "the broken builds of the JavaScript engine (tests/conformance/drive/test_js_engine.py)",
    ),
    Figure(
        "docs/puzzles.md", r"`bench/hard_puzzles.json`, is (\w+) such", hard_set, "the hard set"
    ),
    Figure("README.md", r"\((\d+) rated puzzles", puzzle_count, "the puzzle set's size"),
    Figure("docs/puzzles.md", r"all (\d+) puzzles in", puzzle_count, "the puzzle set's size"),
    Figure(
        "docs/puzzles.md",
        r"the highest final score is (\d+) .*? and the lowest (\d+)",
        deck_bounds,
        "the deck bounds `dekal prove` finds",
    ),
    Figure(
        "README.md",
        r"within\s+(\d+)\s+seconds\s+at\s+the\s+most",
        lambda: (f"{STOP_GRACE:g}",),
        "how long a stopped command may take to end (dekal.cli._stopping.STOP_GRACE)",
    ),
    Figure(
        "README.md",
        r"(\d+)\s+examples\s+a\s+property.*?gives\s+every\s+property\s+(\w+)\s+times",
        hypothesis_sizes,
        "the Hypothesis profiles' sizes (tests/conftest.py)",
    ),
    Figure(
        "docs/puzzles.md",
        r"the\s+default\s+tests\s+allow\s+S\s+\+\s+(\d+)\s+s",
        load_slack,
        "the slack tests/hostile/test_deadlines_under_load.py allows --timeout in the default run",
    ),
]


def said(page: str, pattern: str) -> list[tuple[int, tuple[str, ...]]]:
    """(line, groups) of every place a page matches a figure's pattern."""
    text = (ROOT / page).read_text(encoding="utf-8")
    return [
        (
            text.count("\n", 0, m.start()) + 1,
            tuple(g.replace(",", "") if re.fullmatch(r"[\d,]+", g) else g for g in m.groups()),
        )
        for m in re.finditer(pattern, text, re.DOTALL)
    ]


@pytest.mark.parametrize("figure", FIGURES, ids=[f"{f.page} {f.what}" for f in FIGURES])
def test_the_page_states_the_figure_the_code_gives(figure: Figure) -> None:
    found = said(figure.page, figure.pattern)
    assert found, f"{figure.page} no longer states {figure.what} as {figure.pattern!r}"
    truth = figure.truth()
    wrong = [
        f"{figure.page}:{line}: says {', '.join(words)} for {figure.what}; "
        f"the code gives {', '.join(truth)}"
        for line, words in found
        if words != truth
    ]
    assert wrong == [], "\n".join(wrong)


def test_a_stated_figure_that_differs_is_caught() -> None:
    assert said("docs/validate.md", r"suite \*\*(v\d+)\*\*")
    assert ("v0",) not in [words for _, words in said("docs/validate.md", r"suite \*\*(v\d+)\*\*")]


def test_the_deck_bounds_witness_the_page_shows_scores_the_bound() -> None:
    text = (ROOT / "docs" / "puzzles.md").read_text(encoding="utf-8")
    (witness,) = re.findall(r"highest final score is \d+ \(a witness: `([\dT/]+)`", text)
    assert str(score_grid(parse_grid(witness)).points) == deck_bound("bounds.highest")


def test_the_obligations_table_lists_what_dekal_prove_lists() -> None:
    text = (ROOT / "docs" / "puzzles.md").read_text(encoding="utf-8")
    table = text.split("The obligations (`dekal prove --list`):", 1)[1].split("\n\n", 2)[1]
    rows = [row.split("|")[1] for row in table.splitlines()[2:]]
    named = {name for cell in rows for name in re.findall(r"`([\w.-]+)`", cell)}
    assert named == {o.name for o in OBLIGATIONS}


BOT_SPEC = re.compile(r"\b(?:pimc|ismcts|greedy|random):[A-Za-z0-9_.=,-]*[A-Za-z0-9](?![\w=])")
"""A bot with options as a page writes it (`pimc:samples=40,rollout=random`); one that ends
in `=` is a completion the page shows, not a spec."""


def test_every_bot_spec_a_page_shows_is_one_the_bots_read() -> None:
    """docs/simulate.md showed `pimc:samples=40,worlds=8`; pimc has no option `worlds`
    (issue 26). Each spec is read as `--bots` reads it (split, then dekal.cli._bot_specs)."""
    from support.doc_pages import pages

    from dekal.cli._bot_specs import checked_bot
    from dekal.cli._simulate import split_bots
    from dekal_ref.errors import NotationError

    shown, refused = 0, []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for found in BOT_SPEC.finditer(text):
            for spec in split_bots(found.group(0).rstrip(",.")):
                shown += 1
                try:
                    checked_bot(spec)
                except NotationError as error:
                    line = text.count("\n", 0, found.start()) + 1
                    refused.append(f"{page.relative_to(ROOT)}:{line}: {spec}: {error.message}")
    assert shown > 10
    assert refused == []


@pytest.mark.parametrize("page", ["README.md", "docs/guide.md"])
def test_the_first_page_a_newcomer_reads_says_that_the_lowest_score_wins(page: str) -> None:
    """Neither page said so (issue 26): its opening paragraphs state it, citing rule S3."""
    opening = "\n".join((ROOT / page).read_text(encoding="utf-8").split("\n## ")[0:1])
    said = re.search(r"lowest score wins.*?\(rule S3", opening, re.DOTALL)
    assert said, f"{page}: the opening does not say that the lowest score wins (S3)"
