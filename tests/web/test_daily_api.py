"""The deal of the day's table through the API (issue 41): each visitor of a
site plays the deal of the day; the table ranks the fair games, tells each
player their own rank, marks a game with a hint; the odds wait for the end
of the day; bad input is a 4xx."""

from __future__ import annotations

import datetime
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.applications import Starlette

from lucie.daily import daily_deal, today
from lucie.rules import Rules
from lucie.web.app import create_app, stop_app
from lucie.web.site import create_site
from lucie.web.store_link import StoreLink

SECRET = b"a secret for the tests, long enough"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Starlette]:
    app = create_site(StoreLink.open(tmp_path / "site.sqlite3"), SECRET, solver_workers=1)
    yield app
    stop_app(app)
    app.state.link.close()


def play_daily(client: TestClient, name: str, moves: int, *, hint: bool = False) -> int:
    """``client``'s player, named ``name``, plays the deal of the day and
    resigns after ``moves`` moves; returns its score."""
    assert client.post("/api/me/name", json={"name": name}).status_code == 200
    state: dict[str, Any] = client.post("/api/games", json={"daily": True}).json()
    gid = state["id"]
    if hint:
        assert client.get(f"/api/games/{gid}/hint?seconds=0.2").status_code == 200
    for _ in range(moves):
        move = next(m for m in state["legal_moves"] if m not in ("R", "redeal"))
        r = client.post(f"/api/games/{gid}/move", json={"move": move})
        assert r.status_code == 200, r.text
        state = r.json()
    state = client.post(f"/api/games/{gid}/resign", json={}).json()
    assert state["status"] == "resigned"
    return int(state["score"])


def test_every_player_sees_the_table_and_their_own_rank(site: Starlette) -> None:
    with TestClient(site) as ann, TestClient(site) as bob, TestClient(site) as cid:
        play_daily(ann, "Ann", 3)
        play_daily(bob, "Bob", 1)
        play_daily(cid, "Cid", 2, hint=True)
        tables = [c.get("/api/daily").json() for c in (ann, bob, cid)]
    for table in tables:
        assert table["deal"] == daily_deal(Rules(), today()) and table["date"] == str(today())
        assert table["over"] is False and table["odds"] is None and not table["odds_pending"]
        names = [e["player"] for e in table["entries"]]
        assert sorted(names[:2]) == ["Ann", "Bob"] and names[2] == "Cid"
        assert [e["rank"] for e in table["entries"]][2] is None
        assert table["entries"][2]["why_not_ranked"] == "hints asked"
        assert table["ranked"] == 2
    ann_t, bob_t, cid_t = tables
    assert ann_t["mine"]["player"] == "Ann" and bob_t["mine"]["player"] == "Bob"
    assert {ann_t["mine"]["rank"], bob_t["mine"]["rank"]} <= {1, 2}
    assert cid_t["mine"]["rank"] is None
    assert [e["mine"] for e in ann_t["entries"]].count(True) == 1


def test_a_past_day_and_bad_input(site: Starlette) -> None:
    with TestClient(site) as a:
        yesterday = (today() - datetime.timedelta(days=1)).isoformat()
        table = a.get(f"/api/daily?date={yesterday}&variant=trefoil").json()
        assert table["over"] is True and table["entries"] == [] and table["odds_pending"]
        assert table["deal"] == daily_deal(Rules.parse("trefoil"), today() -
                                           datetime.timedelta(days=1))
        r = a.get("/api/daily/odds?variant=classic")  # today: not yet
        assert r.status_code == 409 and "once the day is over" in r.json()["error"]
        assert a.get("/api/daily?date=2026-02-30").status_code == 400
        assert a.get("/api/daily?date=2999-01-01").status_code == 400
        assert a.get("/api/daily?variant=nosuch").status_code == 422


def test_the_odds_of_a_past_day_are_worked_out_once(site: Starlette) -> None:
    yesterday = (today() - datetime.timedelta(days=1)).isoformat()
    with TestClient(site, headers={"Sec-Fetch-Site": "same-origin"}) as a:
        r = a.get(f"/api/daily/odds?date={yesterday}")
        assert r.status_code == 200, r.text
        odds = r.json()
        assert ("exact" in odds["text"]) == odds["proved"]
        table = a.get(f"/api/daily?date={yesterday}").json()
        if odds["budget_ran_out"]:  # cut short: not kept, never shown as complete
            assert table["odds"] is None
        else:
            assert table["odds"]["win_rate"] == odds["win_rate"] and not table["odds_pending"]


def test_the_game_says_whether_it_counts_for_the_table(site: Starlette) -> None:
    """The server says whether a game of the deal of the day counts (the
    page decides nothing): a fresh one does; a hint or the odds mark it,
    and the answer of the help says so at once; a replay of the deal does
    not count; a game of another deal is no daily game."""
    with TestClient(site) as a:
        state = a.post("/api/games", json={"daily": True}).json()
        assert (state["daily"], state["daily_counts"], state["daily_why"]) == \
            (str(today()), True, None)
        gid = state["id"]
        move = next(m for m in state["legal_moves"] if m != "R")
        assert a.post(f"/api/games/{gid}/move", json={"move": move}).json()["daily_counts"]
        odds = a.get(f"/api/games/{gid}/odds?samples=5&seconds=0.2").json()
        assert (odds["daily_counts"], odds["daily_why"]) == (False, "hints asked")
        state = a.get(f"/api/games/{gid}").json()
        assert (state["daily"], state["daily_counts"], state["daily_why"]) == \
            (str(today()), False, "hints asked")
        again = a.post("/api/games", json={"daily": True, "abandon": gid}).json()
        assert (again["daily"], again["daily_counts"]) == (str(today()), False)
        assert again["daily_why"] == "not played from the first move"
        other = a.post("/api/games", json={"deal": daily_deal(Rules(), today()) % 1000 + 1,
                                           "abandon": again["id"]}).json()
        assert (other["daily"], other["daily_counts"], other["daily_why"]) == (None, None, None)
        hint = a.get(f"/api/games/{other['id']}/hint?seconds=0.2").json()
        assert hint["daily_counts"] is None
        table = a.get("/api/daily").json()
        assert table["mine"]["why_not_ranked"] == "hints asked"  # the first game, resigned


