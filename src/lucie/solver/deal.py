"""The exact one-deal solver: can every card go home without a redeal?

:func:`solve_deal` searches every position reachable from a position
without a redeal (with the merci when :attr:`Position.merci_available`) and
answers exactly:

- ``solved``, with a winning line of engine :class:`~lucie.engine.Move`\\ s;
- ``unsolvable``, with the *frontier*: every foundation state (cards home
  per suit) that can be reached and is not dominated component-wise by
  another reachable one, each with a line that reaches it;
- ``unknown`` when the node, time or memory budget runs out first
  (``limit`` says which: ``nodes``, ``seconds``, or ``positions`` when a
  walk holds ``max_positions`` positions in its tables).

:func:`search_deal` is the same search answering with internal lines
(:class:`RawResult`), for callers that need only the foundation states or
play a line at once (:func:`~lucie.solver.lines.reach_position`): the odds and the study.

>>> from lucie.engine import Game, Position
>>> from lucie.rules import Rules
>>> result = solve_deal(Position.deal(Rules(), 1))
>>> result.status, result.best_score > 0
('unsolvable', True)
>>> won = [n for n in range(1, 60) if solve_deal(Position.deal(Rules(), n),
...                                                frontier=False).status == "solved"]
>>> len(won) >= 1
True
>>> game = Game(Rules(), won[0])
>>> game.push_all(solve_deal(game.position).moves)
>>> game.position.is_won
True

Where things are
----------------

The search works on a private compact encoding and turns its lines back into
engine moves by replaying them through the engine; how it stays exact, one
reduction and its proof at a time, is in ``docs/solver.md``.  The parts:

- :mod:`~lucie.solver.encoding`: cards and fans as ints, internal moves;
- :mod:`~lucie.solver.tables`: what the search needs of a set of rules;
- :mod:`~lucie.solver.search`: one depth-first walk, in named steps;
- the reductions, one module each: :mod:`~lucie.solver.forced` (forced
  moves), :mod:`~lucie.solver.caps_reach` (reach caps and the dead cards of
  a build), :mod:`~lucie.solver.caps_merci` (reach caps with the merci to
  come), :mod:`~lucie.solver.caps_room` (room caps), :mod:`~lucie.solver.order`
  (order caps), :mod:`~lucie.solver.frontier` (the frontier and the bounds);
  the one-line lone-card rule is in :mod:`~lucie.solver.children`;
- :mod:`~lucie.solver.children` and :mod:`~lucie.solver.move_order`: a
  position's moves and the order a walk tries them in;
- :mod:`~lucie.solver.restarts`: walks restarted in other orders;
- :mod:`~lucie.solver.results` and :mod:`~lucie.solver.lines`: the answers,
  and their lines as engine moves;
- :mod:`~lucie.solver.proofs`: the names the code cites for each proof.

This module holds the one-deal entry points (:func:`solve_deal`,
:func:`search_deal`); :mod:`lucie.solver` exports them with the rest of the
public API.
"""

from __future__ import annotations

import gc
import time

from lucie.engine import Move, Position
from lucie.solver.budget import DEFAULT_MAX_POSITIONS, Limit
from lucie.solver.encoding import IMove
from lucie.solver.frontier import best_lines
from lucie.solver.lines import to_engine_moves
from lucie.solver.restarts import RESTART_NODES, restarts
from lucie.solver.results import DealResult, RawResult, Reach
from lucie.solver.shortcuts import shorten as shortened


def solve_deal(
    position: Position,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    frontier: bool = True,
    restart_nodes: int | None = RESTART_NODES,
    shorten: bool | None = None,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
    verdict_first: bool | None = None,
) -> DealResult:
    """Decide exactly whether ``position`` can be cleared without a redeal.

    ``frontier=True`` (default) also collects every non-dominated reachable
    foundation state; ``frontier=False`` stops at the first win, or once no
    win is possible (fastest verdict).  ``max_nodes`` / ``max_seconds``
    bound the work, ``max_positions`` the memory (positions held by a walk
    in its tables, :data:`~lucie.solver.budget.DEFAULT_MAX_POSITIONS` by
    default; ``None``: no cap): when one is exceeded the status is
    ``unknown`` and ``limit`` names it (``reachable`` then holds what was
    found so far).  ``restart_nodes``: see
    :func:`search_deal`.  ``shorten`` (default true): shorten each line
    as every line the solver shows is (:func:`lucie.solver.shortcuts.shorten`:
    shortcuts where the walk's lines wander or cells can park a card, no
    round trip; suit-down lines without cells are made of forced and
    useful moves, and a verdict in a millisecond stays one).

    ``verdict_first`` (with ``frontier=True``; by default whenever
    ``max_nodes`` or ``max_seconds`` is given): settle the verdict first
    (the fastest search, ``frontier=False``) and spend only the budget left
    on the frontier, so a verdict is never hidden by a score search that
    runs out: the status is then ``unsolvable`` with ``complete`` false and
    ``limit`` set, ``reachable`` the best states both searches found.
    """
    start = time.monotonic()
    if verdict_first is None:
        verdict_first = max_nodes is not None or max_seconds is not None
    if frontier and verdict_first:
        raw = _verdict_then_frontier(position, max_nodes, max_seconds, restart_nodes,
                                     max_positions)
    else:
        raw = search_deal(position, max_nodes=max_nodes, max_seconds=max_seconds,
                          frontier=frontier, restart_nodes=restart_nodes,
                          max_positions=max_positions)

    def engine_line(line: tuple[IMove, ...]) -> tuple[Move, ...]:
        moves = to_engine_moves(position, line)
        # the shortcuts within the same time budget (past it, lines stay as found)
        deadline = None if max_seconds is None else start + max_seconds
        return shortened(position, moves, deadline=deadline) if shorten is not False else moves

    reach = tuple(Reach(found, engine_line(line)) for found, line in raw.lines)
    moves = reach[0].moves if raw.status == "solved" else ()
    return DealResult(raw.status, moves, reach, raw.nodes, raw.seconds, raw.complete,
                      raw.limit, raw.held)


