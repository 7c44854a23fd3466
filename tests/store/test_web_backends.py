"""The browser game on each backend (``lucie web --db PATH|URL``): its
games, their tokens and the statistics live in the store, so a game is
found again by a server started anew on the same database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lucie.store import Store
from lucie.web.app import create_app
from lucie.web.store_link import StoreLink

starlette_testclient = pytest.importorskip("starlette.testclient")

Where = Path | str


def _post(client: Any, path: str, **body: Any) -> dict[str, Any]:
    r = client.post(path, json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_web_game_lives_in_the_store(where: Where) -> None:
    link = StoreLink.open(str(where), "ann")
    with starlette_testclient.TestClient(create_app(store=link)) as client:
        game = _post(client, "/api/games", variant="classic", deal=1)
        gid = game["id"]
        moved = _post(client, f"/api/games/{gid}/move", move="f>i")
        assert moved["moves"] == ["f>i"]
        stats = client.get("/api/stats").json()
        assert stats["player"] == "ann"
    # a server started anew on the same database finds the game by its token
    with starlette_testclient.TestClient(create_app(store=StoreLink.open(str(where), "ann"))) \
            as client:
        again = client.get(f"/api/games/{gid}").json()
        assert again["moves"] == ["f>i"]
        history = client.get("/api/history").json()
        assert [h["player"] for h in history["games"]] == ["ann"]
    with Store(where) as store:
        (record,) = store.history("ann")
        assert record.moves == 1 and record.version >= 2
        assert store.history("bob") == []
