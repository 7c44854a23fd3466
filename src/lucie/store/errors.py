"""The store's errors, the same for every backend."""

from __future__ import annotations

import contextvars
from typing import Final

from lucie.errors import LucieError


class StoreError(LucieError):
    """The database cannot be used: damaged, from a newer lucie, unreadable."""


class StoreFault(StoreError):  # noqa: N818 - the family of the three below
    """The database cannot be used just now, for a reason of the operator's
    and not of the request's (a full disk, a lock held by another program,
    a server down or restarting, a read-only file): nothing was written,
    nothing saved before is lost, and the same request works again once the
    cause is gone.  A site answers it 503 with ``Retry-After``."""


class StoreFull(StoreFault):
    """A write failed because the disk is full or the file may grow no more
    (a quota, a file-size limit).  Nothing already saved is lost; the
    database is healthy and works again once there is room."""


class StoreBusy(StoreFault):
    """Another program held the database locked for longer than the busy
    timeout; nothing was written."""


class StoreDown(StoreFault):
    """The database cannot be reached or written just now: its server is
    down or restarting, the connection to it was lost, its file is
    read-only or the disk under it fails.  Nothing was written; a
    PostgreSQL store connects again by itself at its next statement."""


class StaleGame(StoreError):  # noqa: N818 - says what happened, like StoreFull
    """A change was made against a version of a game that is no longer the
    stored one (another process recorded a change meanwhile); nothing was
    written.  Load the game again."""


#: The :func:`time.monotonic` time by which a piece of store work must have
#: its locks (None: the busy timeout from each statement's start).  A site
#: sets it when a request asks for the work, so that work queued behind a
#: locked database waits the busy timeout once in all, not once a statement
#: nor once for each piece of work before it (:mod:`lucie.web.store_link`).
WAIT_UNTIL: Final[contextvars.ContextVar[float | None]] = contextvars.ContextVar(
    "lucie_store_wait_until", default=None)


__all__ = ["WAIT_UNTIL", "StaleGame", "StoreBusy", "StoreDown", "StoreError", "StoreFault",
           "StoreFull"]
