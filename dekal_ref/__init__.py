"""dekal_ref: the literal reference engine of Dékal. It reads like the rulebook (spec/rules.md)."""

from dekal_ref.actions import (
    Action,
    NewRound,
    PushMove,
    Reveal,
    Take,
    apply,
    legal_actions,
    parse_action,
)
from dekal_ref.deal import Deal, seeded_deal, seeded_deals
from dekal_ref.errors import DekalError, IllegalAction, NotationError
from dekal_ref.game import new_game, push, reveal, start_round, take
from dekal_ref.notation import Grid, Push, format_grid, parse_cell, parse_grid, parse_push
from dekal_ref.position import format_position, parse_position
from dekal_ref.push import legal_pushes, push_card
from dekal_ref.ranking import Standing, ranking, round_scores, winners
from dekal_ref.scoring import Score, cancelled_cells, score_grid
from dekal_ref.state import Card, GameState, Phase, Rules
from dekal_ref.svg import position_svg  # and, importing it, GameState._repr_svg_ (notebooks)

__all__ = [
    "Action",
    "Card",
    "Deal",
    "DekalError",
    "GameState",
    "Grid",
    "IllegalAction",
    "NewRound",
    "NotationError",
    "Phase",
    "Push",
    "PushMove",
    "Reveal",
    "Rules",
    "Score",
    "Standing",
    "Take",
    "apply",
    "cancelled_cells",
    "format_grid",
    "format_position",
    "legal_actions",
    "legal_pushes",
    "new_game",
    "parse_action",
    "parse_cell",
    "parse_grid",
    "parse_position",
    "parse_push",
    "position_svg",
    "push",
    "push_card",
    "ranking",
    "reveal",
    "round_scores",
    "score_grid",
    "seeded_deal",
    "seeded_deals",
    "start_round",
    "take",
    "winners",
]
