"""Whole numbered games: search across the redeals for a win.

A numbered deal fixes its redeal shuffles
(``docs/rules.md#the-redeal-exactly``): the generator continues from the
state after the deal, so the shuffle of a pile of n cards is a fixed
permutation.  But the pile is gathered fan by fan, so *which* cards land
where after a redeal depends on the whole arrangement of the fans when the
player redeals, not only on the foundations.  States at a redeal are
therefore told apart by their exact arrangement (the gathered pile) and the
generator state.

:func:`solve_game` searches deal by deal:

1. in the last deal, the exact one-deal solver (:func:`solve_deal`, with the
   merci where the rules have it) decides; with the merci, a first pass over
   the whole game leaves it aside (the one-deal search is much faster
   without it), and only then is it searched with the merci;
2. in an earlier deal, it first asks whether the deal can be cleared
   without a redeal; then it tries redeals from the positions the one-deal
   search visits (most cards home first), then, to be exhaustive, from
   every other arrangement reachable in the deal (a plain walk over the
   engine's legal moves).  A pile already tried is not tried again.

``won`` comes with the full move list (``R`` for the redeals), checked by
replaying it through :class:`~lucie.engine.Game`; ``lost`` only when every
arrangement of every deal was tried; ``unknown`` when the budget ran out.
A classic deal can reach millions of arrangements, so ``lost`` is rare
within a budget, while wins are usually found quickly.

>>> from lucie.rules import Rules
>>> result = solve_game(Rules.parse("trefoil"), 3, max_seconds=20)
>>> result.status in ("won", "unknown")
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal

from lucie.deals import RandomState, Shuffler, deal_layout
from lucie.engine import REDEAL, Game, Move, Position
from lucie.errors import LucieError
from lucie.i18n import pgettext
from lucie.rules import Rules
from lucie.solver.budget import BudgetExhaustedError
from lucie.solver.deal import solve_deal
from lucie.solver.lines import engine_move, to_engine_moves
from lucie.solver.search import Search

GameStatus = Literal["won", "lost", "unknown"]


def status_text(status: GameStatus) -> str:
    """A whole game's verdict in a word, in the language in use:
    ``winnable``, ``lost`` or ``unknown`` (the status stays the identifier).

    >>> status_text("won"), status_text("lost")
    ('winnable', 'lost')
    """
    words = {
        "won": pgettext("game verdict", "winnable"),
        "lost": pgettext("game verdict", "lost"),
        "unknown": pgettext("game verdict", "unknown"),
    }
    return words[status]


#: Most positions one sub-search (one deal's search) may use.
SUB_NODES = 20_000


@dataclass(frozen=True, slots=True)
class GameResult:
    """What :func:`solve_game` found: ``won`` with the full move list
    (including ``R`` redeals), ``lost``, or ``unknown``."""

    status: GameStatus
    moves: tuple[Move, ...]
    nodes: int
    seconds: float = 0.0
    best_score: int = 0

    @property
    def solvable(self) -> bool | None:
        return {"won": True, "lost": False}.get(self.status)


class _GameSearch:
    def __init__(self, rules: Rules, deal: int, max_nodes: int | None,
                 deadline: float | None) -> None:
        self.rules = rules
        self.deal = deal
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.shuffler = Shuffler(deal)
        self.tried: dict[tuple[object, ...], bool | None] = {}
        self.best = 0
        #: False for the first pass, which leaves the merci aside
        self.use_merci = True
        #: a sub-search was cut short: no "lost" verdict
        self.incomplete = False

    # -- budget ---------------------------------------------------------------

    def _left(self) -> tuple[int | None, float | None]:
        nodes = None if self.max_nodes is None else self.max_nodes - self.nodes
        secs = None if self.deadline is None else self.deadline - time.perf_counter()
        if nodes is not None and nodes <= 0:
            raise BudgetExhaustedError("nodes")
        if secs is not None and secs <= 0:
            raise BudgetExhaustedError("seconds")
        return nodes, secs

    def _check_time(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BudgetExhaustedError("seconds")

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise BudgetExhaustedError("nodes")
        if self.deadline is not None and not self.nodes & 63 \
                and time.perf_counter() > self.deadline:
            raise BudgetExhaustedError("seconds")

    # -- the search -----------------------------------------------------------

    def _cap(self, nodes: int | None, secs: float | None) -> tuple[int | None, float | None]:
        """A budget for one sub-search, so that one hard deal does not take
        all of it (a sub-search cut short makes the verdict ``unknown``)."""
        if self.rules.redeals == 0:  # one deal: it may have the whole budget
            return nodes, secs
        cap = SUB_NODES if nodes is None else min(nodes, SUB_NODES)
        return cap, secs

    def deal_phase(self, position: Position, state: RandomState) -> list[Move] | None:
        """A winning line from ``position`` (redeals shuffled from ``state``),
        or None; raises :class:`BudgetExhaustedError` when the budget ends, and
        sets ``incomplete`` when a sub-search was cut short."""
        nodes, secs = self._left()
        sub_nodes, sub_secs = self._cap(nodes, secs)
        if position.redeals_left == 0 or position.cards_in_play() == 0:
            if position.merci_available and not self.use_merci:
                position = Position(position.rules, position.fans, position.foundations,
                                    position.cells, 0, True)
            res = solve_deal(position, max_nodes=sub_nodes, max_seconds=sub_secs,
                             frontier=False)
            self.nodes += res.nodes
            self.best = max(self.best, res.best_score)
            if res.status == "unknown":
                self.incomplete = True
                self._left()
            return list(res.moves) if res.status == "solved" else None
        # the reduced one-deal graph: a win now, else candidate redeal points
        search = Search(position, True, sub_nodes, sub_secs, time.perf_counter())
        try:
            status = search.run_or_raise()
        except BudgetExhaustedError:
            status = "unknown"  # go on with the positions visited so far
        self.nodes += search.nodes
        self._left()
        if status == "solved":
            self.best = 52
            raw = search.result(status, 0.0)
            return list(to_engine_moves(position, raw.lines[0][1]))
        candidates = sorted(
            _visited_positions(search, self._check_time), key=lambda pl: -pl[0].score
        )
        for cand, line in candidates:
            found = self.try_redeal(cand, state)
            if found is not None:
                return [*line, REDEAL, *found]
        # exhaustive: every arrangement of this deal (a win in it too, in
        # case the reduced search above was cut short)
        for cand, line in _all_arrangements(position, self._tick):
            if cand.is_won:
                return line
            found = self.try_redeal(cand, state)
            if found is not None:
                return [*line, REDEAL, *found]
        return None

    def try_redeal(self, position: Position, state: RandomState) -> list[Move] | None:
        if not position.is_legal(REDEAL):
            return None
        self.best = max(self.best, position.score)
        pile = tuple(position.gather())
        key = (pile, position.redeals_left, position.merci_used, state)
        if key in self.tried:
            return None
        self.tried[key] = None
        self._tick()
        self.shuffler.restore(state)
        after = position.redeal(self.shuffler)
        new_state = self.shuffler.state()
        return self.deal_phase(after, new_state)


def _visited_positions(
    search: Search, check: Callable[[], None]
) -> Iterator[tuple[Position, list[Move]]]:
    """Every position the one-deal search expanded, with its engine line
    (``check`` is called every 64 positions, to stop on the budget)."""
    children: dict[object, list[object]] = {}
    root = None
    for key, (parent, _moves) in search.visited.items():
        if parent is None:
            root = key
        else:
            children.setdefault(parent, []).append(key)
    if root is None:
        return
    stack: list[tuple[object, Position, list[Move]]] = []
    start = search.position
    line: list[Move] = []
    p = start
    for m in search.visited[root][1]:
        mv = engine_move(p, m)
        p = p.apply(mv)
        line.append(mv)
    stack.append((root, p, line))
    count = 0
    while stack:
        key, p, line = stack.pop()
        count += 1
        if not count & 63:
            check()
        yield p, line
        for child in children.get(key, ()):
            q = p
            sub = list(line)
            for m in search.visited[child][1]:
                mv = engine_move(q, m)
                q = q.apply(mv)
                sub.append(mv)
            stack.append((child, q, sub))


def _all_arrangements(
    position: Position, tick: Callable[[], None]
) -> Iterator[tuple[Position, list[Move]]]:
    """Every exact arrangement reachable in this deal (no merci, no redeal),
    by a plain walk over the engine's legal moves."""
    parents: dict[object, tuple[object, Move | None]] = {}
    start_key = (position.fans, position.cells, position.foundations)
    parents[start_key] = (None, None)
    stack = [(start_key, position)]
    while stack:
        key, p = stack.pop()
        tick()
        line: list[Move] = []
        k: object = key
        while True:
            parent, move = parents[k]
            if move is None:
                break
            line.append(move)
            k = parent
        line.reverse()
        yield p, line
        for move in p.legal_moves():
            if move.is_redeal:
                continue
            q = p.apply(move)
            qk = (q.fans, q.cells, q.foundations)
            if qk not in parents:
                parents[qk] = (key, move)
                stack.append((qk, q))


