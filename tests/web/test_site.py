"""``lucie serve``'s site: a player per visitor (a signed cookie), each
seeing only their own games; a name, a recovery code, deleting it all."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.applications import Starlette

from lucie.session import Store
from lucie.web.app import stop_app
from lucie.web.site import PLAYER_COOKIE, Signer, check_name, create_site, load_secret
from lucie.web.site.operate import ACCESS_LOG
from lucie.web.store_link import StoreLink

SECRET = b"a secret for the tests, long enough"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Starlette]:
    app = create_site(StoreLink.open(tmp_path / "site.sqlite3"), SECRET, solver_workers=1)
    yield app
    stop_app(app)
    app.state.link.close()


def visitor(app: Starlette) -> TestClient:
    return TestClient(app)


def first_move(client: TestClient) -> tuple[str, str]:
    """A new game of ``client``'s player, and one legal move in it."""
    r = client.post("/api/games", json={"deal": 7})
    assert r.status_code == 200, r.text
    data = r.json()
    return data["id"], data["legal_moves"][0]


def test_each_visitor_gets_a_player_in_a_signed_httponly_cookie(site: Starlette) -> None:
    with visitor(site) as a:
        r = a.get("/api/me")
        assert r.status_code == 200
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(PLAYER_COOKIE + "=")
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
        me = r.json()
        assert me["name"] == ""
        # the same player on the next request, no new cookie
        r = a.get("/api/me")
        assert r.json()["id"] == me["id"] and "set-cookie" not in r.headers
        # the security headers of the local game
        assert "default-src 'self'" in r.headers["content-security-policy"]


def test_a_forged_or_altered_cookie_gets_a_new_player(site: Starlette) -> None:
    with visitor(site) as a:
        mine = a.get("/api/me").json()["id"]
    forged = Signer(b"another secret, just as long").sign("cookie", mine)
    good = Signer(SECRET).sign("cookie", mine)
    for value in (forged, f"{mine}.", str(mine), f"{mine}{good[len(str(mine)):-1]}",
                  f"0{good}", "x" * 300):
        with TestClient(site, cookies={PLAYER_COOKIE: value}) as b:
            r = b.get("/api/me")
            assert r.json()["id"] != mine and "set-cookie" in r.headers
    with TestClient(site, cookies={PLAYER_COOKIE: good}) as c:
        assert c.get("/api/me").json()["id"] == mine


def test_two_players_see_only_their_own_games(site: Starlette) -> None:
    with visitor(site) as a, visitor(site) as b:
        gid, move = first_move(a)
        assert a.post(f"/api/games/{gid}/move", json={"move": move}).status_code == 200
        assert a.get(f"/api/games/{gid}").status_code == 200
        # b knows the id, yet it is not b's: as if there were none
        assert b.get(f"/api/games/{gid}").status_code == 404
        assert b.post(f"/api/games/{gid}/move", json={"move": move}).status_code == 404
        assert b.get(f"/api/games/{gid}/save").status_code == 404
        assert a.get(f"/api/games/{gid}").json()["moves"] == [move]
        # statistics and history are each player's
        gb, _move = first_move(b)
        assert b.post(f"/api/games/{gb}/resign", json={}).status_code == 200
        assert a.post(f"/api/games/{gid}/resign", json={}).status_code == 200
        ha, hb = a.get("/api/history").json(), b.get("/api/history").json()
        assert len(ha["games"]) == 1 and len(hb["games"]) == 1
        stored_a = ha["games"][0]["id"]
        assert stored_a != hb["games"][0]["id"]
        assert a.get("/api/stats").json()["games"] == 1
        assert b.get("/api/stats").json()["games"] == 1
        # a stored game's review is its player's only
        assert b.get(f"/api/history/{stored_a}/review").status_code == 404


def test_a_game_not_in_memory_is_still_its_players_only(tmp_path: Path) -> None:
    """After a restart (the games are no longer in memory) another player's
    page token still reads as missing."""
    where = tmp_path / "site.sqlite3"
    first = create_site(StoreLink.open(where), SECRET, solver_workers=1)
    with visitor(first) as a:
        gid, _move = first_move(a)
        cookie = a.cookies[PLAYER_COOKIE]
    stop_app(first)
    first.state.link.close()
    again = create_site(StoreLink.open(where), SECRET, solver_workers=1)
    try:
        with visitor(again) as b:
            assert b.get(f"/api/games/{gid}").status_code == 404
        with TestClient(again, cookies={PLAYER_COOKIE: cookie}) as a2:
            assert a2.get(f"/api/games/{gid}").status_code == 200
    finally:
        stop_app(again)
        again.state.link.close()


