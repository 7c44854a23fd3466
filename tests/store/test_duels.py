"""Duels (issue 41) on both backends: the store's part, and the site's API
and WebSocket (Starlette's TestClient) on a store of each backend."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.applications import Starlette
from starlette.websockets import WebSocketDisconnect

from lucie.engine import Game
from lucie.rules import Rules
from lucie.store import Store
from lucie.store.duels import (
    DuelSettings,
    duel_by_token,
    end_duel,
    join_duel,
    open_duel,
    side_end,
    side_status,
)
from lucie.web.app import stop_app
from lucie.web.site import create_site
from lucie.web.site.duel import CLOSE_NO_DUEL, CLOSE_NO_PLAYER, CLOSE_NOT_YOURS
from lucie.web.store_link import StoreLink

Where = Path | str
SECRET = b"a secret for the duel tests, long enough"


# -- the store ------------------------------------------------------------------


def test_a_duel_is_opened_joined_once_and_ended_once(store: Store) -> None:
    ann, bob, cat = (store.new_player(n) for n in ("Ann", "Bob", "Cat"))
    g1 = store.start_game(Game(Rules(), deal=9), ann)
    settings = DuelSettings(Rules().spec(), 9, hints=False, undo=False, time_limit=300)
    duel = open_duel(store, settings, token="tok", host=ann.id, game=g1, page="page-a")
    assert duel.settings == settings and duel.started is None and duel.guest_id is None
    assert not join_duel(store, "tok", guest=ann.id, game=g1, page="page-x")  # the host
    g2 = store.start_game(Game(Rules(), deal=9), bob)
    assert join_duel(store, "tok", guest=bob.id, game=g2, page="page-b")
    g3 = store.start_game(Game(Rules(), deal=9), cat)
    assert not join_duel(store, "tok", guest=cat.id, game=g3, page="page-c")  # full
    duel = duel_by_token(store, "tok")
    assert duel is not None and duel.started is not None
    assert (duel.side_of(ann.id), duel.side_of(bob.id), duel.side_of(cat.id)) == (
        "host", "guest", None)
    ends = {"host": side_end(store, duel, "host"), "guest": side_end(store, duel, "guest")}
    assert ends["host"]["status"] == "playing" and ends["host"]["cards"] == 52
    assert end_duel(store, duel.id, "resigned", ends)
    assert not end_duel(store, duel.id, "time", ends)  # a result is never rewritten
    again = duel_by_token(store, "tok")
    assert again is not None and again.end_reason == "resigned"
    assert again.host_end is not None and again.host_end["saved"] == ends["host"]["saved"]
    # a player who deletes their data leaves the duel to the other (issue 52)
    store.delete_player(bob)
    kept = duel_by_token(store, "tok")
    assert kept is not None and kept.guest_id is None and kept.gone("guest")
    assert not kept.gone("host") and kept.side_of(ann.id) == "host"
    assert kept.guest_end == again.guest_end and kept.end_reason == "resigned"
    assert side_end(store, kept, "guest") == {"status": "absent"}  # the game went with bob
    assert side_status(store, kept, "guest") == "absent"
    assert side_status(store, kept, "host") == "playing"
    assert not join_duel(store, "tok", guest=cat.id, game=g1, page="p9")  # not open again
    # both gone: the duel goes
    store.delete_player(ann)
    assert duel_by_token(store, "tok") is None


# -- the site: API and socket -----------------------------------------------------


@pytest.fixture
def site(where: Where) -> Iterator[Starlette]:
    app = create_site(StoreLink.open(str(where)), SECRET, solver_workers=1,
                      address_limit="10000/minute", player_limit="10000/minute")
    yield app
    stop_app(app)
    app.state.link.close()


def _ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _socket_until(ws: Any, wanted: Any, deadline: float = 10.0) -> dict[str, Any]:
    """The first message ``wanted`` accepts (a deadline, not a sleep)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        message: dict[str, Any] = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError("no such message in time")


