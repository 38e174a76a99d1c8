"""Single-request cases (score, pushes, push, deal, and their refusals), each the
reference's answer to one request."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import Any

import dekal_ref
from dekal.conformance.cases._deals import SourceError, deal_message
from dekal.conformance.cases._recorder import ERROR_KINDS, typed_refusal
from dekal.conformance.cases._source_types import (
    DealRefusal,
    PushBlock,
    PushCase,
    ScoreCase,
    SeededDeals,
    UnitRefusal,
)
from dekal.conformance.cases._suites import v1 as sources
from dekal.conformance.cases._suites import v2 as sources_v2
from dekal.conformance.drive._adapter import ProtocolAdapter
from dekal.conformance.drive._protocol import Message
from dekal_ref.deal import SplitMix64, seeded_deal
from dekal_ref.notation import CELL_NAMES

Case = dict[str, Any]


# -- unit cases -------------------------------------------------------------------------------
def _reference() -> ProtocolAdapter:
    return ProtocolAdapter(dekal_ref)


def _answer(engine: ProtocolAdapter, cmd: str, **fields: Any) -> Message:
    reply = engine.handle({"id": 1, "cmd": cmd, **fields})
    if not reply["ok"]:
        error = reply["error"]
        return (
            {"ok": False, "rule": error["rule"]}
            if error["kind"] == "illegal"
            else {"ok": False, "kind": error["kind"]}
        )
    return {k: v for k, v in reply.items() if k != "id"}


def _random_grid(generator: SplitMix64, alphabet: str, hole: int | None = None) -> str:
    symbols = [alphabet[generator.next() % len(alphabet)] for _ in range(16)]
    if hole is not None:
        symbols[hole] = "."
    return "/".join("".join(symbols[r * 4 : r * 4 + 4]) for r in range(4))


def score_cases() -> Iterator[Case]:
    engine = _reference()
    for item in sources.SCORE:
        if isinstance(item, ScoreCase):
            listed = [(item.id, item.grid, item.title, item.rules)]
        else:
            generator = SplitMix64(item.seed)
            listed = [
                (
                    f"score-{item.first + i:04d}",
                    _random_grid(generator, item.alphabet),
                    item.title,
                    ("S1", "S2"),
                )
                for i in range(item.count)
            ]
        for case_id, grid, title, rules in listed:
            expect = _answer(engine, "score", grid=grid)
            expect.pop("ok")
            yield {
                "id": case_id,
                "kind": "score",
                "title": title,
                "rules": list(rules),
                "level": "must",
                "needs": {},
                "input": {"grid": grid},
                "expect": expect,
            }


def pushes_cases() -> Iterator[Case]:
    engine = _reference()
    for block in sources.PUSHES:
        variant, number = block.variant, int(block.first.split("-")[1])
        for hole in range(16):
            grid = _random_grid(SplitMix64(hole), "123456789T", hole)
            expect = _answer(engine, "pushes", grid=grid, variant=variant)
            expect.pop("ok")
            yield {
                "id": f"pushes-{number + hole:04d}",
                "kind": "pushes",
                "title": f"every legal {variant} push into a hole at {CELL_NAMES[hole]}",
                "rules": ["P1" if variant == "slide" else "P2"],
                "level": "must",
                "needs": {"push": variant},
                "input": {"grid": grid, "variant": variant},
                "expect": expect,
            }


def _push_case(
    engine: ProtocolAdapter,
    case_id: str,
    grid: str,
    push: str,
    card: str,
    variant: str,
    title: str,
    rules: list[str],
) -> Case:
    fields = {"grid": grid, "push": push, "card": card, "variant": variant}
    return {
        "id": case_id,
        "kind": "push",
        "title": title,
        "rules": rules,
        "level": "must",
        "needs": {"push": variant},
        "input": fields,
        "expect": _answer(engine, "push", **fields),
    }


def push_cases() -> Iterator[Case]:
    engine = _reference()
    for item in sources.PUSH:
        rule = "P1" if item.variant == "slide" else "P2"
        if isinstance(item, PushCase):
            case = _push_case(
                engine,
                item.id,
                item.grid,
                item.push,
                item.card,
                item.variant,
                item.title,
                [item.refused or rule],
            )
            got = case["expect"].get("rule") if not case["expect"]["ok"] else None
            if got != item.refused:
                raise SourceError(
                    f"{item.id}: the source expects {item.refused}, the reference says {got}"
                )
            yield case
            continue
        generator = SplitMix64(item.seed)
        number = item.first
        for hole in range(16):
            grid = _random_grid(generator, "123456789T", hole)
            card = "123456789T"[generator.next() % 10]
            legal = [str(p) for p in dekal_ref.legal_pushes(hole, item.variant)]
            if isinstance(item, PushBlock):
                pushes, prefix = legal, "push"
            else:
                pushes = [p for p in ALL_PUSHES if _refused(engine, grid, p, item.variant)]
                prefix = item.prefix
            for push in pushes:
                title = f"{item.variant} push {push} into a hole at {CELL_NAMES[hole]}"
                if prefix != "push":
                    title += " is forbidden"
                case = _push_case(
                    engine, f"{prefix}-{number:04d}", grid, push, card, item.variant, title, [rule]
                )
                if (prefix == "push") != case["expect"]["ok"]:
                    raise SourceError(f"{case['id']}: the reference disagrees with legal_pushes")
                number += 1
                yield case


ALL_PUSHES = [*"LRTB", *(f"{side}{line}" for side in "LRTB" for line in "1234")]
"""Every push that parses: a side alone, or a side and a line."""


def _refused(engine: ProtocolAdapter, grid: str, push: str, variant: str) -> bool:
    return not _answer(engine, "push", grid=grid, push=push, card="5", variant=variant)["ok"]


# -- suite v2: unit refusals, seeded deals, games from a position --------------------------
def unit_refusal_case(item: UnitRefusal) -> Case:
    """A single-grid request the reference refuses (or reads leniently) as the source says."""
    fields = dict(item.fields)
    expect = _answer(_reference(), item.kind, **fields)
    got = "accepted" if expect["ok"] else expect.get("rule", expect.get("kind"))
    if got != item.refused:
        raise SourceError(f"{item.id}: the source expects {item.refused}, the reference says {got}")
    if item.kind == "score" and expect["ok"]:
        expect.pop("ok")
    rules = ["B1"] if item.refused in ERROR_KINDS else [item.refused]
    if item.refused == "accepted":
        rules = ["B1", "P1" if fields.get("variant") == "slide" else "P2"]
    needs: Message = {}
    if item.kind != "score" and fields.get("variant") in ("slide", "eject"):
        needs = {"push": fields["variant"]}
    return {
        "id": item.id,
        "kind": item.kind,
        "title": f"{item.kind}: {item.title}",
        "rules": rules,
        "level": item.level,
        "needs": needs,
        "input": fields,
        "expect": expect,
    }


def deal_cases() -> Iterator[Case]:
    """Feature seeded-deal: the deals of spec/rules.md, and the requests refused."""
    engine, number = _reference(), 1
    blocks = [item for item in sources_v2.DEALS if isinstance(item, SeededDeals)]
    refusals = [item for item in sources_v2.DEALS if isinstance(item, DealRefusal)]
    for block in blocks:
        for seed, players, round_number in product(block.seeds, range(2, 7), block.rounds):
            fields: dict[str, object] = {"seed": seed, "players": players, "round": round_number}
            expect = _answer(engine, "deal", **fields)
            deal = seeded_deal(seed, players, round_number)
            if expect["deal"] != deal_message(deal.grids, deal.pile):
                raise SourceError(f"deal {fields}: the adapter and dekal_ref.deal disagree")
            yield {
                "id": f"deal-{number:04d}",
                "kind": "deal",
                "title": f"the seeded deal of seed {seed}, {players} players, round {round_number}",
                "rules": ["M1", "M3", "M5"],
                "level": "must",
                "needs": {"features": ["seeded-deal"]},
                "input": fields,
                "expect": expect,
            }
            number += 1
    for number, refusal in enumerate(refusals, start=201):
        fields, title, refused = refusal.input, refusal.title, refusal.refused
        expect = _answer(engine, "deal", **fields)
        if expect != typed_refusal(refused):
            raise SourceError(f"deal-{number:04d}: the source expects {refused}, got {expect}")
        yield {
            "id": f"deal-{number:04d}",
            "kind": "deal",
            "title": f"deal refused: {title}",
            "rules": ["M2"] if refused == "M2" else ["B1"],
            "level": "must",
            "needs": {"features": ["seeded-deal"]},
            "input": fields,
            "expect": expect,
        }
