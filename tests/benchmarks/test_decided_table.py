"""The decided table of ``benchmarks/bench_solver.py`` (``LUCIE_BENCH_DECIDED=1``):
its settings, its tally, and that its verdict is the one ``lucie solve``
gives (the verdict first, then the score search)."""

from __future__ import annotations

import bench_solver as bench  # benchmarks/, on the path (pyproject: pythonpath)
import pytest

from lucie.engine import Position
from lucie.rules import VARIANTS, Rules
from lucie.solver import solve_deal


def test_settings() -> None:
    assert bench.parse_deals("1-40") == range(1, 41)
    assert bench.parse_deals(" 7 ") == range(7, 8)
    for bad in ("0-3", "5-2", "x"):
        with pytest.raises(ValueError):
            bench.parse_deals(bad)
    assert bench.parse_specs(None) == list(VARIANTS)
    assert bench.parse_specs("") == list(VARIANTS)
    assert bench.parse_specs("fan, flower") == ["fan", "flower"]
    assert bench.parse_specs("classic,cells=2;flower") == ["classic,cells=2", "flower"]
    # every spec of the family is one `lucie solve --variant` accepts
    for spec in bench.parse_specs(None):
        Rules.parse(spec)


def test_tally() -> None:
    row = bench.DecidedRow("fan")
    for number, status, seconds in [(1, "solved", 0.5), (2, "unsolvable", 0.1),
                                    (3, "unknown", 10.0), (4, "solved", 0.2)]:
        row.add(number, status, seconds, 100 * number)
    assert (row.won, row.lost, row.undecided) == (2, 1, [3])
    line = row.line()
    assert line.split()[:4] == ["fan", "2", "1", "1"]
    assert "0.350" in line and "10.00" in line and "undecided: 3" in line
    with pytest.raises(ValueError, match="unexpected status"):
        row.add(5, "won", 0.1, 1)


@pytest.mark.parametrize(("spec", "number"), [
    ("classic", 1), ("classic", 2), ("fan", 1), ("fan", 4), ("trefoil", 3),
    ("alternate", 2), ("flower", 7), ("noredeal", 5),
])
def test_the_verdict_is_lucie_solves(spec: str, number: int) -> None:
    """The table's verdict is the ``solvable`` of ``lucie solve`` (solve_deal
    with a budget, the frontier asked for) on deals each side decides in
    milliseconds, far within the budget whatever the machine's load."""
    rules = Rules.parse(spec)
    status, seconds, nodes = bench.verdict(rules, number, 30.0)
    assert status in ("solved", "unsolvable")
    assert seconds >= 0 and nodes > 0
    full = solve_deal(Position.deal(rules, number), max_seconds=30.0)
    assert full.status == status
