"""Throughput of ``lucie serve`` (issue 40), against a bare Starlette app.

1. A bare Starlette JSON endpoint (one uvicorn process): requests/s that
   this machine's load generator gets at all, the framework's limit.  Then
   the load generator's own limit for a move: the burst below against a
   Starlette app (2 uvicorn workers) that does no work at all, answering
   each POST with the same canned answer of a move's size and shape (a
   real position's, :data:`CANNED_APP`): no server can do better than
   this with this load generator on this machine.
2. ``lucie serve --workers 2`` on a fresh SQLite file, then on a fresh
   PostgreSQL database (a real server started the way the store tests do,
   ``tests/store/conftest.py``): a burst of 32 players (each its own
   cookie, so its own player) playing moves as fast as they are answered,
   each on its own game: moves/s, p95 latency, and the server's CPU
   seconds per move (its processes' user + system time, from /proc).
3. 1,000 paced players on SQLite (``LUCIE_BENCH_PACED`` players, one move
   every 2 s each, 2 workers): p95, errors, and every answer checked
   against the player's own :class:`lucie.engine.Game`.
4. The workers' memory (RSS) before and after idle players who each
   started a game: bytes per idle player.

The load generator (aiohttp, one process) runs on the same machine as the
server, so both share its cores: the figures are a floor.  Environment:
``LUCIE_BENCH_SECONDS`` (burst length, default 8), ``LUCIE_BENCH_PACED``
(paced players, default 1000; 0 skips), ``LUCIE_BENCH_IDLE`` (idle players,
default 2000; 0 skips), ``LUCIE_BENCH_POSTGRES=0`` skips PostgreSQL.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from lucie.engine import Game, Move
from lucie.formats import position_json
from lucie.rules import Rules

SECONDS = float(os.environ.get("LUCIE_BENCH_SECONDS", "8"))
CONNECTIONS = 32
PLAYERS = 32
PACED = int(os.environ.get("LUCIE_BENCH_PACED", "1000"))
PACE = 2.0
PACED_SECONDS = 20.0
IDLE = int(os.environ.get("LUCIE_BENCH_IDLE", "2000"))
ROOT = Path(__file__).resolve().parent.parent
#: the bare endpoint's requests/s and the load generator's limit for a
#: move (moves/s), once measured: the bursts are given as shares of them
BARE: list[float] = []
CANNED: list[float] = []
TICK = os.sysconf("SC_CLK_TCK")

BARE_APP = """
import sys, uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route
async def ok(request):
    return JSONResponse({"ok": True})
uvicorn.run(Starlette(routes=[Route("/", ok)]), host="127.0.0.1", port=int(sys.argv[1]),
            log_level="warning")
"""

CANNED_APP = """
import os
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
ANSWER = open(os.environ["LUCIE_BENCH_CANNED"], "rb").read()
async def move(request):
    await request.body()
    return Response(ANSWER, media_type="application/json", headers={"Cache-Control": "no-store"})
async def healthz(request):
    return JSONResponse({"ok": True})
app = Starlette(routes=[Route("/api/games", move, methods=["POST"]),
                        Route("/api/games/{game}/move", move, methods=["POST"]),
                        Route("/healthz", healthz)])
"""


def canned_answer() -> bytes:
    """A move's answer as ``lucie serve`` writes it (made by the server's
    own code, :func:`lucie.web.routes.change_json`), of deal 11 up to
    thirty moves in, with a move left to play."""
    from lucie.session import Session as Life
    from lucie.web.answers import json_bytes
    from lucie.web.registry import Session
    from lucie.web.routes import change_json

    game = Game(Rules(), 11)
    step = None
    for _i in range(30):
        legal = [m for m in game.legal_moves if not m.is_redeal]
        if len(legal) < 2:
            break
        step = game.play(legal[0], autoplay=False)
    return json_bytes(change_json(Session("x" * 24, Life.unrecorded(game)), step))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    found = [pid]
    for p in found:
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tasks:
            with suppress(OSError):
                children = Path(f"/proc/{p}/task/{t}/children").read_text()
                found += [int(c) for c in children.split()]
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its descendants so far."""
    total = 0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def rss_bytes(pid: int) -> int:
    """Resident memory of ``pid``'s descendants (the workers), in bytes."""
    total = 0
    for p in _tree(pid)[1:]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def p95(latencies: list[float]) -> float:
    if not latencies:
        return float("nan")
    ordered = sorted(latencies)
    return ordered[int(0.95 * (len(ordered) - 1))] * 1000


