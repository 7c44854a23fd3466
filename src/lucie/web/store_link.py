"""The browser game's link to the store (:mod:`lucie.store`).

The store numbers games with integers; the page knows a game by an id it
cannot guess (:func:`secrets.token_urlsafe`).  The store keeps the pairs
(its table ``web_games``, :meth:`~lucie.store.Store.link_token`), so a
game is found again after the server restarts, whichever the backend; a
Restart after a game's end gives the token its new game there
(:meth:`~lucie.store.Store.relink_token`,
:meth:`lucie.web.registry.Registry.restart`).  The games' life is
:class:`lucie.session.Session`'s; its store work, and every other store
call, runs in a worker thread (the store serialises its connection with a lock), so a slow
disk never stalls the event loop.

A site's link (:meth:`StoreLink.open`) has a second thread with a
connection of its own for the work that only reads (:meth:`StoreLink.read`:
a request's player, the statistics, the history, ``/healthz``): a write
that waits for a lock another program holds (SQLite in WAL mode lets
readers through meanwhile; PostgreSQL a row another process locks) never
holds up the other players' reads behind it.  Each piece of work may wait
for a lock until the busy timeout from when it was asked
(:data:`~lucie.store.WAIT_UNTIL`), not from when its turn came: work queued
behind a locked database fails together, within the documented time.

The store's faults (:class:`~lucie.store.StoreFault`: a database down, a
lock held too long, a full disk, a read-only file) are the operator's:
:class:`StoreHealth` logs one line when they begin (naming the cause) and
one when the store works again, and tells ``/healthz``
(:func:`lucie.web.operate.health`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Final, TypeVar

from lucie.engine import Game
from lucie.formats import save_game
from lucie.i18n import _
from lucie.rules import Rules
from lucie.session import (
    BUSY_TIMEOUT_MS,
    WAIT_UNTIL,
    NotSavedError,
    Player,
    PlayerRef,
    Session,
    Store,
    StoreError,
    StoreFault,
    default_player,
)

T = TypeVar("T")

#: The player of the request being answered, on a site that serves many
#: (``lucie serve``: :mod:`lucie.web.site` sets it for each request); unset
#: on the local game, whose player is the link's own.
REQUEST_PLAYER: contextvars.ContextVar[Player | None] = contextvars.ContextVar(
    "lucie_request_player", default=None)


#: The operator's log of the store's faults (one line when one begins, one
#: when the store works again; no traceback).
FAULT_LOG: Final = logging.getLogger("lucie.store")
#: Seconds the site is reported unhealthy after the store's last fault.
FAULT_HOLD: Final = 5.0
#: Seconds one piece of store work may take before the store is reported
#: as not answering (a write waiting for another program's lock).
STALL: Final = 1.0


class StoreHealth:
    """What the site knows of its store's health: the threads whose last
    work failed for a fault (a :class:`~lucie.store.StoreFault`), the last
    fault and when it came.  A spell of faults is logged once when it
    begins, naming its cause, and once when every thread that failed has
    done work again, ``hold`` seconds after its last fault (a read that
    goes through while writes wait for a lock ends nothing).  Thread-safe."""

    def __init__(self, hold: float = FAULT_HOLD) -> None:
        self._lock = threading.Lock()
        self.hold = hold
        self.cause: str | None = None
        self.since = 0.0
        self.last = 0.0
        #: the threads in a spell of faults, and when each failed last
        self.failing: dict[str, float] = {}

    def failed(self, exc: BaseException, thread: str) -> None:
        """A piece of work of ``thread`` failed for ``exc``: if it is a
        store's fault, remember it (and log its cause if it begins a spell)."""
        if isinstance(exc, NotSavedError):
            exc = exc.error
        if not isinstance(exc, StoreFault):
            return
        now = time.monotonic()
        with self._lock:
            self.cause, self.last = str(exc), now
            begins = not self.failing
            self.failing[thread] = now
            if begins:
                self.since = now
        if begins:
            FAULT_LOG.warning("%s", _("the store fails ({kind}): {cause}").format(
                kind=type(exc).__name__, cause=exc))

    def succeeded(self, thread: str) -> None:
        """A piece of work of ``thread`` went through."""
        if thread not in self.failing:
            return
        now = time.monotonic()
        with self._lock:
            last = self.failing.get(thread)
            if last is None or now - last < self.hold:
                return
            del self.failing[thread]
            if self.failing:
                return
        FAULT_LOG.warning("%s", _("the store works again (after {n} s)").format(
            n=round(now - self.since, 1)))

    def problem(self) -> str | None:
        """The last fault's cause, while a spell of faults lasts and no
        longer than ``hold`` seconds after it."""
        with self._lock:
            if self.failing and time.monotonic() - self.last < self.hold:
                return self.cause
        return None


