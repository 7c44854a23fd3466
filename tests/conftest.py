"""Settings for the whole test suite."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

#: Continuous integration (``CI=true``, as GitHub Actions, GitLab CI and most
#: others set it) runs Hypothesis the same way every time: derandomized (the
#: examples come from each test's name, so a failure is a failure of the
#: commit, not of the draw), a fixed number of examples where a test does not
#: set its own, no deadline (a shared runner's pauses are not bugs), no
#: example database.  Elsewhere the default profile explores at random.
settings.register_profile(
    "ci", derandomize=True, max_examples=100, deadline=None, database=None,
    print_blob=True, suppress_health_check=[HealthCheck.too_slow],
)
if os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}:
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests expect English: the developer's own locale (``LANG=fr_FR``...)
    must not choose the command line's language (see ``lucie.cli.language``);
    a test that wants another language sets it, and subprocesses inherit this."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
