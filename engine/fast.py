"""The optimized engine's game API: the same names and signatures as dekal_ref's.

    from dekal import fast as engine          # or: dekal.engines.get_engine("fast")
    state = engine.new_game(engine.Rules(players=3), engine.seeded_deal(7, 3))
    state = engine.apply(state, engine.legal_actions(state)[0])
    engine.format_position(state)             # the same line dekal_ref would print

Inputs and outputs are the reference's types (Rules, Deal, Push, actions, Score, Standing,
IllegalAction with the same rule IDs); only the state is the engine's own (dekal.state.FastState).
"""

from __future__ import annotations

from dekal._game import new_game, push, reveal, start_round, take
from dekal._grid import cancelled_cells, legal_pushes, push_card, score_grid
from dekal.actions import apply, legal_actions
from dekal.position import format_position, from_reference, parse_position, to_reference
from dekal.ranking import ranking, round_scores, winners
from dekal.state import FastState
from dekal_ref.actions import Action, NewRound, PushMove, Reveal, Take, parse_action
from dekal_ref.deal import Deal, seeded_deal, seeded_deals
from dekal_ref.errors import DekalError, IllegalAction, NotationError
from dekal_ref.notation import Push
from dekal_ref.ranking import Standing
from dekal_ref.scoring import Score
from dekal_ref.state import Phase, Rules

NAME = "fast"
GameState = FastState

__all__ = [
    "NAME", "Action", "Deal", "DekalError", "FastState", "GameState", "IllegalAction", "NewRound",
    "NotationError", "Phase", "Push", "PushMove", "Reveal", "Rules", "Score", "Standing", "Take",
    "apply", "cancelled_cells", "format_position", "from_reference", "legal_actions",
    "legal_pushes", "new_game", "parse_action", "parse_position", "push", "push_card", "ranking",
    "reveal", "round_scores", "score_grid", "seeded_deal", "seeded_deals", "start_round", "take",
    "to_reference", "winners",
]  # fmt: skip
