"""The browser game's link to the store (:mod:`lucie.store`).

The store numbers games with integers; the page knows a game by an id it
cannot guess (:func:`secrets.token_urlsafe`).  The store keeps the pairs
(its table ``web_games``, :meth:`~lucie.store.Store.link_token`), so a
game is found again after the server restarts, whichever the backend; a
Restart after a game's end gives the token its new game there
(:meth:`~lucie.store.Store.relink_token`,
:meth:`lucie.web.registry.Registry.restart`).  The games' life is
:class:`lucie.session.Session`'s; its store work, and every other store
call, runs in a worker thread (the store serialises its connection with a lock), so a slow
disk never stalls the other players' requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from lucie.engine import Game
from lucie.formats import save_game
from lucie.rules import Rules
from lucie.session import (
    Player,
    PlayerRef,
    Session,
    Store,
    StoreBusy,
    StoreError,
    StoreFull,
    default_player,
)

T = TypeVar("T")

#: The player of the request being answered, on a site that serves many
#: (``lucie serve``: :mod:`lucie.web.site` sets it for each request); unset
#: on the local game, whose player is the link's own.
REQUEST_PLAYER: contextvars.ContextVar[Player | None] = contextvars.ContextVar(
    "lucie_request_player", default=None)


#: A piece of store work: what to run, in which context, and the future
#: (of an event loop, or a thread's) that gets its result.
_Work = tuple[Callable[[], Any], contextvars.Context, "asyncio.Future[Any] | Future[Any]"]


def _settle(future: asyncio.Future[Any] | Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _deliver(done: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for future, ok, value in done:
        _settle(future, ok, value)


class _StoreThread:
    """The one thread that does the store's work, in the order asked.

    Cheaper than a thread pool's future per call: the work waiting when
    the thread wakes is done in one go, and its results are handed to
    each event loop with one wake-up for the lot (a burst of players
    costs a few thread switches, not two a request)."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self.stopped = False
        self.thread = threading.Thread(target=self._serve, name="lucie-store", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            batch = [self.queue.get()]
            while True:  # everything waiting now, in one go
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            done: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
            for work in batch:
                if work is None:
                    self._hand_over(done)
                    return
                fn, context, future = work
                try:
                    ok, value = True, context.run(fn)
                except BaseException as exc:  # handed to the caller, as a pool does
                    ok, value = False, exc
                if isinstance(future, asyncio.Future):
                    done.setdefault(future.get_loop(), []).append((future, ok, value))
                else:
                    _settle(future, ok, value)
            self._hand_over(done)

    @staticmethod
    def _hand_over(done: dict[asyncio.AbstractEventLoop,
                              list[tuple[asyncio.Future[Any], bool, Any]]]) -> None:
        for loop, results in done.items():
            with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits
                loop.call_soon_threadsafe(_deliver, results)

    def put(self, work: _Work) -> None:
        if self.stopped:  # as a thread pool after its shutdown
            raise RuntimeError("the store's link is closed")
        self.queue.put(work)

    def stop(self) -> None:
        if not self.stopped:
            self.stopped = True
            self.queue.put(None)
        self.thread.join()


class StoreLink:
    """Async access to a :class:`~lucie.store.Store` for one player: the
    link's own (``lucie web``), or the request's (:data:`REQUEST_PLAYER`,
    ``lucie serve``)."""

    def __init__(self, store: Store, player: str | None = None) -> None:
        self.store = store
        self.local = player
        self._worker = _StoreThread()

    @classmethod
    def open(cls, where: str | Path | None, player: str | None = None) -> StoreLink:
        """The store at ``where`` (a SQLite file or a ``postgresql://`` URL)."""
        return cls(Store(where), player)

    @property
    def player(self) -> PlayerRef:
        """The player whose games are read and written: the request's
        (:data:`REQUEST_PLAYER`) if it has one, else the link's own."""
        requested = REQUEST_PLAYER.get()
        return requested if requested is not None else self.local

    def close(self) -> None:
        self._worker.stop()
        self.store.close()

    async def _run(self, fn: Callable[[], T]) -> T:
        # the work sees the request's player (a copy of its context)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._worker.put((fn, contextvars.copy_context(), future))
        return await future

    async def run(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` (store work: a :class:`~lucie.session.Session` action)
        in the store's worker thread."""
        return await self._run(fn)

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` in the store's worker thread and wait (outside the
        event loop: the server's shutdown)."""
        future: Future[T] = Future()
        self._worker.put((fn, contextvars.copy_context(), future))
        return future.result()

    # -- the pages' tokens -------------------------------------------------

    def link(self, token: str, game_id: int) -> None:
        """Remember that the page's ``token`` names stored game ``game_id``
        (in the worker thread; a full disk, a lock: a StoreFull, a StoreBusy)."""
        self.store.link_token(token, game_id)

    async def resume(self, token: str, lease: float | None = None, shared: bool = False,
                     base: tuple[int | None, Game] | None = None) -> Session | None:
        """The stored game of ``token`` as a :class:`~lucie.session.Session`
        (claimed if still in play); None if unknown or damaged.  A
        :class:`~lucie.errors.LucieError` if another program plays it.
        ``base``: the copy of a game this process held, and its id (only
        the moves made since are replayed, if the token names that game
        still: not after a Restart gave it a new game)."""

        def work() -> Session | None:
            game_id = self.store.token_game(token)
            if game_id is None:
                return None
            earlier = base[1] if base is not None and base[0] == game_id else None
            requested = REQUEST_PLAYER.get()
            players: list[PlayerRef] = [self.player]
            if requested is not None:  # a site's player: also a game they loaded
                players.append(self.store.loaded_player(requested, make=False))
            for player in players:
                try:
                    if player is not None or requested is None:
                        return Session.stored(self.store, game_id, player, lease=lease,
                                              shared=shared, base=earlier)
                except (StoreFull, StoreBusy):
                    raise
                except StoreError:
                    continue
            return None

        return await self._run(work)

    # -- reading back -----------------------------------------------------

    async def saved_game(self, game_id: int) -> str | None:
        """The saved game (lucie JSON) of stored game ``game_id`` if it is
        this player's, else None."""

        def work() -> str | None:
            try:
                return save_game(self.store.game(game_id, of=self.player or default_player()))
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


__all__ = ["REQUEST_PLAYER", "StoreLink"]
