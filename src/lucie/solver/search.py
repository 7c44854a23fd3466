"""One depth-first walk of the one-deal search (``docs/solver.md#the-walk``).

:class:`Search` walks every position reachable from a position without a
redeal, each expanded once, with its moves in one order (the
:mod:`~lucie.solver.restarts` give it several).  Expanding a position is a
sequence of named steps, each in a method of its own: drop it if its
parent's caps already bound it (:meth:`Search.pruned`), play the forced
moves (:meth:`Search.forced`, :mod:`~lucie.solver.forced`), look it up in the
memo and count it against the budgets (:meth:`Search.memo_key`,
:meth:`Search.check_budgets`), work out its foundation caps (:meth:`Search.caps`),
record its foundation state and bound it (:meth:`Search.record`), list its
children (:meth:`Search.children`, :mod:`~lucie.solver.children`), order
them (:meth:`Search.order`, :mod:`~lucie.solver.move_order`) and push them
(:meth:`Search.push`).  The walk writes out the commonest case of the
first steps (a full frontier's records, the memo key without cells or
merci, the forced moves after a plain move under suit-down) and calls the
method otherwise: in the pure build each call costs, and the searches of a
few dozen positions were 5-10% slower with every step a call
(``benchmarks/RESULTS.md``, "Solver split").
"""

from __future__ import annotations

import random
import time

from lucie.engine import Position
from lucie.solver.budget import DEFAULT_MAX_POSITIONS, BudgetExhaustedError, Limit
from lucie.solver.caps_merci import merci_reach_caps
from lucie.solver.caps_reach import new_stuck, reach_caps
from lucie.solver.caps_room import room_caps
from lucie.solver.children import (
    Child,
    cell_children,
    fan_children,
    home_children,
    lay_children,
    merci_children,
)
from lucie.solver.encoding import TO_FOUNDATION, IMove, encode_fan, fan_tops
from lucie.solver.forced import SafeHomes, pair_home_forced, safe_home_forced, suit_down_forced
from lucie.solver.frontier import Found, add_state, dominated
from lucie.solver.move_order import shuffle, wanted_first
from lucie.solver.order import OrderMemo, merci_order_caps, order_caps
from lucie.solver.results import RawResult, Verdict
from lucie.solver.tables import tables

#: Per card the merci may lift: caps that bound every line lifting it.
LiftCaps = dict[int, tuple[int, int, int, int]]


class Node:
    """A position waiting on the walk's stack, as its parent left it."""

    __slots__ = ("caps", "cells", "fans", "found", "key", "merci", "moves", "parent", "tops",
                 "work")

    def __init__(
        self,
        fans: list[int],
        found: list[int] | tuple[int, ...],
        cells: list[int],
        merci: bool,
        caps: tuple[int, ...],
        parent: object,
        moves: tuple[IMove, ...],
        work: tuple[int, ...] | None,
        key: object,
        tops: dict[int, int] | None,
    ) -> None:
        #: the fans (the node owns the list), foundations, cells, merci to come
        self.fans = fans
        self.found = found
        self.cells = cells
        self.merci = merci
        #: the parent's caps (they bound this position too)
        self.caps = caps
        #: the parent's memo key (None: the root), and the moves from it
        self.parent = parent
        self.moves = moves
        #: the cards whose forced moves the move may have unlocked (None: all)
        self.work = work
        #: the memo key when no forced move changes the position (None: unknown)
        self.key = key
        #: top card -> fan, when the parent worked it out
        self.tops = tops


