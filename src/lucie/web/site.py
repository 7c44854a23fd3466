"""The browser game served to many players (``lucie serve``).

The game is :func:`lucie.web.app.create_app`'s; a site adds who plays.
Each visitor is a player of the store (:meth:`~lucie.store.Store.new_player`,
anonymous until they choose a name), known by a cookie that holds their
id signed with the site's secret (HMAC-SHA256: a cookie made up or
altered is refused, and its visitor gets a new player).  The cookie is
``HttpOnly`` (the page's scripts never read it), ``SameSite=Lax`` and,
over HTTPS, ``Secure``.

:class:`PlayerMiddleware` sets the request's player
(:data:`lucie.web.store_link.REQUEST_PLAYER`) before any route runs, so
every read and write of the store is that player's: another player's game
id is answered 404, as a game that does not exist.

The account's endpoints (``/api/me``...) go through
:func:`lucie.web.routes.api`, so their POSTs are refused unless sent as
JSON from the site's own origin (``Origin``/``Sec-Fetch-Site``: see
:func:`lucie.web.inputs.check_post`; another site can send neither a JSON
body nor a same-origin header without the browser asking this server
first, which it never allows).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import secrets
import sys
import unicodedata
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lucie.environment import SERVE, setting
from lucie.i18n import _
from lucie.parsing import excerpt
from lucie.session import Player
from lucie.web.answers import JSONAnswer
from lucie.web.app import create_app
from lucie.web.duel import GAME_COMMAND, DuelGuard, Duels
from lucie.web.duel_hub import hub_for
from lucie.web.errors import ApiError
from lucie.web.inputs import read_object, text_field
from lucie.web.operate import (
    ACCESS_LOG,
    ADDRESS_LIMIT,
    PLAYER_LIMIT,
    BatchedLines,
    Metrics,
    Observe,
    RateLimit,
    address_key,
    health,
    metrics_endpoint,
    player_key,
    rate,
)
from lucie.web.registry import Registry
from lucie.web.routes import api
from lucie.web.store_link import REQUEST_PLAYER, StoreLink

#: The cookie that names the visitor's player.
PLAYER_COOKIE: Final = "lucie_player"
#: How long the browser keeps it (seconds: about a year).
COOKIE_AGE: Final = 365 * 24 * 3600
#: The longest display name (characters).
MAX_NAME: Final = 40
#: The paths of a game's commands (``/api/games/<id>/move``...).
_COMMANDS: Final = "/api/games/{game_id}/"
#: The paths answered without a player (none is made for them).
_NO_PLAYER: Final = ("/static/", "/healthz", "/metrics", "/favicon.ico")


class Signer:
    """Signs a player's id with the site's secret, one purpose at a time
    (the cookie's signature is not a recovery code's)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the site's secret is too short (16 bytes at least)")
        self._secret = secret

    def _mac(self, purpose: str, value: str) -> str:
        digest = hmac.new(self._secret, f"{purpose}:{value}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def sign(self, purpose: str, player_id: int) -> str:
        return f"{player_id}.{self._mac(purpose, str(player_id))}"

    def unsign(self, purpose: str, token: str) -> int | None:
        """The player id ``token`` carries if its signature is right, else None."""
        value, dot, mac = token.strip().partition(".")
        if not dot or not value.isascii() or not value.isdigit() or len(value) > 18:
            return None
        if not hmac.compare_digest(mac.encode("ascii", "replace"),
                                   self._mac(purpose, value).encode("ascii")):
            return None
        return int(value)


def load_secret(path: Path) -> bytes:
    """The site's secret, kept in ``path`` (made there, readable by its
    owner only, the first time)."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        text = ""
    if text:
        return text.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    text = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text + "\n")
    return text.encode("utf-8")


def _cookie_header(value: str, *, secure: bool, max_age: int = COOKIE_AGE) -> bytes:
    cookie: SimpleCookie = SimpleCookie()
    cookie[PLAYER_COOKIE] = value
    morsel = cookie[PLAYER_COOKIE]
    morsel["path"] = "/"
    morsel["max-age"] = max_age
    morsel["httponly"] = True
    morsel["samesite"] = "Lax"
    if secure:
        morsel["secure"] = True
    return morsel.OutputString().encode("latin-1")


class PlayerMiddleware:
    """Sets each request's player (from its signed cookie, else a new
    anonymous one, whose cookie the answer sets)."""

    def __init__(self, app: ASGIApp, *, link: StoreLink, signer: Signer) -> None:
        self.app = app
        self.link = link
        self.signer = signer

    async def _player(self, request: Request) -> tuple[Player, bool]:
        """The request's player, and whether it was made for it."""
        token = request.cookies.get(PLAYER_COOKIE)
        player_id = self.signer.unsign("cookie", token) if token else None
        store = self.link.store
        if player_id is not None and request.method == "POST" \
                and GAME_COMMAND.match(request.scope["path"]):
            # a command of a game (a move...): the cookie's signature is
            # enough, the store is not asked (a trip less a move).  The game
            # is only ever served to the player it names, and its change is
            # written on the game as stored: a player deleted meanwhile has
            # no game left to change (404), whichever process has a copy.
            # (Only the site signs cookies, and only for its own players.)
            return Player(player_id, "", ""), False
        if player_id is not None:
            # a read: never held up behind a write waiting for a lock
            found = await self.link.read(lambda reader: reader.player(player_id))
            if found is not None and found.login is None:
                return found, False
        return await self.link.run(lambda: store.new_player("")), True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(_NO_PLAYER):
            await self.app(scope, receive, send)
            return
        player, made = await self._player(Request(scope))

        async def sending(message: Message) -> None:  # a new player's cookie
            if message["type"] == "http.response.start":
                header = _cookie_header(self.signer.sign("cookie", player.id),
                                        secure=scope.get("scheme") == "https")
                message["headers"] = [*message.get("headers", []), (b"set-cookie", header)]
            await send(message)

        scope.setdefault("state", {})["player_id"] = player.id  # for the access log
        token = REQUEST_PLAYER.set(player)
        try:
            await self.app(scope, receive, sending if made else send)
        finally:
            REQUEST_PLAYER.reset(token)


