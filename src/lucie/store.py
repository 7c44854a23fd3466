"""The store: games, saved positions and statistics in one SQLite file.

Every game a player starts is a row; its move list is saved after every
move (as lucie's saved-game JSON, :func:`lucie.formats.save_game`), so a
game interrupted in any way, even by ``kill -9``, resumes at the same
position with at most the last move lost.  Finished games give the
statistics per player and variant.

>>> import tempfile, pathlib
>>> from lucie.engine import Game
>>> from lucie.rules import Rules
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> store = Store(tmp / "games.sqlite3")
>>> game = Game(Rules(), deal=1)
>>> gid = store.start_game(game, "ann")
>>> _ = game.push("f>i"); store.record_move(gid, game, seconds=3.0)
>>> resumed_id, resumed = store.unfinished("ann")
>>> resumed_id == gid, [str(m) for m in resumed.moves]
(True, ['f>i'])
>>> store.finish_game(gid, game, seconds=12.5)
>>> s = store.stats("ann", "classic")
>>> s.games, s.wins, s.average_score
(1, 0, 0.0)
>>> store.close()

API (small and stable; interfaces use only this):

- :class:`Store` ``(path=None)``: opens (creating if needed) the file; the
  default is :func:`default_path` (``$LUCIE_DB`` if set, else
  ``lucie.sqlite3`` in the user data directory found with ``platformdirs``).
- :meth:`Store.start_game`, :meth:`Store.record_move`,
  :meth:`Store.finish_game` (and :meth:`Store.reopen` after an undo,
  :meth:`Store.discard` for a deal left without a move): the life of a game.
- :meth:`Store.unfinished`: the game to resume; :meth:`Store.claim` and
  :meth:`Store.release` keep two programs from playing the same game.
- :meth:`Store.stats`, :meth:`Store.history`, :meth:`Store.record`,
  :meth:`Store.game`: read back (any game can be replayed).
- :meth:`Store.export` (:meth:`Store.export_games` also tells which games
  it left out) / :meth:`Store.import_games`: CSV or JSON out, JSON back in.

Safety: write-ahead logging and a busy timeout, so several processes can
write the same file; each write is one short transaction.  The schema
version is ``PRAGMA user_version``.

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
- Every row read is checked value by value (type, range, UTF-8, known
  variant and status).  :meth:`Store.stats`, :meth:`Store.history` and
  :meth:`Store.export_games` leave a damaged row out and list it in their
  ``damaged`` (:class:`Damaged`: game id and reason); :meth:`Store.record`
  and :meth:`Store.game` raise a :class:`StoreError` naming the game;
  :meth:`Store.unfinished` skips it.  The other games stay usable.

The connection may be used from several threads (a lock serialises it),
as web servers do.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import filecmp
import functools
import io
import json
import math
import os
import secrets
import shutil
import socket
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, astuple, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: claims are always granted
    fcntl = None  # type: ignore[assignment]

from lucie._sqlite import backoff, is_busy, use_wal
from lucie.deals import MAX_DEAL
from lucie.engine import Game
from lucie.errors import FileKindError, LucieError, SaveFileError
from lucie.files import examine
from lucie.formats import game_from_json, game_to_json
from lucie.i18n import _, using
from lucie.parsing import excerpt, parse_json
from lucie.rules import Rules

#: Schema version written in ``PRAGMA user_version``: 2 added
#: ``games.picked_rating``; a database of schema 1 is upgraded when opened
#: (:data:`_UPGRADES`), every game kept.
SCHEMA_VERSION: Final = 2
#: Version of the JSON export's format (:meth:`Store.export_games`): it has
#: not changed since schema 1, so older lucies still import new exports.
EXPORT_VERSION: Final = 1
#: ``PRAGMA application_id`` of a lucie games database ("Luci" in ASCII): a
#: SQLite file without it is another program's, unless it has exactly the
#: tables of a lucie database from before this mark (then it is adopted).
APPLICATION_ID: Final = 0x4C756369
#: Environment variable that overrides the default database path.
ENV_VAR: Final = "LUCIE_DB"
#: Milliseconds a writer waits for another one before giving up.
BUSY_TIMEOUT_MS: Final = 10_000
#: Games per series in :attr:`Stats.series`.
SERIES_SIZE: Final = 100
#: Statuses of finished games (they count in the statistics).
FINISHED: Final = ("won", "lost", "resigned")

ExportFormat = Literal["csv", "json"]

# Schema 1; a new database gets it and then every upgrade (:data:`_UPGRADES`),
# exactly as an older one is brought up to date.
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    player   TEXT    NOT NULL,
    variant  TEXT    NOT NULL,  -- Rules.spec()
    deal     INTEGER,           -- NULL for a game from a layout
    seed     INTEGER NOT NULL,
    started  TEXT    NOT NULL,  -- ISO 8601, UTC
    updated  TEXT    NOT NULL,
    finished TEXT,              -- NULL while the game is being played
    status   TEXT    NOT NULL,  -- playing, won, lost, resigned
    score    INTEGER NOT NULL,
    moves    INTEGER NOT NULL,
    seconds  REAL    NOT NULL DEFAULT 0,
    saved    TEXT    NOT NULL   -- lucie saved-game JSON
);
CREATE INDEX IF NOT EXISTS games_by_player ON games (player, variant, status, id);
"""

