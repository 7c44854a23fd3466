"""The terminal game (Textual): ``lucie`` or ``lucie play``.

:func:`run` opens the store (``--db`` or the default file), resumes the
player's unfinished game or deals a new one, and runs :class:`LucieApp`.
The language is the one ``--lang`` asks for, else the one chosen in the
game (F9, remembered in the settings file), else the user's locale (which
the command line has already set).
"""

from __future__ import annotations

import argparse

from lucie.session import Store, default_player
from lucie.tui.app import LucieApp
from lucie.tui.settings import default_settings_path

__all__ = ["LucieApp", "run"]


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
