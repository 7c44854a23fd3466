"""Hostile: one player naming another player's things (IDOR).

Two visitors of one site (``lucie serve``'s app, in process), each with
their own cookie.  For every endpoint that names a game (its page id, or
its number in the statistics), a duel or a challenge, the other player's
id gets the very answer an id that names nothing gets (status and text,
the id aside), and changes nothing: the store's rows (but the rate
counts, which count every request) and what the owner then reads are as
they were.

A duel's and a challenge's link are what their player shares: whoever has
one may see the duel (its tables left out) or the challenge, and join or
play it; what is a side's own (a duel's review while not a side, its
socket) answers as for a duel that does not exist.
"""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.applications import Starlette
from starlette.websockets import WebSocketDisconnect
from tests.store.conftest import pg_fresh, postgres_server, serve_site  # noqa: F401 - fixtures

from lucie.web.app import stop_app
from lucie.web.site import create_site
from lucie.web.store_link import StoreLink

SECRET = b"a secret for the idor tests, long"

#: A page id of the right shape that names no game, and a stored game's
#: number that is nobody's.
UNKNOWN_PAGE = "x" * 24
UNKNOWN_NUMBER = "987654"
UNKNOWN_TOKEN = "y" * 16

GAME_POSTS = ("move", "redeal", "merci", "autoplay", "home", "visibility", "undo", "redo",
              "restart", "resign")
GAME_GETS = ("", "/save", "/hint", "/odds", "/review", "/difficulty")
#: A body for each command (what the owner might send).
BODIES: dict[str, dict[str, Any]] = {
    "move": {"move": "a>b"}, "merci": {"card": "KS", "fan": "a"}, "visibility": {"shown": True},
}


@dataclass
class Things:
    """What player A has, for B to name."""

    db: Path
    page: str  # a game in play, with a move
    over_page: str  # a finished game (resigned), its page id
    number: str  # that finished game's number in the statistics
    playing_number: str  # the game in play's number in the statistics
    challenge: str
    duel: str
    #: the hostile tests' recorder (tests/hostile/conftest.py)
    recorder: Any = None


def rows(db: Path) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every row of every table but the rate counts, read without the app."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'rate_counts'"
            " ORDER BY name")]
        return [(t, sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr))
                for t in tables]
    finally:
        conn.close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Starlette]:
    app = create_site(StoreLink.open(tmp_path / "site.sqlite3"), SECRET, solver_workers=1)
    yield app
    stop_app(app)
    app.state.link.close()


def _ok(r: Any) -> Any:
    assert r.status_code == 200, r.text
    return r.json()


def _played(a: TestClient) -> dict[str, Any]:
    state = _ok(a.post("/api/games", json={"deal": 7}))
    return dict(_ok(a.post(f"/api/games/{state['id']}/move",
                           json={"move": state["legal_moves"][0]})))


def _things(a: TestClient, db: Path) -> Things:
    over = _played(a)
    _ok(a.post(f"/api/games/{over['id']}/resign", json={}))
    challenge = _ok(a.post("/api/challenges", json={"game": over["id"]}))["token"]
    duel = _ok(a.post("/api/duels", json={"deal": 3}))["token"]
    playing = _played(a)
    history = _ok(a.get("/api/history"))["games"]
    by_status = {g["status"]: str(g["id"]) for g in history}
    return Things(db, playing["id"], over["id"], by_status["resigned"], by_status["playing"],
                  challenge, duel)


def _answer(r: Any, named: str) -> tuple[int, str]:
    """An answer as compared: its status and its text, the id named aside."""
    text = r.json().get("error", "") if r.headers.get("content-type", "").startswith(
        "application/json") else r.text
    return r.status_code, str(text).replace(named, "<id>")


def _same_as_unknown(b: TestClient, things: Things, theirs: str, unknown: str,
                     ask: Callable[[str], Any]) -> tuple[int, str]:
    """B asks ``ask`` of A's ``theirs`` and of ``unknown``: the same answer,
    and nothing changed."""
    before = rows(things.db)
    answer = ask(theirs)
    got = _answer(answer, theirs)
    changed = rows(things.db) != before
    expected = _answer(ask(unknown), unknown)
    if things.recorder is not None:
        outcome = ("data_lost" if changed else "server_error" if got[0] >= 500
                   else "clean_error" if got == expected else "ok")
        things.recorder.record("http", f"another's id: {answer.request.method} "
                               f"{answer.request.url.path.replace(theirs, '<id>')}", outcome)
    assert not changed, f"{theirs}: a refused request changed the store"
    assert got == expected, (theirs, got, expected)
    assert got[0] in (403, 404, 409), got
    return got


