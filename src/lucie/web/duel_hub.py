"""How a duel's news reaches the sockets of both its players, whichever
process or machine serves each of them.

- :class:`LocalHub`: the sockets of this process only.  Enough for a
  store on SQLite served by one process (``lucie web``, ``lucie serve``
  with one worker).  With several processes on one SQLite file, a
  player's socket hears only the moves made through its own process; it
  catches up from the store when it reconnects (docs/duel.md).
- :class:`PostgresHub`: PostgreSQL's ``LISTEN``/``NOTIFY``.  Each process
  keeps one listening connection (channel :data:`CHANNEL`) and fans each
  notification out to its own sockets of that duel; a move made through
  any process is told to every other with one ``NOTIFY``.  Nothing polls
  the database.  A notification holds the news itself (a side's progress,
  a few hundred bytes); one too long for ``NOTIFY`` (8000 bytes) is sent
  as ``resync``, which tells the sockets to read the duel again from the
  store.  When the listening connection breaks (the server restarted), it
  is opened again and every socket is told ``resync``: what was said
  meanwhile is read from the store.

The hubs run the database's connections in a thread of their own, with
its own event loop, and deliver each message into the event loop of the
socket that listens (a test's clients may each have their own loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

#: The PostgreSQL channel of the duels' news.
CHANNEL: Final = "lucie_duels"
#: The longest payload ``NOTIFY`` takes (bytes, less a margin).
MAX_PAYLOAD: Final = 7900
#: The messages a socket may have waiting before it is told to resync.
QUEUE_SIZE: Final = 256
#: The message that tells a socket to read its duel again from the store.
RESYNC: Final = {"type": "resync"}

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
    """The duels' news among the sockets of this process."""

    def __init__(self) -> None:
        self._subscribers: dict[int, set[Subscription]] = {}
        self._lock = threading.Lock()
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

    async def publish(self, duel_id: int, message: dict[str, Any]) -> None:
        """Tell ``message`` to every socket of duel ``duel_id``."""
        self.fan_out(duel_id, message)

    def close(self) -> None:
        """Stop (nothing to stop here)."""


class PostgresHub(LocalHub):
    """The duels' news among every process on the PostgreSQL database at
    ``url`` (see the module doc)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        #: tells this process's own notifications apart (its sockets have them)
        self.origin = uuid.uuid4().hex
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="lucie-duel-hub",
                                        daemon=True)
        self._thread.start()
        self._publisher: Any = None
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

    async def _notify(self, payload: str) -> None:
        import psycopg

        for _attempt in range(2):
            try:
                if self._publisher is None or self._publisher.closed:
                    self._publisher = await self._connect()
                await self._publisher.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                return
            except (psycopg.Error, OSError) as exc:
                LOG.warning("duel news: cannot notify (%s)", exc)
                self._publisher = None

    async def publish(self, duel_id: int, message: dict[str, Any]) -> None:
        self.fan_out(duel_id, message)
        payload = json.dumps({"duel": duel_id, "from": self.origin, "message": message})
        if len(payload.encode("utf-8")) > MAX_PAYLOAD:
            payload = json.dumps({"duel": duel_id, "from": self.origin, "message": RESYNC})
        done = asyncio.run_coroutine_threadsafe(self._notify(payload), self._loop)
        await asyncio.wrap_future(done)

    def close(self) -> None:
        self._listener.cancel()
        publisher = self._publisher

        async def stop() -> None:
            if publisher is not None:
                await publisher.close()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(stop(), self._loop).result(5)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


def hub_for(url: str | None) -> LocalHub:
    """The hub of a store: :class:`PostgresHub` for a ``postgresql://``
    URL, else :class:`LocalHub`."""
    return PostgresHub(url) if url is not None else LocalHub()


__all__ = ["CHANNEL", "RESYNC", "LocalHub", "PostgresHub", "Subscription", "hub_for"]
