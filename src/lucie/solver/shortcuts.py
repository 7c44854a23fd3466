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

:func:`drop_round_trips` then removes what a small breadth-first search
cannot see: a card carried away and brought back to where it was (Fan with
reserve deal 4: ``f>4`` and, four moves later, ``4>F``) when no move in
between needed it (the moves in between are still legal without the pair,
and they reach the same position).  :func:`shorten` is the one policy the
solver's lines, :func:`~lucie.solver.deal.solve_deal` and the hints, go
through (:func:`shortcut_nodes`).

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

from lucie.cards import Card
from lucie.engine import Move, Position
from lucie.rules import Rules

#: Positions each breadth-first search may expand.
SHORTCUT_NODES: Final = 64


def shortcut_nodes(rules: Rules) -> int:
    """Positions each shortcut search of :func:`shorten` expands under
    ``rules``: :data:`SHORTCUT_NODES` where the lines wander (builds other
    than :attr:`~lucie.rules.Rules.suit_down`), 1 with free
    cells (even a suit-down line parks cards for nothing: reserve deal 4,
    ``g>4``, ``4>k`` where ``g>k`` was legal), else 0 (no shortcut search:
    suit-down lines are made of forced and useful moves, and a verdict in a
    millisecond should stay one)."""
    if not rules.suit_down:  # the walk's lines wander
        return SHORTCUT_NODES
    return 1 if rules.cells else 0


def shorten(
    position: Position, moves: Sequence[Move], *, deadline: float | None = None,
) -> tuple[Move, ...]:
    """The line every solver answer shows: ``moves`` with the shortcuts of
    :func:`shorten_line` (as :func:`shortcut_nodes` says) and without round
    trips (:func:`drop_round_trips`), as far as ``deadline`` allows; as it
    is where :func:`shortcut_nodes` is 0."""
    nodes = shortcut_nodes(position.rules)
    line = tuple(moves)
    if not nodes or len(line) < 2:
        return line
    line = shorten_line(position, line, nodes=nodes, deadline=deadline)
    return drop_round_trips(position, line, deadline=deadline)


def _round_trip_candidates(position: Position, line: Sequence[Move]) -> list[tuple[int, int]]:
    """Pairs ``(i, j)``: move ``j`` is the next move of the card move ``i``
    moves, and it puts the card back where it was before move ``i``."""
    pending: dict[Card, tuple[int, tuple[str, int]]] = {}
    pairs: list[tuple[int, int]] = []
    here = position
    for k, move in enumerate(line):
        if move.src_kind == "redeal":
            pending.clear()
            continue
        card = here.moving_card(move)
        if card is None:  # pragma: no cover - the line is legal
            return pairs
        before = here.where(card)
        here = here.apply(move)
        earlier = pending.get(card)
        if earlier is not None and here.where(card) == earlier[1]:
            pairs.append((earlier[0], k))
        pending[card] = (k, before)
    return pairs


def _without(start: Position, line: Sequence[Move], i: int, j: int) -> Position | None:
    """The position after ``line[i + 1:j]`` played from ``start`` (the
    position before move ``i``) without moves ``i`` and ``j``; None when one
    of them is then illegal."""
    here = start
    for move in line[i + 1:j]:
        if here.why_illegal(move) is not None:
            return None
        here = here.apply(move)
    return here


def drop_round_trips(
    position: Position, moves: Sequence[Move], *, deadline: float | None = None,
) -> tuple[Move, ...]:
    """``moves`` without the round trips no move in between needed: a card
    carried away (to a cell, another fan, the foundation) and brought back
    to the same place by its next move, where the moves in between, played
    without the pair, are legal and reach the position the line reaches
    after bringing it back.  The rest of the line is then unchanged, and so
    is its end.  Inner pairs go first (a card parked while another waits).

    >>> from lucie.engine import Position
    >>> from lucie.rules import Rules
    >>> start = Position.deal(Rules.parse("reserve"), 5)
    >>> line = [Move.parse(m) for m in ("d>1", "e>2", "2>E", "1>D")]
    >>> drop_round_trips(start, line)
    ()
    """
    line = list(moves)
    changed = True
    while changed and len(line) >= 2:
        changed = False
        pairs = sorted(_round_trip_candidates(position, line), key=lambda p: p[1] - p[0])
        if not pairs:
            break
        states = [position]
        for move in line:
            if move.src_kind == "redeal":
                break  # (a line is one deal: a round trip never spans a redeal)
            states.append(states[-1].apply(move))
        for i, j in pairs:
            if deadline is not None and time.monotonic() > deadline:
                return tuple(line)
            if j + 1 >= len(states):
                continue
            if _without(states[i], line, i, j) == states[j + 1]:
                del line[j]
                del line[i]
                changed = True
                break
    return tuple(line)


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


__all__ = ["SHORTCUT_NODES", "drop_round_trips", "shortcut_nodes", "shorten", "shorten_line"]