@pytest.fixture
def two(site: Starlette, tmp_path: Path,
        hostile: Any) -> Iterator[tuple[TestClient, TestClient, Things]]:
    with TestClient(site) as a, TestClient(site) as b:
        things = _things(a, tmp_path / "site.sqlite3")
        things.recorder = hostile
        _ok(b.get("/api/me"))  # b is a player (its cookie set) before anything is compared
        yield a, b, things


def test_a_game_of_another_player_is_as_unknown(two: tuple[TestClient, TestClient,
                                                           Things]) -> None:
    a, b, things = two
    mine = _ok(a.get(f"/api/games/{things.page}"))
    for page in (things.page, things.over_page):
        for command in GAME_POSTS:
            body = BODIES.get(command, {})
            got = _same_as_unknown(b, things, page, UNKNOWN_PAGE,
                                   lambda g, c=command, j=body: b.post(f"/api/games/{g}/{c}",
                                                                       json=j))
            assert got[0] == 404, (command, got)
        for path in GAME_GETS:
            got = _same_as_unknown(b, things, page, UNKNOWN_PAGE,
                                   lambda g, p=path: b.get(f"/api/games/{g}{p}"))
            assert got[0] == 404, (path, got)
    # A's game is as A left it
    again = _ok(a.get(f"/api/games/{things.page}"))
    assert again["moves"] == mine["moves"] and again["status"] == mine["status"]


def test_leaving_another_players_game_for_a_new_one_leaves_it_alone(
        two: tuple[TestClient, TestClient, Things]) -> None:
    """A new game that names another player's game as the one left (the
    bug of issue 48: it was resigned) is a new game, and that game stays."""
    a, b, things = two
    mine = _ok(a.get(f"/api/games/{things.page}"))
    for abandon in (things.page, UNKNOWN_PAGE):
        state = _ok(b.post("/api/games", json={"deal": 9, "abandon": abandon}))
        assert state["id"] not in (things.page, UNKNOWN_PAGE)
    again = _ok(a.get(f"/api/games/{things.page}"))
    assert again["status"] == mine["status"] == "playing"
    assert again["moves"] == mine["moves"]
    statuses = {str(g["id"]): g["status"] for g in _ok(a.get("/api/history"))["games"]}
    assert statuses[things.playing_number] == "playing"


def test_a_stored_game_of_another_player_is_as_unknown(
        two: tuple[TestClient, TestClient, Things]) -> None:
    _a, b, things = two
    for number in (things.number, things.playing_number):
        got = _same_as_unknown(b, things, number, UNKNOWN_NUMBER,
                               lambda n: b.get(f"/api/history/{n}/review?seconds=1"))
        assert got[0] == 404, got
    # nor does it show in B's statistics
    assert _ok(b.get("/api/history"))["games"] == []
    assert _ok(b.get("/api/stats"))["games"] == 0


def test_a_challenge_is_made_of_ones_own_game_only(
        two: tuple[TestClient, TestClient, Things]) -> None:
    _a, b, things = two
    got = _same_as_unknown(b, things, things.over_page, UNKNOWN_PAGE,
                           lambda g: b.post("/api/challenges", json={"game": g}))
    assert got[0] == 404, got
    # the reviews of a challenge B has not played: as for no challenge
    for index in ("1", "2"):
        got = _same_as_unknown(b, things, things.challenge, UNKNOWN_TOKEN,
                               lambda t, i=index: b.get(f"/api/challenges/{t}/review/{i}"))
        assert got[0] == 403, got
    # its link is shared: B sees it, without A's game's id, and may play it
    view = _ok(b.get(f"/api/challenges/{things.challenge}"))
    assert view["can_play"] and not any(e["mine"] for e in view["entries"])
    state = _ok(b.post(f"/api/challenges/{things.challenge}/play", json={}))
    assert state["id"] != things.over_page


