"""The cache of between-deal values, in memory and on disk (SQLite).

Between two deals only the cards left matter, and they are fixed by the
foundations: a *between-deal state* is ``(foundations, redeals left in the
coming deal, merci used)`` under some rules.  :mod:`lucie.analysis.odds`
estimates the value of such a state (the probability of winning from a fresh
random deal of the cards left, under the policy) by sampling; every sample
is a number in ``[0, 1]`` and the cache keeps, per state, the *sum* and the
*count* of the samples taken so far.  More samples can be added at any time
(by any process), so an estimate only gets better, and cheaper, with use.

The disk file is a small SQLite database (default under the user cache
directory, ``LUCIE_CACHE`` or an explicit path overrides it; ``LUCIE_CACHE=off``
or ``path=None`` keeps the cache in memory only).  Several processes may add
samples at once: each writes only the samples it took itself (its *delta*),
added to the stored row by an ``UPSERT``, so nothing is counted twice.

>>> cache = ValueCache(None)
>>> key = ("classic", (13, 13, 12, 13), 0, False)
>>> cache.get(key) is None
True
>>> cache.add(key, 1.0); cache.add(key, 0.0)
>>> cache.get(key)
(1.0, 2)
>>> cache.mean(key)
0.5
"""

from __future__ import annotations

import contextlib
import math
import os
import secrets
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, TypeVar

from lucie import environment
from lucie._sqlite import backoff, is_busy, use_wal
from lucie.errors import LucieError
from lucie.files import SQLITE_HEADER, describe, examine
from lucie.i18n import _, ngettext

_T = TypeVar("_T")

#: Version of the meaning of the stored samples; a change of algorithm that
#: changes what a sample measures bumps it (old rows are then ignored).
CACHE_VERSION: Final = 1

#: How long a busy cache file is waited for before giving up.
BUSY_SECONDS: Final = 60.0

#: Environment variable naming the cache file (``off`` for memory only).
ENV_VAR: Final = environment.CACHE

StateKey = tuple[str, tuple[int, int, int, int], int, bool]
"""``(rules spec, canonical foundations, redeals left, merci used)``."""

_TABLE: Final = (
    "CREATE TABLE IF NOT EXISTS state_values ("
    " version INTEGER, rules TEXT, foundations TEXT, redeals INTEGER,"
    " merci_used INTEGER, total REAL, count INTEGER,"
    " PRIMARY KEY (version, rules, foundations, redeals, merci_used))"
)
#: ``(name, type)`` of the table's columns, to recognise a cache file.
_COLUMNS: Final = [
    ("version", "INTEGER"), ("rules", "TEXT"), ("foundations", "TEXT"),
    ("redeals", "INTEGER"), ("merci_used", "INTEGER"), ("total", "REAL"),
    ("count", "INTEGER"),
]
#: Most redeals a state can have left (far above any variant's).
_MAX_REDEALS: Final = 1000
#: (file, kind) of the warnings already printed by this process.
_WARNED: set[tuple[str, str]] = set()


def _first_page_is_a_cache(path: Path) -> bool:
    """Whether a SQLite file that SQLite cannot read has lucie's cache table
    and nothing else in its first page (which holds the schema): a damaged
    cache of lucie's, not another program's file."""
    try:
        with open(path, "rb") as f:
            head = f.read(100)
            size = int.from_bytes(head[16:18], "big")
            page = f.read((65536 if size == 1 else size) - 100)
    except OSError:
        return False
    return page.count(b"CREATE ") == 1 and b"CREATE TABLE state_values (" in page


class CacheError(LucieError):
    """The cache path holds a file that is not an odds cache (or cannot be
    one: a pipe, a device, a link to nowhere); it is left as it is."""


def _text(raw: bytes) -> str:
    """Invalid UTF-8 in a row is kept as lone surrogates, not an error."""
    return raw.decode("utf-8", "surrogateescape")


def _is_damage(exc: sqlite3.DatabaseError) -> bool:
    """Whether ``exc`` says the file itself is bad (not, say, a full disk)."""
    text = str(exc).lower()
    return any(w in text for w in ("malformed", "not a database", "corrupt", "no such",
                                   "has no column", "datatype mismatch", "constraint"))


