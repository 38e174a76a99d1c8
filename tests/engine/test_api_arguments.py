"""The Python API refuses bad arguments at its boundary (issue 19; docs/contracts.md, "Python
API arguments"): a ValueError (or a subclass) that names the argument and the range allowed,
raised before any work. Never an IndexError, a ZeroDivisionError, a "math domain error", a
silent empty answer, or a job left to run without end.

Two parts: the refusals named in the issue, one test each; then a walker over the public
functions of dekal.bots, dekal.simulation and dekal.proofs that calls each with a valid
example of every argument but one whole-number argument made hostile, and checks the
contract (a new public function is walked without a test of its own, or must be listed in
NOT_WALKED with the reason).
"""

from __future__ import annotations

import importlib
import inspect
import random
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from dekal.bots import advise as advise_module
from dekal.bots.observation import Observation, legal_actions, observation_of
from dekal.bots.work import MAX_WORK, TooMuchWork
from dekal.proofs.limits import Deadline
from dekal.proofs.puzzle import make_puzzle
from dekal.simulation import stats
from dekal.simulation.games import MAX_GAMES, Setup, simulate
from dekal_ref.actions import apply
from dekal_ref.actions import legal_actions as reference_legal_actions
from dekal_ref.deal import seeded_deal
from dekal_ref.errors import IllegalAction
from dekal_ref.game import new_game
from dekal_ref.notation import parse_grid
from dekal_ref.state import GameState, Phase, Rules

SECONDS = 20  # a hostile call's time limit: far above any refusal, far below a run left going


