"""A duel on real ``lucie serve`` processes sharing one database: a move
made through one process reaches the socket held by another within a
second, on PostgreSQL (``LISTEN``/``NOTIFY``) and on a SQLite file (the
news written to the file, read by each process when the file changed);
after a quiet spell longer than the news is kept too."""

from __future__ import annotations

import json
import sqlite3
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
        if message["type"] == "progress":  # numbered, NOTIFY or SQLite
            assert isinstance(message["seq"], int), message
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


# -- news in order, none lost (issue 48) ----------------------------------------


def _socket(url: str, client: httpx.Client, token: str) -> Any:
    cookie = f"lucie_player={client.cookies['lucie_player']}"
    return websockets_sync.connect(url.replace("http://", "ws://") + f"/api/duels/{token}/socket",
                                   additional_headers={"Cookie": cookie})


def _play(client: httpx.Client, page: str) -> dict[str, Any]:
    legal = [m for m in _ok(client.get(f"/api/games/{page}"))["legal_moves"] if m != "redeal"]
    return _ok(client.post(f"/api/games/{page}/move", json={"move": legal[0]}))


class Heard:
    """What a duel's socket says, read until a condition holds (a
    deadline); the numbers (``seq``) of everything it said, in order."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.numbers: list[int] = []
        self.messages: list[dict[str, Any]] = []

    def until(self, what: str, check: Callable[[dict[str, Any]], bool],
              seconds: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"waited {seconds} s for {what}; heard {self.messages}"
            try:
                message = json.loads(self.ws.recv(timeout=left))
            except TimeoutError:
                continue
            self.messages.append(message)
            seq = message["duel"]["seq"] if message["type"] == "duel" else message.get("seq")
            assert isinstance(seq, int), message
            self.numbers.append(seq)
            if check(message):
                return message


def _host_moves(message: dict[str, Any]) -> int:
    """The host's moves that a socket's message shows (-1: none)."""
    if message["type"] == "progress" and message["side"] == "host":
        return int(message["progress"]["moves"])
    if message["type"] == "duel":
        return int(message["duel"]["players"]["host"]["progress"].get("moves", -1))
    return -1


def _news_count(db: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM duel_news").fetchone()[0])


def test_news_after_a_quiet_spell_on_one_sqlite_file(serve_site: Start, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Two servers on one SQLite file, the news kept one second (a quiet
    minute made short): once all of it is forgotten, the next still reaches
    the other server, in order, and so does the end of the duel (that
    server then lets its player have hints: the no-hints duel is over)."""
    monkeypatch.setenv("LUCIE_DUEL_NEWS_KEEP", "1")
    db = str(tmp_path / "duels.sqlite3")
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    host = httpx.Client(base_url=url1, timeout=30)
    guest = httpx.Client(base_url=url2, timeout=30)
    with host, guest:
        duel = _ok(host.post("/api/duels", json={"deal": 31, "hints": False}))
        token, page = duel["token"], duel["game"]
        mine = _ok(guest.post(f"/api/duels/{token}/join", json={}))["game"]
        with _socket(url2, guest, token) as ws:
            heard = Heard(ws)
            heard.until("the duel", lambda m: m["type"] == "duel")
            _play(guest, mine)  # the guest's server knows the duel runs
            assert guest.get(f"/api/games/{mine}/hint").status_code == 403
            for _n in range(2):
                moves = len(_play(host, page)["moves"])
                heard.until("the host's move", lambda m, n=moves: _host_moves(m) >= n)
            deadline = time.monotonic() + 30
            while _news_count(db):  # the quiet spell: every news forgotten
                assert time.monotonic() < deadline, "the news was never forgotten"
                time.sleep(0.05)
            for _n in range(3):
                moves = len(_play(host, page)["moves"])
                heard.until("the host's move after the quiet spell",
                            lambda m, n=moves: _host_moves(m) >= n)
            _ok(host.post(f"/api/games/{page}/resign", json={}))
            heard.until("the end", lambda m: m["type"] == "duel"
                        and m["duel"]["state"] == "over")
        assert heard.numbers == sorted(heard.numbers), heard.numbers  # in order
        # the guest's server heard the end: its no-hints rule is lifted
        assert guest.get(f"/api/games/{mine}/hint?seconds=0.1").status_code == 200


# -- a duel's rules on every path (issue 48) --------------------------------------


def _stored_id(client: httpx.Client) -> int:
    """The number in the statistics of the player's latest game."""
    games = _ok(client.get("/api/history"))["games"]
    return int(games[0]["id"])


def _review_across(url1: str, url2: str) -> None:
    """A no-hints duel played through ``url1``; its games' reviews through
    the statistics' history asked of ``url2`` (a process that served none
    of the duel's requests): refused while the duel is in play, given
    after its end."""
    host = httpx.Client(base_url=url1, timeout=60)
    guest = httpx.Client(base_url=url1, timeout=60)
    with host, guest:
        duel = _ok(host.post("/api/duels", json={"deal": 31, "hints": False}))
        mine = _ok(guest.post(f"/api/duels/{duel['token']}/join", json={}))["game"]
        _play(host, duel["game"])
        _play(guest, mine)
        reviews = []
        for player in (host, guest):
            stored = _stored_id(player)
            with httpx.Client(base_url=url2, timeout=60, cookies=dict(player.cookies)) as other:
                refused = other.get(f"/api/history/{stored}/review?seconds=1")
                assert refused.status_code == 409, refused.text
                assert "once the duel is over" in refused.json()["error"]
            reviews.append((player, stored))
        _ok(host.post(f"/api/games/{duel['game']}/resign", json={}))
        assert _ok(host.get(f"/api/duels/{duel['token']}"))["state"] == "over"
        for player, stored in reviews:
            with httpx.Client(base_url=url2, timeout=60, cookies=dict(player.cookies)) as other:
                review = _ok(other.get(f"/api/history/{stored}/review?seconds=1"))
                assert review["moves"], review


def test_a_no_hints_duel_is_not_reviewed_through_the_history_on_sqlite(
        serve_site: Start, tmp_path: Path) -> None:
    db = str(tmp_path / "duels.sqlite3")
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    _review_across(url1, url2)


def test_a_no_hints_duel_is_not_reviewed_through_the_history_on_postgresql(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    db = pg_fresh()
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    _review_across(url1, url2)
