"""The search's speed against another commit's, side by side (issue 26).

``LUCIE_AB_BEFORE=/path/to/src python benchmarks/run.py ab`` where the path
is the ``src`` folder of another checkout, for example::

    git archive 3dad989 | tar -x -C /work/before
    LUCIE_AB_BEFORE=/work/before/src LUCIE_PURE=1 python benchmarks/run.py ab

Skipped when ``LUCIE_AB_BEFORE`` is not set.  Each round runs this tree's
search and the other one's at the same time, one process each (a machine of
two cores runs both at once, so load hits both alike); each row is the
least CPU time over the rounds (``LUCIE_AB_ROUNDS``, default 3) and
``LUCIE_AB_REPEATS`` repeats within a round (default 3).  The rows call the
raw one-deal search (``search_deal``: the same positions on both sides when
the search is unchanged, printed to check it) and whole games
(``solve_game``); ``LUCIE_AB_ROWS`` keeps the rows whose name holds one
of its comma-separated words.  ``LUCIE_PURE=1`` compares the pure builds; without it
each side uses its compiled build when its stamp matches (``make compiled``
here; the other tree's own build tool, ``scripts/native.py build`` or, before
issue 39, ``lucie.solver._native``'s ``main(['build'])``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: row -> (variant, first deal, last deal, search_deal arguments); None: whole games
ROWS: dict[str, tuple[str, int, int, dict[str, Any] | None]] = {
    "classic 1..500 (frontier)": ("classic", 1, 500, {"frontier": True}),
    "classic 1..500 (verdict)": ("classic", 1, 500, {"frontier": False}),
    "merci 1..200 (frontier)": ("merci", 1, 200, {"frontier": True, "max_nodes": 20000}),
    "trefoil 1..300 (frontier)": ("trefoil", 1, 300, {"frontier": True}),
    "fan 1..100 (verdict)": ("fan", 1, 100, {"frontier": False, "max_nodes": 20000}),
    "alternate 1..15 (verdict, 20000 positions)":
        ("alternate", 1, 15, {"frontier": False, "max_nodes": 20000}),
    "reserve 1..10 (verdict, 20000 positions)":
        ("reserve", 1, 10, {"frontier": False, "max_nodes": 20000}),
    "shamrocks 1..10 (verdict, 5000 positions)":
        ("shamrocks", 1, 10, {"frontier": False, "max_nodes": 5000}),
    "flower 1..10 (frontier, 5000 positions)":
        ("flower", 1, 10, {"frontier": True, "max_nodes": 5000}),
    "classic whole games 1..200 (10 s)": ("classic", 1, 200, None),
    "merci whole games 1..100 (10 s)": ("merci", 1, 100, None),
    "trefoil whole games 1..50 (10 s)": ("trefoil", 1, 50, None),
}


def _row(spec: str, first: int, last: int, kwargs: dict[str, Any] | None) -> Callable[[], int]:
    """A row's work, returning the positions it searched."""
    from lucie.engine import Position
    from lucie.rules import Rules
    from lucie.solver.deal import search_deal
    from lucie.solver.game import solve_game

    rules = Rules.parse(spec)
    deals = range(first, last + 1)
    if kwargs is None:
        return lambda: sum(solve_game(rules, n, max_seconds=10).nodes for n in deals)
    positions = [Position.deal(rules, n) for n in deals]
    return lambda: sum(search_deal(p, **kwargs).nodes for p in positions)


def chosen_rows() -> list[str]:
    """The rows that ``LUCIE_AB_ROWS`` keeps (all by default)."""
    words = [w.strip() for w in os.environ.get("LUCIE_AB_ROWS", "").split(",") if w.strip()]
    return [name for name in ROWS if not words or any(w in name for w in words)]


def worker(repeats: int) -> dict[str, tuple[float, int]]:
    """Each chosen row's least CPU time over ``repeats`` and its positions,
    with the ``lucie`` on ``sys.path`` (the side being measured)."""
    out: dict[str, tuple[float, int]] = {}
    for name in chosen_rows():
        spec, first, last, kwargs = ROWS[name]
        run = _row(spec, first, last, kwargs)
        best, nodes = float("inf"), 0
        for _ in range(repeats):
            cpu = time.process_time()
            nodes = run()
            best = min(best, time.process_time() - cpu)
        out[name] = (best, nodes)
    return out


def main() -> None:
    before = os.environ.get("LUCIE_AB_BEFORE")
    if not before:
        print("skipped: set LUCIE_AB_BEFORE to the src folder of another checkout")
        return
    rounds = int(os.environ.get("LUCIE_AB_ROUNDS", "3"))
    repeats = os.environ.get("LUCIE_AB_REPEATS", "3")
    here = str(Path(__file__).resolve().parents[1] / "src")
    sides = {"before": str(Path(before).resolve()), "after": here}
    if not (Path(before) / "lucie" / "__init__.py").is_file():
        raise SystemExit(f"LUCIE_AB_BEFORE={before}: no lucie package there (give the src "
                         "folder of another checkout)")
    pure = os.environ.get("LUCIE_PURE") == "1"
    print(f"build: {'pure' if pure else 'compiled where built'}; before {sides['before']}, "
          f"after {here}; load average {os.getloadavg()[0]:.2f}", flush=True)
    best: dict[str, dict[str, tuple[float, int]]] = {"before": {}, "after": {}}
    for _ in range(rounds):
        procs = {
            side: subprocess.Popen(
                [sys.executable, __file__, "--worker", repeats],
                env={**os.environ, "PYTHONPATH": path}, stdout=subprocess.PIPE, text=True)
            for side, path in sides.items()
        }
        for side, proc in procs.items():
            stdout, _ = proc.communicate()
            if proc.returncode:
                raise SystemExit(f"the {side} side failed (exit {proc.returncode})")
            result = json.loads(stdout)
            measured = Path(result.pop("lucie")).resolve()
            if not measured.is_relative_to(sides[side]):
                raise SystemExit(f"the {side} side measured the lucie of {measured}")
            for name, (cpu, nodes) in result.items():
                old = best[side].get(name)
                best[side][name] = (min(cpu, old[0]) if old else cpu, nodes)
    print("| row | before: CPU s | after: CPU s | after/before | positions before, after |")
    print("|---|---|---|---|---|")
    for name in chosen_rows():
        (b, bn), (a, an) = best["before"][name], best["after"][name]
        print(f"| {name} | {b:.3f} | {a:.3f} | {a / b:.2f} | {bn:,}, {an:,} |")
    print(f"(load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    import lucie

    print(json.dumps({**worker(int(sys.argv[2])), "lucie": lucie.__file__}))
