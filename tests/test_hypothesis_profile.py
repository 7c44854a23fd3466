"""The Hypothesis profile of continuous integration (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
SHOW = ("import sys; sys.path.insert(0, sys.argv[1]); import conftest; "
        "from hypothesis import settings; d = settings.default; "
        "print(d.derandomize, d.max_examples, d.deadline, d.database)")


def default_settings(ci: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run([sys.executable, "-c", SHOW, str(TESTS)], env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.parametrize("ci", ["true", "1"])
def test_ci_runs_a_fixed_derandomized_profile(ci: str) -> None:
    assert default_settings(ci) == "True 100 None None"


def test_elsewhere_hypothesis_explores_at_random() -> None:
    assert default_settings(None).startswith("False ")
