"""``lucie serve`` for real: processes in subprocesses on one database, a
move made through one seen through the other."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

#: the ``serve_site`` fixture (tests/store/conftest.py)
Start = Callable[..., tuple[subprocess.Popen[str], str]]


def _two_processes_share_games(serve: Start, db: str) -> None:
    one, url1 = serve(db, output=True)
    _two, url2 = serve(db)
    with httpx.Client(base_url=url1, timeout=20) as a:
        assert a.get("/healthz").json() == {"ok": True}
        me = a.get("/api/me").json()
        cookie = a.cookies["lucie_player"]
        game = a.post("/api/games", json={"deal": 7}).json()
        gid, move = game["id"], game["legal_moves"][0]
        assert a.post(f"/api/games/{gid}/move", json={"move": move}).status_code == 200
        with httpx.Client(base_url=url2, timeout=20,
                          cookies={"lucie_player": cookie}) as b, \
                httpx.Client(base_url=url2, timeout=20) as stranger:
            assert b.get("/api/me").json()["id"] == me["id"]
            seen = b.get(f"/api/games/{gid}").json()
            assert seen["moves"] == [move]
            assert stranger.get(f"/api/games/{gid}").status_code == 404
            second = seen["legal_moves"][0]
            after = b.post(f"/api/games/{gid}/move", json={"move": second}).json()
        # the first process had the game in memory: a move through it is
        # played on the game as the store has it (its copy, one move behind,
        # is read again: the move may not even be legal there)
        third = after["legal_moves"][-1]
        played = a.post(f"/api/games/{gid}/move", json={"move": third, "version": after["version"]})
        assert played.status_code == 200, played.text
        assert played.json()["moves"][:3] == [move, second, third]
        assert a.get(f"/api/games/{gid}").json()["moves"] == played.json()["moves"]
        # now the second process's copy is a move behind: a move sent without
        # a version, legal on that copy too, is played on the stored game
        # (the write on the copy's version is refused, the game read again)
        fourth = next(m for m in played.json()["legal_moves"] if m in after["legal_moves"])
        with httpx.Client(base_url=url2, timeout=20, cookies={"lucie_player": cookie}) as b:
            behind = b.post(f"/api/games/{gid}/move", json={"move": fourth})
        assert behind.status_code == 200, behind.text
        assert behind.json()["moves"][:4] == [move, second, third, fourth]
        assert a.get(f"/api/games/{gid}").json()["moves"] == behind.json()["moves"]
        # a page one move behind is told so (409 stale), through either process
        stale = a.post(f"/api/games/{gid}/move", json={"move": third, "version": after["version"]})
        assert stale.status_code == 409 and stale.json()["stale"] is True
        assert a.post(f"/api/games/{gid}/undo", json={}).json()["moves"][:3] == [
            move, second, third]
    # the access log: one JSON line per request
    one.terminate()
    out, _err = one.communicate(timeout=15)
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert any(x["path"] == f"/api/games/{gid}/move" and x["status"] == 200 for x in lines)


def test_two_processes_on_one_sqlite_file(serve_site: Start, tmp_path: Path) -> None:
    _two_processes_share_games(serve_site, str(tmp_path / "site.sqlite3"))


def test_two_processes_on_one_postgresql_database(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _two_processes_share_games(serve_site, pg_fresh())


def test_a_bad_rate_is_refused(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "lucie", "serve", "--db",
                        str(tmp_path / "x.sqlite3"), "--player-limit", "often"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--player-limit often" in r.stderr


def test_workers_serve_any_player(serve_site: Start, tmp_path: Path) -> None:
    """``--workers 2``: two processes on one socket; whichever answers, a
    player's game is as they last left it."""
    _proc, url = serve_site(str(tmp_path / "site.sqlite3"), "--workers", "2")
    with httpx.Client(base_url=url, timeout=30) as a:
        game = a.post("/api/games", json={"deal": 11}).json()
        gid, played = game["id"], []
        for _move in range(8):
            legal = a.get(f"/api/games/{gid}").json()["legal_moves"]
            ordinary = [m for m in legal if m != "redeal"]
            if not ordinary:
                break
            r = a.post(f"/api/games/{gid}/move", json={"move": ordinary[0]})
            assert r.status_code == 200, r.text
            played.append(ordinary[0])
            assert r.json()["moves"] == played
        assert played
        for _read in range(6):
            assert a.get(f"/api/games/{gid}").json()["moves"] == played


def test_a_shared_game_is_changed_only_on_the_version_it_was_read_at(
        tmp_path: Path) -> None:
    """Two processes' copies of one game: the second to change it is
    refused (nothing written) and reads it again."""
    from lucie.engine import Game
    from lucie.rules import Rules
    from lucie.session import NotSavedError, Session, StaleGame, Store

    one, two = Store(tmp_path / "s.sqlite3"), Store(tmp_path / "s.sqlite3")
    try:
        player = one.new_player("")
        first = Session.new(one, player, game=Game(Rules(), 5), shared=True)
        assert first.game_id is not None and not one.is_claimed(first.game_id)
        second = Session.stored(two, first.game_id, player, shared=True)
        legal = [m for m in first.game.position.legal_moves() if not m.is_redeal]
        first.play(legal[0])
        with pytest.raises(NotSavedError) as refused:
            second.play(legal[-1])
        assert isinstance(refused.value.error, StaleGame)
        assert not second.game.moves  # as it was: nothing changed
        again = Session.stored(two, first.game_id, player, shared=True)
        assert list(again.game.moves) == [legal[0]]
        again.play(again.game.position.legal_moves()[0])
        assert one.version(first.game_id) == again.version == 3
    finally:
        one.close()
        two.close()


def test_a_change_lost_to_another_process_is_answered_409_stale(tmp_path: Path) -> None:
    """The page is told to read the game again (``stale``) when another
    process changed it between this one's check and its write."""
    from lucie.engine import Game
    from lucie.rules import Rules
    from lucie.session import NotSavedError, Session, Store
    from lucie.web.errors import from_lucie

    one, two = Store(tmp_path / "s.sqlite3"), Store(tmp_path / "s.sqlite3")
    try:
        player = one.new_player("")
        first = Session.new(one, player, game=Game(Rules(), 5), shared=True)
        assert first.game_id is not None
        second = Session.stored(two, first.game_id, player, shared=True)
        legal = [m for m in first.game.position.legal_moves() if not m.is_redeal]
        first.play(legal[0])
        with pytest.raises(NotSavedError) as refused:
            second.play(legal[0])
        answer = from_lucie(refused.value)
        assert (answer.status, answer.extra) == (409, {"stale": True})
    finally:
        one.close()
        two.close()
