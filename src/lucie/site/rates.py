"""A site's rate counts, shared by every process and machine on one store
(a sliding window counter, :mod:`lucie.store.limits`): the site's rate
limits (:class:`lucie.web.site.operate.SharedWindow`) ask these."""

from __future__ import annotations

from lucie.store import Store
from lucie.store import limits as _counts

# the window holding a moment, and the wait until a client refused may ask
# again (arithmetic only: no store)
from lucie.store.limits import retry_after, window_start


def counts(store: Store, kind: str, who: str, *, seconds: int, now: float) -> tuple[int, int]:
    """The previous window's and this window's counts of client ``who``."""
    return _counts.counts(store, kind, who, seconds=seconds, now=now)


def take(store: Store, kind: str, who: str, *, most: int, seconds: int, want: int,
         now: float) -> int:
    """Count up to ``want`` requests of ``who`` in the window of ``now``, as
    many as the limit ``most`` allows; how many were counted (0: refused)."""
    return _counts.reserve(store, kind, who, most=most, seconds=seconds, want=want, now=now)


def drop_before(store: Store, kind: str, since: int) -> int:
    """Forget the counts of limit ``kind`` of windows started before ``since``."""
    return _counts.forget_before(store, kind, since)


__all__ = ["counts", "drop_before", "retry_after", "take", "window_start"]
