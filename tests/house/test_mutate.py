"""bench/mutate.py, the mutation-testing measurement (issue 8): its mutants are real, distinct
changes; it never writes to the tree; the suite kills a mutant that breaks a rule; a mutant
listed as equivalent survives and is shown as such; a hanging mutant cannot hang it.

The kill and survival checks run on a small honest subset of the suite (the cases that claim
rule S3) written to a temporary suite directory, which also exercises --suite-dir.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from dekal.conformance.cases._vectors import load_cases

BENCH = Path(__file__).resolve().parents[2] / "bench"
_spec = importlib.util.spec_from_file_location("mutate", BENCH / "mutate.py")
assert _spec is not None and _spec.loader is not None
mutate = importlib.util.module_from_spec(_spec)
sys.modules["mutate"] = mutate  # dataclasses look their module up by name
_spec.loader.exec_module(mutate)

ROW_STARTS_KEY = "dekal.position:format_grid_word:constant - 1:cd671a49d0"
"""range(0, 16, 4) made range(0, 15, 4) where the fast engine writes a grid: listed as
equivalent (the same row starts)."""


@pytest.fixture(scope="module")
def s3_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A suite directory holding the cases that claim rule S3 (no manifest)."""
    directory = tmp_path_factory.mktemp("s3-suite")
    cases = [case for case in load_cases() if "S3" in case["rules"]]
    lines = "".join(json.dumps(case) + "\n" for case in cases)
    (directory / "s3.jsonl").write_text(lines, encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def few_s3_cases(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight of those cases: enough to execute the fast engine's grid writing, which every
    game case does, without the baseline's coverage run over all of them."""
    directory = tmp_path_factory.mktemp("few-s3-suite")
    cases = [case for case in load_cases() if "S3" in case["rules"]][:8]
    lines = "".join(json.dumps(case) + "\n" for case in cases)
    (directory / "s3.jsonl").write_text(lines, encoding="utf-8")
    return directory


def tree_hashes() -> dict[Path, str]:
    files = [mutate.module_file(m) for modules in mutate.RULE_MODULES.values() for m in modules]
    return {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in files}


@pytest.mark.parametrize("module", ["dekal_ref.scoring", "dekal._grid"])
def test_every_mutant_compiles_and_is_a_distinct_change(module: str) -> None:
    engine = "ref" if module.startswith("dekal_ref") else "fast"
    original = ast.dump(ast.parse(mutate.module_file(module).read_text("utf-8")))
    dumps = set()
    for mutant in mutate.mutants_of(engine, module):
        tree = mutate.mutated_tree(mutant)
        compile(tree, module, "exec")
        dumps.add(ast.dump(tree))
    assert original not in dumps
    assert len(dumps) == len(mutate.mutants_of(engine, module))


def test_mutant_keys_are_unique_and_carry_no_line_number() -> None:
    mutants = mutate.mutants_of("fast", "dekal._game")
    keys = [m.key for m in mutants]
    assert len(set(keys)) == len(keys)
    assert all(str(m.line) not in m.key.split(":")[:2] for m in mutants)


def test_the_same_seed_draws_the_same_sample() -> None:
    mutants = mutate.mutants_of("ref", "dekal_ref.game")
    first, again = mutate.draw(mutants, 20, seed=7), mutate.draw(mutants, 20, seed=7)
    assert [m.key for m in first] == [m.key for m in again]
    assert [m.key for m in mutate.draw(mutants, 20, seed=8)] != [m.key for m in first]


def test_cheap_cases_run_first_and_every_case_is_still_judged() -> None:
    cases = load_cases()
    ordered = mutate.cheap_first(cases)
    assert sorted(c["id"] for c in ordered) == sorted(c["id"] for c in cases)
    kinds = [c["kind"] for c in ordered]
    assert kinds.index("game") > max(k for k, kind in enumerate(kinds) if kind != "game")
    assert kinds.index("score") < kinds.index("setup") < kinds.index("perft")


def test_the_default_suite_is_the_harness_default() -> None:
    from dekal.conformance.cases._vectors import SUITE_VERSION

    assert mutate.default_suite().name == SUITE_VERSION


def test_s3_fewest_cards_tie_break_inverted_is_killed(s3_suite: Path) -> None:
    before = tree_hashes()
    source = mutate.module_file("dekal_ref.ranking").read_text("utf-8")
    inverted = source.replace("(s.points, s.remaining)", "(s.points, -s.remaining)")
    assert inverted != source
    job = {"engine": "ref", "module": "dekal_ref.ranking", "source": inverted,
           "suite_dir": str(s3_suite), "case_timeout": 5.0}  # fmt: skip
    verdict = mutate.run_worker(job, wall_limit=60)
    assert verdict["status"] == "killed"
    assert "ranking" in verdict["detail"]  # the failing case names the ranking (S3)
    assert tree_hashes() == before  # the tree is never written to


def test_a_generated_shared_places_mutant_is_killed(s3_suite: Path) -> None:
    (mutant,) = [
        m for m in mutate.mutants_of("ref", "dekal_ref.ranking")
        if m.function == "places" and m.change == "other < key → other <= key"
    ]  # fmt: skip
    verdict = mutate.judge_mutant(mutant, s3_suite)
    assert verdict["status"] == "killed"


def test_a_listed_equivalent_mutant_survives_and_is_shown_as_equivalent(
    few_s3_cases: Path,
) -> None:
    found = mutate.measure(
        ["fast"], ["dekal.position"], suite_dir=few_s3_cases, only=[ROW_STARTS_KEY]
    )
    (result,) = found.results
    assert result.executed
    assert result.status == "equivalent"
    assert "row starts" in result.reason
    assert found.total().survived == 0


def test_a_hanging_mutant_counts_as_killed_by_timeout(s3_suite: Path) -> None:
    source = mutate.module_file("dekal_ref.ranking").read_text("utf-8")
    hanging = source.replace('    """Shared places:', '    while True:\n        pass\n    """')
    job = {"engine": "ref", "module": "dekal_ref.ranking", "source": hanging,
           "suite_dir": str(s3_suite), "case_timeout": 0.5}  # fmt: skip
    assert mutate.run_worker(job, wall_limit=60)["status"] == "timeout"


def test_a_mutant_hanging_on_import_is_stopped_by_the_wall_limit(s3_suite: Path) -> None:
    source = mutate.module_file("dekal_ref.ranking").read_text("utf-8")
    hanging = source + "\nwhile True:\n    pass\n"
    job = {"engine": "ref", "module": "dekal_ref.ranking", "source": hanging,
           "suite_dir": str(s3_suite), "case_timeout": 5.0}  # fmt: skip
    verdict = mutate.run_worker(job, wall_limit=2)
    assert (verdict["status"], verdict["case"]) == ("timeout", "(whole run)")
