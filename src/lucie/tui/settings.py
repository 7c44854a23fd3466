"""The terminal game's settings file: what the player chose in the game
(for now the language), remembered for the next start.

A small JSON object in the user's configuration directory (found with
``platformdirs``): ``{"language": "de"}``.  A file that cannot be read is
reported and left as it is until the player chooses again; other keys in it
are kept when it is written.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from lucie.i18n import LANGUAGES, _

__all__ = ["Settings", "default_settings_path"]


def default_settings_path() -> Path:
    """``settings.json`` in lucie's configuration directory
    (``$LUCIE_CONFIG`` if set)."""
    env = os.environ.get("LUCIE_CONFIG")
    if env:
        return Path(env).expanduser()
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
        if path is None or not path.exists():
            return
        try:
            values = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(values, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as exc:
            self._error = str(exc)
            return
        self.values = values

    @property
    def problem(self) -> str | None:
        """Why the file could not be read, in the language in use (or None)."""
        if self._error is None:
            return None
        return _("The settings file {path} could not be read ({error}); "
                 "it is left as it is.").format(path=self.path, error=self._error)

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
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".settings-", dir=self.path.parent)
        except OSError as exc:
            return _("Could not save the settings in {path}: {error}").format(
                path=self.path, error=exc)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(self.values, out, indent=1, ensure_ascii=False)
                out.write("\n")
            os.replace(tmp, self.path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            return _("Could not save the settings in {path}: {error}").format(
                path=self.path, error=exc)
        self._error = None
        return None
