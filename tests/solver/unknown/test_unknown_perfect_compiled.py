"""Perfect information on the compiled kernel (proofs/_unknown/perfect_compiled.py,
perfect_kernel.py) against the Python layouts (proofs/_unknown/perfect.py), which
test_unknown_search.py pins to the brute force and to the puzzle search on every deal (U9);
and each of the kernel's two savings as the property that makes it exact."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_unknown_search import positions

from dekal import bits
from dekal.proofs._unknown.deals import deals
from dekal.proofs._unknown.perfect import known_optima, layouts
from dekal.proofs._unknown.position import UNKNOWN, UnknownPosition, make_unknown
from dekal.proofs.limits import Deadline

pytest.importorskip("numba")
np = pytest.importorskip("numpy")

FEW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(positions(most_unknown=3))
def test_the_compiled_known_optima_are_the_python_ones_U9_U10(position: UnknownPosition) -> None:
    compiled = known_optima(position, compiled=True)
    python = known_optima(position, compiled=False)
    assert (compiled.mean, compiled.worst) == (python.mean, python.worst)


@FEW
@given(positions(most_unknown=3))
def test_the_compiled_layouts_are_the_python_layouts_U9(position: UnknownPosition) -> None:
    from dekal.proofs._unknown.perfect_compiled import compiled_layouts

    faces, numbers = compiled_layouts(position, Deadline(60.0))
    found = sorted(zip(faces.tolist(), numbers.tolist(), strict=True))
    assert found == layouts(position)


@FEW
@given(positions(most_unknown=3), st.randoms(use_true_random=False))
def test_fixed_bounds_every_deals_points_from_below_S1_S2(
    position: UnknownPosition, rng: random.Random
) -> None:
    """The scan's stop rule: a layout's `fixed` is ≤ its points under any deal, markers
    included (the face-up cards no card touches score the same whatever the deal is)."""
    from dekal.proofs._unknown import perfect_kernel as kernel
    from dekal.proofs._unknown.perfect import _placed

    found = layouts(position)[:200]
    k = len(position.face_down)
    faces = np.array([f for f, _ in found], dtype=np.uint64)
    numbers = np.array([n for _, n in found], dtype=np.uint64)
    fixed, _ = kernel.fixed_and_shifts(faces, numbers, k)
    for row, layout in enumerate(found):
        marks = iter(rng.sample(range(11, 16), 5))  # distinct, as a reduced deal's are
        deal = tuple(next(marks) if rng.random() < 0.3 else rng.randint(1, 10) for _ in range(k))
        assert int(fixed[row]) <= bits.score(_placed(layout, deal))[0] - sum(
            v for v in deal if v > 10
        )


@FEW
@given(positions(most_unknown=3), st.randoms(use_true_random=False))
def test_a_groups_bound_is_below_every_deal_of_the_group_S1_S2(
    position: UnknownPosition, rng: random.Random
) -> None:
    """The grouped scan's rule: `fixed` plus the loose face-up cards of the values a deal
    does not hold is ≤ the layout's points under that deal, markers included."""
    from dekal.proofs._unknown import perfect_kernel as kernel
    from dekal.proofs._unknown.perfect import _placed

    found = layouts(position)[:200]
    k = len(position.face_down)
    faces = np.array([f for f, _ in found], dtype=np.uint64)
    numbers = np.array([n for _, n in found], dtype=np.uint64)
    fixed, _ = kernel.fixed_and_shifts(faces, numbers, k)
    sums = kernel.loose_sums(faces, numbers)
    bounds = np.empty(len(found), dtype=np.int64)
    for row, layout in enumerate(found):
        marks = iter(rng.sample(range(11, 16), 5))
        deal = tuple(next(marks) if rng.random() < 0.3 else rng.randint(1, 10) for _ in range(k))
        kernel.group_bounds(fixed, sums, sum(1 << v for v in set(deal) if v <= 10), bounds)
        points = bits.score(_placed(layout, deal))[0] - sum(v for v in deal if v > 10)
        assert int(fixed[row]) <= int(bounds[row]) <= points


