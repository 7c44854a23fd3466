"""Reliability figures: the hostile-input suite, counted.

Runs ``tests/hostile`` (the command line, the store and every HTTP
endpoint fed malformed, oversized, forged and damaged input) with
``LUCIE_HOSTILE_REPORT`` set, so every case the tests try is written down
with its outcome, then prints how many inputs were tried and how they
ended: accepted, refused with a clean error (exit 2, HTTP 4xx), and the
four failures (a traceback, a 5xx, a hang, data lost), which must all be 0,
and the figures the tests measured (the web server's peak RSS under
repeated loads of long games).
The tests themselves fail on any failure; this only counts.

Usage: ``python benchmarks/run.py hostile`` (or ``make bench ARGS=hostile``).
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

FAILURES = ("traceback", "server_error", "hang", "data_lost")


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "hostile.jsonl"
        env = dict(os.environ, LUCIE_HOSTILE_REPORT=str(report))
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
             "tests/hostile"],
            cwd=root, env=env, capture_output=True, text=True, check=False,
        )
        summary = run.stdout.strip().splitlines()[-1:] or ["(no output)"]
        print(f"   pytest tests/hostile: {summary[0]}")
        lines = [json.loads(line) for line in report.read_text().splitlines()] \
            if report.exists() else []
    records = [r for r in lines if "outcome" in r]
    figures = [r for r in lines if "figure" in r]
    by_area: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for r in records:
        by_area[r["area"]][r["outcome"]] += 1
    total: collections.Counter[str] = collections.Counter()
    print(f"   {'area':<8} {'inputs':>7} {'accepted':>9} {'clean errors':>13} "
          f"{'tracebacks':>11} {'5xx':>5} {'hangs':>6} {'data lost':>10}")
    for area in sorted(by_area):
        c = by_area[area]
        total.update(c)
        print(f"   {area:<8} {sum(c.values()):>7} {c['ok']:>9} {c['clean_error']:>13} "
              f"{c['traceback']:>11} {c['server_error']:>5} {c['hang']:>6} {c['data_lost']:>10}")
    print(f"   {'all':<8} {sum(total.values()):>7} {total['ok']:>9} {total['clean_error']:>13} "
          f"{total['traceback']:>11} {total['server_error']:>5} {total['hang']:>6} "
          f"{total['data_lost']:>10}")
    for f in figures:
        print(f"   {f['figure']}: {f['value']:g} {f['unit']}")
    if run.returncode != 0 or any(total[f] for f in FAILURES):
        print("   FAILED: see pytest tests/hostile", flush=True)
        print(run.stdout[-3000:])
        raise SystemExit(1)