def _check_row(rules: str, row: Sequence[Any]) -> tuple[StateKey, float, int]:
    """The key, sum and count of a stored row; ValueError naming what is wrong."""
    found, redeals, merci, total, count = row
    if not isinstance(found, str):
        raise ValueError(f"foundations {found!r:.40} are not text")
    parts = found.split(".")
    if len(parts) != 4 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
        raise ValueError(f"foundations {found!r:.40} are not four numbers")
    f = tuple(int(p) for p in parts)
    if not all(0 <= x <= 13 for x in f):
        raise ValueError(f"foundations {found!r:.40} are out of range (0 to 13)")
    if isinstance(redeals, bool) or not isinstance(redeals, int) \
            or not 0 <= redeals <= _MAX_REDEALS:
        raise ValueError(f"redeals {redeals!r:.40} is not a number from 0 to {_MAX_REDEALS}")
    if merci not in (0, 1) or isinstance(merci, (bool, float)):
        raise ValueError(f"merci_used {merci!r:.40} is not 0 or 1")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count < 2**62:
        raise ValueError(f"count {count!r:.40} is not a positive whole number")
    if isinstance(total, bool) or not isinstance(total, (int, float)) \
            or not math.isfinite(total):
        raise ValueError(f"total {total!r:.40} is not a number")
    if not -1e-9 * count <= total <= count * (1 + 1e-9):
        raise ValueError(f"total {total!r} is not between 0 and the count {count}")
    key: StateKey = (rules, (f[0], f[1], f[2], f[3]), redeals, bool(merci))
    return key, float(min(max(total, 0.0), float(count))), count


def default_cache_path(*, ignore_env: bool = False) -> Path | None:
    """Where the cache lives unless told otherwise: ``$LUCIE_CACHE`` (``off``
    means nowhere; not read with ``ignore_env``), else ``odds.sqlite`` in
    the user cache directory (``platformdirs`` when installed, else
    ``~/.cache/lucie``)."""
    env = None if ignore_env else environment.setting(ENV_VAR)
    if env is not None:
        if env.lower() in {"off", "none", "memory", ":memory:"}:
            return None
        return Path(env).expanduser()
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # pragma: no cover - platformdirs is in most extras
        return Path.home() / ".cache" / "lucie" / "odds.sqlite"
    return Path(user_cache_dir("lucie", appauthor=False)) / "odds.sqlite"


