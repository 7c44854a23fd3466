"""The SQLite backend of the store: one file, the embedded default.

Safety: write-ahead logging and a busy timeout, so several processes can
write the same file; each write is one short transaction.  The schema
version is ``PRAGMA user_version`` (:mod:`lucie.store.schema`).

What is found is never trusted:

- A file is recognised before anything is written to it: a lucie database
  carries ``PRAGMA application_id`` :data:`APPLICATION_ID`; one from before
  that mark is adopted only if its tables are exactly lucie's.  Anything
  else (a text file, an empty file, another program's SQLite database, even
  with a ``games`` table) is refused with a :class:`StoreError`
  (a :class:`~lucie.errors.LucieError`) and left byte for byte as it was.
  A new file is built under a temporary name and linked into place, so no
  program ever finds a half-made one.
- A lucie file that fails SQLite's ``quick_check`` (truncated, scribbled
  over) or has a newer schema than this lucie knows is copied to a backup
  next to it and refused; it is never modified or overwritten.
- A path that is a directory, a parent that is a file, a directory that is
  not writable each get a message naming that cause.

Claims (one program per open game) are locks the operating system holds
for the claiming process (:class:`_Claims`).  The connection may be used
from several threads (a lock serialises it), as web servers do.
"""

from __future__ import annotations

import contextlib
import errno
import filecmp
import functools
import os
import secrets
import shutil
import socket
import sqlite3
import stat
import threading
import time
import weakref
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: claims are always granted
    fcntl = None  # type: ignore[assignment]

from lucie import environment
from lucie._sqlite import backoff, is_busy, use_wal
from lucie.errors import FileKindError
from lucie.files import examine
from lucie.i18n import _
from lucie.store.errors import WAIT_UNTIL, StoreBusy, StoreDown, StoreError, StoreFull
from lucie.store.schema import SCHEMA_VERSION, upgrade

#: ``PRAGMA application_id`` of a lucie games database ("Luci" in ASCII): a
#: SQLite file without it is another program's, unless it has exactly the
#: tables of a lucie database from before this mark (then it is adopted).
APPLICATION_ID: Final = 0x4C756369
#: Environment variable that overrides the default database path.
ENV_VAR: Final = environment.DB
#: Milliseconds a writer waits for another one before giving up.
BUSY_TIMEOUT_MS: Final = 10_000

# The claims of lucie before 0.1 (host:pid liveness); kept so that those
# files are still recognised.  Claims are now locks (see :class:`_Claims`).
_CLAIMS: Final = """
CREATE TABLE IF NOT EXISTS claims (
    game_id INTEGER PRIMARY KEY,
    owner   TEXT NOT NULL,  -- host:pid:token of the Store that plays it
    seen    REAL NOT NULL   -- time.time() of its last write
)
"""
# The browser game's table before schema 3 (which makes it), known here
# only to recognise a lucie database by its exact tables.
_WEB_GAMES: Final = (
    "CREATE TABLE IF NOT EXISTS web_games ("
    " token TEXT PRIMARY KEY, game_id INTEGER NOT NULL)"
)


def default_path() -> Path:
    """``$LUCIE_DB`` if set, else ``<user data dir>/lucie/lucie.sqlite3``."""
    env = environment.path_setting(ENV_VAR)
    if env is not None:
        return env
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs comes with the UI extras
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        return base / "lucie" / "lucie.sqlite3"
    return Path(platformdirs.user_data_dir("lucie", appauthor=False)) / "lucie.sqlite3"


