"""The headline figures of `--unknown` that docs/puzzles.md tabulates are the measured ones in
bench/unknown_figures.json (issue 31: the page cannot drift from what
bench/unknown_figures.py derived). Every cell of the two choice tables (slide, eject) and of
the whole-solitaire table is rebuilt from the JSON as the page writes it (two decimals,
whole percents) and compared; a table that no longer parses fails too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from support.doc_pages import ROOT

PAGE = ROOT / "docs" / "puzzles.md"
FIGURES = ROOT / "bench" / "unknown_figures.json"
CHOICES = ("greedy", "pimc", "greedy_policy")
"""The choice columns, in the page's order (greedy to the end is the greedy policy)."""
SOLITAIRE_ROWS = {
    "lower: perfect information ≥ cards no play can cancel": ("lower", "start_bound", "≥"),
    "lower: perfect information": ("lower", "perfect_information", "≥"),
    "upper: greedy": ("upper", "greedy", "≤"),
    "upper: greedy, then optimal": ("upper", "greedy+exact(tail 3)", "≤"),
}
"""The solitaire table's first column -> where the JSON keeps that bound, and its side."""


def _rows(text: str, heading: str) -> list[list[str]]:
    """The cells of the figure rows of the first table from the line `heading` on (its
    header row, words, left out; `heading` may be that header row itself)."""
    start = text.index(heading)
    rows = []
    for line in text[start:].splitlines():
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not set("".join(cells)) <= set("-"):
            rows.append(cells)
    return rows[1:]  # the header row is words, not figures


def _loss(figure: dict[str, Any]) -> str:
    share = round(figure["optimal_share"] * 100)
    return f"{figure['mean']:.2f} [{figure['low95']:.2f}, {figure['high95']:.2f}] · {share}%"


def choice_table(figures: dict[str, Any], variant: str) -> list[list[str]]:
    """One choice table as the page writes it, from the JSON."""
    measured = figures["choices"][variant]
    rows = []
    for k in [*sorted(measured["by_k"], key=int), "all"]:
        row = measured["by_k"][k] if k != "all" else measured["all"]
        rows.append(
            [k, str(row["positions"]), f"{row['optimum']['mean']:.2f}"]
            + [_loss(row[choice]) for choice in CHOICES]
        )
    return rows


def mismatches(text: str, figures: dict[str, Any]) -> list[str]:
    """Every cell of the page's three tables that the JSON does not give, as messages."""
    wrong = []
    for variant in ("slide", "eject"):
        positions = figures["choices"][variant]["all"]["positions"]
        heading = f"*{variant}* ({positions} positions):"
        if heading not in text:
            wrong.append(f"no table headed {heading!r}")
            continue
        page, truth = _rows(text, heading), choice_table(figures, variant)
        if page != truth:
            wrong.append(f"{variant}: the page says {page}, the JSON gives {truth}")
    solitaire = figures["solitaire"]
    for cells in _rows(text, "| bound on E\\* | how | deals | mean | 95% limit |"):
        side, key, sign = SOLITAIRE_ROWS[cells[0]]
        bound = solitaire[side][key]
        deals = bound.get("deals", solitaire["deals"])
        truth = [str(deals), f"{bound['mean']:.2f}", f"{sign} {bound['limit95']:.2f}"]
        if [cells[2], cells[3], cells[4]] != truth:
            wrong.append(f"{cells[0]}: the page says {cells[2:5]}, the JSON gives {truth}")
        if "proved" in bound:  # a bound the solver proved on some deals says how many, and how
            proved = (
                f"within {bound['nodes']:,} node expansions ({bound['proved']} of {deals} proved)"
            )
            if proved not in cells[1]:
                wrong.append(f"{cells[0]}: the page's method does not say {proved!r}")
    return wrong


def test_the_headline_tables_are_the_measured_figures() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert mismatches(text, json.loads(FIGURES.read_text())) == []


def test_the_solitaire_table_lists_every_bound_measured() -> None:
    text = PAGE.read_text(encoding="utf-8")
    rows = _rows(text, "| bound on E\\* | how | deals | mean | 95% limit |")
    assert sorted(cells[0] for cells in rows) == sorted(SOLITAIRE_ROWS)


def test_a_table_cell_that_differs_from_the_json_is_caught() -> None:
    text = PAGE.read_text(encoding="utf-8")
    figures = json.loads(FIGURES.read_text())
    slide_all = _loss(figures["choices"]["slide"]["all"]["pimc"])
    assert slide_all in text
    changed = re.sub(re.escape(slide_all), slide_all.replace("·", "· 1"), text, count=1)
    assert mismatches(changed, figures) != []
