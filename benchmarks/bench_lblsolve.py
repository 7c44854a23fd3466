"""lucie against lblsolve: the best score of one deal of the classic game, same layouts.

``LBLSOLVE_SRC=/path/to/lblsolve python benchmarks/run.py lblsolve``, where
the directory holds the ``lblsolve`` package of a clone of
https://github.com/sobjornstad/lblsolve (the PyPI wheel ships no code); an
importable ``lblsolve.cards`` works too.  Nothing of lblsolve is bundled here:
it only runs as an external program.  ``LBLSOLVE_DEALS`` (default 20) sets how
many classic deals (1..N) are compared, ``LBLSOLVE_TIMEOUT`` (default 120)
the seconds lblsolve may take per deal.

For each deal the first layout is built with lucie's engine, then:

* lblsolve (``python -m lblsolve.cards``, one deal: no ``--redeal``, no
  ``--merci``) reads it on standard input; its time is the wall-clock of the
  whole process (interpreter start included, and its own fan-out: one process
  per first move), with its own timer (which starts after it has read the
  layout) and its CPU time (all its processes) beside it.  Its
  score is the "transferring K cards to the foundation" of its output (0 when
  it reports that no move leads to a foundation move).
* lucie's exact one-deal search (:func:`search_deal`, ``best_only``) runs in
  this process on the same position, best of 3 wall-clock runs; its score is
  the most cards on the foundations reachable without a redeal.

Printed: one line per deal, then the medians and maxima of both times, the
ratio of the medians, the smallest per-deal ratio, and the deals where the
scores differ.  The machine may be shared: times are as measured.
"""

from __future__ import annotations

import importlib.util
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from lucie.cards import Card
from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver._native import is_compiled
from lucie.solver.deal import search_deal

HOW_TO_GET = ("lblsolve not found: clone https://github.com/sobjornstad/lblsolve and set "
              "LBLSOLVE_SRC to the clone (the directory holding the lblsolve package)")

_BEST = re.compile(r"Best sequence has (\d+) moves, transferring (\d+) cards to the "
                   r"foundation and leaving (\d+) on the tableau")
_NO_MOVE = "No legal moves from this position would allow a foundation move"
_OWN_TIMER = re.compile(r"(?:Game solved|Solution space exhausted) in ([0-9.]+)ms")


@dataclass
class LblRun:
    """One run of lblsolve on one layout."""

    cards: int | None  # None: timed out or no score in its output
    seconds: float  # wall-clock of the whole process
    cpu: float  # user + system time of its processes (those it waited for)
    own_ms: float | None  # its own timer (after reading the layout)
    timed_out: bool
    returncode: int | None
    output: str
    error: str


def _lblsolve_root() -> Path | None:
    """The directory holding the ``lblsolve`` package, or None."""
    src = os.environ.get("LBLSOLVE_SRC", "").strip()
    if src:
        root = Path(src).expanduser().resolve()
        return root if (root / "lblsolve" / "cards.py").is_file() else None
    try:
        spec = importlib.util.find_spec("lblsolve.cards")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin).resolve().parent.parent


def _card_text(card: Card) -> str:
    """A card as lblsolve reads it: ``10H`` for a ten, ``QS`` otherwise."""
    rank = "10" if card.rank == 10 else str(card)[:-1]
    return rank + card.suit


def layout_text(position: Position) -> str:
    """One fan a line, bottom card first, cards separated by spaces."""
    return "".join(" ".join(_card_text(c) for c in fan) + "\n" for fan in position.fans)


