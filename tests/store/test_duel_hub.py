"""The duels' news between processes on one SQLite file
(:class:`lucie.site.duel_hub.SqliteHub`), two hubs in one process standing
for two processes: each has its own store on the file, as each process
does.  (Real processes: tests/store/test_duel_serve.py.)"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from lucie.engine import Game
from lucie.rules import Rules
from lucie.site.duel_hub import KEEP, RESYNC, SqliteHub
from lucie.store import Store, duels


async def _next(queue: asyncio.Queue[dict[str, Any]], seconds: float = 5.0) -> dict[str, Any]:
    return await asyncio.wait_for(queue.get(), seconds)


def _duel(store: Store, name: str) -> int:
    """A new duel in ``store`` (its host only); its id."""
    host = store.new_player(name)
    game = store.start_game(Game(Rules(), deal=5), host)
    return duels.open_duel(store, duels.DuelSettings("classic", 5), token=name, host=host.id,
                           game=game, page=f"page-{name}").id


def _wait(what: str, check: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.01)


def test_news_told_through_one_store_reaches_the_other(tmp_path: Path) -> None:
    path = tmp_path / "duels.sqlite3"
    one, two = Store(path), Store(path)
    seven, eight = _duel(one, "ann"), _duel(one, "bob")
    hub_one, hub_two = SqliteHub(one), SqliteHub(two)
    try:
        assert hub_one.listening.wait(5) and hub_two.listening.wait(5)

        async def talk() -> None:
            here, there = hub_one.subscribe(seven), hub_two.subscribe(seven)
            other_duel = hub_two.subscribe(eight)
            for n in range(3):
                await hub_one.publish(seven, {"type": "progress", "n": n})
            for n in range(3):  # in order, once each, on both sides, numbered
                told = {"type": "progress", "n": n, "seq": n + 1}
                assert await _next(here.queue) == told
                assert await _next(there.queue) == told
            await hub_two.publish(seven, {"type": "over"})
            assert await _next(here.queue) == {"type": "over", "seq": 4}
            assert await _next(there.queue) == {"type": "over", "seq": 4}
            await asyncio.sleep(0.3)  # nothing more: no echo of a hub's own news
            assert here.queue.empty() and there.queue.empty() and other_duel.queue.empty()

        asyncio.run(talk())
    finally:
        hub_one.close()
        hub_two.close()
        one.close()
        two.close()


def test_old_news_is_forgotten_and_its_numbers_never_come_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "duels.sqlite3")
    try:
        duel = _duel(store, "ann")
        duels.post_news(store, duel, "a", {}, time.time() - 2 * KEEP)
        duels.post_news(store, duel, "a", {}, time.time())
        assert duels.forget_news(store, time.time() - KEEP) == 1
        assert [n[0] for n in duels.news_after(store, 0)] == [2] == [duels.last_news(store)]
        assert duels.forget_news(store, time.time() + 1) == 1  # the table is empty now
        told = duels.post_news(store, duel, "a", {"type": "progress"}, time.time())
        assert told == {"type": "progress", "seq": 3}
        assert [n[0] for n in duels.news_after(store, 2)] == [3] == [duels.last_news(store)]
        assert duels.post_news(store, 999, "a", {}, time.time()) is None  # no such duel
    finally:
        store.close()


def test_a_large_backlog_is_read_at_once(tmp_path: Path) -> None:
    """Far more news than one page waiting: the hub reads all of it, in
    order, on the one change of the file that told it."""
    path = tmp_path / "duels.sqlite3"
    one, two = Store(path), Store(path)
    duel = _duel(one, "ann")
    hub = SqliteHub(two)
    try:
        assert hub.listening.wait(5)
        heard: list[int] = []
        hub.watchers.append(lambda _duel, message: heard.append(message["seq"]))
        with one._write() as tx:  # 2,500 news told in one write: one change of the file
            for _n in range(2500):
                tx.execute("UPDATE duels SET news_seq = news_seq + 1 WHERE id = ?", (duel,))
                tx.execute("UPDATE news_counter SET last = last + 1 WHERE id = 1")
                tx.execute(
                    "INSERT INTO duel_news (duel, origin, message, made, seq, number)"
                    " SELECT ?, 'other', '{\"seq\": ' || news_seq || '}', ?, news_seq,"
                    " (SELECT last FROM news_counter) FROM duels WHERE id = ?",
                    (duel, time.time(), duel))
        _wait("the backlog", lambda: len(heard) >= 2500)
        assert heard == list(range(1, 2501))
    finally:
        hub.close()
        one.close()
        two.close()


def test_news_after_a_quiet_spell_longer_than_it_is_kept(tmp_path: Path) -> None:
    """Every news forgotten (the table empty), the next is still heard by
    the other process, numbered after the last (the clock is the test's)."""
    path = tmp_path / "duels.sqlite3"
    one, two = Store(path), Store(path)
    duel = _duel(one, "ann")
    now = [1000.0]
    hub_one = SqliteHub(one, keep=5.0, clock=lambda: now[0])
    hub_two = SqliteHub(two, keep=5.0, clock=lambda: now[0])
    try:
        assert hub_one.listening.wait(5) and hub_two.listening.wait(5)

        async def talk() -> None:
            there = hub_two.subscribe(duel)
            for n in range(3):
                await hub_one.publish(duel, {"type": "progress", "n": n})
            for n in range(3):
                assert (await _next(there.queue))["seq"] == n + 1
            now[0] += 60  # a quiet minute: the news is forgotten
            await asyncio.to_thread(_wait, "the news forgotten",
                                    lambda: not one._read("SELECT id FROM duel_news"))
            await hub_one.publish(duel, {"type": "progress", "n": 3})
            await hub_one.publish(duel, {"type": "over"})
            heard = [await _next(there.queue), await _next(there.queue)]
            heard = [m for m in heard if m != RESYNC]
            while len(heard) < 2:
                message = await _next(there.queue)
                if message != RESYNC:
                    heard.append(message)
            assert heard == [{"type": "progress", "n": 3, "seq": 4}, {"type": "over", "seq": 5}]

        asyncio.run(talk())
    finally:
        hub_one.close()
        hub_two.close()
        one.close()
        two.close()


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