def test_a_duels_own_parts_are_its_sides_only(
        two: tuple[TestClient, TestClient, Things]) -> None:
    a, b, things = two
    # the review of a duel B is no side of: as for no duel
    for side in ("host", "guest"):
        got = _same_as_unknown(b, things, things.duel, UNKNOWN_TOKEN,
                               lambda t, s=side: b.get(f"/api/duels/{t}/review/{s}"))
        assert got[0] == 404, got
    # its socket: closed as for no duel
    codes = []
    for token in (things.duel, UNKNOWN_TOKEN):
        with pytest.raises(WebSocketDisconnect) as closed, b.websocket_connect(
                f"/api/duels/{token}/socket") as ws:
            ws.receive_json()
        codes.append((closed.value.code, (closed.value.reason or "").replace(token, "<id>")))
    assert codes[0] == codes[1], codes
    # the duel's link is shared: B sees it, A's table left out
    seen = _ok(b.get(f"/api/duels/{things.duel}"))
    assert all("table" not in (p or {}).get("progress", {}) for p in seen["players"].values())
    # A's duel game is A's: B cannot play it by its page id
    host_page = _ok(a.get(f"/api/duels/{things.duel}")).get("game")
    if host_page:
        got = _same_as_unknown(b, things, host_page, UNKNOWN_PAGE,
                               lambda g: b.post(f"/api/games/{g}/resign", json={}))
        assert got[0] == 404, got


def test_the_account_endpoints_are_the_requests_player_only(
        two: tuple[TestClient, TestClient, Things]) -> None:
    a, b, things = two
    me_a = _ok(a.get("/api/me"))
    # a name or a deletion asked by B is B's: nothing of A's changes
    _ok(b.post("/api/me/name", json={"name": "Bob", "id": me_a["id"]}))
    _ok(b.post("/api/me/delete", json={"id": me_a["id"]}))
    assert _ok(a.get("/api/me")) == me_a
    assert _ok(a.get(f"/api/games/{things.page}"))["status"] == "playing"
    # a made-up recovery code (A's id, no signature) reaches nobody
    r = b.post("/api/me/recover", json={"code": f"{me_a['id']}"})
    assert r.status_code == 404
    assert _ok(a.get("/api/me")) == me_a


# -- on a real lucie serve, two workers --------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_another_players_game_on_two_workers_is_as_unknown(
        backend: str, tmp_path: Path, serve_site: Any,  # noqa: F811 - the fixture
        request: pytest.FixtureRequest) -> None:
    """Two players' cookies on one ``lucie serve --workers 2`` (each
    request may reach either process, whichever read the game last): the
    other player's page id and game number answer as unknown ones, and the
    game is as its player left it."""
    import httpx

    db = (str(tmp_path / "site.sqlite3") if backend == "sqlite"
          else request.getfixturevalue("pg_fresh")())
    _proc, url = serve_site(db, "--workers", "2")
    with httpx.Client(base_url=url, timeout=30) as a, httpx.Client(base_url=url,
                                                                   timeout=30) as b:
        state = _ok(a.post("/api/games", json={"deal": 7}))
        page = state["id"]
        _ok(a.post(f"/api/games/{page}/move", json={"move": state["legal_moves"][0]}))
        number = str(_ok(a.get("/api/history"))["games"][0]["id"])
        _ok(b.get("/api/me"))
        for _round in range(3):  # (a few times: each worker answers some)
            for command in ("move", "undo", "resign", "visibility"):
                body = BODIES.get(command, {})
                got = [_answer(b.post(f"/api/games/{g}/{command}", json=body), g)
                       for g in (page, UNKNOWN_PAGE)]
                assert got[0] == got[1] and got[0][0] == 404, (command, got)
            got = [_answer(b.get(f"/api/games/{g}"), g) for g in (page, UNKNOWN_PAGE)]
            assert got[0] == got[1] and got[0][0] == 404, got
            got = [_answer(b.get(f"/api/history/{n}/review?seconds=1"), n)
                   for n in (number, UNKNOWN_NUMBER)]
            assert got[0] == got[1] and got[0][0] == 404, got
            _ok(b.post("/api/games", json={"deal": 9, "abandon": page}))
        mine = _ok(a.get(f"/api/games/{page}"))
        assert mine["status"] == "playing" and len(mine["moves"]) == 1