def write_error(path: Path, exc: BaseException, *, opening: bool = False) -> StoreError:
    """The :class:`StoreError` for a failed write to the database at
    *path*: :class:`StoreFull` for a full disk or a file that may not grow,
    :class:`StoreBusy` for a lock held by another program, else a plain
    :class:`StoreError`.  Each message names the cause and what to do;
    *opening*: the failure came while opening the file, not saving a change."""
    if _is_full(path, exc):
        if opening:
            return StoreFull(_(
                "the disk is full (or the file may grow no more): the database {path} "
                "cannot be opened; nothing in it was changed. Free some space and try "
                "again."
            ).format(path=path))
        return StoreFull(_(
            "the disk is full (or the file may grow no more): this change was not saved "
            "in {path}, and nothing saved before is lost. Free some space and try again."
        ).format(path=path))
    if isinstance(exc, sqlite3.Error) and is_busy(exc):
        return StoreBusy(_(
            "the database is locked by another program (waited {seconds} s): this change "
            "was not saved in {path}. Close the other program or try again later."
        ).format(path=path, seconds=round(BUSY_TIMEOUT_MS / 1000)))
    if _is_down(exc):
        return StoreDown(_(
            "the database {path} cannot be written just now ({why}): this change was not "
            "saved, and nothing saved before is lost. Check the disk and the file's "
            "permissions; lucie goes on by itself once it can write again."
        ).format(path=path, why=exc))
    if isinstance(exc, OSError):
        return StoreError(_cannot_write(path, exc.strerror or exc))
    return StoreError(_cannot_write(path, exc))


#: SQLite's errors (``sqlite_errorname``'s beginnings) that say the file
#: cannot be used just now, through no fault of the request's.
_DOWN: Final = ("SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PROTOCOL")


def _is_down(exc: BaseException) -> bool:
    """Whether *exc* says the file is read-only or the disk fails (a
    :class:`StoreDown`: the operator's to mend, not the request's)."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.EROFS, errno.EIO)
    if not isinstance(exc, sqlite3.Error):
        return False
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    text = str(exc).lower()
    return name.startswith(_DOWN) or "readonly database" in text or "disk i/o error" in text


def _is_full(path: Path, exc: BaseException) -> bool:
    """Whether *exc* (from SQLite or the file system) means there is no room:
    SQLITE_FULL, ENOSPC, EDQUOT, EFBIG, or an I/O error while the disk
    holding *path* has (almost) no space left or the process may write no
    more (``RLIMIT_FSIZE``), which SQLite reports as a plain I/O error."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    if not isinstance(exc, sqlite3.Error):
        return False
    name = str(getattr(exc, "sqlite_errorname", "") or "")
    text = str(exc).lower()
    if name.startswith("SQLITE_FULL") or "disk is full" in text:
        return True
    if not (name.startswith("SQLITE_IOERR") or "disk i/o error" in text):
        return False
    return _no_room(path)


#: Free space under which an I/O error is taken for a full disk.
_ALMOST_FULL: Final = 1 << 20


def _no_room(path: Path) -> bool:
    """Whether the disk of *path* is (almost) full or the file size limit
    of this process (``RLIMIT_FSIZE``) is (almost) reached."""
    try:
        st = os.statvfs(path.parent)
        if st.f_bavail * st.f_frsize < _ALMOST_FULL:
            return True
    except OSError:
        pass
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return False
    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    if soft == resource.RLIM_INFINITY:
        return False
    sizes = []
    for suffix in ("", "-wal", "-journal"):
        with contextlib.suppress(OSError):
            sizes.append(os.stat(f"{path}{suffix}").st_size)
    return max(sizes, default=0) + _ALMOST_FULL > soft


#: Milliseconds of one try at another program's lock: between tries the
#: connection is let go, for the other threads of the process that share it.
_TRY_MS: Final = 50


def _pause(attempt: int, deadline: float) -> None:
    """Sleep between tries at a lock: 5 ms doubling up to 100 ms, never
    past ``deadline``."""
    time.sleep(max(0.0, min(0.005 * 2**attempt, 0.1, deadline - time.monotonic())))


class _BusyError(Exception):
    """Another process holds the file just now; :meth:`SQLiteBackend._open` retries."""


