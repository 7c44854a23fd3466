"""The certified bounds of ``benchmarks/bench_bounds.py``: a game counts
both ways only when it was lost and a deciding search was cut short."""

from __future__ import annotations

import bench_bounds as bench  # benchmarks/, on the path (pyproject: pythonpath)
import pytest

from lucie.analysis.odds import wilson
from lucie.analysis.study import GameRecord, run_study
from lucie.rules import Rules


def test_counted_both_ways() -> None:
    records = [
        GameRecord(1, True, 52, True),
        GameRecord(2, True, 52, None, unknown=2),  # won anyway: a win both ways
        GameRecord(3, False, 30, False),  # lost, nothing cut: lost both ways
        GameRecord(4, False, 31, None, unknown=1),  # lost, a verdict cut: undecided
        GameRecord(5, False, 40, False, score_capped=1),  # only the score was cut
    ]
    found = bench.bounds(records)
    assert (found.games, found.won, found.undecided) == (5, 2, 1)
    assert (found.lower, found.upper) == (0.4, 0.6)
    assert found.ci95 == (wilson(2, 5)[0], wilson(3, 5)[1])
    assert "between 40.00% and 60.00%" in found.line()
    with pytest.raises(ValueError):
        bench.bounds([])


def test_bounds_of_a_real_study_hold_its_measured_rate() -> None:
    """Classic games never meet the budget: both bounds are the study's rate."""
    result = run_study(Rules(), 6, seed=3, jobs=1, solve_seconds=10, sample_seconds=5,
                       progress=False)
    found = bench.bounds(result.records)
    assert found.undecided == 0
    assert found.lower == found.upper == result.wins / result.games