# What brings a database of each older schema to the next one, run in one
# transaction with the new ``user_version``.  ``picked_rating``: the rating
# (:meth:`lucie.analysis.difficulty.Rated.to_json`, as JSON) a deal picked by
# difficulty was picked by, NULL for any other game.
_UPGRADES: Final[dict[int, str]] = {
    1: "ALTER TABLE games ADD COLUMN picked_rating TEXT",
}


def _schema_script(version: int = SCHEMA_VERSION) -> str:
    """The statements that make lucie's games table of schema ``version``."""
    return ";".join([_SCHEMA, *(_UPGRADES[v] for v in range(1, version))])

# The claims of lucie before 0.1 (host:pid liveness); kept so that those
# files are still recognised.  Claims are now locks (see :class:`_Claims`).
_CLAIMS: Final = """
CREATE TABLE IF NOT EXISTS claims (
    game_id INTEGER PRIMARY KEY,
    owner   TEXT NOT NULL,  -- host:pid:token of the Store that plays it
    seen    REAL NOT NULL   -- time.time() of its last write
)
"""
# The browser game's table (:mod:`lucie.web.store_link` creates it), known
# here only to recognise a lucie database by its exact tables.
_WEB_GAMES: Final = (
    "CREATE TABLE IF NOT EXISTS web_games ("
    " token TEXT PRIMARY KEY, game_id INTEGER NOT NULL)"
)

_COLUMNS: Final = (
    "id", "player", "variant", "deal", "seed", "started", "updated", "finished",
    "status", "score", "moves", "seconds",
)


class StoreError(LucieError):
    """The database cannot be used: damaged, from a newer lucie, unreadable."""


class StoreFull(StoreError):  # noqa: N818 - the name issue 36 gives it
    """A write failed because the disk is full or the file may grow no more
    (a quota, a file-size limit).  Nothing already saved is lost; the
    database is healthy and works again once there is room."""


class StoreBusy(StoreError):  # noqa: N818 - the name issue 36 gives it
    """Another program held the database locked for longer than the busy
    timeout (:data:`BUSY_TIMEOUT_MS`); nothing was written."""


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
    if isinstance(exc, OSError):
        return StoreError(_cannot_write(path, exc.strerror or exc))
    return StoreError(_cannot_write(path, exc))


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


class _BusyError(Exception):
    """Another process holds the file just now; :meth:`Store._open` retries."""


def default_path() -> Path:
    """``$LUCIE_DB`` if set, else ``<user data dir>/lucie/lucie.sqlite3``."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs comes with the UI extras
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        return base / "lucie" / "lucie.sqlite3"
    return Path(platformdirs.user_data_dir("lucie", appauthor=False)) / "lucie.sqlite3"


def default_player() -> str:
    """The player name when none is given: the login name, else ``player``."""
    for var in ("LUCIE_PLAYER", "USER", "LOGNAME", "USERNAME"):
        name = os.environ.get(var)
        if name:
            return name
    return "player"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of the history (the saved game itself: :meth:`Store.game`)."""

    id: int
    player: str
    variant: str
    deal: int | None
    seed: int
    started: str
    updated: str
    finished: str | None
    status: str
    score: int
    moves: int
    seconds: float

    @property
    def variant_name(self) -> str:
        """The variant's display name (its spec if it cannot be read)."""
        try:
            return Rules.parse(self.variant).name()
        except LucieError:
            return self.variant

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"variant_name": self.variant_name}