#: The database files this process has open through SQLite, by (device,
#: inode), with how many stores hold each.  Closing *any* descriptor of a
#: file drops every POSIX lock the process holds on it, SQLite's included;
#: another process closing its connection may then take itself for the
#: file's last user and delete the WAL this one still writes to (its later
#: writes would be seen by nobody).  So a file held here is never opened by
#: hand again (its checks were made when it was first opened): only
#: through SQLite, which keeps one process's descriptors of a file open
#: until its last connection closes.
_HELD: dict[tuple[int, int], int] = {}
_HELD_LOCK = threading.Lock()


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _let_go(key: tuple[int, int] | None) -> None:
    """One store less holds the file ``key``."""
    if key is None:
        return
    with _HELD_LOCK:
        left = _HELD.get(key, 0) - 1
        if left > 0:
            _HELD[key] = left
        else:
            _HELD.pop(key, None)


def _held(path: Path) -> bool:
    """Whether this process has ``path`` open through a store already."""
    key = _file_key(path)
    with _HELD_LOCK:
        return key is not None and key in _HELD


class SQLiteBackend:
    """The store's SQLite file at ``path`` (see the module doc)."""

    dialect: Final = "sqlite"
    #: how the store asks that two values are the same, NULL included
    same: Final = "IS"

    def __init__(self, path: Path) -> None:
        self.path = path
        #: what names the database in messages
        self.where = str(path)
        self._lock = threading.RLock()
        #: the connection's busy timeout now (:meth:`_patience`)
        self._busy_ms = BUSY_TIMEOUT_MS
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.conn = self._open()
        key = _file_key(path)
        if key is not None:
            with _HELD_LOCK:
                _HELD[key] = _HELD.get(key, 0) + 1
        # let go of the file when closed, or when a store never closed is
        # collected (its connection closes then, and the inode may be reused)
        self._let_go = weakref.finalize(self, _let_go, key)

    # -- opening and checking -------------------------------------------

    def _open(self) -> sqlite3.Connection:
        """Open, check and prepare the file.  A file that another process
        holds at that moment (see :mod:`lucie._sqlite`) is waited for, not
        taken for a damaged one."""
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        attempt = 0
        while True:
            try:
                return self._open_once()
            except _BusyError as busy:
                if time.monotonic() > deadline:
                    raise StoreBusy(_(
                        "{path}: the database stays locked by another program ({why}). "
                        "Close the other program or try again later."
                    ).format(path=self.path, why=busy)) from None
            backoff(attempt)
            attempt += 1

    def _check_place(self) -> None:
        """Refuse a path that cannot be a database file, naming the cause;
        create a missing parent directory."""
        path = self.path
        if path.is_dir():
            raise StoreError(
                _("{path} is a directory, not a database file (give a file name)")
                .format(path=path)
            )
        if _held(path):
            return  # checked when first opened (and never opened by hand again)
        try:
            examine(path, what=_("the games database"))
        except FileKindError as exc:
            raise StoreError(str(exc)) from None
        parent = path.parent
        if not parent.is_dir():
            blocker = parent
            while not blocker.exists() and blocker.parent != blocker:
                blocker = blocker.parent
            if blocker.exists() and not blocker.is_dir():
                raise StoreError(_(
                    "{path}: cannot create the directory {parent}: {blocker} is a file, "
                    "not a directory"
                ).format(path=path, parent=parent, blocker=blocker))
            try:
                parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(_(
                    "{path}: the directory {parent} does not exist and cannot be created "
                    "({why}: {blocker} is not writable)"
                ).format(path=path, parent=parent, why=exc.strerror, blocker=blocker)) from None
        if not os.access(parent, os.W_OK | os.X_OK):
            raise StoreError(_(
                "{path}: the directory {parent} is not writable; lucie writes its journal "
                "next to the database, so the directory must be writable too"
            ).format(path=path, parent=parent))
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(
                _("{path}: the file is not readable and writable (permission denied)")
                .format(path=path)
            )

    def _create(self) -> None:
        """Create a new, complete lucie database at :attr:`path` unless a
        file is there: it is built under a temporary name and linked into
        place, so no other program ever sees a half-made file (an empty
        file is not taken for a new database)."""
        path = self.path
        tmp = path.with_name(f".{path.name}.new-{os.getpid()}-{secrets.token_hex(4)}")
        try:
            conn = sqlite3.connect(tmp, isolation_level=None)
            try:
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                for statement in [*upgrade("sqlite", 0), _CLAIMS]:
                    conn.execute(statement)
                use_wal(conn, BUSY_TIMEOUT_MS / 1000)
            finally:
                conn.close()
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass  # another program made it first: use theirs
            except OSError:  # pragma: no cover - a file system without hard links
                if not path.exists():
                    os.replace(tmp, path)
        except (OSError, sqlite3.Error) as exc:
            if _is_full(path, exc):
                raise write_error(path, exc, opening=True) from None
            reason = exc.strerror if isinstance(exc, OSError) else str(exc)
            raise StoreError(_("{path}: cannot create the database ({why})").format(
                path=path, why=reason
            )) from None
        finally:
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                with contextlib.suppress(OSError):
                    leftover.unlink()

    def _inspect(self) -> tuple[bool, int]:
        """Recognise the file before writing anything to it.  Returns
        whether it is a lucie database that predates ``application_id`` (to
        be adopted; else a marked one), and its schema version (an older
        one is upgraded by :meth:`_open_once`).  Raises :class:`StoreError` for
        anything else; the file is left byte for byte as it was."""
        head = None if _held(self.path) else self._sqlite_head()
        conn = self._inspecting_connection(head)
        try:
            legacy, version, problem = self._examine(conn)
        finally:
            conn.close()
        if problem is not None:
            backup = self._backup()
            raise StoreError(_(
                "{path} is damaged ({problem}); it was left untouched and a copy was "
                "kept at {backup}. Move it away (or choose another file with --db) "
                "to start a new one."
            ).format(path=self.path, problem=problem, backup=backup))
        if version > SCHEMA_VERSION:
            backup = self._backup()
            raise StoreError(_(
                "{path} was written by a newer lucie (schema {newer}, this lucie "
                "knows up to {known}); it was left untouched and a copy was "
                "kept at {backup}. Upgrade lucie, or choose another file with --db."
            ).format(path=self.path, newer=version, known=SCHEMA_VERSION, backup=backup))
        return legacy, version

    def _sqlite_head(self) -> bytes:
        """The file's 100-byte SQLite header, refused (StoreError) when the
        file is empty, not SQLite, or marked as another program's."""
        path = self.path
        if path.stat().st_size == 0:
            raise StoreError(_(
                "{path} is an empty file, not a lucie database; it was left untouched. "
                "Delete it (or choose another file with --db) to start a new one."
            ).format(path=path))
        with open(path, "rb") as f:
            head = f.read(100)
        if not head.startswith(b"SQLite format 3\x00") or len(head) < 100:
            raise StoreError(_(
                "{path} is not a SQLite database (another kind of file); it was left "
                "untouched. Choose another file with --db."
            ).format(path=path))
        marked = _application_id(head)
        if marked not in (0, APPLICATION_ID):
            raise StoreError(_foreign_message(path, marked, (frozenset(), {})))
        return head

    def _inspecting_connection(self, head: bytes | None) -> sqlite3.Connection:
        """A connection to look at the file with, leaving it as it was
        (``head``: the file's header; None for a file this process has open
        as a lucie database already)."""
        # A connection that only reads leaves the main file as it was; a
        # read-only one is used when even closing a writable one could move
        # a WAL left by another program into the file (or roll back its
        # journal).  A read-only connection leaves -wal and -shm files
        # behind in WAL mode, hence the writable one there.
        path = self.path
        wal = Path(f"{path}-wal")
        writable = head is None or _application_id(head) == APPLICATION_ID or (
            head[18] == 2 and not (wal.exists() and wal.stat().st_size > 0)
        )
        try:
            if writable:
                conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000,
                                       isolation_level=None)
            else:
                conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True,
                                       timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(_cannot_open(path, exc)) from None
        conn.text_factory = _text
        return conn

    def _examine(self, conn: sqlite3.Connection) -> tuple[bool, int, str | None]:
        """Whether the database is an unmarked lucie one, its schema
        version, and what is wrong with it (None: nothing, or a newer
        schema, not examined); another program's database is refused."""
        path = self.path
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            schema = _schema_of(conn)
            known = 1 <= version <= SCHEMA_VERSION
            legacy = app_id == 0 and known and _is_lucie_schema(schema, version)
            if app_id != APPLICATION_ID and not legacy:
                raise StoreError(_foreign_message(path, app_id, schema))
            if version > SCHEMA_VERSION:
                return legacy, version, None
            if not known or not _is_lucie_schema(schema, version):
                return legacy, version, _("its tables are not lucie's")
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                return legacy, version, _("integrity check failed: {check}").format(check=check)
            return legacy, version, None
        except sqlite3.DatabaseError as exc:
            if is_busy(exc):
                raise _BusyError(str(exc)) from None
            if _is_full(path, exc):  # a healthy file on a full disk is not damaged
                raise write_error(path, exc, opening=True) from None
            text = str(exc)
            if "not a database" in text or "unable to open" in text or "readonly" in text:
                raise StoreError(_(
                    "{path} cannot be read as a database ({why}); it was left "
                    "untouched. Choose another file with --db."
                ).format(path=path, why=exc)) from None
            return False, 0, text

    def _open_once(self) -> sqlite3.Connection:
        path = self.path
        self._check_place()
        if not path.exists():
            self._create()
        legacy, version = self._inspect()
        try:
            conn = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StoreError(_cannot_open(path, exc)) from None
        conn.text_factory = _text
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            mode = use_wal(conn, BUSY_TIMEOUT_MS / 1000)
            if mode != "wal":  # pragma: no cover - e.g. some network filesystems
                conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute("PRAGMA synchronous = NORMAL")
            if legacy:  # a lucie database from before application_id: mark it
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            if version < SCHEMA_VERSION:
                _upgrade(conn)
            conn.execute(_CLAIMS)
        except sqlite3.Error as exc:
            conn.close()
            if is_busy(exc):
                raise _BusyError(str(exc)) from None
            if _is_full(path, exc):
                raise write_error(path, exc, opening=True) from None
            raise StoreError(_("{path}: cannot prepare the database ({why})").format(
                path=path, why=exc
            )) from None
        return conn

    def _backup(self) -> Path:
        """Copy the file (and its WAL) aside; return the copy's path.  An
        identical copy made earlier is reused (no pile of copies when lucie
        is started again and again on the same damaged file)."""
        for old in sorted(self.path.parent.glob(f"{self.path.name}.backup-*")):
            if str(old).endswith(("-wal", "-shm")):
                continue
            try:
                if filecmp.cmp(old, self.path, shallow=False):
                    return old
            except OSError:  # pragma: no cover - unreadable copy
                continue
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        backup = self.path.with_name(f"{self.path.name}.backup-{stamp}")
        n = 1
        while backup.exists():
            n += 1
            backup = self.path.with_name(f"{self.path.name}.backup-{stamp}-{n}")
        made: list[Path] = []
        try:
            made.append(backup)
            shutil.copy2(self.path, backup)
            for suffix in ("-wal", "-shm"):
                side = Path(str(self.path) + suffix)
                if side.exists():
                    made.append(Path(str(backup) + suffix))
                    shutil.copy2(side, made[-1])
        except OSError as exc:  # disk full, permissions: no half copy is left
            for partial in made:
                with contextlib.suppress(OSError):
                    partial.unlink()
            if _is_full(self.path, exc):
                raise StoreFull(_(
                    "{path} cannot be used and the disk is too full to keep a copy of it; "
                    "it was left untouched. Free some space and try again."
                ).format(path=self.path)) from None
            raise StoreError(_(
                "{path} cannot be used and could not be backed up ({why}); "
                "it was left untouched"
            ).format(path=self.path, why=exc.strerror)) from None
        return backup

    def close(self) -> None:
        with self._lock:
            self.conn.close()
        self._let_go()

    def _deadline(self) -> float:
        """When the work in hand stops waiting for another program's lock:
        :data:`WAIT_UNTIL` if the work's asker set it, and the busy timeout
        from now at the latest."""
        latest = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        until = WAIT_UNTIL.get()
        return latest if until is None else min(until, latest)

    def _try_until(self, deadline: float | None) -> None:
        """Let SQLite wait for a lock one try long at most (:data:`_TRY_MS`),
        never past ``deadline`` (None: the first try, before any lock was
        met: past :data:`WAIT_UNTIL` if set, else one whole try)."""
        if deadline is None:
            deadline = WAIT_UNTIL.get()
            if deadline is None and self._busy_ms == _TRY_MS:
                return  # (the usual case, in a few hundred nanoseconds)
        ms = _TRY_MS if deadline is None else max(
            0, min(_TRY_MS, int((deadline - time.monotonic()) * 1000)))
        if ms != self._busy_ms:
            self.conn.execute(f"PRAGMA busy_timeout = {ms}")
            self._busy_ms = ms

    def _begin(self) -> None:
        """Open a write transaction; return holding the connection's lock.
        Another program's lock is waited for in tries (:meth:`_try_until`)
        until :meth:`_deadline`, the connection let go between them (the
        process's other threads that share it are not held up meanwhile)."""
        deadline: float | None = None  # (known once a lock is met)
        attempt = 0
        while True:
            self._lock.acquire()
            try:
                self._try_until(deadline)
                self.conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.Error as exc:
                self._rollback()
                self._lock.release()
                if deadline is None:
                    deadline = self._deadline()
                if not is_busy(exc) or time.monotonic() >= deadline:
                    raise write_error(self.path, exc) from None
            except BaseException:
                self._lock.release()
                raise
            _pause(attempt, deadline)
            attempt += 1

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One short write transaction.  Every failure of SQLite on the way
        (a full disk, a lock held too long, an I/O error) leaves nothing
        half written and becomes a :class:`StoreError` (:func:`write_error`);
        SQLite may already have rolled back by itself (it does on a full
        disk), so the rollback is made only if a transaction is still open."""
        self._begin()
        try:
            conn = self.conn
            try:
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise write_error(self.path, exc) from None
            except BaseException:
                self._rollback()
                raise
        finally:
            self._lock.release()

    def _rollback(self) -> None:
        """Roll back the open transaction, if SQLite has not already."""
        conn = self.conn
        with contextlib.suppress(sqlite3.Error):  # (a closed connection has none)
            if conn.in_transaction:
                conn.execute("ROLLBACK")

    def _statement(self, sql: str, params: tuple[object, ...],
                   *, write: bool) -> list[tuple[Any, ...]]:
        """The rows of one statement (a transaction of its own if it
        writes), another program's lock waited for as :meth:`_begin` does
        (a statement refused for a lock did nothing: it is sent again)."""
        deadline: float | None = None  # (known once a lock is met)
        attempt = 0
        while True:
            with self._lock:
                try:
                    self._try_until(deadline)
                    return self.conn.execute(sql, params).fetchall()
                except sqlite3.Error as exc:
                    if write:
                        self._rollback()
                    if deadline is None:
                        deadline = self._deadline()
                    if not is_busy(exc) or time.monotonic() >= deadline:
                        raise self._failure(exc, write) from None
            _pause(attempt, deadline)
            attempt += 1

    def _failure(self, exc: sqlite3.Error, write: bool) -> StoreError:
        if write or _is_full(self.path, exc) or is_busy(exc) or _is_down(exc):
            return write_error(self.path, exc)
        return StoreError(_("{path}: cannot read ({why})").format(path=self.path, why=exc))

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        return self._statement(sql, params, write=False)

    def write(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One short write transaction (see :meth:`_write`)."""
        return self._write()

    def write_one(self, sql: str, params: tuple[object, ...] = ()) -> tuple[Any, ...] | None:
        """One statement as a transaction of its own (SQLite makes it one:
        the connection opens none), its failures as :meth:`_write`'s; its
        first row.  The rows are all read, so that the statement ends (and
        its transaction with it) before the lock is let go."""
        rows = self._statement(sql, params, write=True)
        return tuple(rows[0]) if rows else None

    def read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of a query."""
        return self._read(sql, params)

    # -- claims: one program per open game ------------------------------
    #
    # A claim is a lock the operating system holds for the claiming process
    # (:class:`_Claims`, a byte-range lock in ``<database>.claims``), so it
    # lapses the moment that process ends, however it ends (``kill -9``
    # included) and whatever its process id (containers, pid namespaces).

    def claim(self, game_id: int) -> bool:
        return _claims_of(self.path).take(game_id, self.owner)

    def release(self, game_id: int) -> None:
        _claims_of(self.path).give_back(game_id, self.owner)

    def is_claimed(self, game_id: int) -> bool:
        return _claims_of(self.path).held_elsewhere(game_id, "")

    def claimed_elsewhere(self, game_ids: Iterable[int]) -> set[int]:
        claims = _claims_of(self.path)
        return {gid for gid in game_ids if claims.held_elsewhere(gid, self.owner)}


class _Claims:
    """The claims on the games of one database, for this whole process.

    Each claimed game is a one-byte lock (``fcntl.lockf``) at offset
    ``game_id`` of the file ``<database>.claims`` beside the database: the
    operating system drops it when the process ends, however it ends.
    POSIX locks belong to the process, so the claims of this process's
    own stores are kept here too (one open file per database, shared, so
    that no ``close`` drops another store's locks).  The file is only ever
    locked, never written.  Where it cannot be opened (a read-only place,
    a system without ``fcntl``), a claim is always granted: two programs
    could then play the same game, nothing worse.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        #: game id -> owner (a Store's :attr:`Store.owner`) in this process
        self.held: dict[int, str] = {}
        self.fd: int | None = None
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_NONBLOCK", 0), 0o644)
        except OSError:
            return
        if not stat.S_ISREG(os.fstat(fd).st_mode) or fcntl is None:
            os.close(fd)
            return
        self.fd = fd

    def _lock(self, game_id: int, kind: int) -> bool:
        if self.fd is None or fcntl is None:
            return True
        try:
            fcntl.lockf(self.fd, kind | fcntl.LOCK_NB if kind != fcntl.LOCK_UN else kind,
                        1, game_id)
        except OSError:
            return False
        return True

    def take(self, game_id: int, owner: str) -> bool:
        with self.lock:
            mine = self.held.get(game_id)
            if mine is not None:
                return mine == owner
            if fcntl is not None and not self._lock(game_id, fcntl.LOCK_EX):
                return False
            self.held[game_id] = owner
            return True

    def give_back(self, game_id: int, owner: str) -> None:
        with self.lock:
            if self.held.get(game_id) != owner:
                return
            del self.held[game_id]
            if fcntl is not None:
                self._lock(game_id, fcntl.LOCK_UN)

    def held_elsewhere(self, game_id: int, owner: str) -> bool:
        """Whether another store (of this process or another) holds the claim."""
        with self.lock:
            mine = self.held.get(game_id)
            if mine is not None:
                return mine != owner
            if self.fd is None or fcntl is None:
                return False
            if not self._lock(game_id, fcntl.LOCK_EX):
                return True
            self._lock(game_id, fcntl.LOCK_UN)
            return False


_CLAIMS_LOCK = threading.Lock()
_CLAIMS_BY_FILE: dict[str, _Claims] = {}


def claims_path(path: Path) -> Path:
    """The lock file of the claims on the games of database ``path``."""
    return path.with_name(path.name + ".claims")


def _forget_claims() -> None:
    """In a forked child: the parent's locks are not the child's."""
    _CLAIMS_BY_FILE.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_claims)


