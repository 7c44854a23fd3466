"""A deleted player's cookie and recovery code reach nothing (issue 48),
with two real ``lucie serve`` processes on one database: the next visitor
is a new player, never reachable with the old cookie (SQLite gave the
deleted newest player's id to the next visitor before schema 8)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import httpx

#: the ``serve_site`` fixture (tests/store/conftest.py)
Start = Callable[..., tuple[subprocess.Popen[str], str]]


def _deleted_player_reaches_nothing(serve: Start, db: str) -> None:
    _one, url1 = serve(db)
    _two, url2 = serve(db)
    with httpx.Client(base_url=url1, timeout=20) as gone:
        me = gone.get("/api/me").json()
        assert gone.post("/api/me/name", json={"name": "Gone"}).status_code == 200
        game = gone.post("/api/games", json={"deal": 3}).json()["id"]
        old_cookie = gone.cookies["lucie_player"]
        old_code = gone.get("/api/me").json()["recovery_code"]
        deleted = gone.post("/api/me/delete", json={})
        assert deleted.status_code == 200, deleted.text
    # the next visitor, after the deletion, through the other process
    with httpx.Client(base_url=url2, timeout=20) as newcomer:
        them = newcomer.get("/api/me").json()
        assert newcomer.post("/api/me/name", json={"name": "Newcomer"}).status_code == 200
        theirs = newcomer.post("/api/games", json={"deal": 4}).json()["id"]
        their_code = newcomer.get("/api/me").json()["recovery_code"]
    seen = set()
    for url in (url1, url2, url1):
        with httpx.Client(base_url=url, timeout=20,
                          cookies={"lucie_player": old_cookie}) as kept:
            r = kept.get("/api/me")
            now = r.json()
            # a brand-new anonymous player, neither the deleted one nor the newcomer
            assert now["id"] not in (me["id"], them["id"]) and now["name"] == "", now
            assert "lucie_player" in r.cookies  # (a new cookie for them)
            seen.add(now["id"])
            for gid in (game, theirs):
                assert kept.get(f"/api/games/{gid}").status_code == 404
        with httpx.Client(base_url=url, timeout=20) as stranger:
            stranger.get("/api/me")
            recovered = stranger.post("/api/me/recover", json={"code": old_code})
            assert recovered.status_code == 404, recovered.text
    assert len(seen) == 3  # each request with the old cookie: another new player
    assert them["id"] != me["id"]
    # the newcomer is still theirs alone, through either process
    with httpx.Client(base_url=url1, timeout=20) as again:
        again.get("/api/me")
        back = again.post("/api/me/recover", json={"code": their_code})
        assert back.status_code == 200 and back.json()["name"] == "Newcomer"


def test_a_deleted_players_cookie_reaches_nothing_on_sqlite(
        serve_site: Start, tmp_path: Path) -> None:
    _deleted_player_reaches_nothing(serve_site, str(tmp_path / "site.sqlite3"))


def test_a_deleted_players_cookie_reaches_nothing_on_postgresql(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _deleted_player_reaches_nothing(serve_site, pg_fresh())
