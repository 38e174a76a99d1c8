"""Precomputed push tables: every legal push into every hole, for both variants (P1, P2).

Built once at import from the geometry of the square (not from dekal_ref, so the two engines
stay independent): for a variant and a hole, LEGAL[variant][hole] lists the legal pushes in
notation order (sides L, R, T, B; eject lines 1–4), each with its PushStep of masks and shifts
(see dekal.bits.PushStep). Legal-move generation is one table read.

Counts (the spec's P1/P2 facts, checked in tests): slide gives 2 pushes into a corner hole,
3 into an edge hole, 4 into an inner hole (48 in all); eject adds both ends of every full line.
"""

from __future__ import annotations

from dekal.bits import CELLS, MASK16, MASK64, NIBBLE, PushStep
from dekal_ref.notation import Push

SIZE = 4
SIDES = ("L", "R", "T", "B")
VARIANTS = ("slide", "eject")


def line_cells(side: str, line: int) -> tuple[int, ...]:
    """The four cells of line 1–4 (a row for L/R, a column for T/B), in the order a card
    entering from `side` meets them."""
    index = line - 1
    if side == "L":
        return tuple(SIZE * index + k for k in range(SIZE))
    if side == "R":
        return tuple(SIZE * index + SIZE - 1 - k for k in range(SIZE))
    if side == "T":
        return tuple(SIZE * k + index for k in range(SIZE))
    return tuple(SIZE * (SIZE - 1 - k) + index for k in range(SIZE))


def own_line(side: str, hole: int) -> int:
    """The line number of the hole's row (for L/R) or column (for T/B)."""
    return hole // SIZE + 1 if side in ("L", "R") else hole % SIZE + 1


def chain_of(variant: str, hole: int, side: str, line: int) -> tuple[int, ...] | None:
    """The chain of a push (entry cell first, hole last), or None if the rules forbid it.

    Along the hole's line (P1, and P2 likewise) the chain runs from the entry edge to the
    hole, and an entry cell that IS the hole is forbidden. Along a full line (P2 only) the
    chain is the whole line, then the hole.
    """
    cells = line_cells(side, line)
    if hole in cells:
        position = cells.index(hole)
        return cells[: position + 1] if position > 0 else None
    if variant == "eject":
        return (*cells, hole)
    return None


def _nibbles(cells: list[int] | tuple[int, ...]) -> int:
    return sum(0xF << (NIBBLE * c) for c in cells)


def _bits(cells: list[int] | tuple[int, ...]) -> int:
    return sum(1 << c for c in cells)


def _up_down(distance_cells: int) -> tuple[int, int]:
    """A signed move of `distance_cells` cells as (left shift, right shift) in bits."""
    bits = NIBBLE * distance_cells
    return (bits, 0) if bits >= 0 else (0, -bits)


def step_of(chain: tuple[int, ...]) -> PushStep:
    """The masks and shifts that perform a chain (see dekal.bits.PushStep).

    Along one line every moving cell advances by the same distance (±1 cell along a row,
    ±4 along a column): one masked shift moves them all. Eject's full-line chain has one
    more hop, from the far end into the hole, of its own distance: the `drop` part.
    """
    hole = chain[-1]
    if len(chain) == SIZE + 1:  # eject along a full line: 4 line cells, then the hole
        straight = chain[:-2]
        dropped: tuple[int, ...] = (chain[-2],)
    else:
        straight = chain[:-1]
        dropped = ()
    move_up, move_down = _up_down(chain[1] - chain[0])
    drop_up, drop_down = _up_down(hole - dropped[0]) if dropped else (0, 0)
    on_chain = _nibbles(chain)
    return PushStep(
        entry=chain[0],
        keep=MASK64 ^ on_chain,
        move=_nibbles(straight),
        move_up=move_up,
        move_down=move_down,
        drop=_nibbles(dropped),
        drop_up=drop_up,
        drop_down=drop_down,
        keep16=MASK16 ^ _bits(chain),
        move16=_bits(straight),
        drop16=_bits(dropped),
        move_up16=move_up // NIBBLE,
        move_down16=move_down // NIBBLE,
        drop_up16=drop_up // NIBBLE,
        drop_down16=drop_down // NIBBLE,
    )


def _build() -> tuple[
    dict[str, tuple[tuple[tuple[Push, PushStep], ...], ...]],
    dict[str, tuple[dict[Push, PushStep], ...]],
    dict[str, tuple[dict[Push, tuple[int, ...]], ...]],
]:
    legal: dict[str, tuple[tuple[tuple[Push, PushStep], ...], ...]] = {}
    lookup: dict[str, tuple[dict[Push, PushStep], ...]] = {}
    chains: dict[str, tuple[dict[Push, tuple[int, ...]], ...]] = {}
    for variant in VARIANTS:
        per_hole: list[tuple[tuple[Push, PushStep], ...]] = []
        by_push: list[dict[Push, PushStep]] = []
        by_chain: list[dict[Push, tuple[int, ...]]] = []
        for hole in range(CELLS):
            moves: list[tuple[Push, PushStep]] = []
            index: dict[Push, PushStep] = {}
            chain_index: dict[Push, tuple[int, ...]] = {}
            for side in SIDES:
                lines = [own_line(side, hole)] if variant == "slide" else list(range(1, SIZE + 1))
                for line in lines:
                    chain = chain_of(variant, hole, side, line)
                    if chain is None:
                        continue
                    step = step_of(chain)
                    push = Push(side) if variant == "slide" else Push(side, line)
                    moves.append((push, step))
                    index[push] = step
                    chain_index[push] = chain
                    if variant == "slide":  # P1 also reads "L2" as "L" when row 2 holds the hole
                        index[Push(side, line)] = step
                        chain_index[Push(side, line)] = chain
            per_hole.append(tuple(moves))
            by_push.append(index)
            by_chain.append(chain_index)
        legal[variant] = tuple(per_hole)
        lookup[variant] = tuple(by_push)
        chains[variant] = tuple(by_chain)
    return legal, lookup, chains


LEGAL, STEP, CHAIN = _build()
"""LEGAL[variant][hole]: the legal (Push, PushStep) pairs in notation order.
STEP[variant][hole][push]: the PushStep of a legal push (slide also accepts the explicit own line).
CHAIN[variant][hole][push]: the chain of cells the step performs (for proofs and tests)."""

ALL_STEPS: tuple[PushStep, ...] = tuple(
    dict.fromkeys(
        step for variant in VARIANTS for hole in range(CELLS) for _, step in LEGAL[variant][hole]
    )
)
"""Every distinct PushStep, in a fixed order (the batch path indexes arrays by position)."""
STEP_INDEX: dict[PushStep, int] = {step: i for i, step in enumerate(ALL_STEPS)}