@FEW
@given(positions(most_unknown=4).filter(lambda p: len(p.face_down) >= 3))
def test_the_grouped_scan_is_the_plain_scan_U9(position: UnknownPosition) -> None:
    """Every deal's least by the grouped scan (thresholds, then every layout) is the plain
    scan's over every layout sorted by `fixed`."""
    from dekal.proofs._unknown import perfect_kernel as kernel
    from dekal.proofs._unknown.perfect_compiled import compiled_layouts, compiled_optima, reduced
    from dekal.proofs._unknown.search import falling

    faces, numbers = compiled_layouts(position, Deadline(60.0))
    k = len(position.face_down)
    fixed, shifts = kernel.fixed_and_shifts(faces, numbers, k)
    order = np.argsort(fixed, kind="stable")
    keys, rows = reduced(position)
    table = np.array(keys, dtype=np.int64).reshape(len(keys), k)
    marks = np.where(table > 10, table, 0).sum(axis=1).astype(np.int64)
    least = kernel.least_scores(faces[order], shifts[order], fixed[order], table, marks)
    plain = sum((int(least[which]) + extra) * weight for which, extra, weight in rows)
    grouped = compiled_optima(position, Deadline(60.0))
    scale = falling(position.unseen_total, k)
    assert grouped.mean * scale == plain
    assert grouped.worst == max(int(least[which]) + extra for which, extra, _ in rows)


@FEW
@given(positions(most_unknown=3))
def test_a_card_no_other_card_or_face_up_card_equals_scores_its_value_S1(
    position: UnknownPosition,
) -> None:
    """The deals' reduction: such a card, replaced by a marker, changes the points of every
    layout by exactly its value less the marker's."""
    from dekal.proofs._unknown.perfect import _placed

    face_up = {v for v in position.grid if v != UNKNOWN}
    for deal, _ in deals(position)[:20]:
        for card, value in enumerate(deal):
            if value in face_up or deal.count(value) > 1:
                continue
            marked = (*deal[:card], 15, *deal[card + 1 :])
            for layout in layouts(position)[:50]:
                plain = bits.score(_placed(layout, deal))[0]
                assert bits.score(_placed(layout, marked))[0] - 15 + value == plain


def test_reduced_deals_are_fewer_and_weigh_every_ordered_draw_U2() -> None:
    from dekal.proofs._unknown.perfect_compiled import reduced
    from dekal.proofs._unknown.search import falling

    position = make_unknown("1?11/?231/2231/2222")  # 1, 2, 3 face up: seven values lone
    keys, rows = reduced(position)
    assert len(keys) < len(rows) == len(deals(position))
    assert sum(weight for _, _, weight in rows) == falling(position.unseen_total, 2)


class _NoTimeLeft(Deadline):
    """A clock that never expires but has no time left for a level that takes any."""

    def left(self) -> float:
        return 1e-12

    def expired(self) -> bool:
        return False


def test_a_layouts_level_that_cannot_end_in_time_is_not_begun() -> None:
    """A level holds the interpreter until it ends (no watchdog can answer meanwhile): the
    second is refused from the first's pace before it starts, and OutOfTime is raised."""
    from dekal.proofs._unknown.perfect_compiled import compiled_layouts
    from dekal.proofs._unknown.search import OutOfTime

    position = make_unknown("12??/4567/89T1/2345")
    compiled_layouts(position, Deadline(60.0))  # both levels fit a real clock
    with pytest.raises(OutOfTime):
        compiled_layouts(position, _NoTimeLeft(60.0))


def test_layouts_past_the_memory_bound_are_refused_before_it_is_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from dekal.proofs._unknown import perfect_compiled as perfect
    from dekal.proofs._unknown.search import OutOfTime

    monkeypatch.setattr(perfect, "MOST_STATES", 31)  # the first level asks for 2 · 16
    with pytest.raises(OutOfTime):
        perfect.compiled_layouts(make_unknown("12??/4567/89T1/2345"), Deadline(60.0))