class Search:
    """One walk: the memo, the frontier and the budgets of one search."""

    def __init__(
        self,
        position: Position,
        frontier: bool,
        max_nodes: int | None,
        max_seconds: float | None,
        start_time: float,
        best_only: bool = False,
        rng: random.Random | None = None,
        wanted: bool = False,
        max_positions: int | None = DEFAULT_MAX_POSITIONS,
    ) -> None:
        self.position = position
        #: the order of each position's moves: None, as generated (the
        #: foundation first); else the other moves shuffled by a salt it
        #: draws, fixed per position (restarts)
        self.rng = rng
        self.walk_salt = rng.getrandbits(60) if rng is not None else 0
        #: then, under builds other than suit-down or with cells, sorted by
        #: wanted_first
        self.wanted = wanted and (not position.rules.suit_down or position.rules.cells > 0)
        self.best_only = best_only and frontier
        t = self.t = tables(position.rules)
        self.frontier = frontier
        self.max_nodes = max_nodes if max_nodes is not None else -1
        #: positions held in ``visited`` at most (-1: no cap); a walk
        #: expands each position it holds once, so it holds ``nodes``
        self.max_positions = max_positions if max_positions is not None else -1
        # the first count at which a node or position budget is spent (-1: none)
        mn, mp = self.max_nodes, self.max_positions
        self.stop_at = mn if mp < 0 or 0 <= mn <= mp else mp
        #: what stopped the walk, when a budget did
        self.limit: Limit | None = None
        self.deadline = start_time + max_seconds if max_seconds is not None else None
        self.nodes = 0
        self.visited: dict[object, tuple[object, tuple[IMove, ...]]] = {}
        # pareto: foundations -> key of a position that has them
        self.pareto: dict[Found, object] = {}
        self.win_key: object = None
        #: the best score reached so far (-1: none)
        self.best_total = -1
        #: children whose caps total at most this are not worth a visit
        #: (best_only: the best score so far, kept by :meth:`record`)
        self.bound = -1 if self.frontier else 51
        #: the keys of the positions pushed on the stack
        self.pushed: set[object] = set()
        self.order_memo: OrderMemo = {}
        self.safe = SafeHomes(position.rules)
        # a fan of n cards (n >= 1) is at least 1 << 6 * (n - 1), as its
        # bottom digit is not 0: so a fan is full when it reaches this
        self.full = 1 << 6 * (t.max_fan - 1) if t.max_fan is not None else 1 << 6 * 52
        # the reductions that hold (the merci is checked per position)
        self.deadlocks = t.suit_down and t.dead_cards  # reach caps
        self.general_dead = not t.suit_down and t.dead_cards  # order caps
        self.no_fill = t.rules.empty_fill == "none"
        #: without the merci to come, every foundation move off a fan is forced
        #: (suit-down, no take-back, no cells): none is left to try
        self.homes_forced = t.home_always_safe and not t.takeback and not t.cells
        merci0 = position.merci_available
        #: the memo key is the set of fans alone (no cells, no merci to come)
        self.plain_key = t.cells == 0 and not merci0
        # after the merci every foundation move is forced (suit-down, no take-back)
        self.collapse_after = t.home_always_safe and not t.takeback
        self.pair_home = merci0 and t.suit_down and self.no_fill and not t.takeback \
            and not t.strict

    # -- results ------------------------------------------------------------

    def line_to(self, key: object) -> list[IMove]:
        parts: list[tuple[IMove, ...]] = []
        visited = self.visited
        while key is not None:
            parent, moves = visited[key]
            parts.append(moves)
            key = parent
        out: list[IMove] = []
        for moves in reversed(parts):
            out.extend(moves)
        return out

    def result(self, status: Verdict, seconds: float) -> RawResult:
        if status == "solved":
            line = tuple(self.line_to(self.win_key))
            return RawResult("solved", (((13, 13, 13, 13), line),), self.nodes, seconds, True)
        lines = tuple(
            (found, tuple(self.line_to(key)))
            for found, key in sorted(self.pareto.items(), key=lambda kv: (-sum(kv[0]), kv[0]))
        )
        return RawResult(status, lines, self.nodes, seconds,
                         status == "unsolvable" and self.frontier and not self.best_only)

    # -- the walk -----------------------------------------------------------

    def run(self) -> Verdict:
        try:
            return self.run_or_raise()
        except BudgetExhaustedError:
            return "unknown"

    def run_or_raise(self) -> Verdict:
        """:meth:`run`, but a spent budget raises
        :class:`~lucie.solver.budget.BudgetExhaustedError` (and sets
        :attr:`limit`)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.limit = "seconds"
            raise BudgetExhaustedError("seconds")
        p = self.position
        t = self.t
        fans = [encode_fan(f) for f in p.fans]
        cells = sorted(int(c) for c in p.cells if c is not None)
        merci = p.merci_available
        caps = [13, 13, 13, 13]
        # (under suit-down the walk's reach caps contain these)
        if t.room and not merci:
            room_caps(fans, p.foundations, caps, t.onto, t.under, t.max_fan or 0)
        elif t.dead_cards and not merci and not t.suit_down:
            order_caps(fans, p.foundations, caps, t.onto, t.fill_ok)
        root = Node(fans, p.foundations, cells, merci, tuple(caps), None, (), None, None, None)
        return self.walk(root)

    def walk(self, root: Node) -> Verdict:
        """The depth-first walk from ``root``: "solved" as soon as a win is
        reached, else "unsolvable" once every position has been expanded (a
        spent budget raises).

        Longer than the 60 lines a function may have elsewhere, on purpose:
        the commonest case of its first steps is written out here, each
        step's method naming and documenting it.  Measured with every step a
        call, the pure build's small searches were 5-11% slower (classic
        1..500 frontier 0.516 s against 0.479 s written out:
        ``benchmarks/RESULTS.md``, "Solver split", fourth pair)."""
        stack = [root]
        visited = self.visited
        pareto = self.pareto
        # the steps, bound once (the pure build pays for each look-up and
        # each call: the commonest case of a step is written out below, its
        # method names and documents the step)
        pruned, forced, memo_key = self.pruned, self.forced, self.memo_key
        check_budgets, stop_at = self.check_budgets, self.stop_at
        caps_of, record, children_of = self.caps, self.record, self.children
        order, push = self.order, self.push
        reorder = self.rng is not None or self.wanted
        # whether any caps hold under these rules (else all stay at 13)
        capped = self.t.dead_cards
        full_frontier = self.frontier and not self.best_only
        plain_key = self.plain_key
        # after a plain move under suit-down: the forced moves of the cards
        # it may unlock (the case of forced() that most positions take)
        sd_forced = self.t.home_always_safe and not self.t.takeback
        ncells, sb_fill = self.t.cells, self.t.safe_build_fill
        while stack:
            node = stack.pop()
            pcaps = node.caps
            # (caps that allow a win never prune: test that first)
            if pcaps[0] + pcaps[1] + pcaps[2] + pcaps[3] < 52 and node.parent is not None \
                    and (dominated(pareto, pcaps) if full_frontier else pruned(pcaps)):
                continue
            fans = node.fans  # each node owns its fan list
            found = list(node.found)
            cells = list(node.cells)
            pmoves = node.moves
            moves = list(pmoves)
            merci = node.merci
            tops = node.tops
            if tops is None:
                tops = fan_tops(fans)
            work = node.work
            if sd_forced and work is not None and not merci:
                suit_down_forced(fans, found, cells, tops, moves, list(work), ncells, sb_fill)
            else:
                forced(fans, found, cells, merci, tops, moves, work)
            key = node.key
            if key is None or len(moves) != len(pmoves):
                # (else nothing was forced: it is known)
                key = frozenset(fans) if plain_key else memo_key(fans, cells, merci)
            if key in visited:
                continue
            visited[key] = (node.parent, tuple(moves))
            nodes = self.nodes = self.nodes + 1
            if nodes == stop_at or not nodes & 255:  # (the clock, every 256)
                check_budgets()
            caps = list(pcaps)
            lift_caps = caps_of(fans, found, caps, merci) if capped else None
            if found[0] + found[1] + found[2] + found[3] == 52:
                self.win_key = key
                pareto.clear()
                pareto[(13, 13, 13, 13)] = key
                return "solved"
            if full_frontier:  # (record(), its commonest case)
                fnd = (found[0], found[1], found[2], found[3])
                if fnd not in pareto:  # (most states are there already)
                    add_state(pareto, fnd, key)
                if caps[0] + caps[1] + caps[2] + caps[3] < 52 and dominated(pareto, caps):
                    continue
            elif record(found, caps, key):
                continue
            children = children_of(fans, found, cells, merci, tops, lift_caps)
            if children:
                if reorder:
                    order(children, key, fans, found, tops)
                push(stack, children, fans, found, cells, merci, tops, caps, key, lift_caps)
        return "unsolvable"

    def pruned(self, caps: tuple[int, ...]) -> bool:
        """Whether the parent's caps (below 52 in all), which bound this
        position too, already show that it cannot change the answer, where
        the search keeps one best state (docs/solver.md#bounds): for a
        verdict always, with ``best_only`` when they cannot beat the best
        score.  (A full frontier's test, :func:`~lucie.solver.frontier.dominated`,
        is written out in the walk.)"""
        return not self.frontier or caps[0] + caps[1] + caps[2] + caps[3] <= self.best_total

    def forced(
        self, fans: list[int], found: list[int], cells: list[int], merci: bool,
        tops: dict[int, int], moves: list[IMove], work: tuple[int, ...] | None,
    ) -> None:
        """Play the forced moves (:mod:`~lucie.solver.forced`) in place.
        (After a plain move under suit-down, ``work`` set, the walk calls
        :func:`~lucie.solver.forced.suit_down_forced` itself.)"""
        t = self.t
        if not merci and not t.takeback:
            if t.home_always_safe:  # (every top, and a cell's card the foundations want)
                todo = list(tops)
                if t.cells:
                    for s in range(4):
                        if found[s] < 13:
                            todo.append(s * 13 + found[s])
                suit_down_forced(fans, found, cells, tops, moves, todo, t.cells,
                                 t.safe_build_fill)
            else:
                safe_home_forced(fans, found, cells, tops, moves, self.safe)
        elif merci and self.pair_home:
            pair_home_forced(fans, found, tops, moves)

    def memo_key(self, fans: list[int], cells: list[int], merci: bool) -> object:
        """The memo key of a position where its cells or merci flag may vary:
        its fans in any order, its cells and the flag.  (Where they may
        not, the key is the set of fans alone, written out in the walk and
        in :meth:`push`.)"""
        return (frozenset(fans), tuple(sorted(cells)), merci)

    def check_budgets(self) -> None:
        """Raise when a budget is spent, the new position counted in
        :attr:`nodes` (the walk asks at the node or position budget, and
        every 256 positions for the clock)."""
        nodes = self.nodes
        if nodes == self.stop_at:
            self.limit = "nodes" if nodes == self.max_nodes else "positions"
            raise BudgetExhaustedError(self.limit)
        deadline = self.deadline
        if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
            self.limit = "seconds"
            raise BudgetExhaustedError("seconds")

    def caps(self, fans: list[int], found: list[int], caps: list[int],
             merci: bool) -> LiftCaps | None:
        """Lower ``caps`` to the position's foundation caps (the rule that
        holds under the rules, and whether the merci is to come); with the
        merci to come under suit-down, return the caps of each card it may
        lift."""
        t = self.t
        if not merci:
            if self.deadlocks:
                reach_caps(fans, found, caps, t.any_fill)
            elif t.room:
                room_caps(fans, found, caps, t.onto, t.under, t.max_fan or 0)
            elif self.general_dead:
                order_caps(fans, found, caps, t.onto, t.fill_ok, self.order_memo)
        elif self.deadlocks:
            return merci_reach_caps(fans, found, caps, t.any_fill)
        elif t.dead_cards:
            merci_order_caps(fans, found, caps, t.onto, t.fill_ok, self.order_memo)
        return None

    def record(self, found: list[int], caps: list[int], key: object) -> bool:
        """Record the position's foundation state where the search keeps one
        best state (the first of the best score: for a verdict, or the best
        score with ``best_only``; the walk adds a full frontier's states
        itself, :func:`~lucie.solver.frontier.add_state`); whether its caps
        show that nothing below it can change the answer
        (docs/solver.md#bounds): with ``best_only``, that they cannot beat
        the best score; for a verdict, that they cannot win."""
        total = found[0] + found[1] + found[2] + found[3]
        cap_total = caps[0] + caps[1] + caps[2] + caps[3]
        if total > self.best_total:
            self.best_total = total
            if self.best_only:
                self.bound = total
            self.pareto.clear()
            self.pareto[(found[0], found[1], found[2], found[3])] = key
        return cap_total <= self.best_total if self.best_only else cap_total < 52

    def children(
        self, fans: list[int], found: list[int], cells: list[int], merci: bool,
        tops: dict[int, int], lift_caps: LiftCaps | None,
    ) -> list[Child]:
        """The position's children, in the walk's default order
        (:mod:`~lucie.solver.children`); the foundation moves come first."""
        t = self.t
        out: list[Child] = []
        # foundation moves (those left after the forced ones; under
        # suit-down with nothing to stop them, none is left from the fans)
        from_fans = merci or not self.homes_forced
        if from_fans or cells:
            home_children(out, fans, found, cells, merci, tops if from_fans else None)
        # the first empty fan (0), where a card may go
        empty = fans.index(0) if t.any_fill and 0 in fans else -1
        full = self.full
        fan_children(out, fans, found, cells, merci, tops, t.onto, t.fill_ok, empty, full,
                     self.no_fill and not merci)
        if len(cells) < t.cells:
            cell_children(out, fans, found, cells, merci)
        if cells or t.takeback:
            lay_children(out, fans, found, cells, merci, tops, t.onto, t.fill_ok, empty, full,
                         t.takeback)
        if merci and not (t.strict and out):
            prune_dominated = self.frontier and not self.best_only
            merci_children(out, fans, found, cells, full, t.max_fan is not None,
                           self.collapse_after, lift_caps if self.deadlocks else None,
                           self.bound, self.pareto if prune_dominated else None)
        return out

    def order(self, children: list[Child], key: object, fans: list[int], found: list[int],
              tops: dict[int, int]) -> None:
        """Put the children in this walk's order (:mod:`~lucie.solver.move_order`);
        the foundation moves stay first."""
        nhome = 0
        for child in children:
            if child[0][1] != TO_FOUNDATION:
                break
            nhome += 1
        if self.rng is not None:
            shuffle(children, nhome, key, self.walk_salt)
        if self.wanted and len(children) - nhome > 1:
            children[nhome:] = wanted_first(children[nhome:], fans, found, tops)

    def push(
        self, stack: list[Node], children: list[Child], fans: list[int], found: list[int],
        cells: list[int], merci: bool, tops: dict[int, int], caps: list[int], key: object,
        lift_caps: LiftCaps | None,
    ) -> None:
        """Push the children not pushed before, the first one last (so it is
        expanded first), each with the caps it inherits (lowered at once for
        a card laid on its successor under suit-down, docs/solver.md#_proof_deadlock,
        which may drop it) and, after a plain move, the cards it may unlock."""
        child_caps: tuple[int, ...] = tuple(caps)
        deadlocks = self.deadlocks
        bound = self.bound
        pushed = self.pushed
        plain_key = self.plain_key
        append = stack.append
        for move, nf, nfd, nc, nm in reversed(children):
            ccaps = child_caps
            if deadlocks and not nm:
                if merci and lift_caps is not None:  # the merci was just used
                    ccaps = lift_caps[move[0]]
                elif move[1] >= 0:
                    g = nf[move[1]]
                    if ((g >> 6) & 63) - 1 == move[0] + 1:  # laid on X+1
                        cl = list(child_caps)
                        new_stuck(g, cl)
                        if cl[0] + cl[1] + cl[2] + cl[3] <= bound:
                            continue  # cannot be won / beat the best
                        ccaps = tuple(cl)
            ckey = frozenset(nf) if plain_key else (frozenset(nf), tuple(nc), nm)
            if ckey in pushed:
                continue
            pushed.add(ckey)
            work: tuple[int, ...] | None = None
            ctops: dict[int, int] | None = None
            if nfd is found and nc is cells and move[1] >= 0 and not merci:
                # a build or a move into an empty fan: what it may unlock
                # (after the merci the child starts over: nothing was
                # forced in this position)
                work, ctops = _unlocked(move, fans, tops)
            append(Node(nf, nfd, nc, nm, ccaps, key, (move,), work, ckey, ctops))


def _unlocked(
    move: IMove, fans: list[int], tops: dict[int, int],
) -> tuple[tuple[int, ...], dict[int, int] | None]:
    """After a plain move onto a fan: the cards whose forced moves it may
    unlock (the card's predecessor, the card it uncovers and that card's
    predecessor), and the child's tops when the card came from a fan top."""
    c, target = move
    i = tops.get(c, -1)
    y = ((fans[i] >> 6) & 63) - 1 if i >= 0 else -1
    work: tuple[int, ...] = (c - 1,) if c % 13 else ()
    if y >= 0:
        work += (y, y - 1) if y % 13 else (y,)
    if i < 0:
        return work, None
    ctops = tops.copy()  # from a fan top: the child's tops, ready
    g = fans[target]
    if g:
        del ctops[(g & 63) - 1]
    ctops[c] = target
    if y >= 0:
        ctops[y] = i
    return work, ctops
