"""The PostgreSQL backend of the store, for a hosted store: a
``postgresql://`` URL (libpq's, e.g. ``postgresql://lucie@db.example/lucie``
or ``postgresql:///lucie?host=/run/postgresql``), through psycopg 3 (the
``postgres`` extra: ``pip install 'lucie[postgres]'``).

- The schema is :mod:`lucie.store.schema`'s, its version in the table
  ``lucie_schema``; opening an empty database runs every migration, an
  older one the missing ones, all in one transaction under an advisory
  lock, so two processes starting together do it once.  A database of a
  newer schema, or one that has tables but no ``lucie_schema`` (another
  program's), is refused and left as it was.
- Claims (one program per open game) are PostgreSQL advisory locks held
  by this store's connection (keys :data:`CLAIM_KEY` and the game id):
  they lapse when the process ends, however it ends, on any machine.
- One connection per store, in autocommit; each write is one short
  transaction.  A connection that broke (the server restarted) is opened
  again before the next statement, and the claims it held are taken again.
- Errors become the store's: a full disk :class:`StoreFull`, a lock not
  granted in time :class:`StoreBusy`, anything else :class:`StoreError`,
  naming the database without its password.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final
from urllib.parse import urlsplit

from lucie.i18n import _
from lucie.store.errors import StoreBusy, StoreDown, StoreError, StoreFull
from lucie.store.schema import SCHEMA_VERSION, upgrade
from lucie.store.sqlite import APPLICATION_ID, BUSY_TIMEOUT_MS

#: First key of the store's advisory locks ("Luci"); the second is the game
#: id (its low 32 bits), 0 for the lock taken while the schema is upgraded.
CLAIM_KEY: Final = APPLICATION_ID
#: Seconds to wait for the server when connecting.
CONNECT_TIMEOUT: Final = 10


def safe_url(url: str) -> str:
    """``url`` without its password or query (what messages show).

    >>> safe_url("postgresql://ann:secret@db.example:5433/lucie?sslmode=require")
    'postgresql://ann@db.example:5433/lucie'
    """
    parts = urlsplit(url)
    user = f"{parts.username}@" if parts.username else ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{user}{host}{port}{parts.path}"


def _key(game_id: int) -> int:
    """The second key of a game's advisory lock (a signed 32-bit number)."""
    low = game_id & 0xFFFFFFFF
    return low - (1 << 32) if low >= 1 << 31 else low