def _verdict_then_frontier(
    position: Position,
    max_nodes: int | None,
    max_seconds: float | None,
    restart_nodes: int | None,
    max_positions: int | None,
) -> RawResult:
    """The verdict (``frontier=False``) within the budget, then the frontier
    within what is left (:func:`solve_deal`'s ``verdict_first``)."""
    verdict = search_deal(position, max_nodes=max_nodes, max_seconds=max_seconds,
                          frontier=False, restart_nodes=restart_nodes,
                          max_positions=max_positions)
    if verdict.status != "unsolvable":
        return verdict  # a win (its line is the answer), or nothing settled
    nodes_left = None if max_nodes is None else max_nodes - verdict.nodes
    seconds_left = None if max_seconds is None else max_seconds - verdict.seconds
    full: RawResult | None = None
    if (nodes_left is None or nodes_left > 0) and (seconds_left is None or seconds_left > 0):
        full = search_deal(position, max_nodes=nodes_left, max_seconds=seconds_left,
                           frontier=True, restart_nodes=restart_nodes,
                           max_positions=max_positions)
    if full is None:
        limit: Limit = "nodes" if nodes_left is not None and nodes_left <= 0 else "seconds"
        return RawResult("unsolvable", verdict.lines, verdict.nodes, verdict.seconds, False,
                         limit, verdict.held)
    nodes = verdict.nodes + full.nodes
    seconds = verdict.seconds + full.seconds
    held = max(verdict.held, full.held)
    if full.status != "unknown":
        return RawResult(full.status, full.lines, nodes, seconds, full.complete, None, held)
    # the score search ran out: the verdict stands, with the best states found
    seen = dict(full.lines)
    for found, line in verdict.lines:
        seen.setdefault(found, line)
    lines = best_lines(seen, False) if seen else ()
    return RawResult("unsolvable", lines, nodes, seconds, False, full.limit, held)


def search_deal(
    position: Position,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    frontier: bool = True,
    best_only: bool = False,
    restart_nodes: int | None = RESTART_NODES,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> RawResult:
    """:func:`solve_deal` without the engine moves (see :class:`RawResult`).

    ``best_only=True`` (with ``frontier=True``) keeps only the states of the
    best score instead of the whole frontier: a position is then pruned as
    soon as its caps cannot beat the best score found (the study's last
    deal, where only the win or the score matters).

    Under builds other than suit-down the walk restarts after
    ``restart_nodes`` positions, and again and again (see :func:`~lucie.solver.restarts.restarts`);
    ``None``: one walk.

    Python's cyclic garbage collector is paused while the search runs: the
    search makes no reference cycles, and the collector would otherwise walk
    its ever larger memo again and again (measured: a Shamrocks search ran
    1.7 to 2.2 times slower with it on).
    """
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        return _search_deal(position, max_nodes, max_seconds, frontier, best_only,
                            restart_nodes, max_positions)
    finally:
        if collecting:
            gc.enable()


def _search_deal(
    position: Position,
    max_nodes: int | None,
    max_seconds: float | None,
    frontier: bool,
    best_only: bool,
    restart_nodes: int | None,
    max_positions: int | None,
) -> RawResult:
    """:func:`search_deal`, with the collector as it is."""
    start_time = time.perf_counter()
    used = 0
    first_held = 0
    if position.merci_available and (not frontier or best_only):
        # A line without the merci is legal too, and the search without it
        # has every reduction: try it first.  It wins, or the full search runs.
        plain = Position(position.rules, position.fans, position.foundations,
                         position.cells, position.redeals_left, True)
        first = restarts(plain, False, max_nodes, max_seconds, start_time, False,
                          restart_nodes, max_positions)
        if first.status == "solved":
            # plain moves only: legal in ``position`` as well
            return first
        used = first.nodes
        first_held = first.held
        if max_nodes is not None:
            max_nodes = max(1, max_nodes - used)
    res = restarts(position, frontier, max_nodes, max_seconds, start_time, best_only,
                    restart_nodes, max_positions)
    return RawResult(res.status, res.lines, res.nodes + used,
                     time.perf_counter() - start_time, res.complete, res.limit,
                     max(res.held, first_held))


__all__ = ["search_deal", "solve_deal"]
