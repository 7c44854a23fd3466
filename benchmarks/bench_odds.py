"""Odds, hints and studies: how fast (figures printed, nothing asserted).

- hint latency on classic deals (cold in-memory cache, then warm);
- the optimal-policy study of the classic game, games per second on one
  core, with a cold and then a warm value cache;
- ``estimate_odds`` from a starting deal, 200 playouts.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver.cache import ValueCache
from lucie.solver.hints import hint
from lucie.solver.odds import estimate_odds
from lucie.solver.study import run_study


def _hints(cache: ValueCache, label: str) -> None:
    times = []
    for deal in range(1, 31):
        position = Position.deal(Rules(), deal)
        start = time.perf_counter()
        hint(position, max_seconds=2.0, cache=cache)
        times.append(time.perf_counter() - start)
    print(f"hint, classic deals 1..30, {label}: median {1000 * statistics.median(times):.0f} ms,"
          f" max {1000 * max(times):.0f} ms")


def main() -> None:
    cache = ValueCache(None)
    _hints(cache, "cold cache")
    _hints(cache, "warm cache")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "odds.sqlite"
        for label, games, seed in (("cold cache", 100, 1), ("warmer cache", 300, 2)):
            result = run_study(Rules(), games, seed=seed, jobs=1, cache_path=path,
                               progress=False)
            data = result.to_json()
            print(f"optimal-policy study, classic, {games} games on one core, {label}: "
                  f"{data['games_per_second']} games/s (won {data['wins']})")
        start = time.perf_counter()
        odds = estimate_odds(Position.deal(Rules(), 7), samples=200, seed=1,
                             cache=ValueCache(path))
        print(f"estimate_odds, classic deal 7, 200 playouts: "
              f"{time.perf_counter() - start:.2f} s ({100 * odds.win_rate:.1f}%)")
