"""Derive the conformance vectors from their sources: the data files of
spec/conformance/sources/ (read by dekal.conformance.cases._suites.v1 for suite v1, sources_v2 and
sources_v3 for what v2 and v3 add; their format is that folder's README.md).

Every expectation is what the reference engine answers over the protocol (through
`ProtocolAdapter(dekal_ref)`): the vectors record the reference's observations, so an
engine that answers the same way conforms. Each suite is frozen in spec/conformance/VERSION/
and the tests re-derive every one: a change in the reference or the sources that alters any
frozen case fails the tests instead of silently changing the suite.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from dekal.conformance.cases._generate_games import (
    game_case,
    perft_case,
    position_case,
    v2_case,
)
from dekal.conformance.cases._generate_units import (
    deal_cases,
    push_cases,
    pushes_cases,
    score_cases,
    unit_refusal_case,
)
from dekal.conformance.cases._probe import probed_case
from dekal.conformance.cases._suites import v1 as sources
from dekal.conformance.cases._suites import v2 as sources_v2
from dekal.conformance.cases._suites import v3 as sources_v3
from dekal.conformance.cases._vectors import SUITE_VERSION
from dekal.conformance.drive._protocol import PROTOCOL_VERSION

Case = dict[str, Any]


# -- everything -------------------------------------------------------------------------------
def all_cases(version: str = SUITE_VERSION) -> dict[str, list[Case]]:
    """Every case of the suite `version`, by file, in source order."""
    if version == "v4":
        from dekal.conformance.cases._generate_v4 import v4_files

        return v4_files(all_cases("v3"))
    if version != "v3":
        return _through_v2(version)
    v2 = _through_v2("v2")
    added = [game_case(game) for game in sources_v3.V3_GAMES]
    files = {name: [v3_case(case) for case in cases] for name, cases in v2.items()}
    files["games"] += [v3_case(c) for c in added if c["kind"] == "game" and "-neg-" not in c["id"]]
    files["negative"] += [v3_case(c) for c in added if c["kind"] == "setup" or "-neg-" in c["id"]]
    files["position"] += [position_case(item) for item in sources_v3.POSITIONS]
    return files


def v3_case(case: Case) -> Case:
    """A case as suite v3 asks it: at level should when sources_v3.TO_SHOULD says so, and
    probed at its positions when it is a game (dekal.conformance.cases._probe)."""
    if case["id"] in sources_v3.TO_SHOULD:
        case = {**case, "level": "should"}
    if case["kind"] == "game":
        case = probed_case(case)
    return case


def _through_v2(version: str) -> dict[str, list[Case]]:
    """Every case of suite v1 or v2, by file, in source order."""
    v1 = {
        "score": list(score_cases()),
        "pushes": list(pushes_cases()),
        "push": list(push_cases()),
        "games": [game_case(game) for game in sources.GAMES],
        "negative": [game_case(game) for game in sources.NEGATIVE],
        "perft": [perft_case(item) for item in sources.PERFT],
    }
    if version == "v1":
        return v1
    units = [unit_refusal_case(item) for item in sources_v2.UNIT_REFUSALS]
    added = [game_case(game) for game in sources_v2.V2_GAMES]
    return {
        "score": v1["score"] + [c for c in units if c["kind"] == "score"],
        "pushes": v1["pushes"] + [c for c in units if c["kind"] == "pushes"],
        "push": v1["push"] + [c for c in units if c["kind"] == "push"],
        "games": v1["games"] + [c for c in added if c["kind"] == "game" and "-neg-" not in c["id"]],
        "negative": [v2_case(c) for c in v1["negative"]]
        + [c for c in added if c["kind"] == "setup" or "-neg-" in c["id"]],
        "perft": v1["perft"] + [perft_case(item) for item in sources_v2.PERFT_TWINS],
        "deal": list(deal_cases()),
        "position": [position_case(item) for item in sources_v2.POSITIONS],
    }


def render(cases: dict[str, list[Case]], version: str = SUITE_VERSION) -> dict[str, str]:
    """File name -> exact text of every frozen file, the manifest included."""
    files = {
        f"{name}.jsonl": "".join(
            json.dumps(case, ensure_ascii=False, separators=(",", ":")) + "\n" for case in listed
        )
        for name, listed in cases.items()
    }
    retired = {"v1": sources.RETIRED, "v2": sources_v2.RETIRED}.get(version, sources_v3.RETIRED)
    manifest = {
        "suite": version,
        "protocol": PROTOCOL_VERSION,
        "files": {
            name: {"sha256": hashlib.sha256(text.encode()).hexdigest(), "cases": text.count("\n")}
            for name, text in files.items()
        },
        "cases": sum(len(c) for c in cases.values()),
        "retired": list(retired),
    }
    files["manifest.json"] = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    return files


def default_directory(version: str = SUITE_VERSION) -> Path:
    """spec/conformance/VERSION of the checkout this package was imported from."""
    return Path(__file__).resolve().parents[2] / "spec" / "conformance" / version


def stale_files(version: str, directory: Path) -> list[Path]:
    """The frozen files of suite `version` in `directory` that differ from a fresh derivation."""
    files = render(all_cases(version), version)
    return [
        directory / name
        for name, text in files.items()
        if not (directory / name).is_file() or (directory / name).read_text() != text
    ]
