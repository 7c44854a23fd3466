"""A site's tidying (``lucie serve --forget-after DAYS``): the anonymous
players nothing of whose would be missed, and the deals never played, go
after that many days without a change.

Once when the site starts, then every :data:`EVERY` seconds, in a thread
of ``lucie serve``'s main process (with ``--workers N``, the supervisor:
one tidying per machine, whatever N), on that process's store.  What
goes is :meth:`lucie.store.Store.purge`'s: a player without a name, a
finished game or a change in that time (with their unplayed deals and
loaded games), and the deals without a move of the site's players; a
finished game, a named player and a local player's games are never
touched.  Every step is a condition checked by the database, so two
machines tidying one database at once do no harm.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, timedelta
from typing import Final

from lucie.errors import LucieError
from lucie.store import Store

#: Seconds between two tidyings.
EVERY: Final = 3600.0

_LOG: Final = logging.getLogger("lucie.tidy")


def cutoff(days: float, now: datetime | None = None) -> str:
    """The time ``days`` before ``now`` as the store writes times.

    >>> cutoff(30, datetime(2026, 12, 5, 12, 0, tzinfo=UTC))
    '2026-11-05T12:00:00+00:00'
    """
    moment = (now or datetime.now(UTC)) - timedelta(days=days)
    return moment.isoformat(timespec="seconds")


def tidy(store: Store, days: float) -> tuple[int, int]:
    """Forget what ``days`` without a change made idle (see the module);
    returns how many players and games went."""
    players, games = store.purge(cutoff(days))
    if players or games:
        _LOG.info("forgot %d idle players and %d games never played", players, games)
    return players, games


class Tidying:
    """:func:`tidy` now and every ``every`` seconds, in a daemon thread,
    until :meth:`stop`, on ``store``: the process's own (a second
    :class:`~lucie.store.Store` on one SQLite file in one process would
    drop the file locks of the first, which other processes rely on)."""

    def __init__(self, store: Store, days: float, every: float = EVERY) -> None:
        self.store = store
        self.days = days
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lucie-tidy", daemon=True)

    def start(self) -> Tidying:
        self._thread.start()
        return self

    def _run(self) -> None:
        while True:
            try:
                tidy(self.store, self.days)
            except LucieError as exc:  # a busy or full database: next time
                _LOG.warning("tidying failed: %s", exc)
            if self._stop.wait(self.every):
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)


__all__ = ["EVERY", "Tidying", "cutoff", "tidy"]
