"""The value cache: samples add up across instances and processes."""

from __future__ import annotations

import random
import sqlite3
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from lucie.errors import LucieError
from lucie.rules import Rules
from lucie.solver.cache import ValueCache, default_cache_path
from lucie.solver.odds import Evaluator

KEY = ("classic", (5, 6, 7, 8), 1, False)


def _add_samples(path: str, n: int) -> None:
    cache = ValueCache(path)
    for i in range(n):
        cache.add(KEY, float(i % 2))
    cache.flush()


def test_samples_persist_and_add_up(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    first = ValueCache(path)
    first.add(KEY, 1.0)
    first.add(KEY, 0.0)
    assert first.flush() == 1
    second = ValueCache(path)
    assert second.get(KEY) == (1.0, 2)
    second.add(KEY, 1.0)
    second.flush()
    first.add(KEY, 1.0)  # first never saw second's sample: its flush adds, not overwrites
    first.flush()
    assert ValueCache(path).get(KEY) == (3.0, 4)


def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(_add_samples, [path] * 4, [25] * 4))
    total, count = ValueCache(path).get(KEY) or (0.0, 0)
    assert count == 100 and total == 48.0


def test_values_get_cheaper_with_use(tmp_path: Path) -> None:
    """A second evaluator on the same file answers without solving."""
    path = tmp_path / "c.sqlite"
    found = (11, 10, 12, 11)
    ev = Evaluator(Rules(), ValueCache(path), rng=random.Random(1), target=12)
    value = ev.value(found, 1, False)
    assert ev.solves > 0
    ev.cache.flush()
    again = Evaluator(Rules(), ValueCache(path), rng=random.Random(2), target=12)
    assert again.value(found, 1, False) == value
    # suit symmetry: the same state with the suits permuted is the same entry
    assert again.value((10, 11, 11, 12), 1, False) == value
    assert again.solves == 0


def test_env_var_and_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUCIE_CACHE", str(tmp_path / "x.sqlite"))
    assert default_cache_path() == tmp_path / "x.sqlite"
    monkeypatch.setenv("LUCIE_CACHE", "off")
    assert default_cache_path() is None
    memory = ValueCache.default()
    memory.add(KEY, 1.0)
    assert memory.flush() == 0 and memory.get(KEY) == (1.0, 1)


def test_a_file_that_is_not_a_cache(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_text("this is not sqlite " * 100)
    cache = ValueCache(bad)
    with pytest.raises(LucieError, match="odds cache"):
        cache.get(KEY)
    # and a cache from a newer algorithm is ignored, not misread
    path = tmp_path / "c.sqlite"
    _add_samples(str(path), 2)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE state_values SET version = version + 1")
    assert ValueCache(path).get(KEY) is None