@dataclass(frozen=True, slots=True)
class Series:
    """Results of one series of (up to) :data:`SERIES_SIZE` finished games."""

    number: int  # 1 for the first hundred games, 2 for the next ...
    games: int
    wins: int
    average_score: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Stats:
    """Statistics of one player in one variant (or all when ``variant`` is None).

    Only finished games count (won, lost or resigned); ``current_streak``
    is the run of wins ending with the latest finished game.
    """

    player: str
    variant: str | None
    games: int
    wins: int
    average_score: float
    best_score: int
    best_streak: int
    current_streak: int
    total_seconds: float
    series: tuple[Series, ...]
    #: The player's rows that could not be read (left out of the figures).
    damaged: tuple[Damaged, ...] = ()

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "variant": self.variant,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "average_score": self.average_score,
            "best_score": self.best_score,
            "best_streak": self.best_streak,
            "current_streak": self.current_streak,
            "total_seconds": self.total_seconds,
            "series": [asdict(s) | {"win_rate": s.win_rate} for s in self.series],
            "damaged": [{"id": d.game_id, "reason": d.reason} for d in self.damaged],
        }


def _spec(variant: str | Rules | None) -> str | None:
    """Normalise a variant given as rules or a spec to ``Rules.spec()``."""
    if variant is None:
        return None
    if isinstance(variant, Rules):
        return variant.spec()
    return Rules.parse(variant).spec()


