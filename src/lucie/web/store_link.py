"""The browser game's link to the SQLite store (:mod:`lucie.store`).

The store numbers games with integers; the page knows a game by an id it
cannot guess (:func:`secrets.token_urlsafe`).  This module keeps the
pairs in a table of its own, ``web_games``, in the same database file, so
a game is found again after the server restarts.  The games' life is
:class:`lucie.session.Session`'s; its store work, and every other store
call, runs in a worker thread (the store serialises its connection with a lock), so a slow
disk never stalls the other players' requests.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lucie.formats import save_game
from lucie.rules import Rules
from lucie.session import (
    Session,
    Store,
    StoreBusy,
    StoreError,
    StoreFull,
    default_player,
    write_error,
)

T = TypeVar("T")

_TABLE = (
    "CREATE TABLE IF NOT EXISTS web_games ("
    " token TEXT PRIMARY KEY, game_id INTEGER NOT NULL)"
)


class StoreLink:
    """Async access to a :class:`~lucie.store.Store` for one player."""

    def __init__(self, store: Store, player: str | None = None) -> None:
        self.store = store
        self.player = player
        self._lock = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lucie-store")
        self._conn = sqlite3.connect(
            store.path, timeout=10, isolation_level=None, check_same_thread=False,
        )
        try:
            self._conn.execute("PRAGMA busy_timeout = 10000")
            self._conn.execute(_TABLE)
        except sqlite3.Error as exc:
            error = write_error(store.path, exc, opening=True)
            if isinstance(error, StoreFull | StoreBusy):
                raise error from None
            raise StoreError(f"{store.path}: cannot prepare the web games table ({exc})") \
                from None

    @classmethod
    def open(cls, path: str | Path | None, player: str | None = None) -> StoreLink:
        return cls(Store(path), player)

    def close(self) -> None:
        self._worker.shutdown(wait=True)
        with self._lock:
            self._conn.close()
        self.store.close()

    async def _run(self, fn: Callable[[], T]) -> T:
        return await asyncio.wrap_future(self._worker.submit(fn))

    async def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` (store work: a :class:`~lucie.session.Session` action)
        in the store's worker thread."""
        return await self._run(fn)

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in the store's worker thread and wait (outside the
        event loop: the server's shutdown)."""
        return self._worker.submit(fn).result()

    # -- the pages' tokens -------------------------------------------------

    def link(self, token: str, game_id: int) -> None:
        """Remember that the page's ``token`` names stored game ``game_id``
        (in the worker thread)."""
        with self._lock:
            try:
                self._conn.execute(
                    "INSERT OR REPLACE INTO web_games (token, game_id) VALUES (?, ?)",
                    (token, game_id),
                )
            except sqlite3.Error as exc:  # a full disk, a lock: a 503, not a 500
                raise write_error(self.store.path, exc) from None

    async def resume(self, token: str, lease: float | None = None) -> Session | None:
        """The stored game of ``token`` as a :class:`~lucie.session.Session`
        (claimed if still in play); None if unknown or damaged.  A
        :class:`~lucie.errors.LucieError` if another program plays it."""

        def work() -> Session | None:
            with self._lock:
                try:
                    row = self._conn.execute(
                        "SELECT game_id FROM web_games WHERE token = ?", (token,)
                    ).fetchone()
                except sqlite3.Error as exc:
                    raise write_error(self.store.path, exc) from None
            if row is None:
                return None
            try:
                return Session.stored(self.store, int(row[0]), self.player, lease=lease)
            except (StoreFull, StoreBusy):
                raise
            except StoreError:
                return None

        return await self._run(work)

    # -- reading back -----------------------------------------------------

    async def saved_game(self, game_id: int) -> str | None:
        """The saved game (lucie JSON) of stored game ``game_id`` if it is
        this player's, else None."""

        def work() -> str | None:
            try:
                record = self.store.record(game_id)
                if record.player != (self.player or default_player()):
                    return None
                return save_game(self.store.game(game_id))
            except (StoreFull, StoreBusy):
                raise
            except StoreError:
                return None

        return await self._run(work)

    async def stats(self, rules: Rules | None) -> dict[str, Any]:
        def work() -> dict[str, Any]:
            data = self.store.stats(self.player, rules).to_json()
            data["variant_name"] = rules.name() if rules is not None else "all variants"
            return data

        return await self._run(work)

    async def history(self, rules: Rules | None, limit: int | None) -> list[dict[str, Any]]:
        def work() -> list[dict[str, Any]]:
            records = self.store.history(self.player or default_player(), rules, limit)
            return [r.to_json() for r in records]

        return await self._run(work)


__all__ = ["StoreLink"]