@contextmanager
def at_most(seconds: int) -> Iterator[None]:
    """Fail (TimeoutError) a call that runs past `seconds`: a job the API should refuse."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: the argument was not bounded")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def a_position(players: int = 2, seed: int = 3, moves: int = 40) -> GameState:
    """A position some way into a round: seeded random legal moves."""
    state = new_game(Rules(players), seeded_deal(seed, players))
    rng = random.Random(seed)
    for _ in range(moves):
        if state.phase not in (Phase.REVEAL, Phase.TAKE, Phase.PUSH):
            break
        state = apply(state, rng.choice(reference_legal_actions(state)))
    return state


def a_view() -> Observation:
    return observation_of(a_position())


def deciding(view: Observation) -> int:
    if view.phase is Phase.REVEAL:
        return view.picked.index(False)
    assert view.to_act is not None
    return view.to_act


def names_the_argument(error: BaseException, name: str) -> bool:
    return getattr(error, "field", None) == name or str(error).lstrip("[]M0123456789 ").startswith(
        f"{name}:"
    )


# --- The refusals of the issue ----------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 7, 8, -2])
def test_rules_refuse_a_player_count_outside_two_to_six_m2(players: int) -> None:
    with pytest.raises(ValueError, match="players: .*2 to 6") as refused:
        Rules(players=players)
    assert isinstance(refused.value, IllegalAction) and refused.value.rule == "M2"


@pytest.mark.parametrize("seed", [-1, 2**64, 10**100])
def test_a_setup_refuses_a_seed_outside_64_bits(seed: int) -> None:
    with pytest.raises(ValueError, match=r"seed: 0 to 18,446,744,073,709,551,615") as refused:
        Setup(Rules(2), ("random", "random"), seed)
    assert len(str(refused.value)) < 120


def test_a_setup_refuses_one_bot_too_few() -> None:
    with pytest.raises(ValueError, match=r"bots: .*one bot spec per seat \(3\)"):
        Setup(Rules(3), ("random", "random"), 1)


@pytest.mark.parametrize("games", [0, -1, MAX_GAMES + 1])
def test_simulate_refuses_a_game_count_outside_its_range(games: int) -> None:
    with pytest.raises(ValueError, match=f"games: 1 to {MAX_GAMES:,}"):
        simulate(Setup(Rules(2), ("random", "random"), 1), games)


def test_simulate_refuses_search_work_past_its_cap_before_planning_a_game() -> None:
    with at_most(SECONDS), pytest.raises(TooMuchWork, match=f"cap of {MAX_WORK:,}") as refused:
        simulate(Setup(Rules(2), ("pimc", "random"), 1), MAX_GAMES)
    assert refused.value.field == "games"


def test_simulate_plays_a_large_cheap_run_in_a_bounded_number_of_chunks() -> None:
    from dekal.simulation.games import MOST_CHUNKS, chunks

    planned = chunks(Setup(Rules(2), ("random", "random"), 1, table=True), 10**6)
    assert len(planned) <= MOST_CHUNKS and sum(c.count for c in planned) == 10**6


def test_advise_refuses_zero_samples() -> None:
    view = a_view()
    with pytest.raises(ValueError, match="samples: 1 to"):
        advise_module.advise(view, deciding(view), samples=0)


@pytest.mark.parametrize("samples", [10**12, MAX_WORK // 2])
def test_advise_refuses_samples_past_the_work_cap_before_drawing_a_world(samples: int) -> None:
    view = observation_of(a_position(moves=0))  # seat 0 reveals: 16 actions
    assert len(legal_actions(view, deciding(view))) > 2
    with at_most(SECONDS), pytest.raises(ValueError, match=f"{MAX_WORK:,}") as refused:
        advise_module.advise(view, deciding(view), samples=samples)
    assert names_the_argument(refused.value, "samples")


def test_legal_actions_refuse_a_seat_not_at_the_table_m4() -> None:
    with pytest.raises(ValueError, match=r"seat: 0 to 1 at this table \(M4\), not 9"):
        legal_actions(a_view(), 9)


@pytest.mark.parametrize(("successes", "trials"), [(5, 3), (-1, 3), (1, 0)])
def test_a_rate_refuses_counts_no_run_can_have(successes: int, trials: int) -> None:
    with pytest.raises(ValueError, match="successes|trials"):
        stats.rate(successes, trials)


@pytest.mark.parametrize("seconds", [float("nan"), -1.0, float("inf")])
def test_a_time_limit_is_a_number_of_seconds_from_0_to_a_week(seconds: float) -> None:
    with pytest.raises(ValueError, match="timeout: 0 to 604,800 seconds"):
        Deadline(seconds)


# --- The walker -------------------------------------------------------------------------------

MODULES = (
    "dekal.bots.observation",
    "dekal.bots.sampler",
    "dekal.bots.advise",
    "dekal.bots._advice.question",
    "dekal.bots._advice.enumeration",
    "dekal.bots._advice.playout",
    "dekal.bots._advice.figures",
    "dekal.bots.table",
    "dekal.bots._players.rollout",
    "dekal.simulation.games",
    "dekal.simulation.stats",
    "dekal.simulation.runner",
    "dekal.bots.work",
    "dekal._arguments",
    "dekal.proofs.portfolio",
    "dekal.proofs.search",
    "dekal.proofs.z3_solve",
    "dekal.proofs.puzzle",
    "dekal.simulate",
    "dekal.draws",
    "dekal.bots.bot",
    "dekal.bots._players.utility",
    "dekal.simulation._tally",
    "dekal.simulation._table_results",
    "dekal.fast",
)
HOSTILE_NUMBERS = (-1, 2**64, 10**12, float("nan"))


def examples() -> dict[str, Any]:
    """A valid value for each argument name the public functions use."""
    view = a_view()
    state = a_position()
    from dekal.bots.bot import make_bot
    from dekal.position import from_reference

    return {
        "obs": view,
        "view": view,
        "seat": deciding(view),
        "samples": 30,
        "seed": 7,
        "n": 2,
        "limit": 10,
        "games": 2,
        "setup": Setup(Rules(2), ("random", "greedy"), 1),
        "rules": Rules(2),
        "bots": [make_bot("random"), make_bot("greedy")],
        "state": from_reference(state),
        "policy": "greedy",
        "puzzle": make_puzzle(parse_grid("1112/3131/1435/2435"), incoming=(5, 3)),
        "bound": 10,
        "timeout": 5,
        "successes": 3,
        "trials": 5,
        "seats": 2,
        "histogram": {1: 2, 3: 1},
        "q": 0.5,
        "rank": 1,
        "scale": 1,
        "actions": 5,
        "workers": 1,
        "task": str,
        "chunks": [1, 2],
        "field": "games",
        "value": 3,
        "low": 1,
        "high": 10,
        "spec": "greedy",
        "specs": ("random", "pimc"),
        "tally": None,
        "players": 2,
        "run_seed": 1,
        "game": 0,
        "seed_of_game": 1,
        "round_number": 1,
    }


OVERRIDES: dict[str, dict[str, Any]] = {
    "dekal.bots.work.simulation_work": {"bots": ("random", "pimc")},  # specs, not Bot objects
    "dekal.bots.advise.advise": {"samples": 1, "playout": "python"},  # a legal seed plays
}
"""Arguments whose example differs for one function."""
NOT_WALKED = {
    # the checks themselves: their message names the `field` they are given
    "dekal._arguments.whole", "dekal._arguments.seed", "dekal.bots.work.check_work",
    # the seed arithmetic, on the hot path of every game: its callers check their seeds
    "dekal.draws.game_seed", "dekal.draws.seat_seed",
    # advise's inner steps, called by advise() with the arguments it checked at its entry
    "dekal.bots._advice.playout.table_outcome", "dekal.bots._advice.playout.play_out",
}  # fmt: skip


def public_functions() -> Iterator[tuple[str, Callable[..., Any]]]:
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name, value in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(value):
                continue
            if value.__module__ == module_name:
                yield f"{module_name}.{name}", value


def walked_calls() -> Iterator[tuple[str, Callable[..., Any], dict[str, Any], str]]:
    """(name, function, valid arguments, the numeric argument to make hostile)."""
    known = examples()
    for name, function in public_functions():
        if name in NOT_WALKED:
            continue
        parameters = inspect.signature(function).parameters
        required = [
            p for p in parameters.values()
            if p.default is inspect.Parameter.empty and p.kind is not p.VAR_POSITIONAL
            and p.kind is not p.VAR_KEYWORD
        ]  # fmt: skip
        if any(p.name not in known or known[p.name] is None for p in required):
            continue
        arguments = {p.name: known[p.name] for p in required} | OVERRIDES.get(name, {})
        for p in parameters.values():
            given = arguments.get(p.name, p.default)
            number = isinstance(given, int | float) and not isinstance(given, bool)
            if number and p.name in known:
                yield name, function, arguments, p.name


WALKED = list(walked_calls())


def test_the_walker_reaches_the_functions_of_the_issue() -> None:
    reached = {name.rsplit(".", 1)[1] for name, *_ in WALKED}
    assert {"advise", "legal_actions", "simulate", "rate", "sample_worlds", "minimum"} <= reached


@pytest.mark.parametrize(
    ("name", "function", "arguments", "hostile"),
    WALKED,
    ids=[f"{name}-{hostile}" for name, _, _, hostile in WALKED],
)
def test_a_hostile_number_is_refused_naming_it_or_answered_in_time(
    name: str, function: Callable[..., Any], arguments: dict[str, Any], hostile: str
) -> None:
    for value in HOSTILE_NUMBERS:
        call = dict(arguments) | {hostile: value}
        try:
            with at_most(SECONDS):
                function(**call)
        except ValueError as error:
            assert names_the_argument(error, hostile) or hostile in str(error), (name, error)
            assert len(str(error)) < 300, (name, str(error)[:300])
