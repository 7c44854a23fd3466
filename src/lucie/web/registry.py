"""The games being played: sessions in memory, keyed by an id that cannot
be guessed (:func:`secrets.token_urlsafe`), and their link to the store.

Each game has its own :class:`asyncio.Lock`, so concurrent requests never
interleave on one game.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Final

from lucie.engine import Game
from lucie.errors import LucieError
from lucie.i18n import _
from lucie.parsing import excerpt
from lucie.web.errors import ApiError
from lucie.web.store_link import StoreLink

#: Games kept in memory at most (the least recently used go first).
MAX_GAMES: Final = 20_000


@dataclass
class Session:
    """One game being played in a browser."""

    id: str
    game: Game
    started: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    store_id: int | None = None
    recorded: str | None = None
    finished_seconds: float | None = None
    #: The solver calls (``hint``, ``odds``) being worked out for this game.
    thinking: set[str] = field(default_factory=set)
    #: The difficulty the player asked for (shown once the game is over).
    difficulty: str | None = None
    #: The date (UTC) whose deal of the day this is, if the player asked for it.
    daily: str | None = None

    def seconds(self) -> float:
        if self.finished_seconds is not None:
            return self.finished_seconds
        return max(0.0, time.time() - self.started)


class Registry:
    """The games in memory (least recently used dropped beyond ``MAX_GAMES``)
    and their link to the store."""

    def __init__(self, store: StoreLink | None) -> None:
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.store = store
        self.lock = asyncio.Lock()

    async def add(self, game: Game, *, record: bool = True) -> Session:
        """A new session of *game*; ``record``: keep it in the store (a
        loaded game is not: it never enters the statistics)."""
        session = Session(secrets.token_urlsafe(18), game)
        if game.outcome.finished:
            session.finished_seconds = 0.0
            session.recorded = game.outcome.status
        if self.store is not None and record:
            session.store_id = await self.store.start(session.id, game)
            if game.outcome.finished:
                await self.store.finished(session.store_id, game, 0.0)
        async with self.lock:
            self.sessions[session.id] = session
            while len(self.sessions) > MAX_GAMES:
                self.sessions.popitem(last=False)
        return session

    async def get(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is not None:
            self.sessions.move_to_end(game_id)
            return session
        if self.store is not None and 10 <= len(game_id) <= 64:
            found = await self.store.resume(game_id)
            if found is not None:
                store_id, game, seconds, status = found
                async with self.lock:
                    session = self.sessions.get(game_id)
                    if session is None:
                        session = Session(game_id, game, started=time.time() - seconds)
                        session.store_id = store_id
                        if status != "playing":
                            session.recorded = status
                            session.finished_seconds = seconds
                        self.sessions[game_id] = session
                return session
        raise ApiError(404, _("no game with id {id} (it may have been dropped: "
                              "start a new game)").format(id=excerpt(game_id)))

    async def changed(self, session: Session) -> None:
        """Record the game after a change; finish it in the store when it ends."""
        game = session.game
        outcome = game.outcome
        if outcome.finished:
            if session.finished_seconds is None:
                session.finished_seconds = max(0.0, time.time() - session.started)
        elif session.finished_seconds is not None:
            # undone back into play: the clock runs again from where it stopped
            session.started = time.time() - session.finished_seconds
            session.finished_seconds = None
        if self.store is None or session.store_id is None:
            return
        if outcome.finished:
            if session.recorded != outcome.status:
                session.recorded = outcome.status
                await self.store.finished(session.store_id, game, session.seconds())
            else:
                await self.store.moved(session.store_id, game, session.seconds())
        else:
            if session.recorded is not None:
                session.recorded = None
                await self.store.reopened(session.store_id)
            await self.store.moved(session.store_id, game, session.seconds())

    def save_clocks(self) -> int:
        """Save the seconds played of every game in memory still being
        played (the server is stopping: the clock resumes from them after a
        restart); returns how many were saved.  Not in the event loop."""
        if self.store is None:
            return 0
        saved = 0
        for session in list(self.sessions.values()):
            if session.store_id is None or session.game.outcome.finished:
                continue
            with contextlib.suppress(LucieError):
                self.store.save_clock(session.store_id, session.game, session.seconds())
                saved += 1
        return saved

    async def abandon(self, game_id: object) -> None:
        """The player left a game for a new one: a game with moves that is
        still being played counts as resigned (as in the terminal game)."""
        if not isinstance(game_id, str):
            return
        session = self.sessions.get(game_id)
        if session is None:
            return
        async with session.lock:
            game = session.game
            if game.moves and not game.outcome.finished:
                game.resign()
                await self.changed(session)
