"""The exceptions lucie raises for bad input.

Every error a user can cause is a :class:`LucieError`; interfaces catch it,
print its message (which names the problem) and exit with status 2 or answer
with an HTTP 4xx.  Anything else escaping is a bug.
"""

from __future__ import annotations


class LucieError(ValueError):
    """Base class of every user-facing error in lucie."""


class CardError(LucieError):
    """A card token that cannot be parsed."""


class RulesError(LucieError):
    """An unknown variant, an unknown setting or contradictory settings."""


class DealError(LucieError):
    """A deal number that is not a positive integer in range."""


class LayoutError(LucieError):
    """A layout text that does not describe a legal position."""


class MoveError(LucieError):
    """A move that cannot be parsed, or that is illegal where it is played.

    ``reason``: for an illegal move, why it is illegal without the move
    (the engine's :meth:`~lucie.engine.Position.why_illegal`), in the
    language the message was made in; None for a move that is not parsed.
    """

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class SaveFileError(LucieError):
    """A saved game that is truncated, edited or from a newer format."""


class FileKindError(LucieError):
    """A path that is not a regular file lucie may use: a directory, a pipe,
    a device, a symbolic-link loop or a dangling link, a file too large, or
    a file of another kind where lucie would write its own."""
