"""Fair play by the deal, not by the game (issue 52), on both backends: help
asked on any game of the same deal and variant by the same player (a second
game, a loaded copy, a review) marks the player's game of the deal still in
play; in a duel without hints, help on any game of the duel's deal by either
of its players is refused while the duel runs; the daily table's time is
not shortened by a page that says it is hidden between moves.

The site's tests run two real ``lucie serve`` processes on one database
(SQLite file, PostgreSQL) and ask each help of the process that did not
serve the game it marks.  The deal of the day is found at run time
(:func:`lucie.daily.daily_deal`): nothing here depends on today's date."""

from __future__ import annotations

import datetime
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from tests.serving import wait_for

from lucie.daily import daily_deal, today
from lucie.engine import Game
from lucie.rules import Rules
from lucie.session import Session, review_asked
from lucie.store import Store, rank_daily
from lucie.store.records import GameRecord

#: the ``serve_site`` fixture (tests/store/conftest.py)
Start = Callable[..., tuple[subprocess.Popen[str], str]]


def _step(session: Session, n: int = 1) -> None:
    for _ in range(n):
        move = next(m for m in session.game.legal_moves if not m.is_redeal)
        session.play(move)


# -- the session and the store ------------------------------------------------


def test_help_on_a_second_game_of_the_days_deal_marks_the_first(store: Store) -> None:
    deal = daily_deal(Rules(), today())
    first = Session.new(store, "ann", Rules(), deal)
    _step(first)
    assert first.counts_for_daily()
    second = Session.new(store, "ann", Rules(), deal)  # a replay of the deal
    bob = Session.new(store, "bob", Rules(), deal)
    second.hint_asked()
    assert store.marks(first.game_id or 0).reasons == ("hints",)
    assert store.marks(bob.game_id or 0).fair  # another player's game: not marked
    first.read_marks()
    assert not first.counts_for_daily()
    first.resign()
    entry = next(e for e in rank_daily(store.deal_games(Rules(), deal), Rules(), today())
                 if e.record.player == "ann")
    assert entry.rank is None and entry.marks.reasons == ("hints",)


def test_help_on_a_loaded_copy_marks_the_game_in_play(store: Store) -> None:
    deal = daily_deal(Rules(), today())
    first = Session.new(store, "ann", Rules(), deal)
    _step(first, 2)
    ann = store.player(store.player_id("ann") or 0)
    assert ann is not None
    copy = Game(Rules(), deal)
    for move in first.game.moves:
        copy.push(move)
    loaded = Session.new(store, store.loaded_player(ann), game=copy)
    loaded.hint_asked()
    assert store.marks(first.game_id or 0).reasons == ("hints",)
    assert store.marks(loaded.game_id or 0).reasons == ("loaded", "hints")


def test_help_after_a_second_games_end_and_its_review_mark_the_game_in_play(
        store: Store) -> None:
    deal = daily_deal(Rules(), today())
    first = Session.new(store, "ann", Rules(), deal)
    _step(first)
    second = Session.new(store, "ann", Rules(), deal)
    _step(second)
    second.resign()
    second.hint_asked()  # practice after its result: the game in play is marked
    assert store.marks(first.game_id or 0).hints == 1
    assert store.marks(second.game_id or 0).hints == 0  # itself: practice, not marked
    review_asked(store, second.game_id or 0, "ann")  # the review of a finished game
    assert store.marks(first.game_id or 0).hints == 2
    review_asked(store, first.game_id or 0, "ann")  # a review of the game in play itself
    assert store.marks(first.game_id or 0).hints == 3
    first.resign()
    review_asked(store, second.game_id or 0, "ann")  # nothing in play: nothing marked
    assert store.marks(first.game_id or 0).hints == 3


def _record(gid: int, player: str, deal: int, seconds: float, spent: int) -> GameRecord:
    start = datetime.datetime.combine(today(), datetime.time(1), datetime.UTC)
    end = start + datetime.timedelta(seconds=spent)
    return GameRecord(gid, player, Rules().spec(), deal, 0, start.isoformat(), end.isoformat(),
                      end.isoformat(), "resigned", 10, 20, seconds, player_id=gid)


