"""Challenge a friend through the API (issue 41): a link to the deal of a
finished game; the friend plays the same deal; both see both results
(read from the store, never from a request) and both reviews."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.applications import Starlette

from lucie.web.app import stop_app
from lucie.web.site import create_site
from lucie.web.store_link import StoreLink

SECRET = b"a secret for the tests, long enough"
SAME = {"Sec-Fetch-Site": "same-origin"}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Starlette]:
    app = create_site(StoreLink.open(tmp_path / "site.sqlite3"), SECRET, solver_workers=1)
    yield app
    stop_app(app)
    app.state.link.close()


def _move(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    move = next(m for m in state["legal_moves"] if m not in ("R", "redeal"))
    r = client.post(f"/api/games/{state['id']}/move", json={"move": move})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _resign(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = client.post(f"/api/games/{state['id']}/resign", json={}).json()
    assert data["status"] == "resigned"
    return data


def test_a_challenge_from_link_to_both_results_and_reviews(site: Starlette) -> None:
    with TestClient(site, headers=SAME) as ann, TestClient(site, headers=SAME) as bob, \
            TestClient(site, headers=SAME) as cid:
        ann.post("/api/me/name", json={"name": "Ann"})
        bob.post("/api/me/name", json={"name": "Bob"})
        state = _move(ann, ann.post("/api/games", json={"deal": 7}).json())
        r = ann.post("/api/challenges", json={"game": state["id"]})
        assert r.status_code == 409  # after a game, not during it
        ann_end = _resign(ann, _move(ann, state))
        r = bob.post("/api/challenges", json={"game": state["id"]})
        assert r.status_code == 404  # another player's game: as if there were none
        token = ann.post("/api/challenges", json={"game": state["id"]}).json()["token"]
        assert bob.get(f"/challenge/{token}").status_code == 200  # the page
        view = bob.get(f"/api/challenges/{token}").json()
        assert view["deal"] == "7" and view["can_play"] and not view["reviews_open"]
        assert [(e["player"], e["score"], e["status"]) for e in view["entries"]] == [
            ("Ann", ann_end["score"], "resigned")]
        assert bob.get(f"/api/challenges/{token}/review/1").status_code == 403  # play first
        # Bob plays; what the body says about results is not read
        forged = {"status": "won", "score": 52, "player": "Ann", "game_id": 1}
        mine = bob.post(f"/api/challenges/{token}/play", json=forged).json()
        assert mine["deal"] == "7" and mine["moves"] == [] and mine["variant"] == "classic"
        assert bob.post(f"/api/challenges/{token}/play", json={}).status_code == 409
        bob_end = _resign(bob, _move(bob, mine))
        for client in (ann, bob):
            view = client.get(f"/api/challenges/{token}").json()
            rows = [(e["player"], e["status"], e["score"], e["moves"]) for e in view["entries"]]
            assert rows == [("Ann", "resigned", ann_end["score"], 2),
                            ("Bob", "resigned", bob_end["score"], 1)]
            assert view["reviews_open"] and not view["can_play"]
            assert [e["mine"] for e in view["entries"]] == [client is ann, client is bob]
            assert all(e["marks"]["fair"] for e in view["entries"])
        for index in (1, 2):  # both reviews, for both players
            review = bob.get(f"/api/challenges/{token}/review/{index}?seconds=5")
            assert review.status_code == 200, review.text
            assert len(review.json()["moves"]) == (2, 1)[index - 1]
        assert ann.get(f"/api/challenges/{token}/review/2").status_code == 200
        assert cid.get(f"/api/challenges/{token}/review/1").status_code == 403
        assert cid.get("/api/challenges/no-such-challenge").status_code == 404
        assert cid.get("/api/challenges/x").status_code == 404
