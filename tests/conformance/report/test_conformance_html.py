"""`dekal conformance run --html/--badge` and `dekal conformance report`: the HTML page of a
conformance run, read back as a parser and a real browser read it, against the JSON report
of the same run.

The JS engine's broken builds need `node` (skipped without it). The browser test needs
Debian's `chromium`: skipped without it on a workstation, failed without it in CI (CI set).
"""

from __future__ import annotations

import json
import shlex
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.browser import chromium, dump_dom
from typer.testing import CliRunner

from dekal.cli._app import app
from dekal.conformance.judge._coverage import RULE_ORDER
from dekal.conformance.report._html import check_report, html_page
from dekal_ref.errors import NotationError
from dekal_ref.position import parse_position

ROOT = Path(__file__).resolve().parents[3]
ENGINE_JS = ROOT / "examples" / "engines" / "js" / "engine.js"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH")
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def dekal(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout + result.stderr


def js(bug: str) -> str:
    return f"{shlex.quote(NODE or 'node')} {shlex.quote(str(ENGINE_JS))} --bug {bug}"


# --- Reading a page back --------------------------------------------------------------------


class Elements(HTMLParser):
    """Every start tag of a page with its attributes; checks that tags nest and close."""

    VOID = {"meta", "br", "img", "hr", "input", "link"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1:]}>"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(page: str) -> Elements:
    elements = Elements()
    elements.feed(page)
    elements.close()
    assert elements.open == [], f"unclosed tags: {elements.open}"
    return elements


def matrix_cells(elements: Elements) -> dict[tuple[str, str], dict[str, int]]:
    """(rule, column) -> status counts, from the cells' data attributes."""
    return {
        (a["data-rule"], a["data-column"]): {
            s: int(a[f"data-{s}"]) for s in ("pass", "fail", "error", "skip", "xfail", "xpass")
        }
        for tag, a in elements.tags
        if tag == "td" and "data-rule" in a
    }


def failure_sections(page: str) -> dict[str, str]:
    """case ID -> the text of its failure section (the first of each ID)."""
    sections: dict[str, str] = {}
    for chunk in page.split('<section class="failure"')[1:]:
        body = chunk.split("</section>")[0]
        case_id = body.split('data-case="')[1].split('"')[0]
        sections.setdefault(case_id, body)
    return sections


def svg_cards(svg: str) -> dict[tuple[int, str], tuple[str | None, str | None]]:
    """(seat, cell) -> (value, state) of every card drawn in one SVG picture."""
    root = ET.fromstring(svg)
    return {
        (int(g.get("data-seat", "0")), g.get("data-cell", "")): (
            g.get("data-value"),
            g.get("data-state"),
        )
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "card"
    }


def side_svgs(section: str, side: str) -> list[str]:
    """The SVG pictures of one side ("expected" or "engine") of a failure section."""
    part = section.split(f'data-side="{side}"')[1].split('<div class="picture"')[0]
    return ["<svg" + chunk.split("</svg>")[0] + "</svg>" for chunk in part.split("<svg")[1:]]


