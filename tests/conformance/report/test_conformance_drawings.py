"""Every failure drawn (issue 18, part 6): each kind of divergence the runner produces reaches
the HTML page as a picture or a table, never as raw text.

The divergences are real: the reference behind the protocol adapter with one reply changed
(a leaked card in the public view, a legal action dropped, a ranking reversed…), run through
the runner until its first failure. Between them they reach every drawing of
dekal.conformance.report._divergence but the last resort; a property then checks that any
divergence at all, however odd, is drawn as a table or picture and cannot inject markup.
Under the deep profile, every misreading of tests/miniatures/misreadings.py is run on the whole
suite and each of its divergences drawn likewise.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from miniatures.misreadings import MISREADINGS, Misreading
from support.browser import dump_dom

import dekal_ref
from dekal.conformance.cases._vectors import Case, load_cases
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._inprocess_engine import InProcessEngine
from dekal.conformance.drive._protocol import Message, position_fields
from dekal.conformance.judge._runner import Outcome, Run, run_case, run_suite
from dekal.conformance.report._divergence import (
    DRAWINGS,
    divergence_html,
    drawing_of,
)
from dekal.conformance.report._formats import divergence_json, report_json
from dekal.conformance.report._html import check_report, html_page
from dekal_ref.position import HIDDEN_LETTERS

CASES = load_cases()
SVG = "{http://www.w3.org/2000/svg}"
Change = Callable[[Message, Message], Message]
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


class Distorted:
    """The reference engine, every reply passed through `change(request, reply)`."""

    def __init__(self, change: Change) -> None:
        self.adapter, self.change = ProtocolAdapter(dekal_ref, name="distorted"), change

    def handle(self, request: Message) -> Message:
        return self.change(request, self.adapter.handle(request))


@dataclass(frozen=True)
class Distortion:
    name: str
    drawing: str  # the drawing its divergence must get
    kinds: tuple[str, ...]  # the case kinds to run until the first failure
    change: Change
    case: Callable[[Case], bool] = lambda case: True


def on(cmd: str, edit: Callable[[Message, Message], None]) -> Change:
    """A change of the successful replies to `cmd` only."""

    def change(request: Message, reply: Message) -> Message:
        if request.get("cmd") == cmd and reply.get("ok"):
            reply = json.loads(json.dumps(reply))
            edit(request, reply)
        return reply

    return change


def leak_one_card(_: Message, reply: Message) -> None:
    """The public view shows the first face-down card of the full position (M3)."""
    full, public = reply["position"].split(" "), reply.get("public", "").split(" ")
    if len(public) != 10:
        return
    for index, symbol in enumerate(full[4]):
        if symbol in HIDDEN_LETTERS:
            value = HIDDEN_LETTERS.index(symbol) + 1
            grids = public[4]
            public[4] = grids[:index] + ("T" if value == 10 else str(value)) + grids[index + 1 :]
            reply["public"] = " ".join(public)
            return


def swap_first_cells(_: Message, reply: Message) -> None:
    """Seat 0's a1 and b1 swapped in the full position."""
    fields = reply["position"].split(" ")
    if len(fields) == 10 and fields[4][0] != fields[4][1]:
        fields[4] = fields[4][1] + fields[4][0] + fields[4][2:]
        reply["position"] = " ".join(fields)


def cancel_less(_: Message, reply: Message) -> None:
    for score in reply["scores"]:
        if score["cancelled"]:
            score["cancelled"] = score["cancelled"][1:]
            return


def accept_any_set_up(request: Message, reply: Message) -> Message:
    if request.get("cmd") == "new_game":
        return {"id": reply.get("id"), "ok": True}
    return reply


def accept_refused_actions(request: Message, reply: Message) -> Message:
    """A refused action said accepted; the game is left as it was."""
    if request.get("cmd") == "action" and not reply.get("ok"):
        return {"id": reply.get("id"), "ok": True}
    return reply


def accept_refused(cmd: str) -> Change:
    """A refused `cmd` said accepted, answered with the grid it was sent."""

    def change(request: Message, reply: Message) -> Message:
        if request.get("cmd") == cmd and not reply.get("ok"):
            return {"id": reply.get("id"), "ok": True, "grid": request.get("grid")}
        return reply

    return change


def refuse(cmd: str) -> Change:
    """Every `cmd` refused as unsupported."""

    def change(request: Message, reply: Message) -> Message:
        if request.get("cmd") == cmd:
            error = {"kind": "unsupported", "message": f"no {cmd} here"}
            return {"id": reply.get("id"), "ok": False, "error": error}
        return reply

    return change


def has_perft_request(case: Case) -> bool:
    return any(s.get("request", {}).get("cmd") == "perft" and s["expect"]["ok"]
               for s in case.get("steps", []))  # fmt: skip


