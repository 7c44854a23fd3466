"""Load test of the browser game's server: concurrent simulated players.

Starts the real server (``lucie web --no-browser`` in its own process, on a
free loopback port, with a fresh database), then 50 players each make 100
moves at the same time through the JSON API (httpx, async), choosing among
the legal moves the server lists.  Each player replays its moves on its own
engine copy and checks every answer against it (same id, same moves, same
fans and foundations), so a game mixed up with another is caught.  Prints
the median and 95th percentile move latency (goal: under 20 ms), also
with an odds request (a search that outruns its 5 s budget) always running
beside the players: solver work runs in worker processes, so the moves
should not feel it.

``run_load`` is also used by ``tests/web/test_load.py`` (fewer players,
correctness only).
"""

# (no ``from __future__ import annotations``: benchmarks/run.py loads this
# file without registering it in sys.modules, which dataclasses would need)
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from lucie.engine import Game
from lucie.rules import Rules

# httpcore tries ``import sniffio`` on every request; when sniffio is not
# installed each failed import searches sys.path again, which costs the
# simulated players (not the server) a millisecond a request.
sys.modules.setdefault("sniffio", None)  # type: ignore[arg-type]

PLAYERS = 50
MOVES = 100


@dataclass
class LoadResult:
    players: int
    moves_per_player: int
    latencies: list[float] = field(default_factory=list)  # seconds, one per move
    errors: list[str] = field(default_factory=list)
    games: int = 0
    seconds: float = 0.0

    def percentile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _mismatch(state: dict[str, Any], game: Game, game_id: str) -> str | None:
    """Why the server's answer is not this player's game, or None."""
    if state.get("id") != game_id:
        return f"answer for game {state.get('id')!r} instead of {game_id!r}"
    p = game.position
    if state["moves"] != [str(m) for m in game.moves]:
        return f"moves differ: server {state['moves'][-3:]}, player {game.moves[-3:]}"
    if state["fans"] != [[str(c) for c in fan] for fan in p.fans]:
        return "fans differ"
    if list(state["foundations"].values()) != list(p.foundations):
        return "foundations differ"
    return None


async def _player(base_url: str, index: int, moves: int, seed: int,
                  result: LoadResult, think: tuple[float, float]) -> None:
    # each player has its own connection, like a browser of its own; no
    # Nagle delay (browsers set TCP_NODELAY too: httpcore writes a request's
    # headers and body separately, and the second write would wait ~40 ms
    # for the server's delayed ACK)
    transport = httpx.AsyncHTTPTransport(
        socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
    )
    async with httpx.AsyncClient(base_url=base_url, timeout=60, transport=transport) as client:
        await _play(client, index, moves, seed, result, think)


async def _play(client: httpx.AsyncClient, index: int, moves: int, seed: int,
                result: LoadResult, think: tuple[float, float]) -> None:
    rng = random.Random(seed * 1000 + index)
    rules = Rules()
    deal = 1 + (seed * 7919 + index * 104729) % 31999

    async def new_game(deal: int) -> tuple[dict[str, Any], Game]:
        r = await client.post("/api/games", json={"variant": "classic", "deal": deal})
        r.raise_for_status()
        result.games += 1
        return r.json(), Game(rules, deal)

    state, game = await new_game(deal)
    game_id = state["id"]
    for step in range(moves):
        legal = state["legal_moves"]
        if not legal:
            deal = deal % 31999 + 1
            state, game = await new_game(deal)
            game_id = state["id"]
            legal = state["legal_moves"]
        plain = [m for m in legal if m != "R"]
        move = rng.choice(plain) if plain and rng.random() > 0.03 else rng.choice(legal)
        if think[1] > 0:
            await asyncio.sleep(rng.uniform(*think))
        start = time.perf_counter()
        r = await client.post(f"/api/games/{game_id}/move", json={"move": move})
        data = r.json()
        result.latencies.append(time.perf_counter() - start)
        if r.status_code != 200:
            result.errors.append(f"player {index} move {step} {move}: {r.status_code} {data}")
            return
        game.push(move)
        why = _mismatch(data, game, game_id)
        if why is not None:
            result.errors.append(f"player {index} move {step} {move}: {why}")
            return
        state = data
    # the game read back afterwards is still this player's
    r = await client.get(f"/api/games/{game_id}")
    why = _mismatch(r.json(), game, game_id)
    if why is not None:
        result.errors.append(f"player {index} at the end: {why}")


