"""The browser's game review, deals by difficulty, the deal of the day and
the clock across a restart, through the JSON API."""

from __future__ import annotations

import datetime
import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lucie.daily import daily_deal
from lucie.engine import Game, Move, Position
from lucie.rules import Rules
from lucie.store import Store
from lucie.web.app import create_app, stop_app


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def post(client: TestClient, game_id: str, action: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/{action}", json=body)


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    return str(response.json()["error"])


# -- review ---------------------------------------------------------------------


def test_review_of_a_won_game_has_no_mistake(client: TestClient,
                                             win: tuple[int, list[Move]]) -> None:
    deal, line = win
    gid = new(client, variant="trefoil", deal=deal)["id"]
    assert "no move" in error_of(client.get(f"/api/games/{gid}/review"), 422)
    for move in line:
        post(client, gid, "move", move=str(move))
    r = client.get(f"/api/games/{gid}/review?seconds=20")
    assert r.status_code == 200, r.text
    review = r.json()
    assert review["deal"] == str(deal) and review["variant"] == "trefoil"
    assert [m["move"] for m in review["moves"]] == [str(m) for m in line]
    assert review["mistakes"] == 0
    for m, position in zip(review["moves"], Game(Rules.parse("trefoil"), deal).positions,
                           strict=False):
        assert m["value_before"] == {**m["value_before"], "chance": 1.0, "kind": "exact"}
        assert m["label"] == "best"
        assert m["board"]["fans"] == [[str(c) for c in fan] for fan in position.fans]
    first = review["moves"][0]
    assert first["card"] == str(Position.deal(Rules.parse("trefoil"), deal).moving_card(line[0]))
    assert review["final_board"]["foundations"] == ["KC", "KD", "KH", "KS"]


def test_a_redeal_that_throws_a_win_away_is_a_mistake(client: TestClient,
                                                      win: tuple[int, list[Move]]) -> None:
    deal, _ = win
    gid = new(client, variant="trefoil", deal=deal)["id"]
    post(client, gid, "redeal")
    review = client.get(f"/api/games/{gid}/review?seconds=20").json()
    (redeal,) = review["moves"]
    assert redeal["move"] == "R" and redeal["value_before"]["chance"] == 1.0
    assert redeal["label"] in ("mistake", "blunder") and review["mistakes"] == 1
    assert redeal["best_move"] is not None and redeal["best_move"] != "R"
    assert redeal["best_card"] is not None and redeal["text"]
    after = redeal["value_after"]
    if after["kind"] == "estimate":  # estimates come with their interval
        assert after["low"] <= after["chance"] <= after["high"]


def test_review_of_a_stored_game(client: TestClient, db: Path) -> None:
    gid = new(client, deal=1)["id"]
    post(client, gid, "move", move="f>i")
    post(client, gid, "resign")
    (row,) = client.get("/api/history?variant=classic").json()["games"]
    r = client.get(f"/api/history/{row['id']}/review?seconds=10")
    assert r.status_code == 200, r.text
    assert [m["move"] for m in r.json()["moves"]] == ["f>i"]
    # another player's game, a game that is not there, a number that is not one
    with Store(db) as store:
        other = store.start_game(Game(Rules(), 5), "somebody-else")
    assert "no game" in error_of(client.get(f"/api/history/{other}/review"), 404)
    assert "no game" in error_of(client.get("/api/history/99999/review"), 404)
    assert error_of(client.get("/api/history/x1/review"), 400)
    assert error_of(client.get(f"/api/history/{row['id']}/review?seconds=0"), 400)


# -- difficulty and the deal of the day ----------------------------------------


def test_a_clearable_deal_is_one(client: TestClient) -> None:
    from lucie.solver import search_deal

    state = new(client, variant="classic", difficulty="clearable")
    result = search_deal(Position.deal(Rules(), int(state["deal"])), frontier=False,
                         max_seconds=30)
    assert result.status == "solved"
    # the difficulty is not told before the end (no spoilers)
    assert state["difficulty"] is None
    gid = state["id"]
    assert "once the game is over" in error_of(client.get(f"/api/games/{gid}/difficulty"), 409)
    post(client, gid, "resign")
    assert client.get(f"/api/games/{gid}").json()["difficulty"] == "clearable"
    rated = client.get(f"/api/games/{gid}/difficulty").json()
    assert rated["clearable"] is True and rated["asked"] == "clearable"


def test_the_end_tells_the_rating_the_deal_was_picked_by(client: TestClient) -> None:
    """A classic deal picked as hard (an estimate, with an interval) is told
    hard at the end: the same rating, not a new estimate that could say
    medium or easy; the sentence says whether its interval settles it."""
    state = new(client, variant="classic", difficulty="hard")
    gid = state["id"]
    post(client, gid, "resign")
    rated = client.get(f"/api/games/{gid}/difficulty?seconds=5").json()
    assert rated["picked"] is True and rated["asked"] == "hard"
    assert rated["difficulty"] == "hard", rated
    assert "This deal is hard" in rated["text"]
    assert "easy" not in rated["text"] and "medium" not in rated["text"].split(".")[0]
    value = rated["value"]
    assert value["kind"] in ("exact", "estimate")
    hard_below = rated["thresholds"]["hard_below"][0]
    if rated["decided"]:
        assert value["high"] < hard_below or value["kind"] == "exact"
    else:
        assert value["low"] < hard_below <= value["high"] and "only the likeliest" in rated["text"]


def test_new_game_bad_difficulty_and_conflicts(client: TestClient) -> None:
    assert "difficulty" in error_of(client.post("/api/games", json={"difficulty": "silly"}), 400)
    assert "difficulty" in error_of(client.post("/api/games", json={"difficulty": 3}), 400)
    assert "at most one" in error_of(
        client.post("/api/games", json={"deal": 3, "difficulty": "easy"}), 400)
    assert "at most one" in error_of(client.post("/api/games", json={"deal": 3, "daily": True}),
                                     400)
    assert "'daily'" in error_of(client.post("/api/games", json={"daily": "yes"}), 400)
    assert new(client, difficulty="any")["deal"]


def test_deal_of_the_day(client: TestClient) -> None:
    today = datetime.datetime.now(datetime.UTC).date()
    for variant in ("classic", "trefoil"):
        state = new(client, variant=variant, daily=True)
        assert state["deal"] == str(daily_deal(Rules.parse(variant), today))
        assert state["daily"] == today.isoformat()
    post(client, state["id"], "move", move=state["legal_moves"][0])
    post(client, state["id"], "resign")
    other = new(client, variant="trefoil", deal=daily_deal(Rules.parse("trefoil"), today) + 1)
    post(client, other["id"], "move", move=other["legal_moves"][0])
    post(client, other["id"], "resign")
    games = client.get("/api/history?variant=trefoil").json()["games"]
    marks = {g["deal"]: g["daily"] for g in games}
    assert marks == {state["deal"]: today.isoformat(), other["deal"]: None}


# -- the clock across a restart -----------------------------------------------


def test_the_clock_survives_a_restart(db: Path) -> None:
    app = create_app(db)
    with TestClient(app) as c:
        gid = new(c, deal=1)["id"]
        post(c, gid, "move", move="f>i")
        time.sleep(1.5)  # thinking, no move: the server then stops
    stop_app(app)
    app = create_app(db)
    with TestClient(app) as c:
        assert c.get(f"/api/games/{gid}").json()["seconds"] >= 1.5
    stop_app(app)


def test_the_picked_rating_outlives_the_server(db: Path) -> None:
    """Issue 35: the rating a deal was picked by is kept with its game in
    the store: after a restart the end tells that very rating, not a new
    computation."""
    import json

    app = create_app(db)
    with TestClient(app) as c:
        state = new(c, variant="classic", difficulty="hard")
        gid = state["id"]
        move = next(m for m in state["legal_moves"] if m != "R")
        assert post(c, gid, "move", move=move).status_code == 200
    stop_app(app)
    with Store(db) as store:
        (record,) = store.history()
        stored = store.picked_rating(record.id)
    assert stored is not None
    picked = json.loads(stored)
    assert picked["difficulty"] == "hard" and picked["picked"] is True
    app = create_app(db)
    with TestClient(app) as c:  # a new server on the same database
        assert c.get(f"/api/games/{gid}").json()["moves"] == [move]
        assert post(c, gid, "resign").status_code == 200
        rated = c.get(f"/api/games/{gid}/difficulty?seconds=1").json()
    stop_app(app)
    assert rated.pop("asked") == "hard"
    rated.pop("wait_seconds", None)  # the solver pool's queue, not the rating
    assert rated == picked
