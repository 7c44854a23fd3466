"""What a site's operator needs around the game (``lucie serve``):
rate limits, ``/healthz``, ``/metrics`` (Prometheus) and an access log of
one JSON line per request.

Rate limits count in this process's memory (:mod:`limits`' moving
window): with ``--workers N`` each process counts its own requests, so a
client may reach up to N times the limit (docs/hosting.md).
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lucie.i18n import _
from lucie.web.headers import SECURITY, with_headers
from lucie.web.store_link import REQUEST_PLAYER, StoreLink
from lucie.web.thinking import SolverPool

#: Requests a minute per client address, and per player (the defaults of
#: ``--address-limit`` and ``--player-limit``).
ADDRESS_LIMIT: Final = "600/minute"
PLAYER_LIMIT: Final = "240/minute"
#: The paths that are never limited nor logged as play (the operator's).
_OPERATOR: Final = ("/healthz", "/metrics")
#: A game's changes counted as moves in the metrics.
_MOVE: Final = re.compile(r"/api/games/[^/]+/(move|redeal|merci|autoplay|home)\Z")
#: Latency buckets (seconds).
_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

ACCESS_LOG: Final = logging.getLogger("lucie.access")


def rate(text: str) -> RateLimitItem:
    """A rate limit as ``limits`` writes it (``240/minute``); ValueError if not."""
    return parse(text)


class RateLimit:
    """Answers 429 (with ``Retry-After``) to a client over ``limit``; the
    client is what ``key`` says of the request (None: not limited)."""

    def __init__(self, app: ASGIApp, *, limit: RateLimitItem,
                 key: Callable[[Scope], str | None]) -> None:
        self.app = app
        self.limit = limit
        self.key = key
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        who = self.key(scope) if scope["type"] == "http" else None
        if who is None or self.limiter.hit(self.limit, who):
            await self.app(scope, receive, send)
            return
        reset = self.limiter.get_window_stats(self.limit, who).reset_time
        wait = max(1, int(reset - time.time()) + 1)
        answer = JSONResponse({"error": _("too many requests: try again in {n} s").format(n=wait)},
                              status_code=429, headers={"Retry-After": str(wait)})
        # the limit answers before the app's own headers are added: its
        # answer carries them too
        await answer(scope, receive, with_headers(send, SECURITY))


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

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500
        size = 0

        async def sending(message: Message) -> None:
            nonlocal status, size
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                size += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            self._record(scope, status, size, time.perf_counter() - start)

    def _record(self, scope: Scope, status: int, size: int, seconds: float) -> None:
        m = self.metrics
        m.requests.labels(scope["method"], str(status)).inc()
        m.latency.observe(seconds)
        if status == 200 and scope["method"] == "POST" and _MOVE.search(scope["path"]):
            m.moves.inc()
        if ACCESS_LOG.isEnabledFor(logging.INFO):
            client = scope.get("client")
            ACCESS_LOG.info(json.dumps({
                "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "method": scope["method"], "path": scope["path"], "status": status,
                "bytes": size, "ms": round(seconds * 1000, 2),
                "client": client[0] if client else None,
                "player": scope.get("state", {}).get("player_id"),
            }, ensure_ascii=False))


def health(link: StoreLink) -> Callable[[Request], object]:
    """``/healthz``: 200 when the store answers, 503 when it does not."""

    async def healthz(request: Request) -> Response:
        try:
            await link.run(lambda: link.store.version(0))
        except Exception as exc:  # any failure of the store is unhealthy
            return JSONResponse({"ok": False, "error": type(exc).__name__}, status_code=503,
                                headers={"Cache-Control": "no-store"})
        return JSONResponse({"ok": True}, headers={"Cache-Control": "no-store"})

    return healthz


def metrics_endpoint(metrics: Metrics) -> Callable[[Request], object]:
    async def metrics_page(request: Request) -> Response:
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    return metrics_page


__all__ = ["ACCESS_LOG", "ADDRESS_LIMIT", "PLAYER_LIMIT", "Metrics", "Observe", "RateLimit",
           "address_key", "health", "metrics_endpoint", "player_key", "rate"]
