"""Fixtures of the store tests: every store test runs on both backends.

``store`` (and ``where``, ``fresh``) are parametrised over SQLite and
PostgreSQL.  The PostgreSQL half starts a real server from Debian's
``postgresql`` package (``initdb``, ``pg_ctl`` under
``/usr/lib/postgresql/*/bin``, or ``$LUCIE_PG_BIN``) once per test session
(per xdist worker), in a temporary folder, listening on a Unix socket
only; each test gets a database of its own.  ``initdb`` refuses to run as
root: as root the server runs as the ``postgres`` user (else ``nobody``).
Without the binaries the PostgreSQL half is skipped, saying why, unless
``LUCIE_REQUIRE_POSTGRES=1`` (set by ``.ci/run``): then it fails.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from lucie.store import Store

Where = Path | str
#: Starts a ``lucie serve`` on a database; its process and its URL.
Start = Callable[..., tuple[subprocess.Popen[str], str]]


def _pg_bin() -> Path | None:
    """The folder of Debian's PostgreSQL programs (the newest), if any."""
    given = os.environ.get("LUCIE_PG_BIN")
    candidates = [Path(given)] if given else sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _unprivileged() -> str | None:
    """The user to run the server as when this is root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root with neither a postgres nor a nobody user")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    """A PostgreSQL server of the test session."""

    bin: Path
    base: Path
    user: str | None
    port: int = field(default_factory=_free_port)
    _numbers: Iterator[int] = field(default_factory=itertools.count)

    @property
    def sockets(self) -> Path:
        return self.base / "sockets"

    def _run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        command = list(argv)
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120,
                              check=False, cwd=self.base)

    def start(self) -> None:
        data = self.base / "data"
        self.sockets.mkdir()
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            for path in (self.base, self.sockets):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        done = self._run(str(self.bin / "initdb"), "-D", str(data), "-U", "lucie",
                         "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync")
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stdout}{done.stderr}")
        options = (f"-k {self.sockets} -p {self.port} -c listen_addresses='' "
                   "-c fsync=off -c full_page_writes=off -c synchronous_commit=off "
                   "-c max_connections=200")
        done = self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-o", options, "-w",
                         "-t", "60", "-l", str(self.base / "server.log"), "start")
        if done.returncode != 0:
            log = (self.base / "server.log")
            raise RuntimeError(f"pg_ctl start failed: {done.stdout}{done.stderr}"
                               f"{log.read_text() if log.exists() else ''}")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.base / "data"), "-m", "immediate",
                  "-w", "stop")
        shutil.rmtree(self.base, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://lucie@/{database}?host={self.sockets}&port={self.port}"

    def admin(self, sql: str) -> None:
        """Run ``sql`` in the server's ``postgres`` database."""
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(sql)

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        name = f"lucie_test_{next(self._numbers)}"
        self.admin(f"CREATE DATABASE {name} TEMPLATE template0 STRATEGY FILE_COPY")
        return self.url(name)

    def drop(self, url: str) -> None:
        name = url.split("?")[0].rsplit("/", 1)[1]
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole session (skipped, or failed under
    ``LUCIE_REQUIRE_POSTGRES=1``, where it cannot be had)."""
    required = os.environ.get("LUCIE_REQUIRE_POSTGRES") == "1"

    def missing(why: str) -> None:
        if required:
            pytest.fail(f"LUCIE_REQUIRE_POSTGRES=1 but {why}", pytrace=False)
        pytest.skip(f"PostgreSQL half skipped: {why}")

    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg is not installed (pip install -e '.[test]')")
    folder = _pg_bin()
    if folder is None:
        missing("Debian's postgresql package is not installed "
                "(no initdb under /usr/lib/postgresql/*/bin; apt-get install postgresql)")
        raise AssertionError  # not reached
    base = Path(tempfile.mkdtemp(prefix="lucie-pg-"))
    server = PostgresServer(folder, base, _unprivileged())
    try:
        server.start()
    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
        server.stop()
        missing(f"the server could not be started ({exc})")
    yield server
    server.stop()


BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The backend a test runs on (each store test runs on both)."""
    return str(request.param)


@pytest.fixture
def fresh(backend: str, tmp_path: Path,
          request: pytest.FixtureRequest) -> Iterator[Callable[[], Where]]:
    """A maker of new, empty store locations of the test's backend (a SQLite
    file, a PostgreSQL database dropped after the test)."""
    if backend == "sqlite":
        numbers = itertools.count()
        yield lambda: tmp_path / f"games-{next(numbers)}.sqlite3"
        return
    yield from _databases(request.getfixturevalue("postgres_server"))


def _databases(server: PostgresServer) -> Iterator[Callable[[], str]]:
    made: list[str] = []

    def make() -> str:
        made.append(server.new_database())
        return made[-1]

    yield make
    for url in made:
        server.drop(url)


@pytest.fixture
def pg_fresh(postgres_server: PostgresServer) -> Iterator[Callable[[], str]]:
    """A maker of new, empty PostgreSQL databases (for the tests of the
    PostgreSQL backend alone)."""
    yield from _databases(postgres_server)


@pytest.fixture
def where(fresh: Callable[[], Where]) -> Where:
    """Where the test's store is: a SQLite file or a PostgreSQL URL."""
    return fresh()


@pytest.fixture
def store(where: Where) -> Iterator[Store]:
    s = Store(where)
    yield s
    s.close()


#: ``lucie serve``'s limits far above what a test sends (every client is 127.0.0.1).
UNLIMITED = ("--address-limit", "100000/minute", "--player-limit", "100000/minute")


@pytest.fixture
def serve_site(tmp_path: Path) -> Iterator[Start]:
    """Starts ``lucie serve`` processes (port 0, one secret, no rate limit
    in the way), each answering HTTP once started; stopped after the test.
    ``start(db, *options, output=True)`` keeps the process's standard
    output (its access log) for the test to read (``proc.communicate``)."""
    # (imported here: the benchmarks load this file for its PostgreSQL server)
    from tests.serving import answers, wait_for

    started: list[subprocess.Popen[str]] = []

    def start(db: str, *extra: str, output: bool = False) -> tuple[subprocess.Popen[str], str]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "lucie", "serve", "--port", "0", "--db", db,
             "--secret-file", str(tmp_path / "secret"), *UNLIMITED, *extra],
            stdout=subprocess.PIPE if output else subprocess.DEVNULL, stderr=subprocess.PIPE,
            text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )
        started.append(proc)
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert "http://" in line, line
        threading.Thread(target=proc.stderr.read, daemon=True).start()  # drained
        url = "http://" + line.split("http://", 1)[1].split()[0].rstrip("/")
        wait_for("lucie serve to answer", lambda: answers(url), 60)  # (its workers start)
        return proc, url

    yield start
    for proc in started:
        proc.terminate()
        try:
            proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.communicate()
