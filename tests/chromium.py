"""Chromium for the browser tests: where it is, how it is started, and
what a test module gets where it is missing.

A test module that imports this one is skipped when ``/usr/bin/chromium``
(Debian's ``chromium``) or Playwright is absent, and fails instead with
``LUCIE_REQUIRE_BROWSER=1`` (``.ci/run`` sets it: there a missing browser
is a broken machine, not a reason to skip).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
#: Headless, with nothing that reaches out to the internet.
ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]

if not CHROMIUM.exists():
    if os.environ.get("LUCIE_REQUIRE_BROWSER") == "1":
        raise RuntimeError(f"LUCIE_REQUIRE_BROWSER=1 but {CHROMIUM} is missing")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); "
                "set LUCIE_REQUIRE_BROWSER=1 to make this a failure", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")