class ValueCache:
    """Sums and counts of value samples per between-deal state.

    ``path`` is the SQLite file (created when missing); ``None`` keeps
    everything in memory.  Rows are loaded lazily, one rules spec at a
    time; :meth:`flush` writes the samples taken since the last flush.
    """

    def __init__(self, path: str | Path | None) -> None:
        self.path: Path | None = Path(path).expanduser() if path is not None else None
        self._stored: dict[StateKey, tuple[float, int]] = {}
        self._delta: dict[StateKey, tuple[float, int]] = {}
        self._loaded: set[str] = set()
        self._lock = threading.Lock()
        self._checked = False
        #: What was reported about the file (damaged rows, a file set aside...).
        self.warnings: list[str] = []

    # -- construction -----------------------------------------------------

    @classmethod
    def default(cls) -> ValueCache:
        """The cache at :func:`default_cache_path` (memory if ``off``)."""
        return cls(default_cache_path())

    @classmethod
    def memory(cls) -> ValueCache:
        return cls(None)

    # -- sqlite -------------------------------------------------------------
    #
    # The file is only a cache: nothing in it may stop lucie or be believed
    # blindly, and no file of another program is ever touched.  A file that
    # is not a cache (not SQLite, another program's tables, one whose tables
    # cannot be read, a pipe, a device) is left as it is: :meth:`check`
    # refuses it (the command line exits with status 2 naming its kind) and
    # a cache that was not checked keeps its values in memory.  A cache of
    # lucie's own whose pages are damaged is set aside under a new name and
    # a new cache started; a row that does not hold a sane sum and count is
    # ignored and deleted; a place where no cache can be written turns the
    # cache into a memory one.  Each is reported once, as a warning on
    # standard error.

    def _warn(self, kind: str, message: str) -> None:
        """Report ``message`` once per file and ``kind`` in this process."""
        self.warnings.append(message)
        if (str(self.path), kind) not in _WARNED:
            _WARNED.add((str(self.path), kind))
            print(_("lucie: warning: {message}").format(message=message), file=sys.stderr)

    def _give_up(self, reason: str) -> None:
        """Keep the cache in memory from now on (the samples stay)."""
        self._warn("unusable", _("the odds cache {path} cannot be used ({reason}); "
                                 "values are kept in memory only").format(
                                     path=self.path, reason=reason))
        self.path = None

    def check(self) -> None:
        """Refuse a cache path that holds a file of another kind: raises
        :class:`CacheError` naming what is there, and the file is left byte
        for byte as it was.  Called by the command line before any work."""
        if self.path is None:
            return
        foreign, _damage = self._examine()
        if foreign is not None:
            raise CacheError(foreign)

    def _examine(self) -> tuple[str | None, str | None]:
        """``(foreign, damage)``: why the file at :attr:`path` is not a cache
        of lucie's (a message; it must be left alone), or why it is a
        damaged one (it may be set aside); ``(None, None)`` for a usable
        cache or none yet.  Nothing is written."""
        assert self.path is not None
        path = self.path
        what = _("the odds cache")
        try:
            if examine(path, what=what) is None:
                return None, None
            with open(path, "rb") as f:
                head = f.read(100)
        except FileNotFoundError:  # pragma: no cover - removed in between
            return None, None
        except LucieError as exc:
            return str(exc), None
        except OSError as exc:
            return f"{what} {path}: {exc.strerror or exc}", None
        if not head:
            return None, None  # SQLite's empty database (another process may be making it)
        if not head.startswith(SQLITE_HEADER) or len(head) < 100:
            return self._foreign(describe(head)), None
        try:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                   timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            return self._foreign(_("a file SQLite cannot open ({error})").format(
                error=exc)), None
        try:
            objects = {
                (str(kind), str(name))
                for kind, name in conn.execute("SELECT type, name FROM sqlite_master")
                if not str(name).startswith("sqlite_")
            }
            if objects - {("table", "state_values")}:
                names = ", ".join(sorted(name for _kind, name in objects))
                return self._foreign(_("another program's SQLite database (tables: "
                                       "{names})").format(names=names[:80])), None
            if objects:
                columns = [tuple(r[1:3]) for r in conn.execute("PRAGMA table_info(state_values)")]
                if columns != _COLUMNS:
                    return self._foreign(_("a SQLite database whose table state_values has "
                                           "other columns")), None
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                return None, _("damaged: {error}").format(error=str(check)[:80])
        except sqlite3.DatabaseError as exc:
            if is_busy(exc):
                return None, None  # someone is using it: a database; looked at again later
            if _first_page_is_a_cache(path):
                return None, _("damaged: {error}").format(error=exc)
            return self._foreign(_("a SQLite file whose tables cannot be read ({error})")
                                 .format(error=exc)), None
        finally:
            conn.close()
        return None, None

    def _foreign(self, kind: str) -> str:
        return _("the odds cache {path} is {kind}, not an odds cache; it was left "
                 "untouched. Choose another file with --cache (or ${variable}), or "
                 "'off'.").format(path=self.path, kind=kind, variable=ENV_VAR)

    def _set_aside(self, reason: str) -> None:
        """Rename the damaged file (and its -wal, -shm) with a ``.damaged-``
        suffix so that a new cache starts; the old one is kept to look at."""
        assert self.path is not None
        path = self.path
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{secrets.token_hex(2)}")
        try:
            os.rename(path, aside)
        except FileNotFoundError:
            return  # another process set it aside already
        except OSError as exc:
            self._give_up(_("{reason}; it could not be set aside: {error}").format(
                reason=reason, error=exc.strerror))
            return
        for side in ("-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.rename(f"{path}{side}", f"{aside}{side}")
        self._warn("aside", _("the odds cache {path} was unusable ({reason}); it was moved "
                              "to {aside} and a new cache started").format(
                                  path=path, reason=reason, aside=aside))

    def _ready(self) -> None:
        """Check the file once per instance, before the first use."""
        if self._checked or self.path is None:
            return
        self._checked = True
        if self.path.is_dir():
            self._give_up(_("it is a directory"))
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._give_up(_("cannot create {folder}: {error}").format(
                folder=self.path.parent, error=exc.strerror))
            return
        foreign, damage = self._examine()
        if foreign is not None:
            self._give_up(foreign)
        elif damage is not None:
            self._set_aside(damage)

    def _transact(self, work: Callable[[sqlite3.Connection], _T]) -> _T | None:
        """Run ``work`` in one transaction on the file, and commit; None if
        the cache has become a memory one.

        SQLite's busy timeout does not cover every case of two processes
        opening a new file at once (see :mod:`lucie._sqlite`).  An attempt
        that meets a busy file is rolled back whole and tried again, so a busy file only
        waits, for up to :data:`BUSY_SECONDS`, and nothing is lost.  A file
        found damaged on the way is set aside and the work done on a new one.
        """
        self._ready()
        deadline = time.monotonic() + BUSY_SECONDS
        attempt = 0
        set_aside = False
        while self.path is not None:
            try:
                conn = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
            except sqlite3.Error as exc:
                self._give_up(str(exc))
                return None
            conn.text_factory = _text
            try:
                use_wal(conn, BUSY_SECONDS)
                conn.execute("BEGIN IMMEDIATE")
                conn.execute(_TABLE)
                result = work(conn)
                conn.execute("COMMIT")
                return result
            except sqlite3.DatabaseError as exc:
                if is_busy(exc) and time.monotonic() <= deadline:
                    pass  # wait and try again
                elif is_busy(exc) or set_aside or not _is_damage(exc):
                    self._give_up(str(exc))
                    return None
                else:
                    set_aside = True
                    conn.close()
                    self._set_aside(str(exc))
                    continue
            finally:
                conn.close()  # an open transaction is rolled back
            backoff(attempt)
            attempt += 1
        return None

    def _load(self, rules: str) -> None:
        if rules in self._loaded:
            return
        self._loaded.add(rules)
        if self.path is None or not self.path.exists():
            return

        def read(conn: sqlite3.Connection) -> list[tuple[StateKey, float, int]]:
            good: list[tuple[StateKey, float, int]] = []
            bad: list[tuple[int, str]] = []
            for rowid, *row in conn.execute(
                "SELECT rowid, foundations, redeals, merci_used, total, count"
                " FROM state_values WHERE version = ? AND rules = ?",
                (CACHE_VERSION, rules),
            ):
                try:
                    good.append(_check_row(rules, row))
                except ValueError as exc:
                    bad.append((rowid, str(exc)))
            if bad:
                conn.executemany("DELETE FROM state_values WHERE rowid = ?",
                                 [(rowid,) for rowid, _why in bad])
                self._warn("rows", ngettext(
                    "the odds cache {path}: {count} damaged entry of {rules} ignored and "
                    "removed (first: {first})",
                    "the odds cache {path}: {count} damaged entries of {rules} ignored and "
                    "removed (first: {first})", len(bad),
                ).format(path=self.path, count=len(bad), rules=rules, first=bad[0][1]))
            return good

        rows = self._transact(read) or []
        for key, total, count in rows:
            self._stored[key] = (total, count)

    def flush(self) -> int:
        """Write the samples taken since the last flush; returns how many
        states were written (0 for a memory cache)."""
        with self._lock:
            delta, self._delta = self._delta, {}
            for key, (total, count) in delta.items():
                old = self._stored.get(key, (0.0, 0))
                self._stored[key] = (old[0] + total, old[1] + count)
        if self.path is None or not delta:
            return 0
        rows = [
            (CACHE_VERSION, k[0], ".".join(map(str, k[1])), k[2], int(k[3]), t, c)
            for k, (t, c) in delta.items()
        ]
        written = self._transact(
            lambda conn: conn.executemany(
                "INSERT INTO state_values VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (version, rules, foundations, redeals, merci_used)"
                " DO UPDATE SET total = total + excluded.total, count = count + excluded.count",
                rows,
            )
        )
        return len(delta) if written is not None else 0

    # -- values ---------------------------------------------------------------

    def get(self, key: StateKey) -> tuple[float, int] | None:
        """``(sum, count)`` of the samples of a state, or None."""
        self._load(key[0])
        stored = self._stored.get(key)
        delta = self._delta.get(key)
        if stored is None and delta is None:
            return None
        s = stored or (0.0, 0)
        d = delta or (0.0, 0)
        return (s[0] + d[0], s[1] + d[1])

    def count(self, key: StateKey) -> int:
        got = self.get(key)
        return got[1] if got else 0

    def mean(self, key: StateKey) -> float | None:
        got = self.get(key)
        if got is None or got[1] == 0:
            return None
        return got[0] / got[1]

    def add(self, key: StateKey, value: float, count: int = 1) -> None:
        """Record ``count`` samples whose sum is ``value``."""
        self._load(key[0])
        with self._lock:
            old = self._delta.get(key, (0.0, 0))
            self._delta[key] = (old[0] + value, old[1] + count)

    def set_exact(self, key: StateKey, value: float) -> None:
        """Record an exactly computed value (stored with a huge count so
        that sampling never tops it up)."""
        if self.count(key) >= EXACT_COUNT:
            return
        self.add(key, value * EXACT_COUNT, EXACT_COUNT)

    def is_exact(self, key: StateKey) -> bool:
        return self.count(key) >= EXACT_COUNT

    def __len__(self) -> int:
        return len(set(self._stored) | set(self._delta))


#: Count recorded with an exact value (far above any sample target).
EXACT_COUNT: Final = 1_000_000_000
