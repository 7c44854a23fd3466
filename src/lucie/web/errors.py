"""The one exception of the web API's handlers: a bad request and its answer,
and how the errors of the layers below become answers (:func:`from_lucie`)."""

from __future__ import annotations

from typing import Any, Final

from lucie.errors import LucieError
from lucie.session import NotSavedError, StaleGame, StoreError, StoreFault

#: Seconds a client is told to wait (``Retry-After``) after a fault of the
#: store (a full disk, a locked database, a database server down or
#: restarting): long enough for a person to free space, close the other
#: program or start the server again.
RETRY_AFTER: Final = 30


class ApiError(Exception):
    """A bad request: answered with ``status`` and ``{"error": message}``
    (and a ``Retry-After`` header of ``retry_after`` seconds, if given)."""

    def __init__(self, status: int, message: str, *, retry_after: int | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = str(retry_after) if retry_after is not None else None
        self.extra = extra


def from_lucie(exc: LucieError) -> ApiError:
    """The answer to an error of the engine or the store: a full disk or a
    database locked by another program is the server's passing trouble,
    503 with ``Retry-After`` (nothing was recorded, the request may be sent
    again); a site's game changed meanwhile by another process, 409;
    anything else the request's fault, 422."""
    if isinstance(exc, NotSavedError) and isinstance(exc.error, StaleGame):
        # a site's game changed by another process meanwhile: the page reads
        # it again at once (``stale``), and so does this process
        return ApiError(409, str(exc.error), stale=True)
    if isinstance(exc, StoreFault | NotSavedError):  # nothing changed
        return ApiError(503, str(exc), retry_after=RETRY_AFTER)
    return ApiError(422, str(exc))


def store_fault(exc: BaseException) -> StoreError | None:
    """The store's fault (:class:`~lucie.store.StoreFault`: the operator's,
    a 503) that ``exc`` is or carries, if any."""
    if isinstance(exc, NotSavedError):
        exc = exc.error
    return exc if isinstance(exc, StoreFault) else None


__all__ = ["RETRY_AFTER", "ApiError", "from_lucie", "store_fault"]
