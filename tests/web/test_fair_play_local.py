"""Fair play by the deal in a local ``lucie web`` (issue 52): a game loaded
there is played in memory, never stored, yet help asked on it marks the
local player's game of the same deal in play, the deal of the day's among
them (found at run time: nothing here depends on today's date)."""

from __future__ import annotations

import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _ok(r: Any) -> Any:
    assert r.status_code == 200, r.text
    return r.json()


def test_help_on_a_loaded_copy_marks_the_days_game(client: TestClient) -> None:
    day = _ok(client.post("/api/games", json={"daily": True}))
    move = next(m for m in day["legal_moves"] if m not in ("R", "redeal"))
    _ok(client.post(f"/api/games/{day['id']}/move", json={"move": move}))
    assert _ok(client.get(f"/api/games/{day['id']}"))["daily_counts"] is True
    text = client.get(f"/api/games/{day['id']}/save").text
    copy = _ok(client.post("/api/games/load", json={"text": text}))
    assert copy["daily_counts"] is None  # the copy itself counts for nothing
    _ok(client.get(f"/api/games/{copy['id']}/hint?seconds=0.1"))
    state = _ok(client.get(f"/api/games/{day['id']}"))
    assert state["daily_counts"] is False and state["daily_why"] == "hints asked"