DISTORTIONS = [
    Distortion("position", "position", ("game",), on("position", swap_first_cells)),
    Distortion("public view leak", "public", ("game",), on("position", leak_one_card)),
    Distortion("legal action dropped", "actions", ("game",),
               on("legal", lambda _, r: r.update(actions=r["actions"][:-1]))),
    Distortion("hostile legal action", "actions", ("game",),
               on("legal", lambda _, r: r.update(actions=[*r["actions"][1:], HOSTILE]))),
    Distortion("legal action twice", "twice", ("game",),
               on("legal", lambda _, r: r.update(actions=r["actions"] + r["actions"][:1]))),
    Distortion("ranking reversed", "result", ("game",),
               on("result", lambda _, r: r.update(ranking=r["ranking"][::-1]))),
    Distortion("a cancelled cell forgotten", "result", ("game",), on("result", cancel_less)),
    Distortion("refused action accepted", "verdict", ("game",), accept_refused_actions),
    Distortion("bad set-up accepted", "verdict", ("setup",), accept_any_set_up),
    Distortion("score cancels less", "grid", ("score",),
               on("score", lambda _, r: r.update(cancelled=r["cancelled"][1:]))),
    Distortion("push moves another card", "grid", ("push",),
               on("push", lambda _, r: r.update(grid=r["grid"][::-1]))),
    Distortion("refused push accepted", "grid", ("push",), accept_refused("push"),
               lambda case: not case["expect"]["ok"]),
    Distortion("score of a bad grid answered", "verdict", ("score",), accept_refused("score"),
               lambda case: not case["expect"].get("ok", True)),
    Distortion("legal actions refused", "verdict", ("game",), refuse("legal")),
    Distortion("set-up refused", "verdict", ("game",), refuse("new_game")),
    Distortion("legal pushes not a list", "actions", ("pushes",),
               on("pushes", lambda _, r: r.update(pushes="".join(r["pushes"])))),
    Distortion("legal push dropped", "actions", ("pushes",),
               on("pushes", lambda _, r: r.update(pushes=r["pushes"][1:]))),
    Distortion("perft count off", "perft", ("perft",),
               on("perft", lambda _, r: r.update(nodes=r["nodes"] + 1))),
    Distortion("perft answer off", "perft", ("game",),
               on("perft", lambda _, r: r.update(nodes=r["nodes"] + 1)), has_perft_request),
    Distortion("perft answer without its divide", "answer", ("game",),
               on("perft", lambda _, r: r.update(divide=[])), has_perft_request),
    Distortion("deal pile reversed", "deal", ("deal",),
               on("deal", lambda _, r: r["deal"].update(pile=r["deal"]["pile"][::-1]))),
]  # fmt: skip


def first_failure(distortion: Distortion) -> Outcome:
    """The first case (of the distortion's kinds) the distorted engine fails."""
    engine = InProcessEngine(lambda: Distorted(distortion.change), "distorted", timeout=5)
    try:
        for case in CASES:
            if case["kind"] in distortion.kinds and distortion.case(case):
                outcome = run_case(engine, case, timeout=5)
                if outcome.status == "fail" and outcome.divergence is not None:
                    return outcome
                assert outcome.status in ("pass", "skip"), outcome.message
    finally:
        engine.close()
    raise AssertionError(f"no case fails an engine whose {distortion.name}")


@pytest.fixture(scope="module")
def failures() -> dict[str, Outcome]:
    return {d.name: first_failure(d) for d in DISTORTIONS}


@pytest.fixture(scope="module")
def divergences(failures: dict[str, Outcome]) -> dict[str, dict[str, Any]]:
    """Each distortion's divergence as the JSON report holds it."""
    return {
        name: divergence_json(outcome.divergence)
        for name, outcome in failures.items()
        if outcome.divergence is not None
    }


@pytest.fixture(scope="module")
def page(failures: dict[str, Outcome]) -> str:
    """The HTML page of one run holding every distortion's failure, read back from JSON."""
    run = Run("distorted", {"name": "distorted", "version": "1"}, list(failures.values()))
    saved = json.loads(json.dumps(report_json([run])))
    return html_page([check_report(saved, "distorted.json")], show=len(DISTORTIONS))


def cards(drawn: str, side: str) -> list[ET.Element]:
    """The card elements of every SVG on one side ("expected"/"engine") of a drawing."""
    part = drawn.split(f'<div class="picture" data-side="{side}"')[1]
    part = part.split('<div class="picture"')[0]
    svgs = ["<svg" + chunk.split("</svg>")[0] + "</svg>" for chunk in part.split("<svg")[1:]]
    return [g for svg in svgs for g in ET.fromstring(svg).iter(f"{SVG}g")
            if g.get("class") == "card"]  # fmt: skip


