"""``lucie serve`` checks what it needs before it starts a worker (issue
48): the secret file, the database, the port.  A bad one is one ``lucie:
error:`` line and exit 2, with one worker and with two (where a worker
that cannot start used to be started again and again)."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.store.conftest import pg_fresh, postgres_server  # noqa: F401 - fixtures

from lucie.store import SCHEMA_VERSION, Store

#: How long a refused start may take (it takes about a second).
LIMIT = 60

#: A secret long enough.
GOOD = "a secret long enough for the site\n"


def serve(tmp_path: Path, workers: int, *, db: str | None = None, secret: Path | None = None,
          port: int = 0) -> subprocess.CompletedProcess[str]:
    """``lucie serve`` with these settings (the others good), to its end."""
    if secret is None:
        secret = tmp_path / "good-secret"
        secret.write_text(GOOD)
    return subprocess.run(
        [sys.executable, "-m", "lucie", "serve", "--port", str(port), "--workers", str(workers),
         "--db", db or str(tmp_path / "good.sqlite3"), "--secret-file", str(secret)],
        capture_output=True, text=True, timeout=LIMIT, check=False)


def refused(done: subprocess.CompletedProcess[str], *words: str) -> None:
    """``done`` said exactly one error line, holding ``words``, and exited 2."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("lucie: error: "), done.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture(params=[1, 2], ids=["one-worker", "two-workers"])
def workers(request: pytest.FixtureRequest) -> int:
    return int(request.param)


def _secret(tmp_path: Path, content: str | bytes | None) -> Path:
    path = tmp_path / "secret"
    if content is None:
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


@pytest.mark.parametrize(("content", "words"), [
    ("short\n", ("too short", "line 1")),
    (GOOD + "\nalso short\n", ("too short", "line 3")),
    ("# the secrets go here\n", ("no secret",)),
    (b"\xff\xfe\x00binary" * 4, ("not a text file",)),
    (None, ("secret file",)),  # a directory
], ids=["short", "second-short", "comments-only", "binary", "directory"])
def test_a_bad_secret_file_is_one_error_line(tmp_path: Path, workers: int,
                                             content: str | bytes | None,
                                             words: tuple[str, ...]) -> None:
    path = _secret(tmp_path, content)
    refused(serve(tmp_path, workers, secret=path), str(path), *words)
    assert not (tmp_path / "good.sqlite3").exists()  # checked first: nothing made


def _foreign_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
    conn.commit()
    conn.close()


def _newer(path: Path) -> None:
    Store(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()


@pytest.mark.parametrize(("make", "words"), [
    (lambda p: p.write_text("not a database\n"), ("not a SQLite database",)),
    (lambda p: p.write_bytes(b""), ("empty file",)),
    (_foreign_sqlite, ("not a lucie games database",)),
    (_newer, ("newer lucie",)),
    (lambda p: p.mkdir(), ("directory",)),
], ids=["text-file", "empty-file", "foreign-sqlite", "newer-schema", "directory"])
def test_a_bad_sqlite_database_is_one_error_line(tmp_path: Path, workers: int,
                                                 make: Callable[[Path], object],
                                                 words: tuple[str, ...]) -> None:
    db = tmp_path / "site.sqlite3"
    make(db)
    refused(serve(tmp_path, workers, db=str(db)), str(db), *words)


def test_an_unreachable_postgresql_is_one_error_line(tmp_path: Path, workers: int) -> None:
    pytest.importorskip("psycopg")
    url = f"postgresql://lucie@/lucie?host={tmp_path / 'no-server-here'}"
    refused(serve(tmp_path, workers, db=url), "cannot open the database")


def test_another_programs_postgresql_is_one_error_line(
        tmp_path: Path, workers: int, pg_fresh: Callable[[], str],  # noqa: F811
) -> None:
    import psycopg

    url = pg_fresh()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT)")
    refused(serve(tmp_path, workers, db=url), "not a lucie games database", "books")


@pytest.fixture
def taken_port() -> Iterator[int]:
    """A port of 127.0.0.1 another program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen(1)
        yield int(other.getsockname()[1])


def test_a_port_in_use_is_one_error_line(tmp_path: Path, workers: int, taken_port: int) -> None:
    refused(serve(tmp_path, workers, port=taken_port), "cannot listen", str(taken_port))
