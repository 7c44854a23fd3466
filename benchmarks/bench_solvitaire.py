"""lucie against Solvitaire: first-deal verdicts of the family, same layouts.

``SOLVITAIRE=/path/to/solvitaire python benchmarks/run.py solvitaire``, where
the binary is built from https://github.com/thecharlesblake/Solvitaire (C++,
GPL: it only runs here as an external program, nothing of it is bundled).
Without ``SOLVITAIRE`` the benchmark prints how to get it and stops.

For each deal of each variant of the plan, the first layout (as dealt,
before any redeal) is built with lucie's engine, then:

* Solvitaire reads it as a JSON deal file, with the variant written as its
  custom rules (:func:`solvitaire_rules`: one tableau pile per fan, builds
  down in suit, in any suit or in alternating colours, one card moved at a
  time, empty piles filled by nothing or by kings, free cells, foundations
  from which nothing comes back; its automatic foundation moves are its own
  safe-move rule and stay on, as every variant compared builds down).  It
  runs with ``--timeout`` (milliseconds); its answer is the "Solution Type"
  of its output (``solved``, ``unsolvable``; anything else, a time-out, its
  memory cap, a crash, counts as unknown), its time its own "Time Taken"
  (after reading the deal) beside the wall-clock and the CPU time of the
  process (both sides' budgets are wall-clock: on a shared machine the CPU
  time says how much of it each side had).
* lucie decides the same position as ``lucie solve --variant V --deal N
  --max-seconds S`` does (the verdict first: ``search_deal(...,
  frontier=False, max_seconds=S)``), in this process, after Solvitaire.

Variants Solvitaire's rules cannot say without a patch (Shamrocks' up-or-down
builds and three-card limit, a foundation take-back) are skipped with a
note.  Printed: one line per variant with both sides' solvable / unsolvable /
unknown counts, the deals where both gave a definite verdict and they
differ (0 expected), the deals only one side decided, and both sides'
median and largest times.  ``SOLVITAIRE_VERBOSE=1`` also prints one line
per deal.

Settings: ``SOLVITAIRE_SECONDS`` (default 60) the budget of each deal on
each side; ``SOLVITAIRE_PLAN`` (default
``noredeal:1-200,fan:1-40,reserve:1-40,flower:1-20,alternate:1-10``) the
variants and deals; ``SOLVITAIRE_CACHE`` (default 20,000,000) Solvitaire's
``--cache-capacity`` in states, and ``SOLVITAIRE_MEMORY_MB`` (default
6000) the address space it may use (a run past it counts as unknown): the
machine may be shared.
"""

from __future__ import annotations

import json
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lucie.cards import Card
from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver._native import is_compiled
from lucie.solver.deal import search_deal

HOW_TO_GET = ("SOLVITAIRE is not set: build https://github.com/thecharlesblake/Solvitaire "
              "(needs the Boost headers and boost_program_options) and set "
              "SOLVITAIRE=/path/to/solvitaire")

DEFAULT_PLAN = "noredeal:1-200,fan:1-40,reserve:1-40,flower:1-20,alternate:1-10"

#: Solvitaire's build policies, by lucie's ``build`` setting.
BUILD_POLICY = {"suit": "same-suit", "any": "any-suit", "alternate": "red-black"}
#: Solvitaire's spaces policies, by lucie's ``empty_fill`` setting.
SPACES_POLICY = {"none": "no-build", "king": "kings", "any": "any"}

_SOLUTION = re.compile(r"^Solution Type: (\S+)", re.MULTILINE)
_TIME = re.compile(r"^Time Taken \(milliseconds\): (\d+)", re.MULTILINE)


class UnsupportedError(Exception):
    """A setting of the variant that Solvitaire's rules cannot express."""


def card_name(card: Card) -> str:
    """A card as Solvitaire writes it: ``"AS"``, ``"10C"``, ``"KH"``.

    >>> card_name(Card.parse("TC")), card_name(Card.parse("AS"))
    ('10C', 'AS')
    """
    rank = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(card.rank, str(card.rank))
    return rank + card.suit


def solvitaire_rules(rules: Rules) -> dict[str, Any]:
    """The custom rules (Solvitaire's ``--custom-rules`` JSON) of one deal of
    ``rules`` without a redeal; :class:`UnsupportedError` when they cannot say it."""
    if rules.direction != "down":
        raise UnsupportedError(f"builds {rules.direction} (Solvitaire builds down only; "
                          "it needs a patch)")
    if rules.max_fan is not None:
        raise UnsupportedError(f"at most {rules.max_fan} cards a fan (needs a patch)")
    if rules.foundation_takeback:
        raise UnsupportedError("foundation take-back (a rule of lucie's own)")
    return {
        "tableau piles": {
            "count": rules.num_fans,
            "build policy": BUILD_POLICY[rules.build],
            "spaces policy": SPACES_POLICY[rules.empty_fill],
            "move built group": "no",
            "face up cards": "all",
        },
        "foundations": {"present": True, "initial cards": "none", "base card": "A",
                        "removable": False},
        "cells": {"count": rules.cells, "pre-filled": 0},
        "stock": {"size": 0},
        "reserve": {"size": 0},
    }