class Store:
    """The SQLite store (see the module doc).  Use as a context manager or
    call :meth:`close`."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()
        self._lock = threading.RLock()
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._conn = self._open()

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
                for statement in _statements(_schema_script() + ";" + _CLAIMS):
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
        marked = int.from_bytes(head[68:72], "big", signed=True)
        if marked not in (0, APPLICATION_ID):
            raise StoreError(_foreign_message(path, marked, (frozenset(), {})))
        # A connection that only reads leaves the main file as it was; a
        # read-only one is used when even closing a writable one could move
        # a WAL left by another program into the file (or roll back its
        # journal).  A read-only connection leaves -wal and -shm files
        # behind in WAL mode, hence the writable one there.
        wal = Path(f"{path}-wal")
        wal_mode = head[18] == 2
        writable = marked == APPLICATION_ID or (
            wal_mode and not (wal.exists() and wal.stat().st_size > 0)
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
        problem: str | None = None
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            schema = _schema_of(conn)
            ours = app_id == APPLICATION_ID
            known = 1 <= version <= SCHEMA_VERSION
            legacy = app_id == 0 and known and _is_lucie_schema(schema, version)
            if not ours and not legacy:
                raise StoreError(_foreign_message(path, app_id, schema))
            if version > SCHEMA_VERSION:
                newer = version
            else:
                newer = 0
                if not known or not _is_lucie_schema(schema, version):
                    problem = _("its tables are not lucie's")
                else:
                    check = conn.execute("PRAGMA quick_check").fetchone()[0]
                    if check != "ok":
                        problem = _("integrity check failed: {check}").format(check=check)
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
            problem = text
        finally:
            conn.close()
        if problem is not None:
            backup = self._backup()
            raise StoreError(_(
                "{path} is damaged ({problem}); it was left untouched and a copy was "
                "kept at {backup}. Move it away (or choose another file with --db) "
                "to start a new one."
            ).format(path=path, problem=problem, backup=backup))
        if newer:
            backup = self._backup()
            raise StoreError(_(
                "{path} was written by a newer lucie (schema {newer}, this lucie "
                "knows up to {known}); it was left untouched and a copy was "
                "kept at {backup}. Upgrade lucie, or choose another file with --db."
            ).format(path=path, newer=newer, known=SCHEMA_VERSION, backup=backup))
        return legacy, version

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
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One short write transaction.  Every failure of SQLite on the way
        (a full disk, a lock held too long, an I/O error) leaves nothing
        half written and becomes a :class:`StoreError` (:func:`write_error`);
        SQLite may already have rolled back by itself (it does on a full
        disk), so the rollback is made only if a transaction is still open."""
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                self._rollback()
                raise write_error(self.path, exc) from None
            try:
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise write_error(self.path, exc) from None
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        """Roll back the open transaction, if SQLite has not already."""
        conn = self._conn
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                if _is_full(self.path, exc) or is_busy(exc):
                    raise write_error(self.path, exc) from None
                raise StoreError(_("{path}: cannot read ({why})").format(
                    path=self.path, why=exc
                )) from None

    # -- the life of a game ----------------------------------------------

    def start_game(self, game: Game, player: str | None = None,
                   picked_rating: str | None = None) -> int:
        """Record a new game being played; returns its id.
        ``picked_rating``: the rating (JSON text) its deal was picked by,
        kept with the game (:meth:`picked_rating`)."""
        now = _now()
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO games (player, variant, deal, seed, started, updated, "
                "status, score, moves, seconds, saved, picked_rating) "
                "VALUES (?, ?, ?, ?, ?, ?, 'playing', ?, ?, 0, ?, ?)",
                (player or default_player(), game.rules.spec(), game.deal, game.seed,
                 now, now, game.score, len(game.moves), _saved(game), picked_rating),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    def record_move(self, game_id: int, game: Game, seconds: float | None = None) -> None:
        """Save the game's current move list (call after every push, pop,
        redo, redeal or restart).  ``seconds``: time played so far."""
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE games SET saved = ?, score = ?, moves = ?, updated = ?, "
                "seconds = COALESCE(?, seconds) WHERE id = ?",
                (_saved(game), game.score, len(game.moves), _now(),
                 None if seconds is None else round(seconds, 2), game_id),
            )
            if cur.rowcount != 1:
                raise StoreError(_no_game(game_id, self.path))

    def finish_game(
        self, game_id: int, game: Game, seconds: float, status: str | None = None,
    ) -> None:
        """Record the end of a game.  The status is the game's outcome
        (``won``, ``lost``, ``resigned``); a game still being played counts
        as resigned (the player left it for another one)."""
        if status is None:
            status = game.outcome.status
            if status == "playing":
                status = "resigned"
        if status not in FINISHED:
            raise StoreError(_("{status} is not a finished status ({known})").format(
                status=repr(status), known=", ".join(FINISHED)
            ))
        now = _now()
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE games SET saved = ?, score = ?, moves = ?, updated = ?, "
                "finished = ?, status = ?, seconds = ? WHERE id = ?",
                (_saved(game), game.score, len(game.moves), now, now, status,
                 round(seconds, 2),
                 game_id),
            )
            if cur.rowcount != 1:
                raise StoreError(_no_game(game_id, self.path))

    def discard(self, game_id: int) -> bool:
        """Delete a game still being played in which no move was made (a
        deal the player looked at and left); True if it was deleted."""
        with self._write() as conn:
            cur = conn.execute(
                "DELETE FROM games WHERE id = ? AND status = 'playing' AND moves = 0",
                (game_id,),
            )
            return cur.rowcount == 1

    def reopen(self, game_id: int) -> None:
        """Mark a finished game as being played again (e.g. the player
        undid the last move of a lost game)."""
        with self._write() as conn:
            conn.execute(
                "UPDATE games SET status = 'playing', finished = NULL, updated = ? "
                "WHERE id = ?", (_now(), game_id),
            )

    # -- claims: one program per open game ------------------------------
    #
    # A claim is a lock the operating system holds for the claiming process
    # (:class:`_Claims`, a byte-range lock in ``<database>.claims``), so it
    # lapses the moment that process ends, however it ends (``kill -9``
    # included) and whatever its process id (containers, pid namespaces).

    def claim(self, game_id: int) -> bool:
        """Mark a game as played by this store's program; False if another
        program (or another :class:`Store` of this one) plays it: leave it
        alone then.  The claim lapses when the program ends, however it
        ends."""
        return _claims_of(self.path).take(game_id, self.owner)

    def release(self, game_id: int) -> None:
        """Give up this store's claim on a game (when it stops playing it)."""
        _claims_of(self.path).give_back(game_id, self.owner)

    def is_claimed(self, game_id: int) -> bool:
        """Whether a program (this one included) holds a claim on the game."""
        return _claims_of(self.path).held_elsewhere(game_id, "")

    def _claimed_elsewhere(self) -> set[int]:
        rows = self._read("SELECT id FROM games WHERE status = 'playing'")
        claims = _claims_of(self.path)
        return {int(gid) for (gid,) in rows
                if isinstance(gid, int) and claims.held_elsewhere(gid, self.owner)}

    # -- reading back -----------------------------------------------------
    #
    # Every row read is checked value by value (:func:`_check_row`): a row
    # damaged by hand or by another program is skipped by the lists and the
    # statistics (which name it in ``damaged``), and reading that one game
    # raises a StoreError naming it.  The other games stay usable.

    def unfinished(
        self, player: str | None = None, variant: str | Rules | None = None,
    ) -> tuple[int, Game] | None:
        """The player's most recent game still being played (of ``variant``
        if given), rebuilt at its last saved position; None if there is
        none.  A damaged row (or one whose saved game no longer loads) is
        skipped (and kept), and so is a game another running program has
        :meth:`claim`-ed."""
        sql = (f"SELECT {', '.join(_COLUMNS)}, saved FROM games "
               "WHERE player = ? AND status = 'playing'")
        params: list[object] = [player or default_player()]
        spec = _spec(variant)
        if spec is not None:
            sql += " AND variant = ?"
            params.append(spec)
        taken = self._claimed_elsewhere()
        for row in self._read(sql + " ORDER BY updated DESC, id DESC", tuple(params)):
            if row[0] in taken:
                continue
            try:
                return row[0], _load(row[-1], _check_row(row))[0]
            except _RowDamageError:
                continue
        return None

    def record(self, game_id: int) -> GameRecord:
        """The history row of one game (a :class:`StoreError` naming the
        game if it is missing or damaged)."""
        rows = self._read(f"SELECT {', '.join(_COLUMNS)} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(_no_game(game_id, self.path))
        try:
            return _check_row(rows[0])
        except _RowDamageError as exc:
            raise StoreError(_damaged_game(game_id, self.path, exc)) from None

    def picked_rating(self, game_id: int) -> str | None:
        """The rating (JSON text) the game's deal was picked by, as given to
        :meth:`start_game`; None for a game not picked by difficulty (or a
        missing game, or a value that is not text)."""
        rows = self._read("SELECT picked_rating FROM games WHERE id = ?", (game_id,))
        value = rows[0][0] if rows else None
        return value if isinstance(value, str) else None

    def game(self, game_id: int) -> Game:
        """Any stored game, replayed to its last saved position (a
        :class:`StoreError` naming the game if it is missing or damaged)."""
        rows = self._read(
            f"SELECT {', '.join(_COLUMNS)}, saved FROM games WHERE id = ?", (game_id,),
        )
        if not rows:
            raise StoreError(_no_game(game_id, self.path))
        try:
            return _load(rows[0][-1], _check_row(rows[0]))[0]
        except _RowDamageError as exc:
            raise StoreError(_damaged_game(game_id, self.path, exc)) from None

    def history(
        self,
        player: str | None = None,
        variant: str | Rules | None = None,
        limit: int | None = None,
        *,
        finished_only: bool = False,
    ) -> History:
        """Games, newest first, optionally of one player and one variant.
        Damaged rows are left out and listed in the result's ``damaged``."""
        sql = f"SELECT {', '.join(_COLUMNS)} FROM games"
        where: list[str] = []
        params: list[object] = []
        if player is not None:
            where.append("player = ?")
            params.append(player)
        spec = _spec(variant)
        if spec is not None:
            where.append("variant = ?")
            params.append(spec)
        if finished_only:
            where.append(f"status IN ({', '.join('?' * len(FINISHED))})")
            params.extend(FINISHED)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, limit))
        out = History()
        damaged: list[Damaged] = []
        for row in self._read(sql, tuple(params)):
            try:
                out.append(_check_row(row))
            except _RowDamageError as exc:
                damaged.append(Damaged(row[0], str(exc)))
        out.damaged = tuple(damaged)
        return out

    def players(self) -> list[str]:
        """Every player name in the store, sorted (a name that is not valid
        text is left out)."""
        names = []
        for (name,) in self._read("SELECT DISTINCT player FROM games ORDER BY player"):
            with contextlib.suppress(_RowDamageError):
                names.append(_check_text("player", name))
        return names

    def stats(self, player: str | None = None, variant: str | Rules | None = None) -> Stats:
        """Statistics of ``player`` (default: :func:`default_player`) in
        ``variant`` (a spec or rules; None: every variant together).  The
        player's damaged rows do not count; they are listed in ``damaged``."""
        name = player or default_player()
        spec = _spec(variant)
        sql = f"SELECT {', '.join(_COLUMNS)} FROM games WHERE player = ?"
        params: list[object] = [name]
        if spec is not None:
            sql += " AND variant = ?"
            params.append(spec)
        damaged: list[Damaged] = []
        rows: list[GameRecord] = []
        for row in self._read(sql + " ORDER BY finished, id", tuple(params)):
            try:
                record = _check_row(row)
            except _RowDamageError as exc:
                damaged.append(Damaged(row[0], str(exc)))
                continue
            if record.status in FINISHED:
                rows.append(record)
        wins = best = run = 0
        series: list[Series] = []
        for start in range(0, len(rows), SERIES_SIZE):
            chunk = rows[start:start + SERIES_SIZE]
            series.append(Series(
                start // SERIES_SIZE + 1, len(chunk),
                sum(1 for r in chunk if r.status == "won"),
                sum(r.score for r in chunk) / len(chunk),
            ))
        for r in rows:
            if r.status == "won":
                wins += 1
                run += 1
                best = max(best, run)
            else:
                run = 0
        return Stats(
            player=name,
            variant=spec,
            games=len(rows),
            wins=wins,
            average_score=sum(r.score for r in rows) / len(rows) if rows else 0.0,
            best_score=max((r.score for r in rows), default=0),
            best_streak=best,
            current_streak=run,
            total_seconds=sum(r.seconds for r in rows),
            series=tuple(series),
            damaged=tuple(sorted(damaged)),
        )

    # -- export and import -------------------------------------------------

    def export(self, fmt: ExportFormat = "json") -> str:
        """Every game as CSV (one row per game, the moves as text) or JSON
        (a list of objects, each with its saved game under ``game``).
        Damaged games are left out (see :meth:`export_games`)."""
        return self.export_games(fmt).text

    def export_games(self, fmt: ExportFormat = "json") -> Export:
        """:meth:`export`, and the games it left out because they are
        damaged (each saved game is replayed first, so that what is
        exported can be imported again).  The JSON lists them under
        ``damaged`` too."""
        if fmt not in ("csv", "json"):
            raise StoreError(_("unknown export format {format} (csv or json)").format(
                format=repr(fmt)
            ))
        rows = self._read(f"SELECT {', '.join(_COLUMNS)}, saved FROM games ORDER BY id")
        good: list[tuple[GameRecord, dict[str, Any]]] = []
        damaged: list[Damaged] = []
        for row in rows:
            try:
                record = _check_row(row)
                good.append((record, _load(row[-1], record)[1]))
            except _RowDamageError as exc:
                damaged.append(Damaged(row[0], str(exc)))
        # an export file is the same in every language: variant names in English
        # (the reasons of damaged games stay in the reader's language)
        with using("en"):
            if fmt == "json":
                doc: dict[str, Any] = {
                    "format": "lucie-games", "version": EXPORT_VERSION,
                    "games": [record.to_json() | {"game": data} for record, data in good],
                }
                if damaged:
                    doc["damaged"] = [{"id": d.game_id, "reason": d.reason} for d in damaged]
                text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
            else:
                buf = io.StringIO()
                writer = csv.writer(buf, lineterminator="\n")
                writer.writerow([*_COLUMNS, "variant_name", "move_list"])
                for record, data in good:
                    moves = data.get("moves", [])
                    writer.writerow([*astuple(record), record.variant_name,
                                     " ".join(str(m) for m in moves)])
                text = buf.getvalue()
        return Export(text, len(good), tuple(damaged))

    def import_games(self, text: str | bytes) -> Imported:
        """Add the games of a JSON :meth:`export` (new ids); returns how
        many were added and how many were already in the store.

        A game already stored (same player, variant, deal, seed and start
        time) is left as it is, so importing a file twice adds nothing the
        second time and no recorded result is rewritten.  Every game is
        replayed and every field checked first (its score and number of
        moves against the game, a win against the engine); nothing is
        added if one fails."""
        data = parse_json(text, what=_("the games export"), error=StoreError)
        if not isinstance(data, dict) or data.get("format") != "lucie-games":
            raise StoreError(_("not a lucie games export (format {format} expected)").format(
                format="'lucie-games'"
            ))
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) \
                and version > EXPORT_VERSION:
            raise StoreError(_("the export was written by a newer lucie (version {version}, "
                               "this lucie reads up to {known})").format(
                                   version=version, known=EXPORT_VERSION))
        games = data.get("games")
        if not isinstance(games, list):
            raise StoreError(_("the export has no list of games"))
        rows = []
        for i, item in enumerate(games, 1):
            try:
                rows.append(_import_row(item))
            except (KeyError, TypeError, ValueError, LucieError, _RowDamageError) as exc:
                why = excerpt(exc.args[0], 120) if isinstance(exc, KeyError) and exc.args \
                    else exc
                raise StoreError(_("game {number} of the export is damaged: {why}").format(
                    number=i, why=why
                )) from None
        added = 0
        with self._write() as conn:
            for row in rows:
                found = conn.execute(
                    "SELECT 1 FROM games WHERE player = ? AND variant = ? AND deal IS ? "
                    "AND seed = ? AND started = ? LIMIT 1", row[:5],
                ).fetchone()
                if found is not None:
                    continue
                conn.execute(
                    "INSERT INTO games (player, variant, deal, seed, started, updated, "
                    "finished, status, score, moves, seconds, saved) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", row,
                )
                added += 1
        return Imported(added, len(rows) - added)


