"""The Starlette application of the browser game: the routes, the page and
the headers every answer carries.

The parts: :mod:`lucie.web.routes` (the endpoints), :mod:`lucie.web.registry`
(the games in play and their link to the store), :mod:`lucie.web.views`
(the JSON the page gets), :mod:`lucie.web.inputs` (reading and checking
a request), :mod:`lucie.web.thinking` (the solver's worker processes and
their fair shares) and :mod:`lucie.web.hosts` (the ``Host`` names a
loopback server answers to).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Final

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Receive, Scope, Send

from lucie.i18n import LANGUAGES, _, ngettext, pgettext
from lucie.web.answers import JSONAnswer
from lucie.web.challenge_routes import challenge_routes
from lucie.web.daily_routes import daily_routes
from lucie.web.errors import ApiError
from lucie.web.headers import SECURITY, with_headers
from lucie.web.hosts import HostGuard, HostNames
from lucie.web.inputs import CLIENT_COOKIE, MAX_BODY, client_cookie
from lucie.web.language import LanguageMiddleware, page_catalogue, request_language
from lucie.web.registry import MAX_GAMES, Registry, Session
from lucie.web.routes import MAX_THINK, Api, api
from lucie.web.store_link import StoreLink
from lucie.web.thinking import SolverPool
from lucie.web.views import state_json, table_json

#: A site's access log (one JSON line a request: :mod:`lucie.web.site.operate`
#: writes it in batches); the app's lifespan writes what it holds at exit.
ACCESS_LOG: Final = logging.getLogger("lucie.access")
STATIC: Final = Path(__file__).with_name("static")
TEMPLATES: Final = Path(__file__).with_name("templates")
#: The page's ES modules (``lucie.js`` imports the others), each named in
#: the page for the browser to fetch at once (``modulepreload``).
MODULES: Final = tuple(sorted(p.name for p in STATIC.glob("*.js") if p.name != "lucie.js"))


def _templates() -> Jinja2Templates:
    """The page's template, its texts marked for gettext (``jinja2.ext.i18n``)
    and translated into the language of the request being answered."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             extensions=["jinja2.ext.i18n"])
    # callables, not one catalogue: the language is each request's own
    env.install_gettext_callables(_, ngettext, pgettext=pgettext)  # type: ignore[attr-defined]
    return Jinja2Templates(env=env)


_TEMPLATES: Final = _templates()

__all__ = ["ACCESS_LOG", "MAX_BODY", "MAX_GAMES", "MAX_THINK", "STATIC", "ApiError", "Registry",
           "Session", "create_app", "state_json", "stop_app", "table_json"]


class SecurityHeaders:
    """Adds a strict Content-Security-Policy (everything from this server)
    and the other headers of :data:`lucie.web.headers.SECURITY`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, with_headers(send, SECURITY))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        if exc.status_code == 404:
            text = _("no such API endpoint: {path}").format(path=request.url.path)
        elif exc.status_code == 405:
            text = _("{method} is not allowed on {path}").format(method=request.method,
                                                                 path=request.url.path)
        else:
            text = str(exc.detail)
        return JSONAnswer({"error": text}, status_code=exc.status_code)
    return Response(str(exc.detail), status_code=exc.status_code, media_type="text/plain")


def stop_app(app: Starlette) -> None:
    """The server has stopped (call it after the server loop ends): save
    the clock of every game still being played, so it resumes from there
    after a restart (the app's lifespan does it too, when the server runs
    it), and stop the solver's workers."""
    try:
        app.state.registry.save_clocks()
    finally:
        app.state.solver.close()
        duels = getattr(app.state, "duels", None)
        if duels is not None:  # a site's: the duels' news stops
            duels.hub.close()