def test_a_duel_from_link_to_result(site: Starlette) -> None:
    with TestClient(site) as host, TestClient(site) as guest, TestClient(site) as third:
        duel = _ok(host.post("/api/duels", json={"variant": "classic", "deal": 12,
                                                 "hints": False, "undo": False}))
        token, mine = duel["token"], duel["game"]
        assert duel["state"] == "waiting" and duel["you"] == "host"
        assert duel["link"] == f"/duel/{token}"
        assert host.get(f"/duel/{token}").status_code == 200  # the page of the link
        # before the start: no move
        first = _ok(host.get(f"/api/games/{mine}"))["legal_moves"][0]
        r = host.post(f"/api/games/{mine}/move", json={"move": first})
        assert r.status_code == 409 and "not started" in r.json()["error"]
        # the guest sees it and joins; the host cannot join their own
        seen = _ok(guest.get(f"/api/duels/{token}"))
        assert seen["you"] is None and seen["game"] is None
        assert host.post(f"/api/duels/{token}/join", json={}).status_code == 409
        joined = _ok(guest.post(f"/api/duels/{token}/join", json={}))
        theirs = joined["game"]
        assert joined["state"] == "playing" and joined["you"] == "guest" and theirs != mine
        assert _ok(guest.get(f"/api/games/{theirs}"))["deal"] in (12, "12")
        r = third.post(f"/api/duels/{token}/join", json={})
        assert r.status_code == 409 and "two players" in r.json()["error"]
        with guest.websocket_connect(f"/api/duels/{token}/socket") as ws:
            now = ws.receive_json()
            assert now["type"] == "duel" and now["duel"]["state"] == "playing"
            _ok(host.post(f"/api/games/{mine}/move", json={"move": first}))
            seen_move = _socket_until(ws, lambda m: m["type"] == "progress")
            assert seen_move["side"] == "host" and seen_move["progress"]["moves"] >= 1
            # the host's table as seen, for the guest's page to draw small
            state = _ok(host.get(f"/api/games/{mine}"))
            table = seen_move["progress"]["table"]
            assert (table["fans"], table["cells"], table["foundations"]) == \
                (state["fans"], state["cells"], state["foundations"])
            both = _ok(guest.get(f"/api/duels/{token}"))["players"]
            assert both["host"]["progress"]["table"]["fans"] == state["fans"]
            # a visitor who is not one of the two sees the progress, not the tables
            assert all("table" not in side["progress"]
                       for side in _ok(third.get(f"/api/duels/{token}"))["players"].values())
            # the settings, enforced by the server
            r = host.post(f"/api/games/{mine}/undo", json={})
            assert r.status_code == 403 and "undo" in r.json()["error"]
            assert host.get(f"/api/games/{mine}/hint").status_code == 403
            assert host.post(f"/api/games/{mine}/restart", json={}).status_code == 409
            # nobody plays or resigns another's game
            assert guest.post(f"/api/games/{mine}/resign", json={}).status_code == 404
            assert guest.post(f"/api/games/{mine}/move",
                              json={"move": first}).status_code == 404
            assert third.post(f"/api/games/{theirs}/resign", json={}).status_code == 404
            # the host resigns: the duel is over, both are told
            _ok(host.post(f"/api/games/{mine}/resign", json={}))
            over = _socket_until(ws, lambda m: m["type"] == "duel"
                                 and m["duel"]["state"] == "over")["duel"]
        assert over["end_reason"] == "resigned" and over["winner"] == "guest"
        assert over["players"]["host"]["progress"]["status"] == "resigned"
        assert "saved" not in over["players"]["host"]["progress"]
        # over: the games are ordinary games again (the guard heard the end)
        assert host.get(f"/api/games/{mine}/hint?seconds=0.2").status_code == 200
        # the result stays as it was: the guest plays on, the duel does not change
        move = _ok(guest.get(f"/api/games/{theirs}"))["legal_moves"][0]
        _ok(guest.post(f"/api/games/{theirs}/move", json={"move": move}))
        assert _ok(host.get(f"/api/duels/{token}"))["players"] == over["players"]
        # the reviews, for both players, once it is over; not for a stranger
        review = _ok(guest.get(f"/api/duels/{token}/review/host?seconds=3"))
        assert "lost_at" in review and len(review["moves"]) >= 1
        assert third.get(f"/api/duels/{token}/review/host").status_code == 404