def differing_rows(drawn: str, table: str) -> list[str]:
    found = drawn.split(f'<table class="{table}">')[1].split("</table>")[0]
    return re.findall(r'<tr class="differs" data-row="([^"]*)"', found)


@pytest.mark.parametrize("distortion", DISTORTIONS, ids=lambda d: d.name)
def test_each_kind_of_failure_is_drawn_as_a_picture_or_table(
    distortion: Distortion, divergences: dict[str, dict[str, Any]]
) -> None:
    divergence = divergences[distortion.name]
    drawn = divergence_html(divergence)
    assert drawing_of(divergence) == distortion.drawing, divergence["what"]
    assert "<svg" in drawn or "<table" in drawn
    assert "<pre" not in drawn  # no side printed raw
    assert 'class="differs"' in drawn or "data-differs" in drawn  # what differs is marked


def test_every_drawing_but_the_last_resort_is_reached_by_a_real_divergence() -> None:
    assert {d.drawing for d in DISTORTIONS} == set(DRAWINGS) - {"values"}


def test_a_leaked_card_is_outlined_in_the_engines_public_view(
    divergences: dict[str, dict[str, Any]],
) -> None:
    drawn = divergence_html(divergences["public view leak"])
    leaked = [g for g in cards(drawn, "engine") if g.get("data-differs") == "leaked"]
    assert len(leaked) == 1 and leaked[0].get("data-value") is not None
    (hidden,) = [g for g in cards(drawn, "expected") if g.get("data-differs")]
    assert hidden.get("data-cell") == leaked[0].get("data-cell")
    assert hidden.get("data-value") is None  # the expected side keeps it a `?`


def test_a_reversed_ranking_marks_the_rows_that_differ(
    divergences: dict[str, dict[str, Any]],
) -> None:
    divergence = divergences["ranking reversed"]
    ranking = json.loads(divergence["expected"])["ranking"]
    rows = differing_rows(divergence_html(divergence), "ranking")
    moved = [i for i in range(len(ranking)) if ranking[i] != ranking[::-1][i]]
    assert rows == [f"row {i + 1}" for i in moved] and rows


def test_cancelled_cells_of_a_result_are_drawn_on_the_final_grid(
    divergences: dict[str, dict[str, Any]],
) -> None:
    divergence = divergences["a cancelled cell forgotten"]
    want, got = (json.loads(divergence[side]) for side in ("expected", "actual"))
    (seat,) = [s for s, score in enumerate(want["scores"])
               if score["cancelled"] != got["scores"][s]["cancelled"]]  # fmt: skip
    drawn = divergence_html(divergence)
    for side, result in (("expected", want), ("engine", got)):
        struck = {g.get("data-cell") for g in cards(drawn, side)
                  if g.get("data-state") == "cancelled"}  # fmt: skip
        assert struck == set(result["scores"][seat]["cancelled"]), side
    grid = position_fields(divergence["context"])["grids"].split("|")[seat]
    assert f"grid {grid}" in drawn  # the seat's own final grid


def test_a_dropped_legal_action_is_the_row_marked(divergences: dict[str, dict[str, Any]]) -> None:
    divergence = divergences["legal action dropped"]
    dropped = divergence["what"].split("missing ")[1]
    assert differing_rows(divergence_html(divergence), "actions") == [dropped]


def test_a_refused_push_said_accepted_draws_the_engines_grid_alone(
    divergences: dict[str, dict[str, Any]],
) -> None:
    drawn = divergence_html(divergences["refused push accepted"])
    assert "none given" in drawn.split('data-side="expected"')[1].split('data-side="engine"')[0]
    assert len(cards(drawn, "engine")) == 16
    assert not [g for g in cards(drawn, "engine") if g.get("data-differs")]


def test_a_verdict_is_a_table_of_both_verdicts(divergences: dict[str, dict[str, Any]]) -> None:
    drawn = divergence_html(divergences["refused action accepted"])
    assert re.search(r"<td>verdict</td><td>refused with rule \w+</td><td>accepted</td>", drawn)


def test_the_page_draws_every_failure_as_a_browser_reads_it(page: str, tmp_path: Path) -> None:
    saved = tmp_path / "every-drawing.html"
    saved.write_text(page, "utf-8")
    dom = dump_dom(saved, tmp_path)
    sections = dom.split('<section class="failure"')[1:]
    drawings = [re.findall(r'data-drawing="(\w+)"', section) for section in sections]
    assert sorted(d for found in drawings for d in found) == sorted(d.drawing for d in DISTORTIONS)
    for section in sections:
        assert "<svg" in section or "<table" in section


@pytest.fixture(scope="module")
def own_deal() -> Run:
    """An engine that deals its own cards, run on a few games and perft scripts."""
    cases = [c for c in CASES if c["kind"] == "game"][:6] + [
        c for c in CASES if c["kind"] == "perft"][:2]  # fmt: skip
    adapter = lambda: ProtocolAdapter(dekal_ref, deals="own", features=("public",))  # noqa: E731
    with InProcessEngine(adapter, "own-deal", timeout=5) as engine:
        return run_suite(engine, cases, timeout=5)


