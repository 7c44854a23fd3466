"""The Starlette application of the browser game: a JSON API and the page.

Games live in memory, keyed by an id from :func:`secrets.token_urlsafe`
(it cannot be guessed), and are recorded in the SQLite store (statistics,
history) when one is given.  Each game has its own :class:`asyncio.Lock`,
so concurrent requests never interleave on one game; every change is made
through :class:`lucie.engine.Game`, which checks it with the engine.

Every bad request gets a 4xx answer ``{"error": "..."}`` that names the
problem and changes nothing.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import importlib.util
import json
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import anyio.to_thread
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from lucie.cards import DECK, Card
from lucie.deals import check_deal_number
from lucie.engine import FAN_NAMES, REDEAL, Game, Move, Position, autoplay_moves
from lucie.errors import LucieError, MoveError, SaveFileError
from lucie.formats import game_from_json, position_json, save_game
from lucie.rules import VARIANTS, Rules
from lucie.web.store_link import StoreLink

#: Largest request body accepted (bytes); larger ones get 413.
MAX_BODY: Final = 256 * 1024
#: Games kept in memory at most (the least recently used go first).
MAX_GAMES: Final = 20_000
#: Longest a hint or an odds estimate may think (seconds).
MAX_THINK: Final = 30.0

STATIC: Final = Path(__file__).with_name("static")


class ApiError(Exception):
    """A bad request: answered with ``status`` and ``{"error": message}``."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


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

    def seconds(self) -> float:
        if self.finished_seconds is not None:
            return self.finished_seconds
        return max(0.0, time.time() - self.started)


# ---------------------------------------------------------------------------
# What the page is told about a position
# ---------------------------------------------------------------------------


def _target_key(move: Move, card: Card) -> str:
    if move.dst_kind == "foundation":
        return f"foundation:{card.suit_index}"
    if move.dst_kind == "cell":
        return f"cell:{move.dst}"
    return f"fan:{move.dst}"


def _moving_card(position: Position, move: Move) -> Card:
    if move.src_kind == "fan":
        return position.fans[move.src][-1]
    if move.src_kind == "cell":
        cell = position.cells[move.src]
        assert cell is not None
        return cell
    return Card(move.src)


def _notation(move: Move) -> tuple[str, str]:
    src, _, dst = str(move).partition(">")
    return src, dst


@functools.lru_cache(maxsize=64)
def _target_notation(fans: int, cells: int) -> dict[str, str]:
    """How each target is written in a move (``F`` for fan f, ``f`` for the
    foundation, ``1`` for cell 1), from the engine's own notation."""
    notation: dict[str, str] = {}
    for j in range(fans):
        notation[f"fan:{j}"] = _notation(Move.build(0 if j else 1, j))[1]
    for s in range(4):
        notation[f"foundation:{s}"] = _notation(Move.to_foundation(0))[1]
    for c in range(cells):
        notation[f"cell:{c}"] = _notation(Move.to_cell(0, c))[1]
    return notation


def table_json(game: Game, legal: list[Move] | None = None) -> dict[str, Any]:
    """What the page needs beyond :func:`position_json`: for every card that
    may be picked up, its source notation and the legal targets, and the
    notation of each target, so the page lights up targets and writes moves
    without knowing a rule.  ``legal``: the legal moves, if already known."""
    p = game.position
    if legal is None:
        legal = list(game.legal_moves)
    sources: dict[str, dict[str, Any]] = {}
    buried: dict[Card, int] = {}
    for i, fan in enumerate(p.fans):
        if fan:
            sources[str(fan[-1])] = {"source": FAN_NAMES[i], "where": f"fan:{i}", "targets": []}
            for card in fan[:-1]:
                buried[card] = i
    for i, cell in enumerate(p.cells):
        if cell is not None:
            sources[str(cell)] = {"source": str(i + 1), "where": f"cell:{i}", "targets": []}
    merci = False
    for move in legal:
        if move.is_redeal:
            continue
        card = _moving_card(p, move)
        key = str(card)
        entry = sources.get(key)
        if entry is None:  # a merci (buried card) or a take-back (foundation top)
            if card in buried:
                where = f"fan:{buried[card]}"
                merci = True
            else:
                where = f"foundation:{card.suit_index}"
            entry = sources[key] = {"source": key, "where": where, "targets": []}
        entry["targets"].append({"target": _target_key(move, card), "move": str(move)})
    tops: dict[str, str | None] = {}
    for s, count in enumerate(p.foundations):
        tops[str(s)] = str(DECK[s * 13 + count - 1]) if count else None
    return {
        "sources": sources,
        "target_notation": _target_notation(len(p.fans), len(p.cells)),
        "foundation_tops": tops,
        "can_redeal": REDEAL in legal,
        "merci_moves": merci,
        "fan_names": list(FAN_NAMES[: len(p.fans)]),
    }


