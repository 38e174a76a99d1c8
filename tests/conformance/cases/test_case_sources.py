"""The case sources of spec/conformance/sources/ read as their README says: every line of
every file is a source some suite reads, and a line that does not read is refused with its
file and line (dekal.conformance.cases._source_files). That the sources derive the frozen suites
byte for byte is tests/conformance/cases/test_conformance_vectors.py's."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from dekal.conformance.cases._generate_v4 import read_designs
from dekal.conformance.cases._source_files import TWIN_OF, SourceDataError, read, source_root
from dekal.conformance.cases._source_types import Game, Perft, ScoreBlock, ScoreCase
from dekal.conformance.cases._suites import v1 as sources
from dekal.conformance.cases._suites import v2 as sources_v2
from dekal.conformance.cases._suites import v3 as sources_v3
from dekal.conformance.cases._suites import v4 as sources_v4

ROOT = Path(__file__).resolve().parents[3]
SOURCES = ROOT / "spec" / "conformance" / "sources"
GOOD_GAME = {"id": "game-9001", "title": "a game", "rules": ["T1"], "deal": {"seeded": 1}}


def source_files() -> list[Path]:
    return sorted(SOURCES.glob("v*/*.jsonl"))


def written(tmp_path: Path, *lines: object) -> Path:
    """A source folder holding t/x.jsonl with `lines` (objects as JSON, strings as they are)."""
    folder = tmp_path / "t"
    folder.mkdir()
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    (folder / "x.jsonl").write_text(text, "utf-8")
    return tmp_path


def refusal(tmp_path: Path, *lines: object, shapes: tuple[type, ...] = (Game,)) -> str:
    """The message of the error reading `lines`."""
    with pytest.raises(SourceDataError) as raised:
        read("t/x.jsonl", *shapes, root=written(tmp_path, *lines))  # type: ignore[arg-type]
    return str(raised.value)


def test_every_line_of_every_source_file_is_a_case_a_suite_reads() -> None:
    """No file is left unread (a file added but not listed in its suite's module would be
    silently ignored): the lines on disk are as many as the sources the suites hold."""
    on_disk = sum(len(path.read_text("utf-8").splitlines()) for path in source_files())
    held = [
        sources.SCORE, sources.PUSH, sources.PUSHES, sources.GAMES, sources.NEGATIVE,
        sources.PERFT, sources_v2.V2_GAMES, sources_v2.PERFT_TWINS, sources_v2.UNIT_REFUSALS,
        sources_v2.DEALS, sources_v2.POSITIONS, sources_v2.PROMOTED_TO_MUST,
        sources_v3.V3_GAMES, sources_v3.POSITIONS, sources_v3.TO_SHOULD,
        read_designs(), sources_v4.DECIDED_GAMES, sources_v4.DECIDED_POSITIONS,
    ]  # fmt: skip
    assert on_disk == sum(len(listed) for listed in held)


def test_the_readme_lists_every_source_file() -> None:
    readme = (SOURCES / "README.md").read_text("utf-8")
    listed = set(re.findall(r"\]\((v\d/\w+\.jsonl)\)", readme))
    assert listed == {str(path.relative_to(SOURCES)) for path in source_files()}


def test_the_sources_are_read_from_the_package_and_it_holds_the_checkout_s_files() -> None:
    """An editable install reads the checkout itself; a wheel (CI) must ship every file."""
    installed = Path(str(source_root()))
    names = sorted(path.relative_to(SOURCES) for path in SOURCES.rglob("*.jsonl"))
    assert names
    assert all((installed / name).read_bytes() == (SOURCES / name).read_bytes() for name in names)


def test_a_field_of_the_wrong_type_is_refused_with_its_file_line_and_field(
    tmp_path: Path,
) -> None:
    """The README's example: players written as text on line 2."""
    message = refusal(tmp_path, GOOD_GAME, {**GOOD_GAME, "players": "3"})
    assert message.endswith('t/x.jsonl:2: players: expected int, got "3"')


def test_a_boolean_is_not_a_number(tmp_path: Path) -> None:
    assert "x.jsonl:1: seed: expected int, got true" in refusal(
        tmp_path, {**GOOD_GAME, "seed": True}
    )


