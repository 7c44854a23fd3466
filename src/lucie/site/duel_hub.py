"""How a duel's news reaches the sockets of both its players, whichever
process or machine serves each of them, in order.

Each piece of a duel's news is numbered (``seq``: 1, 2, 3... for each
duel) by the store, in the write that tells it (``duels.news_seq``,
:func:`lucie.store.duels.post_news`), so two processes never give the
same number.  A page or a terminal that sees a number that is not the
next it expects reads the duel again (its whole state, with the number it
stands at) instead of applying news out of order: news lost on the way,
or come late, costs a read, never a wrong page.

- :class:`LocalHub`: the sockets of this process only (a store in
  memory, and the base of the two others).
- :class:`SqliteHub`: the processes on one SQLite file (``lucie serve
  --workers N``, or several servers on one machine).  A change is written
  as a row of ``duel_news`` (schemas 7 and 10, :mod:`lucie.store.duels`);
  each process has a thread that asks SQLite every :data:`POLL` seconds
  whether another connection changed the file (``PRAGMA data_version``,
  read from shared memory: no query of a table) and only then reads every
  news it has not seen, by ``duel_news.number``: a count kept by the
  store that only grows, so news forgotten (the table emptied after a
  quiet minute) never makes a process skip the next.  So no page polls
  the database, and each process looks at one number twenty times a
  second.  The news is kept :data:`KEEP` seconds; a process that could
  not look for longer (its file unreadable, the machine stalled) tells its
  sockets ``resync``.
- :class:`PostgresHub`: PostgreSQL's ``LISTEN``/``NOTIFY``.  Each process
  keeps one listening connection (channel :data:`CHANNEL`) and fans each
  notification out to its own sockets of that duel; the write that
  numbers a duel's news sends its ``NOTIFY`` (delivered at the commit,
  so in the order of the numbers).  Nothing polls the database.  A
  notification holds the news itself (a side's progress, a few hundred
  bytes, and its number); one too long for ``NOTIFY`` (8000 bytes) is
  sent as ``resync``, which tells the sockets to read the duel again from
  the store.  When the listening connection breaks (the server
  restarted), it is opened again and every socket is told ``resync``:
  what was said meanwhile is read from the store.

The hubs read in a thread of their own and deliver each message into the
event loop of the socket that listens (a test's clients may each have
their own loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from lucie.environment import DUEL_NEWS_KEEP, setting
from lucie.store import duels

if TYPE_CHECKING:
    from lucie.store import Store

MAX_PAYLOAD: Final = duels.MAX_PAYLOAD
post_news, all_news_after = duels.post_news, duels.all_news_after
last_news, forget_news = duels.last_news, duels.forget_news

#: The PostgreSQL channel of the duels' news.
CHANNEL: Final = "lucie_duels"
#: The messages a socket may have waiting before it is told to resync.
QUEUE_SIZE: Final = 256
#: The message that tells a socket to read its duel again from the store.
RESYNC: Final = {"type": "resync"}
#: How often a process on a SQLite file looks whether the file changed (seconds).
POLL: Final = 0.05
#: How long a SQLite file keeps the duels' news (seconds).
KEEP: Final = 60.0

LOG = logging.getLogger("lucie.duel")


@dataclass(eq=False)
class Subscription:
    """One socket's share of a duel's news: its queue, in its own loop."""

    duel_id: int
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.get_running_loop)
    queue: asyncio.Queue[dict[str, Any]] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_SIZE))

    def _put(self, message: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:  # a socket far behind: it reads it all again
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(RESYNC)

    def deliver(self, message: dict[str, Any]) -> None:
        """Hand ``message`` to the socket (from any thread)."""
        with contextlib.suppress(RuntimeError):  # its loop has closed
            self.loop.call_soon_threadsafe(self._put, message)


class LocalHub:
    """The duels' news among the sockets of this process, numbered by the
    duel's row in ``store`` (None: by this process, a test's hub)."""

    def __init__(self, store: Store | None = None) -> None:
        self.store = store
        #: tells this process's own news apart (its sockets have it)
        self.origin = uuid.uuid4().hex
        self._subscribers: dict[int, set[Subscription]] = {}
        self._lock = threading.Lock()
        self._numbers: dict[int, int] = {}  # the last number of each duel (no store)
        #: called with every message this process hears (duel id, or None
        #: for every duel), in the thread that hears it
        self.watchers: list[Callable[[int | None, dict[str, Any]], None]] = []

    def subscribe(self, duel_id: int) -> Subscription:
        """A new share of duel ``duel_id``'s news (in the running loop)."""
        sub = Subscription(duel_id)
        with self._lock:
            self._subscribers.setdefault(duel_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subscribers.get(sub.duel_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subscribers[sub.duel_id]

    def _of(self, duel_id: int | None) -> Iterator[Subscription]:
        with self._lock:
            if duel_id is None:
                found = [s for subs in self._subscribers.values() for s in subs]
            else:
                found = list(self._subscribers.get(duel_id, ()))
        yield from found

    def fan_out(self, duel_id: int | None, message: dict[str, Any]) -> None:
        """Give ``message`` to this process's sockets of duel ``duel_id``
        (None: of every duel)."""
        for watch in self.watchers:
            watch(duel_id, message)
        for sub in self._of(duel_id):
            sub.deliver(message)

    def _post(self, duel_id: int, message: dict[str, Any]) -> dict[str, Any] | None:
        """Number ``message`` (and tell the other processes): the message
        with its number, None if there is no such duel."""
        if self.store is not None:
            return post_news(self.store, duel_id, self.origin, message, time.time(),
                             keep=False)
        with self._lock:
            self._numbers[duel_id] = number = self._numbers.get(duel_id, 0) + 1
        return {**message, "seq": number}

    async def publish(self, duel_id: int, message: dict[str, Any]) -> None:
        """Tell ``message`` to every socket of duel ``duel_id``, with the
        duel's next number (``seq``).  If it cannot be told (the database
        refused the write), this process's sockets read the duel again; the
        others' see the number missing at the next news, and do so too."""
        try:
            told = await asyncio.to_thread(self._post, duel_id, message)
        except Exception as exc:  # a full disk, a lost server: the news is lost, not the duel
            LOG.warning("duel news: cannot tell duel %s's news (%s)", duel_id, exc)
            told = RESYNC
        if told is not None:
            self.fan_out(duel_id, told)

    def close(self) -> None:
        """Stop (nothing to stop here)."""


class PostgresHub(LocalHub):
    """The duels' news among every process on the PostgreSQL database of
    ``store`` (see the module doc)."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        assert store.url is not None, "a PostgreSQL store"
        self.db, self.url = store, store.url
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="lucie-duel-hub",
                                        daemon=True)
        self._thread.start()
        self.listening = threading.Event()
        self._listener = asyncio.run_coroutine_threadsafe(self._listen(), self._loop)

    async def _connect(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                     connect_timeout=10)

    async def _listen(self) -> None:
        """Listen on :data:`CHANNEL` for ever, opening the connection again
        when it breaks (and then telling every socket to resync)."""
        import psycopg

        pause = 0.2
        while True:
            try:
                conn = await self._connect()
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if self.listening.is_set():  # again: news may have been missed
                        self.fan_out(None, RESYNC)
                    self.listening.set()
                    pause = 0.2
                    async for note in conn.notifies():
                        self._heard(note.payload)
            except (psycopg.Error, OSError) as exc:
                LOG.warning("duel news: the listening connection broke (%s)", exc)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 5.0)

    def _heard(self, payload: str) -> None:
        try:
            data = json.loads(payload)
            if data.get("from") == self.origin:
                return  # this process's sockets were told already
            self.fan_out(int(data["duel"]), data["message"])
        except (ValueError, KeyError, TypeError, AttributeError):
            LOG.warning("duel news: a notification that is not ours: %.80s", payload)

    def _post(self, duel_id: int, message: dict[str, Any]) -> dict[str, Any] | None:
        return post_news(self.db, duel_id, self.origin, message, time.time(),
                         channel=CHANNEL, keep=False)

    def close(self) -> None:
        self._listener.cancel()

        async def stop() -> None:  # the listener stopped, its connection closed
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(stop(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


class SqliteHub(LocalHub):
    """The duels' news among every process on the SQLite file of ``store``
    (see the module doc): written to ``duel_news`` by the write that
    numbers it, and read by a thread of this process when the file
    changed.  The thread uses the process's own :class:`~lucie.store.Store`
    (its connection is shared under a lock).  ``keep``: how long the news
    is kept (seconds; :data:`KEEP`, or ``$LUCIE_DUEL_NEWS_KEEP``);
    ``clock``: the time (seconds since the epoch) news is made and
    forgotten by."""

    def __init__(self, store: Store, *, keep: float | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        super().__init__(store)
        self.db = store
        self.keep = keep if keep is not None else news_keep()
        self.clock = clock
        self._stop = threading.Event()
        #: set once the thread has read where the news stands
        self.listening = threading.Event()
        self._version: object = None  # the file's data_version when last read
        #: the number (``duel_news.number``) of the last news read
        self.last: int | None = None
        self._thread = threading.Thread(target=self._run, name="lucie-duel-hub", daemon=True)
        self._thread.start()

    def _post(self, duel_id: int, message: dict[str, Any]) -> dict[str, Any] | None:
        return post_news(self.db, duel_id, self.origin, message, self.clock())

    def _run(self) -> None:
        """Read the others' news when the file changed, forget old news;
        until :meth:`close`."""
        store = self.db
        broken = False
        looked = time.monotonic()
        forgot = 0.0
        while not self._stop.is_set():
            try:
                if self.last is None:
                    self.last = last_news(store)
                    self.listening.set()
                missed = broken or time.monotonic() - looked > self.keep / 2
                self.last = self._turn(store, self.last)
                looked = time.monotonic()
                if missed:  # news may have been missed, or forgotten unread
                    self.fan_out(None, RESYNC)
                    broken = False
                if self.clock() - forgot > self.keep / 4:
                    forget_news(store, self.clock() - self.keep)
                    forgot = self.clock()
            except Exception as exc:  # the thread's last resort: log, try again
                if self._stop.is_set():
                    break
                if not broken:  # once, not every second
                    LOG.warning("duel news: cannot use %s (%s)", store.path, exc)
                broken = True
                self._stop.wait(1.0)
            self._stop.wait(POLL)

    def _turn(self, store: Store, last: int) -> int:
        """Read every news other processes told since news number ``last``
        (all of it, however much is waiting); the last number read."""
        changed = store._read("PRAGMA data_version")[0][0]
        if changed == self._version:
            return last
        self._version = changed
        for number, duel_id, origin, message in all_news_after(store, last):
            last = number
            if origin == self.origin:
                continue  # this process's sockets were told already
            try:
                self.fan_out(duel_id, json.loads(message))
            except ValueError:
                LOG.warning("duel news: news that is not ours: %.80s", message)
        return last

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)


def news_keep() -> float:
    """How long a SQLite file keeps the duels' news: :data:`KEEP` seconds,
    or ``$LUCIE_DUEL_NEWS_KEEP`` (a test's quiet minute made short)."""
    given = setting(DUEL_NEWS_KEEP)
    try:
        value = float(given) if given is not None else KEEP
    except ValueError:
        value = KEEP
    return value if value > 0 else KEEP


def hub_for(store: Store) -> LocalHub:
    """The hub of a store: :class:`PostgresHub` on PostgreSQL,
    :class:`SqliteHub` on a SQLite file, else :class:`LocalHub`."""
    if store.url is not None:
        return PostgresHub(store)
    if store.path is not None:
        return SqliteHub(store)
    return LocalHub(store)


__all__ = ["CHANNEL", "KEEP", "MAX_PAYLOAD", "POLL", "RESYNC", "LocalHub", "PostgresHub",
           "SqliteHub", "Subscription", "hub_for", "news_keep"]