class _Transaction:
    """An open write transaction: :meth:`execute` takes the store's ``?``."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[object] = (), /) -> Any:
        return self.conn.execute(sql.replace("?", "%s"), tuple(params) or None)


class PostgresBackend:
    """The store's PostgreSQL database at ``url`` (see the module doc)."""

    dialect: Final = "postgresql"
    same: Final = "IS NOT DISTINCT FROM"

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = safe_url(url)
        self.path = None
        self._lock = threading.RLock()
        #: the games this store claims
        self._held: set[int] = set()
        try:
            import psycopg
        except ImportError:
            raise StoreError(_(
                "{path}: a PostgreSQL store needs psycopg (pip install 'lucie[postgres]')"
            ).format(path=self.where)) from None
        self._psycopg = psycopg
        self.conn = self._connect()
        try:
            self._prepare()
        except BaseException:
            self.conn.close()
            raise

    # -- opening ------------------------------------------------------------

    def _connect(self, *, again: bool = False) -> Any:
        """A new connection; ``again``: in place of one that broke (then a
        server that cannot be reached is a passing fault, a
        :class:`StoreDown`; when the store opens, a plain StoreError)."""
        psycopg = self._psycopg
        try:
            conn = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            conn.execute(f"SET lock_timeout = {BUSY_TIMEOUT_MS}")
        except psycopg.OperationalError as exc:
            if again:  # it was there: down or restarting just now
                raise StoreDown(_cannot_reach(self.where, exc)) from None
            raise StoreError(_("{path}: cannot open the database ({why})").format(
                path=self.where, why=_first_line(exc))) from None
        except psycopg.Error as exc:
            raise StoreError(_("{path}: cannot open the database ({why})").format(
                path=self.where, why=_first_line(exc))) from None
        return conn

    def _prepare(self) -> None:
        """Make or upgrade the schema (see the module doc)."""
        conn = self.conn
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (CLAIM_KEY,))
                version = self._version(conn)
                if version > SCHEMA_VERSION:
                    raise StoreError(_(
                        "{path} was written by a newer lucie (schema {newer}, this lucie "
                        "knows up to {known}); it was left untouched. Upgrade lucie."
                    ).format(path=self.where, newer=version, known=SCHEMA_VERSION))
                if version < SCHEMA_VERSION:
                    for statement in upgrade("postgresql", version):
                        conn.execute(statement)
                    conn.execute("UPDATE lucie_schema SET version = %s", (SCHEMA_VERSION,))
        except self._psycopg.Error as exc:
            raise self._error(exc) from None

    def _version(self, conn: Any) -> int:
        """The database's schema (0: an empty one, prepared for the first
        migration); refuses another program's database."""
        if conn.execute("SELECT to_regclass('lucie_schema')").fetchone()[0] is not None:
            row = conn.execute("SELECT version FROM lucie_schema").fetchone()
            if row is None or not isinstance(row[0], int):
                raise StoreError(_("{path}: cannot prepare the database ({why})").format(
                    path=self.where, why="lucie_schema"))
            return int(row[0])
        tables = [name for (name,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
            "ORDER BY tablename")]
        if tables:
            shown = ", ".join(tables[:5]) + (" ..." if len(tables) > 5 else "")
            raise StoreError(_(
                "{path} is not a lucie games database: it has other tables ({tables}). "
                "It was left untouched; choose another database with --db."
            ).format(path=self.where, tables=shown))
        conn.execute("CREATE TABLE lucie_schema (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO lucie_schema (version) VALUES (0)")
        return 0

    def _connection(self) -> Any:
        """The connection, opened again if it broke (and the claims it held
        taken again where no other program took them meanwhile)."""
        if not (self.conn.closed or self.conn.broken):
            return self.conn
        self.conn = self._connect(again=True)
        held, self._held = self._held, set()
        for game_id in held:
            self.claim(game_id)
        return self.conn

    def close(self) -> None:
        with self._lock:
            self._held.clear()
            self.conn.close()

    # -- statements ---------------------------------------------------------

    def _error(self, exc: Exception) -> StoreError:
        errors = self._psycopg.errors
        why = _first_line(exc)
        if isinstance(exc, errors.DiskFull | errors.OutOfMemory):
            return StoreFull(_(
                "the disk is full (or the file may grow no more): this change was not saved "
                "in {path}, and nothing saved before is lost. Free some space and try again."
            ).format(path=self.where))
        if isinstance(exc, errors.LockNotAvailable | errors.QueryCanceled
                      | errors.DeadlockDetected | errors.SerializationFailure):
            return StoreBusy(_(
                "the database is locked by another program (waited {seconds} s): this "
                "change was not saved in {path}. Close the other program or try again later."
            ).format(path=self.where, seconds=round(BUSY_TIMEOUT_MS / 1000)))
        if isinstance(exc, self._psycopg.OperationalError | self._psycopg.InterfaceError):
            # the server stopped, restarts, or the connection broke: the
            # next statement connects again (:meth:`_connection`)
            return StoreDown(_cannot_reach(self.where, exc))
        return StoreError(_("{path}: cannot write ({why})").format(path=self.where, why=why))

    def write(self) -> AbstractContextManager[_Transaction]:
        """One short write transaction."""
        return self._write()

    @contextmanager
    def _write(self) -> Iterator[_Transaction]:
        with self._lock:
            try:
                conn = self._connection()
                with conn.transaction():
                    yield _Transaction(conn)
            except self._psycopg.Error as exc:
                raise self._error(exc) from None

    def write_one(self, sql: str, params: tuple[object, ...] = ()) -> tuple[Any, ...] | None:
        """One statement as a transaction of its own (the connection is in
        autocommit: one trip to the server, no BEGIN and COMMIT, run as
        :meth:`read` runs a query); its first row."""
        rows = self._statement(sql, params, again=False)
        return rows[0] if rows else None

    def read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query; sent once more on a new connection if the
        one it was sent on turns out broken (the server restarted since the
        last statement: a query may safely be asked twice)."""
        return self._statement(sql, params, again=True)

    def _statement(self, sql: str, params: tuple[object, ...], *,
                   again: bool) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                conn = self._connection()
                try:
                    rows = conn.execute(sql.replace("?", "%s"), params or None).fetchall()
                except self._psycopg.OperationalError:
                    if not (again and conn.broken):
                        raise
                    rows = self._connection().execute(sql.replace("?", "%s"),
                                                      params or None).fetchall()
            except self._psycopg.Error as exc:
                raise self._error(exc) from None
            return [tuple(row) for row in rows]

    # -- claims: advisory locks -------------------------------------------

    def claim(self, game_id: int) -> bool:
        with self._lock:
            if game_id in self._held:
                return True
            got = self.read("SELECT pg_try_advisory_lock(?, ?)", (CLAIM_KEY, _key(game_id)))
            if got and got[0][0]:
                self._held.add(game_id)
                return True
            return False

    def release(self, game_id: int) -> None:
        with self._lock:
            if game_id not in self._held:
                return
            self._held.discard(game_id)
            if not (self.conn.closed or self.conn.broken):
                self.read("SELECT pg_advisory_unlock(?, ?)", (CLAIM_KEY, _key(game_id)))

    def is_claimed(self, game_id: int) -> bool:
        with self._lock:
            return game_id in self._held or bool(self.claimed_elsewhere([game_id]))

    def claimed_elsewhere(self, game_ids: Iterable[int]) -> set[int]:
        """Which of ``game_ids`` another connection (another store, another
        process, another machine) claims."""
        wanted = {gid for gid in game_ids if gid not in self._held}
        if not wanted:
            return set()
        rows = self.read(
            "SELECT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
            "AND classid::bigint = ? AND objsubid = 2 AND pid <> pg_backend_pid()",
            (CLAIM_KEY,))
        taken = {int(objid) for (objid,) in rows}
        return {gid for gid in wanted if gid & 0xFFFFFFFF in taken}


def _cannot_reach(where: str, exc: BaseException) -> str:
    return _(
        "the database {path} cannot be reached just now ({why}): nothing was saved, and "
        "nothing saved before is lost. lucie connects again by itself once it is back."
    ).format(path=where, why=_first_line(exc))


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


__all__ = ["CLAIM_KEY", "PostgresBackend", "safe_url"]
