"""Settings for the whole test suite."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests expect English: the developer's own locale (``LANG=fr_FR``...)
    must not choose the command line's language (see ``lucie.cli.language``);
    a test that wants another language sets it, and subprocesses inherit this."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