def solvitaire_deal(position: Position) -> dict[str, Any]:
    """A position (empty cells, no merci to come) as a Solvitaire deal: each
    fan bottom first, as a tableau pile (its last card on top), and the
    cards already home, each suit from its ace up."""
    if any(c is not None for c in position.cells):
        raise UnsupportedError("cards in the cells (Solvitaire's deal files cannot hold them)")
    if position.merci_available:
        raise UnsupportedError("a merci to come (a rule of lucie's own)")
    suits = ("C", "D", "H", "S")
    deal: dict[str, Any] = {
        "tableau piles": [[card_name(c) for c in fan] for fan in position.fans],
    }
    home = [card_name(Card.of(rank, suits[i]))
            for i, n in enumerate(position.foundations) for rank in range(1, n + 1)]
    if home:
        deal["foundations"] = home
    return deal


def parse_output(text: str) -> tuple[str, float | None]:
    """Solvitaire's verdict (``solved``, ``unsolvable`` or ``unknown``) and
    its own time in seconds (None when it printed none)."""
    kind = _SOLUTION.search(text)
    took = _TIME.search(text)
    status = kind.group(1) if kind else "unknown"
    if status not in ("solved", "unsolvable"):
        status = "unknown"
    return status, int(took.group(1)) / 1000 if took else None


@dataclass
class Run:
    """One side's answer on one deal."""

    status: str  # solved, unsolvable, unknown
    seconds: float  # wall-clock
    own: float | None = None  # Solvitaire's own timer
    note: str = ""
    cpu: float | None = None  # CPU seconds (user + system)


def run_solvitaire(binary: str, rules_file: Path, deal_file: Path, seconds: float,
                   cache: int, memory_mb: int) -> Run:
    """Solvitaire on one deal file."""
    def limit() -> None:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    cmd = [binary, "--custom-rules", str(rules_file), "--timeout", str(int(seconds * 1000)),
           "--cache-capacity", str(cache), str(deal_file)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60,
                              preexec_fn=limit, check=False)
    except subprocess.TimeoutExpired:
        return Run("unknown", time.perf_counter() - start, None, "killed")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    status, own = parse_output(done.stdout)
    note = ""
    if status == "unknown":
        kind = _SOLUTION.search(done.stdout)
        note = kind.group(1) if kind else f"exit {done.returncode}: {done.stderr.strip()[-200:]}"
    return Run(status, wall, own, note, cpu)


def run_lucie(position: Position, seconds: float) -> Run:
    """lucie's verdict, as ``lucie solve --max-seconds`` settles it."""
    start = time.perf_counter()
    cpu = time.process_time()
    result = search_deal(position, frontier=False, max_seconds=seconds)
    return Run(result.status, time.perf_counter() - start, cpu=time.process_time() - cpu)


@dataclass
class Comparison:
    """Both sides' answers on the deals of one variant."""

    spec: str
    deals: range
    solvitaire: list[Run] = field(default_factory=list)
    lucie: list[Run] = field(default_factory=list)

    def counts(self, runs: Sequence[Run]) -> str:
        n = {s: sum(r.status == s for r in runs) for s in ("solved", "unsolvable", "unknown")}
        return f"{n['solved']}/{n['unsolvable']}/{n['unknown']}"

    def disagreements(self) -> list[int]:
        """Deals where both sides decided and differ."""
        return [d for d, s, lu in zip(self.deals, self.solvitaire, self.lucie, strict=False)
                if "unknown" not in (s.status, lu.status) and s.status != lu.status]

    def only(self, side: str) -> list[int]:
        """Deals decided by ``side`` (``"lucie"`` or ``"solvitaire"``) alone."""
        first, second = (self.lucie, self.solvitaire) if side == "lucie" \
            else (self.solvitaire, self.lucie)
        return [d for d, a, b in zip(self.deals, first, second, strict=False)
                if a.status != "unknown" and b.status == "unknown"]

    def line(self) -> str:
        def times(runs: Sequence[Run], pick: Callable[[Run], float | None]) -> str:
            values = [v for v in map(pick, runs) if v is not None]
            if not values:
                return "-"
            return f"{_ms(statistics.median(values))} / {_ms(max(values))}"

        span = f"{self.deals.start}-{self.deals.stop - 1}"
        return (f"   {self.spec:<10} {span:>7} | Solvitaire {self.counts(self.solvitaire):>9} "
                f"| lucie {self.counts(self.lucie):>9} | disagree {len(self.disagreements())}"
                f" | Solvitaire median/max {times(self.solvitaire, lambda r: r.own)} "
                f"(process {times(self.solvitaire, lambda r: r.seconds)}, CPU "
                f"{times(self.solvitaire, lambda r: r.cpu)})"
                f" | lucie median/max {times(self.lucie, lambda r: r.seconds)} "
                f"(CPU {times(self.lucie, lambda r: r.cpu)})")


