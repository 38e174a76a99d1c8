"""The headline figures of the solo game with unknown cards (spec/solo-unknown.md; issue 31).

    .venv/bin/python bench/unknown_figures.py                       # both parts, the defaults
    .venv/bin/python bench/unknown_figures.py --part choices --positions 200 --json
    .venv/bin/python bench/unknown_figures.py --part solitaire --deals 300

Everything is seeded (--seed): the same options print the same figures on every machine.

**Part `choices`: what the greedy and pimc choices lose against the optimum.** Positions are
drawn by the solo rules themselves: sixteen cards dealt face down, then 16 − k steps played
at random (a uniformly random `?` cell revealed, its value drawn from the deck less the
face-up cards, U2, pushed in by a uniformly random legal push, U3), leaving k unknown cells,
k = 1..4 in turn (eject: 1..3, --eject-k); the unseen cards are the deck less the face-up
ones (U2's default). For each position, exactly (fractions, by the search of
proofs/_unknown/search.py):

* `optimum`: U6's expected value;
* a *choice*'s loss: the expected final score of playing that choice's first step (its
  reveal, then for each value that can come its push) and then optimally, less the optimum.
  It is ≥ 0, and 0 exactly when the first step is an optimal one: the figure isolates the
  decision itself, not what the policy does later;
* `greedy_policy` loss: the greedy strategy played to the end (its exact expectation,
  proofs/_unknown/greedy.py) less the optimum: what playing greedy throughout costs.

The choices are the bots' policies made solo. greedy (bots/_players/greedy.py; U10): reveal
the first `?` cell in reading order, push where the visible score (face-down cards counting
nothing) is least, first push on ties (`greedy_push_index`). pimc (bots/_players/pimc.py's defaults,
samples=40, rollout=greedy): for each decision it draws 40 worlds (the face-down values, a
uniform draw without replacement from the unseen cards), plays each legal action in every
world (the same worlds for every action) and then the greedy policy to the end, and keeps
the action with the least mean final score (the first on ties); the reveal and then, once the
value is seen, the push are two decisions, with worlds drawn afresh for each. Its loss is
thus also an average over its own seeded draws.

The mean loss of each choice is given with a 95% interval (mean ± 1.96 standard errors of
the sample of positions), per k and over all positions, with the share of positions where
the choice is optimal (loss 0).

**Part `solitaire`: the whole 16-step game, all sixteen cards unknown from the deal.** Its
optimal expected score E* is out of reach of the exact search (16 unknown cells); bounds:

* lower: E* ≥ PI, the perfect-information value (U10: PI ≤ expected), and PI ≥ the mean over
  deals of any per-deal lower bound on the deal's solo optimum. Per deal (16 values dealt
  uniformly from the deck onto the face-down grid, each travelling with its card) the bound
  is the perfect-information solver's proved optimum (proofs/search.py's `minimum`, the
  puzzles' solo mode) when it finishes within --pi-nodes node expansions (a limit that stops
  the search at the same place on every machine, unlike a clock's), else the admissible
  lower bound it starts from (proofs/_bounds.py's `start_key`: cards no play can cancel).
  Reported: the sample mean and its one-sided 95% lower limit (mean − 1.645 standard
  errors): PI, hence E*, is at least that limit with 95% confidence (normal approximation).
* upper: E* ≤ the expected score of any strategy that does not look at face-down values.
  Two are measured on the same deals: `greedy` (U10's, played for all 16 steps: its mean
  final score) and `greedy+exact` (greedy until --tail cells are left unknown, then the
  optimal play of U6 from there: each sample contributes the exact expected value of that
  tail, a conditional expectation, so its mean is an unbiased estimate of the strategy's
  expected score with less noise). Reported: the mean and its one-sided 95% upper limit
  (mean + 1.645 standard errors): E* is at most that limit with 95% confidence.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dekal import bits, tables
from dekal.bots._players.greedy import greedy_push_index
from dekal.extras import available
from dekal.proofs import _bounds as bounds
from dekal.proofs._unknown.greedy import greedy_values
from dekal.proofs._unknown.position import COPIES, VALUES, UnknownPosition, deck_less
from dekal.proofs._unknown.puzzle import drawn_position
from dekal.proofs._unknown.search import CompiledGame, _Game, falling, fits
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import KEY_CARDS, make_puzzle
from dekal.proofs.search import minimum

Z95 = 1.96  # two-sided 95%
Z95_ONE_SIDED = 1.645
PIMC_SAMPLES = 40  # bots/_players/pimc.py's default
DECK = tuple(v for v in VALUES for _ in range(COPIES))


def interval(sample: list[float]) -> dict[str, float]:
    """Mean, standard error and the two-sided 95% interval of a sample's mean."""
    mean = statistics.fmean(sample)
    se = statistics.stdev(sample) / math.sqrt(len(sample)) if len(sample) > 1 else 0.0
    return {
        "mean": round(mean, 4),
        "se": round(se, 4),
        "low95": round(mean - Z95 * se, 4),
        "high95": round(mean + Z95 * se, 4),
    }


