"""The ``Host`` names a server on a loopback address answers to.

A page on another site can make its own name point to 127.0.0.1 (DNS
rebinding): the browser then sends that page's requests to this server as
same-origin ones, with the other site's name in ``Host``.  A server bound to
a loopback address (any of 127.0.0.0/8, or ``::1``) therefore answers only
to the names of the address it serves: the address itself (an IPv6 one in
brackets), ``localhost`` where it names that address (127.0.0.1 and
``::1``), and the name given to ``--host`` when it resolves to it.  Names
are compared without regard to case, with or without a port; addresses as
addresses (``[0:0:0:0:0:0:0:1]`` is ``[::1]``).  Every other ``Host`` is
refused with 400 before the request reaches the app.

>>> names = served_names("LOCALHOST", "127.0.0.1")
>>> [names.accepts(h) for h in ("localhost:8000", "127.0.0.1", "evil.example:8000")]
[True, True, False]
>>> served_names("0.0.0.0", "0.0.0.0") is None  # not loopback: any Host
True
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Final

from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from lucie.i18n import _
from lucie.parsing import excerpt
from lucie.web.answers import JSONAnswer

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

#: The loopback addresses ``localhost`` names.
_LOCALHOST: Final = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))


def _address(text: str) -> Address | None:
    """``text`` as an IP address (an IPv6 one with or without brackets)."""
    try:
        return ipaddress.ip_address(text[1:-1] if text.startswith("[") else text)
    except ValueError:
        return None


def is_loopback(address: Address) -> bool:
    """Whether only this machine reaches ``address`` (an IPv4-mapped IPv6
    loopback address included)."""
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def split_host(value: str) -> tuple[str, str | None] | None:
    """A ``Host`` header as (name, port); None when it is malformed.

    >>> split_host("[::1]:8000"), split_host("Example.org"), split_host("a:b:c")
    (('[::1]', '8000'), ('example.org', None), None)
    """
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        name, rest = value[:end + 1], value[end + 1:]
        if end < 0 or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
    else:
        name, colon, tail = value.partition(":")
        port = tail if colon else None
    if not name or (port is not None and not (port.isascii() and port.isdigit())):
        return None
    return name, port


@dataclass(frozen=True)
class HostNames:
    """The names and addresses a server answers to."""

    names: frozenset[str]
    addresses: frozenset[Address]

    @classmethod
    def of(cls, hosts: list[str]) -> HostNames:
        """From a list of names and addresses (``127.0.0.1``, ``[::1]``,
        ``localhost``)."""
        names: set[str] = set()
        addresses: set[Address] = set()
        for host in hosts:
            address = _address(host.strip())
            if address is not None:
                addresses.add(address)
            else:
                names.add(host.strip().lower())
        return cls(frozenset(names), frozenset(addresses))

    def accepts(self, host: str) -> bool:
        """Whether a request with this ``Host`` header is for this server."""
        parts = split_host(host)
        if parts is None:
            return False
        name = parts[0]
        if name.startswith("["):  # only an IPv6 address is written in brackets
            address = _address(name)
            return isinstance(address, ipaddress.IPv6Address) and address in self.addresses
        address = _address(name)
        if address is not None:
            return isinstance(address, ipaddress.IPv4Address) and address in self.addresses
        return name in self.names

    def shown(self) -> str:
        """The accepted names, for a message."""
        written = sorted(self.names) + sorted(
            f"[{a}]" if a.version == 6 else str(a) for a in self.addresses)
        return ", ".join(written)


def served_names(host: str, bound: str) -> HostNames | None:
    """The names a server asked to listen on ``host`` (as given to
    ``--host``) and bound to the address ``bound`` answers to; None (any)
    when that address is not a loopback one."""
    address = _address(bound.split("%", 1)[0])
    if address is None or not is_loopback(address):
        return None
    names = {host.strip().lower()} if _address(host.strip()) is None else set()
    names.discard("")
    if address in _LOCALHOST:
        names.add("localhost")
    addresses = {address}
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:
        addresses.add(mapped)
    return HostNames(frozenset(names), frozenset(addresses))


class HostGuard:
    """Refuses (400) every HTTP or WebSocket request whose ``Host`` is not
    one of ``allowed``."""

    def __init__(self, app: ASGIApp, allowed: HostNames) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = ""
        for key, value in scope.get("headers", ()):
            if key == b"host":
                host = value.decode("latin-1")
                break
        if self.allowed.accepts(host):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":  # refused before the handshake is accepted
            await send({"type": "websocket.close", "code": 1008})
            return
        text = _("refused: this server answers only to {names}, not to the host {host}").format(
            names=self.allowed.shown(), host=excerpt(host) if host else _("none"))
        response: Response
        if str(scope.get("path", "")).startswith("/api/"):
            response = JSONAnswer({"error": text}, status_code=400)
        else:
            response = PlainTextResponse(text, status_code=400)
        await response(scope, receive, send)


__all__ = ["HostGuard", "HostNames", "is_loopback", "served_names", "split_host"]