def _request_player() -> Player:
    player = REQUEST_PLAYER.get()
    assert player is not None, "PlayerMiddleware sets it"
    return player


def check_name(value: str) -> str:
    """A display name as given, trimmed; a 400 if it is empty, too long or
    holds control characters.

    >>> check_name("  Lucie ")
    'Lucie'
    """
    name = " ".join(value.split())
    if not name:
        raise ApiError(400, _("the name is empty"))
    if len(name) > MAX_NAME:
        raise ApiError(400, _("the name is too long ({n} characters at most)").format(
            n=MAX_NAME))
    if any(unicodedata.category(c)[0] == "C" for c in name):
        raise ApiError(400, _("the name holds characters that cannot be shown"))
    return name


class Account:
    """The endpoints of the visitor's own player: their name, their
    recovery code, the deletion of everything that is theirs."""

    def __init__(self, link: StoreLink, signer: Signer, registry: Registry) -> None:
        self.link = link
        self.signer = signer
        self.registry = registry

    def _json(self, player: Player) -> dict[str, Any]:
        return {"id": player.id, "name": player.name,
                "recovery_code": self.signer.sign("recover", player.id)}

    async def me(self, request: Request) -> Any:
        return self._json(_request_player())

    async def rename(self, request: Request) -> Any:
        data = await read_object(request)
        name = check_name(text_field(data, "name"))
        player = _request_player()
        store = self.link.store
        await self.link.run(lambda: store.rename_player(player, name))
        return self._json(Player(player.id, name, player.created, player.login))

    async def recover(self, request: Request) -> Any:
        """The player of a recovery code becomes this browser's."""
        data = await read_object(request)
        code = text_field(data, "code")
        player_id = self.signer.unsign("recover", code)
        store = self.link.store
        found = (await self.link.run(lambda: store.player(player_id))
                 if player_id is not None else None)
        if found is None or found.login is not None:
            raise ApiError(404, _("no player has the recovery code {code}").format(
                code=excerpt(code)))
        await self._leave(_request_player(), found)
        answer = JSONAnswer(self._json(found), headers={"Cache-Control": "no-store"})
        secure = request.url.scheme == "https"
        answer.raw_headers.append(
            (b"set-cookie", _cookie_header(self.signer.sign("cookie", found.id),
                                           secure=secure)))
        return answer

    async def _leave(self, old: Player, new: Player) -> None:
        """The browser that played as ``old`` goes on as ``new``: ``old``'s
        games in play with a move become ``new``'s, and ``old`` is deleted
        if nothing else of theirs would be missed (:meth:`Store.idle_players
        <lucie.store.Store.idle_players>`: no name, no finished game); else
        ``old`` stays as it is, its results untouched."""
        if old.id == new.id:
            return
        await self.registry.forget_player(old.id)
        store = self.link.store

        def work() -> None:
            store.adopt_games(old, new)
            if store.idle_players(None, only=old.id):
                store.delete_player(old)

        await self.link.run(work)

    async def delete(self, request: Request) -> Any:
        """Delete the player and every game of theirs; the browser forgets
        the cookie (its next visit is a new anonymous player)."""
        player = _request_player()
        await self.registry.forget_player(player.id)
        store = self.link.store
        games = await self.link.run(lambda: store.delete_player(player))
        answer = JSONAnswer({"deleted_games": games}, headers={"Cache-Control": "no-store"})
        answer.raw_headers.append(
            (b"set-cookie", _cookie_header("", secure=request.url.scheme == "https",
                                           max_age=0)))
        return answer


