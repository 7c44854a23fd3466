"""The browser game served to many players (``lucie serve``).

The game is :func:`lucie.web.app.create_app`'s; a site adds who plays.
This package is the site's app (the local ``lucie web`` loads none of it):
this module (the player's cookie and account, :func:`create_site`),
:mod:`lucie.web.site.duel` (duels) and :mod:`lucie.web.site.operate` (rate
limits, metrics, ``/healthz``, the access log); what it writes to the
store goes through the site's services (:mod:`lucie.site`).
Each visitor is a player of the site (:func:`lucie.site.players.make`,
anonymous until they choose a name), known by a cookie that holds their
id, when it was issued and which of the site's secrets signed it, signed
with that secret (HMAC-SHA256: a cookie made up or altered is refused,
and its visitor gets a new player; so is one issued before its player
was made).  The first secret signs, every one is believed: an operator
rotates them without logging anyone out (:class:`Signer`).  The cookie is
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
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from lucie.environment import SERVE, setting
from lucie.i18n import _
from lucie.parsing import excerpt
from lucie.site import players
from lucie.site.duel_hub import hub_for
from lucie.site.players import Player
from lucie.web import access
from lucie.web.answers import JSONAnswer
from lucie.web.app import create_app
from lucie.web.errors import ApiError
from lucie.web.inputs import read_object, text_field
from lucie.web.registry import Registry
from lucie.web.routes import api
from lucie.web.site.duel import GAME_COMMAND, Duels
from lucie.web.site.operate import (
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


#: The shortest secret the site signs with (bytes).
MIN_SECRET: Final = 16
#: How old a cookie gets before it is signed again (seconds: 30 days), so
#: that a player who comes back keeps it for another :data:`COOKIE_AGE`.
REFRESH_AFTER: Final = 30 * 24 * 3600


@dataclass(frozen=True, slots=True)
class Signed:
    """What a signed token says: its player, when it was issued (seconds
    since the epoch; None for a token of the format before issue times),
    and whether it is as this site signs today (this format, the first
    secret): else it is worth signing again."""

    player_id: int
    issued: int | None
    current: bool


def key_id(secret: bytes) -> str:
    """The id a token names its secret by (a hash of it: naming a secret
    tells nothing of it).

    >>> key_id(b"0123456789abcdef")
    'BXg0IDh9'
    """
    digest = hashlib.sha256(b"lucie key id\0" + secret).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii")[:8]


def _digits(text: str, most: int) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= most else None


class Signer:
    """Signs a player's id with the site's secrets, one purpose at a time
    (the cookie's signature is not a recovery code's).

    A token is ``<player id>.<issued>.<key id>.<mac>``: the HMAC-SHA256,
    with the secret the key id names, of the purpose and all the rest.
    The first secret signs; every one of them is believed, so an operator
    can put a new one first and drop the old one later (docs/hosting.md).
    A token of the format before (``<player id>.<mac>``, no issue time, no
    key id) is believed if one of the secrets made it, and read as not
    :attr:`Signed.current` (the site signs it again).
    """

    def __init__(self, secret: bytes | Sequence[bytes]) -> None:
        keys = [secret] if isinstance(secret, bytes) else list(secret)
        if not keys:
            raise ValueError("the site has no secret")
        if any(len(key) < MIN_SECRET for key in keys):
            raise ValueError(f"the site's secret is too short ({MIN_SECRET} bytes at least)")
        self._keys = {key_id(key): key for key in reversed(keys)}
        self._first = key_id(keys[0])
        self._secrets = keys

    @staticmethod
    def _mac(secret: bytes, purpose: str, value: str) -> str:
        digest = hmac.new(secret, f"{purpose}:{value}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")

    def sign(self, purpose: str, player_id: int, issued: int | None = None) -> str:
        """A token of ``player_id`` issued at ``issued`` (default: now)."""
        when = int(time.time()) if issued is None else issued
        value = f"{player_id}.{when}.{self._first}"
        return f"{value}.{self._mac(self._keys[self._first], purpose, value)}"

    def read(self, purpose: str, token: str) -> Signed | None:
        """What ``token`` says if one of the secrets signed it for
        ``purpose``, else None."""
        parts = token.strip().split(".")
        if len(parts) == 2:
            return self._read_old(purpose, *parts)
        if len(parts) != 4:
            return None
        player, issued, kid, mac = parts
        pid, when, secret = _digits(player, 18), _digits(issued, 12), self._keys.get(kid)
        if pid is None or when is None or secret is None:
            return None
        value = f"{player}.{issued}.{kid}"
        if not hmac.compare_digest(mac.encode("ascii", "replace"),
                                   self._mac(secret, purpose, value).encode("ascii")):
            return None
        return Signed(pid, when, kid == self._first)

    def _read_old(self, purpose: str, player: str, mac: str) -> Signed | None:
        pid = _digits(player, 18)
        if pid is None:
            return None
        given = mac.encode("ascii", "replace")
        for secret in self._secrets:
            if hmac.compare_digest(given, self._mac(secret, purpose, player).encode("ascii")):
                return Signed(pid, None, False)
        return None

    def unsign(self, purpose: str, token: str) -> int | None:
        """The player id ``token`` carries if its signature is right, else None."""
        signed = self.read(purpose, token)
        return None if signed is None else signed.player_id


def issued_after_creation(signed: Signed, player: Player) -> bool:
    """Whether ``signed`` can be ``player``'s: not issued before the player
    was made (a token of an id given again to a newer player is not theirs;
    ids are never given twice since schema 8, this is a second guard).  A
    token from before issue times cannot tell: believed."""
    if signed.issued is None:
        return True
    created = created_at(player)
    return created is not None and signed.issued >= created


def created_at(player: Player) -> int | None:
    """When ``player`` was made (seconds since the epoch), if it can be read."""
    try:
        created = datetime.fromisoformat(player.created)
    except ValueError:
        return None
    return int((created if created.tzinfo else created.replace(tzinfo=UTC)).timestamp())


def load_secrets(path: Path) -> tuple[bytes, ...]:
    """The site's secrets, one a line in ``path`` (blank lines and lines
    starting with ``#`` skipped), the first the one that signs; a new
    secret is made there (readable by its owner only) when the file is
    missing or holds none.  ValueError (its message for the operator) for
    a secret shorter than :data:`MIN_SECRET` bytes."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except UnicodeDecodeError:
        raise ValueError(_("{file} is not a text file of secrets (UTF-8), one a line").format(
            file=path)) from None
    keys = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if len(line.encode("utf-8")) < MIN_SECRET:
            raise ValueError(_("the secret on line {line} of {file} is too short ({n} bytes "
                               "at least)").format(line=number, file=path, n=MIN_SECRET))
        keys.append(line.encode("utf-8"))
    if keys:
        return tuple(keys)
    if text.strip():  # comments only: never replaced
        raise ValueError(_("{file} holds no secret").format(file=path))
    path.parent.mkdir(parents=True, exist_ok=True)
    made = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(made + "\n")
    return (made.encode("utf-8"),)


