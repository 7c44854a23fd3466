"""A duel on real ``lucie serve`` processes sharing one database: a move
made through one process reaches the socket held by another within a
second, on PostgreSQL (``LISTEN``/``NOTIFY``) and on a SQLite file (the
news written to the file, read by each process when the file changed)."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

websockets_sync = pytest.importorskip("websockets.sync.client")

Start = Callable[..., tuple[subprocess.Popen[str], str]]


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _next_progress(ws: Any, side: str, moves: int) -> float:
    """Wait (a deadline) for ``side``'s progress at ``moves`` moves or more;
    the moment it came."""
    deadline = time.monotonic() + 5
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == "progress" and message["side"] == side \
                and message["progress"]["moves"] >= moves:
            return time.monotonic()


def _duel_across(host_url: str, guest_url: str, moves: int = 8,
                 fresh_connections: bool = False) -> list[float]:
    """A duel whose host plays through ``host_url`` while the guest's socket
    is held through ``guest_url``; each move's delay to that socket."""
    host = httpx.Client(base_url=host_url, timeout=30)
    guest = httpx.Client(base_url=guest_url, timeout=30)
    delays = []
    with host, guest:
        duel = _ok(host.post("/api/duels", json={"deal": 31}))
        _ok(guest.post(f"/api/duels/{duel['token']}/join", json={}))
        socket_url = guest_url.replace("http://", "ws://") + f"/api/duels/{duel['token']}/socket"
        cookie = f"lucie_player={guest.cookies['lucie_player']}"
        with websockets_sync.connect(socket_url, additional_headers={"Cookie": cookie}) as ws:
            assert json.loads(ws.recv(timeout=10))["duel"]["state"] == "playing"
            page = duel["game"]
            for number in range(1, moves + 1):
                legal = [m for m in _ok(host.get(f"/api/games/{page}"))["legal_moves"]
                         if m != "redeal"]
                if not legal:
                    break
                sent = time.monotonic()
                if fresh_connections:  # a new connection: any worker may answer it
                    with httpx.Client(base_url=host_url, timeout=30,
                                      cookies=dict(host.cookies)) as once:
                        played = _ok(once.post(f"/api/games/{page}/move",
                                               json={"move": legal[0]}))
                else:
                    played = _ok(host.post(f"/api/games/{page}/move", json={"move": legal[0]}))
                seen = _next_progress(ws, "host", len(played["moves"]))
                delays.append(seen - sent)
                assert number <= len(played["moves"])
    return delays


def test_a_move_through_one_server_reaches_the_socket_of_another(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    db = pg_fresh()
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    delays = _duel_across(url1, url2)
    assert len(delays) >= 3 and max(delays) < 1.0, delays


def test_a_duel_on_two_workers(serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _proc, url = serve_site(pg_fresh(), "--workers", "2")
    delays = _duel_across(url, url, moves=12, fresh_connections=True)
    assert len(delays) >= 3 and max(delays) < 1.0, delays


def test_two_servers_on_one_sqlite_file(serve_site: Start, tmp_path: Path) -> None:
    db = str(tmp_path / "duels.sqlite3")
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    delays = _duel_across(url1, url2)
    assert len(delays) >= 3 and max(delays) < 1.0, delays


def test_a_duel_on_two_workers_on_sqlite(serve_site: Start, tmp_path: Path) -> None:
    _proc, url = serve_site(str(tmp_path / "duels.sqlite3"), "--workers", "2")
    delays = _duel_across(url, url, moves=12, fresh_connections=True)
    assert len(delays) >= 3 and max(delays) < 1.0, delays
