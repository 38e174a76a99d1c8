"""What a fuzz game is made of: its set-up, its steering, and each next step.

Every choice comes from a Chooser (dekal.conformance.fuzz._games), so a game is the same
game whether a seeded generator or Hypothesis makes the choices. Most actions are legal
(chosen among the reference's legal actions); some are deliberately wrong (a random verb,
seat, cell, value or push) so that refusals and their rule IDs are compared too.

Random play alone rarely reaches some rule situations, so a share of the games is steered
into them: under the lowest-card rule, turn 1's reveals are chosen so that seats tie for the
lowest card (F1–F2), sometimes on a deal built so that the set-aside draws tie again or the
pile runs short; in a match, the threshold is sometimes set to a total the players really
reach, found by playing the game's first rounds on the reference first (S4: ≥, not >).
Ordinary random games remain the majority.

An engine that deals for itself (hello `"deals": "own"`) gets no deal: its games cannot be
built around a tie, so they are steered by revealing each seat's lowest card instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from dekal.conformance.drive._protocol import Message, position_fields
from dekal_ref.deal import Deal, seeded_deal
from dekal_ref.notation import CELL_NAMES, format_grid, value_symbol
from dekal_ref.position import HIDDEN_LETTERS

# Where a fuzz game's choices come from: a seeded random generator, or Hypothesis.
#
# A fuzz game is a function of a sequence of small whole numbers: the player count, the
# variants, the deal's seed, then for every step whether to try a wrong action and which
# legal action to play. `Chooser.below(n)` hands out the next number in 0 … n−1 and writes
# it down, so the same game can be played twice: once from `random.Random(seed)` (fast,
# uniform, the same games for the same seed), and again from Hypothesis, which replays the
# numbers written down and then shrinks them (dekal.conformance.fuzz._shrink).
#
# Every choice is made so that 0 is the plainest one: the first player count the engine
# claims, the first legal action, no steering, no wrong action. Shrinking numbers towards 0
# therefore shrinks a game towards a plain one.

T = TypeVar("T")

CHANCE_SCALE = 1000  # chance(p) is one choice below this; p is read to 1/1000


class Chooser:
    """Numbers for a game, from `below(n)`, each written down in `choices`."""

    def __init__(self, source: Callable[[int], int]) -> None:
        self._source = source
        self.choices: list[int] = []

    def below(self, n: int) -> int:
        """A number in 0 … n−1. With one option there is no choice: nothing is written down."""
        if n <= 1:
            return 0
        value = self._source(n)
        self.choices.append(value)
        return value

    def chance(self, p: float) -> bool:
        """True with probability p; the choice 0 is False, so shrinking turns it off."""
        return self.below(CHANCE_SCALE) >= CHANCE_SCALE - round(p * CHANCE_SCALE)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.below(len(options))]

    def between(self, low: int, high: int) -> int:
        """A number in low … high, both included."""
        return low + self.below(high - low + 1)

    def sample(self, options: Sequence[T], k: int) -> list[T]:
        """k different options, in the order drawn."""
        pool = list(options)
        return [pool.pop(self.below(len(pool))) for _ in range(k)]


def seeded_chooser(seed: int) -> Chooser:
    """Uniform choices from random.Random(seed): the fuzzer's own games."""
    return Chooser(random.Random(seed).randrange)


def drawn_chooser(data: Any) -> Chooser:
    """Choices drawn from Hypothesis (`data` is what st.data() gives): one integer per
    choice, so a game written down by seeded_chooser replays number for number."""
    from hypothesis import strategies as st

    return Chooser(lambda n: int(data.draw(st.integers(0, n - 1))))


WRONG_ACTION_RATE = 0.12
TIE_RATE = 0.5  # lowest-card games whose turn-1 reveals are steered into a tie (F1–F2)
MATCH_RATE = 0.25  # games played as a match, when the engine claims `match`
EXACT_THRESHOLD_RATE = 0.8  # matches whose threshold is a total really reached (S4)
PERFT_RATE = 0.08  # positions where perft is asked, when the engine claims `perft`
SEED_LIMIT = 2**32  # deal seeds are drawn below this


