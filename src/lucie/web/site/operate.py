"""What a site's operator needs around the game (``lucie serve``):
rate limits, ``/healthz``, ``/metrics`` (Prometheus) and an access log of
one JSON line per request.

Rate limits (in the notation of :mod:`limits`) are counted in the store,
for every process and machine on it (:mod:`lucie.site.rates`), so
``--workers N`` holds a client to the limit once (docs/hosting.md).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, TextIO, TypeVar

from limits import RateLimitItem, parse
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lucie.i18n import _
from lucie.session import WAIT_UNTIL, StoreError, StoreFault
from lucie.site import rates as rate_counts
from lucie.web.answers import JSONAnswer, json_bytes
from lucie.web.app import ACCESS_LOG
from lucie.web.errors import RETRY_AFTER
from lucie.web.headers import SECURITY, with_headers
from lucie.web.site.duel import GAME_COMMAND
from lucie.web.site.sockets import CLOSE_TOO_MANY
from lucie.web.store_link import FAULT_LOG, REQUEST_PLAYER, StoreLink
from lucie.web.thinking import SolverPool

#: Requests a minute per client address, and per player (the defaults of
#: ``--address-limit`` and ``--player-limit``).
ADDRESS_LIMIT: Final = "600/minute"
PLAYER_LIMIT: Final = "240/minute"
#: The paths that are never limited nor logged as play (the operator's).
_OPERATOR: Final = ("/healthz", "/metrics")
#: A game's changes counted as moves in the metrics.
#: The game commands that play moves (a game's command: :data:`GAME_COMMAND`).
_MOVES: Final = frozenset({"move", "redeal", "merci", "autoplay", "home"})
#: Latency buckets (seconds).
_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

#: Seconds a request waits for its rate limit's count in the store before
#: it is let through on this process's own count (a write of the store
#: waits meanwhile for a lock: the other players' reads are not held up).
COUNT_WAIT: Final = 0.25

T = TypeVar("T")


def rate(text: str) -> RateLimitItem:
    """A rate limit as ``limits`` writes it (``240/minute``); ValueError if not."""
    return parse(text)


#: A process reserves a client's requests in batches of this part of the
#: limit (at least 1): one store write per batch, and at most this part
#: of the limit left unused in each other process that serves the client.
BATCH_PART: Final = 20


class SharedWindow:
    """A rate limit counted in the store for every process and machine on
    it (:mod:`lucie.site.rates`: a sliding window counter): a client's
    requests are reserved in batches (:data:`BATCH_PART`) and let through
    from memory until the batch is spent or its window ends, so most
    requests cost a dictionary lookup, and a batch one store write."""

    def __init__(self, link: StoreLink, kind: str, limit: RateLimitItem) -> None:
        self.link = link
        self.kind = kind
        self.most = limit.amount
        self.seconds = max(1, int(limit.get_expiry()))
        self.batch = max(1, -(-self.most // BATCH_PART))
        #: each client's window (its start) and the requests left of its batches
        self.left: dict[str, tuple[int, int]] = {}
        #: the clients refused, and when they may be let through again (a
        #: client that goes on asking meanwhile costs no store work)
        self.refused: dict[str, float] = {}
        #: the clients whose batch is being reserved (their other requests
        #: wait for it rather than each reserving a batch)
        self.reserving: dict[str, asyncio.Future[None]] = {}
        self._window = 0
        self._tidying: asyncio.Future[Any] | None = None

    async def hit(self, who: str, now: float) -> bool:
        """Count a request of ``who`` at ``now`` (seconds since the epoch:
        the processes share the clock) if the limit allows it."""
        start = rate_counts.window_start(now, self.seconds)
        while True:
            known = self.left.get(who)
            if known is not None and known[0] == start and known[1] > 0:
                self.left[who] = (start, known[1] - 1)
                return True
            if self.refused.get(who, 0.0) > now:
                return False
            under_way = self.reserving.get(who)
            if under_way is None:
                break
            await under_way  # then take from the batch it brought, if any
        done = self.reserving[who] = asyncio.get_running_loop().create_future()
        try:
            return await self._reserve(who, start, now)
        finally:
            del self.reserving[who]
            done.set_result(None)

    async def _reserve(self, who: str, start: int, now: float) -> bool:
        """Reserve a batch for ``who`` and take one request of it."""
        if start != self._window:  # a new window: the older ones are spent
            self._new_window(start)
        store, kind = self.link.store, self.kind
        # a store slow to count (a lock held by another program) holds no
        # request up: a batch is granted by this process alone meanwhile
        # (the count itself gives up as soon: a move queued behind it in the
        # store's thread keeps its own deadline)
        granted = await patiently(self.link.run(lambda: rate_counts.take(
            store, kind, who, most=self.most, seconds=self.seconds, want=self.batch, now=now),
            wait=COUNT_WAIT), COUNT_WAIT, self.batch)
        if granted == 0:
            self.refused[who] = now + await self._retry_after(who, now)
            return False
        self.refused.pop(who, None)
        self.left[who] = (start, granted - 1)
        return True

    def _new_window(self, start: int) -> None:
        self._window = start
        self.left = {who: v for who, v in self.left.items() if v[0] >= start}
        self.refused = {who: t for who, t in self.refused.items() if t > start}
        store, kind, older = self.link.store, self.kind, start - self.seconds
        # tidying, not waited for (its failure is the next window's to mend)
        self._tidying = asyncio.ensure_future(
            self.link.run(lambda: rate_counts.drop_before(store, kind, older), wait=COUNT_WAIT))
        self._tidying.add_done_callback(_retrieved)

    def reset_after(self, who: str, now: float) -> float:
        """Seconds until ``who``, just refused, may be let through again."""
        return max(0.0, self.refused.get(who, now) - now)

    async def _retry_after(self, who: str, now: float) -> float:
        kind = self.kind
        previous, used = await self.link.read(
            lambda store: rate_counts.counts(store, kind, who, seconds=self.seconds, now=now))
        return rate_counts.retry_after(previous, used, most=self.most, seconds=self.seconds,
                                       now=now)


class RateLimit:
    """Answers 429 (with ``Retry-After``) to a client over ``limit``,
    counted for every process on the store of ``link``
    (:class:`SharedWindow`); the client is what ``key`` says of the
    request (None: not limited), ``kind`` names the limit."""

    def __init__(self, app: ASGIApp, *, link: StoreLink, kind: str, limit: RateLimitItem,
                 key: Callable[[Scope], str | None]) -> None:
        self.app = app
        self.key = key
        self.window = SharedWindow(link, kind, limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # a WebSocket's handshake is a request like any other (issue 52)
        who = self.key(scope) if scope["type"] in ("http", "websocket") else None
        now = time.time()
        if who is None:
            await self.app(scope, receive, send)
            return
        try:
            allowed = await self.window.hit(who, now)
            wait = 0 if allowed else max(1, math.ceil(self.window.reset_after(who, now)))
        except StoreError as exc:  # the store cannot count: nothing is served
            if scope["type"] == "websocket":
                await _refuse_socket(receive, send, CLOSE_TRY_LATER, str(exc))
                return
            answer = JSONAnswer({"error": str(exc)}, status_code=503,
                                headers={"Retry-After": str(RETRY_AFTER)})
            await answer(scope, receive, with_headers(send, SECURITY))
            return
        if allowed:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await _refuse_socket(receive, send, CLOSE_TOO_MANY,
                                 _("too many requests: try again in {n} s").format(n=wait))
            return
        answer = JSONAnswer({"error": _("too many requests: try again in {n} s").format(n=wait)},
                            status_code=429, headers={"Retry-After": str(wait)})
        # the limit answers before the app's own headers are added: its
        # answer carries them too
        await answer(scope, receive, with_headers(send, SECURITY))


#: A WebSocket refused for the store's fault: "try again later" (RFC 6455).
CLOSE_TRY_LATER: Final = 1013


async def _refuse_socket(receive: Receive, send: Send, code: int, reason: str) -> None:
    """Accept a WebSocket's handshake only to close it at once with ``code``
    and ``reason`` (a refused handshake tells the page nothing but 403)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    # a close frame's reason is at most 123 bytes
    short = reason.encode("utf-8")[:123].decode("utf-8", "ignore")
    await send({"type": "websocket.close", "code": code, "reason": short})


