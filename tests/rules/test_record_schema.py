"""The JSON twin of game records has a schema (spec/schemas/record.schema.json)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from dekal_ref import actions, game
from dekal_ref.deal import seeded_deals
from dekal_ref.record import parse_record, record_from_game, record_to_json
from dekal_ref.state import Phase, Rules

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "spec" / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
EXAMPLES = sorted((ROOT / "spec" / "examples").glob("*.dkr"))


def random_record_json(seed: int) -> dict[str, object]:
    """A whole game or match played at random by the reference, as a JSON record."""
    chooser = random.Random(seed)
    players = chooser.randint(2, 6)
    rules = Rules(
        players=players,
        push=chooser.choice(["slide", "eject"]),
        first=chooser.choice(["lowest", "chosen"]),
        threshold=chooser.choice([None, 60]),
    )
    first = chooser.randrange(players) if rules.first == "chosen" else None
    deals = seeded_deals(seed, players, rounds=12)
    state = game.new_game(rules, deals[0], first)
    played: list[actions.Action] = []
    while state.phase is not Phase.OVER:
        if state.phase is Phase.NEXT_ROUND:
            action: actions.Action = actions.NewRound(deals[state.round])
        else:
            action = chooser.choice(actions.legal_actions(state))
        state = actions.apply(state, action)
        played.append(action)
    rounds = state.round
    return record_to_json(record_from_game(rules, deals[:rounds], first, played, seed=seed))


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_bundled_records_fit_the_schema(path: Path) -> None:
    record = record_to_json(parse_record(path.read_text(encoding="utf-8")))
    assert list(VALIDATOR.iter_errors(record)) == []


@pytest.mark.parametrize("seed", range(6))
def test_records_of_random_games_fit_the_schema(seed: int) -> None:
    assert list(VALIDATOR.iter_errors(random_record_json(seed))) == []


@pytest.mark.parametrize(
    ("path", "bad"),
    [
        (("rules", "push"), "shove"),
        (("rules", "players"), 7),
        (("rounds", 0, "deal", "grids", 0), "1234/5678/9T12/345"),
        (("rounds", 0, "turns", 0, 0), "reveal 0 e5"),
        (("format",), "dekal-record/2"),
    ],
)
def test_the_schema_rejects_a_corrupted_record(path: tuple[object, ...], bad: object) -> None:
    record = random_record_json(1)
    target: object = record
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = bad  # type: ignore[index]
    assert list(VALIDATOR.iter_errors(record)) != []
