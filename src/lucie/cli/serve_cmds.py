"""``lucie serve``: the browser game for many players (a site), each with
their own games and statistics (:mod:`lucie.web.site`; docs/hosting.md)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from lucie.cli.common import add_address, count
from lucie.environment import SECRET_FILE, SERVE
from lucie.errors import LucieError
from lucie.i18n import _


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help=_("serve the browser game to many players (a site)"),
        description=_("Serve the browser game to many players: each visitor gets their own "
                      "player, kept by a signed cookie, and sees only their own games and "
                      "statistics.  Put it behind a reverse proxy with TLS to open it to the "
                      "network (see docs/hosting.md)."),
    )
    add_address(p, port_default=8000, port_help=_("port to listen on (default: 8000)"))
    p.add_argument("--db", metavar="URL", default=None,
                   help=_("the players' database: a SQLite file or a postgresql:// URL "
                          "(default: user data dir)"))
    p.add_argument("--secret-file", metavar="PATH", default=None,
                   help=_("the file of the secrets that sign the players' cookies, one a "
                          "line, the first signing; made the first time (default: "
                          "${variable}, else site-secret in the user data dir)").format(
                              variable=SECRET_FILE))
    p.add_argument("--trusted-proxy", metavar="ADDRESS", action="append", default=[],
                   help=_("a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are "
                          "believed (may be repeated; default: none)"))
    p.add_argument("--address-limit", metavar="RATE", default="600/minute",
                   help=_("requests allowed per client address (default: 600/minute)"))
    p.add_argument("--player-limit", metavar="RATE", default="240/minute",
                   help=_("requests allowed per player (default: 240/minute)"))
    p.add_argument("--workers", type=count(_("workers"), 1, 64), default=1,
                   help=_("processes serving the players (default: 1)"))
    p.add_argument("--forget-after", metavar="DAYS", type=count(_("days"), 0, 36500),
                   default=30,
                   help=_("forget anonymous players with no finished game, and deals never "
                          "played, after this many days without a change; 0: never "
                          "(default: 30)"))
    p.set_defaults(func=cmd_serve)


def secret_path(given: str | None) -> Path:
    """The secret's file: ``--secret-file``, else ``$LUCIE_SECRET_FILE``,
    else ``site-secret`` beside the default database."""
    from lucie.environment import path_setting
    from lucie.session import default_path

    if given:
        return Path(given).expanduser()
    named = path_setting(SECRET_FILE)
    return named if named is not None else default_path().with_name("site-secret")


def check_secrets(path: Path) -> None:
    """The secret file can be read (made now, once, if it is not there) and
    its secrets are long enough; else a :class:`LucieError` that says why
    (before any worker starts: a worker that cannot start is started again
    and again)."""
    from lucie.web.site import load_secrets

    try:
        load_secrets(path)
    except OSError as exc:
        raise LucieError(_("cannot read or make the secret file {file}: {error}").format(
            file=path, error=exc.strerror or exc)) from None
    except ValueError as exc:
        raise LucieError(str(exc)) from None


def check_database(db: str | None) -> None:
    """The database can be reached and is lucie's, of a schema this lucie
    knows (upgraded now if it is older: the workers find it done); else
    the store's :class:`~lucie.store.StoreError` (a :class:`LucieError`)."""
    from lucie.session import Store

    Store(db).close()


def cmd_serve(args: argparse.Namespace) -> int:
    missing = [m for m in ("starlette", "uvicorn", "limits", "prometheus_client")
               if importlib.util.find_spec(m) is None]
    if missing:
        raise LucieError(
            _("lucie serve needs {modules}: install the site extra (pip install "
              "'lucie[site]')").format(modules=", ".join(missing))
        )
    from lucie.cli.web_cmds import CANCELLED_AT_EXIT, bind
    from lucie.web.site.operate import rate

    for option, value in (("--address-limit", args.address_limit),
                          ("--player-limit", args.player_limit)):
        try:
            rate(value)
        except ValueError:
            raise LucieError(_("{option} {value}: not a rate such as 240/minute").format(
                option=option, value=value)) from None
    # checked before any worker starts (a worker that cannot start is
    # started again and again): the secrets, the database, the port
    path = secret_path(args.secret_file)
    check_secrets(path)
    check_database(args.db)
    settings = {"db": args.db, "secret_file": str(path),
                "address_limit": args.address_limit, "player_limit": args.player_limit}
    sock = bind(args.host, args.port)
    host, bound = sock.getsockname()[:2]
    from lucie.web.site.sockets import uvicorn_options

    # a request's head timed and sized, inbound frames capped, quiet
    # sockets pinged (docs/hosting.md#sockets)
    options: dict[str, Any] = {
        "log_level": "warning", "lifespan": "on", "timeout_graceful_shutdown": 1,
        "proxy_headers": bool(args.trusted_proxy),
        "forwarded_allow_ips": ",".join(args.trusted_proxy) or None, **uvicorn_options()}
    logging.getLogger("uvicorn.error").addFilter(CANCELLED_AT_EXIT)
    print(_("lucie: serving players at http://{host}:{port}/  (Ctrl+C to stop)").format(
        host=host, port=bound), file=sys.stderr, flush=True)
    if args.workers > 1:
        _run_workers(args, settings, sock, options)
    else:
        _run_one(args, settings, sock, options)
    return 0


def _run_workers(args: argparse.Namespace, settings: dict[str, Any], sock: Any,
                 options: dict[str, Any]) -> None:
    """``--workers N``: N processes on one socket, and the tidying in this one."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from lucie.session import Store
    from lucie.site.tidy import Tidying

    # each process makes its own app from the settings (uvicorn starts them
    # afresh, and starts a new one for a worker that dies); they share the
    # socket, the database and the secret
    os.environ[SERVE] = json.dumps(settings)
    config = uvicorn.Config("lucie.web.site:site_from_environment", factory=True,
                            workers=args.workers, **options)
    store = Store(args.db) if args.forget_after else None
    tidying = Tidying(store, args.forget_after).start() if store is not None else None
    try:
        Multiprocess(config, sockets=[sock]).run()
    finally:
        sock.close()
        if tidying is not None and store is not None:
            tidying.stop()
            store.close()


def _run_one(args: argparse.Namespace, settings: dict[str, Any], sock: Any,
             options: dict[str, Any]) -> None:
    """One process: the site, and the tidying on its store."""
    import uvicorn

    from lucie.site.tidy import Tidying
    from lucie.web.app import stop_app
    from lucie.web.site import site_from_settings

    app = site_from_settings(settings)
    server = uvicorn.Server(uvicorn.Config(app, **options))
    tidying = (Tidying(app.state.link.store, args.forget_after).start()
               if args.forget_after else None)
    try:
        server.run(sockets=[sock])
    finally:
        if tidying is not None:
            tidying.stop()
        stop_app(app)
        sock.close()
        app.state.link.close()
