"""Shorter lines to the same position.

The one-deal search is a depth-first walk, and under builds other than
suit-down (Shamrocks, Super Flower Garden, alternate colours), where no
build is forced, the line it returns is the path the walk happened to take:
on Shamrocks deal 55, 1,270 moves to a win that needs 52 foundation
moves, most of them cards carried back and forth.  :func:`shorten_line` keeps the
line's end and takes shortcuts to the positions along it:

- from the position reached so far, a small breadth-first search (a few
  dozen positions, every legal move but the merci and the redeal) looks for
  positions of the line further on, and jumps to the one that saves the
  most moves (a position the line passes twice is left at its last pass);
- the line then goes on from there, so every position after a jump is one
  the original line reaches, and the end is the same position.

It uses only the engine (:meth:`Position.legal_moves`, :meth:`Position.apply`),
so the shortened line is legal by construction, and a shortcut can never be
longer than the part of the line it replaces.  It is greedy, not the
shortest line: that would be a search of its own.

>>> from lucie.engine import Position
>>> from lucie.rules import Rules
>>> from lucie.solver.deal import solve_deal
>>> start = Position.deal(Rules.parse("shamrocks"), 55)
>>> line = solve_deal(start, frontier=False, shorten=False).moves
>>> short = shorten_line(start, line)
>>> len(short) < len(line) // 2
True
>>> end = start
>>> for move in short:
...     end = end.play(move)
>>> end.is_won
True
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from typing import Final

from lucie.engine import Move, Position
from lucie.rules import Rules

#: Positions each breadth-first search may expand.
SHORTCUT_NODES: Final = 64

def wanders(rules: Rules) -> bool:
    """Whether the one-deal search's lines wander under ``rules`` (builds
    other than suit-down: no build is forced, the walk tries moves in
    whatever order), so that shortening them pays."""
    return (rules.build, rules.direction) != ("suit", "down")


def _moves(position: Position) -> list[Move]:
    """The legal moves a shortcut may use: not the redeal (a line is one
    deal), not the merci (a line that uses it keeps its own)."""
    out = []
    lifting = position.merci_available
    found = position.foundations
    for move in position.legal_moves():
        kind = move.src_kind
        if kind == "redeal":
            continue
        if kind == "card" and lifting:
            suit = move.src // 13
            if move.src != suit * 13 + found[suit] - 1:  # not a take-back: the merci
                continue
        out.append(move)
    return out


def shorten_line(
    position: Position,
    moves: Sequence[Move],
    *,
    nodes: int = SHORTCUT_NODES,
    deadline: float | None = None,
) -> tuple[Move, ...]:
    """A line from ``position`` to the same end as ``moves``, usually much
    shorter (see the module doc).  ``nodes``: positions each shortcut search
    may expand; ``deadline`` (``time.monotonic()``): past it, the rest of the
    line is kept as it is."""
    line = list(moves)
    if len(line) < 2:
        return tuple(line)
    states = [position]
    for move in line:
        states.append(states[-1].apply(move))
    # a Position is equal to another only with the same fans in the same
    # places (the line's moves name fans by their place), cells and merci
    last: dict[Position, int] = {}
    for k, state in enumerate(states):
        last[state] = k
    out: list[Move] = []
    i = 0
    n = len(line)
    while i < n:
        if deadline is not None and time.monotonic() > deadline:
            out.extend(line[i:])
            break
        at = last[states[i]]
        if at > i:  # the line comes back here: skip the loop
            i = at
            continue
        best_j, best_path = i + 1, [line[i]]
        seen = {states[i]}
        queue: deque[tuple[Position, list[Move]]] = deque([(states[i], [])])
        expanded = 0
        while queue and expanded < nodes:
            here, path = queue.popleft()
            expanded += 1
            for move in _moves(here):
                child = here.apply(move)
                if child in seen:
                    continue
                seen.add(child)
                steps = [*path, move]
                j = last.get(child, -1)
                if j > i and (j - i) - len(steps) > (best_j - i) - len(best_path):
                    best_j, best_path = j, steps
                queue.append((child, steps))
        out.extend(best_path)
        i = best_j
    return tuple(out)


__all__ = ["SHORTCUT_NODES", "shorten_line", "wanders"]
