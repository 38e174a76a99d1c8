"""How long `dekal advise` takes on one core: mid-game 4-player positions, 1,000 worlds.

    .venv/bin/python bench/advise.py                    # a reveal, a take and a push decision
    .venv/bin/python bench/advise.py --samples 200 --python-samples 20 --json

The positions are turn 8 of a seeded 4-player game played by the greedy bot: seat 0 to
reveal (every seat still to pick), then the token holder to take, then to push. For each,
advise runs (after one call that loads the compiled kernel, timed apart) with the model
`greedy` on --samples worlds through the playout it uses by
default (the compiled kernel when it is installed) and, on --python-samples worlds, through
the plain Python playout; the table shows seconds per answer, worlds per second, and the
ratio of the two playouts per world. Never a timed test: figures to read, not to assert.
"""

from __future__ import annotations

import argparse
import json
import time

from rich.console import Console
from rich.table import Table

from dekal.bots.advise import advise
from dekal.bots.bot import make_bot
from dekal.bots.observation import Observation, observation_of
from dekal.bots.table import seat_to_act
from dekal.draws import Draws, seat_seed
from dekal.position import from_reference
from dekal_ref.actions import apply
from dekal_ref.deal import seeded_deal
from dekal_ref.game import new_game
from dekal_ref.position import format_position
from dekal_ref.state import GameState, Phase, Rules

out = Console()


def mid_game(players: int, seed: int, turn: int) -> dict[str, tuple[GameState, int]]:
    """A reveal, a take and a push decision of turn `turn`, the game played by greedy bots."""
    state = new_game(Rules(players), seeded_deal(seed, players))
    greedy = make_bot("greedy")
    draws = [Draws(seat_seed(seed, s)) for s in range(players)]
    found: dict[str, tuple[GameState, int]] = {}
    while len(found) < 3:
        seat = seat_to_act(from_reference(state))
        phase = state.phase.value
        if state.turn == turn and phase not in found:
            found[phase] = (state, seat)
        state = apply(state, greedy.act(observation_of(state), seat, draws[seat]))
    assert state.phase is not Phase.OVER
    return found


def timed(view: Observation, seat: int, samples: int, playout: str) -> tuple[float, int]:
    started = time.perf_counter()
    answer = advise(view, seat, samples=samples, seed=1, playout=playout)
    return time.perf_counter() - started, len(answer.actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--python-samples", type=int, default=30)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--turn", type=int, default=8)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    rows = []
    positions = mid_game(options.players, options.seed, options.turn)
    started = time.perf_counter()
    warm_state, warm_seat = positions["push"]
    advise(observation_of(warm_state), warm_seat, samples=30)  # loads the compiled kernel
    first_call = time.perf_counter() - started
    for phase, (state, seat) in positions.items():
        view = observation_of(state)
        seconds, actions = timed(view, seat, options.samples, "auto")
        python, _ = timed(view, seat, options.python_samples, "python")
        per_world, python_per_world = seconds / options.samples, python / options.python_samples
        rows.append(
            {
                "decision": phase,
                "position": format_position(state, public=True),
                "seat": seat,
                "actions": actions,
                "samples": options.samples,
                "seconds": round(seconds, 3),
                "worlds_per_second": round(options.samples / seconds, 1),
                "python_seconds_per_world": round(python_per_world, 5),
                "ratio_python_to_default": round(python_per_world / per_world, 1),
                "first_call_seconds": round(first_call, 3),
            }
        )
    if options.json:
        print(json.dumps(rows))
        return
    table = Table(title=f"advise, {options.players} players, turn {options.turn}, one core")
    for column in ("decision", "actions", "worlds", "seconds", "worlds/s", "python ÷ default"):
        table.add_column(column, justify="right")
    for row in rows:
        table.add_row(
            str(row["decision"]),
            str(row["actions"]),
            f"{row['samples']:,}",
            f"{row['seconds']:.2f}",
            f"{row['worlds_per_second']:,.0f}",
            f"{row['ratio_python_to_default']:.1f}×",
        )
    out.print(table)
    out.print(f"first call of the process (loads the compiled kernel): {first_call:.2f} s")


if __name__ == "__main__":
    main()
