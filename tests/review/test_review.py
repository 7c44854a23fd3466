"""Game review (lucie.analysis.review) on games whose values the solver settles exactly."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lucie.analysis.cache import ValueCache
from lucie.analysis.review import (
    BEST_LOSS,
    INACCURACY_LOSS,
    LABELS,
    Review,
    Valuer,
    label_for,
    review_game,
)
from lucie.engine import REDEAL, Game, Move, Position
from lucie.rules import Rules
from lucie.solver import search_deal, solve_deal


def clearable_deal(rules: Rules, start: int = 1) -> int:
    """The first deal from ``start`` whose first deal the solver proves clearable."""
    for number in range(start, start + 500):
        if search_deal(Position.deal(rules, number), frontier=False).status == "solved":
            return number
    raise AssertionError("no clearable deal found")


def review(game: Game, **kwargs: object) -> Review:
    return review_game(game, max_seconds=None, cache=ValueCache(None), **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def classic_clearable() -> int:
    return clearable_deal(Rules())


def test_solver_line_has_no_mistake(classic_clearable: int) -> None:
    rules = Rules()
    game = Game(rules, classic_clearable)
    game.push_all(solve_deal(game.position, frontier=False).moves)
    assert game.position.is_won
    got = review(game)
    assert got.start_value.kind == "exact" and got.start_value.chance == 1.0
    assert got.start_value.clears is True
    assert len(got.moves) == len(game.moves)
    for i, m in enumerate(got.moves):
        assert m.index == i + 1 and m.move == game.moves[i]
        assert m.value_before.chance == 1.0 and m.value_before.kind == "exact"
        assert m.value_after.chance == 1.0 and m.value_after.kind == "exact"
        assert m.loss == 0.0
        assert m.label == "best"
        assert m.best_move is not None and game.positions[i].is_legal(m.best_move)
        assert m.text
    assert got.mistakes == 0
    assert got.thrown_away == 0.0
    assert got.accuracy == 100.0
    assert got.costliest() == []
    assert got.final_value.chance == 1.0
    assert not got.budget_ran_out


@pytest.fixture(scope="module")
def redeal_first(classic_clearable: int) -> tuple[Game, Review]:
    game = Game(Rules(), classic_clearable)
    game.push(REDEAL)
    return game, review(game, refine_target=32)


def test_redeal_first_is_a_mistake(redeal_first: tuple[Game, Review]) -> None:
    game, got = redeal_first
    first = got.moves[0]
    assert first.move == REDEAL
    assert first.value_before.chance == 1.0 and first.value_before.kind == "exact"
    # the value of a random redeal of the whole pack, estimated
    assert first.value_after.kind == "estimate"
    assert first.value_after.chance is not None and first.value_after.samples > 0
    assert first.value_after.low <= first.value_after.chance <= first.value_after.high < 1.0
    assert first.loss is not None and first.loss >= INACCURACY_LOSS
    assert first.label in ("mistake", "blunder")
    assert got.mistakes == 1
    # the better move is a move of this deal, not a redeal, and it is explained
    assert first.best_move is not None and first.best_move != REDEAL
    assert game.start.is_legal(first.best_move)
    assert first.text
    assert got.costliest()[0] is first
    assert got.accuracy == 0.0


def losing_move(position: Position) -> Move | None:
    """A legal move after which the deal (a last deal) can no longer be cleared."""
    for move in position.legal_moves():
        after = position.apply(move)
        if search_deal(after, frontier=False).status == "unsolvable":
            return move
    return None


def test_last_deal_move_that_loses_the_win_is_a_blunder() -> None:
    rules = Rules.parse("noredeal")
    number = 1
    while True:
        number = clearable_deal(rules, number)
        game = Game(rules, number)
        move = losing_move(game.position)
        if move is not None:
            break
        number += 1
    line = solve_deal(game.position, frontier=False).moves
    game.push(line[0])  # a good move first
    move = losing_move(game.position)
    if move is None:  # the solver's first move left no losing move: lose at once
        game.pop()
        move = losing_move(game.position)
        assert move is not None
    game.push(move)
    got = review(game)
    last = got.moves[-1]
    assert last.move == move
    assert last.value_before.chance == 1.0 and last.value_before.kind == "exact"
    assert last.value_after.chance == 0.0 and last.value_after.kind == "exact"
    assert last.value_after.clears is False
    # the best score still reachable, as the solver finds it
    best = solve_deal(game.position).best_score
    assert last.value_after.best_score == best < 52
    assert last.loss == 1.0
    assert last.label == "blunder"
    assert last.best_move is not None and last.best_move != move
    assert "can be cleared" in last.text
    assert got.mistakes == 1
    assert all(m.label == "best" for m in got.moves[:-1])


def test_lost_last_deal_scores_count() -> None:
    """In a last deal already lost, a move that lowers the best score is marked."""
    rules = Rules.parse("noredeal")
    for number in range(1, 200):
        position = Position.deal(rules, number)
        if search_deal(position, frontier=False).status != "unsolvable":
            continue
        best = solve_deal(position).best_score
        for move in position.legal_moves():
            after = solve_deal(position.apply(move)).best_score
            if after <= best - 3:
                game = Game(rules, number)
                game.push(move)
                got = review(game).moves[0]
                assert got.value_before.best_score == best
                assert got.value_after.best_score == after
                assert got.loss == 0.0 and got.score_loss == best - after
                assert got.label == "mistake"
                return
    raise AssertionError("no deal with a move costing three cards of score")


def test_following_the_line_needs_one_search(classic_clearable: int) -> None:
    """Values are carried along a best line: the positions on it need no search."""
    rules = Rules()
    game = Game(rules, classic_clearable)
    game.push_all(solve_deal(game.position, frontier=False).moves)
    valuer = Valuer(rules, ValueCache(None))
    values = [valuer.value(p) for p in game.positions]
    assert all(v.chance == 1.0 for v in values)
    assert valuer.searches == 1


def test_estimates_and_redeals_are_consistent() -> None:
    """A game of a deal that cannot be cleared at once: each move's value before
    is the previous move's value after, except across a redeal (the deal that
    came is valued, not the player); losses are never negative."""
    rules = Rules()
    number = next(n for n in range(1, 100) if search_deal(
        Position.deal(rules, n), frontier=False).status == "unsolvable")
    game = Game(rules, number)
    for _ in range(6):
        game.push(game.legal_moves[0])
    game.push(REDEAL)
    game.push(game.legal_moves[0])
    got = review(game, target=8, refine_target=16)
    for prev, move in zip(got.moves, got.moves[1:], strict=False):
        if not prev.move.is_redeal:
            assert move.value_before == prev.value_after
    for m in got.moves:
        assert m.loss is not None and m.loss >= 0.0
        assert m.label in LABELS
        assert m.value_before.kind in ("exact", "estimate")
        assert m.value_before.low <= (m.value_before.chance or 0.0) <= m.value_before.high
    assert got.mistakes == sum(m.label in ("mistake", "blunder") for m in got.moves)


def test_budget_runs_out_cleanly(classic_clearable: int,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import lucie.solver.deal as deal

    game = Game(Rules(), classic_clearable)
    game.push_all(solve_deal(game.position, frontier=False).moves[:20])
    budgets: list[float | None] = []
    real = deal.search_deal

    def recording(position: Position, **kwargs: Any) -> Any:
        budgets.append(kwargs.get("max_seconds"))
        return real(position, **kwargs)

    monkeypatch.setattr(deal, "search_deal", recording)
    got = review_game(game, max_seconds=1e-6, cache=ValueCache(None))
    # the budget is spent before the first search: no search starts (counted,
    # not timed: however busy the machine, the review does no search work)
    assert budgets == []
    assert got.budget_ran_out
    assert got.start_value.kind == "unknown" and got.start_value.chance is None
    assert all(m.label is None and m.loss is None for m in got.moves)
    assert got.accuracy is None
    data = got.to_json()
    assert data["budget_ran_out"] is True


def test_any_suit_cut_short_is_a_bound() -> None:
    """An any-suit search cut short by its budget gives a lower bound."""
    rules = Rules.parse("flower")
    valuer = Valuer(rules, ValueCache(None), target=1, search_seconds=1e-3,
                    sample_seconds=0.01)
    kinds = set()
    for number in range(1, 8):
        position = Position.deal(rules, number)
        value = valuer.value(position)
        kinds.add(value.kind)
        if value.kind != "bound":
            # the search was not cut short: its verdict is the exact one
            verdict = search_deal(position, frontier=False, max_nodes=500_000).status
            assert verdict != "unknown"
            if verdict == "solved":
                assert value.kind == "exact" and value.chance == 1.0
            else:  # a stop's value: the chance of the redeals to come
                assert value.kind == "estimate" and value.chance is not None
                assert value.low is not None and value.low <= value.chance <= 1.0
        else:
            assert value.chance is not None and value.low == value.chance
            assert value.high == 1.0
            assert str(value).startswith(">=")
    assert "bound" in kinds


def test_progress_is_reported(classic_clearable: int) -> None:
    game = Game(Rules(), classic_clearable)
    game.push_all(solve_deal(game.position, frontier=False).moves[:5])
    seen: list[tuple[int, int]] = []
    review(game, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_json_shape(redeal_first: tuple[Game, Review]) -> None:
    game, got = redeal_first
    data = got.to_json()
    assert {"variant", "deal", "start_value", "moves", "mistakes"} <= set(data)
    assert data["variant"] == "classic" and data["deal"] == game.deal
    moves = data["moves"]
    assert isinstance(moves, list) and len(moves) == 1
    assert {"index", "move", "best_move", "value_before", "value_after", "loss", "label",
            "text"} <= set(moves[0])
    assert moves[0]["move"] == "R" and moves[0]["index"] == 1
    assert {"chance", "kind", "low", "high"} <= set(moves[0]["value_after"])
    assert moves[0]["value_after"]["kind"] == "estimate"


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.integers(0, 52), st.integers(0, 52))
def test_labels_are_monotonic(a: float, b: float, ca: int, cb: int) -> None:
    """Losing more never earns a better label."""
    if (a, ca) > (b, cb):
        a, b, ca, cb = b, a, cb, ca
    if a <= b and ca <= cb:
        assert LABELS.index(label_for(a, ca)) <= LABELS.index(label_for(b, cb))
    assert label_for(b, cb, is_best=True) == "best"
    if b <= BEST_LOSS and cb == 0:
        assert label_for(b, cb) == "best"


def test_game_without_moves() -> None:
    got = review(Game(Rules(), 5))
    assert got.moves == () and got.mistakes == 0 and got.accuracy is None
    assert got.start_value == got.final_value
    assert got.start_value.kind in ("exact", "estimate")
