"""Hostile HTTP: every endpoint of the browser game, with bad methods,
paths, query strings and bodies of every shape.

Each case asserts: no 5xx, no traceback in the answer, a 4xx answer is JSON
``{"error": ...}`` quoting at most a short excerpt of the input, and a
refused request changed nothing (the store's rows, byte for byte, and the
game in play).  Most cases run in process (Starlette's ``TestClient``);
keep-alive after a 4xx and Ctrl+C during a half-sent request run against a
real uvicorn on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lucie.engine import Game
from lucie.formats import save_game
from lucie.rules import Rules
from lucie.web.app import MAX_BODY, create_app

#: The longest an error message may be: a sentence and a short excerpt.
LONGEST_ERROR = 400

JSON = {"Content-Type": "application/json"}

GAME_POSTS = ("move", "redeal", "merci", "autoplay", "undo", "redo", "restart", "resign")
GAME_GETS = ("", "/save", "/hint", "/odds", "/review", "/difficulty")
#: The GETs that make the solver think.
THINKING = ("/hint", "/odds", "/review", "/difficulty")


# -- what was saved --------------------------------------------------------------


def saved(db: Path) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every row of every table of the store, read without the app."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return [(t, sorted(conn.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr))
                for t in tables]
    finally:
        conn.close()


class Hostile:
    """A client on a fresh store with one game in play, that sends a case,
    classifies and records its outcome, and checks that a refusal changed
    nothing."""

    def __init__(self, db: Path, recorder: Any) -> None:
        self.db = db
        self.recorder = recorder
        self.app = create_app(db)
        self.client = TestClient(self.app, raise_server_exceptions=False)
        r = self.client.post("/api/games", json={"variant": "merci", "deal": 3})
        assert r.status_code == 200
        self.gid: str = r.json()["id"]
        self.client.post(f"/api/games/{self.gid}/move", json={"move": "R"})

    def close(self) -> None:
        self.client.close()
        self.app.state.solver.close()

    def game_state(self) -> Any:
        r = self.client.get(f"/api/games/{self.gid}")
        return {k: r.json()[k] for k in ("moves", "fans", "status", "redeals_left")}

    def send(self, case: str, method: str, path: str, *, expect: str | None = None,
             **kwargs: Any) -> Any:
        """Send one request; assert it is answered cleanly (``expect``:
        ``ok`` or ``clean_error`` when only one is right)."""
        before = (saved(self.db), self.game_state())
        r = self.client.request(method, path, **kwargs)
        text = r.text
        if r.status_code >= 500:
            outcome = "server_error"
        elif "Traceback" in text or 'File "' in text:
            outcome = "traceback"
        elif r.status_code >= 400:
            outcome = "clean_error"
            if method != "HEAD" and path.startswith("/api/"):
                error = r.json()["error"]
                assert isinstance(error, str) and 0 < len(error) <= LONGEST_ERROR, (case, error)
            if (saved(self.db), self.game_state()) != before:
                outcome = "data_lost"
        else:
            outcome = "ok"
        self.recorder.record("http", f"{method} {case}", outcome)
        assert outcome in ("ok", "clean_error"), (case, r.status_code, text[:300])
        if expect is not None:
            assert outcome == expect, (case, r.status_code, text[:300])
        return r


@pytest.fixture
def h(tmp_path: Path, hostile: Any) -> Iterator[Hostile]:
    tool = Hostile(tmp_path / "hostile.sqlite3", hostile)
    yield tool
    tool.close()


# -- methods and paths -----------------------------------------------------------


def test_every_method_on_every_endpoint(h: Hostile) -> None:
    game = f"/api/games/{h.gid}"
    paths = ["/", "/stats", "/static/lucie.js", "/api/variants", "/api/features",
             "/api/games", "/api/games/load", "/api/stats", "/api/history",
             *(game + tail for tail in GAME_GETS if tail not in THINKING),
             *(f"{game}/{action}" for action in GAME_POSTS)]
    for path in paths:
        for method in ("PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW"):
            h.send(f"{path}", method, path, expect="clean_error")
        if path.startswith("/api/") and any(path.endswith(a) for a in GAME_POSTS):
            h.send(path, "GET", path, expect="clean_error")


@pytest.mark.parametrize("gid", [
    "", "x", "a" * 10, "a" * 65, "a" * 5000, "%00", "..%2F..%2Fetc", "é" * 20,
    "%ff%fe" * 8, "'; DROP TABLE games; --", "1e999", "-1", "null",
], ids=lambda gid: repr(gid)[:20])
def test_game_ids_that_do_not_exist(h: Hostile, gid: str) -> None:
    for tail in ("", "/save", "/move"):
        method = "POST" if tail == "/move" else "GET"
        r = h.send(f"id {gid[:30]}{tail}", method, f"/api/games/{gid}{tail}",
                   json={"move": "f>i"} if method == "POST" else None, expect="clean_error")
        assert r.status_code in (404, 405)


def test_paths_outside_the_api(h: Hostile) -> None:
    for path in ("/static/../app.py", "/static/%2e%2e/app.py", "/static/", "/nope",
                 "/static/" + "a" * 3000, "/api", "/api/", "/api/games/",
                 "/static/lucie.js%00", "/%ff"):
        h.send(path, "GET", path, expect="clean_error")


# -- query strings ---------------------------------------------------------------

BAD_NUMBERS = ["", "x", "nan", "NaN", "inf", "-inf", "1e999", "-1", "0", "--5", "%2B5",
               "²", "٣", "1_000", "0x10", " ", "9" * 5000, "1" * 41, "%ff", "5.5.5",
               "1e9", "100001"]


def test_query_strings(h: Hostile) -> None:
    game = f"/api/games/{h.gid}"
    for value in BAD_NUMBERS:
        h.send(f"hint seconds={value[:20]}", "GET", f"{game}/hint?seconds={value}",
               expect="clean_error")
        h.send(f"odds samples={value[:20]}", "GET",
               f"{game}/odds?samples={value}&seconds=0.1", expect="clean_error")
        h.send(f"odds seconds={value[:20]}", "GET", f"{game}/odds?seconds={value}",
               expect="clean_error")
        h.send(f"history limit={value[:20]}", "GET", f"/api/history?limit={value}",
               expect="clean_error")
        h.send(f"review seconds={value[:20]}", "GET", f"{game}/review?seconds={value}",
               expect="clean_error")
        h.send(f"difficulty seconds={value[:20]}", "GET",
               f"{game}/difficulty?seconds={value}", expect="clean_error")
        h.send(f"stored review {value[:20]}", "GET", f"/api/history/{value}/review",
               expect="clean_error")
    for value in ("nope", "classic,cells=99", "classic,cells=²", "x" * 5000, "%ff",
                  "classic,cells=1e9", "trefoil,merci=maybe"):
        h.send(f"stats variant={value[:20]}", "GET", f"/api/stats?variant={value}",
               expect="clean_error")
        h.send(f"history variant={value[:20]}", "GET", f"/api/history?variant={value}",
               expect="clean_error")
    # what the rules accept or not is theirs to say; the server answers cleanly
    h.send("stats variant=classic,,,", "GET", "/api/stats?variant=classic,,,")
    # repeated and odd parameters are not errors of the server
    for query in ("seconds=0.1&seconds=x", "seconds=0.1&other=%ff", "&&&", "="):
        h.send(f"hint ?{query}", "GET", f"{game}/hint?{query}")


# -- bodies ----------------------------------------------------------------------

BAD_BODIES: list[tuple[str, bytes]] = [
    ("not json", b"not json"),
    ("invalid utf-8", b'{"move": "\xff\xfe"}'),
    ("deep arrays", b"[" * 100_000 + b"]" * 100_000),
    ("deep objects", b'{"a":' * 5000 + b"1" + b"}" * 5000),
    ("huge number", b'{"deal": ' + b"9" * 5000 + b"}"),
    ("NaN", b'{"deal": NaN}'),
    ("Infinity", b'{"seconds": Infinity}'),
    ("truncated", b'{"move": "f>i"'),
    ("two documents", b'{} {}'),
    ("a list", b"[1, 2, 3]"),
    ("a string", b'"f>i"'),
    ("null", b"null"),
    ("BOM and junk", b"\xef\xbb\xbf\xef\xbb\xbf{}"),
]

#: Well-formed bodies with odd text: bad for some endpoints, ignored by others.
ODD_BODIES: list[tuple[str, bytes]] = [
    ("lone surrogate", b'{"move": "\\ud800", "card": "\\udfff", "variant": "\\ud800"}'),
    ("nul bytes", b'{"move": "f>i\\u0000", "card": "\\u0000", "fan": "\\u0000"}'),
    ("BOM", b'\xef\xbb\xbf{"autoplay": true}'),
]

WRONG_VALUES: list[Any] = [None, True, 0, -1, 2**63, 2**64, 1.5, 1e308, "", " ", "x" * 5000,
                           "\u00b2", [], {}, ["f>i"], {"move": "f>i"}, "f>i" * 1000]


@pytest.mark.parametrize("action", [*GAME_POSTS, "new", "load"])
def test_bodies_of_every_shape(h: Hostile, action: str) -> None:
    path = {"new": "/api/games", "load": "/api/games/load"}.get(
        action, f"/api/games/{h.gid}/{action}")
    for name, body in BAD_BODIES:
        h.send(f"{action} {name}", "POST", path, content=body, headers=JSON,
               expect="clean_error")
    for name, body in ODD_BODIES:
        h.send(f"{action} {name}", "POST", path, content=body, headers=JSON)
    h.send(f"{action} too large", "POST", path, content=b" " * (MAX_BODY + 1), headers=JSON,
           expect="clean_error")
    fields = {"move": ["move", "autoplay"], "merci": ["card", "fan", "autoplay"],
              "redeal": ["autoplay"], "new": ["variant", "deal", "abandon"],
              "load": ["text", "version", "moves", "deal", "variant"]}.get(action, ["x"])
    for field in fields:
        for value in WRONG_VALUES:
            h.send(f"{action} {field}={json.dumps(value)[:30]}", "POST", path,
                   json={field: value})


def test_cross_site_requests_change_nothing(h: Hostile) -> None:
    """What another page can send (a form, a text/plain post, a JSON post
    from its own origin) is refused before it is read."""
    won = Game(Rules.parse("trefoil"), 1)
    text = save_game(won)
    forged = [
        ({"Content-Type": "text/plain"}, text.encode()),
        ({"Content-Type": "text/plain;charset=UTF-8"}, b'{"move": "f>i"}'),
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"move=f>i"),
        ({"Content-Type": "multipart/form-data; boundary=x"}, b"--x--"),
        ({}, b'{"move": "f>i"}'),
        ({**JSON, "Origin": "http://evil.example"}, b'{"move": "f>i"}'),
        ({**JSON, "Origin": "http://testserver.evil.example"}, b'{"move": "f>i"}'),
        ({**JSON, "Origin": "null"}, b'{"move": "f>i"}'),
        ({**JSON, "Origin": "x" * 3000}, b'{"move": "f>i"}'),
        ({**JSON, "Sec-Fetch-Site": "cross-site"}, b'{"move": "f>i"}'),
        ({**JSON, "Sec-Fetch-Site": "same-site"}, b'{"move": "f>i"}'),
    ]
    paths = ["/api/games", "/api/games/load",
             *(f"/api/games/{h.gid}/{a}" for a in GAME_POSTS)]
    for headers, body in forged:
        for path in paths:
            r = h.send(f"forged {sorted(headers.items())!r:.40} {path[-12:]}", "POST", path,
                       content=body, headers=headers, expect="clean_error")
            assert r.status_code in (403, 415)


def test_saved_games_of_every_shape(h: Hostile) -> None:
    game = Game(Rules.parse("merci"), 3)
    game.push("R")
    good = json.loads(save_game(game))
    variants: list[tuple[str, Any]] = [
        ("version -1", {**good, "version": -1}),
        ("version 999", {**good, "version": 999}),
        ("version text", {**good, "version": "1"}),
        ("deal 2^63", {**good, "deal": 2**63}),
        ("deal 0", {**good, "deal": 0}),
        ("deal text", {**good, "deal": "x"}),
        ("seed huge", {**good, "seed": 2**70}),
        ("moves not a list", {**good, "moves": "R"}),
        ("moves of numbers", {**good, "moves": [1, 2]}),
        ("moves illegal", {**good, "moves": ["a>b"] * 50}),
        ("variant unknown", {**good, "variant": "nope"}),
        ("variant number", {**good, "variant": 5}),
        ("settings wrong", {**good, "settings": "x"}),
        ("final wrong", {**good, "final": 5}),
        ("no moves", {k: v for k, v in good.items() if k != "moves"}),
        ("empty", {}),
    ]
    for name, data in variants:
        h.send(f"load {name}", "POST", "/api/games/load", json=data)
        h.send(f"load text {name}", "POST", "/api/games/load", json={"text": json.dumps(data)})
    # a saved game with a byte-order mark is a saved game
    r = h.send("load with BOM", "POST", "/api/games/load",
               content=b"\xef\xbb\xbf" + save_game(game).encode(), headers=JSON, expect="ok")
    assert r.json()["moves"] == ["R"]


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    action=st.sampled_from([*GAME_POSTS, "new", "load"]),
    body=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=30),
        lambda children: st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["move", "card", "fan", "autoplay", "variant",
                                           "deal", "abandon", "text", "version", "moves",
                                           "difficulty", "daily"])
                          | st.text(max_size=8), children, max_size=5),
        max_leaves=12,
    ),
)
def test_random_json_bodies(h: Hostile, action: str, body: Any) -> None:
    path = {"new": "/api/games", "load": "/api/games/load"}.get(
        action, f"/api/games/{h.gid}/{action}")
    h.send(f"{action} random {json.dumps(body)[:40]}", "POST", path, json=body)


def test_a_refused_new_game_resigns_nothing(h: Hostile) -> None:
    for deal in (2**63, 2**64, -1, 0, "9" * 100, "1e5", "٣"):
        h.send(f"new deal {str(deal)[:20]}", "POST", "/api/games",
               json={"deal": deal, "abandon": h.gid}, expect="clean_error")
    assert h.game_state()["status"] == "playing"


# -- a real server ---------------------------------------------------------------


class LiveServer:
    """uvicorn serving the app in a thread on a free loopback port."""

    def __init__(self, db: Path) -> None:
        self.app = create_app(db)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port: int = self.sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning",
                                                    lifespan="off"))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> LiveServer:
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
        self.app.state.solver.close()


def _exchange(sock: socket.socket, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send one request on an open connection and read its whole answer."""
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in
               (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        body += chunk
    return status, headers, body


def _post(address: str, path: str, body: bytes, kind: str = "application/json") -> bytes:
    """A raw HTTP/1.1 POST of ``body`` to the server at ``address`` (host:port)."""
    return (f"POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: {kind}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def test_a_4xx_keeps_the_connection(tmp_path: Path, hostile: Any) -> None:
    with LiveServer(tmp_path / "live.sqlite3") as server, \
            socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        address = f"127.0.0.1:{server.port}"
        host = f"Host: {address}\r\n"

        def post(path: str, body: bytes, kind: str = "application/json") -> bytes:
            return _post(address, path, body, kind)

        status, _, body = _exchange(sock, post("/api/games", b'{"deal": 1}'))
        assert status == 200
        gid = json.loads(body)["id"]
        cases = [
            ("not json", post("/api/games", b"nope")),
            ("text/plain", post(f"/api/games/{gid}/move", b'{"move":"f>i"}', "text/plain")),
            ("illegal move", post(f"/api/games/{gid}/move", b'{"move":"a>b"}')),
            ("deep", post("/api/games", b"[" * 5000 + b"]" * 5000)),
            ("bad utf-8", post("/api/games", b'{"variant":"\xff"}')),
            ("unknown game", f"GET /api/games/nope-nope-nope HTTP/1.1\r\n{host}\r\n".encode()),
            ("bad query", f"GET /api/games/{gid}/hint?seconds=%ff HTTP/1.1\r\n{host}\r\n"
                          .encode()),
            ("wrong method", f"DELETE /api/games/{gid} HTTP/1.1\r\n{host}\r\n".encode()),
            ("huge deal", post("/api/games", b'{"deal": 9223372036854775808}')),
        ]
        before = saved(server.app.state.registry.store.store.path)
        for name, request in cases:
            status, headers, body = _exchange(sock, request)
            ok = 400 <= status < 500 and headers.get("connection") != "close"
            hostile.record("http", f"keep-alive {name}", "clean_error" if ok else
                           "server_error" if status >= 500 else "traceback")
            assert ok, (name, status, headers, body[:200])
            assert b"Traceback" not in body
        # the same connection still plays
        status, _, body = _exchange(sock, post(f"/api/games/{gid}/move",
                                               json.dumps({"move": "f>i"}).encode()))
        assert status in (200, 409)
        assert saved(server.app.state.registry.store.store.path) != before or status == 409


@contextlib.contextmanager
def _lucie_web(db: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``lucie web`` in a process of its own, and its address (host:port)
    once it answers; killed at the end if still running."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "lucie", "web", "--no-browser", "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        yield proc, proc.stdout.readline().split("http://", 1)[1].split("/")[0]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _stopped(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """How the server ended, as the hostile table counts it, and its stderr."""
    try:
        proc.wait(15)
        outcome = "clean_error"
    except subprocess.TimeoutExpired:
        outcome = "hang"
    err = proc.stderr.read() if proc.stderr and proc.poll() is not None else ""
    return ("traceback" if "Traceback" in err else outcome), err


def test_ctrl_c_with_a_request_half_sent(tmp_path: Path, hostile: Any) -> None:
    """A client that sends headers and never its body cannot keep the
    server from stopping."""
    with _lucie_web(tmp_path / "web.sqlite3") as (proc, address):
        host, port = address.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(f"POST /api/games HTTP/1.1\r\nHost: {address}\r\n"
                         "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
                         .encode())
            proc.send_signal(signal.SIGINT)
            outcome, err = _stopped(proc)
        hostile.record("http", "SIGINT with a half-sent request", outcome)
        assert outcome == "clean_error", err
        assert proc.returncode == 130


def test_two_ctrl_c_in_a_row(tmp_path: Path, hostile: Any) -> None:
    """A second Ctrl+C while the server stops forces the exit: still no
    traceback, and the game in play is kept with its moves."""
    from lucie.store import Store

    db = tmp_path / "web.sqlite3"
    with _lucie_web(db) as (proc, address):
        host, port = address.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            status, _, body = _exchange(sock, _post(address, "/api/games", b'{"deal": 1}'))
            assert status == 200
            gid = json.loads(body)["id"]
            status, _, _ = _exchange(sock, _post(address, f"/api/games/{gid}/move",
                                                 b'{"move": "f>i"}'))
            assert status == 200
        proc.send_signal(signal.SIGINT)
        time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        outcome, err = _stopped(proc)
        hostile.record("http", "SIGINT twice in a row", outcome)
        assert outcome == "clean_error", err
        assert proc.returncode == 130
        [record] = Store(db).history(limit=None)
        assert record.deal == 1 and record.moves == 1
