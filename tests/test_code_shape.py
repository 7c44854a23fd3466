"""The shape of the code that `make lint` checks: no dead code (vulture,
with ``scripts/vulture_whitelist.py`` for what is used only by name)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHITELIST = ROOT / "scripts" / "vulture_whitelist.py"


def _vulture(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vulture", *map(str, paths)],
        capture_output=True, text=True, check=False, timeout=300,
    )


def test_no_dead_code() -> None:
    """Whatever vulture finds unused in src/lucie is either removed or, when
    it is used by name (Textual, gymnasium, sqlite, Babel, tested public
    API), listed in the whitelist."""
    done = _vulture(ROOT / "src" / "lucie", WHITELIST)
    assert done.returncode == 0, done.stdout + done.stderr


def test_vulture_sees_an_unused_function(tmp_path: Path) -> None:
    (tmp_path / "dead.py").write_text(
        "def used() -> int:\n    return 1\n\n\n"
        "def never_called() -> int:\n    return used()\n\n\nprint(used())\n"
    )
    done = _vulture(tmp_path / "dead.py", WHITELIST)
    assert done.returncode != 0 and "never_called" in done.stdout
    assert "'used'" not in done.stdout
