"""Rate counts shared by every process on one database (schema 6).

A site's rate limits (``lucie serve --address-limit``/``--player-limit``)
count a client's requests in the store, so that ``--workers N`` and
several machines on one database hold a client to the limit once, not N
times.  The count is a *sliding window counter* (the strategy of that
name in the ``limits`` library): requests are counted per fixed window
of the limit's length, and a request is let through while

    ceil(previous window's count x the part of it still in the last
    ``seconds``) + this window's count  <  the limit,

which follows a moving window closely without keeping a time per request.

A process does not write each request: it *reserves* a batch of requests
for a client at once (:func:`reserve`) and lets them through from memory
(:class:`lucie.web.site.operate.SharedWindow`).  What one process reserved and
did not use is lost to the client until the window ends, so a client
whose requests go to several processes may be held a little under the
limit, never over it.  The rows of past windows are deleted as new
windows start (:func:`forget_before`).

>>> import tempfile, pathlib
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "limits.sqlite3")
>>> [reserve(store, "player", "7", most=5, seconds=60, want=2, now=600.0) for _ in range(4)]
[2, 2, 1, 0]
>>> reserve(store, "player", "7", most=5, seconds=60, want=2, now=690.0)  # 5 x 1/2 still counts
2
>>> reserve(store, "player", "8", most=5, seconds=60, want=9, now=600.0)  # another client
5
>>> store.close()
"""

from __future__ import annotations

import math
from typing import Final

from lucie.store.core import Store

#: Tries of the conditional write when other processes reserve at once.
_TRIES: Final = 4


def window_start(now: float, seconds: int) -> int:
    """The start (seconds since the epoch) of the window holding ``now``.

    >>> window_start(125.5, 60)
    120
    """
    return int(now // seconds) * seconds


def room(previous: int, used: int, *, most: int, seconds: int, now: float) -> int:
    """Requests still allowed now: ``most`` less this window's ``used`` and
    the part of the ``previous`` window's count still inside the last
    ``seconds`` (rounded up).

    >>> room(10, 0, most=10, seconds=60, now=30.0)  # half the last window still counts
    5
    >>> room(10, 0, most=10, seconds=60, now=0.0)
    0
    """
    elapsed = (now - window_start(now, seconds)) / seconds
    return most - math.ceil(previous * (1.0 - elapsed)) - used


def retry_after(previous: int, used: int, *, most: int, seconds: int, now: float) -> float:
    """Seconds until one more request would be let through (0 if now).

    >>> retry_after(10, 0, most=10, seconds=60, now=30.0)
    0.0
    >>> retry_after(0, 10, most=10, seconds=60, now=30.0)  # the next window, with 10 to age
    36.0
    """
    if room(previous, used, most=most, seconds=seconds, now=now) > 0:
        return 0.0
    start = window_start(now, seconds)
    if used < most:  # this window: wait for the previous one's share to age enough
        # ceil(previous x (1 - f)) <= most - used - 1  <=>  f >= 1 - (most - used - 1) / previous
        share = 1.0 - (most - used - 1) / previous
        return max(0.0, start + share * seconds - now)
    # the next window, where this one's ``used`` ages out the same way
    share = 1.0 - (most - 1) / used if used else 0.0
    return start + seconds + max(0.0, share) * seconds - now


def counts(store: Store, kind: str, who: str, *, seconds: int,
           now: float) -> tuple[int, int]:
    """The previous window's and this window's counts of a client."""
    start = window_start(now, seconds)
    rows = store._read("SELECT since, used FROM rate_counts WHERE kind = ? AND who = ?"
                       " AND since IN (?, ?)", (kind, who, start - seconds, start))
    found = {int(since): int(used) for since, used in rows}
    return found.get(start - seconds, 0), found.get(start, 0)


def reserve(store: Store, kind: str, who: str, *, most: int, seconds: int, want: int,
            now: float) -> int:
    """Count up to ``want`` requests of client ``who`` (of limit ``kind``)
    in the window holding ``now``, as many as the limit allows; returns how
    many were counted (0: the client is over the limit).  One conditional
    write: of several processes reserving at once, none takes more than
    the limit leaves."""
    start = window_start(now, seconds)
    for _try in range(_TRIES):
        previous, used = counts(store, kind, who, seconds=seconds, now=now)
        grant = min(want, room(previous, used, most=most, seconds=seconds, now=now))
        if grant <= 0:
            return 0
        cap = most - math.ceil(previous * (1.0 - (now - start) / seconds))
        with store._write() as tx:
            row = tx.execute(
                "INSERT INTO rate_counts (kind, who, since, used) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (kind, who, since) DO UPDATE"
                " SET used = rate_counts.used + excluded.used"
                " WHERE rate_counts.used + excluded.used <= ? RETURNING used",
                (kind, who, start, grant, cap)).fetchone()
        if row is not None:
            return grant
    return 0  # others took the room meanwhile


def forget_before(store: Store, kind: str, since: int) -> int:
    """Delete the counts of limit ``kind`` of windows that started before
    ``since``; how many rows went."""
    with store._write() as tx:
        cur = tx.execute("DELETE FROM rate_counts WHERE kind = ? AND since < ?", (kind, since))
        return int(cur.rowcount)


__all__ = ["counts", "forget_before", "reserve", "retry_after", "room", "window_start"]
