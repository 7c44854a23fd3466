"""The games being played: sessions in memory, keyed by an id that cannot
be guessed (:func:`secrets.token_urlsafe`), and their link to the store.

Each game's life (recording, results, the clock, the claim) is a
:class:`lucie.session.Session`; what is kept here is the browser's side:
the page's id, a lock per game (:class:`asyncio.Lock`, so concurrent
requests never interleave on one game), the solver calls under way.  The
clock of a browser game runs while its page says it is shown
(:meth:`Registry.visible`), with a lease (:data:`~lucie.session.PAGE_LEASE`)
so that a page that goes silent stops it too.  A site's game's clock is the
store's, not this process's: the page's word is written there, whatever
process gets it (:meth:`lucie.session.Session.seen`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypeVar

from lucie.engine import Game
from lucie.errors import LucieError
from lucie.session import PAGE_LEASE, NotSavedError, Outcome, Player, StaleGame, StoreFault
from lucie.session import Session as Life
from lucie.web.access import is_mine, unknown
from lucie.web.access import request_player_id as _owner
from lucie.web.errors import ApiError
from lucie.web.store_link import REQUEST_PLAYER, StoreLink

if TYPE_CHECKING:
    from lucie.analysis.difficulty import Rated

T = TypeVar("T")

#: Games kept in memory at most (the least recently used go first).
MAX_GAMES: Final = 20_000


@dataclass
class Session:
    """One game being played in a browser."""

    id: str
    #: the game's life (recording, results, clock, claim)
    life: Life
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The solver calls (``hint``, ``odds``) being worked out for this game.
    thinking: set[str] = field(default_factory=set)
    #: The difficulty the player asked for (shown once the game is over).
    difficulty: str | None = None
    #: The date (UTC) whose deal of the day this is, if the player asked for it.
    daily: str | None = None
    #: The id of the site's player whose game it is (``lucie serve``); None
    #: on the local game, whose one player plays every game.
    owner: int | None = None

    @property
    def game(self) -> Game:
        return self.life.game

    @property
    def store_id(self) -> int | None:
        """The game's id in the store while its changes are recorded."""
        return self.life.game_id if self.life.recording or self.life.result else None

    def seconds(self) -> float:
        return self.life.seconds()

    @property
    def _loaded(self) -> bool:
        """A loaded game kept for a site's player (stored as the game of
        another player of the store: :meth:`~lucie.store.Store.loaded_player`)."""
        player = self.life.player  # a site's own players have no login
        return self.owner is not None and isinstance(player, Player) and bool(player.login)

    @property
    def counted(self) -> bool:
        """Whether the game counts in its player's statistics (recorded,
        and not a loaded game kept for a site's player)."""
        return self.life.recording and not self._loaded

    def daily_day(self) -> datetime.date | None:
        """The date whose deal of the day this game of the player's own
        plays, as the store has it (after a reload or a restart too: see
        :meth:`lucie.session.Session.daily_day`); None for any other game."""
        return None if self._loaded else self.life.daily_day()


