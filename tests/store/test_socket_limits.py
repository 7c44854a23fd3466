"""The duel's sockets within limits (issue 52, docs/hosting.md#sockets), on
real ``lucie serve`` processes: a flood of sockets from one player or one
address is refused past its cap (a clear close code) while a second
visitor is served; a handshake counts in the rate limits; a half-sent
request head is dropped; an inbound frame larger than the protocol needs
closes the socket."""

from __future__ import annotations

import json
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from lucie.web.site.sockets import CLOSE_TOO_MANY, HEAD_TIMEOUT, MAX_FRAME, PER_ADDRESS, PER_PLAYER

websockets_sync = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402

Start = Callable[..., tuple[subprocess.Popen[str], str]]


@pytest.fixture(params=["sqlite", "postgresql"])
def site_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_fresh")())
    return str(tmp_path / "site.sqlite3")


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _open(url: str, client: httpx.Client, token: str, source: str = "127.0.0.1") -> Any:
    """A duel's socket of ``client``'s player, from the address ``source``."""
    parts = urlsplit(url)
    raw = socket.create_connection((parts.hostname, parts.port), timeout=30,
                                   source_address=(source, 0))
    return websockets_sync.connect(
        url.replace("http://", "ws://") + f"/api/duels/{token}/socket", sock=raw,
        additional_headers={"Cookie": f"lucie_player={client.cookies['lucie_player']}"},
        open_timeout=30)


def _served(ws: Any) -> dict[str, Any]:
    """The duel the socket first tells."""
    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
    assert message["type"] == "duel", message
    return message


def _refused(ws: Any) -> tuple[int, str]:
    """The socket's close (code, reason), waited for with a deadline."""
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=30)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


def _duel(stack: ExitStack, url: str,
          source: str = "127.0.0.1") -> tuple[httpx.Client, httpx.Client, str]:
    """A duel started between two new players from ``source`` (closed with
    ``stack``): its host, its guest, its token."""
    host = httpx.Client(base_url=url, timeout=30,
                        transport=httpx.HTTPTransport(local_address=source))
    guest = httpx.Client(base_url=url, timeout=30,
                         transport=httpx.HTTPTransport(local_address=source))
    stack.callback(host.close)
    stack.callback(guest.close)
    token = _ok(host.post("/api/duels", json={"deal": 31}))["token"]
    _ok(guest.post(f"/api/duels/{token}/join", json={}))
    return host, guest, token


@pytest.fixture
def clients() -> Iterator[ExitStack]:
    with ExitStack() as stack:
        yield stack


def test_a_flood_from_one_player_is_capped_and_a_second_visitor_served(
        serve_site: Start, site_db: str, clients: ExitStack) -> None:
    """One player's sockets past :data:`PER_PLAYER` are closed at once with
    :data:`CLOSE_TOO_MANY` and a reason; the other player of the duel is
    served meanwhile; a socket closed frees its place."""
    _proc, url = serve_site(site_db)
    host, guest, token = _duel(clients, url)
    held = [clients.enter_context(_open(url, host, token)) for _n in range(PER_PLAYER)]
    for ws in held:
        assert _served(ws)["duel"]["you"] == "host"
    for _n in range(3):
        with _open(url, host, token) as extra:
            code, reason = _refused(extra)
            assert code == CLOSE_TOO_MANY and "too many" in reason, (code, reason)
    with _open(url, guest, token) as second:
        assert _served(second)["duel"]["you"] == "guest"
    held.pop().close()
    deadline = time.monotonic() + 30
    while True:  # the server hears the close, then the place is free again
        with _open(url, host, token) as again:
            try:
                assert _served(again)["duel"]["you"] == "host"
                break
            except ConnectionClosed:
                assert time.monotonic() < deadline, "the closed socket's place never freed"
                time.sleep(0.05)


