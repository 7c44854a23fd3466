"""Certified bounds on an optimal row that budgets leave undecided (issue 28).

``LUCIE_BOUNDS_GAMES=200 python benchmarks/run.py bounds`` plays a sample of
numbered games with the optimal policy (as ``lucie study --policy optimal``
does, :func:`~lucie.analysis.study.run_study`) and prints the row as bounds
instead of a lower bound alone:

* **lower**: the games won (a game some search left undecided counts as
  lost), with the low end of its Wilson 95% interval;
* **upper**: the games won plus the lost games in which a search that
  decides the play (where to stop in a deal, or whether the last deal can
  be won: the record's ``unknown``) was cut short by its budget, each
  counted as won, with the high end of its Wilson interval.

A lost game in which no such search was cut was played exactly as the
policy without budgets plays it (the same stops, the same verdicts), so it
is lost under that policy too; the searches that only sample the values
of between-deal states are estimates in either case and are not counted.
The optimal rate of the sample lies between the two counts; the two
interval ends bound it for the variant with 95% confidence each.  When the
two counts meet, the row is measured (to the interval's half-width).

Settings: ``LUCIE_BOUNDS_VARIANT`` (default ``alternate``),
``LUCIE_BOUNDS_GAMES`` (default 20: a quick look; the figures in
``RESULTS.md`` say how many), ``LUCIE_BOUNDS_SEED`` (default 1),
``LUCIE_BOUNDS_SOLVE_SECONDS`` (default 10) and
``LUCIE_BOUNDS_SAMPLE_SECONDS`` (default 5) as ``lucie study``'s
``--solve-seconds`` / ``--sample-seconds``, ``LUCIE_BOUNDS_JOBS`` (default
1), ``LUCIE_BOUNDS_CACHE`` (default none: a memory cache per worker) a
value cache file.  On a terminal, a progress bar counts the games played.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

from lucie.analysis.odds import wilson
from lucie.analysis.study import GameRecord, run_study
from lucie.rules import Rules


@dataclass(frozen=True)
class Bounds:
    """The certified bounds of a sample of games."""

    games: int
    won: int
    undecided: int  # lost games with a deciding search cut short

    @property
    def lower(self) -> float:
        return self.won / self.games

    @property
    def upper(self) -> float:
        return (self.won + self.undecided) / self.games

    @property
    def ci95(self) -> tuple[float, float]:
        """The low end of the lower count's interval, the high end of the upper's."""
        return wilson(self.won, self.games)[0], wilson(self.won + self.undecided, self.games)[1]

    def line(self) -> str:
        low, high = self.ci95
        return (f"won {self.won} of {self.games}, {self.undecided} lost games undecided: "
                f"optimal rate between {100 * self.lower:.2f}% and {100 * self.upper:.2f}% "
                f"of the sample; 95% bounds {100 * low:.2f}-{100 * high:.2f}%")


def bounds(records: Sequence[GameRecord]) -> Bounds:
    """Count a study's records both ways."""
    if not records:
        raise ValueError("no game: nothing to bound")
    won = sum(r.won for r in records)
    undecided = sum(not r.won and r.unknown > 0 for r in records)
    return Bounds(len(records), won, undecided)


def _seconds(name: str, default: str) -> float | None:
    text = os.environ.get(name, default).strip()
    return None if text == "none" else float(text)


def main() -> None:
    spec = os.environ.get("LUCIE_BOUNDS_VARIANT", "alternate")
    games = int(os.environ.get("LUCIE_BOUNDS_GAMES", "20"))
    seed = int(os.environ.get("LUCIE_BOUNDS_SEED", "1"))
    solve = _seconds("LUCIE_BOUNDS_SOLVE_SECONDS", "10")
    sample = _seconds("LUCIE_BOUNDS_SAMPLE_SECONDS", "5")
    jobs = int(os.environ.get("LUCIE_BOUNDS_JOBS", "1"))
    cache = os.environ.get("LUCIE_BOUNDS_CACHE") or None
    load = os.getloadavg()
    print(f"   {spec}, {games} games from seed {seed}, optimal policy, solve {solve} s, "
          f"sample {sample} s, {jobs} job(s); load average {load[0]:.2f}, {load[1]:.2f}, "
          f"{load[2]:.2f}", flush=True)
    start = time.perf_counter()
    result = run_study(Rules.parse(spec), games, seed=seed, jobs=jobs, cache_path=cache,
                       solve_seconds=solve, sample_seconds=sample, progress=None)
    found = bounds(result.records)
    print(f"   {found.line()} ({time.perf_counter() - start:.0f} s)")
    cut = [r.deal for r in result.records if not r.won and r.unknown > 0]
    if cut:
        print(f"   undecided games (deal numbers): {', '.join(map(str, cut))}")
    load = os.getloadavg()
    print(f"   after: load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