def _claims_of(path: Path) -> _Claims:
    """This process's :class:`_Claims` of database ``path`` (one per file)."""
    key = os.path.abspath(path)
    with _CLAIMS_LOCK:
        claims = _CLAIMS_BY_FILE.get(key)
        if claims is None:
            claims = _CLAIMS_BY_FILE[key] = _Claims(claims_path(Path(key)))
        return claims


def _text(raw: bytes) -> str:
    """The connections' text factory: invalid UTF-8 in a row becomes lone
    surrogates (found by :func:`_check_text`) instead of an error that
    would stop the whole query."""
    return raw.decode("utf-8", "surrogateescape")


_Schema = tuple[frozenset[tuple[str, str]], dict[str, list[tuple[Any, ...]]]]


def _application_id(head: bytes) -> int:
    """The ``application_id`` in a SQLite file's header (0: none)."""
    return int.from_bytes(head[68:72], "big", signed=True)


def _schema_of(conn: sqlite3.Connection) -> _Schema:
    """The file's objects ``(type, name)`` (SQLite's own left out) and the
    columns of each table."""
    objects = frozenset(
        (str(kind), str(name))
        for kind, name in conn.execute("SELECT type, name FROM sqlite_master")
        if not str(name).startswith("sqlite_")
    )
    columns = {
        name: conn.execute(f"PRAGMA table_info('{name}')").fetchall()
        for kind, name in objects
        if kind == "table" and name.isidentifier()
    }
    return objects, columns


