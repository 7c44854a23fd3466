"""A site's connections within limits (``lucie serve``, docs/hosting.md#sockets).

- A request's head (its line and headers, a WebSocket's handshake
  included) must come whole within :data:`HEAD_TIMEOUT` seconds of the
  connection, or of the first byte of the request after an answer, and
  be at most :data:`MAX_HEAD` bytes: a half-sent head is dropped
  (:class:`TimelyHttp`), so a few programs that open connections and
  send nothing hold no descriptors for long.
- A duel's socket is only ever read for its close: an inbound frame
  larger than :data:`MAX_FRAME` bytes closes it (1009); a socket whose
  page stops answering pings is dropped (:data:`PING_INTERVAL`,
  :data:`PING_TIMEOUT`).
- At most :data:`PER_PLAYER` duel sockets are open for a player and
  :data:`PER_ADDRESS` for one client address, in each process
  (:class:`SocketCount`); one more is accepted and closed at once with
  :data:`CLOSE_TOO_MANY` and a reason.  Opening a socket is a request like
  any other for the rate limits (:class:`lucie.web.site.operate.RateLimit`).

:func:`uvicorn_options` gives uvicorn all of it.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Seconds a request's head (a handshake too) may take to come whole.
HEAD_TIMEOUT: Final = 10.0
#: The longest request head (bytes): the page's are well under 4 KiB.
MAX_HEAD: Final = 16 * 1024
#: The largest frame a page may send on a duel's socket (bytes; the page
#: sends none: a close frame is under 130).
MAX_FRAME: Final = 4 * 1024
#: Seconds between pings on a quiet socket, and for the answer to one.
PING_INTERVAL: Final = 20.0
PING_TIMEOUT: Final = 20.0
#: Seconds a kept-alive connection may stay quiet between requests.
KEEP_ALIVE: Final = 5
#: The duel sockets one player, and one address, may hold open (per
#: process): a player has a duel's page open in a few tabs at most; an
#: address may be several players behind one router.
PER_PLAYER: Final = 4
PER_ADDRESS: Final = 16
#: The close code of a socket refused for being one too many (4000-4999:
#: the application's; as HTTP's 429).
CLOSE_TOO_MANY: Final = 4429


class SocketCount:
    """The duel sockets open in this process, per player and per address."""

    def __init__(self, per_player: int = PER_PLAYER, per_address: int = PER_ADDRESS) -> None:
        self.per_player = per_player
        self.per_address = per_address
        self.players: dict[int, int] = {}
        self.addresses: dict[str, int] = {}

    def open(self, player: int, address: str) -> bool:
        """Count a new socket of ``player`` from ``address``: False (and
        nothing counted) if either has all the sockets it may hold."""
        if self.players.get(player, 0) >= self.per_player \
                or self.addresses.get(address, 0) >= self.per_address:
            return False
        self.players[player] = self.players.get(player, 0) + 1
        self.addresses[address] = self.addresses.get(address, 0) + 1
        return True

    def close(self, player: int, address: str) -> None:
        """A socket counted by :meth:`open` is closed."""
        _less(self.players, player)
        _less(self.addresses, address)


def _less(counts: dict[Any, int], key: object) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


class TimelyHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools) with a deadline and a size for
    each request's head (:data:`HEAD_TIMEOUT`, :data:`MAX_HEAD`): uvicorn
    itself times a connection out only between requests."""

    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes: int = 0

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_bytes = 0
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()  # the first request's head

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._head_timer is not None:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._head_timer is not None and self._head_bytes > MAX_HEAD \
                and not self.transport.is_closing():  # still no whole head
            self._disarm()
            self.send_400_response("Request head too large.")

    def on_message_begin(self) -> None:
        self._arm()  # a request after an answer: its head is timed too
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()


def uvicorn_options() -> dict[str, Any]:
    """uvicorn's settings for the limits above (``lucie serve``)."""
    return {"http": TimelyHttp, "ws_max_size": MAX_FRAME,
            "ws_ping_interval": PING_INTERVAL, "ws_ping_timeout": PING_TIMEOUT,
            "timeout_keep_alive": KEEP_ALIVE, "h11_max_incomplete_event_size": MAX_HEAD}


__all__ = ["CLOSE_TOO_MANY", "HEAD_TIMEOUT", "KEEP_ALIVE", "MAX_FRAME", "MAX_HEAD",
           "PER_ADDRESS", "PER_PLAYER", "PING_INTERVAL", "PING_TIMEOUT", "SocketCount",
           "TimelyHttp", "uvicorn_options"]
