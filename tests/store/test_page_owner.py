"""Which game a page's id names is the store's to say: a Restart after a
game's end, a new game that leaves the old one, a leave named by another
player, each through two real ``lucie serve`` processes on one SQLite file
and on PostgreSQL (pages' requests spread over both), and each read again
after every process restarted; ``lucie web`` too, on its SQLite file."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.serving import answers, wait_for

from lucie.store import Store

#: the ``serve_site`` fixture (tests/store/conftest.py)
Start = Callable[..., tuple[subprocess.Popen[str], str]]


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The site's database: a SQLite file, a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "site.sqlite3")
    fresh: Callable[[], str] = request.getfixturevalue("pg_fresh")
    return fresh()


def _ok(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    proc.communicate(timeout=30)


def _game_with_a_move(client: httpx.Client) -> tuple[str, str]:
    """A new game of deal 7 with one move made; its page id and the move."""
    game = _ok(client.post("/api/games", json={"deal": 7}))
    move = game["legal_moves"][0]
    _ok(client.post(f"/api/games/{game['id']}/move", json={"move": move}))
    return game["id"], move


def _statuses(db: str) -> list[str]:
    """Every stored game's status, oldest first."""
    with Store(db) as store:
        return [record.status for record in reversed(store.history())]


# -- a Restart after the game's end -------------------------------------------


def test_a_restart_after_the_end_is_the_page_s_game_everywhere(
        serve_site: Start, db: str) -> None:
    one, url1 = serve_site(db)
    two, url2 = serve_site(db)
    with httpx.Client(base_url=url1, timeout=30) as a:
        gid, move = _game_with_a_move(a)
        with httpx.Client(base_url=url2, timeout=30, cookies=a.cookies) as b:
            assert _ok(b.get(f"/api/games/{gid}"))["moves"] == [move]  # its copy
            _ok(a.post(f"/api/games/{gid}/resign", json={}))
            assert _ok(b.get(f"/api/games/{gid}"))["status"] == "resigned"
            again = _ok(a.post(f"/api/games/{gid}/restart", json={}))
            assert again["moves"] == [] and again["status"] == "playing"
            # the other process's copy holds the finished game: a move (taken
            # on the copy unchecked) is played on the new game, read first
            played = _ok(b.post(f"/api/games/{gid}/move", json={"move": move}))
            assert played["moves"] == [move] and played["status"] == "playing"
            assert _ok(a.get(f"/api/games/{gid}"))["moves"] == [move]
            seen = _ok(b.get(f"/api/games/{gid}"))
            assert seen["moves"] == [move] and seen["status"] == "playing", seen
        cookies = a.cookies
    with Store(db) as store:
        stored = store.token_game(gid)
        assert stored is not None and store.record(stored).status == "playing"
    assert _statuses(db) == ["resigned", "playing"]
    # every process restarted: the page's game is still the new one
    _stop(one)
    _stop(two)
    _three, url3 = serve_site(db)
    with httpx.Client(base_url=url3, timeout=30, cookies=cookies) as c:
        seen = _ok(c.get(f"/api/games/{gid}"))
        assert seen["moves"] == [move] and seen["status"] == "playing", seen


def test_a_restart_raced_by_another_process_makes_one_new_game(
        serve_site: Start, db: str) -> None:
    """Two processes each holding the finished game restart it: the first
    one's new game is the page's; the second reads it (the token names it)
    and restarts that one, no third game made of the finished one."""
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    with httpx.Client(base_url=url1, timeout=30) as a:
        gid, _move = _game_with_a_move(a)
        with httpx.Client(base_url=url2, timeout=30, cookies=a.cookies) as b:
            _ok(a.post(f"/api/games/{gid}/resign", json={}))
            assert _ok(b.get(f"/api/games/{gid}"))["status"] == "resigned"
            _ok(a.post(f"/api/games/{gid}/restart", json={}))
            # b's copy was checked before a's restart reached the store: the
            # version it sends is the finished game's
            late = b.post(f"/api/games/{gid}/restart", json={})
            assert late.status_code == 200, late.text  # it reads the new game first
            assert late.json()["moves"] == [] and late.json()["status"] == "playing"
    assert _statuses(db) == ["resigned", "playing"]


