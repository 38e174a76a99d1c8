"""The grid's geometry as the situation map reads it (dekal.conformance.judge._grid_geometry):
S1's groups, S2's cards left, P1/P2's side and line, and the tracer reading them off the
single-grid requests."""

from __future__ import annotations

from dekal.conformance.judge._grid_geometry import cancellations, points_left, push_geometry
from dekal.conformance.judge._situations import SituationTracer
from dekal_ref.notation import Push, parse_grid


def shapes(text: str) -> list[str]:
    return sorted(v["group"] for v in cancellations(parse_grid(text)))


def test_s1_a_group_is_a_pair_across_or_down_a_run_a_bent_group_or_a_block() -> None:
    assert shapes("1123/4567/8923/4567") == ["pair across"]
    assert shapes("1234/1567/8923/4567") == ["pair down"]
    assert shapes("1112/3456/7893/4567") == ["run"]
    assert shapes("7723/1742/6528/96T9") == ["bent"]
    assert shapes("8885/TT41/TT41/5374") == ["block", "pair down", "pair down", "run"]


def test_s1_the_inner_square_lies_inside_and_a_corner_group_on_a_corner() -> None:
    inner = cancellations(parse_grid("1234/5667/8669/2345"))
    corner = cancellations(parse_grid("1123/4567/8923/4567"))
    assert [(v["group"], v["border"]) for v in inner] == [("block", "inner")]
    assert corner[0]["border"] == "corner"


def test_s1_a_group_keeps_company_with_its_own_value_apart_or_another_value_touching() -> None:
    apart = cancellations(parse_grid("1123/4567/8911/4567"))
    touching = cancellations(parse_grid("1122/3456/7893/4567"))
    assert {v["company"] for v in apart} == {"same value apart"}
    assert {v["company"] for v in touching} == {"other value touching"}


def test_s1_cards_touching_by_a_corner_only_are_read_as_a_diagonal() -> None:
    checkerboard = cancellations(parse_grid("1212/2121/1212/2121"))
    assert checkerboard == [{"group": "none", "diagonal": "yes"}]
    assert cancellations(parse_grid("1123/4516/8923/4567"))[0]["diagonal"] == "yes"


def test_s2_cards_left_are_none_some_or_all_and_a_ten_among_them_is_seen() -> None:
    assert points_left(parse_grid("1111/2222/3333/4444")) == {"left": "none", "ten": "no"}
    assert points_left(parse_grid("1234/5678/9T12/3456")) == {"left": "all", "ten": "yes"}
    assert points_left(parse_grid("TT34/5678/9212/3456")) == {"left": "some", "ten": "no"}


def test_p2_a_push_runs_along_the_holes_line_or_a_full_first_inner_or_last_line() -> None:
    grid = parse_grid("5T32/1.44/9999/TT11")
    assert push_geometry(grid, Push("L", 2), "eject") == {"side": "L", "line": "hole's"}
    assert push_geometry(grid, Push("T", 1), "eject") == {"side": "T", "line": "first"}
    assert push_geometry(grid, Push("L", 3), "eject") == {"side": "L", "line": "inner"}
    assert push_geometry(grid, Push("B", 4), "eject") == {"side": "B", "line": "last"}
    assert push_geometry(grid, Push("R"), "slide") == {"side": "R"}


def test_the_tracer_reads_the_single_grid_score_and_push_requests() -> None:
    tracer = SituationTracer()
    tracer.request({"cmd": "score", "grid": "7723/1742/6528/96T9"}, 1.0)
    tracer.request(
        {
            "cmd": "push",
            "grid": "5T32/1.44/9999/TT11",
            "push": "B4",
            "card": "7",
            "variant": "eject",
        },
        1.0,
    )
    read = {
        (rule, dict(values).get("group"), dict(values).get("line"))
        for rule, values in tracer.situations
    }
    assert ("S1", "bent", None) in read
    assert ("P2", None, "last") in read
