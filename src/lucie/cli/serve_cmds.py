"""``lucie serve``: the browser game for many players (a site), each with
their own games and statistics (:mod:`lucie.web.site`; docs/hosting.md)."""

from __future__ import annotations

import argparse
import importlib.util
import logging
import sys
from pathlib import Path
from typing import Any, Final

from lucie.cli.common import port
from lucie.errors import LucieError
from lucie.i18n import _

#: The variable that names the site's secret file (``--secret-file``).
SECRET_FILE: Final = "LUCIE_SECRET_FILE"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve", help=_("serve the browser game to many players (a site)"),
        description=_("Serve the browser game to many players: each visitor gets their own "
                      "player, kept by a signed cookie, and sees only their own games and "
                      "statistics.  Put it behind a reverse proxy with TLS to open it to the "
                      "network (see docs/hosting.md)."),
    )
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default: 127.0.0.1, this machine only)"))
    p.add_argument("--port", type=port, default=8000,
                   help=_("port to listen on (default: 8000)"))
    p.add_argument("--db", metavar="URL", default=None,
                   help=_("the players' database: a SQLite file or a postgresql:// URL "
                          "(default: user data dir)"))
    p.add_argument("--secret-file", metavar="PATH", default=None,
                   help=_("the file of the secret that signs the players' cookies, made the "
                          "first time (default: ${variable}, else site-secret in the user "
                          "data dir)").format(variable=SECRET_FILE))
    p.add_argument("--trusted-proxy", metavar="ADDRESS", action="append", default=[],
                   help=_("a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are "
                          "believed (may be repeated; default: none)"))
    p.add_argument("--address-limit", metavar="RATE", default="600/minute",
                   help=_("requests allowed per client address (default: 600/minute)"))
    p.add_argument("--player-limit", metavar="RATE", default="240/minute",
                   help=_("requests allowed per player (default: 240/minute)"))
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


def cmd_serve(args: argparse.Namespace) -> int:
    missing = [m for m in ("starlette", "uvicorn", "limits", "prometheus_client")
               if importlib.util.find_spec(m) is None]
    if missing:
        raise LucieError(
            _("lucie serve needs {modules}: install the site extra (pip install "
              "'lucie[site]')").format(modules=", ".join(missing))
        )
    import uvicorn

    from lucie.cli.web_cmds import CANCELLED_AT_EXIT, bind
    from lucie.web.app import stop_app
    from lucie.web.operate import ACCESS_LOG, rate
    from lucie.web.site import create_site, load_secret
    from lucie.web.store_link import StoreLink

    for option, value in (("--address-limit", args.address_limit),
                          ("--player-limit", args.player_limit)):
        try:
            rate(value)
        except ValueError:
            raise LucieError(_("{option} {value}: not a rate such as 240/minute").format(
                option=option, value=value)) from None
    path = secret_path(args.secret_file)
    try:
        secret = load_secret(path)
    except OSError as exc:
        raise LucieError(_("cannot read or make the secret file {file}: {error}").format(
            file=path, error=exc.strerror)) from None
    link = StoreLink.open(args.db)
    sock = bind(args.host, args.port)
    host, bound = sock.getsockname()[:2]
    app = create_site(link, secret, address_limit=args.address_limit,
                      player_limit=args.player_limit)
    log = logging.StreamHandler(sys.stdout)  # one JSON line per request
    log.setFormatter(logging.Formatter("%(message)s"))
    ACCESS_LOG.addHandler(log)
    ACCESS_LOG.setLevel(logging.INFO)
    ACCESS_LOG.propagate = False
    config = uvicorn.Config(app, log_level="warning", lifespan="on",
                            timeout_graceful_shutdown=1,
                            proxy_headers=bool(args.trusted_proxy),
                            forwarded_allow_ips=",".join(args.trusted_proxy) or None)
    logging.getLogger("uvicorn.error").addFilter(CANCELLED_AT_EXIT)
    server = uvicorn.Server(config)
    print(_("lucie: serving players at http://{host}:{port}/  (Ctrl+C to stop)").format(
        host=host, port=bound), file=sys.stderr, flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        stop_app(app)
        sock.close()
        link.close()
    return 0
