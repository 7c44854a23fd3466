"""Duels under load (issue 41): ``lucie serve --workers 2`` on PostgreSQL,
then on a SQLite file, 200 duels at once (400 players, each its own
cookie), each player making a move every 2 s; the figure is the time from
a move being sent to the opponent's socket hearing of it (between the
workers: ``LISTEN``/``NOTIFY`` on PostgreSQL, the news written to the file
on SQLite): p50, p95, max.  ``LUCIE_BENCH_SQLITE=0`` skips SQLite.

The database: ``$LUCIE_BENCH_PG`` (a ``postgresql://`` URL of an empty
database), else a server started for the run from Debian's ``postgresql``
package (as the tests do: tests/store/conftest.py). ``$LUCIE_BENCH_DUELS``
and ``$LUCIE_BENCH_SECONDS`` change the size and the length. The load
generator (aiohttp, one process) shares the machine with the server.
"""

import asyncio
import contextlib
import importlib.util
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

DUELS = int(os.environ.get("LUCIE_BENCH_DUELS", "200"))
SECONDS = float(os.environ.get("LUCIE_BENCH_SECONDS", "30"))
PACE = 2.0  # seconds between a player's moves
ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def database() -> Iterator[str]:
    given = os.environ.get("LUCIE_BENCH_PG")
    if given:
        yield given
        return
    spec = importlib.util.spec_from_file_location("store_conftest",
                                                  ROOT / "tests" / "store" / "conftest.py")
    assert spec is not None and spec.loader is not None
    conftest = importlib.util.module_from_spec(spec)
    sys.modules["store_conftest"] = conftest
    spec.loader.exec_module(conftest)
    folder = conftest._pg_bin()
    if folder is None:
        raise SystemExit("no PostgreSQL: set LUCIE_BENCH_PG or install Debian's postgresql")
    server = conftest.PostgresServer(folder, Path(tempfile.mkdtemp(prefix="lucie-bench-pg-")),
                                     conftest._unprivileged())
    server.start()
    try:
        yield server.new_database()
    finally:
        server.stop()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Load:
    """The players' shared figures."""

    def __init__(self) -> None:
        self.sent: dict[tuple[str, str], float] = {}  # (duel, side) -> the move in flight
        self.delays: list[float] = []
        self.errors = 0
        self.moves = 0
        self.stop = 0.0
        self.connected = 0


async def _post(session: aiohttp.ClientSession, url: str, body: dict[str, Any]) -> Any:
    async with session.post(url, json=body) as r:
        if r.status != 200:
            raise RuntimeError(f"{url}: {r.status} {await r.text()}")
        return await r.json()


async def _listen(ws: aiohttp.ClientWebSocketResponse, token: str, side: str,
                  load: Load) -> None:
    other = "guest" if side == "host" else "host"
    async for message in ws:
        data = message.json()
        if data.get("type") == "progress" and data.get("side") == other:
            sent = load.sent.pop((token, other), None)
            if sent is not None and time.monotonic() < load.stop:
                load.delays.append(time.monotonic() - sent)


async def _play(session: aiohttp.ClientSession, url: str, token: str, side: str, page: str,
                load: Load) -> None:
    async with session.get(f"{url}/api/games/{page}") as r:
        state = await r.json()
    await asyncio.sleep(random.uniform(0, PACE))
    while time.monotonic() < load.stop and state["status"] == "playing":
        legal = [m for m in state["legal_moves"] if m != "redeal"] or state["legal_moves"]
        if not legal:
            break
        load.sent[(token, side)] = time.monotonic()
        try:
            state = await _post(session, f"{url}/api/games/{page}/move", {"move": legal[0]})
            load.moves += 1
        except RuntimeError:
            load.errors += 1
            load.sent.pop((token, side), None)
            break
        await asyncio.sleep(PACE)


async def _duel(url: str, deal: int, load: Load, ready: asyncio.Event) -> None:
    # (cookies of an IP address: the jar must be told to keep them)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as host, \
            aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as guest:
        duel = await _post(host, f"{url}/api/duels", {"deal": deal})
        token = duel["token"]
        joined = await _post(guest, f"{url}/api/duels/{token}/join", {})
        ws_url = url.replace("http://", "ws://") + f"/api/duels/{token}/socket"
        async with host.ws_connect(ws_url) as hws, guest.ws_connect(ws_url) as gws:
            listeners = [asyncio.ensure_future(_listen(hws, token, "host", load)),
                         asyncio.ensure_future(_listen(gws, token, "guest", load))]
            load.connected += 1
            await ready.wait()
            await asyncio.gather(_play(host, url, token, "host", duel["game"], load),
                                 _play(guest, url, token, "guest", joined["game"], load))
            for task in listeners:
                task.cancel()


async def _run(url: str) -> Load:
    load = Load()
    ready = asyncio.Event()
    deadline = time.monotonic() + 60
    async with aiohttp.ClientSession() as probe:
        while time.monotonic() < deadline:
            with contextlib.suppress(aiohttp.ClientError):
                async with probe.get(url + "/healthz") as r:
                    if r.status == 200:
                        break
            await asyncio.sleep(0.1)
    load.stop = time.monotonic() + 3600
    duels = [asyncio.ensure_future(_duel(url, 1000 + i, load, ready)) for i in range(DUELS)]
    setup = time.monotonic() + 180
    while load.connected + sum(d.done() for d in duels) < DUELS and time.monotonic() < setup:
        await asyncio.sleep(0.2)
    load.stop = time.monotonic() + SECONDS
    ready.set()
    results = await asyncio.gather(*duels, return_exceptions=True)
    load.errors += sum(isinstance(r, Exception) for r in results)
    return load


def run_on(name: str, db: str, tmp: str) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "lucie", "serve", "--port", str(port), "--workers", "2",
            "--db", db, "--secret-file", os.path.join(tmp, "secret"),
            "--address-limit", "10000000/minute", "--player-limit", "10000000/minute"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        load = asyncio.run(_run(f"http://127.0.0.1:{port}"))
    finally:
        proc.terminate()
        proc.wait(15)
    delays = sorted(load.delays)
    if not delays:
        print(f"{name}: no move was heard ({load.errors} errors)")
        return
    p95 = delays[int(0.95 * (len(delays) - 1))]
    print(f"lucie serve --workers 2, {name}, {DUELS} duels ({2 * DUELS} players, a move "
          f"every {PACE:g} s each), {SECONDS:g} s: {load.moves} moves, {load.errors} errors; "
          f"move to the opponent's socket: p50 {statistics.median(delays) * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms, max {delays[-1] * 1000:.0f} ms ({len(delays)} heard)",
          flush=True)


def main() -> None:
    with database() as db, tempfile.TemporaryDirectory() as tmp:
        run_on("PostgreSQL", db, tmp)
    if os.environ.get("LUCIE_BENCH_SQLITE", "1") != "0":
        with tempfile.TemporaryDirectory() as tmp:
            run_on("SQLite", os.path.join(tmp, "duels.sqlite3"), tmp)


if __name__ == "__main__":
    main()
