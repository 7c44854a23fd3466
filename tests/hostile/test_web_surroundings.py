"""Hostile surroundings of ``lucie web``: other host names (DNS
rebinding) on every loopback address, other sites' GETs that would make the
solver think, a client flooding the solver, long saved games loaded again
and again (the server's RSS measured), a client that drops during a POST.

Each runs against a real server: ``lucie web`` in a process of its own
where its command line, its log or its memory is what is checked, uvicorn
in a thread otherwise.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lucie.engine import Game
from lucie.formats import game_to_json
from lucie.rules import Rules
from lucie.web.app import create_app, stop_app
from lucie.web.hosts import served_names
from lucie.web.routes import LOADED_MOVES_KEPT, MAX_LOADED_MOVES


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
    except OSError:
        return False
    return True


def _has_127_0_0_2() -> bool:
    try:
        with socket.socket() as sock:
            sock.bind(("127.0.0.2", 0))
    except OSError:  # not Linux: only 127.0.0.1 is configured
        return False
    return True


@contextlib.contextmanager
def lucie_web(db: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[str], str, int]]:
    """``lucie web`` in a process of its own, and the address and port it
    serves once it answers; stopped with SIGINT (killed if need be) at the end."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "lucie", "web", "--no-browser", "--db", str(db), *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "http://" in line, line + (proc.stderr.read() if proc.stderr else "")
        address = line.split("http://", 1)[1].split("/")[0]
        host, port = address.rsplit(":", 1)
        yield proc, host.strip("[]"), int(port)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def request(address: str, port: int, method: str, path: str, *, host: str | None = None,
            body: Any = None, headers: dict[str, str] | None = None,
            timeout: float = 60) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request with the ``Host`` header given (default: the address's)."""
    conn = http.client.HTTPConnection(address, port, timeout=timeout)
    try:
        sent = {"Host": host if host is not None else
                (f"[{address}]:{port}" if ":" in address else f"{address}:{port}"),
                **(headers or {})}
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=sent)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def outcome_of(status: int, body: bytes) -> str:
    if status >= 500:
        return "server_error"
    if b"Traceback" in body:
        return "traceback"
    return "clean_error" if status >= 400 else "ok"


# -- other hosts: DNS rebinding --------------------------------------------------

LOOPBACKS = [
    pytest.param("127.0.0.1", id="127.0.0.1"),
    pytest.param("127.0.0.2", id="127.0.0.2", marks=pytest.mark.skipif(
        not _has_127_0_0_2(), reason="127.0.0.2 is not a loopback address here")),
    pytest.param("LOCALHOST", id="LOCALHOST"),
    pytest.param("::1", id="::1", marks=pytest.mark.skipif(
        not _has_ipv6_loopback(), reason="this machine has no IPv6 loopback")),
]


def _own_names(given: str, address: str, port: int) -> list[str]:
    """The Host headers a browser on this server's own address sends."""
    shown = f"[{address}]" if ":" in address else address
    names = [shown, f"{shown}:{port}", shown.upper()]
    if address in ("127.0.0.1", "::1"):
        names += ["localhost", f"localhost:{port}", f"LocalHost:{port}"]
    if address == "::1":
        names += [f"[0:0:0:0:0:0:0:1]:{port}"]
    if given.lower() == "localhost":
        names += [f"{given}:{port}"]
    return names


def _foreign_names(address: str, port: int) -> list[str]:
    """Host headers of another site, or of another loopback address."""
    names = ["evil.example", f"evil.example:{port}", f"EVIL.example:{port}",
             f"localhost.evil.example:{port}", f"127.0.0.1.evil.example:{port}",
             "", ":", f":{port}", "[::1", f"[::1]x:{port}", f"evil.example:{port}x",
             "localhost.", f"127.0.0.3:{port}", f"[::2]:{port}", "x" * 3000]
    if address != "127.0.0.1":
        names += [f"127.0.0.1:{port}"]
    if address not in ("127.0.0.1", "::1"):
        names += [f"localhost:{port}"]
    if address != "::1":
        names += [f"[::1]:{port}"]
    return names