def _ms(seconds: float) -> str:
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def parse_plan(text: str) -> list[tuple[str, range]]:
    """``"noredeal:1-200,fan:1-40"`` as (spec, deals) pairs.

    >>> parse_plan("noredeal:1-3, fan:7")
    [('noredeal', range(1, 4)), ('fan', range(7, 8))]
    """
    plan = []
    for item in text.split(","):
        if not item.strip():
            continue
        spec, sep, deals = item.strip().rpartition(":")
        if not sep or not spec:
            raise ValueError(f"plan item {item.strip()!r}: expected VARIANT:N-M")
        first, _, last = deals.partition("-")
        start, stop = int(first), int(last or first)
        if start < 1 or stop < start:
            raise ValueError(f"plan item {item.strip()!r}: deals N-M with 1 <= N <= M")
        plan.append((spec, range(start, stop + 1)))
    return plan


def compare(binary: str, spec: str, deals: range, seconds: float, cache: int,
            memory_mb: int, work: Path, verbose: bool) -> Comparison | None:
    rules = Rules.parse(spec)
    try:
        custom = solvitaire_rules(rules)
    except UnsupportedError as exc:
        print(f"   {spec:<10} skipped: {exc}", flush=True)
        return None
    rules_file = work / f"{spec}-rules.json"
    rules_file.write_text(json.dumps(custom, indent=1))
    result = Comparison(spec, deals)
    for number in deals:
        position = Position.deal(rules, number)
        deal_file = work / f"{spec}-{number}.json"
        deal_file.write_text(json.dumps(solvitaire_deal(position)))
        theirs = run_solvitaire(binary, rules_file, deal_file, seconds, cache, memory_mb)
        ours = run_lucie(position, seconds)
        result.solvitaire.append(theirs)
        result.lucie.append(ours)
        if verbose or ("unknown" not in (theirs.status, ours.status)
                       and theirs.status != ours.status):
            print(f"      {spec} {number}: Solvitaire {theirs.status} {theirs.note} "
                  f"({_ms(theirs.seconds)}, CPU {_ms(theirs.cpu or 0.0)}), lucie {ours.status} "
                  f"({_ms(ours.seconds)}, CPU {_ms(ours.cpu or 0.0)})", flush=True)
    print(result.line(), flush=True)
    for side in ("solvitaire", "lucie"):
        alone = result.only(side)
        if alone:
            print(f"   {'':<10} decided by {side} alone: {', '.join(map(str, alone))}")
    return result


def main() -> None:
    binary = os.environ.get("SOLVITAIRE", "").strip()
    if not binary:
        print(f"   {HOW_TO_GET}")
        return
    if not os.access(binary, os.X_OK):
        print(f"   SOLVITAIRE={binary}: not an executable file")
        return
    seconds = float(os.environ.get("SOLVITAIRE_SECONDS", "60"))
    plan = parse_plan(os.environ.get("SOLVITAIRE_PLAN", DEFAULT_PLAN))
    cache = int(os.environ.get("SOLVITAIRE_CACHE", "20000000"))
    memory_mb = int(os.environ.get("SOLVITAIRE_MEMORY_MB", "6000"))
    verbose = os.environ.get("SOLVITAIRE_VERBOSE", "").strip() not in ("", "0")
    build = "compiled (mypyc)" if is_compiled() else "pure Python"
    load = os.getloadavg()
    print(f"   first deals, {seconds:g} s a deal on each side, one at a time; lucie's "
          f"{build} search; solvable/unsolvable/unknown; load average "
          f"{load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
    with tempfile.TemporaryDirectory(prefix="lucie-solvitaire-") as tmp:
        for spec, deals in plan:
            compare(binary, spec, deals, seconds, cache, memory_mb, Path(tmp), verbose)
    load = os.getloadavg()
    print(f"   after: load average {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}")
