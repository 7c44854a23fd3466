"""Fixtures of the store tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lucie.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "games.sqlite3")
    yield s
    s.close()
