"""A site's clock is the store's (issue 48): the time a shared game is
shown is accrued in its row from the page's pings, whatever process gets
them, so two processes (or ``--workers 2``) count it once, and a process
killed with ``kill -9`` loses nothing it answered.

The store's accrual and the sessions on two stores are driven by a fake
wall clock (no waiting); the end-to-end tests run two real ``lucie serve``
processes on one database and compare the pings' answers with the time
the test saw pass between them (never with a duration the machine's speed
decides)."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from tests.serving import wait_for

from lucie.engine import Game
from lucie.rules import Rules
from lucie.session import PAGE_LEASE, NotSavedError, Session, StaleGame
from lucie.store import Store, StoredClock, Tick

#: the ``serve_site`` fixture (tests/store/conftest.py)
Start = Callable[..., tuple[subprocess.Popen[str], str]]
Where = Path | str


class Wall:
    """A fake wall clock (seconds since the epoch), moved by the test."""

    def __init__(self, at: float = 1_800_000_000.0) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at

    def __iadd__(self, seconds: float) -> Wall:
        self.at += seconds
        return self


def _playable(session: Session) -> list[object]:
    return [m for m in session.game.position.legal_moves() if not m.is_redeal]


# -- the store's accrual ---------------------------------------------------


def test_a_ping_adds_the_time_since_the_last_one_capped_by_the_lease(store: Store) -> None:
    gid = store.start_game(Game(Rules(), 3), "ann", shown_at=1000.0)
    assert store.clock_of(gid) == StoredClock(0.0, 1000.0)
    assert store.tick_clock(gid, Tick(1030.0, 90.0, True)) == StoredClock(30.0, 1030.0)
    # a page silent for 170 s: only the lease counts
    assert store.tick_clock(gid, Tick(1200.0, 90.0, True)) == StoredClock(120.0, 1200.0)
    # hidden: the time up to now counts, then nothing
    assert store.tick_clock(gid, Tick(1210.5, 90.0, False)) == StoredClock(130.5, None)
    assert store.tick_clock(gid, Tick(1500.0, 90.0, False)) == StoredClock(130.5, None)
    # shown again: counting starts from now, the hidden time never counts
    assert store.tick_clock(gid, Tick(1600.0, 90.0, True)) == StoredClock(130.5, 1600.0)
    # a process whose clock is behind the last ping's adds nothing
    assert store.tick_clock(gid, Tick(1590.0, 90.0, True)) == StoredClock(130.5, 1590.0)
    assert store.tick_clock(gid, Tick(1590.123, 90.0, True)) == StoredClock(130.62, 1590.123)
    assert store.record(gid).seconds == 130.62
    assert store.record(gid).version == 1  # the clock is no change of the game


def test_a_game_ends_with_its_time_once(store: Store) -> None:
    game = Game(Rules(), 3)
    gid = store.start_game(game, "ann", shown_at=1000.0)
    move = next(m for m in game.position.legal_moves() if not m.is_redeal)
    game.play(move)
    saved = store.record_shared(gid, game, Tick(1010.0, 90.0, True), expect=1)
    assert (saved.version, saved.clock) == (2, StoredClock(10.0, 1010.0))
    game.resign()
    end = store.record_shared(gid, game, Tick(1025.0, 90.0, False), "resigned", expect=2)
    assert (end.version, end.clock) == (3, StoredClock(25.0, None))
    # a second process ending it too is refused: nothing counted twice
    with pytest.raises(StaleGame):
        store.record_shared(gid, game, Tick(1080.0, 90.0, False), "resigned", expect=2)
    # nor does a late ping of its page count after the end
    assert store.tick_clock(gid, Tick(1050.0, 90.0, True)) == StoredClock(25.0, None)
    record = store.record(gid)
    assert (record.status, record.seconds, record.version) == ("resigned", 25.0, 3)


def test_a_missing_game_has_no_clock(store: Store) -> None:
    assert store.tick_clock(12345, Tick(1000.0, 90.0, True)) is None
    assert store.clock_of(12345) is None


# -- sessions of two processes, on a fake wall clock -------------------------


def _two_stores(where: Where) -> tuple[Store, Store]:
    return Store(where), Store(where)


def test_the_pings_of_two_processes_add_up(where: Where) -> None:
    """The page's pings reach two processes in turn (each with its own
    copy of the game): the time shown follows them all, and a hidden page
    stops the clock for both."""
    wall = Wall()
    one, two = _two_stores(where)
    try:
        player = one.new_player("")
        first = Session.new(one, player, game=Game(Rules(), 5), shared=True,
                            lease=PAGE_LEASE, wall=wall)
        assert first.game_id is not None and first.clock.running
        second = Session.stored(two, first.game_id, player, shared=True, lease=PAGE_LEASE,
                                wall=wall)
        for minute in range(1, 5):  # a ping a minute, through either process
            wall += 60
            (first if minute % 2 else second).seen(True)
            assert first.seconds() == second.seconds() == 60.0 * minute
        wall += 30
        assert second.check_version() == second.version  # a read brings the store's clock
        assert first.seconds() == second.seconds() == 270.0  # (the review's figure)
        second.seen(False)  # hidden, told to the second process
        wall += 500
        first.check_version()
        assert first.seconds() == second.seconds() == 270.0
        assert not first.clock.running and not second.clock.running
        first.seen(True)
        wall += 12.5
        first.play(_playable(first)[0])  # a move says the page is shown
        assert first.seconds() == 282.5 and one.record(first.game_id).seconds == 282.5
        assert second.check_version() != second.version  # (its copy is stale now)
        second = Session.stored(two, first.game_id, player, shared=True, lease=PAGE_LEASE,
                                wall=wall)
        wall += 7.5
        second.resign()
        assert second.seconds() == 290.0 and one.record(first.game_id).seconds == 290.0
        wall += 100
        with pytest.raises(NotSavedError):  # the other copy's end is refused
            first.resign()
        first.seen(True)  # and a late ping adds nothing
        assert one.record(first.game_id).seconds == 290.0 == first.seconds()
    finally:
        one.close()
        two.close()


def test_a_process_that_stops_writes_no_time(where: Where) -> None:
    """A process that closes its copy (stopping, or dropping it from
    memory) leaves the clock to the store: the page's next ping through
    another process goes on from the last one, nothing lost or added."""
    wall = Wall()
    one, two = _two_stores(where)
    try:
        player = one.new_player("")
        first = Session.new(one, player, game=Game(Rules(), 9), shared=True,
                            lease=PAGE_LEASE, wall=wall)
        assert first.game_id is not None
        wall += 40
        first.seen(True)
        wall += 5
        first.close()  # (the process stops)
        assert one.record(first.game_id).seconds == 40.0
        wall += 20
        second = Session.stored(two, first.game_id, player, shared=True, lease=PAGE_LEASE,
                                wall=wall)
        assert second.seconds() == 65.0 and second.clock.running
        second.seen(True)
        assert one.record(first.game_id).seconds == 65.0
    finally:
        one.close()
        two.close()


# -- two real server processes ---------------------------------------------


def _ping(client: httpx.Client, gid: str, visible: bool) -> dict[str, object]:
    answer = client.post(f"/api/games/{gid}/visibility", json={"visible": visible})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert isinstance(data, dict)
    return data


def _pass(seconds: float) -> float:
    """Wait until ``seconds`` have passed (a condition, with a deadline);
    returns when the wait began."""
    began = time.monotonic()
    wait_for(f"{seconds} s to pass", lambda: time.monotonic() - began >= seconds, 30)
    return began


def _seconds(answer: dict[str, object]) -> float:
    value = answer["seconds"]
    assert isinstance(value, float | int)
    return float(value)


def _the_clock_follows_the_pings(serve: Start, db: str) -> None:
    one, url1 = serve(db)
    two, url2 = serve(db)
    with httpx.Client(base_url=url1, timeout=20) as a:
        game = a.post("/api/games", json={"deal": 7}).json()
        gid = game["id"]
        cookie = a.cookies["lucie_player"]
        with httpx.Client(base_url=url2, timeout=20, cookies={"lucie_player": cookie}) as b:
            # pings alternating between the processes: each adds the time since
            # the one before (at least what the test saw pass between them)
            sent = time.monotonic()
            last = _seconds(_ping(a, gid, True))
            for client in (b, a, b):
                began = _pass(0.6)  # (after the last answer came)
                answer = _ping(client, gid, True)
                assert answer["running"] is True
                assert _seconds(answer) >= last + 0.6 - 0.02, (answer, last)
                # and no more than passed since the last ping was sent
                assert _seconds(answer) <= last + time.monotonic() - sent + 0.02, (answer, last)
                sent, last = began + 0.6, _seconds(answer)
            assert _seconds(a.get(f"/api/games/{gid}").json()) >= last
            # hidden (told to one process): the clock stops for both
            hidden = _ping(b, gid, False)
            assert hidden["running"] is False and _seconds(hidden) >= last
            _pass(0.6)
            for client in (a, b):
                state = client.get(f"/api/games/{gid}").json()
                assert state["seconds"] == hidden["seconds"] and not state["clock_running"]
            # shown again through one, a move through the other counts the time between
            _ping(a, gid, True)
            _pass(0.6)
            move = game["legal_moves"][0]
            played = b.post(f"/api/games/{gid}/move", json={"move": move}).json()
            assert played["seconds"] >= _seconds(hidden) + 0.6 - 0.02
            # the process that answered the last ping is killed: nothing it
            # answered is lost
            _pass(0.3)
            acknowledged = _seconds(_ping(b, gid, True))
            two.kill()
            two.wait(timeout=20)
            assert _seconds(a.get(f"/api/games/{gid}").json()) >= acknowledged
            end = a.post(f"/api/games/{gid}/resign", json={}).json()
            assert end["seconds"] >= acknowledged
        row = next(g for g in a.get("/api/history").json()["games"] if g["status"] != "playing")
        assert row["seconds"] == end["seconds"]  # recorded once, the value shown
        assert _seconds(_ping(a, gid, True)) == end["seconds"]  # a late ping adds nothing
    assert one.poll() is None


def test_the_clock_follows_the_pings_on_one_sqlite_file(serve_site: Start,
                                                          tmp_path: Path) -> None:
    _the_clock_follows_the_pings(serve_site, str(tmp_path / "site.sqlite3"))


def test_the_clock_follows_the_pings_on_postgresql(serve_site: Start,
                                                     pg_fresh: Callable[[], str]) -> None:
    _the_clock_follows_the_pings(serve_site, pg_fresh())


def _a_ping_after_a_restart_elsewhere(serve: Start, db: str) -> None:
    """A Restart after the game's end through one process: the page's pings
    through the other, which holds the finished game, are the new game's
    (its clock stops when the page is hidden, the answer is its time), not
    the finished game's."""
    _one, url1 = serve(db)
    _two, url2 = serve(db)
    with httpx.Client(base_url=url1, timeout=20) as a:
        game = a.post("/api/games", json={"deal": 7}).json()
        gid = game["id"]
        a.post(f"/api/games/{gid}/move", json={"move": game["legal_moves"][0]})
        with httpx.Client(base_url=url2, timeout=20, cookies=a.cookies) as b:
            assert b.get(f"/api/games/{gid}").json()["status"] == "playing"  # its copy
            _pass(0.3)
            ended = a.post(f"/api/games/{gid}/resign", json={}).json()
            assert b.get(f"/api/games/{gid}").json()["status"] == "resigned"
            sent = time.monotonic()
            again = a.post(f"/api/games/{gid}/restart", json={}).json()
            assert again["status"] == "playing" and again["clock_running"] is True
            hidden = _ping(b, gid, False)
            # the new game's time: no more than passed since the Restart was sent
            assert _seconds(hidden) <= time.monotonic() - sent + 0.02, (hidden, ended)
            assert hidden["running"] is False
            for client in (a, b):
                state = client.get(f"/api/games/{gid}").json()
                assert state["status"] == "playing" and not state["clock_running"], state
                assert state["seconds"] == hidden["seconds"]
            _pass(0.3)
            shown = _ping(b, gid, True)
            assert shown["running"] is True and shown["seconds"] == hidden["seconds"]
    with Store(db) as store:
        new = store.token_game(gid)
        assert new is not None
        clock = store.clock_of(new)
        assert clock is not None and clock.shown_at is not None


def test_a_ping_after_a_restart_elsewhere_on_one_sqlite_file(serve_site: Start,
                                                               tmp_path: Path) -> None:
    _a_ping_after_a_restart_elsewhere(serve_site, str(tmp_path / "site.sqlite3"))


def test_a_ping_after_a_restart_elsewhere_on_postgresql(serve_site: Start,
                                                          pg_fresh: Callable[[], str]) -> None:
    _a_ping_after_a_restart_elsewhere(serve_site, pg_fresh())