def solve_game(
    rules: Rules,
    deal: int,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> GameResult:
    """Search numbered deal ``deal`` under ``rules`` across its redeals.

    Returns ``won`` with the full move list (replayed through
    ``Game(rules, deal).push_all`` before it is returned), ``lost`` when
    every line was tried, or ``unknown`` when the node or time budget ran
    out.
    """
    start = time.perf_counter()
    fans, foundations, state = deal_layout(rules, deal)
    position = Position.start(rules, fans, foundations)
    deadline = start + max_seconds if max_seconds is not None else None
    search = _GameSearch(rules, deal, max_nodes, deadline)
    try:
        line = None
        if rules.merci:
            # first without the merci (every reduction applies), then with it
            search.use_merci = False
            line = search.deal_phase(position, state)
            search.use_merci = True
            search.tried.clear()
        if line is None:
            line = search.deal_phase(position, state)
    except BudgetExhaustedError:
        return GameResult("unknown", (), search.nodes, time.perf_counter() - start,
                          search.best)
    if line is None:
        status: GameStatus = "unknown" if search.incomplete else "lost"
        return GameResult(status, (), search.nodes, time.perf_counter() - start, search.best)
    game = Game(rules, deal)
    try:
        game.push_all(line)
    except LucieError as exc:  # pragma: no cover - a solver bug
        raise AssertionError(f"whole-game line does not replay: {exc}") from exc
    if not game.position.is_won:  # pragma: no cover - a solver bug
        raise AssertionError("whole-game line does not win")
    return GameResult("won", tuple(line), search.nodes, time.perf_counter() - start, 52)


__all__ = ["GameResult", "solve_game", "status_text"]
