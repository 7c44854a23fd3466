"""Serving a site for a test: an app in uvicorn on a thread of the test's
process (:func:`served`), and waiting for a server to answer
(:func:`healthy`, :func:`wait_for`).  Real ``lucie serve`` processes are
started by the ``serve_site`` fixture (tests/store/conftest.py)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx


def healthy(url: str) -> bool:
    """Whether the server at ``url`` says it is healthy."""
    try:
        return httpx.get(url + "/healthz", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


def answers(url: str) -> bool:
    """Whether the server at ``url`` answers at all (healthy or not)."""
    try:
        httpx.get(url + "/healthz", timeout=5)
    except httpx.TransportError:
        return False
    return True


def wait_for(what: str, check: Callable[[], bool], seconds: float = 60) -> None:
    """Wait until ``check()``; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.05)


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn on a free port of 127.0.0.1 (a thread of
    this process) while the block runs; its address.  The app is stopped
    and its store closed after."""
    import uvicorn

    from lucie.web.app import stop_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        wait_for("the server to start", lambda: bool(server.started), 20)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        stop_app(app)
        app.state.link.close()
