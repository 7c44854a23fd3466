"""What a review claims is true (issue 35): a ``best`` move is never shown
with a better one, and a move whose value is unknown is not judged (left
out of the accuracy), and a slow review moves on and ends in its budget."""

from __future__ import annotations

from typing import Any

import pytest

from lucie.analysis.cache import ValueCache
from lucie.analysis.review import Review, review_game
from lucie.engine import Game, Move, Position
from lucie.rules import Rules


def check_labels(review: Review) -> None:
    """The labels agree with the better move, and the accuracy counts only
    the judged moves."""
    for m in review.moves:
        data = m.to_json()
        if m.label == "best" or m.label is None:
            assert m.better_move is None and m.better_text is None, m
            assert data["better_move"] is None
        elif m.best_move is not None and m.best_move != m.move:
            assert m.better_move == m.best_move and data["better_move"] == str(m.best_move)
        if m.label is None:
            assert m.loss is None
    judged = [m for m in review.moves if m.label is not None]
    assert review.unjudged == len(review.moves) - len(judged)
    assert review.to_json()["unjudged"] == review.unjudged
    if judged:
        good = sum(m.label in ("best", "good") for m in judged)
        assert review.accuracy == 100.0 * good / len(judged)
    else:
        assert review.accuracy is None


def test_a_best_move_names_no_better_one() -> None:
    """Classic deal 7, p>f first: as good as the solver's r>q (its line goes
    through p>f), so it is best, and r>q is the solver's move, not a better
    one."""
    game = Game(Rules(), 7)
    game.push(Move.parse("p>f"))
    review = review_game(game, max_seconds=60, cache=ValueCache(None))
    (m,) = review.moves
    assert m.label == "best" and m.loss == 0.0
    assert m.best_move is not None  # the hint's move, whichever it is
    check_labels(review)
    assert "better" not in review.summary()


def test_unknown_values_are_not_judged_and_the_review_moves_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alternate colours, two moves: the searches run far past a short
    budget.  The review reports progress during the budget (each position
    has its share of it), ends in time, and judges only what it knows."""
    import lucie.solver as deal  # the analysis finds search_deal here at each call

    game = Game(Rules.parse("alternate"), 1)
    for _ in range(2):
        game.push(next(m for m in game.legal_moves if not m.is_redeal))
    budgets: list[float | None] = []
    real = deal.search_deal

    def recording(position: Position, **kwargs: Any) -> Any:
        budgets.append(kwargs.get("max_seconds"))
        return real(position, **kwargs)

    monkeypatch.setattr(deal, "search_deal", recording)
    reports: list[tuple[int, int]] = []  # (positions done, searches made by then)
    review = review_game(game, max_seconds=6, cache=ValueCache(None),
                         progress=lambda done, total: reports.append((done, len(budgets))))
    assert [d for d, _ in reports] == [1, 2, 3, 4, 5, 6]
    # not all the budget on the first value: its searches were each given
    # less (what they were allowed, not how long a busy machine took)
    first = budgets[:reports[0][1]]
    assert first and all(b is not None and b < 6 * 0.8 for b in first), budgets
    assert review.budget_ran_out
    check_labels(review)
    for m in review.moves:
        if m.label is not None:
            # judged only on what is known: settled values, or a win found after
            known = {m.value_before.kind, m.value_after.kind} <= {"exact", "estimate"}
            assert known or (m.value_after.kind == "exact" and m.value_after.chance == 1.0)
    if review.unjudged:
        assert "not judged" in review.summary()
