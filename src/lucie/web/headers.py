"""The headers lucie adds to every HTTP answer, and the one way it adds
them: :func:`with_headers` wraps an ASGI ``send`` (used by
:class:`lucie.web.app.SecurityHeaders` and
:class:`lucie.web.language.LanguageMiddleware`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from starlette.types import Message, Send

#: A strict Content-Security-Policy (everything from this server), no
#: sniffing of types, no referrer.
SECURITY: Final = (
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
     b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


def with_headers(send: Send, extra: Sequence[tuple[bytes, bytes]]) -> Send:
    """``send``, adding the headers ``extra`` to the start of the response."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *extra]
        await send(message)

    return sending


__all__ = ["SECURITY", "with_headers"]
