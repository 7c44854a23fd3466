"""The terminal game's settings file: what the player chose in the game
(for now the language), remembered for the next start.

A small JSON object in the user's configuration directory (found with
``platformdirs``): ``{"format": "lucie-settings", "language": "de"}``.
Other keys in it are kept when it is written.

The file is read through :func:`lucie.files.read_bytes` (a pipe, a device,
a symbolic-link loop or a dangling link is refused, at most
:data:`MAX_BYTES` are read) and :func:`lucie.parsing.parse_json` (at most
:data:`~lucie.parsing.MAX_DEPTH` levels of nesting).  A file that cannot
be read is reported and left as it is.  lucie writes the file only when it
is its own: missing, empty, marked with ``"format": "lucie-settings"``, or
an object holding nothing but lucie's keys (a file of an older lucie); any
other file (a text file, a ``package.json``) is never overwritten.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Final

from lucie.environment import CONFIG, path_setting
from lucie.errors import LucieError
from lucie.files import describe, examine, read_bytes
from lucie.i18n import LANGUAGES, _
from lucie.parsing import parse_json, printable

__all__ = ["MAX_BYTES", "Settings", "default_settings_path"]

#: The largest settings file read (lucie's own is a few dozen bytes).
MAX_BYTES: Final = 64 * 1024
#: The mark of lucie's settings file.
FORMAT: Final = "lucie-settings"
#: The keys lucie writes (a file with only these is lucie's, mark or not).
KEYS: Final = frozenset({"format", "language"})


def default_settings_path() -> Path:
    """``settings.json`` in lucie's configuration directory
    (``$LUCIE_CONFIG`` if set)."""
    env = path_setting(CONFIG)
    if env is not None:
        return env
    import platformdirs

    return Path(platformdirs.user_config_dir("lucie", appauthor=False)) / "settings.json"


class Settings:
    """The settings in ``path`` (None: kept in memory only).

    >>> s = Settings(None)
    >>> s.language() is None, s.set_language("nl"), s.language()
    (True, None, 'nl')
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.values: dict[str, Any] = {}
        self._error: str | None = None
        #: Why the file may not be written (None: it may).
        self._foreign: str | None = None
        if path is None:
            return
        what = _("the settings file")
        try:
            if examine(path, what=what) is None:
                return
            data = read_bytes(path, what=what, limit=MAX_BYTES)
        except LucieError as exc:
            self._error = self._foreign = str(exc)
            return
        if not data.strip():
            return  # an empty file: lucie's to write
        try:
            values = parse_json(data, what=what)
        except LucieError as exc:
            self._error = str(exc)
            self._foreign = describe(data)
            return
        if not isinstance(values, dict):
            self._error = _("not a JSON object")
            self._foreign = describe(data)
            return
        if values.get("format") != FORMAT and not set(values) <= KEYS:
            self._foreign = _("a JSON document of another program")
        self.values = values

    @property
    def problem(self) -> str | None:
        """Why the file could not be read, in the language in use (or None)."""
        if self._error is None:
            return None
        return _("The settings file {path} could not be read ({error}); "
                 "it is left as it is.").format(path=self.path, error=printable(self._error))

    def language(self) -> str | None:
        """The language the player chose, if any."""
        code = self.values.get("language")
        return code if isinstance(code, str) and code in LANGUAGES else None

    def set_language(self, code: str) -> str | None:
        """Remember ``code``; returns a message if it could not be saved."""
        self.values["language"] = code
        return self._save()

    def _save(self) -> str | None:
        if self.path is None:
            return None
        if self._foreign is not None:
            return _("The settings were not saved: {path} is not lucie's settings file "
                     "({what}), and lucie does not overwrite it. Move it away, or set "
                     "LUCIE_CONFIG to another file.").format(
                         path=self.path, what=printable(self._foreign))
        self.values = {"format": FORMAT,
                       **{k: v for k, v in self.values.items() if k != "format"}}
        # a link to the file: the file it points to is written, the link stays
        target = Path(os.path.realpath(self.path)) if self.path.is_symlink() else self.path
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".settings-", dir=target.parent)
        except OSError as exc:
            return _("Could not save the settings in {path}: {error}").format(
                path=self.path, error=exc)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.values, out, indent=1, ensure_ascii=False)
                out.write("\n")
            os.replace(tmp, target)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            return _("Could not save the settings in {path}: {error}").format(
                path=self.path, error=exc)
        self._error = None
        return None
