"""Restarted walks (``docs/solver.md#move-order-and-restarts``): under builds
where nothing but a few foundation moves is forced, the walk starts again in
other move orders with growing node limits."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Final

from lucie.engine import Position
from lucie.solver.budget import DEFAULT_MAX_POSITIONS
from lucie.solver.encoding import IMove
from lucie.solver.frontier import Found, best_lines
from lucie.solver.results import RawResult
from lucie.solver.search import Search
from lucie.solver.tables import tables

#: Restarts (:func:`~lucie.solver.deal.search_deal`, builds other than
#: suit-down): the node limit of the first walk, and the factor by which each
#: next one grows.
RESTART_NODES: Final = 4096
RESTART_GROWTH: Final = 2
#: The seeds of the probe walks' shuffles start here (the main walks' are
#: their numbers)
PROBE_SEEDS: Final = 1 << 20


def restarts(
    position: Position,
    frontier: bool,
    max_nodes: int | None,
    max_seconds: float | None,
    start_time: float,
    best_only: bool,
    restart_nodes: int | None,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> RawResult:
    """One search of :func:`~lucie.solver.deal.search_deal`, restarted where that pays.

    Under builds other than suit in one direction (any suit, alternate
    colours, up and down), and under any build with cells (a card may always
    go to a cell), no build is safe, and a depth-first walk that
    turns the wrong way early can spend millions of positions under that
    move before it tries the one that wins (measured on Shamrocks: half the
    deals undecided after 20 s, while other move orders win most of them in
    a few thousand positions; on Fan with reserve deals 1-40, one walk left 5
    undecided at 200,000 positions, restarted walks won all 40, the longest
    in 85,000).  So there the walk is given
    ``restart_nodes`` positions (:data:`RESTART_NODES` by default), then
    starts again from scratch with the moves of each position in another
    order and a limit :data:`RESTART_GROWTH` times
    larger, until a walk ends or the budget is spent.  The orders, fixed so
    that answers are reproducible (foundation moves always first):

    - walk 0 (and the only walk with ``restart_nodes=None``): the moves that
      bury the cards the foundations want next the least come first
      (:func:`~lucie.solver.move_order.wanted_first`); on the Shamrocks deals 1-100 that it wins it
      needs a median of 172 positions where the order below needs 2,967;
    - walk 1: the moves as they are generated (fan by fan), which wins some
      deals the first order turns away from;
    - walk k >= 2: a shuffle seeded with k, and on even k the wanted cards
      first again, the shuffle then only breaking its ties.  The shuffle of
      a position's moves is fixed by the walk and the position alone (the
      moves sorted by a hash of both), not drawn in turn from one generator:
      so a reduction that drops a position the walk would have met does
      not change the order of the rest of the walk, which then meets the
      same wins in fewer positions;
    - after each of those walks, probe walks of ``restart_nodes`` positions
      in shuffled orders of their own, as many positions in all as that
      walk had (:func:`walks`): wins that some order finds in a few hundred
      positions come in a few probes (Shamrocks deals 1-100 at 10 s: 23
      undecided, 26 without the probes).

    Exactness is unchanged: each walk is the complete search with its moves
    in some order, so a walk that ends has found a win or proved there is
    none (and with the frontier, every non-dominated state).  A walk cut
    short only loses its own work; as the limits grow geometrically, a
    position set that needs N nodes costs at most about 4N in all (half of
    it in probes).  When
    the whole budget runs out, the answer holds the best states of every
    walk (each line is a line from ``position``).
    """
    t = tables(position.rules)
    restart = restart_nodes is not None and (not t.suit_down or t.cells > 0)
    spent = 0
    seen: dict[Found, tuple[IMove, ...]] = {}
    held = 0
    deadline = start_time + max_seconds if max_seconds is not None else None
    for limit, seed, wanted in walks(max(1, restart_nodes or 1)):
        rng = random.Random(seed) if seed >= 0 else None
        left = None if max_nodes is None else max_nodes - spent
        final = not restart or (left is not None and left <= limit)
        search = Search(position, frontier, left if final else limit, max_seconds,
                         start_time, best_only, rng, wanted, max_positions)
        status = search.run()
        spent += search.nodes
        held = max(held, search.nodes)
        out_of_time = deadline is not None and time.perf_counter() >= deadline
        cut = search.limit
        if out_of_time and cut != "positions" and status == "unknown":
            cut = "seconds"  # (a walk's own node limit may have come at the same time)
        if status != "unknown" or final or out_of_time or cut == "positions":
            res = search.result(status, time.perf_counter() - start_time)
            lines = res.lines
            if status == "unknown" and seen:
                for found, line in lines:
                    seen.setdefault(found, line)
                lines = best_lines(seen, best_only or not frontier)
            if status != "unknown":
                cut = None
            elif cut is None:
                cut = "nodes"
            return RawResult(status, lines, spent, res.seconds, res.complete, cut, held)
        for found, line in search.result(status, 0.0).lines:
            seen.setdefault(found, line)
    raise AssertionError("the walks never end")  # (walks() is endless)


def walks(first: int) -> Iterator[tuple[int, int, bool]]:
    """The walks of :func:`restarts`, endless: each one's node limit, the
    seed of its shuffle (-1: none) and whether the wanted cards come first.

    The main walks double their limit from ``first``, in the orders of
    :func:`restarts`; after each, probe walks of ``first`` positions, in
    orders of their own, as many positions in all as that main walk had.
    """
    limit = first
    main = 0
    probe = 0
    while True:
        yield limit, main if main > 1 else -1, main % 2 == 0
        for _ in range(limit // first):
            probe += 1
            yield first, PROBE_SEEDS + probe, probe % 2 == 0
        main += 1
        limit *= RESTART_GROWTH