def address_key(scope: Scope) -> str | None:
    """The client's address (as the trusted proxy gives it), for
    everything but the operator's paths."""
    if scope["path"].startswith(_OPERATOR):
        return None
    client = scope.get("client")
    return "address:" + (client[0] if client else "?")


def player_key(scope: Scope) -> str | None:
    """The request's player (set by :class:`lucie.web.site.PlayerMiddleware`)."""
    player = REQUEST_PLAYER.get()
    return None if player is None else f"player:{player.id}"


@dataclass
class Metrics:
    """The site's Prometheus metrics (a registry of its own per app)."""

    registry: CollectorRegistry
    requests: Counter
    latency: Histogram
    moves: Counter

    @classmethod
    def make(cls, pool: SolverPool) -> Metrics:
        registry = CollectorRegistry()
        # read when scraped (the registry keeps it)
        Gauge("lucie_solver_running", "Solver calls being worked out now",
              registry=registry).set_function(lambda: pool.running)
        return cls(
            registry,
            Counter("lucie_requests", "HTTP requests answered", ["method", "status"],
                    registry=registry),
            Histogram("lucie_request_seconds", "Time to answer a request", buckets=_BUCKETS,
                      registry=registry),
            Counter("lucie_moves", "Moves played (a move, redeal, merci, autoplay, home)",
                    registry=registry),
        )


