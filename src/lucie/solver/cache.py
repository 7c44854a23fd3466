"""The cache of between-deal values, in memory and on disk (SQLite).

Between two deals only the cards left matter, and they are fixed by the
foundations: a *between-deal state* is ``(foundations, redeals left in the
coming deal, merci used)`` under some rules.  :mod:`lucie.solver.odds`
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

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, TypeVar

from lucie._sqlite import backoff, is_busy, use_wal

_T = TypeVar("_T")

#: Version of the meaning of the stored samples; a change of algorithm that
#: changes what a sample measures bumps it (old rows are then ignored).
CACHE_VERSION: Final = 1

#: How long a busy cache file is waited for before giving up.
BUSY_SECONDS: Final = 60.0

#: Environment variable naming the cache file (``off`` for memory only).
ENV_VAR: Final = "LUCIE_CACHE"

StateKey = tuple[str, tuple[int, int, int, int], int, bool]
"""``(rules spec, canonical foundations, redeals left, merci used)``."""


def default_cache_path() -> Path | None:
    """Where the cache lives unless told otherwise: ``$LUCIE_CACHE`` (``off``
    means nowhere), else ``odds.sqlite`` in the user cache directory
    (``platformdirs`` when installed, else ``~/.cache/lucie``)."""
    env = os.environ.get(ENV_VAR)
    if env is not None and env.strip():
        if env.strip().lower() in {"off", "none", "memory", ":memory:"}:
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

    # -- construction -----------------------------------------------------

    @classmethod
    def default(cls) -> ValueCache:
        """The cache at :func:`default_cache_path` (memory if ``off``)."""
        return cls(default_cache_path())

    @classmethod
    def memory(cls) -> ValueCache:
        return cls(None)

    # -- sqlite -------------------------------------------------------------

    def _transact(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` in one transaction on the file, and commit.

        SQLite's busy timeout does not cover every case of two processes
        opening a new file at once (see :mod:`lucie._sqlite`).  An attempt
        that meets a busy file is rolled back whole and tried again, so a busy file only
        waits, for up to :data:`BUSY_SECONDS`, and nothing is lost.
        """
        from lucie.errors import LucieError

        assert self.path is not None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LucieError(f"{self.path}: cannot open the odds cache ({exc})") from None
        deadline = time.monotonic() + BUSY_SECONDS
        attempt = 0
        while True:
            try:
                conn = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
            except sqlite3.Error as exc:
                raise LucieError(f"{self.path}: cannot open the odds cache ({exc})") from None
            try:
                use_wal(conn, BUSY_SECONDS)
                conn.execute("BEGIN IMMEDIATE")
                conn.execute(
                    "CREATE TABLE IF NOT EXISTS state_values ("
                    " version INTEGER, rules TEXT, foundations TEXT, redeals INTEGER,"
                    " merci_used INTEGER, total REAL, count INTEGER,"
                    " PRIMARY KEY (version, rules, foundations, redeals, merci_used))"
                )
                result = work(conn)
                conn.execute("COMMIT")
                return result
            except sqlite3.OperationalError as exc:
                if not is_busy(exc) or time.monotonic() > deadline:
                    raise LucieError(f"{self.path}: not a usable odds cache ({exc})") from None
            except sqlite3.DatabaseError as exc:
                raise LucieError(f"{self.path}: not a usable odds cache ({exc})") from None
            finally:
                conn.close()  # an open transaction is rolled back
            backoff(attempt)
            attempt += 1

    def _load(self, rules: str) -> None:
        if rules in self._loaded:
            return
        self._loaded.add(rules)
        if self.path is None or not self.path.exists():
            return
        rows = self._transact(
            lambda conn: conn.execute(
                "SELECT foundations, redeals, merci_used, total, count FROM state_values"
                " WHERE version = ? AND rules = ?",
                (CACHE_VERSION, rules),
            ).fetchall()
        )
        for found, redeals, merci, total, count in rows:
            f = tuple(int(x) for x in found.split("."))
            key: StateKey = (rules, (f[0], f[1], f[2], f[3]), int(redeals), bool(merci))
            self._stored[key] = (float(total), int(count))

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
        self._transact(
            lambda conn: conn.executemany(
                "INSERT INTO state_values VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (version, rules, foundations, redeals, merci_used)"
                " DO UPDATE SET total = total + excluded.total, count = count + excluded.count",
                rows,
            )
        )
        return len(delta)

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