@pytest.mark.parametrize("given", LOOPBACKS)
def test_dns_rebinding_on_every_loopback_host(tmp_path: Path, hostile: Any, given: str) -> None:
    """A page whose name points to this server's loopback address cannot
    create, play or resign a game, nor read the history: only the names of
    the address served are answered, and no warning is printed."""
    db = tmp_path / "web.sqlite3"
    with lucie_web(db, "--host", given) as (proc, shown, port):
        # the address served (``lucie web`` binds the first address of the name)
        address = socket.getaddrinfo(shown, port, type=socket.SOCK_STREAM)[0][4][0]
        for name in _own_names(given, address, port):
            status, _, body = request(address, port, "GET", "/api/variants", host=name)
            hostile.record("hosts", f"{given} own Host {name}", outcome_of(status, body))
            assert status == 200, (name, body[:200])
        status, _, body = request(address, port, "POST", "/api/games", body={"deal": 1})
        assert status == 200, body
        gid = json.loads(body)["id"]
        for name in _foreign_names(address, port):
            for method, path, sent in (("POST", "/api/games", {"deal": 2}),
                                       ("POST", f"/api/games/{gid}/move", {"move": "f>i"}),
                                       ("POST", f"/api/games/{gid}/resign", {}),
                                       ("GET", "/api/history", None),
                                       ("GET", f"/api/games/{gid}", None),
                                       ("GET", "/", None)):
                status, _, body = request(address, port, method, path, host=name, body=sent)
                outcome = outcome_of(status, body)
                hostile.record("hosts", f"{given} {method} {path[-8:]} Host {name[:30]}",
                               outcome)
                assert (outcome, status) == ("clean_error", 400), (name, path, status, body)
                assert len(body) < 500 and b"refused" in body
        status, _, body = request(address, port, "GET", "/api/history")
        games = json.loads(body)["games"]
        assert [(g["deal"], g["moves"], g["status"]) for g in games] == [("1", 0, "playing")]
        proc.send_signal(signal.SIGINT)
        proc.wait(15)
        err = proc.stderr.read() if proc.stderr else ""
        assert "warning" not in err and "Traceback" not in err, err


def test_any_other_bind_answers_any_host() -> None:
    """What ``lucie web`` decides for a bind that is not loopback (binding
    one here would reach the network): no Host check (``lucie web`` warns
    then)."""
    assert served_names("0.0.0.0", "0.0.0.0") is None
    assert served_names("::", "::") is None
    assert served_names("192.168.1.5", "192.168.1.5") is None
    names = served_names("::ffff:127.0.0.1", "::ffff:127.0.0.1")
    assert names is not None and names.accepts("127.0.0.1:80")
    assert not names.accepts("evil.example")


@pytest.mark.parametrize(("bound", "host", "accepted"), [
    ("::1", "[0:0:0:0:0:0:0:1]:80", True),
    ("::1", "[::1]", True),
    ("::1", "[::0:1]:8000", True),
    ("::1", "::1", False),  # an IPv6 address is written in brackets
    ("::1", "[::1]:", False),
    ("::1", "[127.0.0.1]", False),
    ("127.0.0.1", "127.0.0.1:", False),
    ("127.0.0.1", "127.0.0.1:+80", False),
    ("127.0.0.1", "127.0.0.1:٨٠", False),
    ("127.0.0.1", "[::ffff:127.0.0.1]", False),
    ("127.0.0.1", "localhost.", False),
    ("127.0.0.1", "LOCALHOST:1", True),
    ("127.0.0.2", "127.0.0.2:80", True),
    ("127.0.0.2", "localhost:80", False),
])
def test_host_spellings(hostile: Any, bound: str, host: str, accepted: bool) -> None:
    names = served_names(bound, bound)
    assert names is not None
    answer = names.accepts(host)
    hostile.record("hosts", f"{bound} spelling {host}", "ok" if answer else "clean_error")
    assert answer is accepted


# -- other sites' GETs -----------------------------------------------------------

THINKING = ("hint?seconds=0.05", "odds?seconds=0.1&samples=1", "review?seconds=1",
            "difficulty?seconds=1")

CROSS_SITE = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "CROSS-SITE", "Origin": "http://testserver"},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "http://testserver.evil.example"},
    {"Origin": "https://evil.example", "Sec-Fetch-Site": "same-origin"},
]