def load_secret(path: Path) -> bytes:
    """The secret that signs (:func:`load_secrets`' first)."""
    return load_secrets(path)[0]


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
        """The request's player, and whether the answer sets its cookie (a
        new player's; one signed again: by an older secret, in the format
        before issue times, or more than :data:`REFRESH_AFTER` ago)."""
        token = request.cookies.get(PLAYER_COOKIE)
        signed = self.signer.read("cookie", token) if token else None
        store = self.link.store
        fresh = signed is not None and signed.current and signed.issued is not None \
            and signed.issued > time.time() - REFRESH_AFTER
        if signed is not None and fresh and request.method == "POST" \
                and GAME_COMMAND.match(request.scope["path"]):
            # a command of a game (a move...): the cookie's signature is
            # enough, the store is not asked (a trip less a move).  The game
            # is only ever served to the player it names, and its change is
            # written on the game as stored: a player deleted meanwhile has
            # no game left to change (404), whichever process has a copy.
            # (Only the site signs cookies, only for its own players, and
            # a player's id is never given again.)
            return Player(signed.player_id, "", ""), False
        if signed is not None:
            pid = signed.player_id
            # a read: never held up behind a write waiting for a lock
            found = await self.link.read(lambda reader: players.find(reader, pid))
            if found is not None and issued_after_creation(signed, found):
                return found, not fresh
        return await self.link.run(lambda: players.make(store)), True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http" or scope["path"].startswith(_NO_PLAYER):
            await self.app(scope, receive, send)
            return
        player, made = await self._player(Request(scope))

        async def sending(message: Message) -> None:  # the player's cookie, (re)made
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

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A WebSocket's player, from its cookie's signature alone (no store
        trip, none made: the socket refuses a visitor without one), for the
        player's rate limit."""
        cookie = HTTPConnection(scope).cookies.get(PLAYER_COOKIE)
        signed = self.signer.read("cookie", cookie) if cookie else None
        if signed is None:
            await self.app(scope, receive, send)
            return
        token = REQUEST_PLAYER.set(Player(signed.player_id, "", ""))
        try:
            await self.app(scope, receive, send)
        finally:
            REQUEST_PLAYER.reset(token)


