"""Fixtures of the browser-game tests: an app on a temporary store, a real
uvicorn server on a free loopback port, and a winning line found by search."""

from __future__ import annotations

import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import uvicorn

from lucie.engine import Move, Position
from lucie.rules import Rules
from lucie.web.app import create_app, stop_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(db)
    with TestClient(app) as c:
        yield c
    app.state.solver.close()


def find_win_line(position: Position, max_nodes: int = 50_000) -> list[Move] | None:
    """A line of ordinary moves (no redeal, no merci) that clears
    ``position``, found by depth-first search over the engine's legal
    moves; None if the search gives up."""
    seen: set[object] = set()
    line: list[Move] = []
    nodes = 0

    def go(p: Position) -> bool:
        nonlocal nodes
        if p.is_won:
            return True
        nodes += 1
        key = p.key()
        if nodes > max_nodes or key in seen:
            return False
        seen.add(key)
        for move in p.legal_moves():
            if move.is_redeal or move.src_kind == "card":
                continue
            line.append(move)
            if go(p.apply(move)):
                return True
            line.pop()
        return False

    return list(line) if go(position) else None


def winning_deal(variant: str = "trefoil", start: int = 51) -> tuple[int, list[Move]]:
    """A deal of ``variant`` cleared in its first deal, and the line."""
    for number in range(start, start + 400):
        line = find_win_line(Position.deal(Rules.parse(variant), number))
        if line is not None:
            return number, line
    raise AssertionError("no deal won without a redeal was found")  # pragma: no cover


@pytest.fixture(scope="session")
def win() -> tuple[int, list[Move]]:
    """(deal number, winning line) of a Trefoil deal."""
    return winning_deal()


class LiveServer:
    """uvicorn serving the app in a thread on a free loopback port."""

    def __init__(self, db_path: Path | None) -> None:
        self.app = create_app(db_path)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.port: int = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, log_level="warning", lifespan="off",
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
        stop_app(self.app)


@pytest.fixture
def live_server(db: Path) -> Iterator[LiveServer]:
    with LiveServer(db) as server:
        yield server


@pytest.fixture
def make_live_server() -> Callable[[Path | None], LiveServer]:
    return LiveServer
