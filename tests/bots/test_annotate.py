"""`annotate` (dekal.bots.annotate) as a specification.

* A decision's figures are `advise`'s on the public view the seat had (same samples, seed,
  model): annotate adds no judgement of its own.
* Where nothing is hidden any more (turn 16, after the reveal), each move's expected score is
  its exact outcome, computed here independently on the reference engine; in a game that
  greedy played throughout, the move played scores exactly what the record's round scored.
* The loss is the played move's expected score minus the best's; the marks follow MARKS,
  and a sampled loss within the noise earns none.
* The same seed gives the same annotation; the seats asked for are the seats annotated.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from dekal.bots.advise import advise
from dekal.bots.annotate import MARKS, Annotation, annotate, mark_of
from dekal.bots.bot import make_bot
from dekal.bots.observation import observation_of
from dekal.bots.table import play_game
from dekal.draws import Draws, seat_seed
from dekal_ref.actions import apply
from dekal_ref.errors import IllegalAction, NotationError
from dekal_ref.ranking import round_scores
from dekal_ref.record import GameRecord, parse_record, replay
from dekal_ref.state import GameState, Phase, Rules

FEW = 30  # the fewest worlds advise samples: enough here, and quick


@pytest.fixture(scope="module")
def greedy_game() -> GameRecord:
    """A two-player game that the greedy bot played for both seats (seed 5)."""
    game = play_game(Rules(2), [make_bot("greedy"), make_bot("greedy")], seed=5)
    return parse_record(game.record)


@pytest.fixture(scope="module")
def annotated(greedy_game: GameRecord) -> Annotation:
    return annotate(greedy_game, samples=FEW, seed=3)


def played_out(state: GameState, seat: int) -> int:
    """Independently of advise: the seat's points once the round in `state` is played to its
    end on the reference engine, every seat deciding by greedy from its public view."""
    bot = make_bot("greedy")
    while state.phase in (Phase.TAKE, Phase.PUSH):
        who = state.to_act
        assert who is not None
        state = apply(state, bot.act(observation_of(state), who, Draws(seat_seed(0, who))))
    return round_scores(state)[seat].points


def test_a_decisions_figures_are_advises_on_the_view_the_seat_had(annotated: Annotation) -> None:
    for decision in annotated.decisions[::17]:  # a spread of reveals, takes and pushes
        assert decision.view == observation_of(decision.before)
        assert decision.advice == advise(decision.view, decision.seat, samples=FEW, seed=3)


def test_every_decision_of_every_seat_is_annotated_in_playing_order(
    greedy_game: GameRecord, annotated: Annotation
) -> None:
    moves = [move for played in greedy_game.rounds for move in played.moves]
    assert [decision.played for decision in annotated.decisions] == moves
    assert [decision.step for decision in annotated.decisions] == list(range(1, len(moves) + 1))


def test_with_nothing_hidden_each_moves_expected_score_is_its_exact_outcome(
    annotated: Annotation,
) -> None:
    open_decisions = [
        d for d in annotated.decisions if d.view.turn == 16 and d.view.phase is not Phase.REVEAL
    ]
    assert len(open_decisions) == 4  # each of two seats takes and pushes on turn 16
    for decision in open_decisions:
        assert decision.advice.exact and decision.advice.samples == 1
        for figures in decision.advice.actions:
            after = apply(decision.before, figures.action)
            points = played_out(after, decision.seat)
            assert figures.expected_score == points and figures.ci95 == (points, points)


def test_in_a_greedy_game_the_move_played_with_nothing_hidden_scores_what_the_round_scored(
    greedy_game: GameRecord, annotated: Annotation
) -> None:
    final = replay(greedy_game)[-1]
    for decision in annotated.decisions:
        if decision.advice.exact and decision.advice.samples == 1:
            assert decision.played_figures.expected_score == final_points(final, decision.seat)
            assert decision.loss == 0  # greedy played it, and greedy is the model


def final_points(final: GameState, seat: int) -> int:
    return round_scores(final)[seat].points


def test_the_loss_is_the_played_moves_expected_score_minus_the_best(
    annotated: Annotation,
) -> None:
    for decision in annotated.decisions:
        played, best = decision.played_figures, decision.best_figures
        assert decision.loss == pytest.approx(played.expected_score - best.expected_score)
        assert best is decision.advice.actions[0] and decision.loss >= 0


@pytest.mark.parametrize(
    ("loss", "mark"),
    [(3.0, "??"), (7.5, "??"), (2.99, "?"), (1.0, "?"), (0.99, "?!"), (0.5, "?!"), (0.49, "")],
)
def test_marks_go_by_expected_points_lost(loss: float, mark: str) -> None:
    assert mark_of(loss, (loss - 0.1, loss + 0.1), exact=False) == mark
    assert mark_of(loss, (loss, loss), exact=True) == mark


def test_a_sampled_loss_within_the_noise_is_not_marked() -> None:
    assert mark_of(5.0, (-0.2, 10.2), exact=False) == ""
    assert mark_of(5.0, (0.0, 10.0), exact=False) == ""
    assert mark_of(5.0, (-0.2, 10.2), exact=True) == "??"  # exact: the loss is the loss


def test_the_marks_are_documented_worst_first() -> None:
    assert [mark for _, mark in MARKS] == ["??", "?", "?!"]
    assert [least for least, _ in MARKS] == sorted((least for least, _ in MARKS), reverse=True)


def test_the_summary_counts_each_seats_decisions_and_marks(annotated: Annotation) -> None:
    for summary in annotated.summaries():
        mine = [d for d in annotated.decisions if d.seat == summary.seat]
        marks = [d.mark for d in mine]
        assert summary.decisions == len(mine) == 48  # 16 turns of a reveal, a take, a push
        assert (summary.inaccuracies, summary.mistakes, summary.blunders) == (
            marks.count("?!"),
            marks.count("?"),
            marks.count("??"),
        )
        assert summary.mean_loss == pytest.approx(sum(d.loss for d in mine) / len(mine))


def test_the_same_seed_gives_the_same_annotation(
    greedy_game: GameRecord, annotated: Annotation
) -> None:
    seat_1 = [d.to_json() for d in annotated.decisions if d.seat == 1]
    again = annotate(greedy_game, [1], samples=FEW, seed=3)
    other = annotate(greedy_game, [1], samples=FEW, seed=4)
    assert [d.to_json() for d in again.decisions] == seat_1  # alone or with the others
    assert [d.to_json() for d in other.decisions] != seat_1


def test_only_the_seats_asked_for_are_annotated(greedy_game: GameRecord) -> None:
    only = annotate(greedy_game, [1], samples=FEW, seed=3)
    assert {d.seat for d in only.decisions} == {1}
    assert [s.seat for s in only.summaries()] == [1]


def test_a_seat_not_at_the_table_is_refused(greedy_game: GameRecord) -> None:
    with pytest.raises(NotationError) as refused:
        annotate(greedy_game, [2], samples=FEW)
    assert refused.value.field == "seat"


def test_a_record_the_rules_refuse_is_refused_naming_the_rule(greedy_game: GameRecord) -> None:
    first = greedy_game.rounds[0]
    reveal, other, take, push, *rest = first.moves
    pushed_first = replace(first, moves=(reveal, other, push, take, *rest), scores=None)
    with pytest.raises(IllegalAction) as refused:
        annotate(replace(greedy_game, rounds=(pushed_first,), places=None), samples=FEW)
    assert refused.value.rule == "T4"  # a seat pushes the card it has just taken