class Observe:
    """Counts and times every request (:class:`Metrics`) and logs it as
    one JSON line on the ``lucie.access`` logger."""

    def __init__(self, app: ASGIApp, *, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics
        self._counters: dict[tuple[str, int], Counter] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500
        size = 0
        begun = False

        async def sending(message: Message) -> None:
            nonlocal status, size, begun
            if message["type"] == "http.response.start":
                status, begun = message["status"], True
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))
            await send(message)

        try:
            try:
                await self.app(scope, receive, sending)
            except StoreError as exc:  # from the middleware (the player, the limits)
                if begun:
                    raise
                await _store_down(exc, scope, receive, sending)
        finally:
            self._record(scope, status, size, time.perf_counter() - start)

    def _record(self, scope: Scope, status: int, size: int, seconds: float) -> None:
        m = self.metrics
        method = scope["method"]
        counter = self._counters.get((method, status))
        if counter is None:  # one child per method and status, looked up once
            counter = self._counters[method, status] = m.requests.labels(method, str(status))
        counter.inc()
        m.latency.observe(seconds)
        if status == 200 and method == "POST":
            command = GAME_COMMAND.match(scope["path"])
            if command is not None and command.group(2) in _MOVES:
                m.moves.inc()
        if ACCESS_LOG.isEnabledFor(logging.INFO):
            client = scope.get("client")
            ACCESS_LOG.info(json_bytes({
                "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "method": method, "path": scope["path"], "status": status,
                "bytes": size, "ms": round(seconds * 1000, 2),
                "client": client[0] if client else None,
                "player": scope.get("state", {}).get("player_id"),
            }).decode())


async def _store_down(exc: StoreError, scope: Scope, receive: Receive, send: Send) -> None:
    """The answer to a request the store failed below the routes (whose
    own answers are :func:`lucie.web.errors.from_lucie`'s): the store's
    trouble is the operator's, 503 with ``Retry-After``, logged as one
    line (a fault is logged by the store's link when it begins)."""
    if not isinstance(exc, StoreFault):
        FAULT_LOG.warning("%s", _("the store fails ({kind}): {cause}").format(
            kind=type(exc).__name__, cause=exc))
    answer = JSONAnswer({"error": str(exc)}, status_code=503,
                        headers={"Retry-After": str(RETRY_AFTER), "Cache-Control": "no-store"})
    await answer(scope, receive, with_headers(send, SECURITY))


