"""Moves per second through each interface, for one source tree (the one
on PYTHONPATH), as CPU time (what a loaded machine changes least) and wall
time: line mode (600 moves, undo and replay, each saved), the web server
(one player x 300 moves, then 20 players x 30 moves; the server process's
CPU time), the terminal game (120 key presses at 80x24).  One JSON line.

Side by side with another commit: extract it (``git archive COMMIT src
benchmarks | tar -x -C /tmp/base``) and run, alternating::

    PYTHONPATH=/tmp/base/src:/tmp/base/benchmarks python benchmarks/bench_session_ab.py
    PYTHONPATH=src:benchmarks python benchmarks/bench_session_ab.py
"""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time

import bench_cli
import bench_tui
import bench_web


def cpu_of(pid: int) -> float:
    """CPU seconds a process has used (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    out: dict[str, float] = {}
    c0 = time.process_time()
    n, secs = bench_cli.line_mode(600)
    out["line_mode_moves_per_cpu_s"] = n / (time.process_time() - c0)
    out["line_mode_moves_per_wall_s"] = n / secs
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = bench_web.start_server(os.path.join(tmp, "b.sqlite3"))
        try:
            time.sleep(0.5)
            s0 = cpu_of(proc.pid)
            alone = asyncio.run(bench_web.run_load(url, players=1, moves=300, seed=3))
            s1 = cpu_of(proc.pid)
            burst = asyncio.run(bench_web.run_load(url, players=20, moves=30, seed=2))
            s2 = cpu_of(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    assert not alone.errors and not burst.errors, (alone.errors[:3], burst.errors[:3])
    out["web_alone_moves_per_server_cpu_s"] = len(alone.latencies) / (s1 - s0)
    out["web_alone_moves_per_wall_s"] = len(alone.latencies) / alone.seconds
    out["web_burst20_moves_per_server_cpu_s"] = len(burst.latencies) / (s2 - s1)
    out["web_burst20_moves_per_wall_s"] = len(burst.latencies) / burst.seconds
    c0 = time.process_time()
    ms = sorted(t * 1000 for t in asyncio.run(bench_tui._measure((80, 24), 120)))
    out["tui_keys_per_cpu_s"] = len(ms) / (time.process_time() - c0)
    out["tui_median_ms"] = statistics.median(ms)
    out["load"] = os.getloadavg()[0]
    print(json.dumps({k: round(v, 1) for k, v in out.items()}))


if __name__ == "__main__":
    main()
