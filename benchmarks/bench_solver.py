"""Solver benchmarks: exact one-deal verdicts and whole-game solving.

``python benchmarks/run.py solver``.  One process, one core.  Times are
wall-clock of :func:`solve_deal` (without shortcuts in its lines, timed on
their own) / :func:`solve_game` alone (the starting
positions are built before the clock starts); the CPU time of the process
is printed too, as wall-clock suffers when other work shares the machine.
Rows with a time budget search as far as the time allows (their node counts
vary with the speed); the rows with a position budget do the same work
everywhere, and are the ones to compare builds and commits by.
The build of the one-deal search in use is printed first (``make compiled``
for the mypyc build; ``LUCIE_PURE=1`` forces pure Python).
"""

from __future__ import annotations

import statistics
import time

from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver._native import is_compiled
from lucie.solver.deal import solve_deal
from lucie.solver.game import solve_game
from lucie.solver.shorten import shorten_line


def _verdicts(spec: str, deals: range, *, frontier: bool, max_seconds: float | None,
              max_nodes: int | None = None) -> None:
    rules = Rules.parse(spec)
    positions = [Position.deal(rules, n) for n in deals]
    times: list[float] = []
    counts = {"solved": 0, "unsolvable": 0, "unknown": 0}
    nodes = 0
    cpu_start = time.process_time()
    total_start = time.perf_counter()
    for p in positions:
        t = time.perf_counter()
        r = solve_deal(p, frontier=frontier, max_seconds=max_seconds, max_nodes=max_nodes,
                       shorten=False)
        times.append(time.perf_counter() - t)
        counts[r.status] += 1
        nodes += r.nodes
    total = time.perf_counter() - total_start
    cpu = time.process_time() - cpu_start
    kind = "full frontier" if frontier else "verdict only"
    budget = f", budget {max_seconds:g} s/deal" if max_seconds else ""
    if max_nodes:
        budget += f", budget {max_nodes} positions/deal"
    print(f"{spec:10s} deals {deals.start}..{deals.stop - 1} ({kind}{budget}): "
          f"median {statistics.median(times) * 1000:.2f} ms, "
          f"p90 {sorted(times)[int(len(times) * 0.9)] * 1000:.1f} ms, "
          f"max {max(times) * 1000:.0f} ms, total {total:.2f} s (CPU {cpu:.2f} s); "
          f"solvable {counts['solved']}/{len(positions)} "
          f"({100 * counts['solved'] / len(positions):.1f}%), "
          f"unknown {counts['unknown']}, {nodes} nodes", flush=True)


def _shortcuts(spec: str, deals: range, max_seconds: float) -> None:
    """Shortcuts in the walk's winning lines (the verdicts above are timed
    without them)."""
    rules = Rules.parse(spec)
    before = after = 0
    times: list[float] = []
    for n in deals:
        p = Position.deal(rules, n)
        r = solve_deal(p, frontier=False, max_seconds=max_seconds, shorten=False)
        if r.status != "solved":
            continue
        t = time.perf_counter()
        short = shorten_line(p, r.moves)
        times.append(time.perf_counter() - t)
        before += len(r.moves)
        after += len(short)
    print(f"{spec:10s} shortcuts in the {len(times)} winning lines of deals "
          f"{deals.start}..{deals.stop - 1}: {before} moves -> {after}; "
          f"median {statistics.median(times) * 1000:.0f} ms, max {max(times):.2f} s a line",
          flush=True)


def _whole(spec: str, deals: range, max_seconds: float) -> None:
    rules = Rules.parse(spec)
    counts = {"won": 0, "lost": 0, "unknown": 0}
    times: list[float] = []
    nodes = 0
    cpu_start = time.process_time()
    start = time.perf_counter()
    for n in deals:
        r = solve_game(rules, n, max_seconds=max_seconds)
        counts[r.status] += 1
        times.append(r.seconds)
        nodes += r.nodes
    total = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(f"{spec:10s} whole games {deals.start}..{deals.stop - 1} "
          f"(budget {max_seconds:g} s/game): won {counts['won']}, lost {counts['lost']}, "
          f"unknown {counts['unknown']}; median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times):.2f} s, total {total:.1f} s (CPU {cpu:.1f} s), {nodes} nodes",
          flush=True)


def main() -> None:
    build = "compiled (mypyc)" if is_compiled() else "pure Python"
    print(f"exact one-deal verdicts (no redeal), one core, {build} search:")
    _verdicts("classic", range(1, 501), frontier=False, max_seconds=None)
    _verdicts("classic", range(1, 501), frontier=True, max_seconds=None)
    _verdicts("trefoil", range(1, 501), frontier=False, max_seconds=None)
    _verdicts("fan", range(1, 101), frontier=False, max_seconds=10)
    _verdicts("alternate", range(1, 31), frontier=False, max_seconds=1)
    _verdicts("shamrocks", range(1, 31), frontier=False, max_seconds=1)
    # the same work on every machine and build (the rows above with a time
    # budget search as far as the time allows): compare their CPU times
    _verdicts("alternate", range(1, 31), frontier=False, max_seconds=None, max_nodes=20000)
    _verdicts("reserve", range(1, 31), frontier=False, max_seconds=None, max_nodes=20000)
    _verdicts("flower", range(1, 21), frontier=True, max_seconds=None, max_nodes=20000)
    _shortcuts("shamrocks", range(1, 31), max_seconds=1)
    print("whole numbered games across the redeals (fixed shuffles):")
    _whole("classic", range(1, 201), max_seconds=10)
    _whole("merci", range(1, 101), max_seconds=10)
    _whole("trefoil", range(1, 51), max_seconds=10)
    _whole("flower", range(1, 21), max_seconds=5)


if __name__ == "__main__":
    main()
