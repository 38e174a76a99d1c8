"""Twins: the same check written again under the other first-player rule.

A source line `{"id": NEW, "chosen_twin_of": OLD}` (or `lowest_twin_of`) stands for the case
OLD again under that rule, titled "… (chosen first player: as OLD)"; the line's other fields
replace the twin's (a lowest twin arranges its deal so that the seat that started under
`chosen` reveals the lowest card). TWIN_OF pairs the two, and `"twin": OTHER` pairs a case
written out in full with its twin: the coverage test counts a check as run when either
twin runs (dekal.conformance.coverage). Perft twins are not paired: perft is an optional
feature, never a core check.
"""

from __future__ import annotations

from dataclasses import replace

from dekal.conformance.source_types import FromPosition, Game, Perft

TWIN_OF: dict[str, str] = {}
"""Case ID -> the ID of the case that makes the same check under the other first-player rule
(the test of coverage counts a check as run when either runs)."""


def twins(*pairs: tuple[str, str]) -> None:
    """Pair each (one, other) both ways in TWIN_OF."""
    for one, other in pairs:
        TWIN_OF[one], TWIN_OF[other] = other, one


def chosen_twin(source: Game | FromPosition | Perft, case_id: str) -> Game | FromPosition | Perft:
    """`source` again under the `chosen` rule, seat 0 first: its check does not depend on it.
    A game twin is asked at level must (the twins of B1-neg-0001/0002 are, as those are in
    suite v2)."""
    if isinstance(source, Perft):
        game = replace(source.game, first="chosen", first_player=0)
        title = f"{source.title} (chosen first player: as {source.id})"
        return replace(source, id=case_id, title=title, game=game)
    twins((source.id, case_id))
    if isinstance(source, FromPosition):
        reach = replace(source.reach, first="chosen", first_player=0)
        title = f"{source.title} (chosen first player)"
        return replace(source, id=case_id, title=title, reach=reach)
    title = f"{source.title} (chosen first player: as {source.id})"
    return replace(source, id=case_id, title=title, first="chosen", first_player=0, level="must")


def lowest_twin(source: Game, case_id: str) -> Game:
    """The chosen game `source` again under the lowest-card rule."""
    twins((source.id, case_id))
    title = f"{source.title} (lowest-card rule: as {source.id})"
    return replace(source, id=case_id, title=title, first="lowest", first_player=None)
