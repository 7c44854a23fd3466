"""The value cache: samples add up across instances and processes; a damaged
file or row is set aside or ignored, never used, never a traceback."""

from __future__ import annotations

import random
import sqlite3
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from lucie.analysis.cache import CacheError, ValueCache, default_cache_path
from lucie.analysis.odds import Evaluator
from lucie.rules import Rules

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


def _put(path: Path, *rows: tuple[object, ...]) -> None:
    """Write raw rows (version, rules, foundations, redeals, merci, total, count)."""
    with sqlite3.connect(path) as conn:
        conn.executemany("INSERT OR REPLACE INTO state_values VALUES (?,?,?,?,?,?,?)", rows)
    conn.close()


@pytest.mark.parametrize("content", [
    b"this is not sqlite " * 100,
    b"SQLite format 3\x00" + b"\x00" * 20,  # a header cut short
])
def test_a_file_that_is_not_a_cache_is_left_alone(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str],
) -> None:
    """lucie never renames or writes a file it did not create (issue 36):
    check() refuses it naming its kind; an unchecked cache keeps its values
    in memory, with one warning."""
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(content)
    with pytest.raises(CacheError, match="not an odds cache; it was left untouched"):
        ValueCache(bad).check()
    cache = ValueCache(bad)
    assert cache.get(KEY) is None  # no error
    cache.add(KEY, 1.0)
    assert cache.flush() == 0 and cache.get(KEY) == (1.0, 1) and cache.path is None
    assert bad.read_bytes() == content and [p.name for p in tmp_path.iterdir()] == [bad.name]
    err = capsys.readouterr().err
    assert err.count("lucie: warning:") == 1 and "Traceback" not in err


def test_a_cache_from_a_newer_algorithm_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    _add_samples(str(path), 2)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE state_values SET version = version + 1")
    conn.close()
    assert ValueCache(path).get(KEY) is None


def test_another_programs_database_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (id INTEGER, name TEXT)")
        conn.execute("INSERT INTO games VALUES (1, 'x')")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(CacheError, match=r"another program's SQLite database \(tables: games\)"):
        ValueCache(path).check()
    cache = ValueCache(path)
    cache.add(KEY, 1.0)
    cache.flush()
    assert path.read_bytes() == before and not list(tmp_path.glob("c.sqlite.damaged-*"))


def test_a_truncated_cache_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = ValueCache(path)
    for a in range(14):
        for b in range(14):
            cache.add(("classic", (a, b, 5, 5), 1, False), 0.5)
    cache.flush()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2])
    fresh = ValueCache(path)
    assert fresh.get(("classic", (1, 1, 5, 5), 1, False)) is None
    assert list(tmp_path.glob("c.sqlite.damaged-*"))
    assert fresh.warnings


@pytest.mark.parametrize("row", [
    (1, "classic", "5.6.7.8", 1, 0, "abc", 3),       # text for the total
    (1, "classic", "5.6.7.8", 1, 0, 2.0, -3),        # negative count
    (1, "classic", "5.6.7.8", 1, 0, 9.0, 3),         # total above the count
    (1, "classic", "5.6.7.8", 1, 0, -1.0, 3),        # negative total
    (1, "classic", "5.6.7.8", 1, 0, float("inf"), 3),
    (1, "classic", "5.6.7.8", 1, 0, None, 3),        # NaN is stored as NULL
    (1, "classic", "5.6.7.8", 1, 0, 1.0, 0),         # no sample
    (1, "classic", "5.6.7.8", 1, 0, 1.0, "many"),
    (1, "classic", "5.6.7.8", "one", 0, 1.0, 2),
    (1, "classic", "5.6.7.8", 1, 7, 1.0, 2),         # merci neither 0 nor 1
    (1, "classic", "5.6.7.99", 1, 0, 1.0, 2),        # foundation above king
    (1, "classic", "5.6.7", 1, 0, 1.0, 2),
    (1, "classic", b"\xff\xfe", 1, 0, 1.0, 2),     # a blob
])
def test_damaged_rows_are_ignored_reported_and_removed(
    tmp_path: Path, row: tuple[object, ...], capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "c.sqlite"
    other = ("classic", (1, 2, 3, 4), 0, False)
    _add_samples(str(path), 2)
    good = ValueCache(path)
    good.add(other, 1.0)
    good.flush()
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM state_values WHERE foundations = '5.6.7.8'")
    conn.close()
    _put(path, row)
    cache = ValueCache(path)
    assert cache.get(KEY) is None  # never used
    assert cache.get(other) == (1.0, 1)  # the sound rows are
    assert len(cache.warnings) == 1 and "damaged" in cache.warnings[0]
    cache.add(KEY, 1.0)
    cache.flush()
    again = ValueCache(path)
    assert again.get(KEY) == (1.0, 1) and not again.warnings  # removed, not added to
    assert "Traceback" not in capsys.readouterr().err


def test_an_unusable_place_keeps_the_cache_in_memory(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for path in (tmp_path / "file" / "c.sqlite", tmp_path):  # parent is a file; a directory
        cache = ValueCache(path)
        cache.add(KEY, 1.0)
        assert cache.flush() == 0 and cache.get(KEY) == (1.0, 1)
        assert cache.path is None and cache.warnings
    assert (tmp_path / "file").read_text() == "x"