def test_a_line_that_is_not_json_is_refused_with_its_line(tmp_path: Path) -> None:
    assert "x.jsonl:2: not JSON" in refusal(tmp_path, GOOD_GAME, '{"id": "game-9002",')


def test_a_line_that_is_not_an_object_is_refused(tmp_path: Path) -> None:
    assert "x.jsonl:1: a line is one JSON object" in refusal(tmp_path, '["game-9001"]')


def test_an_unknown_field_is_named(tmp_path: Path) -> None:
    message = refusal(tmp_path, {**GOOD_GAME, "player": 3})
    assert "x.jsonl:1: unknown field 'player' (Game(id, title, rules, [players," in message


def test_a_missing_field_is_named(tmp_path: Path) -> None:
    line = {k: v for k, v in GOOD_GAME.items() if k != "title"}
    assert "x.jsonl:1: missing field 'title'" in refusal(tmp_path, line)


def test_a_deal_of_no_known_form_is_refused(tmp_path: Path) -> None:
    message = refusal(tmp_path, {**GOOD_GAME, "deal": {"shuffled": 3}})
    assert "x.jsonl:1: deal: a deal names its form, one of seeded, broken, arranged" in message


def test_a_deal_field_of_the_wrong_type_is_named_inside_the_deal(tmp_path: Path) -> None:
    message = refusal(tmp_path, {**GOOD_GAME, "deal": {"arranged": {"0:a1": 5}}})
    assert "x.jsonl:1: deal (arranged deal): cells.0:a1: expected str, got 5" in message


def test_a_line_that_fits_no_shape_is_told_what_the_nearest_lacks(tmp_path: Path) -> None:
    message = refusal(tmp_path, {"id": "score-9001"}, shapes=(ScoreCase, ScoreBlock))
    assert "x.jsonl:1: missing field 'grid' (ScoreCase(id, grid, title, [rules]))" in message


@dataclass(frozen=True)
class Narrow:
    x: int


@dataclass(frozen=True)
class Wide:
    x: int
    y: int = 0


def test_a_line_that_fits_two_shapes_is_refused(tmp_path: Path) -> None:
    message = refusal(tmp_path, {"x": 1}, shapes=(Narrow, Wide))
    assert "x.jsonl:1: the fields ['x'] fit several shapes: Narrow(x); Wide(x, [y])" in message


def test_a_twin_of_no_case_above_is_refused(tmp_path: Path) -> None:
    message = refusal(tmp_path, {"id": "game-9002", "chosen_twin_of": "game-9999"})
    assert "x.jsonl:1: chosen_twin_of names no case above" in message


def test_a_lowest_twin_is_a_game(tmp_path: Path) -> None:
    perft = {"id": "perft-9001", "title": "p", "game": {}, "depth": 1}
    twin = {"id": "perft-9002", "lowest_twin_of": "perft-9001"}
    message = refusal(tmp_path, perft, twin, shapes=(Perft,))
    assert "x.jsonl:2: lowest_twin_of: only a game has a lowest twin" in message


def test_a_chosen_twin_is_its_source_under_the_chosen_rule_and_paired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for case_id in ("game-9001", "game-9002"):  # undone after the test: TWIN_OF is shared
        monkeypatch.setitem(TWIN_OF, case_id, "")
    lines = [GOOD_GAME, {"id": "game-9002", "chosen_twin_of": "game-9001", "seed": 4}]
    first, twin = read("t/x.jsonl", Game, root=written(tmp_path, *lines))
    assert (twin.first, twin.first_player, twin.seed, twin.deal) == ("chosen", 0, 4, first.deal)
    assert twin.title == "a game (chosen first player: as game-9001)"
    assert TWIN_OF["game-9002"] == "game-9001" and TWIN_OF["game-9001"] == "game-9002"


def test_a_twin_is_of_a_case_of_the_file_s_own_shape(tmp_path: Path) -> None:
    perft = Perft("perft-9001", "p", Game("", "", ()), 1)
    twin = {"id": "game-9002", "chosen_twin_of": "perft-9001"}
    with pytest.raises(SourceDataError, match=r"x\.jsonl:1: the twin of a Perft, not of a case"):
        read("t/x.jsonl", Game, earlier=[perft], root=written(tmp_path, twin))