def _import_row(item: object) -> tuple[Any, ...]:
    """The row of one game of an export, checked field by field."""
    if not isinstance(item, dict):
        raise TypeError(_("not an object"))
    game = game_from_json(item["game"])
    finished = item["finished"]
    status = item["status"]
    seconds = item["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise _RowDamageError(_("{column} is {value}, not a number").format(
            column="seconds", value=_kind(seconds)))
    row = (
        0, item["player"], game.rules.spec(), game.deal, game.seed,
        item["started"], item["updated"], finished, status, game.score,
        len(game.moves), float(seconds),
    )
    record = _check_row(row)
    for column, value in (("variant", game.rules.spec()), ("deal", game.deal),
                          ("seed", game.seed), ("score", game.score),
                          ("moves", len(game.moves))):
        given = item.get(column, value)
        if column == "variant":
            given = _spec(given) if isinstance(given, str) else given
        if given != value:
            raise _RowDamageError(_("its {column} {value} does not match its game "
                                    "({expected})").format(
                column=column, value=excerpt(given), expected=value))
    if (status == "playing") != (finished is None):
        raise _RowDamageError(_("status {status} does not match finished {finished}").format(
            status=excerpt(status), finished=excerpt(finished)))
    if (status == "won") != (game.outcome.status == "won"):
        raise _RowDamageError(_("status {status} does not match its game, which is "
                                "{outcome}").format(status=excerpt(status),
                                                    outcome=game.outcome.status))
    return (record.player, record.variant, record.deal, record.seed, record.started,
            record.updated, record.finished, record.status, record.score, record.moves,
            record.seconds, _saved(game))


