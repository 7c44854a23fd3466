"""The shape of the code that `make lint` checks: no dead code (vulture,
with ``scripts/vulture_whitelist.py`` for what is used only by name) and no
function body over 60 lines (``scripts/check_function_length.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHITELIST = ROOT / "scripts" / "vulture_whitelist.py"
LENGTH_CHECK = ROOT / "scripts" / "check_function_length.py"

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


def _length_check(*args: str | Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(LENGTH_CHECK), *map(str, args)],
        capture_output=True, text=True, check=False, timeout=300, cwd=cwd,
    )


def test_no_function_is_longer_than_60_lines() -> None:
    """Each step of the code stays readable (issue 39): no function body in
    src/ longer than 60 lines, docstring excluded."""
    done = _length_check("src")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_length_check_sees_a_long_function(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "skipped").mkdir(parents=True)

    def source(name: str, n: int) -> str:
        body = "\n".join(f"    x{i} = {i}" for i in range(n))
        return f'def {name}() -> None:\n    """Doc."""\n{body}\n'

    (src / "long.py").write_text(source("long", 61))
    (src / "short.py").write_text(source("short", 60))
    (src / "skipped" / "long.py").write_text(source("skipped", 61))
    done = _length_check("src", "--exclude", "src/skipped", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == ["src/long.py:1 long (61 lines)"]
    assert _length_check("src", cwd=tmp_path).stdout.count("\n") == 2