def test_a_restart_on_lucie_web_outlives_the_server(tmp_path: Path) -> None:
    """The local server (``lucie web``): the game restarted after its end
    is the page's after the server restarts."""
    where = tmp_path / "web.sqlite3"
    with _web(where) as url, httpx.Client(base_url=url, timeout=30) as a:
        gid, move = _game_with_a_move(a)
        _ok(a.post(f"/api/games/{gid}/resign", json={}))
        assert _ok(a.post(f"/api/games/{gid}/restart", json={}))["moves"] == []
        _ok(a.post(f"/api/games/{gid}/move", json={"move": move}))
    with _web(where) as url, httpx.Client(base_url=url, timeout=30) as a:
        seen = _ok(a.get(f"/api/games/{gid}"))
        assert seen["moves"] == [move] and seen["status"] == "playing", seen
    assert _statuses(str(where)) == ["resigned", "playing"]


class _web:  # noqa: N801 - used as a context manager, like a function
    """``lucie web`` on ``where`` in a subprocess while the block runs; its URL."""

    def __init__(self, where: Path) -> None:
        self.where = where
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> str:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lucie", "web", "--no-browser", "--port", "0",
             "--db", str(self.where)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "http://" in line, line
        url = "http://" + line.split("http://", 1)[1].split()[0].split("/")[0]
        wait_for("lucie web to answer", lambda: answers(url), 60)
        return url

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None
        _stop(self.proc)


# -- a new game that leaves the old one ---------------------------------------


def test_a_new_game_leaves_the_old_one_as_the_store_has_it(
        serve_site: Start, db: str) -> None:
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    with httpx.Client(base_url=url1, timeout=30) as a:
        gid, move = _game_with_a_move(a)
        with httpx.Client(base_url=url2, timeout=30, cookies=a.cookies) as b:
            seen = _ok(b.get(f"/api/games/{gid}"))  # b's copy: one move
            second = seen["legal_moves"][0]
            _ok(a.post(f"/api/games/{gid}/move", json={"move": second}))  # b's is behind
            new = _ok(b.post("/api/games", json={"abandon": gid}))
            assert new["moves"] == []
            left = _ok(a.get(f"/api/games/{gid}"))
            assert left["status"] == "resigned" and left["moves"] == [move, second]
            assert _statuses(db) == ["resigned", "playing"]
            # a game this process never read is left too (from the store)
            other, _move = _game_with_a_move(a)
            _ok(b.post("/api/games", json={"abandon": other}))
            assert _ok(a.get(f"/api/games/{other}"))["status"] == "resigned"
    assert _statuses(db) == ["resigned", "playing", "resigned", "playing"]


def test_a_new_game_that_cannot_leave_the_old_one_is_not_made(tmp_path: Path) -> None:
    """Two ``lucie web`` on one file: the game in play in the first cannot
    be left through the second (another program plays it): the new game
    is refused and not left in the history as a game being played."""
    where = tmp_path / "web.sqlite3"
    with _web(where) as url1, httpx.Client(base_url=url1, timeout=30) as a:
        gid, _move = _game_with_a_move(a)
        with _web(where) as url2, httpx.Client(base_url=url2, timeout=30) as b:
            refused = b.post("/api/games", json={"abandon": gid})
            assert refused.status_code == 409, refused.text
            assert _statuses(str(where)) == ["playing"]
        assert _ok(a.get(f"/api/games/{gid}"))["status"] == "playing"


# -- another player's game ----------------------------------------------------


def test_nobody_leaves_another_player_s_game(serve_site: Start, db: str) -> None:
    """Player B names player A's page id as the game to leave, through the
    process that holds A's game and through the other one: A's game is
    untouched, and B's answer is that of an unknown id (a new game)."""
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    with httpx.Client(base_url=url1, timeout=30) as a:
        gid, move = _game_with_a_move(a)
        for url in (url1, url2):
            with httpx.Client(base_url=url, timeout=30) as b:
                unknown = b.post("/api/games", json={"abandon": "x" * len(gid)})
                named = b.post("/api/games", json={"abandon": gid})
                assert unknown.status_code == named.status_code == 200, named.text
                assert sorted(unknown.json()) == sorted(named.json())
                assert b.get(f"/api/games/{gid}").status_code == 404
            seen = _ok(a.get(f"/api/games/{gid}"))
            assert seen["status"] == "playing" and seen["moves"] == [move]
    with Store(db) as store:
        stored = store.token_game(gid)
        assert stored is not None and store.record(stored).status == "playing"
