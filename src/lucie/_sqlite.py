"""One SQLite detail shared by the statistics store and the odds cache.

SQLite's busy timeout covers ordinary locks, but not every case of two
processes opening a new file at once: switching a file to WAL, or reading it
while another connection recovers the WAL index, can report "database is
locked" at once.  :func:`is_busy` recognises that error and :func:`use_wal`
switches a connection to WAL, waiting out such a moment instead of failing.
"""

from __future__ import annotations

import random
import sqlite3
import time


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` only says another connection holds the file."""
    text = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def backoff(attempt: int) -> None:
    """Sleep a little before retry ``attempt`` (0, 1, ...): 10 ms doubling
    up to half a second, jittered so that two processes do not collide
    again in step."""
    pause = min(0.01 * (2**attempt), 0.5)
    time.sleep(pause * (0.5 + random.random()))


def use_wal(conn: sqlite3.Connection, seconds: float) -> str:
    """Put the file in WAL mode unless it is already; returns the journal
    mode in force (a file system without shared memory may refuse WAL).
    A busy file is waited for up to ``seconds``, then the error is raised."""
    deadline = time.monotonic() + seconds
    attempt = 0
    while True:
        try:
            mode = str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()
            if mode == "wal":
                return mode
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) or time.monotonic() > deadline:
                raise
        backoff(attempt)
        attempt += 1