#: A piece of store work: what to run, in which context, and the future
#: (of an event loop, or a thread's) that gets its result.
_Work = tuple[Callable[[], Any], contextvars.Context, "asyncio.Future[Any] | Future[Any]"]


def _settle(future: asyncio.Future[Any] | Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _deliver(done: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for future, ok, value in done:
        _settle(future, ok, value)


class _StoreThread:
    """The one thread that does the store's work, in the order asked.

    Cheaper than a thread pool's future per call: the work waiting when
    the thread wakes is done in one go, and its results are handed to
    each event loop with one wake-up for the lot (a burst of players
    costs a few thread switches, not two a request)."""

    def __init__(self, health: StoreHealth, name: str = "lucie-store") -> None:
        self.queue: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self.stopped = False
        self.health = health
        #: when the work in hand began (:func:`time.monotonic`), None between works
        self.started: float | None = None
        self.thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self.thread.start()

    def _do(self, work: _Work) -> tuple[bool, Any]:
        fn, context, _future = work
        self.started = time.monotonic()
        try:
            value = context.run(fn)
        except BaseException as exc:  # handed to the caller, as a pool does
            self.health.failed(exc, self.thread.name)
            return False, exc
        finally:
            self.started = None
        self.health.succeeded(self.thread.name)
        return True, value

    def _serve(self) -> None:
        while True:
            batch = [self.queue.get()]
            while True:  # everything waiting now, in one go
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            done: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
            for work in batch:
                if work is None:
                    self._hand_over(done)
                    return
                future = work[2]
                ok, value = self._do(work)
                if isinstance(future, asyncio.Future):
                    done.setdefault(future.get_loop(), []).append((future, ok, value))
                else:
                    _settle(future, ok, value)
            self._hand_over(done)

    @staticmethod
    def _hand_over(done: dict[asyncio.AbstractEventLoop,
                              list[tuple[asyncio.Future[Any], bool, Any]]]) -> None:
        for loop, results in done.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_deliver, results)

    def put(self, work: _Work) -> None:
        if self.stopped:  # as a thread pool after its shutdown
            raise RuntimeError("the store's link is closed")
        self.queue.put(work)

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self.queue.put(None)
        self.thread.join()


def _asked(wait: float | None = None) -> contextvars.Context:
    """The context of a piece of work asked now: a copy of the asker's
    (the request's player), to have its locks within ``wait`` seconds
    from now (default: the busy timeout; :data:`~lucie.store.WAIT_UNTIL`)."""
    context = contextvars.copy_context()
    wait = BUSY_TIMEOUT_MS / 1000 if wait is None else wait
    context.run(WAIT_UNTIL.set, time.monotonic() + wait)
    return context


class StoreLink:
    """Async access to a :class:`~lucie.store.Store` for one player: the
    link's own (``lucie web``), or the request's (:data:`REQUEST_PLAYER`,
    ``lucie serve``).  ``reader``: a second store on the same database for
    the work that only reads (:meth:`read`), run in a thread of its own."""

    def __init__(self, store: Store, player: str | None = None, *,
                 reader: Store | None = None) -> None:
        self.store = store
        self.local = player
        self.health = StoreHealth()
        self._worker = _StoreThread(self.health)
        self.reader = reader
        self._reading = (_StoreThread(self.health, "lucie-store-read")
                         if reader is not None else None)

    @classmethod
    def open(cls, where: str | Path | None, player: str | None = None) -> StoreLink:
        """The store at ``where`` (a SQLite file or a ``postgresql://`` URL),
        and a second connection to it for the reads (:meth:`read`)."""
        store = Store(where)
        try:
            reader = Store(where)
        except BaseException:
            store.close()
            raise
        return cls(store, player, reader=reader)

    def problem(self) -> str | None:
        """Why the store cannot be used just now, if it cannot: a fault of
        the last :data:`FAULT_HOLD` seconds, or a piece of work waiting for
        more than :data:`STALL` seconds (a lock another program holds)."""
        started = self._worker.started
        if started is not None and time.monotonic() - started > STALL:
            return _("the store has not answered for {n} s (a lock held by another "
                     "program?)").format(n=round(time.monotonic() - started, 1))
        return self.health.problem()

    @property
    def player(self) -> PlayerRef:
        """The player whose games are read and written: the request's
        (:data:`REQUEST_PLAYER`) if it has one, else the link's own."""
        requested = REQUEST_PLAYER.get()
        return requested if requested is not None else self.local

    def close(self) -> None:
        self._worker.stop()
        if self._reading is not None:
            self._reading.stop()
        if self.reader is not None:
            self.reader.close()
        self.store.close()

    async def _run(self, fn: Callable[[], T], thread: _StoreThread | None = None,
                   wait: float | None = None) -> T:
        # the work sees the request's player (a copy of its context)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        (thread or self._worker).put((fn, _asked(wait), future))
        return await future

    async def read(self, fn: Callable[[Store], T]) -> T:
        """Run ``fn`` (work that only reads) on the reading store, in its own
        thread (on the store, in the store's thread, if the link has no
        reader): it never waits behind a write."""
        reader = self.reader
        if reader is None or self._reading is None:
            store = self.store
            return await self._run(lambda: fn(store))
        return await self._run(lambda: fn(reader), self._reading)

    async def run(self, fn: Callable[[], T], *, wait: float | None = None) -> T:
        """Run ``fn`` (store work: a :class:`~lucie.session.Session` action)
        in the store's worker thread, waiting for another program's lock
        ``wait`` seconds at most from now (default: the busy timeout).  A
        short ``wait`` for work nobody waits long for (a rate count): work
        queued behind it is not held up past its own deadline."""
        return await self._run(fn, wait=wait)

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in the store's worker thread and wait (outside the
        event loop: the server's shutdown)."""
        future: Future[T] = Future()
        self._worker.put((fn, _asked(), future))
        return future.result()

    # -- the pages' tokens -------------------------------------------------

    def link(self, token: str, game_id: int) -> None:
        """Remember that the page's ``token`` names stored game ``game_id``
        (in the worker thread; a full disk, a lock: a StoreFull, a StoreBusy)."""
        self.store.link_token(token, game_id)

    async def resume(self, token: str, lease: float | None = None, shared: bool = False,
                     base: tuple[int | None, Game] | None = None) -> Session | None:
        """The stored game of ``token`` as a :class:`~lucie.session.Session`
        (claimed if still in play); None if unknown or damaged.  A
        :class:`~lucie.errors.LucieError` if another program plays it.
        ``base``: the copy of a game this process held, and its id (only
        the moves made since are replayed, if the token names that game
        still: not after a Restart gave it a new game)."""

        def work() -> Session | None:
            game_id = self.store.token_game(token)
            if game_id is None:
                return None
            earlier = base[1] if base is not None and base[0] == game_id else None
            requested = REQUEST_PLAYER.get()
            players: list[PlayerRef] = [self.player]
            if requested is not None:  # a site's player: also a game they loaded
                players.append(self.store.loaded_player(requested, make=False))
            for player in players:
                try:
                    if player is not None or requested is None:
                        return Session.stored(self.store, game_id, player, lease=lease,
                                              shared=shared, base=earlier)
                except StoreFault:
                    raise
                except StoreError:
                    continue
            return None

        return await self._run(work)

    # -- reading back -----------------------------------------------------

    async def saved_game(self, game_id: int) -> str | None:
        """The saved game (lucie JSON) of stored game ``game_id`` if it is
        this player's, else None."""

        player = self.player or default_player()

        def work(store: Store) -> str | None:
            try:
                return save_game(store.game(game_id, of=player))
            except StoreFault:
                raise
            except StoreError:
                return None

        return await self.read(work)

    async def stats(self, rules: Rules | None) -> dict[str, Any]:
        player = self.player

        def work(store: Store) -> dict[str, Any]:
            data = store.stats(player, rules).to_json()
            data["variant_name"] = rules.name() if rules is not None else "all variants"
            return data

        return await self.read(work)

    async def history(self, rules: Rules | None, limit: int | None) -> list[dict[str, Any]]:
        player = self.player or default_player()

        def work(store: Store) -> list[dict[str, Any]]:
            records = store.history(player, rules, limit)
            return [r.to_json() for r in records]

        return await self.read(work)


__all__ = ["FAULT_HOLD", "FAULT_LOG", "REQUEST_PLAYER", "STALL", "StoreHealth", "StoreLink"]
