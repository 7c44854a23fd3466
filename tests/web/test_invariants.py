"""Hypothesis: whatever the page sends, the server's game stays the engine's
game played with the accepted requests, and refused requests change nothing."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lucie.engine import Game, Move
from lucie.errors import MoveError
from lucie.formats import position_json
from lucie.rules import Rules
from lucie.web.app import create_app


@pytest.fixture(scope="module")
def shared_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    with TestClient(create_app(db)) as c:
        yield c


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["legal", "legal", "legal", "any", "undo", "redo", "redeal",
                               "autoplay", "restart"]),
              st.integers(0, 10_000)),
    max_size=30,
)
SOME_MOVES = ["a>b", "c>f", "d>F", "q>r", "1>a", "a>1", "KS>a", "7H>g", "R", "r>a"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["classic", "merci", "reserve", "shamrocks", "fan"]),
       deal=st.integers(1, 2000), actions=ACTIONS)
def test_server_game_is_the_engine_game(shared_client: TestClient, variant: str, deal: int,
                                        actions: list[tuple[str, int]]) -> None:
    c = shared_client
    state: dict[str, Any] = c.post("/api/games", json={"variant": variant, "deal": deal}).json()
    gid = state["id"]
    game = Game(Rules.parse(variant), deal)
    for action, pick in actions:
        legal = state["legal_moves"]
        if action in ("legal", "any"):
            choices = legal if action == "legal" and legal else SOME_MOVES
            text = choices[pick % len(choices)]
            r = c.post(f"/api/games/{gid}/move", json={"move": text})
            try:
                game.play(Move.parse(text), autoplay=False)
                ok = True
            except MoveError:
                ok = False
            assert (r.status_code == 200) == ok, (text, r.json())
            if not ok:
                assert r.status_code in (400, 409) and r.json()["error"]
        elif action == "undo":
            r = c.post(f"/api/games/{gid}/undo", json={})
            assert (r.status_code == 200) == game.can_undo
            if game.can_undo:
                game.undo_step()  # a player's undo: the move and its autoplay
        elif action == "redo":
            r = c.post(f"/api/games/{gid}/redo", json={})
            assert (r.status_code == 200) == game.can_redo
            if game.can_redo:
                game.redo_step()
        elif action == "redeal":
            r = c.post(f"/api/games/{gid}/redeal", json={})
            legal_redeal = "R" in legal
            assert (r.status_code == 200) == legal_redeal
            if legal_redeal:
                game.play("R", autoplay=False)
        elif action == "autoplay":
            r = c.post(f"/api/games/{gid}/autoplay", json={})
            game.autoplay()
        else:
            r = c.post(f"/api/games/{gid}/restart", json={})
            game.restart()
        state = c.get(f"/api/games/{gid}").json()
        expected = position_json(game)
        for key in ("fans", "foundations", "cells", "moves", "legal_moves", "status",
                    "redeals_left", "merci_used"):
            assert state[key] == expected[key], key
        assert state["can_undo"] == game.can_undo and state["can_redo"] == game.can_redo
        listed = sorted(t["move"] for s in state["sources"].values() for t in s["targets"])
        assert listed == sorted(m for m in expected["legal_moves"] if m != "R")