def cards_of_position(position: str) -> dict[tuple[int, str], tuple[str | None, str | None]]:
    """What a position's grids say each card is: (seat, cell) -> (value, face-up/down/hole)."""
    cards = {}
    for seat, text in enumerate(position.split()[4].split("|")):
        for cell, symbol in enumerate(text.replace("/", "")):
            name = "abcd"[cell % 4] + str(cell // 4 + 1)
            if symbol == ".":
                cards[seat, name] = (None, "hole")
            elif symbol in "abcdefghij":
                cards[seat, name] = (str("abcdefghij".index(symbol) + 1), "face-down")
            else:
                cards[seat, name] = ("10" if symbol == "T" else symbol, "face-up")
    return cards


# --- Fixtures: one real run of a broken build, saved as JSON and drawn ----------------------


@pytest.fixture(scope="module")
def broken(
    tmp_path_factory: pytest.TempPathFactory, js_suite_run: Callable[[str], dict[str, Any]]
) -> tuple[dict[str, object], str, Path]:
    """The JSON report, the page and the saved JSON of the JS build whose token passes the
    wrong way (T5), all from one `run --json --html` (shared with test_conformance_js_blame:
    conftest's js_suite_run)."""
    if NODE is None:
        pytest.skip("node is not on PATH")
    done = js_suite_run("token-right")
    assert done["code"] == 1
    out, page = done["stdout"], done["page"]
    saved = tmp_path_factory.mktemp("broken") / "token-right.json"
    saved.write_text(out, "utf-8")
    return json.loads(out), page, saved


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A saved JSON report of our reference engine on rule S1's cases (`--engine ref`)."""
    saved = tmp_path_factory.mktemp("bundled") / "ref.json"
    code, out = dekal("conformance", "run", "--engine", "ref", "--filter", "S1", "--json")
    assert code == 0
    assert [e["hello"]["name"] for e in json.loads(out)["engines"]] == ["dekal-ref"]
    saved.write_text(out, "utf-8")
    return saved


# --- The page -------------------------------------------------------------------------------


@needs_node
def test_the_page_is_well_formed_and_self_contained(broken: tuple[dict, str, Path]) -> None:
    _, page, _ = broken
    elements = parsed(page)
    tags = {tag for tag, _ in elements.tags}
    assert "script" not in tags and "link" not in tags and "img" not in tags
    assert not [a for _, a in elements.tags if "src" in a or "href" in a]
    assert "<style>" in page


@needs_node
def test_the_header_names_suite_protocol_and_engine(broken: tuple[dict, str, Path]) -> None:
    report, page, _ = broken
    engine = report["engines"][0]  # type: ignore[index]
    assert f"suite {report['suite']}, protocol {report['protocol']}" in page
    assert f'data-engine="{engine["hello"]["name"]}" data-version="1.0.0"' in page


@needs_node
def test_matrix_cells_equal_the_json_report(broken: tuple[dict, str, Path]) -> None:
    report, page, _ = broken
    rules = report["engines"][0]["rules"]  # type: ignore[index]
    cells = matrix_cells(parsed(page))
    assert sorted({rule for rule, _ in cells}, key=RULE_ORDER.index) == RULE_ORDER
    for rule in RULE_ORDER:
        expected = rules.get(rule, dict.fromkeys(cells[rule, "0"], 0))
        assert cells[rule, "0"] == expected, rule


@needs_node
def test_T5_broken_build_fails_under_T5_only(broken: tuple[dict, str, Path]) -> None:
    cells = matrix_cells(parsed(broken[1]))
    failing = {rule for (rule, _), counts in cells.items() if counts["fail"]}
    assert failing == {"T5"}
    assert 'class="cell fail" data-rule="T5"' in broken[1]


@needs_node
def test_coverage_figures_equal_the_json_report(broken: tuple[dict, str, Path]) -> None:
    report, page, _ = broken
    coverage = report["engines"][0]["coverage"]  # type: ignore[index]
    claimed, core = coverage["claimed"], coverage["core"]
    assert f'data-claimed="{claimed["count"]}/{claimed["of"]}"' in page
    assert f'data-core="{core["count"]}/{core["of"]}"' in page


@needs_node
def test_a_T5_failure_shows_its_rule_step_and_both_positions(
    broken: tuple[dict, str, Path],
) -> None:
    report, page, _ = broken
    case = next(c for c in report["engines"][0]["cases"] if c["status"] == "fail")  # type: ignore[index]
    divergence = case["divergence"]
    section = failure_sections(page)[case["id"]]
    assert f'data-rule="T5" data-field="{case["field"]}"' in section
    assert f"rule T5 ({case['field']})" in section
    assert f"step {divergence['step']}" in section and divergence["sent"] in section
    expected_svgs, engine_svgs = side_svgs(section, "expected"), side_svgs(section, "engine")
    drawn_expected = {k: v for svg in expected_svgs for k, v in svg_cards(svg).items()}
    drawn_engine = {k: v for svg in engine_svgs for k, v in svg_cards(svg).items()}
    assert drawn_expected == cards_of_position(divergence["expected"])
    assert drawn_engine == cards_of_position(divergence["actual"])
    parse_position(divergence["expected"])  # the expected side is a real position


@needs_node
def test_a_grid_failure_draws_each_sides_cancelled_cells(tmp_path: Path) -> None:
    page = tmp_path / "diagonal.html"
    code, out = dekal("conformance", "run", "--engine", js("diagonal"), "--filter", "score",
                      "--json", "--html", str(page), "--show", "5", "--quiet")  # fmt: skip
    assert code == 1
    case = next(
        c for c in json.loads(out)["engines"][0]["cases"]
        if c["status"] == "fail" and c["divergence"]["kind"] == "grid"
    )  # fmt: skip
    section = failure_sections(page.read_text("utf-8"))[case["id"]]
    assert 'data-rule="S1"' in section
    for side, marks in zip(("expected", "engine"), case["divergence"]["marks"], strict=True):
        (svg,) = side_svgs(section, side)
        cancelled = {cell for (_, cell), (_, state) in svg_cards(svg).items()
                     if state == "cancelled"}  # fmt: skip
        assert cancelled == set(marks), side


@needs_node
def test_a_push_failure_outlines_the_cells_that_differ(tmp_path: Path) -> None:
    page = tmp_path / "shift.html"
    code, out = dekal("conformance", "run", "--engine", js("shift-copies"), "--filter",
                      "push-0002", "--json", "--html", str(page), "--quiet")  # fmt: skip
    (case,) = json.loads(out)["engines"][0]["cases"]
    expected, actual = case["divergence"]["expected"], case["divergence"]["actual"]
    section = failure_sections(page.read_text("utf-8"))[case["id"]]
    assert code == 1 and 'data-rule="P1" data-field="grid"' in section
    assert f"<code>{case['divergence']['sent']}</code>" in section
    differing = {
        "abcd"[cell % 4] + str(cell // 4 + 1)
        for cell, (a, b) in enumerate(
            zip(expected.replace("/", ""), actual.replace("/", ""), strict=True)
        )
        if a != b
    }
    for side, grid in (("expected", expected), ("engine", actual)):
        (svg,) = side_svgs(section, side)
        root = ET.fromstring(svg)
        cards = [g for g in root.iter(f"{SVG}g") if g.get("class") == "card"]
        assert {g.get("data-cell") for g in cards if g.get("data-differs")} == differing
        assert svg_cards(svg) == cards_of_position(f"r c p s {grid}")


@needs_node
def test_a_result_failure_is_a_table_of_both_results(tmp_path: Path) -> None:
    page = tmp_path / "diagonal.html"
    code, out = dekal("conformance", "run", "--engine", js("diagonal"), "--filter", "game-0002",
                      "--json", "--html", str(page), "--quiet")  # fmt: skip
    (case,) = json.loads(out)["engines"][0]["cases"]
    assert code == 1 and case["divergence"]["kind"] == "result"
    elements = parsed(failure_sections(page.read_text("utf-8"))[case["id"]])
    rows = [a for tag, a in elements.tags if tag == "tr" and "data-side" in a]
    results = {"expected": case["divergence"]["expected"], "engine": case["divergence"]["actual"]}
    seats = len(json.loads(results["expected"])["scores"])
    assert [(r["data-seat"], r["data-side"]) for r in rows] == [
        (str(seat), side) for seat in range(seats) for side in ("expected", "engine")
    ]
    points = [json.loads(results[r["data-side"]])["scores"][int(r["data-seat"])]["points"]
              for r in rows]  # fmt: skip
    shown = elements.text
    assert all(str(p) in shown for p in points)


def test_engine_text_is_escaped_in_the_page(bundled: Path, tmp_path: Path) -> None:
    report = json.loads(bundled.read_text("utf-8"))
    engine = report["engines"][0]
    hostile = '<script>alert("x")</script>'
    engine["hello"]["name"] = hostile
    case = engine["cases"][0]
    case.update(status="error", message=hostile * 1000, title=hostile, rule="B1", field=hostile)
    case["divergence"] = {"step": 1, "sent": hostile, "what": hostile, "expected": hostile,
                          "actual": hostile, "kind": "text"}  # fmt: skip
    saved, page = tmp_path / "hostile.json", tmp_path / "hostile.html"
    saved.write_text(json.dumps(report), "utf-8")
    dekal("conformance", "report", str(saved), "--html", str(page))
    text = page.read_text("utf-8")
    elements = parsed(text)
    assert "script" not in {tag for tag, _ in elements.tags}
    assert "&lt;script&gt;" in text
    assert len(text) < 200_000  # the message, 31 000 characters, is cut


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30)
    | st.sampled_from(["position", "grid", "result", "text", "fail", "<b>", "a1", "1.2"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)  # fmt: skip


def paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in a JSON value, as the keys and indexes that lead to it."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def _two_failures(report: dict[str, Any]) -> str:
    """The report (as JSON text) with its first two failing cases only: what a place in it
    can hold is the property's question, not how many cases it lists (copying the whole
    suite's report for each example was most of the test's time)."""
    engine = report["engines"][0]
    cases = [c for c in engine["cases"] if c["status"] == "fail"][:2]
    return json.dumps({**report, "engines": [{**engine, "cases": cases}]})


@needs_node
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_saved_report_is_drawn_or_refused_in_one_line(
    broken: tuple[dict, str, Path], data: st.DataObject
) -> None:
    """Whatever a saved report holds in any one place, it is a page or one NotationError."""
    small = json.loads(_two_failures(broken[0]))
    place = data.draw(st.sampled_from(paths(small)[1:]))
    value = data.draw(JSON_VALUES)
    target = small
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    try:
        page = html_page([check_report(small, "saved.json")])
    except NotationError as error:
        assert "\n" not in str(error)
    else:
        parsed(page)


def test_report_of_two_files_shows_two_engine_columns(
    broken: tuple[dict, str, Path], bundled: Path, tmp_path: Path
) -> None:
    page = tmp_path / "two.html"
    code, _ = dekal("conformance", "report", str(broken[2]), str(bundled), "--html", str(page))
    assert code == 1  # the broken build's report says it failed
    elements = parsed(page.read_text("utf-8"))
    columns = [a["data-engine"] for tag, a in elements.tags if tag == "th" and "data-engine" in a]
    assert columns == ["dekal-js (bug: token-right)", "dekal-ref"]
    cells = matrix_cells(elements)
    assert cells["S1", "1"] == json.loads(bundled.read_text())["engines"][0]["rules"]["S1"]


def test_report_json_merges_the_engines_of_every_file(
    broken: tuple[dict, str, Path], bundled: Path
) -> None:
    code, out = dekal("conformance", "report", str(broken[2]), str(bundled), "--json")
    merged = json.loads(out)
    assert code == 1 and merged["ok"] is False and merged["report_version"] == 1
    assert [e["hello"]["name"] for e in merged["engines"]] == [
        "dekal-js (bug: token-right)",
        "dekal-ref",
    ]


def test_report_of_a_passing_run_exits_0(bundled: Path, tmp_path: Path) -> None:
    code, _ = dekal("conformance", "report", str(bundled), "--html", str(tmp_path / "p.html"))
    assert code == 0


def test_report_refuses_an_unknown_report_version_in_one_line(tmp_path: Path) -> None:
    saved = tmp_path / "future.json"
    saved.write_text('{"report_version": 2, "engines": []}', "utf-8")
    code, out = dekal("conformance", "report", str(saved), "--html", str(tmp_path / "x.html"))
    assert code == 2 and "report_version 2 is not known" in out
    assert len(out.strip().splitlines()) == 1 and not (tmp_path / "x.html").exists()


def test_report_refuses_a_file_that_is_not_a_report(tmp_path: Path) -> None:
    saved = tmp_path / "other.json"
    saved.write_text('{"report_version": 1, "engines": [{"hello": 3}]}', "utf-8")
    code, out = dekal("conformance", "report", str(saved), "--badge", str(tmp_path / "b.svg"))
    assert code == 2 and "engines[0]" in out and len(out.strip().splitlines()) == 1


def test_output_paths_are_checked_before_the_run(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir" / "page.html"
    code, out = dekal("conformance", "run", "--engine", "ref", "--html", str(missing))
    assert code == 2 and "--html" in out and "does not exist" in out


# --- The badge ------------------------------------------------------------------------------


def badge_of(path: Path) -> tuple[ET.Element, str]:
    root = ET.fromstring(path.read_text("utf-8"))
    assert root.tag == f"{SVG}svg"
    value = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "value")
    return root, value.text or ""


def test_a_passing_badge_is_green_with_the_claimed_figure(bundled: Path, tmp_path: Path) -> None:
    claimed = json.loads(bundled.read_text())["engines"][0]["coverage"]["claimed"]
    badge = tmp_path / "badge.svg"
    dekal("conformance", "report", str(bundled), "--badge", str(badge))
    root, value = badge_of(badge)
    assert value == f"{claimed['count']}/{claimed['of']}" and claimed["count"] == claimed["of"]
    assert "#4c1" in {r.get("fill") for r in root.iter(f"{SVG}rect")}


@needs_node
def test_a_failing_badge_is_red(broken: tuple[dict, str, Path], tmp_path: Path) -> None:
    claimed = broken[0]["engines"][0]["coverage"]["claimed"]  # type: ignore[index]
    badge = tmp_path / "badge.svg"
    dekal("conformance", "report", str(broken[2]), "--badge", str(badge))
    root, value = badge_of(badge)
    assert value == f"{claimed['count']}/{claimed['of']}" and claimed["count"] < claimed["of"]
    assert "#e05d44" in {r.get("fill") for r in root.iter(f"{SVG}rect")}


def test_run_writes_the_badge_too(tmp_path: Path) -> None:
    badge = tmp_path / "badge.svg"
    code, _ = dekal("conformance", "run", "--engine", "fast", "--smoke", "--badge", str(badge))
    _, value = badge_of(badge)
    passed, claimed = value.split("/")
    assert code == 0 and passed == claimed and int(claimed) > 0


# --- A real browser -------------------------------------------------------------------------


@needs_node
def test_a_browser_shows_the_broken_rules_failures(
    broken: tuple[dict, str, Path], tmp_path: Path
) -> None:
    page = tmp_path / "report.html"
    page.write_text(broken[1], "utf-8")
    dom = dump_dom(page, tmp_path)
    cells = matrix_cells(parsed(dom))
    rules = broken[0]["engines"][0]["rules"]  # type: ignore[index]
    assert cells["T5", "0"]["fail"] == rules["T5"]["fail"] > 0
    assert cells["S1", "0"]["fail"] == 0 and cells["S1", "0"]["pass"] == rules["S1"]["pass"]
    assert "<svg" in dom and 'data-case="' in dom


def test_without_chromium_the_browser_test_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        chromium()


def test_without_chromium_the_browser_test_skips_outside_ci(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        chromium()
