"""Pictures of Dékal as SVG: a grid, a position (full or public view), a game step.

Modelled on python-chess's `chess.svg`: each function returns the SVG text, the same input
gives the same bytes, and nothing reads a picture back into the game. What each cell shows
and the captions come from dekal_ref.picture, which the terminal's text pictures share.

Every grid cell is drawn as one element that tools and tests can read without looking at
the drawing:

    <g class="card" data-seat="0" data-cell="b2" data-value="7" data-state="face-up">

* `data-state` is `face-up`, `face-down`, `hole`, or `cancelled` (a card S1 removes, drawn
  only once a grid is scored: a grid picture, or a position whose round is over).
* `data-value` is the card's value 1–10; it is absent for the hole and, in a public view,
  for a face-down card (M3: nobody may see it).
* `data-picked="true"` marks a seat's secret pick of this turn (T1), in a full view only.

The picture of a grid is titled with its notation, a position with its one-line notation,
so `<title>` alone identifies what is drawn. The pictures of the solver's questions (puzzles,
strategies, guarantee puzzles) are drawn in the same look by dekal_ref.svg_puzzles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from xml.etree import ElementTree as ET

from dekal_ref.actions import Action, NewRound
from dekal_ref.notation import SIZE, Grid, cell_name, format_grid
from dekal_ref.picture import (
    CANCELLED,
    FACE_DOWN,
    FACE_UP,
    HOLE_STATE,
    CardLook,
    action_caption,
    grid_looks,
    phase_caption,
    round_is_scored,
    score_caption,
    seat_looks,
)
from dekal_ref.position import format_grid_cells, format_position
from dekal_ref.scoring import neighbours, score_grid
from dekal_ref.state import GameState
from dekal_ref.words import plural

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

PITCH = 44  # one cell of the grid, card and gap
CARD = 40  # the card's side
LABEL = 20  # the band that holds the column letters (above) and row digits (left)
GRID_SIZE = LABEL + SIZE * PITCH  # a grid with its labels is a square of this side
LINE = 22  # one line of caption text
MARGIN = 12

INK = "#222222"
MUTED = "#8a8a8a"
FADED = "#666666"  # the value of a cancelled card: struck through, still legible
STYLE = {
    # state: (card fill, card outline, value colour)
    FACE_UP: ("#ffffff", INK, INK),
    FACE_DOWN: ("#2f4b7c", "#1d2f4f", "#c9d6ee"),
    HOLE_STATE: ("none", MUTED, MUTED),
    CANCELLED: ("#ececec", "#b5b5b5", FADED),
}
STRIKE = "#c0392b"  # the bar through a cancelled group (S1)
PICKED = "#e0a100"  # the outline of a secret pick (T1)


# --- Drawing ------------------------------------------------------------------------------


def _element(tag: str, attributes: dict[str, str | int], text: str | None = None) -> ET.Element:
    element = ET.Element(tag, {name: str(value) for name, value in attributes.items()})
    element.text = text
    return element


def _text(x: int, y: int, words: str, size: int = 14, anchor: str = "start") -> ET.Element:
    return _element(
        "text",
        {
            "x": x,
            "y": y,
            "font-size": size,
            "font-family": "sans-serif",
            "text-anchor": anchor,
            "fill": INK,
        },
        words,
    )


def _card(look: CardLook, seat: int | None) -> ET.Element:
    row, column = divmod(look.cell, SIZE)
    x, y = LABEL + column * PITCH, LABEL + row * PITCH
    attributes: dict[str, str | int] = {"class": "card"}
    if seat is not None:
        attributes["data-seat"] = seat
    attributes["data-cell"] = cell_name(look.cell)
    if look.value is not None:
        attributes["data-value"] = look.value
    attributes["data-state"] = look.state
    if look.picked:
        attributes["data-picked"] = "true"
    attributes["transform"] = f"translate({x},{y})"
    group = _element("g", attributes)
    fill, outline, ink = STYLE[look.state]
    rect: dict[str, str | int] = {
        "width": CARD, "height": CARD, "rx": 5, "fill": fill,
        "stroke": PICKED if look.picked else outline, "stroke-width": 3 if look.picked else "1.5",
    }  # fmt: skip
    if look.state == HOLE_STATE:
        rect["stroke-dasharray"] = "4 3"
    group.append(_element("rect", rect))
    symbol = "?" if look.state == FACE_DOWN and look.value is None else look.value
    if symbol is not None:
        label = _text(CARD // 2, 28, str(symbol), size=20, anchor="middle")
        label.set("fill", ink)
        label.set("font-weight", "normal" if look.state == FACE_DOWN else "bold")
        group.append(label)
    if look.state == CANCELLED:
        group.append(
            _element(
                "line",
                {"x1": 6, "y1": CARD - 6, "x2": CARD - 6, "y2": 6, "stroke": STRIKE,
                 "stroke-width": 2},
            )
        )  # fmt: skip
    return group


def _group_links(looks: Sequence[CardLook]) -> list[ET.Element]:
    """S1's groups made visible: a bar between every two side-by-side cancelled equal cards."""
    links = []
    for look in looks:
        for other in neighbours(look.cell):
            partner = looks[other]
            if (
                other > look.cell
                and look.state == partner.state == CANCELLED
                and look.value == partner.value
            ):
                (r1, c1), (r2, c2) = divmod(look.cell, SIZE), divmod(other, SIZE)
                centre = LABEL + CARD // 2
                links.append(
                    _element(
                        "line",
                        {
                            "class": "group-link",
                            "data-cells": f"{cell_name(look.cell)} {cell_name(other)}",
                            "x1": centre + c1 * PITCH,
                            "y1": centre + r1 * PITCH,
                            "x2": centre + c2 * PITCH,
                            "y2": centre + r2 * PITCH,
                            "stroke": STRIKE,
                            "stroke-width": 6,
                            "stroke-opacity": "0.35",
                            "stroke-linecap": "round",
                        },
                    )  # fmt: skip
                )
    return links


