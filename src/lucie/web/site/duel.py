"""Duels on a site (``lucie serve``): two players on the same deal at the
same time, each seeing the other's progress live (docs/duel.md).

- ``POST /api/duels`` opens a duel (variant and deal, or a difficulty, or
  the deal of the day; hints and undo allowed or not; a time limit) with
  the host's game; its link is ``/duel/<token>``.
- ``POST /api/duels/<token>/join``: the guest's game on the same deal;
  the duel starts.  Only one guest ever gets in (the store decides).
- ``GET /api/duels/<token>``: the duel as its player sees it.
- ``GET /api/duels/<token>/review/<side>``: a side's game reviewed, once
  the duel is over (both players may read both).
- ``/api/duels/<token>/socket`` (WebSocket): the duel now, then each
  side's progress as it changes and the duel again when it starts or
  ends.  News goes through a hub (:mod:`lucie.site.duel_hub`): PostgreSQL's
  ``LISTEN``/``NOTIFY`` across processes and machines, the process itself
  on SQLite.

The games are played through the game's own endpoints
(``/api/games/<id>/move``...), so through the session and the engine
like any game.  A duel's rules are a :class:`DuelPolicy` read from its
row in the store (hints, undo, the review of a game in play, leaving it,
a restart, moves before the start or after the time limit), asked by
every endpoint that helps with a duel's game or changes it, by the
command it serves (``Api.policies``: :meth:`Duels.command` before a
change, which then tells the hub the change once it went through;
:meth:`Duels.check_deal` before help; :meth:`Duels.may_leave` before a new
game leaves the page's game).  Each news is
numbered by the store (``seq``, :mod:`lucie.site.duel_hub`).  A duel's
state is the store's (schema 5 and 8, :mod:`lucie.store.duels`): a
reload, a lost socket or a restarted server finds it there.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from starlette.requests import Request
from starlette.websockets import WebSocket, WebSocketDisconnect

from lucie.engine import Game, status_name
from lucie.i18n import _
from lucie.rules import Rules
from lucie.site import duels
from lucie.site.duel_hub import LocalHub
from lucie.web import access
from lucie.web.access import site_player_id as _player_id
from lucie.web.access import unknown
from lucie.web.errors import ApiError
from lucie.web.inputs import (
    _OWN_SITE,
    flag,
    float_param,
    read_object,
)
from lucie.web.registry import Registry
from lucie.web.routes import After, Api
from lucie.web.site.sockets import CLOSE_TOO_MANY, SocketCount
from lucie.web.store_link import StoreLink

Side = duels.Side
#: The longest time limit (minutes).
MAX_MINUTES: Final = 180
#: The game endpoints that ask the solver (help); the others that
#: :meth:`DuelPolicy.refusal` knows change the game (``Api._command``).
SOLVER: Final = frozenset({"hint", "odds", "review"})
#: Page tokens remembered as a duel's or not (per process).
KNOWN_PAGES: Final = 100_000
#: WebSocket close codes (4000-4999: the application's).
CLOSE_NO_PLAYER: Final = 4401
CLOSE_NOT_YOURS: Final = 4403
CLOSE_NO_DUEL: Final = 4404

#: A game's command (``/api/games/<page>/<action>``): its page and action.
GAME_COMMAND: Final = re.compile(r"^/api/games/([A-Za-z0-9_-]{10,64})/([a-z]+)$")


def _deadline(duel: duels.Duel) -> datetime | None:
    limit = duel.settings.time_limit
    if duel.started is None or limit is None:
        return None
    return datetime.fromisoformat(duel.started) + timedelta(seconds=limit)


def _time_left(duel: duels.Duel, at: datetime | None = None) -> float | None:
    """Seconds left before the time limit at ``at`` (default now; 0 once it
    has run out)."""
    end = _deadline(duel)
    if end is None:
        return None
    return max(0.0, (end - (at or datetime.now(UTC))).total_seconds())


def _rank(end: dict[str, Any]) -> tuple[float, ...]:
    """How a side's game ranks (higher is better): won first (sooner
    first), then not resigned, then cards home, then fewer moves."""
    won = end.get("status") == "won"
    seconds = float(end.get("seconds") or 0.0)
    return (float(won), -seconds if won else 0.0, float(end.get("status") != "resigned"),
            float(end.get("cards_home", 0)), -float(end.get("moves", 0)))


def winner(ends: dict[str, dict[str, Any]]) -> str | None:
    """The side that won the duel, None for a draw (docs/duel.md).

    >>> winner({"host": {"status": "won", "seconds": 90, "cards_home": 52, "moves": 60},
    ...         "guest": {"status": "won", "seconds": 80, "cards_home": 52, "moves": 70}})
    'guest'
    >>> winner({"host": {"status": "resigned", "cards_home": 30},
    ...         "guest": {"status": "playing", "cards_home": 12}})
    'guest'
    """
    host, guest = _rank(ends["host"]), _rank(ends["guest"])
    return "host" if host > guest else "guest" if guest > host else None


class Duels:
    """The duels of a site: their endpoints, their socket, their rules for
    the game endpoints of ``api`` (:class:`DuelPolicy`)."""

    def __init__(self, api: Api, link: StoreLink, hub: LocalHub,
                 player_of: Callable[[str], int | None]) -> None:
        self.api = api
        self.registry: Registry = api.registry
        self.link = link
        self.hub = hub
        #: the player a cookie names (the site's signed cookie)
        self.player_of = player_of
        #: page token -> its duel's id (None: not a duel's game)
        self.pages: OrderedDict[str, int | None] = OrderedDict()
        #: page token -> its running duel, as read (and the resyncs then)
        self.running: OrderedDict[str, tuple[duels.Duel, int]] = OrderedDict()
        #: the duels heard to be over, the resyncs heard (the hub's thread
        #: writes them: a set's add and an int's are atomic)
        self.over: set[int] = set()
        self.resyncs = 0
        #: the number of the last news heard of each duel, and the duels
        #: whose news was heard with a number missing (read again)
        self.heard: dict[int, int] = {}
        self.stale: set[int] = set()
        hub.watchers.append(self._heard)
        #: the reviews being worked out
        self.reviewing: set[str] = set()
        #: the sockets open, per player and per address (within limits)
        self.sockets = SocketCount()
        #: the duels' clock (an aware datetime): a test may move it on
        self.clock: Callable[[], datetime] = lambda: datetime.now(UTC)
        api.policies = self  # the game endpoints ask the duel's rules

    # -- the store ----------------------------------------------------------

    async def _by_token(self, token: str) -> duels.Duel:
        store = self.link.store
        found = await self.link.run(lambda: duels.by_token(store, token))
        if found is None:
            raise unknown("duel", token)
        return found

    def _heard(self, duel_id: int | None, message: dict[str, Any]) -> None:
        seq = message.get("seq")
        if duel_id is not None and isinstance(seq, int):
            last = self.heard.get(duel_id)
            if last is not None and seq != last + 1:  # news missed: the duel is read again
                self.stale.add(duel_id)
                if len(self.stale) > KNOWN_PAGES:  # every running duel is read again
                    self.stale.clear()
                    self.resyncs += 1
            self.heard[duel_id] = max(seq, last or 0)
            if len(self.heard) > KNOWN_PAGES:
                self.heard.clear()
        if message.get("type") == "over" and duel_id is not None:
            self.over.add(duel_id)
            if len(self.over) > KNOWN_PAGES:  # forget them: every running duel is read again
                self.over.clear()
                self.resyncs += 1
        elif message.get("type") == "resync":
            self.resyncs += 1

    async def duel_of_page(self, page: str) -> duels.Duel | None:
        """The duel of the game the page token ``page`` names, if any (a
        game is a duel's from its start: what is known is kept; a running
        duel is kept until the hub says it is over, or may have missed it)."""
        if page in self.pages and self.pages[page] is None:
            return None
        kept = self.running.get(page)
        if kept is not None and kept[0].id not in self.over and kept[1] == self.resyncs \
                and kept[0].id not in self.stale:
            return kept[0]
        resyncs, store = self.resyncs, self.link.store
        found = await self.link.run(lambda: duels.by_page(store, page))
        if found is not None:
            self.stale.discard(found.id)
        self.pages[page] = found.id if found is not None else None
        self.running.pop(page, None)
        if found is not None and found.started is not None and found.ended is None:
            self.running[page] = (found, resyncs)
        for kept_pages in (self.pages, self.running):
            while len(kept_pages) > KNOWN_PAGES:
                kept_pages.popitem(last=False)
        return found

    async def current(self, duel: duels.Duel) -> duels.Duel:
        """``duel``, ended first if its time limit has run out."""
        left = _time_left(duel, self.clock())
        if duel.ended is None and left is not None and left <= 0:
            await self.end(duel, "time")
            duel = await self._by_token(duel.token)
        return duel

    async def policy_of_page(self, page: str) -> DuelPolicy | None:
        """The rules of the duel whose game the page token ``page`` names
        (its time limit checked first), None if it is no duel's."""
        duel = await self.duel_of_page(page)
        if duel is not None and duel.ended is None:
            duel = await self.current(duel)
        return DuelPolicy(duel) if duel is not None else None

    async def command(self, page: str, action: str) -> After | None:
        """The change ``action`` (``move``, ``undo``, ``restart``...) of
        the request's player's game on page ``page``, under its duel's
        rules (:meth:`DuelPolicy.refusal`: an :class:`ApiError` where they
        forbid it); what follows it: the
        duel's news told and, if the change ended the duel, its end written,
        before the change is answered (a player told "resigned" reads the
        duel over, whatever process they ask next).  None for a game of no
        running duel, or another player's (its endpoint answers that)."""
        policy = await self.policy_of_page(page)
        if policy is None or not policy.running or not _own_page(policy.duel, page):
            return None
        why = policy.refusal(action)
        if why is not None:
            raise ApiError(*why)
        duel = policy.duel
        return lambda: self.changed(duel, page)

    async def may_leave(self, page: str) -> bool:
        """Whether a new game may leave the game on page ``page``: not a
        running duel's (it would count as resigned without the duel hearing
        of it: :attr:`DuelPolicy.leave`)."""
        if not 10 <= len(page) <= 64:
            return True
        policy = await self.policy_of_page(page)
        return policy is None or policy.leave

    async def policy_of_game(self, game_id: int) -> DuelPolicy | None:
        """The rules of the duel of the stored game ``game_id`` (read from
        the store: a game of the statistics may be any process's duel's)."""
        store = self.link.store
        duel = await self.link.run(lambda: duels.by_game(store, game_id))
        if duel is not None and duel.ended is None:
            duel = await self.current(duel)
        return DuelPolicy(duel) if duel is not None else None

    async def check_stored(self, game_id: int, action: str) -> None:
        """Refuse (an :class:`ApiError`) ``action`` on the stored game
        ``game_id`` where its duel's rules forbid it (the statistics'
        review of a duel's game in play)."""
        policy = await self.policy_of_game(game_id)
        why = policy.refusal(action) if policy is not None else None
        if why is not None:
            raise ApiError(*why)

    async def check_deal(self, game_id: int, action: str) -> None:
        """Refuse (an :class:`ApiError`) help (``action``: ``hint``,
        ``odds``, ``review``) on the stored game ``game_id`` where a duel
        not over of its player on the same deal and variant forbids it
        (:meth:`DuelPolicy.refusal`): a second game of the duel's deal, a
        loaded copy of it, or the duel's game itself.  The policy goes by
        the deal, not by the game the request names."""
        store = self.link.store
        for duel in await self.link.run(lambda: duels.on_deal_of(store, game_id)):
            why = DuelPolicy(await self.current(duel)).refusal(action)
            if why is not None:
                raise ApiError(*why)

    async def end(self, duel: duels.Duel, reason: str) -> None:
        """End the duel for ``reason`` (once, whoever gets there first) and
        tell both sockets."""
        store = self.link.store

        stamp = self.clock().isoformat(timespec="milliseconds")
        if await self.link.run(lambda: duels.end(store, duel, reason, stamp)):
            await self.hub.publish(duel.id, {"type": "over"})

    async def player_leaves(self, player_id: int) -> None:
        """Player ``player_id`` is deleting their data: each duel they play
        now ends as resigned (:func:`lucie.site.duels.leave`), and both
        sockets hear so; their side then shows a deleted player."""
        store = self.link.store
        stamp = self.clock().isoformat(timespec="milliseconds")
        for duel in await self.link.run(lambda: duels.leave(store, player_id, stamp)):
            await self.hub.publish(duel.id, {"type": "over"})

    # -- what a player sees ---------------------------------------------------

    async def view(self, duel: duels.Duel, player_id: int | None) -> dict[str, Any]:
        """The duel as player ``player_id`` sees it (see docs/web-api.md)."""
        store = self.link.store

        def work() -> dict[str, Any]:
            sides: dict[str, Any] = {}
            for side in ("host", "guest"):
                pid, gone = duel.player_of(side), duel.gone(side)
                player = store.player(pid) if pid is not None else None
                end = duel.host_end if side == "host" else duel.guest_end
                if end is None and duel.game_of(side) is not None:
                    end = duels.side_end(store, duel, side)
                shown = {k: v for k, v in (end or {}).items() if k != "saved"}
                if "status" in shown:
                    shown["status_text"] = status_name(str(shown["status"]))
                # a side whose player deleted their data: "a deleted player"
                sides[side] = None if pid is None and not gone else {
                    "name": player.name if player is not None else "", "deleted": gone,
                    "progress": shown}
            return sides

        sides = await self.link.run(work)
        you = duel.side_of(player_id) if player_id is not None else None
        if you is None:  # the tables are for the duel's two players only
            for seen in sides.values():
                if seen is not None:
                    seen["progress"].pop("table", None)
        state = "over" if duel.ended else "playing" if duel.started else "waiting"
        data: dict[str, Any] = {
            "token": duel.token, "link": f"/duel/{duel.token}", "state": state,
            "settings": duel.settings.to_json(), "you": you,
            "game": duel.page_of(you) if you is not None else None,
            "variant_name": Rules.parse(duel.settings.variant).name(),
            "elapsed": duel.elapsed(duel.ended), "time_left": _time_left(duel, self.clock()),
            "players": sides, "end_reason": duel.end_reason, "seq": duel.news_seq}
        if duel.ended and duel.host_end is not None and duel.guest_end is not None:
            data["winner"] = winner({"host": duel.host_end, "guest": duel.guest_end})
        return data

    # -- the endpoints ----------------------------------------------------------

    async def _deal(self, request: Request, data: dict[str, Any]) -> Game:
        """The duel's deal, as a new game's request asks for one (the
        game's own way: :meth:`lucie.web.routes.Api.dealt`)."""
        return (await self.api.dealt(request, data)).game

    @staticmethod
    def _settings(data: dict[str, Any], game: Game) -> duels.DuelSettings:
        minutes = data.get("minutes")
        if minutes in (None, "", 0):
            limit = None
        elif isinstance(minutes, int) and not isinstance(minutes, bool) \
                and 1 <= minutes <= MAX_MINUTES:
            limit = minutes * 60
        else:
            raise ApiError(400, _("field 'minutes' must be a whole number from 1 to {most}, "
                                  "or 0 for no time limit").format(most=MAX_MINUTES))
        hints = flag(data, "hints") if "hints" in data else True
        undo = flag(data, "undo") if "undo" in data else True
        assert game.deal is not None, "a duel is dealt by number"
        return duels.DuelSettings(game.rules.spec(), game.deal, hints, undo, limit)

    async def create(self, request: Request) -> Any:
        """Open a duel: the host's game is made now, played once a guest joins."""
        host = _player_id()
        data = await read_object(request)
        game = await self._deal(request, data)
        settings = self._settings(data, game)
        session = await self.registry.add(game)
        await self.registry.visible(session, False)  # its clock waits for the start
        if session.store_id is None:
            raise ApiError(503, _("no statistics store is available"))
        store, game_id, token = self.link.store, session.store_id, secrets.token_urlsafe(12)
        duel = await self.link.run(lambda: duels.start(
            store, settings, token=token, host=host, game=game_id, page=session.id))
        self.pages[session.id] = duel.id
        return await self.view(duel, host)

    async def show(self, request: Request) -> Any:
        duel = await self.current(await self._by_token(request.path_params["token"]))
        return await self.view(duel, _player_id())

    async def join(self, request: Request) -> Any:
        """The visitor joins the duel with a game of their own on its deal."""
        guest = _player_id()
        duel = await self._by_token(request.path_params["token"])
        side = duel.side_of(guest)
        if side == "host":
            raise ApiError(409, _("this is your own duel: send its link to your opponent"))
        if side == "guest":
            return await self.view(duel, guest)
        if duel.guest_id is not None:
            raise ApiError(409, _("this duel already has its two players"))
        game = Game(Rules.parse(duel.settings.variant), duel.settings.deal)
        session = await self.registry.add(game)
        store, game_id = self.link.store, session.store_id
        assert game_id is not None
        joined = await self.link.run(lambda: duels.join(
            store, duel.token, guest=guest, game=game_id, page=session.id))
        if not joined:  # another visitor got in first
            await self.registry.abandon(session.id)
            raise ApiError(409, _("this duel already has its two players"))
        self.pages[session.id] = duel.id
        await self.hub.publish(duel.id, {"type": "start"})
        return await self.view(await self._by_token(duel.token), guest)

    async def review(self, request: Request) -> Any:
        """A side's game of an ended duel, reviewed, with the move that lost
        the chance to win (``lost_at``, None if none did)."""
        player = _player_id()
        duel = await self._by_token(request.path_params["token"])
        side = request.path_params["side"]
        access.side((duel.host_id, duel.guest_id), duel.token, player)  # a side's own
        if not duel.ended:
            raise ApiError(409, _("the reviews are shown once the duel is over"))
        end = duel.host_end if side == "host" else duel.guest_end if side == "guest" else None
        if end is None or not isinstance(end.get("saved"), str) or end.get("moves", 0) == 0:
            raise ApiError(422, _("no move to review yet"))
        seconds = float_param(request, "seconds", 20.0, 1.0, 60.0)
        game_id = duel.host_game if side == "host" else duel.guest_game
        assert game_id is not None
        # the game's own review: one at a time per game, stopped if the client goes
        data = await self.api._review(request, self.reviewing, end["saved"], seconds,
                                      key=game_id)
        data["lost_at"] = lost_at(data)
        return data

    # -- the socket ---------------------------------------------------------

    async def socket(self, ws: WebSocket) -> None:
        """The duel's news for one of its players (see the module doc)."""
        cookie = ws.cookies.get("lucie_player")
        player = self.player_of(cookie) if cookie else None
        if player is None:
            await ws.close(CLOSE_NO_PLAYER, _("no player: open the site's page first"))
            return
        address = ws.client.host if ws.client else "?"
        if not self.sockets.open(player, address):  # one too many: told why
            await ws.accept()
            await ws.close(CLOSE_TOO_MANY, _("too many of the site's pages open at once: "
                                             "close one and try again"))
            return
        try:
            await self._checked(ws, player)
        finally:
            self.sockets.close(player, address)

    async def _checked(self, ws: WebSocket, player: int) -> None:
        """The socket of ``player``, counted: refused unless from this
        site's page, for a duel of theirs."""
        if not _same_origin(ws):
            await ws.close(CLOSE_NOT_YOURS, _("refused: a request from another site"))
            return
        store, token = self.link.store, ws.path_params["token"]
        duel = await self.link.run(lambda: duels.by_token(store, token))
        if duel is None:
            await ws.close(CLOSE_NO_DUEL, _("no duel has this link"))
            return
        try:  # a duel of others: as one that does not exist
            access.side((duel.host_id, duel.guest_id), token, player)
        except ApiError:
            await ws.close(CLOSE_NO_DUEL, _("no duel has this link"))
            return
        await ws.accept()
        sub = self.hub.subscribe(duel.id)
        try:
            await self._serve(ws, sub, token, player)
        except WebSocketDisconnect:
            pass
        finally:
            self.hub.unsubscribe(sub)

    async def _send_view(self, ws: WebSocket, token: str, player: int) -> duels.Duel:
        duel = await self.current(await self._by_token(token))
        await ws.send_json({"type": "duel", "duel": await self.view(duel, player)})
        return duel

    async def _serve(self, ws: WebSocket, sub: Any, token: str, player: int) -> None:
        duel = await self._send_view(ws, token, player)
        listening = asyncio.ensure_future(_until_closed(ws))
        try:
            while not listening.done():
                left = _time_left(duel, self.clock()) if duel.ended is None else None
                news = asyncio.ensure_future(sub.queue.get())
                await asyncio.wait({news, listening}, timeout=None if left is None else left + 0.2,
                                   return_when=asyncio.FIRST_COMPLETED)
                if not news.done():
                    news.cancel()
                    if not listening.done():  # the time limit ran out
                        duel = await self._send_view(ws, token, player)
                    continue
                message = news.result()
                if message.get("type") == "progress":
                    await ws.send_json(message)
                else:  # started, over, or news missed: the duel as it is now
                    duel = await self._send_view(ws, token, player)
        finally:
            listening.cancel()

    # -- telling the other side -----------------------------------------------

    async def changed(self, duel: duels.Duel, page: str) -> None:
        """A change of a duel's game (``page``) went through: tell both
        sockets, and end the duel if it is over."""
        session = self.registry.sessions.get(page)
        side = duel.side_of_page(page)
        if session is None or side is None:
            return
        game = session.game
        progress = duels.progress(game)
        progress["status_text"] = status_name(progress["status"])
        await self.hub.publish(duel.id, {"type": "progress", "side": side,
                                         "progress": progress, "elapsed": duel.elapsed()})
        status = game.outcome.status
        if status == "resigned":
            await self.end(duel, "resigned")
        elif status != "playing":
            other: Side = "guest" if side == "host" else "host"
            store = self.link.store
            if duel.game_of(other) is not None \
                    and await self.link.run(lambda: duels.side_over(store, duel, other)):
                await self.end(duel, "finished")