def test_other_sites_gets_start_no_solver_work(tmp_path: Path, hostile: Any) -> None:
    """Another site's GETs of the routes that make the solver think (a
    game's hint, odds, review, difficulty; a stored game's review) are
    refused before any worker starts; the page's own GETs are answered."""
    app = create_app(tmp_path / "web.sqlite3")
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            state = client.post("/api/games", json={"variant": "trefoil", "deal": 1}).json()
            gid = state["id"]
            client.post(f"/api/games/{gid}/move", json={"move": state["legal_moves"][0]})
            client.post(f"/api/games/{gid}/resign", json={})
            [stored] = client.get("/api/history").json()["games"]
            paths = [*(f"/api/games/{gid}/{tail}" for tail in THINKING),
                     f"/api/history/{stored['id']}/review?seconds=1",
                     *(f"/api/history/{n}/review" for n in range(1, 4))]
            for headers in CROSS_SITE:
                for path in paths:
                    r = client.get(path, headers=headers)
                    outcome = outcome_of(r.status_code, r.content)
                    hostile.record("crosssite", f"{sorted(headers.items())} {path[-24:]}",
                                   outcome)
                    assert r.status_code == 403, (headers, path, r.text)
                    assert "another" in r.json()["error"]
            assert app.state.solver.started == 0  # not one worker was started
            for headers in ({"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
                            {"Sec-Fetch-Site": "none"}, {}):
                r = client.get(f"/api/games/{gid}/hint?seconds=0.05", headers=headers)
                hostile.record("crosssite", f"own page {headers}",
                               outcome_of(r.status_code, r.content))
                assert r.status_code == 200, r.text
                assert "wait_seconds" in r.json()
    finally:
        stop_app(app)


# -- a client flooding the solver ------------------------------------------------


class ThreadServer:
    """uvicorn serving an app in a thread on a free port of 127.0.0.1."""

    def __init__(self, db: Path) -> None:
        self.app = create_app(db)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port: int = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning",
                                                    lifespan="off",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive()
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
        stop_app(self.app)


def _wait_until(check: Any, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def test_a_flood_of_solver_work_leaves_another_client_its_share(
        tmp_path: Path, hostile: Any) -> None:
    """A client (a program: no page cookie) asks for long odds on eight games
    at once: four are taken (two run, two wait), the rest get 429 with
    ``Retry-After``; the page's hint is still answered at once, within its
    own budget (the pool stops one of the flood's searches to make room)."""
    with ThreadServer(tmp_path / "web.sqlite3") as server:
        pool = server.app.state.solver
        address, port = "127.0.0.1", server.port
        games = [json.loads(request(address, port, "POST", "/api/games",
                                    body={"variant": "shamrocks", "deal": 9})[2])["id"]
                 for _ in range(8)]
        answers: list[tuple[int, dict[str, str], bytes]] = []

        def flood(gid: str) -> None:
            with contextlib.suppress(OSError, http.client.HTTPException):  # the server's end
                answers.append(request(address, port, "GET",
                                       f"/api/games/{gid}/odds?samples=100000&seconds=30"))

        threads = [threading.Thread(target=flood, args=(gid,), daemon=True) for gid in games]
        for thread in threads:
            thread.start()
        _wait_until(lambda: pool.running == 2 and len(answers) == 4)
        for status, headers, body in answers:
            hostile.record("fairness", "flood beyond its share", outcome_of(status, body))
            assert status == 429 and int(headers["retry-after"]) >= 1, body
            assert b"waiting or running" in body
        # the page: its cookie makes it a client of its own
        status, headers, _ = request(address, port, "GET", "/")
        cookie = headers["set-cookie"].split(";")[0]
        assert cookie.startswith("lucie_client=") and "httponly" in headers["set-cookie"].lower()
        mine = json.loads(request(address, port, "POST", "/api/games",
                                  body={"deal": 1}, headers={"Cookie": cookie})[2])["id"]
        status, _, body = request(address, port, "GET", f"/api/games/{mine}/hint?seconds=2",
                                  headers={"Cookie": cookie})
        hostile.record("fairness", "the page's hint during a flood", outcome_of(status, body))
        assert status == 200, body
        hint = json.loads(body)
        assert hint["wait_seconds"] < 2 and hint["move"] is not None, hint
        assert pool.preempted == 1
        _wait_until(lambda: len(answers) == 5)  # the stopped search says why
        status, headers, body = answers[4]
        hostile.record("fairness", "a flood's search stopped", outcome_of(status, body))
        assert status == 429 and "retry-after" in headers and b"your share" in body
        for thread in threads:  # the rest of the flood is cut short by the server's end
            thread.join(0)


# -- long saved games, loaded again and again -------------------------------------


def _shuttle(moves: int) -> dict[str, Any]:
    """A legal saved Shamrocks game of ``moves`` moves: one move and its
    reverse, again and again (the final position is the deal's start)."""
    game = Game(Rules.parse("shamrocks"), 2)
    for move in list(game.legal_moves):
        if move.is_redeal:
            continue
        after = game.position.apply(move)
        back = [m for m in after.legal_moves() if not m.is_redeal
                and after.apply(m) == game.position]
        if back:
            game.push(move)
            game.push(back[0])
            data = game_to_json(game)
            data["moves"] = data["moves"] * (moves // 2)
            return data
    raise AssertionError("no reversible move in deal 2")  # pragma: no cover


def _rss_kb(pid: int, field: str) -> int:
    """``VmRSS`` (now) or ``VmHWM`` (peak) of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} in /proc/{pid}/status")  # pragma: no cover


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_repeated_loads_of_long_games_keep_memory_bounded(tmp_path: Path, hostile: Any) -> None:
    """100 loads of a legal 36,000-move game (216 KB) are refused with a
    clear 422 before any replay; loads of games of the longest length
    accepted keep at most LOADED_MOVES_KEPT moves in memory (the oldest
    dropped); the server's peak RSS stays bounded (measured, reported)."""
    long_text = json.dumps(_shuttle(36_000), separators=(",", ":")).encode()
    assert 200_000 < len(long_text) < 256 * 1024
    longest = _shuttle(MAX_LOADED_MOVES)
    with lucie_web(tmp_path / "web.sqlite3") as (proc, address, port):
        status, _, body = request(address, port, "POST", "/api/games/load", body=_shuttle(2))
        assert status == 200, body
        start = _rss_kb(proc.pid, "VmRSS")
        for i in range(100):
            status, _, body = request(address, port, "POST", "/api/games/load", body=long_text)
            hostile.record("memory", f"load 36,000 moves #{i}", outcome_of(status, body))
            assert status == 422 and b"36000 moves, more than the 2000" in body, body[:300]
        loaded = []
        count = LOADED_MOVES_KEPT // MAX_LOADED_MOVES + 5
        for i in range(count):
            status, _, body = request(address, port, "POST", "/api/games/load", body=longest)
            hostile.record("memory", f"load {MAX_LOADED_MOVES} moves #{i}",
                           outcome_of(status, body))
            assert status == 200, body[:300]
            loaded.append(json.loads(body)["id"])
        peak = _rss_kb(proc.pid, "VmHWM")
        # the oldest loaded games were dropped, the newest are kept
        assert request(address, port, "GET", f"/api/games/{loaded[0]}")[0] == 404
        assert request(address, port, "GET", f"/api/games/{loaded[-1]}")[0] == 200
    grown = (peak - start) / 1024
    hostile.figure("lucie web peak RSS, 100 loads of 36,000 moves and "
                   f"{count} of {MAX_LOADED_MOVES}", round(peak / 1024, 1), "MB")
    hostile.figure("lucie web RSS growth over those loads", round(grown, 1), "MB")
    # LOADED_MOVES_KEPT moves at about 550 bytes each, and the parser's work
    assert grown < 80, (start, peak)


# -- a client that drops during a POST body ---------------------------------------


def test_a_client_dropping_during_a_post_body_leaves_no_traceback(
        tmp_path: Path, hostile: Any) -> None:
    with lucie_web(tmp_path / "web.sqlite3") as (proc, address, port):
        for path in ("/api/games", "/api/games/load", "/api/games/nope-nope-nope/move"):
            with socket.create_connection((address, port), timeout=10) as sock:
                sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {address}:{port}\r\n"
                             "Content-Type: application/json\r\nContent-Length: 100000\r\n"
                             "\r\n{\"deal\": ".encode())
                time.sleep(0.2)  # the server is reading the body
            time.sleep(0.2)
            assert request(address, port, "GET", "/api/variants")[0] == 200
        proc.send_signal(signal.SIGINT)
        proc.wait(15)
        err = proc.stderr.read() if proc.stderr else ""
    outcome = "traceback" if "Traceback" in err or "ClientDisconnect" in err else "clean_error"
    hostile.record("http", "client gone during a POST body", outcome)
    assert outcome == "clean_error", err