@dataclass(frozen=True)
class Steering:
    """How a game is pushed into a rare situation (none by default).

    reveals: turn 1 of round 1, the reveal each seat makes (F1–F2 ties), in seat order.
    exact_round: the threshold becomes the highest total after this round (S4), once the game
    has been played on the reference alone to find it.
    lowest: turn 1's reveals are each seat's lowest card, read from the deal once it is known
    (for engines that deal for themselves).
    """

    reveals: tuple[str, ...] = ()
    exact_round: int | None = None
    lowest: bool = False


def deal_message(deal: Deal) -> Message:
    """A deal as the protocol writes it."""
    return {
        "grids": [format_grid(grid) for grid in deal.grids],
        "pile": "".join(value_symbol(v) for v in deal.pile) or "-",
    }


def seeded_deal_message(seed: int, players: int) -> Message:
    return deal_message(seeded_deal(seed, players))


def steered_setup(
    chooser: Chooser, info: Message, players: int | None = None
) -> tuple[Message, Steering]:
    """Players (`players` if given: the run steers toward the map), variants and threshold
    among what the engine claims, a seeded deal (none for an engine that deals for itself),
    and now and then a steering (see the module doc)."""
    claimed = [p for p in info.get("players", []) if isinstance(p, int) and 2 <= p <= 6] or [2]
    count = chooser.pick(sorted(claimed))
    if players in claimed:
        count = players
    variants = info.get("variants", {})
    push = chooser.pick(variants.get("push") or ["slide"])
    first = chooser.pick(variants.get("first") or ["lowest"])
    own_deal = info.get("deals") == "own"
    threshold = None
    exact_round = None
    if "match" in info.get("features", []) and chooser.chance(MATCH_RATE):
        threshold = chooser.pick((100, 40, 60, 150))
        if not own_deal and chooser.chance(EXACT_THRESHOLD_RATE):
            exact_round = chooser.pick((1, 1, 2, 3))
    deal: Message | None = None
    if not own_deal:
        deal = seeded_deal_message(chooser.below(SEED_LIMIT), count)
    reveals: tuple[str, ...] = ()
    tie = first == "lowest" and chooser.chance(TIE_RATE)
    if tie and not own_deal:
        deal, reveals = tied_deal(chooser, count)
    setup = {
        "rules": {"players": count, "push": push, "first": first, "threshold": threshold},
        "deal": deal,
        "first_player": chooser.below(count) if first == "chosen" else None,
    }
    return setup, Steering(reveals, exact_round, lowest=tie and own_deal)


def tied_deal(chooser: Chooser, players: int) -> tuple[Message, tuple[str, ...]]:
    """A legal deal (the 100 cards, rearranged) and turn-1 reveals where two or more seats tie
    for the lowest card (F2). Four kinds: each seat simply reveals its lowest card (a seeded
    deal; a tie or not); an explicit tie with a shuffled pile (one draw decides); a tie whose
    first draws tie again (a re-draw); a 6-player deal whose 4-card pile runs short (ruling)."""
    deal = seeded_deal(chooser.below(SEED_LIMIT), players)
    cards = [v for grid in deal.grids for v in grid] + list(deal.pile)
    kind = chooser.pick(("lowest", "draw", "redraw", "short"))
    if kind == "lowest":
        cells = [grid.index(min(grid)) for grid in deal.grids]
        return _deal_of_cards(cards, players), _reveals(cells)
    tied = sorted(chooser.sample(range(players), chooser.between(2, players)))
    low = chooser.pick((1, 1, 2, 3, 5))
    cells = [chooser.below(16) for _ in range(players)]
    kept: set[int] = set()
    for seat in range(players):
        wanted = low if seat in tied else chooser.between(low + 1, 10)
        _place(cards, seat * 16 + cells[seat], wanted, kept)
    pile_start = 16 * players
    draw = chooser.pick([v for v in range(1, 11) if v != low])
    if kind == "short" and players == 6:
        ties_again = len(cards) - pile_start  # the whole 4-card pile: ties until it runs out
    elif kind in ("redraw", "short"):
        ties_again = len(tied)  # the first draws tie; the next ones decide
    else:
        ties_again = 0
    for index in range(pile_start, min(pile_start + ties_again, len(cards))):
        _place(cards, index, draw, kept)
    return _deal_of_cards(cards, players), _reveals(cells)