def skipped_rows(run: Run, message: str | None = None) -> tuple[dict[str, str], str]:
    """The skip reasons the page lists (reason -> count), and the page; `message` replaces
    the reason of the last case in the saved report."""
    saved = json.loads(json.dumps(report_json([run])))
    if message is not None:
        saved["engines"][0]["cases"][-1]["message"] = message
    drawn = html_page([check_report(saved, "own.json")])
    rows = re.findall(r'<tr class="skip" data-reason="([^"]*)" data-count="(\d+)"', drawn)
    return dict(rows), drawn


def test_engine_text_on_the_page_stays_text(page: str) -> None:
    """The hostile legal action reaches the page escaped, and nothing else opens a tag."""
    tags = set(re.findall(r"<([a-zA-Z0-9]+)", page))
    assert "&lt;script&gt;" in page
    assert not tags - {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "h1",
        "h2",
        "h3",
        "h4",
        "p",
        "ul",
        "li",
        "code",
        "section",
        "div",
        "table",
        "tr",
        "th",
        "td",
        "details",
        "summary",
        "span",
        "strong",
        "svg",
        "g",
        "rect",
        "text",
        "line",
        "mark",
        "pre",
    }


def test_skipped_cases_are_listed_by_the_reason_the_runner_gives(own_deal: Run) -> None:
    reasons = Counter(o.message for o in own_deal.outcomes if o.status == "skip")
    assert len(reasons) >= 2  # a given deal, a feature not claimed
    assert skipped_rows(own_deal)[0] == {why: str(n) for why, n in reasons.items()}


def test_a_status_the_page_does_not_know_is_listed_with_the_skips(own_deal: Run) -> None:
    saved = json.loads(json.dumps(report_json([own_deal])))
    saved["engines"][0]["cases"][0].update(status="n/a", message="cannot be run in this mode")
    drawn = html_page([check_report(saved, "own.json")])
    assert 'data-reason="n/a: cannot be run in this mode" data-count="1"' in drawn


def test_a_skip_reason_cannot_inject_markup(own_deal: Run) -> None:
    assert own_deal.outcomes[-1].status == "skip"
    _, drawn = skipped_rows(own_deal, HOSTILE)
    assert "<script" not in drawn and "&lt;script&gt;" in drawn


@pytest.mark.deep
@pytest.mark.parametrize("misread", MISREADINGS, ids=lambda m: f"{m.rule}-{m.name}")
def test_every_misreadings_failures_are_drawn_without_raw_text(
    misread: Misreading, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each misreading of tests/miniatures/misreadings.py on the whole suite (about 10 s each):
    every divergence gets a drawing other than the last resort, and no side printed raw."""
    misread.plant(monkeypatch)
    with InProcessEngine(lambda: dekal_ref, "misread", timeout=5) as engine:
        run = run_suite(engine, CASES, timeout=5)
    drawn = [divergence_json(o.divergence) for o in run.outcomes if o.divergence is not None]
    assert drawn
    for divergence in drawn:
        html = divergence_html(divergence)
        assert drawing_of(divergence) != "values" and "<pre" not in html, divergence["what"]


# --- Any divergence at all ----------------------------------------------------------------

TEXTS = st.one_of(
    st.text(max_size=40),
    st.sampled_from([HOSTILE, HOSTILE + "!", "<b>1", "<b>2", "", "a1 b2", '{"a": "<b>"}',
                     '{"a": "<b>!"}', "[1, 2]", "nodes: expected 1, "
                     "engine <i>", "1111/2222/3333/444?", CASES[0]["start"]["position"]
                     if "start" in CASES[0] else ""]),
)  # fmt: skip
DIVERGENCES = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["position", "grid", "result", "text", HOSTILE]),
        "field": st.sampled_from(["public view", "legal actions", "deal", "ranking", HOSTILE]),
        "what": st.sampled_from([
            "the public view differs", "legal actions: listed twice: ['<b>']",
            f"expected {HOSTILE}, the engine {HOSTILE}", "the perft count differs", HOSTILE,
        ]),
        "expected": TEXTS,
        "actual": TEXTS,
        "context": TEXTS,
        "marks": st.lists(st.lists(TEXTS, max_size=3), max_size=3),
    }
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(divergence=DIVERGENCES)
def test_any_divergence_is_drawn_as_a_table_or_picture_without_markup_from_it(
    divergence: dict[str, Any],
) -> None:
    drawn = divergence_html(divergence)
    assert "<table" in drawn or "<svg" in drawn
    assert "<script" not in drawn and "<b>" not in drawn and "<i>" not in drawn
