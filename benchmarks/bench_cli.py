"""Command-line speed: line mode with the store, and start-up.

- line mode: a scripted ``lucie play --plain`` session in-process on a
  fresh database (each move is parsed, played, saved to SQLite and the
  table printed); reports milliseconds per move, the save included;
- start-up: ``python -m lucie show --deal 1`` as a real process (best of 5).
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lucie.cli import main as lucie
from lucie.engine import Game
from lucie.rules import Rules


def line_mode(moves: int) -> tuple[int, float]:
    """Play ``moves`` moves (forward and back with u/y) in one session."""
    game = Game(Rules(), 1)
    first = str(game.legal_moves[0])
    script = (first + "\nu\n") * (moves // 2) + "q\n"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        old = sys.stdin
        sys.stdin = io.StringIO(script)
        try:
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                lucie(["play", "--plain", "--db", str(db), "--deal", "1", "--player", "b"])
            return 2 * (moves // 2), time.perf_counter() - start
        finally:
            sys.stdin = old


def startup(runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "lucie", "show", "--deal", "1"],
                       check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    moves, seconds = line_mode(400)
    print(f"   line mode   {seconds / moves * 1000:9.2f} ms per move, saved "
          f"({moves} moves, store on a temporary file)")
    print(f"   start-up    {startup() * 1000:9.0f} ms for `lucie show --deal 1` (best of 5)")


if __name__ == "__main__":
    main()