@contextmanager
def serving(argv: list[str], url: str) -> Iterator[int]:
    """Run the server of ``argv`` until the block ends; yields its pid."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        asyncio.run(wait_up(url))
        yield proc.pid
    finally:
        proc.terminate()
        proc.wait(15)


async def wait_up(url: str) -> None:
    async with aiohttp.ClientSession() as c:
        for _try in range(600):
            try:
                async with c.get(url + "/healthz") as r:
                    await r.read()
                    return
            except aiohttp.ClientError:
                await asyncio.sleep(0.05)
    raise RuntimeError(f"{url} did not answer")


def _client() -> aiohttp.ClientSession:
    # cookies are kept per player by hand (one connection pool for all); an
    # idle connection is dropped before uvicorn's keep-alive of 5 s ends it
    connector = aiohttp.TCPConnector(limit=CONNECTIONS * 40, keepalive_timeout=3)
    return aiohttp.ClientSession(connector=connector,
                                 cookie_jar=aiohttp.DummyCookieJar(),
                                 timeout=aiohttp.ClientTimeout(total=60))


async def bare(url: str) -> float:
    done = 0
    end = time.perf_counter() + SECONDS
    connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    async with aiohttp.ClientSession(connector=connector) as c:
        async def one() -> None:
            nonlocal done
            while time.perf_counter() < end:
                async with c.get(url + "/") as r:
                    assert r.status == 200
                    await r.read()
                done += 1
        start = time.perf_counter()
        await asyncio.gather(*(one() for _i in range(CONNECTIONS)))
        return done / (time.perf_counter() - start)


@dataclass
class Player:
    """One player of the load: its cookie, its game and its own engine copy."""

    url: str
    client: aiohttp.ClientSession
    deal: int
    cookie: str = ""
    state: dict[str, Any] = field(default_factory=dict)
    game: Game | None = None

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        headers = {"Origin": self.url}
        if self.cookie:
            headers["Cookie"] = self.cookie
        async with self.client.post(self.url + path, json=body, headers=headers) as r:
            data = await r.json()
            if "lucie_player" in r.cookies:
                self.cookie = f"lucie_player={r.cookies['lucie_player'].value}"
            return r.status, data

    async def new_game(self) -> None:
        self.deal += 7919
        status, self.state = await self.post("/api/games", {"deal": self.deal})
        assert status == 200, self.state
        self.game = Game(Rules(), self.deal)

    def next_move(self, rng: random.Random | None = None) -> str | None:
        legal = [m for m in self.state["legal_moves"] if m != "redeal"]
        if not legal:
            return None
        return rng.choice(legal) if rng is not None else legal[0]

    async def move(self, move: str) -> int:
        status, data = await self.post(f"/api/games/{self.state['id']}/move",
                                       {"move": move, "version": self.state["version"]})
        if status == 200:
            self.state = data
        return status

    def check(self, move: str) -> bool:
        """Whether the answer is the player's own engine's position after ``move``."""
        assert self.game is not None
        self.game.play(Move.parse(move), autoplay=False)  # as the page asks (no autoplay)
        mine = position_json(self.game)
        # the answer gives deal and seed as text (JavaScript's numbers)
        mine["deal"], mine["seed"] = str(self.game.deal), str(self.game.seed)
        return all(self.state.get(k) == v for k, v in mine.items())


async def burst(url: str) -> tuple[int, int, list[float], float]:
    """Players moving as fast as answered: moves, errors, latencies, seconds."""
    moves = errors = 0
    latencies: list[float] = []
    async with _client() as client:
        everyone = [Player(url, client, 1000 + i) for i in range(PLAYERS)]
        await asyncio.gather(*(p.new_game() for p in everyone))
        end = time.perf_counter() + SECONDS

        async def play(p: Player) -> None:
            nonlocal moves, errors
            while time.perf_counter() < end:
                move = p.next_move()
                if move is None:
                    await p.new_game()
                    continue
                start = time.perf_counter()
                status = await p.move(move)
                latencies.append(time.perf_counter() - start)
                moves += status == 200
                errors += status != 200

        start = time.perf_counter()
        await asyncio.gather(*(play(p) for p in everyone))
        return moves, errors, latencies, time.perf_counter() - start


async def paced(url: str) -> tuple[int, Counter[str], int, list[float]]:
    """``PACED`` players, a move every ``PACE`` s each: moves, errors (by
    status or exception), wrong answers, latencies."""
    moves = wrong = 0
    errors: Counter[str] = Counter()
    latencies: list[float] = []
    async with _client() as client:
        everyone = [Player(url, client, 5000 + i) for i in range(PACED)]
        for i in range(0, PACED, 50):  # players arrive 50 at a time
            await asyncio.gather(*(p.new_game() for p in everyone[i:i + 50]))
        end = time.perf_counter() + PACED_SECONDS

        async def play(p: Player, rng: random.Random) -> None:
            nonlocal moves, wrong
            await asyncio.sleep(rng.random() * PACE)
            while time.perf_counter() < end:
                tick = time.perf_counter()
                move = p.next_move(rng)
                if move is None:
                    await p.new_game()
                else:
                    try:
                        status = await p.move(move)
                    except aiohttp.ClientError as exc:  # counted as an error, not a crash
                        status = 0
                        errors[type(exc).__name__] += 1
                    latencies.append(time.perf_counter() - tick)
                    moves += status == 200
                    if status not in (0, 200):
                        errors[str(status)] += 1
                    wrong += status == 200 and not p.check(move)
                await asyncio.sleep(max(0.0, PACE - (time.perf_counter() - tick)))

        await asyncio.gather(*(play(p, random.Random(i)) for i, p in enumerate(everyone)))
    return moves, errors, wrong, latencies


async def idle(url: str, pid: int) -> tuple[int, int]:
    """RSS of the workers before and after ``IDLE`` players start a game each."""
    before = rss_bytes(pid)
    async with _client() as client:
        everyone = [Player(url, client, 90000 + i) for i in range(IDLE)]
        for i in range(0, IDLE, 50):
            await asyncio.gather(*(p.new_game() for p in everyone[i:i + 50]))
    await asyncio.sleep(1)
    return before, rss_bytes(pid)


def serve_argv(port: int, db: str, tmp: str) -> list[str]:
    return [sys.executable, "-m", "lucie", "serve", "--port", str(port), "--workers", "2",
            "--db", db, "--secret-file", os.path.join(tmp, "secret"),
            "--address-limit", "10000000/minute", "--player-limit", "10000000/minute"]


def measure(label: str, db: str, tmp: str, work: Callable[[str, int], Awaitable[str]]) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serving(serve_argv(port, db, tmp), url) as pid:
        print(f"lucie serve --workers 2, {label}: {asyncio.run(work(url, pid))}", flush=True)


async def burst_line(url: str, pid: int) -> str:
    cpu = cpu_seconds(pid)
    moves, errors, latencies, seconds = await burst(url)
    cpu = cpu_seconds(pid) - cpu
    rate = moves / seconds
    share = f" ({rate / BARE[0]:.0%} of the bare endpoint" if BARE else ""
    if share and CANNED:
        share += f", {rate / CANNED[0]:.0%} of the load generator's limit"
    share += ")" if share else ""
    return (f"{PLAYERS} players bursting: {moves / seconds:,.0f} moves/s{share}, "
            f"p95 {p95(latencies):.1f} ms, {errors} refused, "
            f"{cpu / max(moves, 1) * 1000:.2f} ms server CPU a move ({cpu:.1f} CPU-s)")


async def paced_line(url: str, pid: int) -> str:
    cpu = cpu_seconds(pid)
    moves, errors, wrong, latencies = await paced(url)
    cpu = cpu_seconds(pid) - cpu
    return (f"{PACED} paced players (a move every {PACE:g} s, {PACED_SECONDS:g} s): "
            f"{moves:,} moves, p95 {p95(latencies):.1f} ms, max "
            f"{max(latencies, default=0) * 1000:.0f} ms, {sum(errors.values())} errors"
            f"{' ' + str(dict(errors)) if errors else ''}, {wrong} answers "
            f"unlike the player's engine, {cpu / max(moves, 1) * 1000:.2f} ms server CPU a "
            "move (with the players' arrival)")


async def idle_line(url: str, pid: int) -> str:
    before, after = await idle(url, pid)
    return (f"{IDLE} idle players with a game each: workers' RSS {before / 2**20:.0f} -> "
            f"{after / 2**20:.0f} MiB, {(after - before) / IDLE / 1024:.1f} KiB a player")


def postgres() -> Any:
    """The store tests' PostgreSQL server class (tests/store/conftest.py)."""
    spec = importlib.util.spec_from_file_location("lucie_store_conftest",
                                                  ROOT / "tests/store/conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    folder = module._pg_bin()
    if folder is None:
        return None
    server = module.PostgresServer(folder, Path(tempfile.mkdtemp(prefix="lucie-pg-")),
                                   module._unprivileged())
    server.start()
    return server


def main() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serving([sys.executable, "-c", BARE_APP, str(port)], url) as pid:
        cpu = cpu_seconds(pid)
        rate = asyncio.run(bare(url))
        cpu = cpu_seconds(pid) - cpu
    BARE.append(rate)
    print(f"bare Starlette JSON endpoint, 1 process, {CONNECTIONS} connections: "
          f"{rate:,.0f} requests/s ({cpu / (rate * SECONDS) * 1e6:.0f} us server CPU a "
          "request)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        canned = Path(tmp, "answer.json")
        canned.write_bytes(canned_answer())
        app = Path(tmp, "canned_app.py")
        app.write_text(CANNED_APP)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        argv = [sys.executable, "-m", "uvicorn", "--app-dir", tmp, "canned_app:app",
                "--port", str(port), "--workers", "2", "--log-level", "warning"]
        os.environ["LUCIE_BENCH_CANNED"] = str(canned)
        with serving(argv, url) as pid:
            moves, _errors, latencies, seconds = asyncio.run(burst(url))
        CANNED.append(moves / seconds)
        print(f"the load generator's limit for a move (a canned answer of "
              f"{canned.stat().st_size:,} bytes, no work, 2 workers): {moves / seconds:,.0f} "
              f"moves/s, {moves / seconds / rate:.0%} of the bare endpoint, p95 "
              f"{p95(latencies):.1f} ms", flush=True)
        measure("SQLite", os.path.join(tmp, "burst.sqlite3"), tmp, burst_line)
        if PACED:
            measure("SQLite", os.path.join(tmp, "paced.sqlite3"), tmp, paced_line)
        if IDLE:
            measure("SQLite", os.path.join(tmp, "idle.sqlite3"), tmp, idle_line)
        server = postgres() if os.environ.get("LUCIE_BENCH_POSTGRES") != "0" else None
        if server is None:
            print("PostgreSQL: skipped (no server programs or LUCIE_BENCH_POSTGRES=0)")
            return
        try:
            measure("PostgreSQL", server.new_database(), tmp, burst_line)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