async def run_load(base_url: str, players: int = PLAYERS, moves: int = MOVES,
                   seed: int = 1, think: tuple[float, float] = (0.0, 0.0)) -> LoadResult:
    """``players`` concurrent players making ``moves`` moves each, waiting
    a random time in ``think`` (seconds) before each move."""
    result = LoadResult(players, moves)
    start = time.perf_counter()
    outcomes = await asyncio.gather(
        *(_player(base_url, i, moves, seed, result, think) for i in range(players)),
        return_exceptions=True,
    )
    result.seconds = time.perf_counter() - start
    for i, outcome in enumerate(outcomes):
        if isinstance(outcome, BaseException):
            result.errors.append(f"player {i}: {type(outcome).__name__}: {outcome}")
    return result


@dataclass
class OddsLoad:
    """What the odds requests beside the players got."""

    answered: int = 0
    ran_out: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


async def _odds_loop(base_url: str, out: OddsLoad, stop: asyncio.Event) -> None:
    """Ask the odds of a deal whose search outruns any budget, again and
    again, until ``stop``: one solver worker kept busy all the time."""
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        r = await client.post("/api/games", json={"variant": "shamrocks", "deal": 9})
        r.raise_for_status()
        game_id = r.json()["id"]
        while not stop.is_set():
            start = time.perf_counter()
            r = await client.get(f"/api/games/{game_id}/odds",
                                 params={"samples": 100000, "seconds": 5})
            out.seconds.append(time.perf_counter() - start)
            if r.status_code != 200:
                out.errors.append(f"odds: {r.status_code} {r.text[:200]}")
                return
            out.answered += 1
            out.ran_out += bool(r.json().get("budget_ran_out"))


async def run_load_with_odds(base_url: str, **kwargs: Any) -> tuple[LoadResult, OddsLoad]:
    """:func:`run_load` with an odds request always running beside it."""
    odds = OddsLoad()
    stop = asyncio.Event()
    beside = asyncio.ensure_future(_odds_loop(base_url, odds, stop))
    await asyncio.sleep(0.5)  # the search is under way before the first move
    try:
        result = await run_load(base_url, **kwargs)
    finally:
        stop.set()
        beside.cancel()  # the client goes away: the server stops the search
        try:
            await beside
        except asyncio.CancelledError:
            pass
        except Exception as exc:
            odds.errors.append(f"odds: {type(exc).__name__}: {exc}")
    return result, odds


def start_server(db_path: str) -> tuple[subprocess.Popen[str], str]:
    """``lucie web`` in a subprocess; returns it and its address."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "lucie", "web", "--no-browser", "--port", "0", "--db", db_path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        errors = proc.stderr.read() if proc.stderr else ""
        raise RuntimeError(f"lucie web did not start: {line}{errors}")
    url = line.split("http://", 1)[1].split()[0]
    return proc, "http://" + url.rstrip("/")


def report(title: str, result: LoadResult) -> None:
    n = len(result.latencies)
    ms = [x * 1000 for x in result.latencies]
    print(f"{title}: {result.players} players x {result.moves_per_player} moves = {n} moves "
          f"({result.games} games) in {result.seconds:.1f} s, {n / result.seconds:.0f} moves/s")
    if ms:
        print(f"  move latency: median {statistics.median(ms):.1f} ms, "
              f"p95 {result.percentile(0.95) * 1000:.1f} ms, max {max(ms):.1f} ms "
              "(goal: under 20 ms)")
    print(f"  errors (incl. mixed-up games): {len(result.errors)}")
    for error in result.errors[:10]:
        print("    " + error)


def main() -> None:
    print(f"cpus: {os.cpu_count()}, load average before: "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(os.path.join(tmp, "bench.sqlite3"))
        try:
            time.sleep(0.3)
            # one player alone: the service time of a move
            alone = asyncio.run(run_load(url, players=1, moves=200, seed=3))
            # players who take 0.2-0.6 s to choose each move (a fast human
            # takes longer): about 100 moves/s offered to the server
            paced = asyncio.run(run_load(url, think=(0.2, 0.6), seed=1))
            # the same, with an odds request always running beside the players
            with_odds, odds = asyncio.run(run_load_with_odds(url, think=(0.2, 0.6), seed=4))
            # then all at once, each move sent as soon as the last answer came
            burst = asyncio.run(run_load(url, seed=2))
        finally:
            proc.terminate()
            proc.wait(10)
    report("one player alone", alone)
    report("paced (think 0.2-0.6 s)", paced)
    report("paced, with an odds request running beside", with_odds)
    mean = statistics.mean(odds.seconds) if odds.seconds else float("nan")
    print(f"  odds requests beside: {odds.answered} answered (budget 5 s, "
          f"{odds.ran_out} ran out), {mean:.1f} s each on average; errors: {len(odds.errors)}")
    for error in odds.errors[:5]:
        print("    " + error)
    report("burst (no think time)", burst)


if __name__ == "__main__":
    main()
