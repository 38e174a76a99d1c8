"""The worked examples of the spec are tests (CommonMark-style: spec/rules.md, spec/notation.md).

Every fenced block whose info string starts with `example` is extracted and checked against
dekal_ref; if the code and the spec drift apart, one of these tests fails. The kinds of block
and their line formats are described in spec/notation.md, "Worked examples".
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from dekal_ref.actions import Action, NewRound, apply, legal_actions, parse_action
from dekal_ref.deal import DECK, Deal, SplitMix64, seeded_deal, seeded_deals, shuffled_deck
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.game import new_game
from dekal_ref.notation import (
    CELL_NAMES,
    format_grid,
    parse_cell,
    parse_grid,
    parse_push,
    parse_value,
    value_symbol,
)
from dekal_ref.position import POSITION_FIELDS, format_position, parse_position
from dekal_ref.push import hole_of, legal_pushes, push_card
from dekal_ref.ranking import ranking, round_scores
from dekal_ref.record import format_record, parse_record, record_from_json, replay
from dekal_ref.scoring import score_grid
from dekal_ref.state import GameState, Rules

ROOT = Path(__file__).resolve().parents[2]
SPEC_FILES = [ROOT / "spec" / "rules.md", ROOT / "spec" / "notation.md"]
RULE_IDS = [
    *(f"M{i}" for i in range(1, 6)),
    *(f"T{i}" for i in range(1, 6)),
    "P1",
    "P2",
    *(f"F{i}" for i in range(1, 5)),
    *(f"S{i}" for i in range(1, 5)),
    "B1",
]
SEED_FILES = [
    "000_d976f655e12a780a.txt",
    "001_2e38e7eca016b80b.txt",
    "002_bb9c5d214e1a339f.txt",
    "003_a669914516bf703d.txt",
]


@dataclass(frozen=True)
class Example:
    path: Path
    line: int  # line of the opening fence
    kind: str
    options: dict[str, str]  # key=value words after the kind in the info string
    body: str

    @property
    def name(self) -> str:
        return f"{self.path.name}:{self.line}:{self.kind}"

    def lines(self) -> list[tuple[str, str]]:
        """The body's non-blank lines as (keyword, rest)."""
        pairs = []
        for line in self.body.splitlines():
            if line.strip():
                key, _, rest = line.strip().partition(" ")
                pairs.append((key, rest.strip()))
        return pairs

    def fields(self) -> dict[str, str]:
        return dict(self.lines())