class Registry:
    """The games in memory (least recently used dropped beyond ``MAX_GAMES``)
    and their link to the store."""

    def __init__(self, store: StoreLink | None, *, shared: bool = False) -> None:
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.store = store
        #: the games are a site's (``lucie serve``): other processes may play
        #: them too, so the copy in memory is a cache, checked at each
        #: request against the game the store says the page's id names and
        #: that game's version (:meth:`get`)
        self.shared = shared
        self.lock = asyncio.Lock()

    async def run(self, session: Session, fn: Callable[[], T]) -> T:
        """Run a change of ``session``'s life (store work in the store's
        thread when the game is recorded)."""
        if self.store is not None and session.life.store is not None:
            return await self.store.run(fn)
        return fn()

    async def add(self, game: Game, *, record: bool = True,
                  picked: Rated | None = None) -> Session:
        """A new session of *game*; ``record``: count it in the player's
        statistics (a loaded game is not counted; on a site it is stored
        all the same, as a game of the player's :meth:`~lucie.store.Store.loaded_player`,
        so that any process serves it); ``picked``: the rating its deal was
        picked by, kept with it."""
        token = secrets.token_urlsafe(18)
        store = self.store
        owner = REQUEST_PLAYER.get()
        if store is not None and (record or (self.shared and owner is not None)):
            def start() -> Life:
                player = (store.player if record or owner is None
                          else store.store.loaded_player(owner))
                life = Life.new(store.store, player, game=game, lease=PAGE_LEASE,
                                picked=picked, shared=self.shared)
                assert life.game_id is not None
                store.link(token, life.game_id)
                return life
            life = await store.run(start)
        else:
            life = Life.unrecorded(game, lease=PAGE_LEASE)
        life.show()  # the page that asked for it shows it
        session = Session(token, life, owner=_owner())
        await self._keep(session)
        return session

    async def _keep(self, session: Session) -> None:
        async with self.lock:
            self.sessions[session.id] = session
            dropped = []
            while len(self.sessions) > MAX_GAMES:
                dropped.append(self.sessions.popitem(last=False)[1])
        for old in dropped:  # its time is saved, its claim given back
            with contextlib.suppress(LucieError):
                await self.run(old, old.life.close)

    async def get(self, game_id: str, *, verified: bool = True, stale: bool = False) -> Session:
        """The game ``game_id`` of the request's player (another player's
        is answered as missing: 404).  ``verified=False``: a copy in memory
        is taken without asking the store whether another process changed
        the game; only for a change written on the version it was made
        from, whose caller reads the game again if that write, or a check
        the copy may have failed for being stale, fails
        (:meth:`lucie.web.routes.Api.move`).  ``stale``: the copy in memory
        is known to be stale (a write on its version was refused): the game
        is read again without first reading its version."""
        session = self.sessions.get(game_id)
        if session is not None and not is_mine(session.owner):
            # another player's, as this copy has it: the store says (a
            # game given to the player of a recovery code, or a 404)
            session = None
        if session is not None and not verified and session.daily_day() is not None:
            # a daily game's answer says whether it still counts: the marks
            # another process may have set come with the version's read
            verified = True
        if session is not None and not stale and (
                not verified or not await self._stale(session)):
            self.sessions.move_to_end(game_id)
            return session
        base = None
        if session is not None:  # changed by another process: read it again
            async with self.lock:
                if self.sessions.get(game_id) is session:
                    del self.sessions[game_id]
            # (its moves are not replayed again, if the token names it still)
            base = (session.life.game_id, session.game)
        if self.store is not None and 10 <= len(game_id) <= 64:
            try:
                life = await self.store.resume(game_id, lease=PAGE_LEASE, shared=self.shared,
                                               base=base)
            except StoreFault:  # the operator's trouble (a 503), not a game played elsewhere
                raise
            except LucieError as exc:
                raise ApiError(409, str(exc)) from None
            if life is not None:
                async with self.lock:
                    found = self.sessions.get(game_id)
                if found is not None and is_mine(found.owner):  # resumed meanwhile
                    await self.store.run(life.close)
                    return found
                session = Session(game_id, life, owner=_owner())
                picked = life.picked  # a deal picked by difficulty: the third asked for
                session.difficulty = picked.difficulty if picked is not None else None
                await self._keep(session)
                return session
        raise unknown("game", game_id)

    async def _stale(self, session: Session) -> bool:
        """Whether the page's token names another game than this copy's
        (another process restarted it), or the stored game has a version
        other than this copy's (a shared game changed, or deleted, by
        another process)."""
        life, store = session.life, self.store
        if not self.shared or store is None or life.store is None or life.game_id is None:
            return False
        token = session.id
        # a read: never held up behind another player's write waiting for a lock
        game_id, checked = await store.read(lambda reader: reader.token_check(token))
        # (the marks and the clock another process left come with the version)
        return game_id != life.game_id or life.learn(checked) != life.version

    async def forget_player(self, player_id: int) -> None:
        """Drop the games in memory of the site's player ``player_id`` (they
        are being deleted from the store)."""
        async with self.lock:
            for token in [k for k, v in self.sessions.items() if v.owner == player_id]:
                del self.sessions[token]

    def save_clocks(self) -> int:
        """Save the seconds played of every game in memory still being
        played and give its claim back (the server is stopping: the clock
        resumes from them after a restart); returns how many were saved.
        A site's games are left alone: their clock is the store's already
        (their pages go on through the other processes).  Not in the event
        loop."""
        if self.store is None:
            return 0
        saved = 0
        for session in list(self.sessions.values()):
            life = session.life
            if not life.recording or life.result is not None or life.shared:
                continue
            with contextlib.suppress(LucieError):
                self.store.call(life.close)
                saved += 1
        return saved

    async def restart(self, session: Session) -> Outcome:
        """Restart ``session``'s game (:meth:`lucie.session.Session.restart`);
        after its recorded result, a new game of the same deal, which the
        page's token names from then on, in the store (one write, made only
        if the token still names the old game: every process, and this one
        after a restart, reads the new game by the token).  Under
        ``session.lock``."""
        store, token = self.store, session.id
        if store is None or session.life.store is None:
            return session.life.restart()

        def link(old: int, new: int) -> bool:
            assert store is not None
            return store.store.relink_token(token, old, new)

        def work() -> Outcome:
            life = session.life
            if life.result is None:  # the same game, back to its start
                return life.restart()
            life.again(link=link)
            return Outcome(new_game=True)

        return await store.run(work)

    async def abandon(self, game_id: object) -> None:
        """The player left a game for a new one (the page asked first): a
        game with moves still in play counts as resigned, one without a
        move is forgotten (see :meth:`lucie.session.Session.leave`), as the
        store has it (a copy another process left behind is read again).
        A game this process never saw is read from the store; one the
        request's player cannot read (unknown, or another player's: the
        lookup of :meth:`get`) is left alone, as if unknown, without a
        word.  Raises what refused the leaving: nothing was changed."""
        if not isinstance(game_id, str):
            return
        for stale in (False, True):
            try:
                session = await self.get(game_id, stale=stale)
            except ApiError as exc:
                if exc.status == 404:  # nothing of the player's to leave
                    return
                raise
            try:
                async with session.lock:
                    await self.run(session, session.life.leave)
                return
            except NotSavedError as exc:
                if stale or not isinstance(exc.error, StaleGame):
                    raise

    async def drop(self, session: Session) -> None:
        """Forget ``session``, a game just made that is not wanted after
        all (leaving the old game for it failed): a game without a move is
        deleted from the store (:meth:`lucie.session.Session.leave`)."""
        async with self.lock:
            if self.sessions.get(session.id) is session:
                del self.sessions[session.id]
        with contextlib.suppress(LucieError):
            async with session.lock:
                await self.run(session, session.life.leave)

    async def visible(self, session: Session, shown: bool) -> None:
        """The page says whether it shows the game: its clock runs only then
        (a site's game's: one write to the store, in the store's thread; a
        :class:`~lucie.session.NotSavedError` if it cannot be written)."""
        life = session.life
        if life.shared and self.store is not None and life.store is not None:
            await self.store.run(lambda: life.seen(shown))
        else:
            life.seen(shown)
