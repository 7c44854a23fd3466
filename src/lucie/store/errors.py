"""The store's errors, the same for every backend."""

from __future__ import annotations

from lucie.errors import LucieError


class StoreError(LucieError):
    """The database cannot be used: damaged, from a newer lucie, unreadable."""


class StoreFull(StoreError):  # noqa: N818 - the name issue 36 gives it
    """A write failed because the disk is full or the file may grow no more
    (a quota, a file-size limit).  Nothing already saved is lost; the
    database is healthy and works again once there is room."""


class StoreBusy(StoreError):  # noqa: N818 - the name issue 36 gives it
    """Another program held the database locked for longer than the busy
    timeout; nothing was written."""


class StaleGame(StoreError):  # noqa: N818 - says what happened, like StoreFull
    """A change was made against a version of a game that is no longer the
    stored one (another process recorded a change meanwhile); nothing was
    written.  Load the game again."""


__all__ = ["StaleGame", "StoreBusy", "StoreError", "StoreFull"]