def test_the_tables_time_is_not_shortened_by_a_clock_stopped_between_moves() -> None:
    deal = daily_deal(Rules(), today())
    games = [(_record(1, "ann", deal, 5.0, 300), None),  # a clock that says 5 s of 300
             (_record(2, "bob", deal, 60.0, 60), None)]  # an honest minute
    from lucie.store import Marks

    table = rank_daily([(r, Marks("start", 0, 0)) for r, _ in games], Rules(), today())
    assert [(e.record.player, e.rank, e.seconds) for e in table] == [
        ("bob", 1, 60.0), ("ann", 2, 300.0)]
    assert table[1].to_json()["seconds"] == 300.0 and table[1].to_json()["clock_seconds"] == 5.0


# -- a site: two processes on one database ----------------------------------------


def _ok(r: httpx.Response) -> Any:
    assert r.status_code == 200, r.text
    return r.json()


def _move(client: httpx.Client, gid: str) -> dict[str, Any]:
    state = _ok(client.get(f"/api/games/{gid}"))
    move = next(m for m in state["legal_moves"] if m not in ("R", "redeal"))
    return dict(_ok(client.post(f"/api/games/{gid}/move", json={"move": move})))


def _loaded_copy(client: httpx.Client, gid: str) -> str:
    text = client.get(f"/api/games/{gid}/save").text
    return str(_ok(client.post("/api/games/load", json={"text": text}))["id"])


def _daily_bypasses(serve_site: Start, db: str) -> None:
    """A second game, a loaded copy and the history's review, each asked
    of the other process, mark the day's game in play."""
    _p1, url1 = serve_site(db)
    _p2, url2 = serve_site(db)
    for how in ("second", "loaded", "review"):  # a player each: a first game each
        one = httpx.Client(base_url=url1, timeout=60)
        with one:
            _ok(one.post("/api/me/name", json={"name": how}))
            two = httpx.Client(base_url=url2, timeout=60, cookies=dict(one.cookies))
            with two:
                day = _ok(one.post("/api/games", json={"daily": True}))
                _move(one, day["id"])
                assert _ok(one.get(f"/api/games/{day['id']}"))["daily_counts"] is True
                if how == "second":
                    other = _ok(two.post("/api/games", json={"daily": True}))["id"]
                    _ok(two.get(f"/api/games/{other}/hint?seconds=0.1"))
                elif how == "loaded":
                    other = _loaded_copy(two, day["id"])
                    _ok(two.get(f"/api/games/{other}/odds?samples=5&seconds=0.2"))
                else:
                    stored = _ok(two.get("/api/history"))["games"][0]["id"]
                    _ok(two.get(f"/api/history/{stored}/review?seconds=1"))
                state = _ok(one.get(f"/api/games/{day['id']}"))
                assert state["daily_counts"] is False, how
                assert state["daily_why"] == "hints asked", how
                _ok(one.post(f"/api/games/{day['id']}/resign", json={}))
                mine = _ok(one.get("/api/daily"))["mine"]
                assert mine["rank"] is None and mine["why_not_ranked"] == "hints asked", how


def test_the_days_game_is_marked_by_help_on_its_deal_on_sqlite(
        serve_site: Start, tmp_path: Path) -> None:
    _daily_bypasses(serve_site, str(tmp_path / "site.sqlite3"))


