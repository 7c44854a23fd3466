"""Fixtures of the terminal-game tests: a store in a temporary file, and a
classic deal with a winning line found by a small search (so no expected
result is taken on trust)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from lucie.engine import Move, Position
from lucie.rules import Rules
from lucie.store import Store


def win_in_one_deal(position: Position, limit: int = 200_000) -> list[Move] | None:
    """Moves (no redeal, no merci) that win from ``position``, or None if
    none is found within ``limit`` positions (depth-first search)."""
    seen: set[tuple[object, ...]] = set()
    path: list[Move] = []
    budget = [limit]

    def search(p: Position) -> bool:
        if p.is_won:
            return True
        key = p.key()
        if key in seen or budget[0] <= 0:
            return False
        seen.add(key)
        budget[0] -= 1
        for move in p.legal_moves():
            if move.is_redeal or move.src_kind == "card":
                continue
            path.append(move)
            if search(p.apply(move)):
                return True
            path.pop()
        return False

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        return list(path) if search(position) else None
    finally:
        sys.setrecursionlimit(old)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "games.sqlite3")
    yield s
    s.close()


@pytest.fixture(scope="session")
def classic_win() -> tuple[int, list[Move]]:
    """A classic deal won in its first deal, and its winning moves."""
    rules = Rules()
    for deal in range(1, 200):
        line = win_in_one_deal(Position.deal(rules, deal), 500)
        if line is not None:
            return deal, line
    raise AssertionError("no classic deal won in one deal among 1..199")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Each test starts and ends in English (the terminal game sets the
    language of the whole process)."""
    from lucie.i18n import set_language

    set_language("en")
    yield
    set_language("en")
