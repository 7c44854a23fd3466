"""Solver work off the event loop: a small pool of worker processes.

A hint or an odds estimate can think for seconds; in the server's own
process it would hold the GIL and every other player's move would wait.
So each runs in a worker *process* (``spawn`` context, started on first
use and kept for the next call), at most :attr:`SolverPool.workers` at
once.  A call has a budget for the whole of it, waiting for a free worker
included (a job given its time to think gets what the wait left of it):
the solver honours it itself, and past the budget and a margin the worker
is killed and the call raises :class:`PoolBudgetError`.  The workers are
shared fairly between clients (:meth:`SolverPool.call`): a client has at
most :data:`CLIENT_CALLS` calls waiting or running, a free worker goes to
the waiting client with the fewest running, and a client holding two
workers more than a waiting one gives one up.  A call
that is cancelled (its client went away, the server is stopping) kills
its worker too, so no search outlives its request.  Workers ignore
SIGINT: Ctrl+C is the server's to handle, and it kills them.

A job runs in the language of the call that sent it (the request's,
:func:`lucie.i18n.language`): the worker runs it inside
:func:`lucie.i18n.using` that language, so a hint's reason or a review's
words come back in the player's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import math
import multiprocessing
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Final, cast

from lucie.engine import Position
from lucie.errors import LucieError
from lucie.i18n import _, language, ngettext, using

#: How long past its budget a call may run before its worker is killed.
MARGIN: Final = 2.0

#: Longest a new worker may take to start (import lucie and the solver).
STARTUP: Final = 60.0

_CONTEXT: Final = multiprocessing.get_context("spawn")


class PoolBudgetError(Exception):
    """A solver call outran its budget and its worker was stopped."""


class SolverFailedError(Exception):
    """A worker died or failed without an answer (not a bad request)."""


def _serve(conn: Connection) -> None:
    """A worker's life: run each ``(fn, args, language)`` received (in that
    language), send back ``("ok", result)`` or ``("error", message)``; stop
    at end of input."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # ready before the first call
    for module in ("lucie.analysis.hints", "lucie.analysis.odds", "lucie.analysis.review"):
        importlib.import_module(module)
    try:
        conn.send(("ready", None))
    except OSError:
        return
    while True:
        try:
            fn, args, speak = conn.recv()
        except (EOFError, OSError):
            return
        reply: tuple[str, Any]
        try:
            with using(speak):
                reply = ("ok", fn(*args))
        except LucieError as exc:
            reply = ("error", str(exc))
        except Exception as exc:  # the worker's last-resort boundary:
            # a bug in a search is told to the server (which answers 503)
            # instead of killing the worker that the next call waits on
            reply = ("crash", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
        except (OSError, ValueError):
            return


class _Worker:
    """One worker process and the server's end of its pipe."""

    def __init__(self) -> None:
        self.conn, child = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(target=_serve, args=(child,), daemon=True,
                                        name="lucie-solver")
        self.process.start()
        child.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.conn.close()


#: Solver calls one client may have waiting or running at once (more: 429).
CLIENT_CALLS: Final = 4

#: The least a job is given to think when its wait for a worker took
#: (nearly) all its budget.
LEAST_THINK: Final = 0.05


class PoolFullError(Exception):
    """A client asked for more than its share of the solver: it may try
    again in ``retry_after`` seconds (answered 429 with ``Retry-After``)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class Answer:
    """A solver call's result and the seconds it waited for a worker."""

    value: Any
    waited: float


@dataclass(eq=False)
class _Call:
    """A call waiting for a worker or running in one."""

    client: str
    budget: float
    ends: float
    granted: asyncio.Future[None] | None = None
    worker: _Worker | None = None
    preempted: bool = False


class SolverPool:
    """At most ``workers`` solver calls at once, each in its own process,
    shared fairly between clients (see :meth:`call`)."""

    def __init__(self, workers: int = 2, margin: float = MARGIN,
                 client_calls: int = CLIENT_CALLS) -> None:
        self.workers = workers
        self.margin = margin
        self.client_calls = client_calls
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._running: list[_Call] = []
        self._waiting: list[_Call] = []
        #: Workers started and killed so far, and calls stopped to give
        #: another client its share (for tests and benchmarks).
        self.started = 0
        self.killed = 0
        self.preempted = 0

    @property
    def running(self) -> int:
        """Calls being computed now."""
        return len(self._busy)

    def _count(self, client: str, calls: list[_Call]) -> int:
        return sum(1 for c in calls if c.client == client)

    async def run(self, fn: Callable[..., Any], *args: Any, budget: float,
                  client: str = "") -> Any:
        """``fn(*args)`` in a worker: :meth:`call`'s value."""
        return (await self.call(fn, *args, budget=budget, client=client)).value

    async def call(self, fn: Callable[..., Any], *args: Any, budget: float, client: str = "",
                   think: float | None = None) -> Answer:
        """``fn(*args)`` in a worker, for ``client``; with ``think``, the
        job's own time to think is passed as one more argument: ``think``
        less the wait for a worker (the wait is inside the budget).

        Raises :class:`PoolBudgetError` when no worker was free within
        ``think`` (or ``budget``) seconds or the whole call ran past
        ``budget`` + margin seconds; :class:`PoolFullError` when ``client``
        already has :attr:`client_calls` calls waiting or running, or its
        call was stopped to give a waiting client its share;
        :class:`LucieError` when the solver refused the position,
        :class:`SolverFailedError` if the worker died.

        Fair shares: a free worker goes to the waiting client with the fewest
        calls running; and when every worker is busy, a client with two
        calls running more than the one asking has its newest call stopped.
        """
        loop = asyncio.get_running_loop()
        start = loop.time()
        mine = [c for c in (*self._running, *self._waiting) if c.client == client]
        if len(mine) >= self.client_calls:
            wait = min(c.ends for c in mine) - start
            raise PoolFullError(ngettext(
                "you already have {count} solver request waiting or running: wait for its "
                "answer",
                "you already have {count} solver requests waiting or running: wait for their "
                "answers", len(mine)).format(count=len(mine)), max(1, math.ceil(wait)))
        call = _Call(client, budget, start + budget + self.margin)
        await self._slot(call, think if think is not None else budget)
        try:
            waited = loop.time() - start
            if think is not None:
                args = (*args, max(LEAST_THINK, think - waited))
            value = await self._call(call, fn, args, max(LEAST_THINK, budget - waited))
        except SolverFailedError:
            if call.preempted:
                raise PoolFullError(_("stopped: other clients were waiting for the solver, "
                                      "and you had more than your share"), 1) from None
            raise
        finally:
            self._running.remove(call)
            self._dispatch()
        return Answer(value, waited)

    async def _slot(self, call: _Call, wait: float) -> None:
        """Wait (at most ``wait`` seconds) until ``call`` may run."""
        if len(self._running) < self.workers:
            self._running.append(call)
            return
        loop = asyncio.get_running_loop()
        granted = call.granted = loop.create_future()
        self._waiting.append(call)
        self._preempt(call.client)
        # (not asyncio.wait_for: before Python 3.12 it may swallow a
        # cancellation that comes as the slot is granted)
        def late() -> None:
            if not granted.done():
                granted.set_exception(TimeoutError())

        timer = loop.call_later(wait, late)
        try:
            await granted
        except BaseException as exc:
            if granted.done() and not granted.cancelled() and granted.exception() is None:
                self._running.remove(call)  # granted as it gave up: pass the slot on
                self._dispatch()
            else:
                self._waiting.remove(call)
            if isinstance(exc, TimeoutError):
                raise PoolBudgetError(_("every solver worker stayed busy for the {budget} s "
                                        "budget").format(budget=f"{wait:g}")) from None
            raise
        finally:
            timer.cancel()

    def _dispatch(self) -> None:
        """Give free workers to the waiting clients with the fewest calls running."""
        while len(self._running) < self.workers:
            # (a call that gave up but has not yet left the queue is passed over)
            ready = [c for c in self._waiting if c.granted is not None and not c.granted.done()]
            if not ready:
                return
            chosen = min(ready, key=lambda c: self._count(c.client, self._running))
            self._waiting.remove(chosen)
            self._running.append(chosen)
            assert chosen.granted is not None
            chosen.granted.set_result(None)

    def _preempt(self, client: str) -> None:
        """Every worker is busy and ``client`` waits: stop the newest call of
        a client running two calls more than ``client`` (its worker is
        killed, so its slot passes on)."""
        live = [c for c in self._running if not c.preempted]  # (stopped ones are leaving)
        mine = self._count(client, live)
        for call in reversed(live):
            if call.worker is not None and self._count(call.client, live) >= mine + 2:
                call.preempted = True
                self.preempted += 1
                if call.worker.process.pid is not None:
                    with contextlib.suppress(OSError):
                        os.kill(call.worker.process.pid, signal.SIGKILL)
                return

    async def _call(self, call: _Call, fn: Callable[..., Any], args: tuple[Any, ...],
                    budget: float) -> Any:
        fresh = not self._idle
        worker = self._start() if fresh else self._idle.pop()
        self._busy.add(worker)
        call.worker = worker
        keep = False
        try:
            if fresh:  # its start (importing the solver) is not the call's time
                try:
                    await self._receive(worker, STARTUP)
                except TimeoutError:
                    raise SolverFailedError("the solver did not start") from None
            try:
                worker.conn.send((fn, args, language()))
            except OSError as exc:
                raise SolverFailedError(f"the solver stopped ({exc})") from None
            try:
                kind, value = await self._receive(worker, budget + self.margin)
            except TimeoutError:
                raise PoolBudgetError(_("the budget of {budget} s ran out").format(
                    budget=f"{call.budget:g}")) from None
            keep = not call.preempted  # (a worker killed as it answered is not kept)
        finally:
            self._busy.discard(worker)
            if keep:
                self._idle.append(worker)
            else:  # late, cancelled or broken: no search outlives its call
                self.killed += 1
                worker.kill()
        if kind == "error":
            raise LucieError(value)
        if kind == "crash":
            raise SolverFailedError(f"the solver failed ({value})")
        return value

    @staticmethod
    async def _receive(worker: _Worker, timeout: float) -> tuple[str, Any]:
        """The worker's next message, waited for without blocking the loop.

        The loop only tells when the pipe is readable: a long answer (a
        review) may still be on its way then, so it is read in a thread, the
        pipe blocking again (uvloop, like libuv, makes a watched descriptor
        non-blocking, and a read would then fail midway with EAGAIN)."""
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()

        def ready() -> None:
            if not readable.done():
                readable.set_result(None)

        fd = worker.conn.fileno()
        loop.add_reader(fd, ready)
        try:
            async with asyncio.timeout(timeout):
                await readable
                loop.remove_reader(fd)
                os.set_blocking(fd, True)
                # (on a timeout the caller kills the worker: the read ends)
                return cast("tuple[str, Any]", await asyncio.to_thread(worker.conn.recv))
        except TimeoutError:
            raise  # (an OSError too: the caller's to tell)
        except (EOFError, OSError) as exc:
            raise SolverFailedError(f"the solver stopped ({exc or 'no answer'})") from None
        finally:
            loop.remove_reader(fd)
            with contextlib.suppress(OSError):
                os.set_blocking(fd, True)  # for the next send

    def _start(self) -> _Worker:
        self.started += 1
        return _Worker()

    def stop_now(self) -> None:
        """Kill every busy worker at once; safe in a signal handler (it only
        sends signals: each call in progress then fails with
        :class:`SolverFailedError` and cleans up in the event loop)."""
        for worker in list(self._busy):
            if worker.process.pid is not None:
                with contextlib.suppress(OSError):
                    os.kill(worker.process.pid, signal.SIGKILL)

    def close(self) -> None:
        """Stop every worker now (a search in progress included)."""
        for worker in [*self._idle, *self._busy]:
            worker.kill()
        self._idle.clear()
        self._busy.clear()


# -- the jobs a worker runs (module-level, so they can be sent to it) ---------


def hint_job(position: Position, seconds: float) -> dict[str, Any]:
    """``lucie.analysis.hints.hint`` as JSON (as ``lucie hint --json``)."""
    from lucie.analysis.hints import hint

    return hint(position, max_seconds=seconds).to_json()


def odds_job(position: Position, samples: int, seconds: float) -> dict[str, Any]:
    """``lucie.analysis.odds.estimate_odds`` as JSON (:meth:`Odds.to_json`,
    as ``lucie odds --json``: ``proved`` and ``budget_ran_out`` included)."""
    from lucie.analysis.odds import estimate_odds

    return estimate_odds(position, samples=samples, max_seconds=seconds).to_json()


def _board(position: Position) -> dict[str, Any]:
    """What the review view draws of a position: the fans, the top card of
    each foundation (or None) and the cells."""
    return {
        "fans": [[str(c) for c in fan] for fan in position.fans],
        "foundations": [position.foundation_top(s) and str(position.foundation_top(s))
                        for s in range(4)],
        "cells": [str(c) if c is not None else None for c in position.cells],
        "redeals_left": position.redeals_left,
    }


def review_job(saved: str, seconds: float) -> dict[str, Any]:
    """``lucie.analysis.review.review_game`` of a saved game as JSON
    (:meth:`Review.to_json`), each move with the position before it
    (``board``), the card it moved (``card``) and the card the best move
    moves (``best_card``); ``final_board``: the position after the last."""
    from lucie.analysis.review import review_game
    from lucie.engine import Move
    from lucie.formats import load_game

    game = load_game(saved)
    review = review_game(game, max_seconds=seconds)
    data = review.to_json()
    positions = game.positions
    moves = cast("list[dict[str, Any]]", data["moves"])
    for entry, position in zip(moves, positions, strict=False):
        entry["board"] = _board(position)
        card = position.moving_card(Move.parse(entry["move"]))
        entry["card"] = str(card) if card is not None else None
        best = entry["best_move"]
        best_card = position.moving_card(Move.parse(best)) if best else None
        entry["best_card"] = str(best_card) if best_card is not None else None
    data["final_board"] = _board(positions[-1])
    return data


def pick_job(spec: str, difficulty: str, seconds: float) -> Any:
    """A deal of the variant ``spec`` that fits ``difficulty``
    (:func:`lucie.analysis.difficulty.pick_deal`): the :class:`Pick`, whose
    rating the end of the game tells."""
    from lucie.analysis.difficulty import DIFFICULTIES, pick_deal
    from lucie.rules import Rules

    if difficulty not in DIFFICULTIES:
        raise LucieError(f"unknown difficulty {difficulty!r}")
    return pick_deal(Rules.parse(spec), difficulty, max_seconds=seconds)


def difficulty_job(spec: str, deal: int, picked: Any, seconds: float) -> dict[str, Any]:
    """How hard deal ``deal`` of ``spec`` is
    (:func:`lucie.analysis.difficulty.deal_difficulty`, ``picked``: the
    rating it was picked by, if it was), as JSON (:meth:`Rated.to_json`)."""
    from lucie.analysis.difficulty import deal_difficulty
    from lucie.rules import Rules

    return deal_difficulty(Rules.parse(spec), deal, max_seconds=seconds,
                           picked=picked).to_json()


__all__ = ["Answer", "PoolBudgetError", "PoolFullError", "SolverFailedError", "SolverPool",
           "difficulty_job", "hint_job", "odds_job", "pick_job", "review_job"]
