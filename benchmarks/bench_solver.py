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

``LUCIE_BENCH_DECIDED=1`` runs another table instead (issue 28's frontier):
for each variant of the family, how many of deals 1-40 ``lucie solve
--variant V --deal N --max-seconds 10`` decides, and how fast.  That
command settles the verdict first (:func:`solve_deal`'s ``verdict_first``:
the search with ``frontier=False`` and the whole budget, the score search
only after a loss is proved), so this table runs that verdict search alone:
its status is the command's ``solvable`` (true, false, or null when
undecided) and its time the time to the verdict (the command's output then
spends what is left on the best scores).  Times are wall-clock, as the
command's budget is; the load average is printed before and after, as the
machine may be shared.  Settings: ``LUCIE_DECIDED_DEALS`` (default
``1-40``), ``LUCIE_DECIDED_SECONDS`` (default 10), ``LUCIE_DECIDED_VARIANTS``
(default: every named variant; comma-separated specs, ``;`` between specs
that hold commas themselves).  Example: ``LUCIE_BENCH_DECIDED=1
LUCIE_DECIDED_VARIANTS=shamrocks LUCIE_DECIDED_DEALS=1-100 python
benchmarks/run.py solver``.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from lucie.engine import Position
from lucie.rules import VARIANTS, Rules
from lucie.solver._native import is_compiled
from lucie.solver.deal import search_deal, solve_deal
from lucie.solver.game import solve_game
from lucie.solver.shortcuts import shorten_line


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


def parse_deals(text: str) -> range:
    """Deals ``"1-40"`` (both ends included) or ``"7"`` as a range.

    >>> parse_deals("1-40"), parse_deals("7")
    (range(1, 41), range(7, 8))
    """
    first, _, last = text.strip().partition("-")
    start = int(first)
    stop = int(last) if last else start
    if start < 1 or stop < start:
        raise ValueError(f"deals {text!r}: expected N or N-M with 1 <= N <= M")
    return range(start, stop + 1)


def parse_specs(text: str | None) -> list[str]:
    """Variant specs, comma-separated (``;`` when a spec holds commas);
    every named variant of the family when ``text`` is empty or None."""
    if not text or not text.strip():
        return list(VARIANTS)
    sep = ";" if ";" in text else ","
    return [s.strip() for s in text.split(sep) if s.strip()]


@dataclass
class DecidedRow:
    """One variant's line of the decided table."""

    spec: str
    won: int = 0
    lost: int = 0
    undecided: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)

    def add(self, number: int, status: str, seconds: float, nodes: int) -> None:
        """Count deal ``number``'s verdict (a :class:`~lucie.solver.results.RawResult` status)."""
        if status == "solved":
            self.won += 1
        elif status == "unsolvable":
            self.lost += 1
        elif status == "unknown":
            self.undecided.append(number)
        else:
            raise ValueError(f"deal {number}: unexpected status {status!r}")
        self.times.append(seconds)
        self.nodes.append(nodes)

    def line(self) -> str:
        median = statistics.median(self.times) if self.times else 0.0
        longest = max(self.times, default=0.0)
        text = (f"   {self.spec:<12} {self.won:>4} {self.lost:>5} {len(self.undecided):>10} "
                f"{median:>9.3f} {longest:>7.2f} {max(self.nodes, default=0):>11,}")
        if self.undecided:
            text += f"   undecided: {', '.join(map(str, self.undecided))}"
        return text


def verdict(rules: Rules, number: int, max_seconds: float) -> tuple[str, float, int]:
    """Deal ``number``'s verdict as ``lucie solve --deal N --max-seconds S``
    settles it (the verdict-first search of :func:`solve_deal`): status,
    wall-clock seconds, positions."""
    position = Position.deal(rules, number)
    start = time.perf_counter()
    result = search_deal(position, frontier=False, max_seconds=max_seconds)
    return result.status, time.perf_counter() - start, result.nodes


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} cores)"


def decided(specs: Sequence[str], deals: range, max_seconds: float) -> list[DecidedRow]:
    """Print (and return) the decided table."""
    build = "compiled (mypyc)" if is_compiled() else "pure Python"
    print(f"   deals {deals.start}-{deals.stop - 1} as `lucie solve --variant V --deal N "
          f"--max-seconds {max_seconds:g}` decides them (verdict first), {build} search, "
          f"one core; {_load()}")
    print(f"   {'variant':<12} {'won':>4} {'lost':>5} {'undecided':>10} "
          f"{'median s':>9} {'max s':>7} {'max pos':>11}")
    rows = []
    for spec in specs:
        rules = Rules.parse(spec)
        row = DecidedRow(spec)
        for number in deals:
            row.add(number, *verdict(rules, number, max_seconds))
        print(row.line(), flush=True)
        rows.append(row)
    print(f"   after: {_load()}")
    return rows


def main() -> None:
    if os.environ.get("LUCIE_BENCH_DECIDED", "").strip() not in ("", "0"):
        decided(parse_specs(os.environ.get("LUCIE_DECIDED_VARIANTS")),
                parse_deals(os.environ.get("LUCIE_DECIDED_DEALS", "1-40")),
                float(os.environ.get("LUCIE_DECIDED_SECONDS", "10")))
        return
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