def _upgrade(conn: sqlite3.Connection) -> None:
    """Bring a lucie database of an older schema up to :data:`SCHEMA_VERSION`
    in one transaction (another program may have done it meanwhile)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for statement in upgrade("sqlite", version):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {max(version, SCHEMA_VERSION)}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


@functools.cache
def _lucie_schema(version: int = SCHEMA_VERSION) -> _Schema:
    conn = sqlite3.connect(":memory:")
    try:
        for statement in [*upgrade("sqlite", 0, version), _CLAIMS, _WEB_GAMES]:
            conn.execute(statement)
        return _schema_of(conn)
    finally:
        conn.close()


def _is_lucie_schema(schema: _Schema, version: int = SCHEMA_VERSION) -> bool:
    """Whether a file holds lucie's tables of schema ``version`` and nothing
    else: ``games`` and its index, and maybe ``claims`` and ``web_games``,
    column for column."""
    objects, columns = schema
    known_objects, known_columns = _lucie_schema(version)
    return (
        ("table", "games") in objects
        and ("index", "games_by_player") in objects
        and objects <= known_objects
        and all(columns.get(name) == known_columns[name] for _kind_, name in objects
                if name in known_columns)
    )


def _foreign_message(path: Path, app_id: int, schema: _Schema) -> str:
    tables = sorted(name for kind, name in schema[0] if kind == "table")
    if app_id:
        what = _("another program's SQLite database (application id {id})").format(
            id=f"{app_id:#x}"
        )
    elif not tables:
        what = _("a SQLite database without lucie's tables")
    else:
        shown = ", ".join(tables[:5]) + (" ..." if len(tables) > 5 else "")
        what = _("another program's SQLite database (tables: {tables})").format(tables=shown)
    return _(
        "{path} is not a lucie games database: it is {what}. It was left untouched; "
        "choose another file with --db."
    ).format(path=path, what=what)


def _cannot_open(path: Path, exc: Exception) -> str:
    return _("{path}: cannot open the database ({why})").format(path=path, why=exc)


def _cannot_write(path: Path, why: object) -> str:
    return _("{path}: cannot write ({why})").format(path=path, why=why)


__all__ = ["APPLICATION_ID", "BUSY_TIMEOUT_MS", "ENV_VAR", "SQLiteBackend", "claims_path",
           "default_path", "write_error"]
