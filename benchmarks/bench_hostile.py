"""Reliability figures: the hostile-input suite, counted.

Runs ``tests/hostile`` (the command line, the store and every HTTP
endpoint fed malformed, oversized, forged and damaged input) with
``LUCIE_HOSTILE_REPORT`` set, so every case the tests try is written down
with its outcome, then prints how many inputs were tried and how they
ended: accepted, refused with a clean error (exit 2, HTTP 4xx, a 503 with
Retry-After for a full disk or a locked database), and the five failures
(a traceback, a 5xx other than those 503s, a hang, data lost, a foreign
file changed: renamed, replaced or written), which must all be 0, and the
figures the tests measured (the web server's peak RSS under repeated loads
of long games).  The areas of issue 36 (``disk``: a full disk and a locked
database; ``files``: foreign files, pipes, devices and symbolic links at
every path option; ``input``: endless and deep input, control characters)
are counted like the others.  The tests themselves fail on any failure;
this only counts.

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

FAILURES = ("traceback", "server_error", "hang", "data_lost", "foreign_changed")


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
    print(f"   {'area':<8} {'tried':>7} {'accepted':>9} {'clean errors':>13} "
          f"{'tracebacks':>11} {'5xx':>5} {'hangs':>6} {'data lost':>10} "
          f"{'foreign changed':>16}")

    def line(name: str, c: collections.Counter[str]) -> str:
        return (f"   {name:<8} {sum(c.values()):>7} {c['ok']:>9} {c['clean_error']:>13} "
                f"{c['traceback']:>11} {c['server_error']:>5} {c['hang']:>6} "
                f"{c['data_lost']:>10} {c['foreign_changed']:>16}")

    for area in sorted(by_area):
        total.update(by_area[area])
        print(line(area, by_area[area]))
    print(line("all", total))
    for f in figures:
        print(f"   {f['figure']}: {f['value']:g} {f['unit']}")
    if run.returncode != 0 or any(total[f] for f in FAILURES):
        print("   FAILED: see pytest tests/hostile", flush=True)
        print(run.stdout[-3000:])
        raise SystemExit(1)
