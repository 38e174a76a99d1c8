"""`--engine fast|ref` on `dekal score` and `dekal push`: both engines answer the same."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from dekal.cli._app import app
from dekal_ref.notation import format_grid

runner = CliRunner()


def _grids(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        format_grid(tuple(rng.choice([1, 2, 9, 10] if k % 2 else range(1, 11)) for _ in range(16)))
        for k in range(count)
    ]


def test_score_is_the_same_on_both_engines() -> None:
    grids = [*_grids(40, 1), "9991/446T/T27T/T113", "1111/2.22/3333/4444", "bad/grid"]
    outputs = {}
    for engine in ("fast", "ref"):
        result = runner.invoke(app, ["score", *grids, "--json", "--engine", engine])
        assert result.exit_code == 2  # the malformed grid; the others are scored
        outputs[engine] = [json.loads(line) for line in result.stdout.splitlines()]
    assert outputs["fast"] == outputs["ref"]
    assert {"grid": "9991/446T/T27T/T113", "score": 19, "remaining": 5}.items() <= outputs["fast"][
        40
    ].items()


@pytest.mark.parametrize(
    ("grid", "push", "variant"),
    [
        ("5T32/1.44/9999/TT11", "L", "slide"),
        ("5T32/1.44/9999/TT11", "T3", "eject"),
        ("5T32/1.44/9999/TT11", "T", "slide"),  # P1: straight into the hole
        ("5T32/1.44/9999/TT11", "L", "eject"),  # P2: no line
        ("5T32/1144/9999/TT11", "L", "slide"),  # T4: no hole
    ],
)
def test_push_is_the_same_on_both_engines(grid: str, push: str, variant: str) -> None:
    results = [
        runner.invoke(
            app, ["push", grid, push, "7", "--variant", variant, "--json", "--engine", engine]
        )
        for engine in ("fast", "ref")
    ]
    assert results[0].exit_code == results[1].exit_code
    assert results[0].stdout == results[1].stdout
    assert results[0].stderr == results[1].stderr


def test_an_unknown_engine_is_a_one_line_error() -> None:
    result = runner.invoke(app, ["score", "1111/2222/3333/4444", "--engine", "turbo"])
    assert result.exit_code == 2
    assert "fast, ref" in result.stderr and "Traceback" not in result.output
