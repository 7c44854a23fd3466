"""The terminal game (Textual): ``lucie`` or ``lucie play``.

:func:`run` opens the store (``--db`` or the default file), resumes the
player's unfinished game or deals a new one, and runs :class:`LucieApp`.
The language is the one ``--lang`` asks for, else the one chosen in the
game (F9, remembered in the settings file), else the user's locale (which
the command line has already set).
"""

from __future__ import annotations

import argparse
import sys

from lucie.errors import LucieError
from lucie.i18n import _
from lucie.session import Store, default_player
from lucie.tui.app import LucieApp
from lucie.tui.settings import default_settings_path

__all__ = ["LucieApp", "run", "run_duel"]


def run(args: argparse.Namespace) -> int:
    """Run the game for the parsed ``lucie play`` arguments; returns the
    exit status.  A database that cannot be used raises
    :class:`~lucie.store.StoreError` (exit status 2, nothing overwritten)."""
    db = getattr(args, "db", None)
    store = Store(db or None)  # a SQLite file or a postgresql:// URL
    try:
        app = LucieApp(
            store,
            getattr(args, "player", None) or default_player(),
            getattr(args, "variant", None),
            getattr(args, "deal", None),
            language=getattr(args, "lang", None),
            settings=default_settings_path(),
        )
        result = app.run()
    finally:
        store.close()
    return int(result or 0)


def run_duel(args: argparse.Namespace, *, terminal: bool) -> int:
    """``lucie play --duel LINK``: join the duel of the link (or resume this
    player's side of it) and play it (``terminal``: standard input and
    output are a terminal).  A bad link, or a duel the site refuses
    (unknown, full), raises :class:`~lucie.errors.LucieError` (exit status
    2); a site that cannot be reached is said in one line, exit status 1."""
    from lucie.tui.duel import DuelApp
    from lucie.tui.remote import DuelLink, SiteDown, open_duel, sites_path

    link = DuelLink.parse(args.duel)
    try:
        start = open_duel(link, sites_path())
    except SiteDown as exc:
        print(_("lucie: error: {message}").format(message=exc), file=sys.stderr)
        return 1
    if not terminal:
        raise LucieError(_("lucie play --duel plays in a terminal: standard input and "
                           "output must be one (the duel is joined: run it again there)"))
    app = DuelApp(start, language=getattr(args, "lang", None),
                  settings=default_settings_path())
    return int(app.run() or 0)