class BatchedLines(logging.Handler):
    """Writes its records to ``stream`` a batch at a time: the lines of
    the requests answered within :attr:`delay` seconds of each other go
    out in one write (one system call, not one a request), at most
    :attr:`delay` seconds late; outside an event loop, at once."""

    delay: float = 0.2

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream
        self.lines: list[str] = []
        self._due = False

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(self.format(record) + "\n")
        except Exception:  # as logging.StreamHandler: a bad record is reported, not raised
            self.handleError(record)
            return
        if self._due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._due = True
        loop.call_later(self.delay, self.flush)

    def flush(self) -> None:
        self._due = False
        if not self.lines:
            return
        text, self.lines = "".join(self.lines), []
        self.acquire()
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # stdout gone (closed pipe): lines are lost, not the site
            pass
        finally:
            self.release()

    def close(self) -> None:
        self.flush()
        super().close()


#: Seconds ``/healthz`` waits for the store to answer before it says unhealthy.
HEALTH_WAIT: Final = 1.0


def health(link: StoreLink) -> Callable[[Request], object]:
    """``/healthz``: 200 when the store answers, 503 (with the cause and
    ``Retry-After``) at once when it does not: a fault of the last seconds,
    a write waiting for another program's lock (:meth:`StoreLink.problem`),
    or the write lock or a query not had within :data:`HEALTH_WAIT`
    seconds.  A success is remembered for that long (a flood of probes asks
    the store once a second)."""

    answered = [-math.inf]  # when both connections last answered (a flood asks once a second)

    def writable() -> None:
        # the write lock taken and let go (nothing written): another
        # program's lock is seen at once, not at the next player's move
        WAIT_UNTIL.set(time.monotonic() + HEALTH_WAIT)
        with link.store._write():
            pass

    async def probe() -> None:
        await asyncio.gather(link.run(writable), link.read(lambda reader: reader.version(0)))

    async def healthz(request: Request) -> Response:
        problem = link.problem() or _no_room(link)
        if problem is None and time.monotonic() - answered[0] > HEALTH_WAIT:
            asked = asyncio.ensure_future(probe())
            asked.add_done_callback(_retrieved)
            try:
                await asyncio.wait_for(asyncio.shield(asked), HEALTH_WAIT)
                answered[0] = time.monotonic()
            except TimeoutError:
                problem = _("the store did not answer within {n} s").format(n=HEALTH_WAIT)
            except Exception as exc:  # any failure of the store is unhealthy
                problem = str(exc)
        if problem is not None:
            return JSONAnswer({"ok": False, "error": problem}, status_code=503,
                              headers={"Cache-Control": "no-store",
                                       "Retry-After": str(RETRY_AFTER)})
        return JSONAnswer({"ok": True}, headers={"Cache-Control": "no-store"})

    return healthz


#: Free bytes under which the disk of a SQLite store is reported full.
ROOM: Final = 1 << 20


def _no_room(link: StoreLink) -> str | None:
    """Why a SQLite store's disk is full, if it is (a full disk is seen by
    ``/healthz`` at once, not at the next write that fails)."""
    path = link.store.path
    if path is None:
        return None
    try:
        found = os.statvfs(path.parent)
    except OSError:
        return None
    if found.f_bavail * found.f_frsize >= ROOM:
        return None
    return _("the disk holding {path} is full").format(path=path)


def _retrieved(task: asyncio.Future[Any]) -> None:
    """A done callback that takes the task's exception (a task awaited
    for a while only: nobody else will)."""
    if not task.cancelled():
        task.exception()


async def patiently(asked: Awaitable[T], seconds: float, otherwise: T) -> T:
    """What ``asked`` gives if it does within ``seconds``, else
    ``otherwise`` (the work goes on, its result and errors unread)."""
    task = asyncio.ensure_future(asked)
    task.add_done_callback(_retrieved)
    try:
        return await asyncio.wait_for(asyncio.shield(task), seconds)
    except TimeoutError:
        return otherwise


def metrics_endpoint(metrics: Metrics) -> Callable[[Request], object]:
    async def metrics_page(request: Request) -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return metrics_page


__all__ = ["ACCESS_LOG", "ADDRESS_LIMIT", "PLAYER_LIMIT", "BatchedLines", "Metrics",
           "Observe", "RateLimit", "SharedWindow", "address_key", "health", "metrics_endpoint",
           "player_key", "rate"]
