"""Pictures of the solver's questions as SVG, in the look of dekal_ref.svg: a puzzle as the
player meets it, a first step of a strategy with unknown cards, a guarantee puzzle.

dekal_ref knows nothing of puzzles or of the solver: each caller words the heading, the
target and the figures; these functions only draw them. Each element a tool may read is
marked with a class and data attributes (`incoming`, `target`, `strategy-row`), and the
grid's cards are those of dekal_ref.svg.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.etree import ElementTree as ET

from dekal_ref.notation import Grid, cell_name, format_grid
from dekal_ref.picture import CANCELLED, FACE_DOWN, FACE_UP, HOLE_STATE, CardLook, grid_looks
from dekal_ref.svg import (
    CARD,
    GRID_SIZE,
    LABEL,
    LINE,
    MARGIN,
    MUTED,
    PITCH,
    STYLE,
    _element,
    _grid,
    _legend,
    _look_marks,
    _svg,
    _text,
)
from dekal_ref.words import plural

# --- Puzzles ------------------------------------------------------------------------------


def puzzle_svg(
    grid: Grid,
    face_down: Iterable[int],
    incoming: Sequence[int] | None,
    turns: int,
    *,
    heading: str,
    target: str,
) -> str:
    """A puzzle as the player meets it: the grid (face-down values drawn), the cards that
    come in, in order (or the solo rule), the target to reach, and a legend.

    The incoming cards are `<g class="incoming" data-order="1" data-value="7">`; the target
    is the text of `<text class="target">`. dekal_ref knows nothing of puzzles: the caller
    words the heading and the target.
    """
    down = frozenset(face_down)
    looks = grid_looks(grid, face_down=down, scored=False)
    notation = format_grid(grid)
    body = [_text(MARGIN, MARGIN + 14, heading, size=14)]
    body[-1].set("font-weight", "bold")
    y = MARGIN + LINE + 4
    body.append(_grid(looks, MARGIN, y, notation))
    y += GRID_SIZE + 10
    cards = list(incoming) if incoming is not None else []
    if incoming is None:
        caption = f"solo: each revealed card comes straight back in, {plural(turns, 'step')}"
        body.append(_text(MARGIN, y + 14, caption, size=13))
        y += LINE
    else:
        body.append(_text(MARGIN, y + 14, "incoming cards, in order:", size=13))
        y += LINE
        for order, value in enumerate(cards, start=1):
            body.append(_incoming_card(order, value, MARGIN + LABEL + (order - 1) * PITCH, y))
        y += CARD + LINE
    target_text = _text(MARGIN, y + 14, target, size=13)
    target_text.set("class", "target")
    target_text.set("font-weight", "bold")
    body.append(target_text)
    y += LINE + 6
    marks = _look_marks(looks)
    legend, legend_height = _legend(marks, False, MARGIN, y, PUZZLE_WORDS)
    body.append(legend)
    y += legend_height
    width = max(
        GRID_SIZE + 2 * MARGIN,
        MARGIN + LABEL + len(cards) * PITCH + MARGIN,
        MARGIN + 8 * max(len(heading), len(target)),  # a line of 13-14px text, generously
        MARGIN + 24 + 7 * max((len(PUZZLE_WORDS.get(m, "")) for m in marks), default=0),
    )
    return _svg(width, y + MARGIN, f"puzzle {notation}", body)


PUZZLE_WORDS: dict[str, str] = {
    FACE_DOWN: "face down: each step reveals one (T1); its value is shown to plan with",
    HOLE_STATE: "the hole",
    CANCELLED: "a cancelled card (S1)",
}


def _incoming_card(order: int, value: int, x: int, y: int) -> ET.Element:
    group = _element(
        "g",
        {"class": "incoming", "data-order": order, "data-value": value,
         "transform": f"translate({x},{y})"},
    )  # fmt: skip
    fill, outline, ink = STYLE[FACE_UP]
    group.append(
        _element("rect", {"width": CARD, "height": CARD, "rx": 5, "fill": fill, "stroke": outline,
                          "stroke-width": "1.5"})
    )  # fmt: skip
    label = _text(CARD // 2, 28, str(value), size=20, anchor="middle")
    label.set("font-weight", "bold")
    group.append(label)
    number = _text(CARD // 2, CARD + 14, f"{order}.", size=11, anchor="middle")
    number.set("fill", MUTED)
    group.append(number)
    return group


# --- Strategy tables ----------------------------------------------------------------------


def strategy_svg(
    grid: Sequence[int | None],
    reveal: int,
    rows: Sequence[tuple[int, str, str, str]],
    *,
    heading: str,
    values: Sequence[str],
    notation: str,
) -> str:
    """A first step of a solo strategy with unknown cards: the grid (`None` for a face-down
    card whose value nobody knows, drawn `?`), the cell to reveal outlined, the figures
    (`values`, one line each), and one row per value that can come: the value, its chance,
    the push to play and the value after it.

    Every row is `<g class="strategy-row" data-value="7" data-chance="1/3" data-push="L"
    data-after="29">`; the cell to reveal is the card with `data-picked="true"`. dekal_ref
    knows nothing of the solver: the caller words the heading and the figures; the picture
    is titled `strategy` and the grid's `notation` (`?` for the face-down cards).
    """
    looks = [
        CardLook(cell, None, FACE_DOWN, picked=cell == reveal)
        if value is None
        else CardLook(cell, value, FACE_UP)
        for cell, value in enumerate(grid)
    ]
    body, y = _headed_grid(heading, looks, notation, values)
    y += 6
    caption = _text(MARGIN, y + 14, f"reveal {cell_name(reveal)} first, then:", size=13)
    caption.set("font-weight", "bold")
    body.append(caption)
    y += LINE
    columns = (0, 60, 130, 190)
    header = _element("g", {"class": "strategy-header", "transform": f"translate({MARGIN},{y})"})
    for x, word in zip(columns, ("value", "chance", "push", "after"), strict=True):
        label = _text(x, 14, word, size=12)
        label.set("fill", MUTED)
        header.append(label)
    body.append(header)
    y += LINE - 2
    for value, chance, push, after in rows:
        row = _element(
            "g",
            {"class": "strategy-row", "data-value": value, "data-chance": chance,
             "data-push": push, "data-after": after, "transform": f"translate({MARGIN},{y})"},
        )  # fmt: skip
        symbol = "T" if value == 10 else str(value)
        for x, word in zip(columns, (symbol, chance, push, after), strict=True):
            row.append(_text(x, 14, word, size=13))
        body.append(row)
        y += LINE - 2
    width = max(
        GRID_SIZE + 2 * MARGIN,
        MARGIN + 8 * max([len(heading), *(len(line) for line in values)]),
        MARGIN + columns[-1] + 8 * max([5, *(len(after) for *_, after in rows)]) + MARGIN,
    )
    return _svg(width, y + MARGIN, f"strategy {notation}", body)


def _headed_grid(
    heading: str, looks: list[CardLook], notation: str, lines: Sequence[str]
) -> tuple[list[ET.Element], int]:
    """A picture's bold heading, its grid and a line of text each below: the elements and
    the height they reach."""
    body = [_text(MARGIN, MARGIN + 14, heading, size=14)]
    body[-1].set("font-weight", "bold")
    y = MARGIN + LINE + 4
    body.append(_grid(looks, MARGIN, y, notation))
    y += GRID_SIZE + 10
    for line in lines:
        body.append(_text(MARGIN, y + 14, line, size=13))
        y += LINE - 2
    return body, y


def guarantee_svg(
    grid: Sequence[int | None], *, heading: str, lines: Sequence[str], question: str, notation: str
) -> str:
    """A guarantee puzzle as the player meets it: the grid (`None` for a face-down card whose
    value nobody knows, drawn `?`, none picked: the answer is the player's to find), what the
    player is told (`lines`, one each) and the question (the text of `<text
    class="target">`). dekal_ref knows nothing of puzzles: the caller words them; the
    picture is titled `guarantee` and the grid's `notation` (`?` for the face-down cards).
    """
    looks = [
        CardLook(cell, None, FACE_DOWN) if value is None else CardLook(cell, value, FACE_UP)
        for cell, value in enumerate(grid)
    ]
    body, y = _headed_grid(heading, looks, notation, lines)
    target = _text(MARGIN, y + 14, question, size=13)
    target.set("class", "target")
    target.set("font-weight", "bold")
    body.append(target)
    y += LINE
    width = max(
        GRID_SIZE + 2 * MARGIN,
        MARGIN + 8 * max([len(heading), len(question), *(len(line) for line in lines)]),
    )
    return _svg(width, y + MARGIN, f"guarantee {notation}", body)
