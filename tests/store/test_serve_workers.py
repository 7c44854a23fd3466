"""``lucie serve --workers 2`` under load, one worker killed with
``kill -9``: every move answered 200 is in the store afterwards, the other
worker goes on serving, and the killed one is started again (uvicorn's
supervisor does it: :class:`uvicorn.supervisors.Multiprocess` replaces a
worker that died).  On SQLite and on PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from tests.serving import healthy, wait_for

from lucie.store import Store

Start = Callable[..., tuple[subprocess.Popen[str], str]]


def workers(parent: int) -> set[int]:
    """The worker processes of ``lucie serve`` ``parent`` (its children
    started by multiprocessing's ``spawn``)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == parent and b"spawn_main" in cmdline:
            found.add(int(entry.name))
    return found


@dataclass
class Player:
    """One player making moves as fast as the site answers, keeping the
    moves of each game as the last answer 200 gave them."""

    url: str
    acknowledged: dict[str, list[str]] = field(default_factory=dict)
    answered: int = 0
    failed: int = 0
    problems: list[str] = field(default_factory=list)
    cookies: httpx.Cookies = field(default_factory=httpx.Cookies)

    def play(self, stop: threading.Event) -> None:
        client = httpx.Client(base_url=self.url, timeout=30, cookies=self.cookies)
        game: dict[str, object] | None = None
        try:
            while not stop.is_set():
                try:
                    game = self._step(client, game)
                except (httpx.TransportError, ValueError):
                    self.failed += 1  # the worker died under it: read the game again
                    client.close()
                    self.cookies = client.cookies
                    client = httpx.Client(base_url=self.url, timeout=30, cookies=self.cookies)
                    game = None
        finally:
            self.cookies = client.cookies
            client.close()

    def _step(self, client: httpx.Client,
              game: dict[str, object] | None) -> dict[str, object] | None:
        if game is None:
            if not self.acknowledged:
                return self._answer(client.post("/api/games", json={}))
            gid = list(self.acknowledged)[-1]
            return self._answer(client.get(f"/api/games/{gid}"))
        legal = [m for m in game["legal_moves"] if m != "redeal"]  # type: ignore[attr-defined]
        if not legal or len(game["moves"]) >= 30:  # type: ignore[arg-type]
            return self._answer(client.post("/api/games", json={}))
        answer = client.post(f"/api/games/{game['id']}/move", json={"move": legal[0]})
        return self._answer(answer)

    def _answer(self, answer: httpx.Response) -> dict[str, object] | None:
        if answer.status_code != 200:
            self.problems.append(f"{answer.status_code} {answer.text[:200]}")
            return None
        data: dict[str, object] = answer.json()
        gid, moves = str(data["id"]), list(data["moves"])  # type: ignore[call-overload]
        before = self.acknowledged.get(gid, [])
        if moves[:len(before)] != before:
            self.problems.append(f"game {gid}: {before} acknowledged, now {moves}")
        self.acknowledged[gid] = moves
        self.answered += 1
        return data


def _kill_one_worker_under_load(serve_site: Start, db: str) -> None:
    proc, url = serve_site(db, "--workers", "2")
    wait_for("two workers", lambda: len(workers(proc.pid)) == 2 and healthy(url))
    before = workers(proc.pid)
    players = [Player(url) for _n in range(4)]
    stop = threading.Event()
    threads = [threading.Thread(target=p.play, args=(stop,)) for p in players]
    for t in threads:
        t.start()
    try:
        wait_for("moves", lambda: all(p.answered >= 5 for p in players))
        victim = min(before)
        os.kill(victim, signal.SIGKILL)
        at_kill = [p.answered for p in players]
        # the other worker goes on serving, whether or not the new one is up
        wait_for("moves after the kill",
                 lambda: all(p.answered >= n + 10 for p, n in zip(players, at_kill, strict=True)))
        wait_for("the killed worker started again",
                 lambda: len(workers(proc.pid) - before) == 1
                 and len(workers(proc.pid)) == 2)
        at_restart = [p.answered for p in players]
        wait_for("moves after the restart", lambda: all(
            p.answered >= n + 10 for p, n in zip(players, at_restart, strict=True)))
    finally:
        stop.set()
        for t in threads:
            t.join(60)
    assert victim not in workers(proc.pid) and proc.poll() is None
    _check_every_move_kept(players, url, db)


def _check_every_move_kept(players: list[Player], url: str, db: str) -> None:
    """Each game read back through the site and from the store holds every
    move answered 200 (and at most the one move sent when its worker died)."""
    store = Store(db)
    try:
        for p in players:
            assert p.problems == [], p.problems
            client = httpx.Client(base_url=url, timeout=30, cookies=p.cookies)
            for gid, moves in p.acknowledged.items():
                seen = client.get(f"/api/games/{gid}").json()
                assert seen["moves"][:len(moves)] == moves
                assert len(seen["moves"]) - len(moves) <= 1
                stored = store.token_game(gid)
                assert stored is not None
                assert [str(m) for m in store.game(stored).moves] == seen["moves"]
            client.close()
    finally:
        store.close()


def test_kill_9_of_a_worker_on_sqlite(serve_site: Start, tmp_path: Path) -> None:
    _kill_one_worker_under_load(serve_site, str(tmp_path / "site.sqlite3"))


def test_kill_9_of_a_worker_on_postgresql(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _kill_one_worker_under_load(serve_site, pg_fresh())


def _a_loaded_game_is_served_by_any_server(serve_site: Start, db: str) -> None:
    """A game loaded from a save file through one server is played through
    the other (two machines on one database); it never counts in the
    player's statistics, and goes when the player deletes their data."""
    _one, url1 = serve_site(db)
    _two, url2 = serve_site(db)
    with httpx.Client(base_url=url1, timeout=30) as a:
        game = a.post("/api/games", json={"deal": 7}).json()
        first = game["legal_moves"][0]
        a.post(f"/api/games/{game['id']}/move", json={"move": first}).raise_for_status()
        saved = a.get(f"/api/games/{game['id']}/save").text
        loaded = a.post("/api/games/load", content=saved,
                        headers={"Content-Type": "application/json"})
        assert loaded.status_code == 200, loaded.text
        gid = loaded.json()["id"]
        assert loaded.json()["moves"] == [first] and loaded.json()["recorded"] is False
        with httpx.Client(base_url=url2, timeout=30, cookies=a.cookies) as b, \
                httpx.Client(base_url=url2, timeout=30) as stranger:
            seen = b.get(f"/api/games/{gid}")
            assert seen.status_code == 200, seen.text
            assert seen.json()["moves"] == [first] and seen.json()["recorded"] is False
            assert stranger.get(f"/api/games/{gid}").status_code == 404
            second = seen.json()["legal_moves"][0]
            moved = b.post(f"/api/games/{gid}/move", json={"move": second})
            assert moved.status_code == 200, moved.text
        assert a.get(f"/api/games/{gid}").json()["moves"] == [first, second]
        assert a.post(f"/api/games/{gid}/resign", json={}).status_code == 200
        assert a.get("/api/stats").json()["games"] == 0  # a finished loaded game
        history = a.get("/api/history").json()
        assert len(history["games"] if isinstance(history, dict) else history) == 1
        assert a.post("/api/me/delete", json={}).status_code == 200
    with Store(db) as store:
        assert store.token_game(gid) is None


def test_a_loaded_game_on_two_servers_on_sqlite(serve_site: Start, tmp_path: Path) -> None:
    _a_loaded_game_is_served_by_any_server(serve_site, str(tmp_path / "site.sqlite3"))


def test_a_loaded_game_on_two_servers_on_postgresql(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _a_loaded_game_is_served_by_any_server(serve_site, pg_fresh())