def _grid(
    looks: Sequence[CardLook], x: int, y: int, notation: str, seat: int | None = None
) -> ET.Element:
    """A grid with its column letters and row digits, its top-left corner at (x, y)."""
    attributes: dict[str, str | int] = {"class": "grid"}
    if seat is not None:
        attributes["data-seat"] = seat
    attributes["data-grid"] = notation
    attributes["transform"] = f"translate({x},{y})"
    group = _element("g", attributes)
    for index in range(SIZE):
        middle = LABEL + index * PITCH + CARD // 2
        letter = _text(middle, LABEL - 6, "abcd"[index], size=12, anchor="middle")
        digit = _text(LABEL // 2 - 2, middle + 4, str(index + 1), size=12, anchor="middle")
        for label in (letter, digit):
            label.set("fill", MUTED)
            group.append(label)
    for look in looks:
        group.append(_card(look, seat))
    group.extend(_group_links(looks))
    return group


def _svg(width: int, height: int, title: str, body: Iterable[ET.Element]) -> str:
    root = _element(
        "svg",
        {
            "xmlns": SVG_NAMESPACE,
            "viewBox": f"0 0 {width} {height}",
            "width": width,
            "height": height,
            "role": "img",
        },
    )
    root.append(_element("title", {}, title))
    root.append(_element("rect", {"width": width, "height": height, "fill": "#fafafa"}))
    root.extend(body)
    return ET.tostring(root, encoding="unicode") + "\n"


# --- Grids --------------------------------------------------------------------------------


def grid_svg(grid: Grid, *, face_down: Iterable[int] = (), scored: bool = True) -> str:
    """One grid, titled with its notation; by default scored (S1 cancellations marked, S2 below).

    A grid with a hole is not final: its caption says the score ignores the hole.
    """
    looks = grid_looks(grid, face_down=face_down, scored=scored)
    notation = format_grid(grid)
    width = GRID_SIZE + 2 * MARGIN
    body = [_grid(looks, MARGIN, MARGIN, notation)]
    height = GRID_SIZE + 2 * MARGIN
    if scored:
        for line in score_caption(grid):
            body.append(_text(MARGIN, height + 4, line, size=13))
            height += LINE - 4
        height += 4
    return _svg(width, height, f"grid {notation}", body)


# --- Positions ----------------------------------------------------------------------------


def _seat_caption(state: GameState, seat: int) -> str:
    words = [f"seat {seat}"]
    if state.token == seat:
        words.append("token")
    if state.rules.threshold is not None:
        words.append(f"total {state.totals[seat]}")
    return " · ".join(words)


def _score_caption(state: GameState, seat: int) -> str:
    score = score_grid(state.values(seat))
    return f"{plural(score.points, 'point')}, {plural(score.remaining, 'card')} left"


def _position_body(
    state: GameState, public: bool, top: int, acting: int | None = None
) -> tuple[list[ET.Element], int, int]:
    """The elements of a position drawn from `top` down, its width and its height."""
    body = [_text(MARGIN, top + 16, phase_caption(state), size=14)]
    y = top + LINE + 6
    seat_width = GRID_SIZE + 3 * MARGIN
    for seat in range(state.players):
        x = MARGIN + seat * seat_width
        caption = _text(x + LABEL, y + 14, _seat_caption(state, seat), size=12)
        body.append(caption)
        notation = format_grid_cells(state.grids[seat], public)
        body.append(_grid(seat_looks(state, seat, public), x, y + LINE, notation, seat=seat))
        if seat == acting:
            body.append(
                _element(
                    "rect",
                    {"class": "acting", "data-seat": seat, "x": x - 4, "y": y - 2,
                     "width": GRID_SIZE + 10, "height": GRID_SIZE + LINE + 8, "rx": 8,
                     "fill": "none", "stroke": PICKED, "stroke-width": 2},
                )
            )  # fmt: skip
    y += LINE + GRID_SIZE + 8
    if round_is_scored(state):
        for seat in range(state.players):
            x = MARGIN + seat * seat_width + LABEL
            body.append(_text(x, y + 12, _score_caption(state, seat), size=12))
        y += LINE
    centre = " ".join(str(card) for card in state.centre) or "empty"
    pile = plural(len(state.pile), "card") if state.pile else "empty"
    body.append(_text(MARGIN, y + 14, f"centre: {centre} · set-aside pile: {pile}", size=12))
    y += LINE
    width = MARGIN + state.players * seat_width
    return body, width, y - top


def position_svg(state: GameState, public: bool = False) -> str:
    """Every seat's grid side by side, titled with the position's notation.

    public=True draws the public view: face-down values, picks and the pile stay hidden (M3).
    """
    body, width, height = _position_body(state, public, MARGIN)
    title = f"position {format_position(state, public)}"
    return _svg(width, height + 2 * MARGIN, title, body)


# --- Game steps ---------------------------------------------------------------------------


def _actor(action: Action) -> int | None:
    return None if isinstance(action, NewRound) else action.seat


def step_svg(
    before: GameState | None, action: Action, after: GameState, public: bool = False
) -> str:
    """One step of a game: the position before (if any), the action, the position after.

    The seat that acts is framed in both positions.
    """
    acting = _actor(action)
    body: list[ET.Element] = []
    top = MARGIN
    width = 0
    if before is not None:
        drawn, width, height = _position_body(before, public, top, acting)
        body.append(_titled_group("before", drawn))
        top += height
    body.append(_text(MARGIN, top + 18, f"↓ {action_caption(action)}", size=15))
    body[-1].set("font-weight", "bold")
    top += LINE + 8
    drawn, after_width, height = _position_body(after, public, top, acting)
    body.append(_titled_group("after", drawn))
    top += height
    width = max(width, after_width, 2 * GRID_SIZE)
    states = [before] if before is not None else []
    marks = _marks_of([*states, after], public) | ({ACTING} if acting is not None else set())
    legend, legend_height = _legend(marks, public, MARGIN, top + 4)
    body.append(legend)
    title = f"step {action}: position {format_position(after, public)}"
    return _svg(width, top + legend_height + 4 + MARGIN, title, body)


def _titled_group(name: str, elements: list[ET.Element]) -> ET.Element:
    group = _element("g", {"class": name})
    group.extend(elements)
    return group


# --- Legends ------------------------------------------------------------------------------

ACTING = "acting"  # the frame around the seat that acts in a step
PICK = "picked"  # a secret pick's outline (T1)
UNSEEN = "unseen"  # a face-down card whose value this view hides (M3)
MARK_ORDER = (FACE_DOWN, UNSEEN, PICK, HOLE_STATE, CANCELLED, ACTING)


def _meaning(mark: str, public: bool) -> str:
    return {
        FACE_DOWN: "face-down card: its value drawn for you, unseen by the players (M3)"
        if not public
        else "face-down card",
        UNSEEN: "face-down card: its value hidden in this public view (M3)",
        PICK: "the card a seat picked in secret this turn (T1)",
        HOLE_STATE: "the hole: the empty cell a push fills (P1/P2)",
        CANCELLED: "a cancelled card: equal cards side by side (S1)",
        ACTING: "the seat that acts in this step",
    }[mark]


def _marks_of(states: Iterable[GameState], public: bool) -> set[str]:
    """The marks the pictures of these positions use (face-up cards need no explaining)."""
    marks: set[str] = set()
    for state in states:
        for seat in range(state.players):
            marks |= _look_marks(seat_looks(state, seat, public))
    return marks


def _look_marks(looks: Iterable[CardLook]) -> set[str]:
    marks: set[str] = set()
    for look in looks:
        if look.state == FACE_DOWN and look.value is None:
            marks.add(UNSEEN)
        elif look.state != FACE_UP:
            marks.add(look.state)
        if look.picked:
            marks.add(PICK)
    return marks


def _swatch(mark: str) -> ET.Element:
    """A small card drawn as the picture draws `mark`."""
    side = 16
    state = FACE_DOWN if mark == UNSEEN else mark
    if mark in (PICK, ACTING):
        return _element(
            "rect",
            {"width": side, "height": side, "rx": 3, "fill": "none", "stroke": PICKED,
             "stroke-width": 3 if mark == PICK else 2},
        )  # fmt: skip
    fill, outline, _ = next(style for name, style in STYLE.items() if name == state)
    rect: dict[str, str | int] = {
        "width": side, "height": side, "rx": 3, "fill": fill, "stroke": outline,
        "stroke-width": "1.5",
    }  # fmt: skip
    if mark == HOLE_STATE:
        rect["stroke-dasharray"] = "3 2"
    return _element("rect", rect)


def _legend(
    marks: set[str], public: bool, x: int, y: int, words: dict[str, str] | None = None
) -> tuple[ET.Element, int]:
    """What each mark in a picture means, one line each, from (x, y); the group and its
    height. Every line is `<g class="legend-item" data-mark="…">` with its words as text."""
    group = _element("g", {"class": "legend", "transform": f"translate({x},{y})"})
    line = 0
    for mark in MARK_ORDER:
        if mark not in marks:
            continue
        item = _element(
            "g", {"class": "legend-item", "data-mark": mark, "transform": f"translate(0,{line})"}
        )
        item.append(_swatch(mark))
        meaning = (words or {}).get(mark) or _meaning(mark, public)
        item.append(_text(24, 13, meaning, size=12))
        group.append(item)
        line += LINE - 2
    return group, line


GameState._repr_svg_ = position_svg  # a notebook draws a state (GameState._repr_svg_)
