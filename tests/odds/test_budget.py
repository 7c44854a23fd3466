"""Every solver call made for a player is bounded (issue #25.2).

The promise is checked on the solver's own counters, not on the wall
clock: a clock the test drives (each search is taken to spend all the time
it is given) and every search recorded as it starts, with the budgets it
was handed.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field

import pytest

import lucie.analysis.hints as hints_module
import lucie.analysis.odds as odds_module
import lucie.solver as deal_module
from lucie.analysis.cache import ValueCache
from lucie.analysis.hints import hint
from lucie.analysis.odds import Evaluator, estimate_odds
from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver import PLAYER_MAX_POSITIONS, RawResult


@dataclass
class Recorder:
    """A fake monotonic clock, and every search started with its budgets
    (``max_seconds``, the time left on the clock then, ``max_positions``)."""

    now: float = 1000.0
    calls: list[tuple[float | None, float, int | None]] = field(default_factory=list)

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    rec = Recorder()
    real = deal_module.search_deal
    clock = types.SimpleNamespace(monotonic=rec.monotonic)
    monkeypatch.setattr(odds_module, "time", clock)
    monkeypatch.setattr(hints_module, "time", clock)

    def search(position: Position, **kwargs: object) -> RawResult:
        seconds = kwargs.get("max_seconds")
        positions = kwargs.get("max_positions")
        assert seconds is None or isinstance(seconds, float | int)
        assert positions is None or isinstance(positions, int)
        rec.calls.append((seconds, rec.now, positions))
        result = real(position, **kwargs)  # type: ignore[arg-type]
        # the search is taken to have spent all the time it was given
        rec.now += seconds if seconds is not None else 0.001
        return result

    monkeypatch.setattr(deal_module, "search_deal", search)
    return rec


REDEALS = Position.deal(Rules(), 9)  # classic: two redeals to come


def test_odds_never_give_a_search_more_than_the_time_left(recorder: Recorder) -> None:
    start = recorder.now
    odds = estimate_odds(REDEALS, samples=400, seed=1, cache=ValueCache(None),
                         max_seconds=1.0, sample_seconds=0.05)
    assert recorder.calls, "no search was started"
    for seconds, at, positions in recorder.calls:
        assert seconds is not None and at + seconds <= start + 1.0 + 1e-9
        assert positions == PLAYER_MAX_POSITIONS
    assert recorder.now <= start + 1.0 + 1e-9  # the whole call within its budget
    assert odds.searches == len(recorder.calls)
    assert odds.budget_ran_out and odds.samples < 400


def test_odds_past_the_deadline_start_no_playout(recorder: Recorder) -> None:
    odds = estimate_odds(REDEALS, samples=5, seed=1, cache=ValueCache(None), max_seconds=0.0)
    # the root search, handed no time, and at most the first redeal's
    assert len(recorder.calls) <= 2
    assert all(seconds == 0.0 for seconds, _, _ in recorder.calls)
    assert (odds.samples, odds.budget_ran_out, odds.ci95) == (0, True, (0.0, 1.0))


def test_odds_say_when_a_last_deal_search_is_cut() -> None:
    shamrocks = Position.deal(Rules.parse("shamrocks"), 9)  # no redeal
    odds = estimate_odds(shamrocks, samples=3, cache=ValueCache(None), max_seconds=5.0,
                         max_positions=300)
    assert odds.budget_ran_out and (odds.searches, odds.searches_cut) == (1, 1)
    assert odds.samples == 0 and odds.ci95 == (0.0, 1.0)
    data = odds.to_json()
    assert data["budget_ran_out"] is True and data["searches_cut"] == 1


def test_a_finished_estimate_does_not_claim_a_cut() -> None:
    odds = estimate_odds(REDEALS, samples=20, seed=3, cache=ValueCache(None))
    assert odds.samples == 20 and not odds.budget_ran_out and odds.searches_cut == 0


def test_hints_never_give_a_search_more_than_the_time_left(recorder: Recorder) -> None:
    start = recorder.now
    advice = hint(REDEALS, max_seconds=0.5, cache=ValueCache(None), seed=4)
    assert recorder.calls
    for seconds, at, positions in recorder.calls:
        assert seconds is not None and at + seconds <= start + 0.5 + 1e-9
        assert positions == PLAYER_MAX_POSITIONS
    assert advice.move is not None


def test_the_evaluator_holds_its_cap() -> None:
    ev = Evaluator(Rules.parse("shamrocks"), ValueCache(None), max_positions=200)
    result = ev.verdict(Position.deal(Rules.parse("shamrocks"), 9))
    assert result.limit == "positions" and result.held <= 200
    assert (ev.solves, ev.cut) == (1, 1)
