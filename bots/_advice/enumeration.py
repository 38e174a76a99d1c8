"""Exact answers: every world that can end the round differently, with its probability.

When few cards are unseen, advise need not sample: it enumerates the worlds consistent with
the public view (M3) that can still end the round differently, each with the exact chance a
uniform deal gives it (docs/analysis.md, "Exact answers").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import product

from dekal._arguments import whole
from dekal.bots.observation import Observation, unseen_cards
from dekal.bots.sampler import MOST_WORLDS, exact_worlds
from dekal.position import from_reference
from dekal.state import FastState


def slot_fillings(
    unseen: Counter[int], slots: int, limit: int
) -> list[tuple[tuple[int, ...], Fraction]] | None:
    """Every distinct sequence of `slots` cards drawn without replacement from `unseen`, with
    its probability (a uniform shuffle puts each sequence there with the product of the
    chances of each draw), or None when there are more than `limit` of them."""
    found: list[tuple[tuple[int, ...], Fraction]] = []
    left = unseen.total()

    def extend(prefix: tuple[int, ...], chance: Fraction) -> bool:
        if len(prefix) == slots:
            found.append((prefix, chance))
            return len(found) <= limit
        remaining = left - len(prefix)
        for value in sorted(unseen):
            copies = unseen[value] - prefix.count(value)
            if copies and not extend((*prefix, value), chance * Fraction(copies, remaining)):
                return False
        return True

    return found if extend((), Fraction(1)) else None


def world_of(view: Observation, cards: Sequence[int], picks: tuple[int | None, ...]) -> FastState:
    """The full position that puts `cards` in the face-down cells (seat by seat, cell
    order) and the unseen rest in the pile, ascending (its order matters only to F2)."""
    words = [word for word, _ in view.words]
    slots = [(seat, cell) for seat in range(view.players) for cell in view.face_down_cells(seat)]
    for (seat, cell), value in zip(slots, cards, strict=True):
        words[seat] |= value << (4 * cell)
    pile = unseen_cards(view) - Counter(cards)
    return FastState(
        view.rules, view.round, view.turn, view.phase, view.start, tuple(words),
        tuple(down for _, down in view.words), picks, view.centre, view.hand,
        tuple(sorted(pile.elements())), view.removed, view.totals,
    )  # fmt: skip


def enumerated_worlds(view: Observation, limit: int) -> list[tuple[FastState, Fraction]] | None:
    """Every distinct world that can end the round differently, with its probability, or
    None when there are more than `limit`.

    Once the first player is known the pile's order can change nothing before the end of
    the round (it only breaks F2's tie on turn 1 of round 1), so worlds that differ only
    there are one world here; dekal.bots.sampler.exact_worlds, which tells them apart, is
    asked only while F2 may still draw from the pile."""
    whole("limit", limit, 0, MOST_WORLDS)
    if view.start is None:
        exact = exact_worlds(view, limit)
        return None if exact is None else [(from_reference(w), p) for w, p in exact]
    slots = sum(len(view.face_down_cells(seat)) for seat in range(view.players))
    fillings = slot_fillings(unseen_cards(view), slots, limit)
    if fillings is None:
        return None
    # a pick made but not revealed yet is in one of its seat's face-down cells, uniformly (T1)
    choices = [
        view.face_down_cells(seat) if made else [None] for seat, made in enumerate(view.picked)
    ]
    picks = list(product(*choices))
    if len(fillings) * len(picks) > limit:
        return None
    share = Fraction(1, len(picks))
    return [
        (world_of(view, cards, chosen), chance * share)
        for cards, chance in fillings
        for chosen in picks
    ]