def state_json(session: Session) -> dict[str, Any]:
    """The full state of a game for the page."""
    game = session.game
    data = position_json(game)
    data.update(table_json(game, [Move.parse(m) for m in data["legal_moves"]]))
    rules = game.rules
    data.update(
        id=session.id,
        variant_title=data["variant_name"],
        can_undo=game.can_undo,
        can_redo=game.can_redo,
        redeals_total=rules.redeals,
        has_merci=rules.merci,
        seconds=round(session.seconds(), 1),
        finished=data["status"] != "playing",
    )
    return data


# ---------------------------------------------------------------------------
# The game registry
# ---------------------------------------------------------------------------


class Registry:
    """The games in memory (least recently used dropped beyond ``MAX_GAMES``)
    and their link to the store."""

    def __init__(self, store: StoreLink | None) -> None:
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.store = store
        self.lock = asyncio.Lock()

    async def add(self, game: Game) -> Session:
        session = Session(secrets.token_urlsafe(18), game)
        if game.outcome.finished:
            session.finished_seconds = 0.0
            session.recorded = game.outcome.status
        if self.store is not None:
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
        raise ApiError(404, f"no game with id {game_id!r} (it may have been dropped: "
                            "start a new game)")

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


# ---------------------------------------------------------------------------
# Request helpers
# ---------------------------------------------------------------------------


