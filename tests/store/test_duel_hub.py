"""The duels' news between processes on one SQLite file
(:class:`lucie.web.duel_hub.SqliteHub`), two hubs in one process standing
for two processes: each has its own store on the file, as each process
does.  (Real processes: tests/store/test_duel_serve.py.)"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from lucie.session import Store, duels
from lucie.web.duel_hub import KEEP, RESYNC, SqliteHub


async def _next(queue: asyncio.Queue[dict[str, Any]], seconds: float = 5.0) -> dict[str, Any]:
    return await asyncio.wait_for(queue.get(), seconds)


def test_news_told_through_one_store_reaches_the_other(tmp_path: Path) -> None:
    path = tmp_path / "duels.sqlite3"
    one, two = Store(path), Store(path)
    hub_one, hub_two = SqliteHub(one), SqliteHub(two)
    try:
        assert hub_one.listening.wait(5) and hub_two.listening.wait(5)

        async def talk() -> None:
            here, there = hub_one.subscribe(7), hub_two.subscribe(7)
            other_duel = hub_two.subscribe(8)
            for n in range(3):
                await hub_one.publish(7, {"type": "progress", "n": n})
            for n in range(3):  # in order, once each, on both sides
                assert await _next(here.queue) == {"type": "progress", "n": n}
                assert await _next(there.queue) == {"type": "progress", "n": n}
            await hub_two.publish(7, {"type": "over"})
            assert await _next(here.queue) == {"type": "over"}
            assert await _next(there.queue) == {"type": "over"}
            await asyncio.sleep(0.3)  # nothing more: no echo of a hub's own news
            assert here.queue.empty() and there.queue.empty() and other_duel.queue.empty()

        asyncio.run(talk())
    finally:
        hub_one.close()
        hub_two.close()
        one.close()
        two.close()


def test_old_news_is_forgotten(tmp_path: Path) -> None:
    store = Store(tmp_path / "duels.sqlite3")
    try:
        duels.post_news(store, 1, "a", "{}", time.time() - 2 * KEEP)
        fresh = duels.post_news(store, 1, "a", "{}", time.time())
        assert duels.forget_news(store, time.time() - KEEP) == 1
        assert [n[0] for n in duels.news_after(store, 0)] == [fresh]
        assert duels.last_news(store) == fresh
    finally:
        store.close()


def test_a_hub_that_could_not_read_tells_its_sockets_to_resync(tmp_path: Path) -> None:
    path = tmp_path / "duels.sqlite3"
    store = Store(path)
    hub = SqliteHub(store)
    try:
        assert hub.listening.wait(5)

        async def broken_then_back() -> None:
            sub = hub.subscribe(3)
            real = hub._turn

            def failing(*args: Any) -> int:
                raise OSError("the disk went away")

            hub._turn = failing  # type: ignore[method-assign]
            await asyncio.sleep(0.3)
            assert sub.queue.empty()
            hub._turn = real  # type: ignore[method-assign]
            assert await _next(sub.queue) == RESYNC

        asyncio.run(broken_then_back())
    finally:
        hub.close()
        store.close()