# positions drawn by the solo rules


# the solo policies


def greedy_rollout(visible: int, hidden: int, down: int, variant: str) -> int:
    """Greedy (U10) to the end in one world: `hidden` holds the face-down cards' values,
    which travel with their cards; the policy reads only `visible`."""
    return bits.score(greedy_steps(visible, hidden, down, variant, 0)[0])[0]


def greedy_steps(
    visible: int, hidden: int, down: int, variant: str, tail: int
) -> tuple[int, int, int]:
    """Greedy steps until `tail` cells are face down: (visible, hidden, down) then."""
    legal = tables.LEGAL[variant]
    while bin(down).count("1") > tail:
        cell = (down & -down).bit_length() - 1
        shift = 4 * cell
        value = (hidden >> shift) & 0xF
        hidden &= ~(0xF << shift)
        _, step = legal[cell][greedy_push_index(visible, cell, value, variant)]
        visible = bits.push_grid(visible, step, value)
        hidden = bits.push_grid(hidden, step, 0)
        down = bits.push_face_down(down, step)
    return visible, hidden, down


def worlds(rng: random.Random, counts: list[int], down: int) -> list[int]:
    """PIMC_SAMPLES hidden words: the unseen cards drawn without replacement onto `down`."""
    pool = [v for v in VALUES for _ in range(counts[v - 1])]
    cells = [c for c in range(16) if (down >> c) & 1]
    out = []
    for _ in range(PIMC_SAMPLES):
        drawn = rng.sample(pool, len(cells))
        out.append(sum(v << (4 * c) for v, c in zip(drawn, cells, strict=True)))
    return out


def pimc_reveal(rng: random.Random, grid: int, down: int, counts: list[int], variant: str) -> int:
    """pimc's reveal: the cell whose reveal, then greedy, scores least over the worlds."""
    sampled = worlds(rng, counts, down)
    best, best_cell = math.inf, -1
    for cell in (c for c in range(16) if (down >> c) & 1):
        total = 0
        for hidden in sampled:
            total += greedy_rollout_from(grid, hidden, down, cell, variant)
        if total < best:
            best, best_cell = total, cell
    return best_cell


def greedy_rollout_from(grid: int, hidden: int, down: int, cell: int, variant: str) -> int:
    """Reveal `cell` in this world, push greedily, then greedy to the end."""
    shift = 4 * cell
    value = (hidden >> shift) & 0xF
    hidden &= ~(0xF << shift)
    _, step = tables.LEGAL[variant][cell][greedy_push_index(grid, cell, value, variant)]
    return greedy_rollout(
        bits.push_grid(grid, step, value),
        bits.push_grid(hidden, step, 0),
        bits.push_face_down(down & ~(1 << cell), step),
        variant,
    )


def pimc_push(
    rng: random.Random, grid: int, down: int, cell: int, value: int, counts: list[int], variant: str
) -> int:
    """pimc's push of `value` into `cell` (counts: the unseen cards once `value` is out)."""
    rest = down & ~(1 << cell)
    sampled = worlds(rng, counts, rest)
    best, best_index = math.inf, 0
    for index, (_, step) in enumerate(tables.LEGAL[variant][cell]):
        visible = bits.push_grid(grid, step, value)
        after = bits.push_face_down(rest, step)
        total = sum(
            greedy_rollout(visible, bits.push_grid(hidden, step, 0), after, variant)
            for hidden in sampled
        )
        if total < best:
            best, best_index = total, index
    return best_index


