"""A shields-style SVG badge of a conformance run: "dekal conformance | 1362/1362".

The figure is the first engine's must-level coverage of what it claims (passed ÷ `must`
cases whose needs it claims, docs/validate.md "Coverage"): the badge belongs to the engine
a project publishes, which is the one it runs first (`--engine CMD` judges one engine).
Green when every claimed must case passes (and there is at least one), red otherwise.

The text is measured with a fixed width per character, so the same report gives the same
bytes; Verdana 11 px, the badge font, averages close to it.
"""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET

from dekal.conformance.html_report import figure
from dekal_ref.svg import SVG_NAMESPACE

LABEL = "dekal conformance"
GREEN = "#4c1"
RED = "#e05d44"
GREY = "#555"
CHAR_WIDTH = 7  # px per character at 11 px
PADDING = 6


def badge_figure(report: dict[str, Any]) -> tuple[int, int]:
    """(passed, claimed) of the report's first engine (html_report.check_report's shape)."""
    return figure(report["engines"][0]["coverage"], "claimed")


def badge_svg(passed: int, claimed: int) -> str:
    """The badge for `passed` of `claimed` must cases; its root carries data-passed and
    data-claimed for tools."""
    value = f"{passed}/{claimed}"
    colour = GREEN if claimed and passed == claimed else RED
    left = len(LABEL) * CHAR_WIDTH + 2 * PADDING
    right = len(value) * CHAR_WIDTH + 2 * PADDING
    width = left + right
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "width": str(width),
            "height": "20",
            "viewBox": f"0 0 {width} 20",
            "role": "img",
            "aria-label": f"{LABEL}: {value}",
            "data-passed": str(passed),
            "data-claimed": str(claimed),
        },
    )
    ET.SubElement(root, "title").text = f"{LABEL}: {value}"
    ET.SubElement(root, "rect", width=str(left), height="20", fill=GREY, rx="3")
    ET.SubElement(root, "rect", x=str(left), width=str(right), height="20", fill=colour, rx="3")
    text = ET.SubElement(
        root,
        "g",
        {"fill": "#fff", "font-family": "Verdana,DejaVu Sans,sans-serif", "font-size": "11"},
    )
    ET.SubElement(text, "text", x=str(PADDING), y="14").text = LABEL
    ET.SubElement(
        text, "text", {"x": str(left + PADDING), "y": "14", "class": "value"}
    ).text = value
    return ET.tostring(root, encoding="unicode") + "\n"


def report_badge(report: dict[str, Any]) -> str:
    return badge_svg(*badge_figure(report))
