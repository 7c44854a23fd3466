"""The one exception of the web API's handlers: a bad request and its answer."""

from __future__ import annotations

from typing import Any


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


__all__ = ["ApiError"]