def test_the_days_game_is_marked_by_help_on_its_deal_on_postgresql(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _daily_bypasses(serve_site, pg_fresh())


def _refused(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, r.text
    return str(r.json()["error"])


def _no_hints_duel(serve_site: Start, db: str) -> None:
    """In a duel without hints, help on a second game of its deal or on a
    loaded copy of a duel's game, by either player, is refused while the
    duel runs (asked of the process that serves no duel's game), and
    given after its end."""
    _p1, url1 = serve_site(db)
    _p2, url2 = serve_site(db)
    host = httpx.Client(base_url=url1, timeout=60)
    guest = httpx.Client(base_url=url1, timeout=60)
    with host, guest:
        duel = _ok(host.post("/api/duels", json={"deal": 31, "hints": False}))
        mine = _ok(guest.post(f"/api/duels/{duel['token']}/join", json={}))["game"]
        _move(host, duel["game"])
        _move(guest, mine)
        helped: list[tuple[httpx.Client, str]] = []
        for player, page in ((host, duel["game"]), (guest, mine)):
            with httpx.Client(base_url=url2, timeout=60, cookies=dict(player.cookies)) as other:
                second = _ok(other.post("/api/games", json={"deal": 31}))["id"]
                _move(other, second)
                copy = _loaded_copy(other, page)
                for gid in (second, copy):
                    assert "not allowed" in _refused(
                        other.get(f"/api/games/{gid}/hint?seconds=0.1"), 403)
                    _refused(other.get(f"/api/games/{gid}/odds?samples=5&seconds=0.2"), 403)
                    _refused(other.get(f"/api/games/{gid}/review?seconds=1"), 409)
                    helped.append((player, gid))
                # another deal is not the duel's
                free = _ok(other.post("/api/games", json={"deal": 32}))["id"]
                _ok(other.get(f"/api/games/{free}/hint?seconds=0.1"))
        _ok(host.post(f"/api/games/{duel['game']}/resign", json={}))
        assert _ok(host.get(f"/api/duels/{duel['token']}"))["state"] == "over"
        for player, gid in helped:
            with httpx.Client(base_url=url2, timeout=60, cookies=dict(player.cookies)) as other:
                _ok(other.get(f"/api/games/{gid}/hint?seconds=0.1"))


def test_a_no_hints_duel_refuses_help_on_its_deal_on_sqlite(
        serve_site: Start, tmp_path: Path) -> None:
    _no_hints_duel(serve_site, str(tmp_path / "site.sqlite3"))


def test_a_no_hints_duel_refuses_help_on_its_deal_on_postgresql(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _no_hints_duel(serve_site, pg_fresh())


def _hidden_between_moves(serve_site: Start, db: str) -> None:
    """Two players play the same moves of the deal of the day, on two
    processes: one at once, the other saying the page is hidden after each
    move and waiting a while between them: its clock stops, the table's
    time does not, and it is ranked after the one who played at once."""
    _p1, url1 = serve_site(db)
    _p2, url2 = serve_site(db)
    quick = httpx.Client(base_url=url1, timeout=60)
    slow = httpx.Client(base_url=url2, timeout=60)
    with quick, slow:
        for client, name in ((quick, "Quick"), (slow, "Slow")):
            _ok(client.post("/api/me/name", json={"name": name}))
        fast = _ok(quick.post("/api/games", json={"daily": True}))["id"]
        for _ in range(2):
            _move(quick, fast)
        _ok(quick.post(f"/api/games/{fast}/resign", json={}))
        began = time.monotonic()
        gid = _ok(slow.post("/api/games", json={"daily": True}))["id"]
        _ok(slow.post(f"/api/games/{gid}/visibility", json={"visible": False}))
        for turn in (1, 2):
            _move(slow, gid)
            _ok(slow.post(f"/api/games/{gid}/visibility", json={"visible": False}))
            # (the store keeps whole seconds: wait until they must show)
            wait_for("time to pass", lambda t=turn: time.monotonic() - began >= 1.5 * t, 30)
        _ok(slow.post(f"/api/games/{gid}/resign", json={}))
        entries = {e["player"]: e for e in _ok(quick.get("/api/daily"))["entries"]}
    lazy, honest = entries["Slow"], entries["Quick"]
    assert lazy["clock_seconds"] < 1.0  # the page's word stopped the clock
    assert lazy["seconds"] >= 2.0  # not the table's time: the server saw 3 s pass
    assert (honest["score"], honest["moves"]) == (lazy["score"], lazy["moves"])
    assert honest["rank"] == 1 and lazy["rank"] == 2


def test_a_page_hidden_between_moves_does_not_shorten_the_tables_time_on_sqlite(
        serve_site: Start, tmp_path: Path) -> None:
    _hidden_between_moves(serve_site, str(tmp_path / "site.sqlite3"))


def test_a_page_hidden_between_moves_does_not_shorten_the_tables_time_on_postgresql(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _hidden_between_moves(serve_site, pg_fresh())