class Imported(NamedTuple):
    """What :meth:`Store.import_games` did: games added, games already there."""

    added: int
    skipped: int


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
        for v in range(version, SCHEMA_VERSION):
            conn.execute(_UPGRADES[v])
        conn.execute(f"PRAGMA user_version = {max(version, SCHEMA_VERSION)}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


@functools.cache
def _lucie_schema(version: int = SCHEMA_VERSION) -> _Schema:
    conn = sqlite3.connect(":memory:")
    try:
        for statement in _statements(_schema_script(version) + ";" + _CLAIMS + ";"
                                     + _WEB_GAMES):
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


def _no_game(game_id: int, path: Path) -> str:
    return _("there is no game {id} in {path}").format(id=game_id, path=path)


def _damaged_game(game_id: int, path: Path, why: object) -> str:
    return _("game {id} in {path} is damaged: {why}").format(id=game_id, path=path, why=why)


class Damaged(NamedTuple):
    """A stored game whose row cannot be used, and why."""

    game_id: int
    reason: str

    def __str__(self) -> str:
        return _("game {id}: {why}").format(id=self.game_id, why=self.reason)


class _RowDamageError(Exception):
    """Why a row cannot be used (caught within this module)."""


#: Statuses a game can have.
STATUSES: Final = ("playing", *FINISHED)
#: Bounds of the numbers of a row (beyond them the row is damaged).
_MAX_MOVES: Final = 10_000_000
_MAX_SECONDS: Final = 1e10
_INT64: Final = 2**63


def _check_text(column: str, value: object) -> str:
    if not isinstance(value, str):
        raise _RowDamageError(_("{column} is {value}, not text").format(
            column=column, value=_kind(value)
        ))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _RowDamageError(
            _("{column} is not valid UTF-8 text").format(column=column)
        ) from None
    return value


def _check_int(column: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _RowDamageError(_("{column} is {value}, not a whole number").format(
            column=column, value=_kind(value)
        ))
    if not low <= value <= high:
        raise _RowDamageError(_("{column} {value} is out of range ({low} to {high})").format(
            column=column, value=value, low=low, high=high
        ))
    return value


def _check_time(column: str, value: object) -> str:
    text = _check_text(column, value)
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise _RowDamageError(_("{column} {value} is not a date and time").format(
            column=column, value=excerpt(text)
        )) from None
    return text


def _kind(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return _("a blob of {n} bytes").format(n=len(value))
    return excerpt(value)


@functools.lru_cache(maxsize=256)
def _variant_problem(spec: str) -> str | None:
    try:
        Rules.parse(spec)
    except LucieError as exc:
        return _("variant {spec} is not known to this lucie ({why})").format(
            spec=excerpt(spec), why=exc
        )
    return None


def _check_row(row: tuple[Any, ...]) -> GameRecord:
    """The :class:`GameRecord` of a row of :data:`_COLUMNS`, checked value
    by value; raises :class:`_RowDamageError` naming the first problem."""
    (gid, player, variant, deal, seed, started, updated, finished, status, score,
     moves, seconds) = row[:12]
    _check_text("player", player)
    problem = _variant_problem(_check_text("variant", variant))
    if problem is not None:
        raise _RowDamageError(problem)
    if deal is not None:
        _check_int("deal", deal, 1, MAX_DEAL)
    _check_int("seed", seed, -_INT64, _INT64 - 1)
    _check_time("started", started)
    _check_time("updated", updated)
    if finished is not None:
        _check_time("finished", finished)
    if status not in STATUSES:
        raise _RowDamageError(_("status {value} is not one of {known}").format(
            value=_kind(status), known=", ".join(STATUSES)
        ))
    _check_int("score", score, 0, 52)
    _check_int("moves", moves, 0, _MAX_MOVES)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise _RowDamageError(_("{column} is {value}, not a number").format(
            column="seconds", value=_kind(seconds)
        ))
    if not (math.isfinite(seconds) and 0 <= seconds <= _MAX_SECONDS):
        raise _RowDamageError(_("{column} {value} is out of range ({low} to {high})").format(
            column="seconds", value=repr(seconds), low=0, high=f"{_MAX_SECONDS:.0e}"
        ))
    return GameRecord(gid, player, variant, deal, seed, started, updated, finished,
                      status, score, moves, round(float(seconds), 2))


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _saved(game: Game) -> str:
    return json.dumps(game_to_json(game), separators=(",", ":"))


def _load(saved: object, record: GameRecord | None = None) -> tuple[Game, dict[str, Any]]:
    """The game of a row's ``saved`` column (and its JSON document),
    checked against the row's variant and deal when given; raises
    :class:`_RowDamageError` naming the problem."""
    text = _check_text(_("the saved game"), saved)
    try:
        data = parse_json(text, what=_("the saved game"), error=SaveFileError)
        game = game_from_json(data)
    except LucieError as exc:
        raise _RowDamageError(str(exc)) from None
    except (TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise _RowDamageError(_("the saved game cannot be replayed ({why})").format(
            why=type(exc).__name__
        )) from None
    if record is not None and (
        Rules.parse(record.variant) != game.rules or game.deal != record.deal
    ):
        raise _RowDamageError(_(
            "the saved game ({variant}, deal {deal}) does not match its row "
            "({row_variant}, deal {row_deal})"
        ).format(variant=game.rules.spec(), deal=game.deal, row_variant=record.variant,
                 row_deal=record.deal))
    assert isinstance(data, dict)
    return game, data


class History(list[GameRecord]):
    """The rows :meth:`Store.history` returns, and the damaged ones it
    skipped (:attr:`damaged`)."""

    damaged: tuple[Damaged, ...] = ()


class Export(NamedTuple):
    """What :meth:`Store.export_games` wrote, and the damaged games it left out."""

    text: str
    games: int
    damaged: tuple[Damaged, ...]




# ---------------------------------------------------------------------------
# Which game an interface opens
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class Opened:
    """A game ready to play: its store id, the game, the time already
    played, and whether it was resumed."""

    game_id: int
    game: Game
    seconds: float
    resumed: bool


def open_game(
    store: Store, player: str, rules: Rules | None = None, deal: int | None = None,
) -> Opened:
    """Resume the player's unfinished game, or start (and claim) a new one.

    - no variant and no deal: the latest unfinished game of any variant;
    - a variant: the latest unfinished game of that variant;
    - a deal number: an unfinished game of that very deal in the variant
      given, classic when none is given (``--deal 7`` is classic deal 7,
      never a game of another variant).

    A game another running program plays (see :meth:`Store.claim`) is left
    alone, and so is a row whose saved game no longer loads.  A resumed
    game's moves are grouped into steps again (:meth:`Game.push_all`), so
    undo takes back a move and the cards autoplay sent home after it, as
    before the game was left.  Every interface opens its game here (the
    terminal game, line mode).
    """
    if deal is not None and rules is None:
        rules = Rules()
    found = _resumable(store, player, rules, deal)
    if found is not None:
        gid, game = found
        try:
            seconds = float(store.record(gid).seconds)
        except (TypeError, ValueError):
            seconds = 0.0
        return Opened(gid, game, seconds, True)
    game = Game(rules or Rules(), deal)
    gid = store.start_game(game, player)
    store.claim(gid)
    return Opened(gid, game, 0.0, False)


def _resumable(
    store: Store, player: str, rules: Rules | None, deal: int | None,
) -> tuple[int, Game] | None:
    if deal is None:
        found = store.unfinished(player, rules)
        if found is not None and store.claim(found[0]):
            return found
        return None
    for record in store.history(player, rules):
        if record.status != "playing" or record.deal != deal:
            continue
        try:
            game = store.game(record.id)
        except StoreError:
            continue
        if game.rules == rules and store.claim(record.id):
            return record.id, game
    return None


__all__ = [
    "APPLICATION_ID", "ENV_VAR", "EXPORT_VERSION", "SCHEMA_VERSION", "STATUSES", "Damaged",
    "Export", "GameRecord", "History", "Imported", "Opened", "Series", "Stats", "Store",
    "StoreBusy", "StoreError", "StoreFull", "default_path", "default_player", "open_game",
    "write_error",
]