def _place(cards: list[int], index: int, value: int, kept: set[int]) -> None:
    """Swap a card of `value` into cards[index] (the 100 cards stay the 100 cards), taking it
    from a place not already arranged; keep `index` arranged."""
    if cards[index] != value:
        source = next(
            (i for i, v in enumerate(cards) if v == value and i not in kept and i != index), None
        )
        if source is None:
            return  # every copy is already placed: leave this one as dealt
        cards[index], cards[source] = cards[source], cards[index]
    kept.add(index)


def _deal_of_cards(cards: list[int], players: int) -> Message:
    grids = tuple(tuple(cards[16 * seat : 16 * seat + 16]) for seat in range(players))
    return deal_message(Deal(grids, tuple(cards[16 * players :])))


def _reveals(cells: list[int]) -> tuple[str, ...]:
    return tuple(f"reveal {seat} {CELL_NAMES[cell]}" for seat, cell in enumerate(cells))


def lowest_reveals(position: str) -> tuple[str, ...]:
    """Each seat reveals its lowest face-down card (read from a full position): a tie for
    the lowest card whenever two grids share their lowest value (F2)."""
    reveals = []
    for seat, grid in enumerate(position_fields(position).get("grids", "").split("|")):
        cells = grid.replace("/", "")
        hidden = [HIDDEN_LETTERS.index(s) for s in cells if s in HIDDEN_LETTERS]
        if hidden:
            lowest = cells.index(HIDDEN_LETTERS[min(hidden)])
            reveals.append(f"reveal {seat} {CELL_NAMES[lowest]}")
    return tuple(reveals)


def wrong_action(chooser: Chooser, players: int) -> str:
    """An action that is often illegal: any verb, any seat (one past the last too), any cell,
    value or push; now and then one that does not even parse."""
    if chooser.chance(0.05):
        return chooser.pick(("reveal 0 e9", "take 0 0", "push 0 X", "jump 0 a1", "reveal x a1"))
    verb = chooser.pick(("reveal", "take", "push"))
    seat = chooser.below(players + 1)
    if verb == "reveal":
        argument = chooser.pick(CELL_NAMES)
    elif verb == "take":
        argument = chooser.pick("123456789T")
    else:
        argument = chooser.pick("LRTB") + chooser.pick(("", "1", "2", "3", "4"))
    return f"{verb} {seat} {argument}"


def next_action(chooser: Chooser, legal: list[str], planned: list[str], players: int) -> str:
    """The next action: now and then a wrong one; else the next planned reveal (steering)
    while it is legal; else one of the legal actions (the first when shrunk)."""
    if chooser.chance(WRONG_ACTION_RATE) or not legal:
        return wrong_action(chooser, players)
    while planned:
        reveal = planned.pop(0)
        if reveal in legal:
            return reveal
    return legal[chooser.below(len(legal))]


def perft_depth(position: str, legal: list[str]) -> int | None:
    """The perft depth worth asking here, or None: perft counts are compared only where the
    reference counts them in a blink (a joint reveal of many seats has millions of nodes)."""
    fields = position_fields(position)
    phase = fields.get("phase", "")
    if phase.startswith("take@"):
        return 2  # takes, then the pushes of the taken card
    if phase.startswith("push@"):
        return 2 if fields.get("centre", "-") != "-" else 1  # else a joint reveal follows
    if phase != "reveal":
        return None
    joint = 1
    for seat in {action.split()[1] for action in legal}:
        joint *= sum(1 for action in legal if action.split()[1] == seat)
    if joint <= 64:
        return 2
    return 1 if joint <= 512 else None