def lost_at(review: dict[str, Any]) -> int | None:
    """The index of the move after which the game could no longer be won
    (its value before it above 0, after it an exact 0), None if none.

    >>> lost_at({"moves": [{"value_before": {"chance": 1.0, "kind": "exact"},
    ...                     "value_after": {"chance": 0.0, "kind": "exact"}}]})
    0
    """
    for i, entry in enumerate(review.get("moves", [])):
        before, after = entry.get("value_before", {}), entry.get("value_after", {})
        if (before.get("chance") or 0) > 0 and after.get("chance") == 0 \
                and after.get("kind") == "exact":
            return i
    return None


async def _until_closed(ws: WebSocket) -> None:
    """Read what the page sends (nothing is asked of it) until it goes."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return


def _same_origin(ws: WebSocket) -> bool:
    """Whether the socket was opened by this site's page (a browser always
    sends ``Origin``; a program without one passes, as for a POST)."""
    site = ws.headers.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in _OWN_SITE:
        return False
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    parts = origin.strip().lower().split("://", 1)
    return (len(parts) == 2 and parts[0] in ("http", "https")
            and parts[1].rstrip("/") == ws.headers.get("host", "").strip().lower())


@dataclass(frozen=True, slots=True)
class DuelPolicy:
    """A duel's rules for its two games, as the duel's row in the store
    says (read by whichever process serves the request): hints, undo,
    the review of a game in play, leaving it for another game, restarting
    it, moves before the start.  Every endpoint that helps with a game or
    changes it asks :meth:`refusal` (the game's commands through
    :meth:`Duels.command`, the statistics' review of a stored game through
    :meth:`Duels.check_stored`).  Once the duel is over, nothing is
    refused: its games are anyone's to review."""

    duel: duels.Duel

    @property
    def running(self) -> bool:
        """Whether the duel is not over (waiting for its guest, or played)."""
        return self.duel.ended is None

    @property
    def hints(self) -> bool:
        """Whether the solver may help (a hint, the odds)."""
        return not self.running or self.duel.settings.hints

    @property
    def undo(self) -> bool:
        return not self.running or self.duel.settings.undo

    @property
    def review(self) -> bool:
        """Whether the game may be reviewed move by move (the winning
        chance and the solver's move after each): once the duel is over."""
        return not self.running

    @property
    def leave(self) -> bool:
        """Whether a new game may leave this one (resign it): not while
        the duel runs (it would end without the duel hearing of it)."""
        return not self.running

    def refusal(self, action: str) -> tuple[int, str] | None:
        """Why ``action`` (a game command: ``move``, ``hint``, ``review``...)
        on a game of the duel is refused (HTTP status, message), None if
        it is not."""
        if not self.running:
            return None
        if action == "review" and not self.review:
            return 409, _("the reviews are shown once the duel is over")
        if action in SOLVER and not self.hints:
            return 403, _("hints are not allowed in this duel")
        if action in SOLVER:
            return None
        if self.duel.started is None:
            return 409, _("the duel has not started: your opponent has not joined yet")
        if action == "restart":
            return 409, _("a duel's deal cannot be dealt again")
        if action in ("undo", "redo") and not self.undo:
            return 403, _("undo is not allowed in this duel")
        return None


def _own_page(duel: duels.Duel, page: str) -> bool:
    """Whether the page token ``page`` names the request's player's own
    game of ``duel`` (:func:`lucie.web.access.is_mine`)."""
    side = duel.side_of_page(page)
    return side is not None and access.is_mine(duel.host_id if side == "host"
                                               else duel.guest_id)


def refusal(duel: duels.Duel, action: str) -> tuple[int, str] | None:
    """Why ``action`` on a game of ``duel`` is refused (:meth:`DuelPolicy.refusal`)."""
    return DuelPolicy(duel).refusal(action)


__all__ = [
    "CLOSE_NOT_YOURS",
    "CLOSE_NO_DUEL",
    "CLOSE_NO_PLAYER",
    "CLOSE_TOO_MANY",
    "GAME_COMMAND",
    "DuelPolicy",
    "Duels",
    "lost_at",
    "refusal",
    "winner",
]