def test_bad_links_and_sockets_are_refused(site: Starlette) -> None:
    with TestClient(site) as host, TestClient(site) as stranger:
        assert host.get("/api/duels/nope").status_code == 404
        assert host.post("/api/duels/nope/join", json={}).status_code == 404
        r = host.post("/api/duels", json={"deal": 3, "minutes": 999})
        assert r.status_code == 400 and "minutes" in r.json()["error"]
        token = _ok(host.post("/api/duels", json={"deal": 3}))["token"]
        for client, path, code in ((stranger, f"/api/duels/{token}/socket", CLOSE_NO_DUEL),
                                   (host, "/api/duels/nope/socket", CLOSE_NO_DUEL),
                                   (TestClient(site), f"/api/duels/{token}/socket",
                                    CLOSE_NO_PLAYER)):
            stranger.get("/api/me")
            with pytest.raises(WebSocketDisconnect) as closed, \
                    client.websocket_connect(path) as ws:
                ws.receive_json()
            assert closed.value.code == code
        # another site's page cannot open the socket
        with pytest.raises(WebSocketDisconnect) as closed, host.websocket_connect(
                f"/api/duels/{token}/socket", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
        assert closed.value.code == CLOSE_NOT_YOURS


def test_a_duel_survives_a_restart_and_ends_on_time(where: Where) -> None:
    app = create_site(StoreLink.open(str(where)), SECRET, solver_workers=1)
    with TestClient(app) as host, TestClient(app) as guest:
        duel = _ok(host.post("/api/duels", json={"deal": 21, "minutes": 1}))
        token = duel["token"]
        _ok(guest.post(f"/api/duels/{token}/join", json={}))
        cookies = (dict(host.cookies), dict(guest.cookies))
    stop_app(app)
    app.state.link.close()
    again = create_site(StoreLink.open(str(where)), SECRET, solver_workers=1)
    try:
        with TestClient(again, cookies=cookies[0]) as host:
            view = _ok(host.get(f"/api/duels/{token}"))
            assert view["state"] == "playing" and view["you"] == "host"
            assert 0 < view["time_left"] <= 60
            move = _ok(host.get(f"/api/games/{view['game']}"))["legal_moves"][0]
            _ok(host.post(f"/api/games/{view['game']}/move", json={"move": move}))
            # the time runs out (the start moved back: no waiting a minute)
            _age(again.state.link.store, token)
            over = _ok(host.get(f"/api/duels/{token}"))
            assert over["state"] == "over" and over["end_reason"] == "time"
            # neither won, as many cards home: fewer moves first
            assert over["winner"] in ("guest", None)
            assert over["players"]["host"]["progress"]["moves"] >= 1
    finally:
        stop_app(again)
        again.state.link.close()


def _age(store: Store, token: str) -> None:
    """Move the duel's start an hour back (its time limit has run out)."""
    with store._write() as tx:
        tx.execute("UPDATE duels SET started = ? WHERE token = ?",
                   ("2000-01-01T00:00:00.000+00:00", token))


def test_a_new_game_does_not_leave_a_running_duel(site: Starlette) -> None:
    with TestClient(site) as host, TestClient(site) as guest:
        duel = _ok(host.post("/api/duels", json={"deal": 4}))
        _ok(guest.post(f"/api/duels/{duel['token']}/join", json={}))
        page = duel["game"]
        move = _ok(host.get(f"/api/games/{page}"))["legal_moves"][0]
        _ok(host.post(f"/api/games/{page}/move", json={"move": move}))
        _ok(host.post("/api/games", json={"deal": 5, "abandon": page}))
        assert _ok(host.get(f"/api/games/{page}"))["status"] == "playing"
        assert _ok(host.get(f"/api/duels/{duel['token']}"))["state"] == "playing"
