"""Solver work runs in worker processes: bounded, cancellable, and never in
the way of a move.  The checks are on the pool's own counters and on the
order things happen in, never on measured times (the deadlines below only
keep a broken build from hanging the suite)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from lucie.errors import LucieError
from lucie.web.thinking import PoolBudgetError, PoolFullError, SolverPool

#: A deal whose odds search runs far past any budget in the web's range.
LONG = {"variant": "shamrocks", "deal": 9}


def wait_until(check: Callable[[], bool], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)


def _refuse(text: str) -> None:
    raise LucieError(text)


class TestPool:
    def test_a_call_returns_and_keeps_its_worker(self) -> None:
        pool = SolverPool(1)
        try:
            assert asyncio.run(pool.run(divmod, 7, 2, budget=5)) == (3, 1)
            assert asyncio.run(pool.run(divmod, 9, 4, budget=5)) == (2, 1)
            assert (pool.started, pool.killed, pool.running) == (1, 0, 0)
        finally:
            pool.close()

    @pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
    def test_a_long_answer_arrives_whole(self, loop: str) -> None:
        """An answer longer than the pipe holds (a review's) comes in parts;
        uvloop makes the watched pipe non-blocking, and reading it as it
        came then failed midway ("Resource temporarily unavailable")."""
        factory = None
        if loop == "uvloop":
            uvloop = pytest.importorskip("uvloop")
            factory = uvloop.new_event_loop
        pool = SolverPool(1)
        try:
            with asyncio.Runner(loop_factory=factory) as runner:
                for size in (3_000_000, 5_000_000, 10):  # the worker is kept between
                    answer = runner.run(pool.run(bytes, size, budget=30))
                    assert answer == bytes(size)
            assert (pool.started, pool.killed) == (1, 0)
        finally:
            pool.close()

    def test_past_its_budget_the_worker_is_killed(self) -> None:
        pool = SolverPool(1, margin=0.2)
        try:
            with pytest.raises(PoolBudgetError, match=r"budget of 0\.1 s ran out"):
                asyncio.run(pool.run(time.sleep, 60, budget=0.1))
            assert (pool.started, pool.killed, pool.running) == (1, 1, 0)
            # the next call gets a fresh worker
            assert asyncio.run(pool.run(abs, -3, budget=5)) == 3
            assert pool.started == 2
        finally:
            pool.close()

    def test_a_cancelled_call_kills_its_worker(self) -> None:
        pool = SolverPool(1)

        async def go() -> None:
            task = asyncio.ensure_future(pool.run(time.sleep, 60, budget=60))
            while pool.running == 0:
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        try:
            asyncio.run(go())
            assert (pool.killed, pool.running) == (1, 0)
        finally:
            pool.close()

    def test_a_refusal_of_the_solver_is_a_lucie_error(self) -> None:
        pool = SolverPool(1)
        try:
            with pytest.raises(LucieError, match="no such thing"):
                asyncio.run(pool.run(_refuse, "no such thing", budget=5))
            assert pool.killed == 0
        finally:
            pool.close()

    def test_calls_beyond_the_pool_wait_within_their_budget(self) -> None:
        pool = SolverPool(1, margin=0.2)

        async def go() -> None:
            first = asyncio.ensure_future(pool.run(time.sleep, 60, budget=60))
            while pool.running == 0:
                await asyncio.sleep(0.01)
            with pytest.raises(PoolBudgetError, match="busy"):
                await pool.run(abs, 1, budget=0.2)
            assert pool.started == 1  # never more workers than the pool has
            first.cancel()
            with pytest.raises(asyncio.CancelledError):
                await first

        try:
            asyncio.run(go())
        finally:
            pool.close()


    def test_the_wait_for_a_worker_is_inside_the_budget(self) -> None:
        """A call that waited for a worker thinks only for what is left of
        its budget, and says how long it waited."""
        pool = SolverPool(1)

        async def go() -> None:
            await pool.run(abs, 1, budget=60)  # the worker is started
            first = asyncio.ensure_future(pool.run(time.sleep, 1, budget=60))
            while pool.running == 0:
                await asyncio.sleep(0.01)
            answer = await pool.call(_given, think=5, budget=5)
            assert answer.waited > 0.5
            assert answer.value == pytest.approx(5 - answer.waited, abs=0.01)
            await first

        try:
            asyncio.run(go())
        finally:
            pool.close()

    def test_one_client_gets_at_most_its_calls_and_a_fair_share(self) -> None:
        """Past CLIENT_CALLS calls waiting or running, a client is refused
        with a time to retry; a client running two calls more than another
        that waits has its newest stopped."""
        pool = SolverPool(2, client_calls=3)

        async def go() -> None:
            flood = [asyncio.ensure_future(pool.call(time.sleep, 60, budget=60, client="a"))
                     for _ in range(3)]
            while pool.running < 2:
                await asyncio.sleep(0.01)
            with pytest.raises(PoolFullError, match="3 solver requests") as refused:
                await pool.call(abs, 1, budget=60, client="a")
            assert 1 <= refused.value.retry_after <= 63
            answer = await pool.call(abs, -4, budget=30, client="b")
            assert answer.value == 4 and pool.preempted == 1
            done, _ = await asyncio.wait(flood, timeout=0)
            [stopped] = done
            with pytest.raises(PoolFullError, match="your share"):
                stopped.result()
            for call in flood:
                call.cancel()
            await asyncio.gather(*flood, return_exceptions=True)

        try:
            asyncio.run(go())
        finally:
            pool.close()


def _given(seconds: float) -> float:
    return seconds


def _new(url: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{url}/api/games", json=body, timeout=30)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


class TestServer:
    def test_odds_do_not_delay_moves(self, live_server: Any) -> None:
        """Another player's moves, and the same player's, are answered while
        a long odds search of the first player is still running."""
        pool: SolverPool = live_server.app.state.solver
        url = live_server.url
        thinker = _new(url, **LONG)["id"]
        other = _new(url, deal=1)["id"]
        answer: list[httpx.Response] = []
        asking = threading.Thread(target=lambda: answer.append(httpx.get(
            f"{url}/api/games/{thinker}/odds?samples=100000&seconds=30", timeout=60)))
        asking.start()
        wait_until(lambda: pool.running == 1)
        with httpx.Client(timeout=30) as client:
            for gid in (other, thinker):
                for _ in range(3):
                    state = client.get(f"{url}/api/games/{gid}").json()
                    move = state["legal_moves"][0]
                    r = client.post(f"{url}/api/games/{gid}/move", json={"move": move})
                    assert r.status_code == 200, r.text
            # a second odds request of the same game is refused, not queued
            r = client.get(f"{url}/api/games/{thinker}/odds?seconds=1")
            assert r.status_code == 429
        assert pool.running == 1 and not answer  # the search was still going
        asking.join(60)
        assert answer[0].status_code == 200
        assert answer[0].json()["moves_played"] == 0  # the position it was asked for

    def test_a_client_that_goes_away_stops_its_search(self, live_server: Any) -> None:
        pool: SolverPool = live_server.app.state.solver
        gid = _new(live_server.url, **LONG)["id"]
        with socket.create_connection(("127.0.0.1", live_server.port)) as sock:
            sock.sendall(f"GET /api/games/{gid}/odds?samples=100000&seconds=30 HTTP/1.1\r\n"
                         f"Host: 127.0.0.1\r\n\r\n".encode())
            wait_until(lambda: pool.running == 1)
        wait_until(lambda: pool.running == 0 and pool.killed == 1)


def _solver_workers(pid: int) -> set[int]:
    """The solver workers of process ``pid``: its children started by
    multiprocessing's ``spawn`` (not its resource tracker, a child too,
    which a busy machine may start well before the worker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == pid and b"spawn_main" in command:
                found.add(int(entry.name))
    return found


def _cpu_seconds(pids: set[int]) -> float:
    """The processor time the processes ``pids`` have used (user and system)."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_the_server_during_a_search(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "lucie", "web", "--no-browser", "--db",
         str(tmp_path / "web.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    try:
        assert proc.stdout is not None
        url = "http://" + proc.stdout.readline().split("http://", 1)[1].split()[0]
        url = url.rstrip("/")
        gid = _new(url, **LONG)["id"]
        asking = threading.Thread(target=lambda: httpx.get(
            f"{url}/api/games/{gid}/odds?samples=100000&seconds=30", timeout=60), daemon=True)
        asking.start()
        wait_until(lambda: len(_solver_workers(proc.pid)) >= 1)
        workers = _solver_workers(proc.pid)
        idle = _cpu_seconds(workers)
        wait_until(lambda: _cpu_seconds(workers) >= idle + 0.3)  # the search is going
        proc.send_signal(signal.SIGINT)
        proc.wait(20)  # far below the 30 s the search was allowed
        err = proc.stderr.read() if proc.stderr else ""
        # 130: stopped by Ctrl+C, as the shell reports it; no traceback
        assert proc.returncode == 130 and "Traceback" not in err, err
        wait_until(lambda: not any(_alive(pid) for pid in workers), 10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