def _request_player() -> Player:
    player = access.request_player()
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

    def __init__(self, link: StoreLink, signer: Signer, registry: Registry,
                 duels: Duels | None = None) -> None:
        self.link = link
        self.signer = signer
        self.registry = registry
        #: the site's duels: a player's running duels end before they go
        self.duels = duels

    def _json(self, player: Player) -> dict[str, Any]:
        # issued when the player was made: one code per player and secret,
        # and none of an id given again would be believed for the new player
        return {"id": player.id, "name": player.name,
                "recovery_code": self.signer.sign("recover", player.id, created_at(player))}

    async def me(self, request: Request) -> Any:
        return self._json(_request_player())

    async def rename(self, request: Request) -> Any:
        data = await read_object(request)
        name = check_name(text_field(data, "name"))
        player = _request_player()
        store = self.link.store
        return self._json(await self.link.run(lambda: players.rename(store, player, name)))

    async def recover(self, request: Request) -> Any:
        """The player of a recovery code becomes this browser's."""
        data = await read_object(request)
        code = text_field(data, "code")
        signed = self.signer.read("recover", code)
        store = self.link.store
        found = (await self.link.run(lambda: players.find(store, signed.player_id))
                 if signed is not None else None)
        if found is None or signed is None or not issued_after_creation(signed, found):
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
        """The browser that played as ``old`` goes on as ``new``
        (:func:`lucie.site.players.hand_over`)."""
        if old.id == new.id:
            return
        await self.registry.forget_player(old.id)
        store = self.link.store
        await self.link.run(lambda: players.hand_over(store, old, new))

    async def delete(self, request: Request) -> Any:
        """Delete the player and every game of theirs; the browser forgets
        the cookie (its next visit is a new anonymous player)."""
        player = _request_player()
        if self.duels is not None:  # their duels' results stay the other players'
            await self.duels.player_leaves(player.id)
        await self.registry.forget_player(player.id)
        store = self.link.store
        games = await self.link.run(lambda: players.remove(store, player))
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


def create_site(link: StoreLink, secret: bytes | Sequence[bytes], *, solver_workers: int = 2,
                address_limit: str = ADDRESS_LIMIT,
                player_limit: str = PLAYER_LIMIT) -> Starlette:
    """The browser game for many players on the store of ``link`` (each
    request's player from its cookie, signed with ``secret``), with rate
    limits per address and per player (``limits``' notation, e.g.
    ``240/minute``), ``/healthz``, ``/metrics`` and the access log.
    ``secret``: the site's secret, or its secrets, the first signing
    (:class:`Signer`)."""
    signer = Signer(secret)
    app = create_app(store=link, solver_workers=solver_workers, shared=True)
    metrics = Metrics.make(app.state.solver)
    duels = Duels(app.state.api, link, hub_for(link.store),
                  lambda token: signer.unsign("cookie", token))
    account = Account(link, signer, app.state.registry, duels)
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
    """The duels' endpoints (:mod:`lucie.web.site.duel`)."""
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
    return create_site(link, load_secrets(Path(settings["secret_file"])),
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


__all__ = ["COOKIE_AGE", "MAX_NAME", "MIN_SECRET", "PLAYER_COOKIE", "REFRESH_AFTER", "Account",
           "PlayerMiddleware", "Signed", "Signer", "check_name", "create_site", "created_at",
           "duel_routes", "issued_after_creation", "key_id", "load_secret", "load_secrets",
           "site_from_environment", "site_from_settings"]