def test_a_name_is_chosen_checked_and_kept_as_text(site: Starlette) -> None:
    with visitor(site) as a:
        name = "<script>alert(1)</script> & Lucie"
        r = a.post("/api/me/name", json={"name": f"  {name}  "})
        assert r.status_code == 200 and r.json()["name"] == name
        assert a.get("/api/me").json()["name"] == name
        page = a.get("/").text
        assert "<script>alert" not in page  # never put in the page as HTML
        assert a.post("/api/me/name", json={"name": "x" * 41}).status_code == 400
        assert a.post("/api/me/name", json={"name": "a\x07b"}).status_code == 400
        assert a.post("/api/me/name", json={"name": 3}).status_code == 400
        # a form post (another site's page can send one) is refused
        r = a.post("/api/me/name", content=b"name=x",
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert r.status_code == 415
        r = a.post("/api/me/name", json={"name": "evil"},
                   headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403
        assert a.get("/api/me").json()["name"] == name


def test_the_recovery_code_brings_the_player_to_another_browser(site: Starlette) -> None:
    with visitor(site) as a, visitor(site) as other:
        me = a.get("/api/me").json()
        gid, _move = first_move(a)
        assert other.get(f"/api/games/{gid}").status_code == 404
        assert other.post("/api/me/recover", json={"code": "1.abc"}).status_code == 404
        assert other.post("/api/me/recover",
                          json={"code": a.cookies[PLAYER_COOKIE]}).status_code == 404
        r = other.post("/api/me/recover", json={"code": me["recovery_code"]})
        assert r.status_code == 200 and r.json()["id"] == me["id"]
        assert "HttpOnly" in r.headers["set-cookie"]
        assert other.get("/api/me").json()["id"] == me["id"]
        assert other.get(f"/api/games/{gid}").status_code == 200


def test_deleting_the_player_deletes_their_games(site: Starlette, tmp_path: Path) -> None:
    with visitor(site) as a, visitor(site) as b:
        me = a.get("/api/me").json()
        gid, move = first_move(a)
        a.post(f"/api/games/{gid}/move", json={"move": move})
        gb, _move = first_move(b)
        r = a.post("/api/me/delete", json={})
        assert r.status_code == 200 and r.json()["deleted_games"] == 1
        assert 'Max-Age=0' in r.headers["set-cookie"]
        assert a.get(f"/api/games/{gid}").status_code == 404
        assert a.get("/api/me").json()["id"] != me["id"]
        assert b.get(f"/api/games/{gb}").status_code == 200
    store = Store(tmp_path / "site.sqlite3")
    try:
        assert store.player(me["id"]) is None
    finally:
        store.close()


def test_a_local_player_cannot_be_taken_by_a_cookie(site: Starlette) -> None:
    local = site.state.link.store.local_player("someone")
    cookie = Signer(SECRET).sign("cookie", local.id)
    with TestClient(site, cookies={PLAYER_COOKIE: cookie}) as c:
        assert c.get("/api/me").json()["id"] != local.id


def test_static_files_and_health_make_no_player(site: Starlette) -> None:
    with visitor(site) as a:
        r = a.get("/static/lucie.js")
        assert r.status_code == 200 and "set-cookie" not in r.headers


def test_the_secret_is_made_once_and_kept_private(tmp_path: Path) -> None:
    path = tmp_path / "dir" / "secret"
    made = load_secret(path)
    assert len(made) >= 32 and load_secret(path) == made
    assert path.stat().st_mode & 0o077 == 0
    with pytest.raises(ValueError):
        Signer(b"short")


def test_names() -> None:
    assert check_name(" Anne   Marie ") == "Anne Marie"


def test_rate_limits_per_player_and_per_address(tmp_path: Path) -> None:
    app = create_site(StoreLink.open(tmp_path / "s.sqlite3"), SECRET, solver_workers=1,
                      address_limit="8/minute", player_limit="3/minute")
    try:
        with visitor(app) as a, visitor(app) as b:
            assert [a.get("/api/me").status_code for _i in range(4)] == [200, 200, 200, 429]
            r = a.get("/api/me")
            assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
            # the site's security headers on a refusal too
            assert "default-src 'self'" in r.headers["content-security-policy"]
            assert r.headers["x-content-type-options"] == "nosniff"
            assert "too many requests" in r.json()["error"]
            # another player from the same address: its own count (3 more: 8 in all)
            assert [b.get("/api/me").status_code for _i in range(3)] == [200, 200, 200]
        with visitor(app) as c:  # the address's count is spent: no player is even made
            r = c.get("/api/me")
            assert r.status_code == 429 and "set-cookie" not in r.headers
            assert c.get("/healthz").status_code == 200  # health is never limited
    finally:
        stop_app(app)
        app.state.link.close()


def test_health_metrics_and_the_access_log(site: Starlette, caplog: pytest.LogCaptureFixture,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # (a logging set-up of another test, e.g. import-linter's, may disable it)
    monkeypatch.setattr(ACCESS_LOG, "disabled", False)
    with visitor(site) as a, caplog.at_level("INFO", logger="lucie.access"):
        assert a.get("/healthz").json() == {"ok": True}
        gid, move = first_move(a)
        assert a.post(f"/api/games/{gid}/move", json={"move": move}).status_code == 200
        text = a.get("/metrics").text
        assert "lucie_moves_total 1.0" in text
        assert 'lucie_requests_total{method="POST",status="200"} 2.0' in text
        assert "lucie_request_seconds_bucket" in text and "lucie_solver_running 0.0" in text
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "lucie.access"]
    moved = [x for x in lines if x["path"].endswith("/move")]
    assert len(moved) == 1 and moved[0]["status"] == 200 and moved[0]["method"] == "POST"
    assert isinstance(moved[0]["player"], int) and moved[0]["ms"] >= 0
    # through the network (not this machine), the metrics are not there
    with TestClient(site, client=("203.0.113.9", 5000)) as far:
        assert far.get("/metrics").status_code == 404


def test_health_says_when_the_store_is_gone(tmp_path: Path) -> None:
    app = create_site(StoreLink.open(tmp_path / "s.sqlite3"), SECRET, solver_workers=1)
    try:
        app.state.link.store.close()
        with visitor(app) as a:
            assert a.get("/healthz").status_code == 503
    finally:
        app.state.solver.close()


def test_the_page_offers_the_players_panel_on_a_site_only(site: Starlette,
                                                          client: TestClient) -> None:
    with visitor(site) as a:
        assert a.get("/api/features").json()["players"] is True
        page = a.get("/").text
        assert 'id="d-player"' in page and 'id="b-player" hidden' in page
        assert a.get("/static/account.js").status_code == 200
    assert client.get("/api/features").json()["players"] is False


def test_a_deleted_players_cookie_changes_nothing_any_more(site: Starlette,
                                                            tmp_path: Path) -> None:
    """A game's commands know their player by the signed cookie alone (no
    read of the store): a cookie kept after its player deleted everything
    finds no game to change, on the server that deleted it and on another
    that still has the game in memory, and nothing of theirs comes back."""
    other = create_site(StoreLink.open(tmp_path / "site.sqlite3"), SECRET, solver_workers=1)
    try:
        with visitor(site) as a:
            me = a.get("/api/me").json()
            gid, move = first_move(a)
            cookie = a.cookies[PLAYER_COOKIE]
            with TestClient(other, cookies={PLAYER_COOKIE: cookie}) as b:
                seen = b.get(f"/api/games/{gid}").json()  # now in the other's memory too
                assert seen["moves"] == []
                assert a.post("/api/me/delete", json={}).status_code == 200
                for server in (site, other):
                    with TestClient(server, cookies={PLAYER_COOKIE: cookie}) as kept:
                        for command, body in (("move", {"move": move}), ("undo", {}),
                                              ("restart", {}), ("resign", {})):
                            r = kept.post(f"/api/games/{gid}/{command}", json=body)
                            assert r.status_code == 404, (command, r.text)
    finally:
        stop_app(other)
        other.state.link.close()
    store = Store(tmp_path / "site.sqlite3")
    try:
        assert store.player(me["id"]) is None
        assert store._read("SELECT id FROM games WHERE player_id = ?", (me["id"],)) == []
    finally:
        store.close()