def test_the_daily_game_survives_a_restart_and_still_counts(tmp_path: Path) -> None:
    """The store knows a game of the deal of the day (its deal and the day
    it was started): after a reload served by a fresh server (a restart,
    another process of the site), the page is still told it is the daily
    game and that it counts; and a deal number typed in that happens to be
    the day's is that day's game too (the table ranks it)."""
    path = tmp_path / "site.sqlite3"
    first = create_site(StoreLink.open(path), SECRET, solver_workers=1)
    try:
        with TestClient(first) as a:
            state = a.post("/api/games", json={"daily": True}).json()
            move = next(m for m in state["legal_moves"] if m != "R")
            a.post(f"/api/games/{state['id']}/move", json={"move": move})
            cookies = dict(a.cookies)
    finally:
        stop_app(first)
        first.state.link.close()
    second = create_site(StoreLink.open(path), SECRET, solver_workers=1)
    try:
        with TestClient(second, cookies=cookies) as a:
            again = a.get(f"/api/games/{state['id']}").json()
            assert len(again["moves"]) == 1
            assert (again["daily"], again["daily_counts"]) == (str(today()), True)
            typed = a.post("/api/games", json={"deal": daily_deal(Rules.parse("trefoil")),
                                               "variant": "trefoil"}).json()
            assert (typed["daily"], typed["daily_counts"]) == (str(today()), True)
    finally:
        stop_app(second)
        second.state.link.close()


@pytest.mark.parametrize("kind", ["site", "local"])
def test_a_review_of_a_game_in_play_is_help(kind: str, tmp_path: Path) -> None:
    """A review of a daily game still in play (from the game, or from the
    statistics by its number) tells the chance of its position: the game
    is marked as helped before it is given, as for a hint, and the game in
    memory says so at once (a site's, and a local ``lucie web``'s); a review
    after the end marks nothing."""
    app = (create_site(StoreLink.open(tmp_path / "site.sqlite3"), SECRET, solver_workers=1)
           if kind == "site" else create_app(tmp_path / "games.sqlite3"))
    try:
        _review_in_play(app)
    finally:
        stop_app(app)
        if kind == "site":
            app.state.link.close()


def _review_in_play(app: Starlette) -> None:
    with TestClient(app, headers={"Sec-Fetch-Site": "same-origin"}) as a:
        for where in ("game", "history"):
            state = a.post("/api/games", json={"daily": True, "variant": "trefoil"
                                               if where == "game" else "classic"}).json()
            gid = state["id"]
            move = next(m for m in state["legal_moves"] if m != "R")
            a.post(f"/api/games/{gid}/move", json={"move": move})
            assert a.get(f"/api/games/{gid}").json()["daily_counts"] is True
            if where == "game":
                path = f"/api/games/{gid}/review?seconds=1"
            else:
                number = a.get("/api/history").json()["games"][0]["id"]
                path = f"/api/history/{number}/review?seconds=1"
            assert a.get(path).status_code == 200
            state = a.get(f"/api/games/{gid}").json()
            assert (state["daily_counts"], state["daily_why"]) == (False, "hints asked"), where
        fair = a.post("/api/games", json={"daily": True, "variant": "noredeal"}).json()
        move = next(m for m in fair["legal_moves"] if m != "R")
        a.post(f"/api/games/{fair['id']}/move", json={"move": move})
        a.post(f"/api/games/{fair['id']}/resign", json={})
        assert a.get(f"/api/games/{fair['id']}/review?seconds=1").status_code == 200
        assert a.get(f"/api/games/{fair['id']}").json()["daily_counts"] is True


def test_a_loaded_game_has_no_entry_in_the_table(site: Starlette) -> None:
    """A site keeps a player's loaded games in the store (as the games of
    another player of the store, never theirs): a loaded game of the deal
    of the day, finished, is no entry of the table (docs/daily.md), and the
    page is not told it is a daily game."""
    with TestClient(site) as a:
        assert a.post("/api/me/name", json={"name": "Ann"}).status_code == 200
        state = a.post("/api/games", json={"daily": True}).json()
        move = next(m for m in state["legal_moves"] if m != "R")
        a.post(f"/api/games/{state['id']}/move", json={"move": move})
        saved = a.get(f"/api/games/{state['id']}/save").text
        loaded = a.post("/api/games/load", json={"text": saved, "abandon": None}).json()
        assert (loaded["daily"], loaded["daily_counts"]) == (None, None)
        a.post(f"/api/games/{loaded['id']}/resign", json={})
        table = a.get("/api/daily").json()
    assert [e["player"] for e in table["entries"]] == []  # Ann's own game is still in play
