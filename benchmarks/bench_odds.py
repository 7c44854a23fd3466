"""Odds, hints and studies: how fast (figures printed, nothing asserted).

- hint latency on classic deals (cold in-memory cache, then warm);
- the optimal-policy study of the classic game, games per second on one
  core, with a cold and then a warm value cache; then the steady state of
  a long study: 1000 new games once 2000 others have filled the value
  cache, then the same 1000 again with every value cached: the limit of a
long study, whose cache stops growing (the figure the issue's 500
games/s target is about), with the
  build of the one-deal search in use (``make compiled`` or pure Python;
  ``LUCIE_PURE=1`` forces pure);
- ``estimate_odds`` from a starting deal, 200 playouts.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from lucie.analysis.cache import ValueCache
from lucie.analysis.hints import hint
from lucie.analysis.odds import Evaluator, estimate_odds
from lucie.analysis.study import draw_deals, play_optimal, run_study
from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver._native import is_compiled


def _hints(cache: ValueCache, label: str) -> None:
    times = []
    for deal in range(1, 31):
        position = Position.deal(Rules(), deal)
        start = time.perf_counter()
        hint(position, max_seconds=2.0, cache=cache)
        times.append(time.perf_counter() - start)
    print(f"hint, classic deals 1..30, {label}: median {1000 * statistics.median(times):.0f} ms,"
          f" max {1000 * max(times):.0f} ms")


def _steady_state() -> None:
    build = "compiled (mypyc)" if is_compiled() else "pure Python"
    rules = Rules()
    ev = Evaluator(rules, ValueCache(None), rng=random.Random(1))
    for deal in draw_deals(11, 2000):
        play_optimal(rules, deal, ev)
    timed = draw_deals(12, 1000)
    for label in ("1000 new games after 2000", "the same 1000 again, every value cached"):
        ev.solves = 0
        start = time.perf_counter()
        wins = sum(play_optimal(rules, deal, ev).won for deal in timed)
        seconds = time.perf_counter() - start
        print(f"optimal-policy study, classic, {label} ({build}): {seconds:.2f} s = "
              f"{1000 / seconds:.0f} games/s on one core (won {wins}; "
              f"{ev.solves / 1000:.2f} one-deal searches a game)")


def main() -> None:
    _steady_state()
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