async def read_json(request: Request) -> Any:
    """The request body as JSON (``{}`` when empty); 413 when too large,
    400 when it is not JSON."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, f"the request body is {int(length)} bytes, more than "
                            f"the {MAX_BODY} accepted")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"the request body is more than the {MAX_BODY} bytes accepted")
    if not body.strip():
        return {}
    try:
        return json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ApiError(
            400, f"the request body is not JSON: {exc.msg} at line {exc.lineno} "
                 f"column {exc.colno}"
        ) from None


async def read_object(request: Request) -> dict[str, Any]:
    data = await read_json(request)
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ApiError(400, f"field {key!r} must be true or false")
    return value


def _text_field(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"field {key!r} is missing or not a text")
    return value


def _rules_from(value: object) -> Rules:
    if value is None or value == "":
        return Rules()
    if not isinstance(value, str):
        raise ApiError(400, "field 'variant' must be a text like 'classic' or 'trefoil,merci=on'")
    try:
        return Rules.parse(value)
    except LucieError as exc:
        raise ApiError(422, str(exc)) from None


def _deal_from(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ApiError(400, "field 'deal' must be a whole number")
    try:
        return check_deal_number(value)
    except LucieError as exc:
        raise ApiError(422, str(exc)) from None


def _float_param(request: Request, key: str, default: float, low: float, high: float) -> float:
    text = request.query_params.get(key)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ApiError(400, f"parameter {key!r} must be a number, not {text!r}") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ApiError(400, f"parameter {key!r} must be between {low:g} and {high:g}")
    return value


def _has_solver(name: str) -> bool:
    """Whether ``lucie.solver.<name>`` is installed (without importing it)."""
    return (importlib.util.find_spec("lucie.solver") is not None
            and importlib.util.find_spec(f"lucie.solver.{name}") is not None)


def _import_solver(name: str, what: str) -> Any:
    """The solver module ``lucie.solver.<name>``, or a 503 if it is absent."""
    module = f"lucie.solver.{name}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (exc.name == module or module.startswith(exc.name + ".")):
            raise ApiError(
                503, f"{what} needs the solver, which is not available here "
                     f"({module} is not installed)"
            ) from None
        raise


# ---------------------------------------------------------------------------
# Endpoints
# ---------------------------------------------------------------------------


Handler = Callable[[Request], Awaitable[Response]]


def api(handler: Callable[[Request], Awaitable[Any]]) -> Handler:
    """Wrap an endpoint: its result becomes JSON, an :class:`ApiError` a 4xx."""

    async def endpoint(request: Request) -> Response:
        try:
            result = await handler(request)
        except ApiError as exc:
            return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)
        if isinstance(result, Response):
            return result
        return JSONResponse(result, headers={"Cache-Control": "no-store"})

    endpoint.__name__ = handler.__name__
    return endpoint


class Api:
    """The endpoints, sharing one :class:`Registry`."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    async def _session(self, request: Request) -> Session:
        return await self.registry.get(request.path_params["game_id"])

    # -- games ------------------------------------------------------------

    async def new_game(self, request: Request) -> Any:
        data = await read_object(request)
        rules = _rules_from(data.get("variant"))
        deal = _deal_from(data.get("deal"))
        await self.registry.abandon(data.get("abandon"))
        session = await self.registry.add(Game(rules, deal))
        return state_json(session)

    async def load_game(self, request: Request) -> Any:
        data = await read_json(request)
        if isinstance(data, dict) and isinstance(data.get("text"), str):
            try:
                data = json.loads(data["text"])
            except json.JSONDecodeError as exc:
                raise ApiError(422, f"the saved game is not valid JSON: {exc.msg}") from None
        try:
            game = game_from_json(data)
        except SaveFileError as exc:
            raise ApiError(422, str(exc)) from None
        session = await self.registry.add(game)
        return state_json(session)

    async def show(self, request: Request) -> Any:
        session = await self._session(request)
        return state_json(session)

    async def _changed(self, session: Session, applied: list[Move],
                       messages: list[str]) -> dict[str, Any]:
        """Record a change and answer with the new state, the moves applied
        and what they did.  Called under ``session.lock``."""
        if applied:
            await self.registry.changed(session)
        data = state_json(session)
        data["applied"] = [str(m) for m in applied]
        data["messages"] = messages
        return data

    @staticmethod
    def _autoplay(game: Game, applied: list[Move], messages: list[str]) -> None:
        """Play the autoplay moves, noting each in ``applied`` and ``messages``."""
        for move in autoplay_moves(game.position):
            messages.append(game.describe(move))
            game.push(move)
            applied.append(move)

    async def _play(self, session: Session, move: Move, autoplay: bool) -> Any:
        """Play ``move`` (checked first: an illegal one changes nothing),
        then the autoplay moves if asked."""
        game = session.game
        async with session.lock:
            if game.resigned:
                raise ApiError(409, "the game was resigned: undo or start a new game")
            position = game.position
            why = position.why_illegal(move)
            if why is not None:
                raise ApiError(409, f"{move}: {why}", reason=why, move=str(move))
            messages = [position.describe(move)]
            game.push(move)
            applied = [move]
            if autoplay and not game.outcome.finished:
                self._autoplay(game, applied, messages)
            return await self._changed(session, applied, messages)

    async def move(self, request: Request) -> Any:
        session = await self._session(request)
        data = await read_object(request)
        text = _text_field(data, "move")
        try:
            move = Move.parse(text)
        except MoveError as exc:
            raise ApiError(400, str(exc)) from None
        return await self._play(session, move, _flag(data, "autoplay"))

    async def redeal(self, request: Request) -> Any:
        session = await self._session(request)
        data = await read_object(request)
        return await self._play(session, REDEAL, _flag(data, "autoplay"))

    async def merci(self, request: Request) -> Any:
        session = await self._session(request)
        data = await read_object(request)
        card_text = _text_field(data, "card")
        fan_text = _text_field(data, "fan").strip().lower()
        try:
            card = Card.parse(card_text)
        except LucieError as exc:
            raise ApiError(400, str(exc)) from None
        if len(fan_text) != 1 or fan_text not in FAN_NAMES:
            raise ApiError(400, f"field 'fan' must be a fan letter, not {fan_text!r}")
        move = Move.card_to_fan(card, FAN_NAMES.index(fan_text))
        return await self._play(session, move, _flag(data, "autoplay"))

    async def autoplay(self, request: Request) -> Any:
        session = await self._session(request)
        await read_object(request)
        game = session.game
        async with session.lock:
            applied: list[Move] = []
            messages: list[str] = []
            if not game.resigned:
                self._autoplay(game, applied, messages)
            return await self._changed(session, applied, messages)

    async def undo(self, request: Request) -> Any:
        session = await self._session(request)
        await read_object(request)
        async with session.lock:
            if not session.game.can_undo:
                raise ApiError(409, "nothing to undo")
            move = session.game.pop()
            await self.registry.changed(session)
            data = state_json(session)
        data["undone"] = str(move)
        return data

    async def redo(self, request: Request) -> Any:
        session = await self._session(request)
        await read_object(request)
        async with session.lock:
            if not session.game.can_redo:
                raise ApiError(409, "nothing to redo")
            try:
                move = session.game.redo()
            except MoveError as exc:  # pragma: no cover - redo replays a legal move
                raise ApiError(409, str(exc)) from None
            await self.registry.changed(session)
            data = state_json(session)
        data["applied"] = [str(move)]
        return data

    async def restart(self, request: Request) -> Any:
        session = await self._session(request)
        await read_object(request)
        async with session.lock:
            session.game.restart()
            await self.registry.changed(session)
            return state_json(session)

    async def resign(self, request: Request) -> Any:
        session = await self._session(request)
        await read_object(request)
        async with session.lock:
            if session.game.outcome.finished:
                raise ApiError(409, f"the game is already over ({session.game.outcome.status})")
            session.game.resign()
            await self.registry.changed(session)
            return state_json(session)

    async def save(self, request: Request) -> Any:
        session = await self._session(request)
        async with session.lock:
            text = save_game(session.game)
            game = session.game
        name = f"lucie-{game.rules.spec().split(',')[0]}-{game.deal or game.seed}.json"
        return Response(
            text, media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"',
                     "Cache-Control": "no-store"},
        )

    # -- the solver -----------------------------------------------------------

    async def hint(self, request: Request) -> Any:
        session = await self._session(request)
        seconds = _float_param(request, "seconds", 2.0, 0.05, MAX_THINK)
        module = _import_solver("hints", "a hint")
        position = session.game.position
        try:
            result = await anyio.to_thread.run_sync(
                lambda: module.hint(position, max_seconds=seconds)
            )
        except LucieError as exc:
            raise ApiError(422, f"no hint here: {exc}") from None
        move: Move | None = result.move
        # the hint's own JSON (as `lucie hint --json`), plus where it moves
        data: dict[str, Any] = {**result.to_json(), "card": None, "target": None}
        if move is not None and not move.is_redeal and position.is_legal(move):
            card = _moving_card(position, move)
            data["card"] = str(card)
            data["target"] = _target_key(move, card)
        return data

    async def odds(self, request: Request) -> Any:
        session = await self._session(request)
        samples = int(_float_param(request, "samples", 200, 1, 100_000))
        seconds = _float_param(request, "seconds", 10.0, 0.1, MAX_THINK)
        module = _import_solver("odds", "the odds")
        game = session.game
        position = game.position

        try:
            result = await anyio.to_thread.run_sync(
                lambda: module.estimate_odds(position, samples=samples, max_seconds=seconds)
            )
        except LucieError as exc:
            raise ApiError(422, f"no odds here: {exc}") from None
        low, high = result.ci95
        return {"win_rate": result.win_rate, "ci95": [low, high],
                "samples": result.samples, "mean_score": result.mean_score,
                "moves_played": len(game.moves)}

    # -- statistics ---------------------------------------------------------

    def _store(self) -> StoreLink:
        if self.registry.store is None:
            raise ApiError(503, "no statistics store is available")
        return self.registry.store

    async def stats(self, request: Request) -> Any:
        store = self._store()
        variant = request.query_params.get("variant")
        rules = None if variant == "all" else _rules_from(variant)
        return await store.stats(rules)

    async def history(self, request: Request) -> Any:
        store = self._store()
        variant = request.query_params.get("variant")
        rules = None if variant in (None, "", "all") else _rules_from(variant)
        limit = int(_float_param(request, "limit", 1000, 1, 100_000))
        return {"games": await store.history(rules, limit)}

    async def features(self, request: Request) -> Any:
        """What this server can do: the page hides what is missing."""
        return {"hint": _has_solver("hints"), "odds": _has_solver("odds"),
                "stats": self.registry.store is not None}

    async def variants(self, request: Request) -> Any:
        return [
            {"name": v.name, "title": v.title, "summary": v.summary,
             "spec": v.rules.spec(), "settings": v.rules.settings()}
            for v in VARIANTS.values()
        ]