_LOOPBACK: Final = ("127.", "::1", "testclient")


def _operator_only(endpoint: Any) -> Any:
    """``endpoint`` answered to this machine only (a Prometheus on the host
    scrapes it; through the reverse proxy it is a 404)."""

    async def guarded(request: Request) -> Any:
        client = request.client.host if request.client else ""
        if not client.startswith(_LOOPBACK):
            return JSONAnswer({"error": _("no such API endpoint: {path}").format(
                path=request.url.path)}, status_code=404)
        return await endpoint(request)

    return guarded


def create_site(link: StoreLink, secret: bytes, *, solver_workers: int = 2,
                address_limit: str = ADDRESS_LIMIT,
                player_limit: str = PLAYER_LIMIT) -> Starlette:
    """The browser game for many players on the store of ``link`` (each
    request's player from its cookie, signed with ``secret``), with rate
    limits per address and per player (``limits``' notation, e.g.
    ``240/minute``), ``/healthz``, ``/metrics`` and the access log."""
    signer = Signer(secret)
    app = create_app(store=link, solver_workers=solver_workers, shared=True)
    account = Account(link, signer, app.state.registry)
    metrics = Metrics.make(app.state.solver)
    duels = Duels(app.state.registry, link, app.state.solver, hub_for(link.store),
                  lambda token: signer.unsign("cookie", token))
    app.router.routes[:0] = [
        *duel_routes(duels),
        Route("/healthz", health(link)),
        Route("/metrics", _operator_only(metrics_endpoint(metrics))),
        Route("/api/me", api(account.me)),
        Route("/api/me/name", api(account.rename), methods=["POST"]),
        Route("/api/me/recover", api(account.recover), methods=["POST"]),
        Route("/api/me/delete", api(account.delete), methods=["POST"]),
    ]
    # a request is matched route by route: a game's commands (most of a
    # site's requests) first, the rest in its order
    app.router.routes.sort(key=lambda r: not getattr(r, "path", "").startswith(_COMMANDS))
    # innermost: a duel's games keep to its settings, their changes are told
    app.user_middleware.append(Middleware(DuelGuard, duels_=duels))
    # outermost last: the log and metrics see every answer, the address's
    # limit comes before a player is made, the player's after
    app.add_middleware(RateLimit, link=link, kind="player", limit=rate(player_limit),
                       key=player_key)
    app.add_middleware(PlayerMiddleware, link=link, signer=signer)
    app.add_middleware(RateLimit, link=link, kind="address", limit=rate(address_limit),
                       key=address_key)
    app.add_middleware(Observe, metrics=metrics)
    app.state.link = link
    app.state.metrics = metrics
    app.state.duels = duels
    return app


def duel_routes(duels: Duels) -> list[Route | WebSocketRoute]:
    """The duels' endpoints (:mod:`lucie.web.duel`)."""
    path = "/api/duels/{token}"
    return [
        Route("/api/duels", api(duels.create), methods=["POST"]),
        Route(path, api(duels.show)),
        Route(path + "/join", api(duels.join), methods=["POST"]),
        Route(path + "/review/{side}", api(duels.review, thinks=True)),
        WebSocketRoute(path + "/socket", duels.socket),
    ]


def site_from_settings(settings: dict[str, Any]) -> Starlette:
    """The site of ``lucie serve``'s settings (``db``, ``secret_file``,
    ``address_limit``, ``player_limit``), logging its requests as JSON
    lines on standard output."""
    if not ACCESS_LOG.handlers:
        log = BatchedLines(sys.stdout)  # one JSON line per request, written in batches
        log.setFormatter(logging.Formatter("%(message)s"))
        ACCESS_LOG.addHandler(log)
        ACCESS_LOG.setLevel(logging.INFO)
        ACCESS_LOG.propagate = False
    link = StoreLink.open(settings["db"])
    return create_site(link, load_secret(Path(settings["secret_file"])),
                       address_limit=settings["address_limit"],
                       player_limit=settings["player_limit"])


def site_from_environment() -> Starlette:
    """The site of one of ``lucie serve --workers``'s processes (its
    settings in ``$LUCIE_SERVE``, set by the command)."""
    text = setting(SERVE)
    if text is None:
        raise RuntimeError(f"{SERVE} is not set: start the site with lucie serve")
    settings: dict[str, Any] = json.loads(text)
    return site_from_settings(settings)


__all__ = ["COOKIE_AGE", "MAX_NAME", "PLAYER_COOKIE", "Account", "PlayerMiddleware", "Signer",
           "check_name", "create_site", "duel_routes", "load_secret", "site_from_environment",
           "site_from_settings"]
