"""lucie's environment variables, each named once, and the one way they
are read.

============== ===========================================================
``LUCIE_DB``     the games database (:func:`lucie.store.default_path`)
``LUCIE_PLAYER`` the player's name when none is given (else the login name)
``LUCIE_CACHE``  the odds cache (``off`` for none; :mod:`lucie.analysis.cache`)
``LUCIE_CONFIG`` the terminal game's settings file (:mod:`lucie.tui.settings`)
``LUCIE_SITES``  the sites' player cookies of ``lucie play --duel`` (:mod:`lucie.tui.remote`)
``LUCIE_PURE``   ``1``: ignore the compiled search (:mod:`lucie.solver._native`)
``LUCIE_SECRET_FILE`` the secret of ``lucie serve``'s cookies (``--secret-file``)
``LUCIE_SERVE``  set by ``lucie serve --workers`` for its processes: their settings (JSON)
``LUCIE_DUEL_NEWS_KEEP`` seconds a SQLite site keeps duels' news (60; :mod:`lucie.site.duel_hub`)
============== ===========================================================

>>> setting(DB, {"LUCIE_DB": "  "}) is None
True
>>> str(path_setting(DB, {"LUCIE_DB": "/tmp/games.sqlite3"}))
'/tmp/games.sqlite3'
>>> flag(PURE, {"LUCIE_PURE": "0"}), flag(PURE, {"LUCIE_PURE": "1"})
(False, True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

DB: Final = "LUCIE_DB"
PLAYER: Final = "LUCIE_PLAYER"
CACHE: Final = "LUCIE_CACHE"
CONFIG: Final = "LUCIE_CONFIG"
SITES: Final = "LUCIE_SITES"
PURE: Final = "LUCIE_PURE"
SECRET_FILE: Final = "LUCIE_SECRET_FILE"
SERVE: Final = "LUCIE_SERVE"
DUEL_NEWS_KEEP: Final = "LUCIE_DUEL_NEWS_KEEP"


def setting(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The value of the variable ``name``, stripped; None when unset or blank."""
    value = (os.environ if environ is None else environ).get(name, "").strip()
    return value or None


def path_setting(name: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """The path the variable ``name`` gives (``~`` expanded), or None."""
    value = setting(name, environ)
    return Path(value).expanduser() if value is not None else None


def flag(name: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the variable ``name`` is set to something other than ``0``."""
    return setting(name, environ) not in {None, "0"}


__all__ = ["CACHE", "CONFIG", "DB", "DUEL_NEWS_KEEP", "PLAYER", "PURE", "SECRET_FILE", "SERVE",
           "SITES", "flag",
           "path_setting", "setting"]
