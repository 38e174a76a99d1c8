"""`dekal annotate --html`: one self-contained page, every annotated decision drawn.

The page holds no script and loads nothing: a style sheet in its head, then a summary table
per seat, then one section per decision with the move drawn as the seat saw it (the public
view before and after the move, dekal_ref.svg.step_svg, M3), its figures, and, when the
seat played another move, the best move drawn the same way (folded in a <details>). Each section
carries what a program needs to read it back without parsing words:

    <section class="decision" data-step="4" data-seat="0" data-phase="push"
             data-played="push 0 L" data-best="push 0 R" data-loss="3.31" data-mark="??">
"""

from __future__ import annotations

from html import escape

from dekal.bots.annotate import MARKS, Annotation, Decision
from dekal_ref.actions import apply
from dekal_ref.svg import step_svg

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-bottom: .3em; }
table { border-collapse: collapse; margin: .5em 0 1em; }
td, th { padding: .2em .7em; text-align: right; border-bottom: 1px solid #ddd; }
th:first-child, td:first-child { text-align: left; }
section.decision { border-top: 1px solid #ccc; padding: .5em 0 1em; }
.view { font-family: ui-monospace, monospace; font-size: .85em; color: #555;
        overflow-wrap: anywhere; }
.mark { font-weight: bold; color: #b00; }
.mark.inaccuracy { color: #a60; }
svg { max-width: 100%; height: auto; }
"""

MARK_WORDS = {"??": "blunder", "?": "mistake", "?!": "inaccuracy", "": ""}


def _interval(low: float, high: float) -> str:
    return f"[{low:.2f}, {high:.2f}]"


def _summary_table(annotation: Annotation) -> str:
    rows = "".join(
        f'<tr data-seat="{s.seat}"><td>seat {s.seat}</td><td>{s.decisions}</td>'
        f"<td>{s.mean_loss:.2f}</td><td>{s.inaccuracies}</td><td>{s.mistakes}</td>"
        f"<td>{s.blunders}</td></tr>"
        for s in annotation.summaries()
    )
    return (
        '<table class="summary"><tr><th>seat</th><th>decisions</th><th>mean loss</th>'
        "<th>inaccuracies ?!</th><th>mistakes ?</th><th>blunders ??</th></tr>"
        f"{rows}</table>"
    )


def _decision_section(decision: Decision) -> str:
    played, best = decision.played_figures, decision.best_figures
    view, mark = decision.view, decision.mark
    label = "range" if decision.advice.exact else "95% CI"
    exact = ", exact" if decision.advice.exact else f", {decision.advice.samples:,} worlds"
    heading = (
        f"{decision.step}. round {view.round}, turn {view.turn}: seat {decision.seat}"
        f" to {decision.advice.phase}{exact}"
    )
    mark_html = (
        f' <span class="mark {MARK_WORDS[mark]}">{escape(mark)} {MARK_WORDS[mark]}</span>'
        if mark
        else ""
    )
    rows = (
        f'<tr class="played"><td>played {escape(str(played.action))}</td>'
        f"<td>{played.expected_score:.2f}</td><td>{_interval(*played.ci95)}</td>"
        f"<td>{_interval(*played.versus_best)}</td></tr>"
        f'<tr class="best"><td>best {escape(str(best.action))}</td>'
        f"<td>{best.expected_score:.2f}</td><td>{_interval(*best.ci95)}</td><td></td></tr>"
    )
    attributes = (
        f'class="decision" data-step="{decision.step}" data-seat="{decision.seat}"'
        f' data-phase="{decision.advice.phase}" data-played="{escape(str(played.action))}"'
        f' data-best="{escape(str(best.action))}" data-loss="{decision.loss:.4f}"'
        f' data-exact="{str(decision.advice.exact).lower()}" data-mark="{escape(mark)}"'
    )
    picture = step_svg(decision.before, decision.played, decision.after, public=True)
    return (
        f"<section {attributes}><h2>{escape(heading)}{mark_html}</h2>"
        f'<p class="view">{escape(str(view))}</p>'
        f"<table><tr><th>move</th><th>expected score</th><th>{label}</th>"
        f"<th>minus the best</th></tr>{rows}</table>"
        f'<p>loss {decision.loss:.2f} points</p><div class="played">{picture}</div>'
        f"{_best_picture(decision)}</section>"
    )


def _best_picture(decision: Decision) -> str:
    """The best move drawn too, folded, when the seat played another."""
    best = decision.best_figures.action
    if best == decision.played:
        return ""
    picture = step_svg(decision.before, best, apply(decision.before, best), public=True)
    return (
        f'<details class="best"><summary>the best move, {escape(str(best))}, drawn</summary>'
        f"{picture}</details>"
    )


def annotation_page(record: str, annotation: Annotation) -> str:
    """The whole page (UTF-8 text): a title, the settings, the summaries, every decision."""
    least = ", ".join(f"{mark} {MARK_WORDS[mark]}: {least:g}" for least, mark in MARKS)
    sections = "\n".join(_decision_section(decision) for decision in annotation.decisions)
    title = f"dekal annotate {record}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{escape(title)}</h1>"
        f"<p>{annotation.samples:,} sampled worlds a decision (fewer when exact), seed"
        f" {annotation.seed}, model {escape(annotation.model)}. Expected score: the seat's"
        " points at the end of the round (S2), lower is better; loss: the played move's"
        f" expected score minus the best's. Marks, by expected points lost: {least} or"
        " more (from sampled worlds only when the loss is real at 95%).</p>"
        f"{_summary_table(annotation)}\n{sections}\n</body></html>\n"
    )