# exact values of first steps


def new_game(position: UnknownPosition) -> _Game:
    """The search of solve() (compiled where solve() would compile), kept for its memo."""
    deadline = Deadline(3600.0)
    compiled = len(position.face_down) >= 3 and fits(position) and available("numba")
    if compiled:
        return CompiledGame(position, deadline, prune=True)
    return _Game(position, deadline, prune=True)


def first_step_value(game: _Game, cell: int, push_of: Callable[[int], int]) -> int:
    """Σ_v count(v) · W(after revealing `cell` and pushing v by push_of(v)), W scaled as the
    search's (U6): the exact expected value of that first step, then optimal play."""
    grid, down = game.start, game.start_down
    total = 0
    for value in game.values():
        count = game.counts[value - 1]
        game.counts[value - 1] -= 1
        _, step = game.legal[cell][push_of(value)]
        total += count * game.expected(
            bits.push_grid(grid, step, value), bits.push_face_down(down, step)
        )
        game.counts[value - 1] += 1
    return total


def choice_losses(position: UnknownPosition, rng: random.Random) -> dict[str, float]:
    game = new_game(position)
    grid, down = game.start, game.start_down
    scale = falling(position.unseen_total, len(position.face_down))
    optimum = game.expected(grid, down)
    greedy_cell = position.face_down[0]
    greedy = first_step_value(
        game,
        greedy_cell,
        lambda v: greedy_push_index(grid, greedy_cell, v, position.variant),
    )
    counts = list(position.unseen)
    pimc_cell = pimc_reveal(rng, grid, down, counts, position.variant)

    def pimc_of(value: int) -> int:
        counts[value - 1] -= 1
        index = pimc_push(rng, grid, down, pimc_cell, value, counts, position.variant)
        counts[value - 1] += 1
        return index

    pimc = first_step_value(game, pimc_cell, pimc_of)
    policy = greedy_values(position).expected
    return {
        "optimum": float(Fraction(optimum, scale)),
        "greedy": float(Fraction(greedy - optimum, scale)),
        "pimc": float(Fraction(pimc - optimum, scale)),
        "greedy_policy": float(policy - Fraction(optimum, scale)),
    }


def summary(rows: list[dict[str, float]]) -> dict[str, Any]:
    out: dict[str, Any] = {"positions": len(rows)}
    out["optimum"] = interval([r["optimum"] for r in rows])
    for name in ("greedy", "pimc", "greedy_policy"):
        losses = [r[name] for r in rows]
        out[name] = interval(losses) | {
            "optimal_share": round(sum(1 for x in losses if x <= 1e-12) / len(losses), 4)
        }
    return out