def test_a_flood_from_one_address_is_capped_and_another_address_served(
        serve_site: Start, tmp_path: Path, clients: ExitStack) -> None:
    """Players behind one address hold at most :data:`PER_ADDRESS` sockets;
    a visitor from another address is served meanwhile."""
    _proc, url = serve_site(str(tmp_path / "site.sqlite3"))
    duels = []
    for _n in range(-(-PER_ADDRESS // (2 * PER_PLAYER)) + 1):
        duels.append(_duel(clients, url))
    held = 0
    for host, guest, token in duels:
        for player in (host, guest):
            for _n in range(PER_PLAYER):
                if held == PER_ADDRESS:
                    break
                _served(clients.enter_context(_open(url, player, token)))
                held += 1
    host, guest, token = duels[-1]
    with _open(url, guest, token) as extra:
        assert _refused(extra)[0] == CLOSE_TOO_MANY
    _other_host, other_guest, other = _duel(clients, url, "127.0.0.2")
    with _open(url, other_guest, other, "127.0.0.2") as ws:
        assert _served(ws)["duel"]["you"] == "guest"


def test_handshakes_count_in_the_rate_limit(serve_site: Start, tmp_path: Path,
                                            clients: ExitStack) -> None:
    """With an address limit of 30 a minute, opening sockets again and
    again is refused (:data:`CLOSE_TOO_MANY`, "too many requests") before
    60 handshakes; another address is served."""
    _proc, url = serve_site(str(tmp_path / "site.sqlite3"), "--address-limit", "30/minute")
    host, _guest, token = _duel(clients, url)
    reasons = []
    for _n in range(60):
        with _open(url, host, token) as ws:
            try:
                _served(ws)
            except ConnectionClosed as exc:
                assert exc.rcvd is not None
                reasons.append((exc.rcvd.code, exc.rcvd.reason))
                break
    assert reasons and reasons[0][0] == CLOSE_TOO_MANY, reasons
    assert "too many requests" in reasons[0][1], reasons
    _other_host, other_guest, other = _duel(clients, url, "127.0.0.2")
    with _open(url, other_guest, other, "127.0.0.2") as ws:
        assert _served(ws)["duel"]["you"] == "guest"


def _dropped(raw: socket.socket, within: float) -> float:
    """Seconds until the server closes ``raw`` (reading what it sends),
    failing past ``within``."""
    start = time.monotonic()
    raw.settimeout(within)
    while True:
        try:
            data = raw.recv(4096)
        except TimeoutError:
            pytest.fail(f"the connection was still open after {within} s")
        except ConnectionResetError:
            data = b""
        if not data:
            return time.monotonic() - start


def test_a_half_sent_handshake_is_dropped(serve_site: Start, tmp_path: Path) -> None:
    """A handshake whose head never ends, and a connection that sends
    nothing, are closed by the server after :data:`HEAD_TIMEOUT` (waited
    for generously), while a whole request is still answered."""
    _proc, url = serve_site(str(tmp_path / "site.sqlite3"))
    parts = urlsplit(url)
    address = (parts.hostname or "127.0.0.1", parts.port or 80)
    with closing(socket.create_connection(address)) as half, \
            closing(socket.create_connection(address)) as mute:
        half.sendall(b"GET /api/duels/abcdefghij/socket HTTP/1.1\r\nHost: x\r\n"
                     b"Upgrade: websocket\r\nConnection: Upgrade\r\n")  # no end
        assert httpx.get(url + "/healthz", timeout=30).status_code == 200
        assert _dropped(half, HEAD_TIMEOUT * 6) >= HEAD_TIMEOUT * 0.5
        assert _dropped(mute, HEAD_TIMEOUT * 6) >= 0


def test_an_oversized_frame_closes_the_socket(serve_site: Start, tmp_path: Path,
                                              clients: ExitStack) -> None:
    """The page sends nothing: a frame larger than :data:`MAX_FRAME` closes
    its socket (1009, "message too big"), a small one is let be."""
    _proc, url = serve_site(str(tmp_path / "site.sqlite3"))
    host, _guest, token = _duel(clients, url)
    with _open(url, host, token) as ws:
        _served(ws)
        ws.send("x" * 64)  # read and let be
        ws.send("x" * (MAX_FRAME * 4))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