FENCE = re.compile(r"^```example([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def extract(path: Path) -> list[Example]:
    text = path.read_text(encoding="utf-8")
    examples = []
    for match in FENCE.finditer(text):
        words = match.group(1).split()
        kind = words[0] if words else ""
        options = dict(word.split("=", 1) for word in words[1:] if "=" in word)
        line = text.count("\n", 0, match.start()) + 1
        examples.append(Example(path, line, kind, options, match.group(2)))
    return examples


ALL_EXAMPLES = [example for path in SPEC_FILES for example in extract(path)]


# --- The checkers, one per kind ------------------------------------------------------------


def check_score(example: Example) -> None:
    fields = example.fields()
    result = score_grid(parse_grid(fields["grid"], allow_hole=False))
    assert result.points == int(fields["score"])
    assert result.remaining == int(fields["remaining"])
    cancelled = fields["cancelled"].split() if fields["cancelled"] != "none" else []
    assert [CELL_NAMES[c] for c in sorted(result.cancelled)] == cancelled


def check_push(example: Example) -> None:
    fields = example.fields()
    grid = parse_grid(fields["grid"])
    move, card = parse_push(fields["push"]), parse_value(fields["card"])
    variant = fields.get("variant", "slide")
    if "refused" in fields:
        with pytest.raises(IllegalAction) as caught:
            push_card(grid, move, card, variant)
        assert caught.value.rule == fields["refused"]
    else:
        assert format_grid(push_card(grid, move, card, variant)) == fields["after"]


def check_pushes(example: Example) -> None:
    fields = example.fields()
    hole = hole_of(parse_grid(fields["grid"]))
    pushes = legal_pushes(hole, fields.get("variant", "slide"))
    assert [str(p) for p in pushes] == fields["legal"].split()
    if "count" in fields:
        assert len(pushes) == int(fields["count"])


def _pile(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(parse_value(s) for s in text)


def check_deal(example: Example) -> None:
    fields = example.fields()
    players = int(fields["players"])
    deal = seeded_deal(int(fields["seed"]), players, int(fields.get("round", "1")))
    grids = [rest.split()[1] for key, rest in example.lines() if key == "grid"]
    assert [format_grid(g) for g in deal.grids] == grids
    assert deal.pile == _pile(fields["pile"])
    everything = [v for g in deal.grids for v in g] + list(deal.pile)
    assert Counter(everything) == Counter(DECK)  # M1: the 100 cards, whatever the seed


def check_splitmix64(example: Example) -> None:
    fields = example.fields()
    generator = SplitMix64(int(fields["seed"]))
    expected = [int(word, 16) for word in fields["next"].split()]
    assert [generator.next() for _ in expected] == expected


def check_shuffle(example: Example) -> None:
    fields = example.fields()
    deck = shuffled_deck(SplitMix64(int(fields["seed"])))
    assert "".join(value_symbol(v) for v in deck) == fields["deck"]


def check_position(example: Example) -> None:
    fields = example.fields()
    state = parse_position(fields["position"])
    assert format_position(state) == fields["position"]
    if "public" in fields:
        assert format_position(state, public=True) == fields["public"]


def check_notation(example: Example) -> None:
    """`cell a1 = 0`, `grid G = v v …`, `push L2 = L 2`, `action A = A'`, `malformed FIELD TEXT`."""
    for key, rest in example.lines():
        if key == "malformed":
            field, _, text = rest.partition(" ")
            readers: dict[str, Callable[[str], object]] = {
                "cell": parse_cell,
                "grid": parse_grid,
                "push": parse_push,
                "card": parse_value,
                "action": parse_action,
                "position": parse_position,
            }
            with pytest.raises(NotationError):
                readers[field](text)
            continue
        text, _, expected = rest.partition(" = ")
        if key == "cell":
            assert parse_cell(text) == int(expected)
        elif key == "card":
            assert parse_value(text) == int(expected)
        elif key == "grid":
            shown = ["." if v == 0 else str(v) for v in parse_grid(text)]
            assert " ".join(shown) == expected
            assert format_grid(parse_grid(text)) == text.upper()
        elif key == "push":
            move = parse_push(text)
            assert f"{move.side} {move.line or '-'}" == expected
        elif key == "action":
            assert str(parse_action(text)) == expected
        else:
            raise AssertionError(f"unknown notation line {key!r}")


class GameExample:
    """Runs an `example game` block: set-up lines, then steps and expectations."""

    def __init__(self) -> None:
        self.rules_text = "slide/lowest/single"
        self.players = 2
        self.seed: int | None = None
        self.grids: list[tuple[int, ...]] = []
        self.pile: tuple[int, ...] = ()
        self.first: int | None = None
        self.state: GameState | None = None

    def rules(self) -> Rules:
        push, first, threshold = self.rules_text.split("/")
        return Rules(self.players, push, first, None if threshold == "single" else int(threshold))

    def deal(self) -> Deal:
        if self.seed is not None:
            return seeded_deal(self.seed, self.players)
        return Deal(tuple(self.grids), self.pile)

    def started(self) -> GameState:
        if self.state is None:
            self.state = new_game(self.rules(), self.deal(), self.first)
        return self.state

    def action(self, text: str) -> Action:
        words = text.split()
        if words[:2] == ["deal", "seed"]:
            return NewRound(seeded_deals(int(words[2]), self.started().players, 1)[0])
        return parse_action(text)

    def run(self, example: Example) -> None:
        for key, rest in example.lines():
            if key == "rules":
                self.rules_text = rest
            elif key == "players":
                self.players = int(rest)
            elif key == "seed":
                self.seed = int(rest)
            elif key == "grid":
                self.grids.append(parse_grid(rest.split()[1]))
            elif key == "pile":
                self.pile = _pile(rest)
            elif key == "first":
                self.first = int(rest)
            elif key == "start":
                if rest.startswith("refused"):
                    with pytest.raises(IllegalAction) as caught:
                        new_game(self.rules(), self.deal(), self.first)
                    assert caught.value.rule == rest.split()[1]
                else:
                    self.started()
            elif key == "position":
                self.state = parse_position(rest)
            elif key == "do":
                for text in rest.split(", "):
                    self.state = apply(self.started(), self.action(text))
            elif key == "refuse":
                rule, _, text = rest.partition(" ")
                before = format_position(self.started())
                with pytest.raises(IllegalAction) as caught:
                    apply(self.started(), self.action(text))
                assert caught.value.rule == rule, f"{text}: {caught.value}"
                assert format_position(self.started()) == before  # B1: nothing changed
            elif key == "expect":
                self.expect(rest)
            else:
                raise AssertionError(f"unknown game line {key!r}")

    def expect(self, rest: str) -> None:
        state = self.started()
        what, _, expected = rest.partition(" ")
        names = POSITION_FIELDS
        if what in names:
            assert format_position(state).split(" ")[names.index(what)] == expected
        elif what == "position":
            assert format_position(state) == expected
        elif what == "public":
            assert format_position(state, public=True) == expected
        elif what == "grid":
            seat, _, grid = expected.partition(" ")
            assert format_position(state).split(" ")[4].split("|")[int(seat)] == grid
        elif what == "scores":
            shown = [f"{s.points}/{s.remaining}" for s in round_scores(state)]
            assert " ".join(shown) == expected
        elif what == "places":
            by_seat = {s.seat: s.place for s in ranking(state)}
            assert " ".join(str(by_seat[seat]) for seat in range(state.players)) == expected
        elif what == "legal":
            assert ", ".join(str(a) for a in legal_actions(state)) == expected
        else:
            raise AssertionError(f"unknown expectation {what!r}")


def check_game(example: Example) -> None:
    GameExample().run(example)


def check_record(example: Example) -> None:
    """A record block: it parses, prints back identically, and replays — or is refused."""
    rec = parse_record(example.body)
    assert format_record(rec) == example.body
    if "refused" in example.options:
        with pytest.raises(IllegalAction) as caught:
            replay(rec)
        assert caught.value.rule == example.options["refused"]
        if "turn" in example.options:
            assert getattr(caught.value, "turn", None) == int(example.options["turn"])
    else:
        replay(rec)


def check_record_json(example: Example) -> None:
    """A JSON record: it reads, and is the same game as the text record just above it."""
    rec = record_from_json(json.loads(example.body))
    replay(rec)
    earlier = [e for e in ALL_EXAMPLES if e.path == example.path and e.line < example.line]
    text_twin = [e for e in earlier if e.kind == "record" and "refused" not in e.options][-1]
    assert rec == parse_record(text_twin.body)


CHECKERS: dict[str, Callable[[Example], None]] = {
    "score": check_score,
    "push": check_push,
    "pushes": check_pushes,
    "deal": check_deal,
    "splitmix64": check_splitmix64,
    "shuffle": check_shuffle,
    "position": check_position,
    "notation": check_notation,
    "game": check_game,
    "record": check_record,
    "record-json": check_record_json,
}


@pytest.mark.parametrize("example", ALL_EXAMPLES, ids=lambda e: e.name)
def test_spec_example(example: Example) -> None:
    assert example.kind in CHECKERS, f"{example.name}: unknown kind of example"
    CHECKERS[example.kind](example)


# --- The spec's shape ---------------------------------------------------------------------


def rule_sections() -> dict[str, str]:
    """Rule ID -> its section of spec/rules.md: from its `### ID …` heading to the next
    heading of level 1–3."""
    text = (ROOT / "spec" / "rules.md").read_text(encoding="utf-8")
    sections = {}
    for head in re.finditer(r"^### ([A-Z]\d)\b.*$", text, re.MULTILINE):
        after = re.compile(r"^#{1,3} ", re.MULTILINE).search(text, head.end())
        sections[head.group(1)] = text[head.start() : after.start() if after else len(text)]
    return sections


def test_every_rule_has_its_own_heading_with_its_stable_id() -> None:
    assert sorted(rule_sections()) == sorted(RULE_IDS)


@pytest.mark.parametrize("rule", RULE_IDS)
def test_every_rule_cites_a_source_or_says_ruling(rule: str) -> None:
    section = rule_sections()[rule]
    cited = [name for name in SEED_FILES if name in section]
    assert cited or "ruling" in section.lower()
    for name in re.findall(r"\d{3}_[0-9a-f]{16}\.txt", section):
        assert name in SEED_FILES, f"{rule} cites {name}, which is not one of the sources"


@pytest.mark.parametrize("rule", RULE_IDS)
def test_every_rule_carries_a_worked_example(rule: str) -> None:
    assert "```example " in rule_sections()[rule]


def test_the_source_001_worked_example_is_in_the_spec() -> None:
    scores = [e for e in ALL_EXAMPLES if e.kind == "score"]
    lea = [e for e in scores if e.fields()["score"] == "19" and e.fields()["remaining"] == "5"]
    assert lea, "the worked example of source 001 (Léa: 19 points, 5 cards) is missing"
    grid = parse_grid(lea[0].fields()["grid"])
    left = sorted(v for c, v in enumerate(grid) if c not in score_grid(grid).cancelled)
    assert left == [1, 2, 3, 6, 7]  # source 001: the 3, 6, 2, 7 and 1 are left


# --- The checkers can fail ----------------------------------------------------------------


def drifted(example: Example, old: str, new: str) -> Example:
    assert old in example.body
    return Example(
        example.path, example.line, example.kind, example.options, example.body.replace(old, new, 1)
    )


def first(kind: str) -> Example:
    return next(e for e in ALL_EXAMPLES if e.kind == kind)


@pytest.mark.parametrize(
    ("kind", "key"),
    [
        ("score", "score"),
        ("push", "after"),
        ("pushes", "legal"),
        ("deal", "pile"),
        ("splitmix64", "next"),
    ],
)
def test_a_drifted_example_fails(kind: str, key: str) -> None:
    example = first(kind)
    value = example.fields()[key]
    changed = value[:-1] + ("2" if value[-1] != "2" else "3")
    with pytest.raises(AssertionError):
        CHECKERS[kind](drifted(example, f"{key} {value}", f"{key} {changed}"))


def test_a_drifted_game_expectation_fails() -> None:
    example = next(e for e in ALL_EXAMPLES if e.kind == "game" and "expect start " in e.body)
    start = re.search(r"expect start (\d)", example.body)
    assert start is not None
    other = str((int(start.group(1)) + 1) % 2)
    with pytest.raises(AssertionError):
        check_game(drifted(example, start.group(0), f"expect start {other}"))


def test_a_refusal_naming_the_wrong_rule_fails() -> None:
    example = next(e for e in ALL_EXAMPLES if e.kind == "game" and "refuse T1 " in e.body)
    with pytest.raises(AssertionError):
        check_game(drifted(example, "refuse T1 ", "refuse T3 "))
