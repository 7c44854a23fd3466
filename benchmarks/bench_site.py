"""Throughput of ``lucie serve`` (issue 40), against a bare Starlette app.

1. A bare Starlette JSON endpoint (one uvicorn process): requests/s that
   this machine's load generator gets at all, the ceiling of the figures.
2. ``lucie serve --workers 2`` on a fresh SQLite file: 32 players (each
   its own cookie, so its own player) play moves at the same time, each
   on its own game (a new one when no ordinary move is left): moves/s.

The load generator (httpx, async, one process) runs on the same machine as
the server, so both share its cores: the figures are a floor.
"""

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

sys.modules.setdefault("sniffio", None)  # type: ignore[arg-type]

SECONDS = 8.0
CONNECTIONS = 32
PLAYERS = 32

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def wait_up(url: str) -> None:
    async with httpx.AsyncClient(timeout=2) as c:
        for _try in range(300):
            try:
                await c.get(url)
                return
            except httpx.TransportError:
                await asyncio.sleep(0.05)
    raise RuntimeError(f"{url} did not answer")


async def bare(url: str) -> float:
    done = 0
    end = time.perf_counter() + SECONDS
    limits = httpx.Limits(max_connections=CONNECTIONS)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as c:
        async def one() -> None:
            nonlocal done
            while time.perf_counter() < end:
                r = await c.get("/")
                assert r.status_code == 200
                done += 1
        start = time.perf_counter()
        await asyncio.gather(*(one() for _i in range(CONNECTIONS)))
        return done / (time.perf_counter() - start)


async def players(url: str) -> tuple[float, int]:
    moves = 0
    errors = 0
    end = time.perf_counter() + SECONDS

    async def player(seed: int) -> None:
        nonlocal moves, errors
        async with httpx.AsyncClient(base_url=url, timeout=30) as c:
            state: dict[str, Any] = (await c.post("/api/games", json={"deal": seed})).json()
            while time.perf_counter() < end:
                legal = [m for m in state["legal_moves"] if m != "redeal"]
                if not legal:
                    state = (await c.post("/api/games", json={"deal": seed + moves})).json()
                    continue
                r = await c.post(f"/api/games/{state['id']}/move", json={"move": legal[0]})
                if r.status_code != 200:
                    errors += 1
                    state = (await c.get(f"/api/games/{state['id']}")).json()
                    continue
                state = r.json()
                moves += 1

    start = time.perf_counter()
    await asyncio.gather(*(player(1000 + i) for i in range(PLAYERS)))
    return moves / (time.perf_counter() - start), errors


def run(argv: list[str], url: str, work: Any) -> Any:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    try:
        asyncio.run(wait_up(url + "/healthz"))
        return asyncio.run(work(url))
    finally:
        proc.terminate()
        proc.wait(15)


def main() -> None:
    port = free_port()
    rate = run([sys.executable, "-c", BARE_APP, str(port)], f"http://127.0.0.1:{port}", bare)
    print(f"bare Starlette JSON endpoint, 1 process, {CONNECTIONS} connections: "
          f"{rate:,.0f} requests/s", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        argv = [sys.executable, "-m", "lucie", "serve", "--port", str(port), "--workers", "2",
                "--db", os.path.join(tmp, "site.sqlite3"),
                "--secret-file", os.path.join(tmp, "secret"),
                "--address-limit", "10000000/minute", "--player-limit", "10000000/minute"]
        rate, errors = run(argv, f"http://127.0.0.1:{port}", players)
    print(f"lucie serve --workers 2, SQLite, {PLAYERS} players: {rate:,.0f} moves/s "
          f"({errors} refused)", flush=True)


if __name__ == "__main__":
    main()
