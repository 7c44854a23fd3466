"""A reduced load test: concurrent players against a real uvicorn server on
loopback, each checking every answer against its own engine copy (no game
mixed up with another, no error).  Timing is measured by
``benchmarks/bench_web.py``, never asserted here."""

from __future__ import annotations

import asyncio
from typing import Any

import bench_web as bench  # benchmarks/, on the path (pyproject: pythonpath)


def test_ten_players_twenty_moves_each(live_server: Any) -> None:
    result = asyncio.run(bench.run_load(live_server.url, players=10, moves=20, seed=3))
    assert result.errors == []
    assert len(result.latencies) == 10 * 20
    # every move went to its own game, in memory and in the store
    registry = live_server.app.state.registry
    assert len(registry.sessions) == result.games >= 10
    assert sum(len(s.game.moves) for s in registry.sessions.values()) == 10 * 20
    records = registry.store.store.history(limit=None)
    by_id = {r.id: r for r in records}
    for session in registry.sessions.values():
        assert by_id[session.store_id].moves == len(session.game.moves)
        assert by_id[session.store_id].deal == session.game.deal


def test_the_load_test_sees_a_mixed_up_game() -> None:
    """The check the load test relies on does catch an answer for another game."""
    from lucie.engine import Game
    from lucie.formats import position_json
    from lucie.rules import Rules

    mine, other = Game(Rules(), 1), Game(Rules(), 2)
    answer = position_json(other) | {"id": "A"}
    assert bench._mismatch(answer, mine, "A") == "fans differ"
    assert "instead of" in bench._mismatch(position_json(mine) | {"id": "B"}, mine, "A")
    other_moves = Game(Rules(), 1)
    other_moves.push("f>i")
    answer = position_json(other_moves) | {"id": "A"}
    assert "moves differ" in bench._mismatch(answer, mine, "A")
    assert bench._mismatch(position_json(mine) | {"id": "A"}, mine, "A") is None
