"""``lucie web``: serve the browser game on this machine and open it."""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import logging
import socket
import sys
import threading
import urllib.parse
import webbrowser
from typing import Any

from lucie.cli.common import add_address, add_deal, add_variant
from lucie.errors import LucieError
from lucie.i18n import _
from lucie.rules import Rules


def register(sub: Any) -> None:
    p = sub.add_parser(
        "web", help=_("play in the browser (serves the game on this machine)"),
        description=_("Serve the browser game on this machine (127.0.0.1, a free port, "
                      "unless --host/--port say otherwise), print its address and open it "
                      "in the browser.  Statistics go to the same database as the terminal "
                      "game."),
    )
    add_address(p, port_default=0, port_help=_("port to listen on (default: a free one)"))
    p.add_argument("--no-browser", action="store_true", help=_("do not open the browser"))
    p.add_argument("--db", metavar="PATH", default=None,
                   help=_("statistics and saved-games database (default: user data dir)"))
    p.add_argument("--player", default=None, help=_("player name for the statistics"))
    add_variant(p)
    add_deal(p)
    p.set_defaults(func=cmd_web)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (port 0: a free one)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise LucieError(_("--host {host}: cannot resolve it ({error})").format(
            host=host, error=exc.strerror)) from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise LucieError(_("cannot listen on {host} port {port}: {error}").format(
            host=host, port=port, error=exc.strerror)) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def start_url(host: str, port: int, rules: Rules | None, deal: int | None) -> str:
    """The address to open; ``variant``/``deal`` start that game.

    >>> start_url("127.0.0.1", 8000, Rules.parse("trefoil"), 7)
    'http://127.0.0.1:8000/?variant=trefoil&deal=7'
    """
    shown = host
    if host in ("0.0.0.0", "::", ""):
        shown = "127.0.0.1"
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    query: dict[str, str] = {}
    if rules is not None:
        query["variant"] = rules.spec()
    if deal is not None:
        query["deal"] = str(deal)
    tail = "?" + urllib.parse.urlencode(query, safe=",=") if query else ""
    return f"http://{shown}:{port}/{tail}"


class _CancelledAtExit(logging.Filter):
    """Drop the report of what Ctrl+C cancelled: a request (a body never
    sent, a search running), or the app's lifespan when a second Ctrl+C
    forces the exit (uvicorn then skips the lifespan's shutdown, and
    Starlette reports the cancelled lifespan as a traceback in text, with
    no exception attached; ``stop_app`` then saves the clocks).  Stopping
    cancels them on purpose, and that is not an error to print."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, asyncio.CancelledError):
            return False
        text = record.msg
        return not (isinstance(text, str) and text.startswith("Traceback")
                    and text.rstrip().endswith("CancelledError"))


#: one filter, added once to uvicorn's logger however often ``cmd_web`` runs
CANCELLED_AT_EXIT = _CancelledAtExit()


def cmd_web(args: argparse.Namespace) -> int:
    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise LucieError(
            _("lucie web needs {modules}: install the web extra (pip install "
              "'lucie[web]')").format(modules=", ".join(missing))
        )
    import uvicorn

    from lucie.web.app import create_app, stop_app
    from lucie.web.hosts import served_names
    from lucie.web.store_link import StoreLink

    host: str = args.host
    link = StoreLink.open(args.db, args.player)
    sock = bind(host, args.port)
    port = sock.getsockname()[1]
    # on a loopback address, only the names of that address are answered
    # (against DNS rebinding); any other bind reaches the network: warned
    allowed = served_names(host, sock.getsockname()[0])
    app = create_app(store=link, allowed_hosts=allowed)
    url = start_url(host, port, args.variant, args.deal)
    if allowed is None:
        print(_("warning: listening on {host}, so other machines can reach the game "
                "and your statistics; use --host 127.0.0.1 to keep it on this machine")
              .format(host=host), file=sys.stderr)
    # Ctrl+C: in-flight requests get a moment, then are cancelled (a search
    # in progress with them: its worker process is killed).  The lifespan
    # saves the clocks while the server stops (SIGTERM ends the process
    # before the ``finally`` below runs)
    config = uvicorn.Config(app, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=1)
    logging.getLogger("uvicorn.error").addFilter(CANCELLED_AT_EXIT)
    pool = app.state.solver

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if not self.started:
                return
            # the address once the server answers (and Ctrl+C is the server's)
            print(_("lucie: the game is at {url}  (Ctrl+C to stop)").format(url=url),
                  flush=True)
            print(_("lucie: statistics in {file}").format(file=link.store.where),
                  flush=True)
            if not args.no_browser:  # (a thread: a browser may take its time to start)
                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

        def handle_exit(self, sig: int, frame: Any) -> None:
            super().handle_exit(sig, frame)
            pool.stop_now()  # a search in progress ends now, its request with it

    server = Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        stop_app(app)  # saves the clocks of the games in play, stops the solver
        sock.close()
        link.close()
    return 0
