"""The one exception of the web API's handlers: a bad request and its answer."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A bad request: answered with ``status`` and ``{"error": message}``."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


__all__ = ["ApiError"]
