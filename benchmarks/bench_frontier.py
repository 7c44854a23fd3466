"""The solver's frontier: how many first deals each variant decides.

For each variant, solves the first deal (no redeal: can it be cleared as
dealt?) of deals 1..N with ``solve_deal(..., frontier=False)`` and a
budget per deal, and prints how many were won, proved lost and left
undecided, with the median and the largest time and positions.  Issue 28
measures the frontier against Solvitaire on these counts.

Settings (environment variables, as ``benchmarks/run.py`` passes no
arguments):

- ``LUCIE_FRONTIER_DEALS`` (default 40): deals 1..N;
- ``LUCIE_FRONTIER_SECONDS`` (default 10): the time budget of each deal;
- ``LUCIE_FRONTIER_NODES`` (default none): a budget in positions instead,
  which does not depend on the machine's load;
- ``LUCIE_FRONTIER_VARIANTS`` (default: flower, alternate, reserve,
  shamrocks, shamrocks2, fan, noredeal): comma-separated variant specs
  (``;`` between specs that hold commas themselves).

Usage: ``LUCIE_FRONTIER_NODES=300000 python benchmarks/run.py frontier``.
With the default 10 s budget all seven variants take up to about 45
minutes; ``LUCIE_FRONTIER_DEALS=10`` is a quick look.
"""

from __future__ import annotations

import os
import statistics
import time

from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver.deal import solve_deal

VARIANTS = ["flower", "alternate", "reserve", "shamrocks", "shamrocks2", "fan", "noredeal"]


def _specs() -> list[str]:
    text = os.environ.get("LUCIE_FRONTIER_VARIANTS")
    if not text:
        return VARIANTS
    sep = ";" if ";" in text else ","
    return [s.strip() for s in text.split(sep) if s.strip()]


def main() -> None:
    deals = int(os.environ.get("LUCIE_FRONTIER_DEALS", "40"))
    nodes_text = os.environ.get("LUCIE_FRONTIER_NODES")
    max_nodes = int(nodes_text) if nodes_text else None
    max_seconds = None if max_nodes else float(os.environ.get("LUCIE_FRONTIER_SECONDS", "10"))
    budget = f"{max_nodes:,} positions" if max_nodes else f"{max_seconds:g} s"
    print(f"   first deals 1-{deals}, {budget} a deal, frontier=False")
    print(f"   {'variant':<12} {'won':>4} {'lost':>5} {'undecided':>10} "
          f"{'median s':>9} {'max s':>7} {'median pos':>11} {'max pos':>9}")
    for spec in _specs():
        rules = Rules.parse(spec)
        counts = {"solved": 0, "unsolvable": 0, "unknown": 0}
        times: list[float] = []
        positions: list[int] = []
        undecided: list[int] = []
        for number in range(1, deals + 1):
            start = time.process_time()
            result = solve_deal(Position.deal(rules, number), frontier=False,
                                max_nodes=max_nodes, max_seconds=max_seconds)
            times.append(time.process_time() - start)
            positions.append(result.nodes)
            counts[result.status] += 1
            if result.status == "unknown":
                undecided.append(number)
        print(f"   {spec:<12} {counts['solved']:>4} {counts['unsolvable']:>5} "
              f"{counts['unknown']:>10} {statistics.median(times):>9.3f} {max(times):>7.2f} "
              f"{int(statistics.median(positions)):>11,} {max(positions):>9,}", flush=True)
        if undecided:
            print(f"   {'':<12} undecided: {', '.join(map(str, undecided))}")