def choices_part(options: argparse.Namespace, say: Callable[[str], None]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for variant, ks in (("slide", options.slide_k), ("eject", options.eject_k)):
        if not ks:
            continue
        rng = random.Random(f"{options.seed}-choices-{variant}")
        by_k: dict[int, list[dict[str, float]]] = {k: [] for k in ks}
        began = time.perf_counter()
        for index in range(options.positions):
            k = ks[index % len(ks)]
            position = drawn_position(rng, k, variant)
            by_k[k].append(choice_losses(position, rng))
            if (index + 1) % 50 == 0:
                say(
                    f"{variant}: {index + 1}/{options.positions} positions, "
                    f"{time.perf_counter() - began:.0f} s"
                )
        result[variant] = {
            "by_k": {str(k): summary(rows) for k, rows in by_k.items() if rows},
            "all": summary([row for rows in by_k.values() for row in rows]),
            "seconds": round(time.perf_counter() - began, 1),
        }
    return result


# the 16-step solitaire


def solitaire_deal(rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.sample(DECK, 16))


def greedy_play(deal: tuple[int, ...], variant: str, tail: int) -> tuple[int, int, int]:
    """Greedy on a dealt grid until `tail` cells are face down: (visible, hidden, down)."""
    return greedy_steps(0, bits.pack(deal), 0xFFFF, variant, tail)


def tail_value(visible: int, variant: str) -> float:
    """U6's exact expected value from a greedy-played grid with a few `?` cells left."""
    values = bits.unpack(visible)
    position = UnknownPosition(grid=tuple(values), unseen=deck_less(values), variant=variant)
    game = new_game(position)
    scale = falling(position.unseen_total, len(position.face_down))
    return float(Fraction(game.expected(game.start, game.start_down), scale))


GUARD_SECONDS = 600.0
"""A deal's search stops at its node limit; this clock only guards against a runaway: a deal
it stops is counted (`timed_out`), since its figure would then depend on the machine."""


def perfect_bound(deal: tuple[int, ...], variant: str, nodes: int) -> tuple[int, bool, bool]:
    """A lower bound on the deal's perfect-information optimum, whether it is the optimum
    itself (proved by the solver within `nodes` node expansions), and whether the guard's
    clock stopped the search instead."""
    puzzle = make_puzzle(deal, variant=variant)
    floor = bounds.start_key(puzzle) // KEY_CARDS
    if nodes <= 0:
        return floor, False, False
    guard = Deadline(GUARD_SECONDS)
    found = minimum(puzzle, deadline=guard, nodes=nodes)
    if found.proved_optimal:
        return found.points, True, False
    return floor, False, guard.expired()


def solitaire_part(options: argparse.Namespace, say: Callable[[str], None]) -> dict[str, Any]:
    variant = "slide"
    rng = random.Random(f"{options.seed}-solitaire")
    greedy, hybrid, floors, lower = [], [], [], []
    proved = timed_out = 0
    began = time.perf_counter()
    for index in range(options.deals):
        deal = solitaire_deal(rng)
        visible, hidden, down = greedy_play(deal, variant, 0)
        greedy.append(float(bits.score(visible)[0]))
        tail_visible, _, _ = greedy_play(deal, variant, options.tail)
        hybrid.append(tail_value(tail_visible, variant))
        puzzle = make_puzzle(deal, variant=variant)
        floors.append(float(bounds.start_key(puzzle) // KEY_CARDS))
        if index < options.pi_deals:
            bound, exact, stopped = perfect_bound(deal, variant, options.pi_nodes)
            lower.append(float(bound))
            proved += exact
            timed_out += stopped
        if (index + 1) % 25 == 0:
            say(
                f"solitaire: {index + 1}/{options.deals} deals, {time.perf_counter() - began:.0f} s"
            )

    def one_sided(sample: list[float], sign: int) -> dict[str, float]:
        figures = interval(sample)
        figures["limit95"] = round(figures["mean"] + sign * Z95_ONE_SIDED * figures["se"], 4)
        return figures

    return {
        "variant": variant,
        "deals": options.deals,
        "upper": {
            "greedy": one_sided(greedy, +1),
            f"greedy+exact(tail {options.tail})": one_sided(hybrid, +1),
        },
        "lower": {
            "start_bound": one_sided(floors, -1) | {"deals": len(floors)},
            "perfect_information": one_sided(lower, -1)
            | {
                "deals": len(lower),
                "proved": proved,
                "nodes": options.pi_nodes,
                "timed_out": timed_out,
            }
            if lower
            else None,
        },
        "seconds": round(time.perf_counter() - began, 1),
    }


def ks(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("choices", "solitaire", "all"), default="all")
    parser.add_argument("--positions", type=int, default=1000, help="per push rule")
    parser.add_argument("--slide-k", type=ks, default=[1, 2, 3, 4])
    parser.add_argument("--eject-k", type=ks, default=[1, 2, 3])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--tail", type=int, default=3, help="greedy+exact: exact from here")
    parser.add_argument("--pi-deals", type=int, default=200, help="deals given to the solver")
    parser.add_argument(
        "--pi-nodes", type=int, default=2_000_000, help="the solver's node limit per deal"
    )
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    out: dict[str, Any] = {"seed": options.seed}
    if options.part in ("choices", "all"):
        out["choices"] = choices_part(options, say)
    if options.part in ("solitaire", "all"):
        out["solitaire"] = solitaire_part(options, say)
    print(json.dumps(out, indent=None if options.json else 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
