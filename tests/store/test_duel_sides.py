"""A duel's result belongs to both players (issue 52), on real ``lucie
serve`` processes, on a SQLite file and on PostgreSQL: an opponent who
deletes their data leaves the duel and its result to the other side (their
side shown as a deleted player), and a timed duel whose time ran out never
breaks the other side's moves."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from lucie.session import Store

websockets_sync = pytest.importorskip("websockets.sync.client")

Start = Callable[..., tuple[subprocess.Popen[str], str]]


def _ok(r: httpx.Response) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _play(client: httpx.Client, page: str) -> dict[str, Any]:
    legal = [m for m in _ok(client.get(f"/api/games/{page}"))["legal_moves"] if m != "redeal"]
    return _ok(client.post(f"/api/games/{page}/move", json={"move": legal[0]}))


def _started_earlier(db: str, token: str, seconds: int) -> None:
    """The duel's clock moved on by ``seconds``: its start written that much
    earlier (the test's clock, not a wait)."""
    store = Store(db)
    try:
        started = store._read("SELECT started FROM duels WHERE token = ?", (token,))[0][0]
        earlier = (datetime.fromisoformat(started) - timedelta(seconds=seconds)).isoformat()
        with store._write() as tx:
            tx.execute("UPDATE duels SET started = ? WHERE token = ?", (earlier, token))
    finally:
        store.close()


def _wait_out(db: str, token: str) -> None:
    """Wait (on the clock, asking no process) until the duel's time is over."""
    store = Store(db)
    try:
        started, limit = store._read("SELECT started, time_limit FROM duels WHERE token = ?",
                                     (token,))[0]
    finally:
        store.close()
    end = datetime.fromisoformat(started) + timedelta(seconds=int(limit) + 0.5)
    while datetime.now(UTC) < end:
        time.sleep(0.05)


def _socket(url: str, client: httpx.Client, token: str) -> Any:
    socket_url = url.replace("http://", "ws://") + f"/api/duels/{token}/socket"
    return websockets_sync.connect(
        socket_url, additional_headers={"Cookie": f"lucie_player={client.cookies['lucie_player']}"})


def _db(backend: str, tmp_path: Path, pg_fresh: Callable[[], str]) -> str:
    return pg_fresh() if backend == "postgresql" else str(tmp_path / "duels.sqlite3")


@pytest.fixture(params=["sqlite", "postgresql"])
def site_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_fresh")())
    return str(tmp_path / "duels.sqlite3")


def test_the_time_running_out_never_breaks_the_other_side(serve_site: Start,
                                                          site_db: str) -> None:
    """A one-minute duel whose minute is over (its start moved earlier):
    the moves of either side answer 409, never 500, again and again; the
    duel reads over on time with both sides' results."""
    _one, url = serve_site(site_db)
    _two, url2 = serve_site(site_db)
    with httpx.Client(base_url=url, timeout=30) as host, \
            httpx.Client(base_url=url2, timeout=30) as guest:
        duel = _ok(host.post("/api/duels", json={"deal": 31, "minutes": 1}))
        token, page = duel["token"], duel["game"]
        mine = _ok(guest.post(f"/api/duels/{token}/join", json={}))["game"]
        _started_earlier(site_db, token, 57)  # three seconds left
        _play(host, page)  # each side's process knows the duel runs
        _play(guest, mine)
        with _socket(url, host, token), _socket(url2, guest, token):
            _wait_out(site_db, token)
        for client, game in ((guest, mine), (host, page), (guest, mine), (guest, mine)):
            legal = [m for m in _ok(client.get(f"/api/games/{game}"))["legal_moves"]
                     if m != "redeal"]
            r = client.post(f"/api/games/{game}/move", json={"move": legal[0]})
            assert r.status_code in (200, 409), r.text
        seen = _ok(guest.get(f"/api/duels/{token}"))
        assert seen["state"] == "over" and seen["end_reason"] == "time", seen


def test_an_opponent_who_deletes_their_data_leaves_the_result(serve_site: Start,
                                                              site_db: str) -> None:
    """The loser of an ended duel deletes their data: the winner still reads
    the duel, its result and both reviews; the loser's side is shown as a
    deleted player (no name, ``deleted``), and the deleted player's id
    names nobody in the duel."""
    _proc, url = serve_site(site_db)
    with httpx.Client(base_url=url, timeout=60) as host, \
            httpx.Client(base_url=url, timeout=60) as guest:
        _ok(host.post("/api/me/name", json={"name": "Ann"}))
        duel = _ok(host.post("/api/duels", json={"deal": 31}))
        token, page = duel["token"], duel["game"]
        mine = _ok(guest.post(f"/api/duels/{token}/join", json={}))["game"]
        _play(host, page)
        _play(guest, mine)
        _ok(host.post(f"/api/games/{page}/resign", json={}))
        before = _ok(guest.get(f"/api/duels/{token}"))
        assert before["state"] == "over" and before["winner"] == "guest", before
        assert _ok(host.post("/api/me/delete", json={}))["deleted_games"] >= 1
        after = _ok(guest.get(f"/api/duels/{token}"))
        assert after["state"] == "over" and after["winner"] == "guest", after
        assert after["you"] == "guest"
        assert after["players"]["host"]["deleted"] is True
        assert after["players"]["host"]["name"] == ""
        assert after["players"]["guest"]["deleted"] is False
        assert after["players"]["host"]["progress"]["moves"] == 1
        for side in ("host", "guest"):
            review = _ok(guest.get(f"/api/duels/{token}/review/{side}?seconds=1"))
            assert review["moves"], review
    # the deleted side names no player in the stored row
    store = Store(site_db)
    try:
        assert store._read("SELECT host_id FROM duels WHERE token = ?", (token,))[0][0] is None
    finally:
        store.close()


def test_an_opponent_deleted_mid_duel_then_the_time_runs_out(serve_site: Start,
                                                             site_db: str) -> None:
    """A timed duel whose guest deletes their data while it runs: it ends
    then (the guest resigned), its socket hears so, and once its time is
    over the host's moves and reads still answer (never 500)."""
    _proc, url = serve_site(site_db)
    with httpx.Client(base_url=url, timeout=30) as host, \
            httpx.Client(base_url=url, timeout=30) as guest:
        duel = _ok(host.post("/api/duels", json={"deal": 31, "minutes": 1}))
        token, page = duel["token"], duel["game"]
        mine = _ok(guest.post(f"/api/duels/{token}/join", json={}))["game"]
        _started_earlier(site_db, token, 57)  # three seconds left
        _play(host, page)
        _play(guest, mine)
        with _socket(url, host, token) as ws:
            assert json.loads(ws.recv(timeout=10))["duel"]["state"] == "playing"
            _ok(guest.post("/api/me/delete", json={}))
            deadline = time.monotonic() + 10
            while True:
                message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                if message["type"] == "duel" and message["duel"]["state"] == "over":
                    break
            assert message["duel"]["end_reason"] == "resigned", message
            assert message["duel"]["winner"] == "host", message
        _wait_out(site_db, token)
        for _n in range(3):
            _play(host, page)
        seen = _ok(host.get(f"/api/duels/{token}"))
        assert seen["state"] == "over" and seen["winner"] == "host", seen
        assert seen["players"]["guest"]["deleted"] is True


def test_schema_11_keeps_the_duels_ids_given(tmp_path: Path) -> None:
    """SQLite's rebuild of ``duels`` (schema 11) carries its id counter
    over: the id of a deleted duel, the newest one too, is not given again."""
    from lucie.store.schema import MIGRATIONS, statements

    conn = sqlite3.connect(tmp_path / "old.sqlite3")
    for migration in MIGRATIONS[:10]:
        for step in statements(migration, "sqlite"):
            conn.execute(step)
    conn.execute("INSERT INTO players (name, created) VALUES ('ann', 'x')")
    insert = ("INSERT INTO duels (token, variant, deal, hints, undo, created, host_id,"
              " host_game, host_page) VALUES (?, 'classic', 1, 1, 1, 'x', ?, 1, ?)")
    for n in range(3):
        conn.execute(insert, (f"t{n}", 1, f"p{n}"))
    conn.execute("DELETE FROM duels WHERE id = 3")
    for step in statements(MIGRATIONS[10], "sqlite"):
        conn.execute(step)
    conn.execute(insert, ("new", None, "p-new"))  # a side that names nobody
    assert conn.execute("SELECT id, host_id FROM duels WHERE token = 'new'").fetchone() == (
        4, None)
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE tbl_name = 'duels'"
                        " AND name LIKE 'duels_by_%'").fetchone() == (2,)
    conn.close()
