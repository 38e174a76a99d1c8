"""The optimized engine (engine/) against the reference (dekal_ref/), piece by piece.

Kernels on grid words, push tables, the batch path, symmetries and the fast game loop are
each compared with the reference on generated inputs (grids over small alphabets too, so that
big equal groups appear). Whole games in lock-step are in test_state_machine.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dekal_ref
from dekal import batch, bits, fast, simulate, symmetry
from dekal.engines import ENGINE_NAMES, get_engine
from dekal.tables import ALL_STEPS, CHAIN, LEGAL, STEP_INDEX, VARIANTS
from dekal_ref.errors import IllegalAction
from dekal_ref.notation import Push
from dekal_ref.push import apply_chain, push_chain
from dekal_ref.state import Rules


@st.composite
def grids(draw: st.DrawFn, hole: bool | None = None) -> tuple[int, ...]:
    """Sixteen values; an alphabet of 1–3 values half the time (big equal groups)."""
    alphabet = draw(
        st.one_of(
            st.just(list(range(1, 11))),
            st.lists(st.integers(1, 10), min_size=1, max_size=3, unique=True),
        )
    )
    values = draw(st.lists(st.sampled_from(alphabet), min_size=16, max_size=16))
    with_hole = draw(st.booleans()) if hole is None else hole
    if with_hole:
        values[draw(st.integers(0, 15))] = 0
    return tuple(values)


@given(grids())
def test_score_kernels_match_the_reference(grid: tuple[int, ...]) -> None:
    expected = dekal_ref.score_grid(grid)
    word = bits.pack(grid)
    assert bits.score(word) == (expected.points, expected.remaining)
    assert bits.score_points(word) == expected.points
    assert bits.score_remaining(word) == expected.remaining
    assert bits.compact(bits.cancelled(word)) == sum(1 << cell for cell in expected.cancelled)
    assert fast.score_grid(grid) == expected
    assert fast.cancelled_cells(grid) == dekal_ref.cancelled_cells(grid)


def test_compact_and_expand_are_inverse_on_every_cell_set() -> None:
    every = np.arange(1 << 16, dtype=np.uint64)
    spread = bits.expand(every)  # type: ignore[type-var]
    assert (bits.compact(spread) == every).all()  # type: ignore[type-var]
    reference = np.zeros(1 << 16, dtype=np.uint64)
    for cell in range(16):
        reference |= ((every >> np.uint64(cell)) & np.uint64(1)) << np.uint64(4 * cell)
    assert (spread == reference).all()


def test_sym_wrapper_evaluates_like_ints() -> None:
    """The z3 wrapper runs the same kernels: on constants, z3 must compute what ints compute."""
    z3 = pytest.importorskip("z3")
    rng = random.Random(3)
    for _ in range(20):
        grid = [rng.choice([1, 2, 9, 10]) for _ in range(16)]
        word = bits.pack(grid)
        symbolic = bits.sym(z3.BitVecVal(word, 64))
        for kernel in (bits.cancelled, bits.occupied, bits.score_points, bits.score_remaining):
            assert z3.simplify(kernel(symbolic).bv).as_long() == kernel(word)
        assert z3.simplify(bits.lshr(z3.BitVecVal(word, 64), 60)).as_long() == word >> 60


@pytest.mark.parametrize("variant", VARIANTS)
def test_push_tables_match_the_reference(variant: str) -> None:
    counts = {"slide": (2, 3, 4), "eject": (14, 15, 16)}[variant]
    for hole in range(16):
        pushes = [push for push, _ in LEGAL[variant][hole]]
        assert pushes == dekal_ref.legal_pushes(hole, variant) == fast.legal_pushes(hole, variant)
        corner_edge_inner = (hole in (0, 3, 12, 15)) + (hole in (5, 6, 9, 10)) * 2
        assert len(pushes) == {0: counts[1], 1: counts[0], 2: counts[2]}[corner_edge_inner]
        for push in pushes:
            assert list(CHAIN[variant][hole][push]) == push_chain(hole, push, variant)


@given(grids(hole=True), st.sampled_from(VARIANTS), st.integers(1, 10), st.data())
def test_push_kernel_matches_the_reference(
    grid: tuple[int, ...], variant: str, card: int, data: st.DataObject
) -> None:
    hole = grid.index(0)
    push, step = data.draw(st.sampled_from(LEGAL[variant][hole]))
    expected = dekal_ref.push_card(grid, push, card, variant)
    assert bits.unpack(bits.push_grid(bits.pack(grid), step, card)) == expected
    assert fast.push_card(grid, push, card, variant) == expected
    # face-down cells travel with their card: push the identity of the cards and compare
    down = data.draw(st.integers(0, 0xFFFF)) & ~(1 << hole)
    tagged = tuple(None if cell == hole else cell for cell in range(16))
    moved = apply_chain(tagged, CHAIN[variant][hole][push], None)
    expected_down = sum(
        1 << i for i, origin in enumerate(moved) if origin is not None and down >> origin & 1
    )
    assert bits.push_face_down(down, step) == expected_down


@given(
    grids(),
    st.sampled_from(VARIANTS),
    st.sampled_from(["L", "R", "T", "B"]),
    st.sampled_from([None, 0, 1, 2, 3, 4, 5]),
)
def test_refused_pushes_name_the_same_rule(
    grid: tuple[int, ...], variant: str, side: str, line: int | None
) -> None:
    move = Push(side, line)
    outcomes = []
    for engine in (dekal_ref, fast):
        try:
            outcomes.append(engine.push_card(grid, move, 4, variant))
        except IllegalAction as error:
            outcomes.append(error.rule)
    assert outcomes[0] == outcomes[1]


def test_batch_path_matches_the_scalar_kernels() -> None:
    rng = random.Random(11)
    rows = [
        [rng.choice([1, 2, 3] if k % 2 else range(1, 11)) for _ in range(16)] for k in range(3000)
    ]
    words = batch.pack_many(rows)
    assert (batch.unpack_many(words) == np.array(rows)).all()
    points, remaining = batch.score_many(words)
    cancelled = batch.cancelled_many(words)
    for k, row in enumerate(rows):
        expected = dekal_ref.score_grid(tuple(row))
        assert (points[k], remaining[k]) == (expected.points, expected.remaining)
        assert int(cancelled[k]) == sum(1 << cell for cell in expected.cancelled)
    holed, step_ids, cards, expected_grids = [], [], [], []
    for row in rows[:1000]:
        variant, hole = rng.choice(VARIANTS), rng.randrange(16)
        row = row.copy()
        row[hole] = 0
        push, step = rng.choice(LEGAL[variant][hole])
        card = rng.randint(1, 10)
        holed.append(row)
        step_ids.append(STEP_INDEX[step])
        cards.append(card)
        expected_grids.append(dekal_ref.push_card(tuple(row), push, card, variant))
    after, _ = batch.push_many(batch.pack_many(holed), np.array(step_ids), np.array(cards))
    assert (batch.unpack_many(after) == np.array(expected_grids)).all()
    assert len(ALL_STEPS) == len(set(ALL_STEPS))


@given(grids(), st.integers(0, 0xFFFF), st.sampled_from(VARIANTS))
def test_scores_and_pushes_are_invariant_under_the_symmetries(
    grid: tuple[int, ...], down: int, variant: str
) -> None:
    word = bits.pack(grid)
    canonical = symmetry.canonical_grid(word, down)
    for s in symmetry.SYMMETRIES:
        image = symmetry.transform_word(word, s)
        assert bits.unpack(image) == tuple(grid[symmetry.CELL_MAP[s].index(c)] for c in range(16))
        assert bits.score(image) == bits.score(word)
        image_down = symmetry.transform_mask(down, s)
        assert symmetry.canonical_grid(image, image_down)[:2] == canonical[:2]
        if 0 in grid:
            hole = grid.index(0)
            images = [symmetry.transform_push(push, s) for push, _ in LEGAL[variant][hole]]
            assert sorted(images) == sorted(
                dekal_ref.legal_pushes(symmetry.CELL_MAP[s][hole], variant)
            )
            for push, _ in LEGAL[variant][hole]:
                after = bits.pack(dekal_ref.push_card(grid, push, 7, variant))
                moved = dekal_ref.push_card(
                    bits.unpack(image), symmetry.transform_push(push, s), 7, variant
                )
                assert bits.pack(moved) == symmetry.transform_word(after, s)


def test_equal_values_in_the_centre_are_one_take() -> None:
    """Three 6s in the centre: the taker has one choice, not three."""
    cards = [value for value in range(1, 11) for _ in range(10)]
    for _ in range(3):
        cards.remove(6)
    grids = tuple(tuple([6, *cards[15 * seat : 15 * seat + 15]]) for seat in range(3))
    deal = dekal_ref.Deal(grids, tuple(cards[45:]))
    for engine in (dekal_ref, fast):
        state = engine.new_game(Rules(players=3, first="chosen"), deal, 0)
        for seat in range(3):
            state = engine.reveal(state, seat, 0)
        assert [str(action) for action in engine.legal_actions(state)] == ["take 0 6"]


@pytest.mark.parametrize("seed", range(12))
def test_fast_loop_plays_the_same_random_game_as_both_apis(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    rules = Rules(
        players=players,
        push=rng.choice(VARIANTS),
        first=rng.choice(["lowest", "chosen"]),
        threshold=rng.choice([None, 70]),
    )
    first = rng.randrange(players) if rules.first == "chosen" else None
    finals = [
        get_engine(name).format_position(
            simulate.play_random_via(
                get_engine(name),
                rules,
                simulate.deal_stream(seed, players),
                first,
                random.Random(seed),
            )
        )
        for name in ENGINE_NAMES
    ]
    loop = simulate.play_random(
        rules, simulate.deal_stream(seed, players), first, random.Random(seed)
    )
    assert finals[0] == finals[1] == fast.format_position(loop)
    assert fast.ranking(loop) == dekal_ref.ranking(dekal_ref.parse_position(finals[1]))


def test_unknown_engine_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown engine"):
        get_engine("turbo")


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_first_player_ties_agree(players: int) -> None:
    """F1–F2 on many deals where seats reveal their lowest cards, so ties (and, with 6
    players and a 4-card pile, an exhausted pile: the ruling) happen often."""
    rules = Rules(players=players)
    exhausted = 0
    for seed in range(150):
        deal = dekal_ref.seeded_deal(seed, players)
        states = [engine.new_game(rules, deal) for engine in (dekal_ref, fast)]
        for seat, grid in enumerate(deal.grids):
            cell = grid.index(min(grid))
            states = [
                e.reveal(s, seat, cell) for e, s in zip((dekal_ref, fast), states, strict=True)
            ]
        assert dekal_ref.format_position(states[0]) == fast.format_position(states[1])
        exhausted += len(states[0].pile) < players
    assert players < 6 or exhausted > 0  # the F2 ruling's case did occur


@pytest.mark.parametrize("seed", range(6))
def test_a_match_ends_exactly_at_the_threshold(seed: int) -> None:
    """S4: a round that brings a total to exactly the threshold ends the match (≥, not >).

    The same random first round is played three times: to learn its highest total T, then
    with threshold T (the match must be over) and T + 1 (the next round must follow)."""
    players = 2 + seed % 5

    def first_round(threshold: int) -> list[object]:
        rules = Rules(players=players, threshold=threshold)
        finals = []
        for engine in (dekal_ref, fast):
            state = engine.new_game(rules, dekal_ref.seeded_deal(seed, players))
            draw = random.Random(seed).random
            while state.phase not in (dekal_ref.Phase.OVER, dekal_ref.Phase.NEXT_ROUND):
                legal = engine.legal_actions(state)
                state = engine.apply(state, legal[int(draw() * len(legal))])
            finals.append(state)
        return finals

    top = max(first_round(10_000)[0].totals)  # type: ignore[attr-defined]
    for threshold, phase in ((top, dekal_ref.Phase.OVER), (top + 1, dekal_ref.Phase.NEXT_ROUND)):
        finals = first_round(threshold)
        assert [s.phase for s in finals] == [phase, phase]  # type: ignore[attr-defined]
        assert dekal_ref.format_position(finals[0]) == fast.format_position(finals[1])  # type: ignore[arg-type]


@given(
    st.integers(0, 2**32), st.integers(0, 60), st.sampled_from(list(symmetry.SYMMETRIES)), st.data()
)
def test_canonical_key_forgets_the_symmetries_of_a_grid(
    seed: int, moves: int, s: int, data: st.DataObject
) -> None:
    """Positions that differ by a rotation or reflection of one seat's grid (its face-down
    cells and pending pick moved along) share a canonical key; a different centre does not."""
    rng = random.Random(seed)
    state = fast.new_game(
        Rules(players=3, push=rng.choice(VARIANTS)), dekal_ref.seeded_deal(seed, 3)
    )
    for _ in range(moves):
        state = fast.apply(state, rng.choice(fast.legal_actions(state)))
    seat = data.draw(st.integers(0, 2))
    pick = state.picks[seat]
    image = state._replace(
        grids=tuple(
            symmetry.transform_word(w, s) if k == seat else w for k, w in enumerate(state.grids)
        ),
        down=tuple(
            symmetry.transform_mask(m, s) if k == seat else m for k, m in enumerate(state.down)
        ),
        picks=tuple(
            symmetry.CELL_MAP[s][p] if k == seat and p is not None else p
            for k, p in enumerate(state.picks)
        ),
    )
    assert pick is None or image.picks[seat] == symmetry.CELL_MAP[s][pick]
    assert symmetry.canonical_key(image) == symmetry.canonical_key(state)
    assert [bits.score(w) for w in image.grids] == [bits.score(w) for w in state.grids]
    other = state._replace(centre=(*state.centre, 11))
    assert symmetry.canonical_key(other) != symmetry.canonical_key(state)
    assert hash(state) == hash(fast.parse_position(fast.format_position(state)))


def test_fast_loop_refuses_a_bad_set_up_like_new_game() -> None:
    deal = dekal_ref.seeded_deal(3, 3)
    cases = [
        (Rules(players=3, first="chosen"), None, "F3"),
        (Rules(players=3), 0, "F1"),
        (Rules(players=4, first="chosen"), 0, "M2"),
    ]
    for rules, first, rule in cases:
        with pytest.raises(IllegalAction) as refused:
            simulate.play_random(rules, iter([deal]), first, random.Random(0))
        assert refused.value.rule == rule
        with pytest.raises(IllegalAction) as also:
            dekal_ref.new_game(rules, deal, first)
        assert also.value.rule == rule