def run_lblsolve(root: Path, layout: str, timeout: float) -> LblRun:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH")) if p)
    env["PYTHONIOENCODING"] = "utf-8"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "lblsolve.cards"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=root, env=env, start_new_session=True,  # its own group: killed whole
    )
    timed_out = False
    try:
        out, err = proc.communicate(layout.encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    output = out.decode("utf-8", errors="replace")
    cards: int | None = None
    if not timed_out:
        found = _BEST.search(output)
        if found:
            cards = int(found.group(2))
        elif _NO_MOVE in output:
            cards = 0
    timer = _OWN_TIMER.search(output)
    return LblRun(cards, seconds, cpu, float(timer.group(1)) if timer else None,
                  timed_out, None if timed_out else proc.returncode, output,
                  err.decode("utf-8", errors="replace"))


def move_list(output: str) -> list[str]:
    """lblsolve's printed move sequence (the lines after "Move sequence:")."""
    lines = output.replace("\r", "\n").splitlines()
    if "Move sequence:" not in lines:
        return []
    moves = []
    for line in lines[lines.index("Move sequence:") + 1:]:
        if not line.startswith("  "):
            break
        moves.append(line.strip())
    return moves


def _env_number(name: str, default: float) -> float | None:
    text = os.environ.get(name, "").strip()
    try:
        return float(text) if text else default
    except ValueError:
        print(f"{name}={text!r} is not a number")
        return None


def main() -> None:
    root = _lblsolve_root()
    if root is None:
        print(HOW_TO_GET)
        return
    deals = _env_number("LBLSOLVE_DEALS", 20)
    timeout = _env_number("LBLSOLVE_TIMEOUT", 120)
    if deals is None or timeout is None:
        return
    rules = Rules()
    build = "compiled (mypyc)" if is_compiled() else "pure Python"
    print(f"lblsolve from {root} ({sys.executable} -m lblsolve.cards, one deal, "
          f"timeout {timeout:g} s); lucie search_deal: {build}, best of 3")
    lbl_times: list[float] = []
    lucie_times: list[float] = []
    ratios: list[tuple[float, int, bool]] = []  # ratio, deal, lower bound only
    own_times: list[float] = []  # lblsolve's own timer, deals it finished
    own_ratios: list[tuple[float, int]] = []
    below: list[tuple[int, int, int, LblRun]] = []
    above: list[tuple[int, int, int]] = []
    failed: list[int] = []
    for n in range(1, int(deals) + 1):
        position = Position.deal(rules, n)
        layout = layout_text(position)
        lbl = run_lblsolve(root, layout, timeout)
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            result = search_deal(position, frontier=True, best_only=True)
            best = min(best, time.perf_counter() - t)
        score = result.best_score
        lbl_times.append(lbl.seconds)
        lucie_times.append(best)
        ratio = lbl.seconds / best
        ratios.append((ratio, n, lbl.timed_out))
        if lbl.timed_out:
            lbl_part = f"lblsolve timeout >{timeout:g} s"
            cmp = "?"
        elif lbl.cards is None:
            failed.append(n)
            lbl_part = f"lblsolve no score (exit {lbl.returncode}) {lbl.seconds:6.2f} s"
            cmp = "?"
        else:
            own = f"{lbl.own_ms / 1000:.3f}" if lbl.own_ms is not None else "?"
            if lbl.own_ms is not None:
                own_ratios.append((lbl.own_ms / 1000 / best, n))
                own_times.append(lbl.own_ms / 1000)
            lbl_part = (f"lblsolve {lbl.cards:2d} cards {lbl.seconds:7.2f} s "
                        f"(own timer {own:>7s} s, CPU {lbl.cpu:6.2f} s)")
            cmp = "=" if score == lbl.cards else ("<" if score < lbl.cards else ">")
            if score < lbl.cards:
                below.append((n, score, lbl.cards, lbl))
            elif score > lbl.cards:
                above.append((n, score, lbl.cards))
        print(f"deal {n:3d}: {lbl_part:63s} | lucie {score:2d} cards ({result.status:10s}) "
              f"{best * 1000:8.2f} ms | {cmp} | ratio {'>' if lbl.timed_out else ''}"
              f"{ratio:,.0f}x", flush=True)
        if lbl.cards is None and not lbl.timed_out:
            print(f"   lblsolve stderr: {lbl.error.strip()[-300:]!r}")

    count = len(lbl_times)
    timeouts = sum(1 for _, _, lower in ratios if lower)
    note = f" ({timeouts} timed out, counted at the timeout: lower bounds)" if timeouts else ""
    print(f"summary over {count} classic deals{note}:")
    print(f"  lblsolve wall-clock: median {statistics.median(lbl_times):.2f} s, "
          f"max {max(lbl_times):.2f} s")
    print(f"  lucie search_deal:   median {statistics.median(lucie_times) * 1000:.2f} ms, "
          f"max {max(lucie_times) * 1000:.2f} ms ({build})")
    smallest, worst_deal, lower = min(ratios)
    of_medians = statistics.median(lbl_times) / statistics.median(lucie_times)
    print(f"  ratio of medians {of_medians:,.0f}x; "
          f"smallest per-deal ratio {'>' if lower else ''}{smallest:,.0f}x (deal {worst_deal}); "
          f"the issue asks for at least 1000x")
    if own_ratios:
        own_median = statistics.median(own_times)
        mine = statistics.median(lucie_times[n - 1] for _, n in own_ratios)
        own_min, own_deal = min(own_ratios)
        print(f"  on lblsolve's own timer (no interpreter start; {len(own_times)} deals): "
              f"median {own_median:.2f} s, ratio of medians {own_median / mine:,.0f}x, "
              f"smallest per-deal ratio {own_min:,.0f}x (deal {own_deal})")
    compared = count - timeouts - len(failed)
    print(f"  scores compared on {compared} deals: lucie below lblsolve on {len(below)}, "
          f"above on {len(above)}"
          + (f" (deals {', '.join(str(n) for n, _, _ in above)})" if above else "")
          + (f"; no lblsolve score on deals {failed}" if failed else ""))
    for n, mine, theirs, run in below:
        print(f"  !!! LUCIE BELOW LBLSOLVE on deal {n}: lucie {mine}, lblsolve {theirs} "
              f"(a bug in lucie); lblsolve's moves:")
        for line in move_list(run.output):
            print(f"      {line}")
    for n, mine, theirs in above:
        print(f"  deal {n}: lucie {mine} cards, lblsolve {theirs} (its safe-build "
              f"heuristics missed the best line)")


if __name__ == "__main__":
    main()
