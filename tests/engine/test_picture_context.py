"""Pictures that explain themselves (issue 21): a puzzle's SVG shows what comes in and what
to reach, a step's SVG has a legend of exactly the marks it draws, and a run's plot says
which run it is, with histogram bins chosen from the data."""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from typer.testing import CliRunner

import dekal_ref
from dekal.cli._app import app
from dekal.proofs.puzzle_set import load_puzzles
from dekal.simulation.plots import MAX_BINS, plot_title, score_bins
from dekal_ref.svg import step_svg

SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def puzzle_root(number: int, tmp_path: Path) -> ET.Element:
    target = tmp_path / f"puzzle-{number}.svg"
    result = runner.invoke(app, ["puzzle", str(number), "--svg", str(target), "--quiet"])
    assert result.exit_code == 0, result.output
    return ET.parse(target).getroot()


def texts(root: ET.Element) -> list[str]:
    return ["".join(element.itertext()) for element in root.iter(f"{SVG}text")]


def legend_marks(root: ET.Element) -> set[str]:
    return {item.get("data-mark", "") for item in root.iter(f"{SVG}g")
            if item.get("class") == "legend-item"}  # fmt: skip


# --- Puzzles ------------------------------------------------------------------------------


def test_a_puzzle_svg_draws_its_incoming_cards_in_order(tmp_path: Path) -> None:
    rated = next(r for r in load_puzzles() if r.puzzle.incoming)
    root = puzzle_root(rated.number, tmp_path)
    drawn = sorted(
        (int(g.get("data-order", 0)), int(g.get("data-value", 0)))
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "incoming"
    )
    assert [value for _, value in drawn] == list(rated.puzzle.incoming or ())


def test_a_puzzle_svg_states_the_target_the_best_play_reaches(tmp_path: Path) -> None:
    rated = load_puzzles()[6]
    root = puzzle_root(rated.number, tmp_path)
    (target,) = [t for t in root.iter(f"{SVG}text") if t.get("class") == "target"]
    assert f"{rated.best.points} points" in (target.text or "")
    assert f"{rated.best.remaining} cards left" in (target.text or "")


def test_a_solo_puzzle_svg_says_the_revealed_cards_come_back(tmp_path: Path) -> None:
    rated = next(r for r in load_puzzles() if r.puzzle.incoming is None)
    root = puzzle_root(rated.number, tmp_path)
    assert any(text.startswith("solo: each revealed card comes straight back") for text in
               texts(root))  # fmt: skip
    assert not [g for g in root.iter(f"{SVG}g") if g.get("class") == "incoming"]


def test_a_puzzle_svg_explains_its_face_down_cards_t1(tmp_path: Path) -> None:
    root = puzzle_root(1, tmp_path)
    assert legend_marks(root) == {"face-down"}
    assert any("reveals one (T1)" in text for text in texts(root))


# --- Steps --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def step_pictures(tmp_path_factory: pytest.TempPathFactory) -> list[ET.Element]:
    folder = tmp_path_factory.mktemp("steps")
    result = runner.invoke(app, ["replay", "two-players-first-tie", "-q", "--svg", str(folder)])
    assert result.exit_code == 0, result.output
    return [ET.parse(path).getroot() for path in sorted(folder.glob("step-*.svg"))]


def marks_drawn(root: ET.Element) -> set[str]:
    """The marks a picture draws, read from its cards and frames (not from its legend)."""
    marks: set[str] = set()
    for card in root.iter(f"{SVG}g"):
        state = card.get("data-state")
        if state in ("face-down", "hole", "cancelled"):
            marks.add("unseen" if state == "face-down" and card.get("data-value") is None
                      else state)  # fmt: skip
        if card.get("data-picked") == "true":
            marks.add("picked")
    if any(rect.get("class") == "acting" for rect in root.iter(f"{SVG}rect")):
        marks.add("acting")
    return marks


def test_every_step_svg_has_a_legend_of_exactly_the_marks_it_draws(
    step_pictures: list[ET.Element],
) -> None:
    assert len(step_pictures) > 10
    for root in step_pictures:
        assert legend_marks(root) == marks_drawn(root), root.findtext(f"{SVG}title")


def test_the_step_legend_says_the_dark_cards_are_face_down_m3(
    step_pictures: list[ET.Element],
) -> None:
    words = texts(step_pictures[0])
    assert any(w.startswith("face-down card") and "(M3)" in w for w in words)


def test_a_public_step_svg_says_its_hidden_values_are_unseen_m3() -> None:
    dealt = dekal_ref.new_game(dekal_ref.Rules(players=2), dekal_ref.seeded_deal(42, 2))
    action = dekal_ref.parse_action("reveal 0 c1")
    root = ET.fromstring(step_svg(dealt, action, dekal_ref.apply(dealt, action), public=True))
    assert "unseen" in legend_marks(root) and "face-down" not in legend_marks(root)


# --- Plots --------------------------------------------------------------------------------


def test_a_plot_title_names_the_variant_the_first_player_rule_players_and_games() -> None:
    title = plot_title(2000, 3, "eject", "chosen", 7)
    for words in ("2,000 games", "3 players", "eject (P2)", "chosen (F3)", "seed 7"):
        assert words in title
    assert "matches to 50 (S4)" in plot_title(20, 2, "slide", "lowest", 1, match=50)


def test_few_noisy_games_get_bins_wider_than_one_point() -> None:
    scores = {value: 1 for value in range(10, 90, 3)}  # 27 games, no two alike
    edges = score_bins([scores])
    assert edges[1] - edges[0] > 1
    assert edges[0] <= 10 and edges[-1] > 87


def test_never_more_than_max_bins_bins_however_wide_the_range() -> None:
    scores = {0: 1_000_000, 1: 1_000_000, 5000: 1}
    assert len(score_bins([scores])) - 1 <= MAX_BINS


def test_many_games_on_a_narrow_range_keep_one_point_bins() -> None:
    scores = {value: 100_000 for value in range(20, 40)}
    edges = score_bins([scores])
    assert edges == list(range(20, 41))


def test_the_bins_cover_every_seat_s_scores() -> None:
    seats = [{3: 5, 40: 2}, {70: 1, 12: 9}]
    edges = score_bins(seats)
    assert edges[0] <= 3 and edges[-1] > 70
