"""``benchmarks/run.py ab`` compares the search with another tree's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_ab(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "ab"],
        env={**os.environ, "LUCIE_PURE": "1", **env}, capture_output=True, text=True,
        timeout=300, check=False,
    )


def test_without_another_tree_it_says_it_is_skipped() -> None:
    env = {k: v for k, v in os.environ.items() if k != "LUCIE_AB_BEFORE"}
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "run.py"), "ab"], env=env,
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout
    assert "skipped: set LUCIE_AB_BEFORE" in out


def test_a_tree_against_itself_searches_the_same_positions() -> None:
    proc = run_ab(LUCIE_AB_BEFORE=str(ROOT / "src"), LUCIE_AB_ROWS="trefoil 1..300",
                  LUCIE_AB_ROUNDS="1", LUCIE_AB_REPEATS="1")
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| trefoil")]
    assert len(rows) == 1, proc.stdout
    cells = [c.strip() for c in rows[0].strip("|").split("|")]
    name, before, after, ratio, positions = cells
    assert name == "trefoil 1..300 (frontier)"
    assert float(before) > 0 and float(after) > 0
    assert abs(float(ratio) - float(after) / float(before)) < 0.01
    first, second = positions.split(", ")
    assert first == second and int(first.replace(",", "")) > 300


def test_a_folder_without_lucie_is_refused(tmp_path: Path) -> None:
    proc = run_ab(LUCIE_AB_BEFORE=str(tmp_path), LUCIE_AB_ROWS="trefoil 1..300",
                  LUCIE_AB_ROUNDS="1", LUCIE_AB_REPEATS="1")
    assert proc.returncode != 0
    assert f"LUCIE_AB_BEFORE={tmp_path}: no lucie package there" in proc.stderr