async def _index(request: Request) -> Response:
    """The page, in the request's language (the menu's cookie, else
    ``Accept-Language``), with its JavaScript's texts in that language."""
    language = request_language(request)
    context = {"lang": language, "languages": LANGUAGES, "catalogue": page_catalogue(language),
               "modules": MODULES}
    response = _TEMPLATES.TemplateResponse(request, "index.html", context,
                                           headers={"Cache-Control": "no-cache"})
    token = client_cookie(request)
    if token is not None:  # the page's own requests, told apart for the solver's fair shares
        response.set_cookie(CLIENT_COOKIE, token, httponly=True, samesite="strict")
    return response


def create_app(
    db_path: str | Path | None = None,
    *,
    store: StoreLink | None = None,
    allowed_hosts: list[str] | HostNames | None = None,
    solver_workers: int = 2,
    shared: bool = False,
) -> Starlette:
    """The browser game's app.  ``db_path``: the SQLite store of statistics
    (``None``: games in memory only, no statistics); ``allowed_hosts``:
    the Host names and addresses accepted (guards a loopback server against
    DNS rebinding: :mod:`lucie.web.hosts`), ``None`` for any; ``solver_workers``: the processes that
    work out hints and odds at most at once (``app.state.solver``: stop them
    with its ``close()`` when the server stops); ``shared``: the games are a
    site's, which other processes play too (:class:`Registry`)."""
    if store is None and db_path is not None:
        store = StoreLink.open(db_path)
    registry = Registry(store, shared=shared)
    pool = SolverPool(solver_workers)
    a = Api(registry, pool)
    game = "/api/games/{game_id}"
    routes = [
        Route("/", _index),
        Route("/stats", _index),
        Route("/daily", _index),
        *daily_routes(a),
        *challenge_routes(a, _index),
        Route("/duel/{token}", _index),  # a duel's link (lucie.web.site.duel, on a site)
        Route("/api/variants", api(a.variants)),
        Route("/api/features", api(a.features)),
        Route("/api/games", api(a.new_game), methods=["POST"]),
        Route("/api/games/load", api(a.load_game), methods=["POST"]),
        Route(game, api(a.show)),
        Route(game + "/move", api(a.move), methods=["POST"]),
        Route(game + "/redeal", api(a.redeal), methods=["POST"]),
        Route(game + "/merci", api(a.merci), methods=["POST"]),
        Route(game + "/autoplay", api(a.autoplay), methods=["POST"]),
        Route(game + "/home", api(a.send_home), methods=["POST"]),
        Route(game + "/visibility", api(a.visibility), methods=["POST"]),
        Route(game + "/undo", api(a.undo), methods=["POST"]),
        Route(game + "/redo", api(a.redo), methods=["POST"]),
        Route(game + "/restart", api(a.restart), methods=["POST"]),
        Route(game + "/resign", api(a.resign), methods=["POST"]),
        Route(game + "/save", api(a.save)),
        Route(game + "/hint", api(a.hint, thinks=True)),
        Route(game + "/odds", api(a.odds, thinks=True)),
        Route(game + "/review", api(a.review, thinks=True)),
        Route(game + "/difficulty", api(a.difficulty, thinks=True)),
        Route("/api/history/{store_id}/review", api(a.review_stored, thinks=True)),
        Route("/api/stats", api(a.stats)),
        Route("/api/history", api(a.history)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders), Middleware(LanguageMiddleware)]
    if allowed_hosts:
        if not isinstance(allowed_hosts, HostNames):
            allowed_hosts = HostNames.of(allowed_hosts)
        middleware.insert(0, Middleware(HostGuard, allowed=allowed_hosts))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        # the server is stopping: the clocks of the games in play are saved
        await asyncio.to_thread(registry.save_clocks)
        # and a site's access log (written in batches) writes what it holds:
        # on SIGTERM uvicorn ends the process by that signal right after
        # this, so no exit handler would
        for handler in ACCESS_LOG.handlers:
            handler.flush()

    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: _http_error})
    # its game's endpoints (a site's duels ask them), registry and solver
    app.state.api, app.state.registry, app.state.solver = a, registry, pool
    return app
