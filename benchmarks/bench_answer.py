"""What a site's move costs in one process, without the network.

Figures steadier than the load generator's (benchmarks/bench_site.py),
for comparing two versions of the code on a busy machine:

- the work of an answer, in microseconds (the best of 7 runs of 2,000): the
  position and table the page is sent (``lucie.web.views``), a game's
  version, and the saved text a move writes (``lucie.store.records``);
- a move's write (``Store.record_move``, its saved text included) on
  SQLite and, where its programs are, on PostgreSQL (wall clock);
- the CPU of a move through the whole site (``lucie.web.site.create_site``
  on a SQLite file: the middleware, the player's cookie, the rate limits,
  the store's thread, the write), one request after another, called as
  ASGI (no socket): ``$LUCIE_BENCH_MOVES`` moves (3,000).

Run: ``python benchmarks/run.py answer``.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lucie.engine import Game
from lucie.formats import position_json
from lucie.rules import Rules
from lucie.store import Store
from lucie.store.records import saved_text
from lucie.web.app import stop_app
from lucie.web.site import create_site, load_secret
from lucie.web.store_link import StoreLink
from lucie.web.views import game_version, table_json

MOVES = int(os.environ.get("LUCIE_BENCH_MOVES", "3000"))
ORIGIN = "http://127.0.0.1:8000"


def _game() -> Game:
    """A game 30 moves in (the first legal move each time)."""
    game = Game(Rules(), 11)
    for _i in range(30):
        legal = [m for m in game.legal_moves if not m.is_redeal]
        if not legal:
            break
        game.play(legal[0], autoplay=False)
    return game


def _best(fn: Callable[[], object], number: int = 2000) -> float:
    return min(timeit.repeat(fn, number=number, repeat=7)) / number * 1e6


def answer_work() -> str:
    game = _game()

    def answer() -> None:
        game._legal_of = None  # a position reached just now: nothing known of it
        game._status_of = None
        legal = list(game.legal_moves)
        data = position_json(game, legal)
        data.update(table_json(game, legal))
        game_version(game)

    return (f"an answer's position, table and version {_best(answer):.0f} us; "
            f"a move's saved text {_best(lambda: saved_text(game)):.0f} us")


class _Asgi:
    """Calls the app as a server would, one request at a time."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.cookie = b""

    async def call(self, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        raw = json.dumps(body).encode()
        headers = [(b"host", b"127.0.0.1:8000"), (b"origin", ORIGIN.encode()),
                   (b"content-type", b"application/json"),
                   (b"content-length", str(len(raw)).encode())]
        if self.cookie:
            headers.append((b"cookie", self.cookie))
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": b"", "root_path": "", "headers": headers,
                 "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000), "state": {}}
        sent = False
        out: dict[str, Any] = {"body": b""}

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            await asyncio.Event().wait()  # no disconnection
            raise AssertionError

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                out["status"] = message["status"]
                for key, value in message.get("headers", []):
                    if key == b"set-cookie":
                        self.cookie = value.split(b";")[0]
            elif message["type"] == "http.response.body":
                out["body"] += message.get("body", b"")

        await self.app(scope, receive, send)
        assert out["status"] == 200, out
        data: dict[str, Any] = json.loads(out["body"])
        return data


async def _moves(app: Any) -> tuple[float, float]:
    client = _Asgi(app)
    deal = 1
    state = await client.call("POST", "/api/games", {"deal": deal})
    played = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while played < MOVES:
        legal = [m for m in state["legal_moves"] if m != "redeal"]
        if not legal or state["status"] != "playing":
            deal += 7919
            state = await client.call("POST", "/api/games", {"deal": deal})
            continue
        state = await client.call("POST", f"/api/games/{state['id']}/move",
                                  {"move": legal[0], "version": state["version"]})
        played += 1
    return time.process_time() - cpu, time.perf_counter() - wall


def site_moves() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        secret = load_secret(Path(tmp) / "secret")
        app = create_site(StoreLink.open(Path(tmp) / "site.sqlite3"), secret, solver_workers=1,
                          address_limit="10000000/minute", player_limit="10000000/minute")
        link = app.state.link
        trips = 0
        run = link._run

        async def counted(fn: Callable[[], Any]) -> Any:  # each trip to the store's thread
            nonlocal trips
            trips += 1
            return await run(fn)

        link._run = counted
        try:
            cpu, wall = asyncio.run(_moves(app))
        finally:
            stop_app(app)
            link.close()
    return (f"{MOVES} moves through the site in one process, no network: "
            f"{cpu / MOVES * 1000:.2f} ms CPU a move ({wall / MOVES * 1000:.2f} ms wall), "
            f"{trips / MOVES:.2f} trips to the store's thread a move (new games included)")


def _write(where: str) -> float:
    """Microseconds a move's write takes on the store at ``where`` (its
    saved text included), wall clock: on PostgreSQL the trips to the
    server are most of it."""
    store = Store(where)
    try:
        game = _game()
        game_id = store.start_game(game, store.new_player(""))
        version = [store.version(game_id)]

        def write() -> None:
            version[0] = store.record_move(game_id, game, 1.0, expect=version[0])

        return min(timeit.repeat(write, number=500, repeat=5)) / 500 * 1e6
    finally:
        store.close()


def write_work() -> str:
    """A move's write on SQLite, and on PostgreSQL where its programs are
    (a server started as the store tests start theirs)."""
    with tempfile.TemporaryDirectory() as tmp:
        line = f"a move's write: SQLite {_write(str(Path(tmp) / 'w.sqlite3')):.0f} us"
    from bench_site import postgres  # (benchmarks/ is on the path)

    server = postgres() if os.environ.get("LUCIE_BENCH_POSTGRES") != "0" else None
    if server is None:
        return line + ", PostgreSQL skipped"
    try:
        return line + f", PostgreSQL {_write(server.new_database()):.0f} us (wall)"
    finally:
        server.stop()


def main() -> None:
    print(answer_work(), flush=True)
    print(write_work(), flush=True)
    print(site_moves(), flush=True)


if __name__ == "__main__":
    main()
