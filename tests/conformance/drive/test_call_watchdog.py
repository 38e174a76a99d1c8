"""A deadline for a call in the caller's own thread (dekal.conformance.drive._call_watchdog), and
the engines driven that way (dekal.conformance.drive._direct_engine): every request keeps its
deadline (spec/protocol.md) without a worker thread."""

from __future__ import annotations

import contextlib
import threading
import time

import pytest
from test_hostile_engines import Spinning  # a `score` that loops in Python code

from dekal.conformance.drive._call_watchdog import POLL, Overdue, Watchdog
from dekal.conformance.drive._direct_engine import DirectEngine, bundled_engine
from dekal.conformance.drive._engine_link import EngineError

SLACK = 2.0
"""Seconds allowed beyond deadline + POLL on a busy machine."""


def spin(seconds: float) -> int:
    """Python work for `seconds` (interruptible at any instruction)."""
    end, turns = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        turns += 1
    return turns


def test_a_call_within_its_deadline_returns_its_value() -> None:
    watchdog = Watchdog()
    try:
        assert watchdog.call(lambda: 6 * 7, 5.0) == 42
    finally:
        watchdog.close()


def test_a_call_looping_past_its_deadline_is_interrupted_soon_after_it() -> None:
    watchdog = Watchdog()
    began = time.monotonic()
    try:
        with pytest.raises(Overdue):
            watchdog.call(lambda: spin(60), 0.2)
    finally:
        watchdog.close()
    assert time.monotonic() - began < 0.2 + POLL + SLACK


def test_a_call_returning_after_its_deadline_is_overdue_even_between_two_looks() -> None:
    watchdog = Watchdog()
    try:
        with pytest.raises(Overdue):
            watchdog.call(lambda: spin(0.01), 0.001)  # shorter than POLL: no look in between
    finally:
        watchdog.close()


def test_an_engine_that_catches_exception_cannot_swallow_its_deadline() -> None:
    def stubborn() -> str:
        while True:
            try:
                spin(60)
            except Exception:  # noqa: BLE001 - the point: Overdue is not an Exception
                continue

    watchdog = Watchdog()
    try:
        with pytest.raises(Overdue):
            watchdog.call(stubborn, 0.1)
    finally:
        watchdog.close()


def test_nothing_lands_in_the_caller_after_a_call_that_beat_the_watchdog() -> None:
    """A call ending right at its deadline: the interruption, if sent, is cancelled or is
    the call's own Overdue; it never lands in the caller's code afterwards."""
    watchdog = Watchdog()
    try:
        for _ in range(10):
            with contextlib.suppress(Overdue):  # in time or not: either is right here
                watchdog.call(lambda: spin(POLL), POLL)
            spin(2 * POLL)  # an Overdue still pending would be raised here and fail the test
    finally:
        watchdog.close()


def test_a_closed_watchdog_thread_ends() -> None:
    before = set(threading.enumerate())
    watchdog = Watchdog()
    watchdog.call(lambda: None, 1.0)
    (thread,) = set(threading.enumerate()) - before
    assert thread.name == "call watchdog"
    watchdog.close()
    thread.join(POLL * 4 + SLACK)
    assert not thread.is_alive()


def test_a_watchdog_closed_and_used_again_keeps_one_thread() -> None:
    """An engine's restart closes its watchdog and calls through it again at once."""
    before = set(threading.enumerate())
    watchdog = Watchdog()
    try:
        for _ in range(5):
            watchdog.call(lambda: None, 1.0)
            watchdog.close()
        watchdog.call(lambda: None, 1.0)
        assert len(set(threading.enumerate()) - before) == 1
        with pytest.raises(Overdue):  # and that one thread still keeps the deadline
            watchdog.call(lambda: spin(60), 0.2)
    finally:
        watchdog.close()


def test_a_direct_engine_request_past_its_deadline_is_an_engine_error_and_it_goes_on() -> None:
    with DirectEngine(Spinning, "spinning", timeout=5) as engine:
        with pytest.raises(EngineError, match="no reply within 0.2 s to 'score'"):
            engine.request({"cmd": "score", "grid": "1111/1111/1111/1111"}, 0.2)
        engine.restart()
        pushes = {"cmd": "pushes", "grid": "1111/1.11/1111/1111", "variant": "slide"}
        assert engine.request(pushes, 5)["ok"]


def test_the_bundled_engines_are_driven_in_the_callers_thread() -> None:
    before = threading.active_count()
    with bundled_engine("ref") as engine:
        assert engine.request({"cmd": "score", "grid": "1111/1111/1111/1111"}, 5)["ok"]
        assert isinstance(engine, DirectEngine)
    assert threading.active_count() <= before + 1  # at most the watchdog, ending