# ---------------------------------------------------------------------------
# The application
# ---------------------------------------------------------------------------


class SecurityHeaders:
    """Adds a strict Content-Security-Policy (everything from this server)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"content-security-policy",
                                b"default-src 'self'; img-src 'self' data:; "
                                b"style-src 'self'; script-src 'self'; "
                                b"frame-ancestors 'none'"))
                headers.append((b"x-content-type-options", b"nosniff"))
                headers.append((b"referrer-policy", b"no-referrer"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        text = {404: f"no such API endpoint: {request.url.path}",
                405: f"{request.method} is not allowed on {request.url.path}"}.get(
            exc.status_code, str(exc.detail))
        return JSONResponse({"error": text}, status_code=exc.status_code)
    return Response(str(exc.detail), status_code=exc.status_code, media_type="text/plain")


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def create_app(
    db_path: str | Path | None = None,
    *,
    store: StoreLink | None = None,
    allowed_hosts: list[str] | None = None,
) -> Starlette:
    """The browser game's app.  ``db_path``: the SQLite store of statistics
    (``None``: games in memory only, no statistics); ``allowed_hosts``:
    the Host names accepted (guards a loopback server against DNS
    rebinding), ``None`` for any."""
    if store is None and db_path is not None:
        store = StoreLink.open(db_path)
    registry = Registry(store)
    a = Api(registry)
    game = "/api/games/{game_id}"
    routes = [
        Route("/", _index),
        Route("/stats", _index),
        Route("/api/variants", api(a.variants)),
        Route("/api/features", api(a.features)),
        Route("/api/games", api(a.new_game), methods=["POST"]),
        Route("/api/games/load", api(a.load_game), methods=["POST"]),
        Route(game, api(a.show)),
        Route(game + "/move", api(a.move), methods=["POST"]),
        Route(game + "/redeal", api(a.redeal), methods=["POST"]),
        Route(game + "/merci", api(a.merci), methods=["POST"]),
        Route(game + "/autoplay", api(a.autoplay), methods=["POST"]),
        Route(game + "/undo", api(a.undo), methods=["POST"]),
        Route(game + "/redo", api(a.redo), methods=["POST"]),
        Route(game + "/restart", api(a.restart), methods=["POST"]),
        Route(game + "/resign", api(a.resign), methods=["POST"]),
        Route(game + "/save", api(a.save)),
        Route(game + "/hint", api(a.hint)),
        Route(game + "/odds", api(a.odds)),
        Route("/api/stats", api(a.stats)),
        Route("/api/history", api(a.history)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={HTTPException: _http_error})
    app.state.registry = registry
    return app
