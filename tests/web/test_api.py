"""The JSON API of the browser game, endpoint by endpoint, good and bad."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lucie.engine import FAN_NAMES, REDEAL, Game, Move, autoplay_moves
from lucie.formats import load_game, position_json, save_game
from lucie.rules import VARIANTS, Rules
from lucie.web.app import MAX_BODY, create_app

# -- helpers -------------------------------------------------------------------

#: The content type the page sends with every POST.
JSON = {"Content-Type": "application/json"}


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def post(client: TestClient, game_id: str, action: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/{action}", json=body)


def same_position(state: dict[str, Any], game: Game) -> None:
    """The state the page gets is the engine's position of the same game."""
    expected = position_json(game)
    for key in ("fans", "foundations", "cells", "redeals_left", "moves", "status",
                "score", "legal_moves", "merci_used"):
        assert state[key] == expected[key], key


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"error"} and isinstance(body["error"], str) and body["error"]
    return str(body["error"])


# -- the page and static files -------------------------------------------------


class TestPage:
    def test_index_is_served_with_a_strict_policy(self, client: TestClient) -> None:
        r = client.get("/")
        assert r.status_code == 200
        assert "<title>La Belle Lucie</title>" in r.text
        policy = r.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy

    def test_static_files_come_from_the_package(self, client: TestClient) -> None:
        page = client.get("/").text
        for name in ("lucie.js", "cards.js", "charts.js", "lucie.css"):
            assert f"/static/{name}" in page
            r = client.get(f"/static/{name}")
            assert r.status_code == 200 and len(r.text) > 500
        assert "http://" not in page.replace("http://www.w3.org", "")
        assert "https://" not in page

    def test_scripts_fetch_nothing_from_elsewhere(self, client: TestClient) -> None:
        for name in ("lucie.js", "cards.js", "charts.js", "lucie.css"):
            text = client.get(f"/static/{name}").text
            assert "https://" not in text
            assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")

    def test_stats_page_is_the_same_page(self, client: TestClient) -> None:
        assert client.get("/stats").text == client.get("/").text

    def test_unknown_paths(self, client: TestClient) -> None:
        assert "no such API endpoint" in error_of(client.get("/api/nothing"), 404)
        assert client.get("/nothing").status_code == 404
        assert "not allowed" in error_of(client.get("/api/games"), 405)


class TestVariants:
    def test_every_named_variant_is_offered(self, client: TestClient) -> None:
        r = client.get("/api/variants")
        names = [v["name"] for v in r.json()]
        assert names == list(VARIANTS)
        for v in r.json():
            assert Rules.parse(v["spec"]) == VARIANTS[v["name"]].rules

    def test_features(self, client: TestClient) -> None:
        features = client.get("/api/features").json()
        # the analysis comes with every install: only the statistics may be
        # missing; players are lucie serve's only
        assert features == {"stats": True, "players": False}


# -- games ---------------------------------------------------------------------


class TestNewGame:
    def test_numbered_deal_is_the_engine_deal(self, client: TestClient) -> None:
        state = new(client, variant="trefoil", deal=7)
        same_position(state, Game(Rules.parse("trefoil"), 7))
        assert state["deal"] == "7" and state["variant"] == "trefoil"
        assert state["variant_title"] == "Trefoil"

    def test_random_deal_and_ids_that_cannot_be_guessed(self, client: TestClient) -> None:
        a, b = new(client), new(client)
        assert a["variant"] == "classic"
        assert isinstance(a["deal"], str) and int(a["deal"]) >= 1
        assert a["id"] != b["id"] and len(a["id"]) >= 22
        same_position(a, Game(Rules(), int(a["deal"])))

    def test_variant_with_settings(self, client: TestClient) -> None:
        state = new(client, variant="classic,cells=2", deal="3")
        assert state["cells"] == [None, None]
        assert state["target_notation"]["cell:1"] == "2"

    @pytest.mark.parametrize(
        ("body", "status", "words"),
        [
            ({"variant": "nosuch"}, 422, "unknown variant 'nosuch'"),
            ({"variant": "classic,cells=99"}, 422, "cells=99"),
            ({"variant": 5}, 400, "'variant'"),
            ({"deal": 0}, 422, "deal"),
            ({"deal": "seven"}, 422, "seven"),
            ({"deal": True}, 400, "'deal'"),
            ({"deal": 1.5}, 400, "'deal'"),
        ],
    )
    def test_bad_requests(self, client: TestClient, body: dict[str, Any], status: int,
                          words: str) -> None:
        assert words in error_of(client.post("/api/games", json=body), status)

    def test_body_not_json_or_not_an_object(self, client: TestClient) -> None:
        r = client.post("/api/games", content=b"variant=classic", headers=JSON)
        assert "not valid JSON" in error_of(r, 400)
        assert "JSON object" in error_of(client.post("/api/games", json=[1, 2]), 400)
        r = client.post("/api/games", content=b"\xff\xfe", headers=JSON)
        assert "UTF-8" in error_of(r, 400)

    def test_body_too_large(self, client: TestClient) -> None:
        big = json.dumps({"variant": "classic", "pad": "x" * MAX_BODY})
        assert "bytes" in error_of(client.post("/api/games", content=big, headers=JSON), 413)

    def test_a_new_game_abandons_the_old_one(self, client: TestClient) -> None:
        old = new(client, deal=1)
        post(client, old["id"], "move", move="f>i")
        new(client, deal=2, abandon=old["id"])
        assert client.get(f"/api/games/{old['id']}").json()["status"] == "resigned"
        games = client.get("/api/history").json()["games"]
        assert [g["status"] for g in games] == ["playing", "resigned"]


class TestShow:
    def test_unknown_id(self, client: TestClient) -> None:
        assert "no game with id" in error_of(client.get("/api/games/not-a-game-id"), 404)
        assert error_of(post(client, "x" * 30, "move", move="a>f"), 404)

    def test_sources_are_exactly_the_legal_moves(self, client: TestClient) -> None:
        for variant, deal in (("classic", 1), ("reserve", 4), ("fan", 9), ("shamrocks", 2)):
            state = new(client, variant=variant, deal=deal)
            game = Game(Rules.parse(variant), deal)
            listed = {t["move"] for s in state["sources"].values() for t in s["targets"]}
            legal = {str(m) for m in game.legal_moves if m != REDEAL}
            assert listed == legal
            assert state["can_redeal"] == (REDEAL in game.legal_moves)
            for code, source in state["sources"].items():
                for t in source["targets"]:
                    # the page writes a move as source > notation of the target
                    assert f"{source['source']}>{state['target_notation'][t['target']]}" \
                        == t["move"], code
            tops = {fan[-1] for fan in state["fans"] if fan}
            assert tops <= set(state["sources"])

    def test_fan_f_is_written_with_a_capital(self, client: TestClient) -> None:
        state = new(client, deal=1)
        assert state["target_notation"]["fan:5"] == "F"
        assert state["target_notation"]["foundation:2"] == "f"
        assert state["fan_names"] == list(FAN_NAMES[:18])


class TestMove:
    def test_legal_move_is_applied(self, client: TestClient) -> None:
        state = new(client, deal=1)
        r = post(client, state["id"], "move", move="f>i")
        assert r.status_code == 200
        game = Game(Rules(), 1)
        game.push("f>i")
        same_position(r.json(), game)
        assert r.json()["applied"] == ["f>i"]
        assert r.json()["messages"] == ["7♦ from fan f onto 8♦ in fan i"]
        assert r.json()["can_undo"] is True

    def test_illegal_move_says_why_and_changes_nothing(self, client: TestClient) -> None:
        state = new(client, deal=1)
        before = client.get(f"/api/games/{state['id']}").json()
        r = post(client, state["id"], "move", move="a>b")
        why = Game(Rules(), 1).position.why_illegal(Move.parse("a>b"))
        assert why is not None
        assert error_of(r, 409) == f"a>b: {why}"
        assert r.json()["reason"] == why
        after = client.get(f"/api/games/{state['id']}").json()
        assert after["moves"] == before["moves"] == []
        assert after["fans"] == before["fans"]

    @pytest.mark.parametrize("text", ["a", "a>", "zz>b", "a>b>c", "5>5", "7H>f", "a>99x"])
    def test_malformed_move(self, client: TestClient, text: str) -> None:
        state = new(client, deal=1)
        assert text in error_of(post(client, state["id"], "move", move=text), 400)
        assert client.get(f"/api/games/{state['id']}").json()["moves"] == []

    def test_missing_or_bad_fields(self, client: TestClient) -> None:
        gid = new(client, deal=1)["id"]
        assert "'move'" in error_of(post(client, gid, "move"), 400)
        assert "'move'" in error_of(post(client, gid, "move", move=3), 400)
        assert "'autoplay'" in error_of(post(client, gid, "move", move="f>i", autoplay=1), 400)
        assert "not valid JSON" in error_of(
            client.post(f"/api/games/{gid}/move", content=b'{"move": "f>i"', headers=JSON), 400)
        big = json.dumps({"move": "f>i", "pad": "x" * MAX_BODY}).encode()
        assert error_of(client.post(f"/api/games/{gid}/move", content=big, headers=JSON), 413)
        assert client.get(f"/api/games/{gid}").json()["moves"] == []

    def test_move_with_autoplay(self, client: TestClient) -> None:
        # deal 2: some safe foundation moves wait behind the first move
        game = Game(Rules(), 2)
        first = next(m for m in game.legal_moves if m.dst_kind == "fan")
        game.push(first)
        expected = [str(m) for m in autoplay_moves(game.position)]
        assert expected
        gid = new(client, deal=2)["id"]
        r = post(client, gid, "move", move=str(first), autoplay=True)
        assert r.json()["applied"] == [str(first), *expected]
        texts = [game.positions[0].describe(first)]
        for move in expected:
            texts.append(game.describe(Move.parse(move)))
            game.push(move)
        assert r.json()["messages"] == texts
        same_position(r.json(), game)
        # undo takes back the move and the cards autoplay sent home after it
        r = post(client, gid, "undo")
        assert r.json()["undone"] == [str(first), *expected] and r.json()["moves"] == []
        n = len(expected)
        cards = " ".join(text.split(" ")[0] for text in texts[1:])  # A♦ A♠ ...
        assert r.json()["messages"] == [
            f"Undone: {texts[0]}; autoplay sent {n} card{'s' if n > 1 else ''} home: {cards}"]
        # redo plays the whole step again
        r = post(client, gid, "redo")
        assert r.json()["applied"] == [str(first), *expected]
        same_position(r.json(), game)

    def test_cells(self, client: TestClient) -> None:
        gid = new(client, variant="reserve", deal=4)["id"]
        state = post(client, gid, "move", move="a>1").json()
        assert state["cells"][0] is not None and state["cells"][1:] == [None] * 3
        assert state["sources"][state["cells"][0]]["source"] == "1"
        assert "cell 1 is taken" in error_of(post(client, gid, "move", move="b>1"), 409)


class TestUndoRedoRestart:
    def test_undo_redo(self, client: TestClient) -> None:
        gid = new(client, deal=1)["id"]
        assert "nothing to undo" in error_of(post(client, gid, "undo"), 409)
        assert "nothing to redo" in error_of(post(client, gid, "redo"), 409)
        post(client, gid, "move", move="f>i")
        post(client, gid, "move", move="m>p")
        r = post(client, gid, "undo")
        assert r.json()["undone"] == ["m>p"] and r.json()["moves"] == ["f>i"]
        assert r.json()["messages"] == ["Undone: 8♣ from fan m onto 9♣ in fan p"]
        assert r.json()["can_redo"] is True
        r = post(client, gid, "redo")
        assert r.json()["moves"] == ["f>i", "m>p"] and r.json()["can_redo"] is False

    def test_restart_keeps_the_moves_for_redo(self, client: TestClient) -> None:
        state = new(client, deal=1)
        gid = state["id"]
        post(client, gid, "move", move="f>i")
        post(client, gid, "redeal")
        r = post(client, gid, "restart")
        assert r.json()["moves"] == [] and r.json()["fans"] == state["fans"]
        assert r.json()["can_redo"] is True
        assert post(client, gid, "redo").json()["moves"] == ["f>i"]
        assert post(client, gid, "redo").json()["moves"] == ["f>i", "R"]

    def test_bad_body(self, client: TestClient) -> None:
        gid = new(client, deal=1)["id"]
        assert error_of(client.post(f"/api/games/{gid}/undo", content=b"nope", headers=JSON), 400)


class TestRedealMerci:
    def test_redeal_until_none_is_left(self, client: TestClient) -> None:
        gid = new(client, deal=5)["id"]
        game = Game(Rules(), 5)
        for _ in range(2):
            r = post(client, gid, "redeal")
            game.push(REDEAL)
            same_position(r.json(), game)
        assert r.json()["redeals_left"] == 0 and r.json()["can_redeal"] is False
        assert "no redeal left" in error_of(post(client, gid, "redeal"), 409)
        assert "no redeal left" in error_of(post(client, gid, "move", move="R"), 409)

    def test_merci(self, client: TestClient) -> None:
        gid = new(client, variant="merci", deal=5)["id"]
        state = client.get(f"/api/games/{gid}").json()
        buried = state["fans"][0][0]
        assert state["merci_moves"] is False
        r = post(client, gid, "merci", card=buried, fan="c")
        assert "last deal" in error_of(r, 409)
        post(client, gid, "redeal")
        state = post(client, gid, "redeal").json()
        assert state["merci_available"] and state["merci_moves"]
        fan = next(f for f in state["fans"] if len(f) >= 2)
        card = fan[0]
        assert state["sources"][card]["where"].startswith("fan:")
        r = post(client, gid, "merci", card=card, fan="b")
        assert r.status_code == 200, r.text
        assert r.json()["fans"][1][-1] == card and r.json()["merci_used"]
        assert "already been used" in error_of(
            post(client, gid, "merci", card=r.json()["fans"][2][0], fan="a"), 409)

    def test_merci_bad_fields(self, client: TestClient) -> None:
        gid = new(client, variant="merci", deal=5)["id"]
        assert "not a card" in error_of(post(client, gid, "merci", card="1Z", fan="a"), 400)
        assert "fan letter" in error_of(post(client, gid, "merci", card="7H", fan="ab"), 400)
        assert "'fan'" in error_of(post(client, gid, "merci", card="7H"), 400)

    def test_no_merci_in_classic(self, client: TestClient) -> None:
        state = new(client, deal=5)
        card = state["fans"][0][0]
        assert "buried" in error_of(post(client, state["id"], "move", move=f"{card}>b"), 409)


class TestAutoplayResign:
    def test_autoplay_plays_the_engine_moves(self, client: TestClient) -> None:
        game = Game(Rules(), 2)
        expected = [str(m) for m in autoplay_moves(game.position)]
        gid = new(client, deal=2)["id"]
        r = post(client, gid, "autoplay")
        assert r.json()["applied"] == expected and r.json()["moves"] == expected
        assert post(client, gid, "autoplay").json()["applied"] == []
        # autoplay's moves are one step: undo takes them all back
        assert post(client, gid, "undo").json()["undone"] == expected
        assert client.get(f"/api/games/{gid}").json()["moves"] == []

    def test_resign(self, client: TestClient) -> None:
        gid = new(client, deal=1)["id"]
        assert post(client, gid, "resign").json()["status"] == "resigned"
        assert "resigned" in error_of(post(client, gid, "move", move="f>i"), 409)
        assert "already over" in error_of(post(client, gid, "resign"), 409)
        assert post(client, gid, "autoplay").json()["applied"] == []


class TestWinAndStats:
    def test_win_records_statistics(self, client: TestClient,
                                    win: tuple[int, list[Move]]) -> None:
        deal, line = win
        gid = new(client, variant="trefoil", deal=deal)["id"]
        for move in line[:-1]:
            assert post(client, gid, "move", move=str(move)).status_code == 200
        last = post(client, gid, "move", move=str(line[-1])).json()
        assert last["status"] == "won" and last["score"] == 52 and last["finished"]
        assert last["sources"] == {} and last["legal_moves"] == []
        stats = client.get("/api/stats", params={"variant": "trefoil"}).json()
        assert (stats["games"], stats["wins"], stats["best_score"]) == (1, 1, 52)
        assert stats["variant_name"] == "Trefoil"
        assert client.get("/api/stats", params={"variant": "classic"}).json()["games"] == 0
        every = client.get("/api/stats", params={"variant": "all"}).json()
        assert every["games"] == 1 and every["variant"] is None
        assert every["variant_name"] == "all variants"
        games = client.get("/api/history", params={"variant": "trefoil"}).json()["games"]
        assert [(g["deal"], g["status"], g["score"]) for g in games] == [(str(deal), "won", 52)]
        # the win is final: undo goes on as practice (said), never counted again
        undone = post(client, gid, "undo").json()
        assert undone["practice"] and not undone["recorded"] and undone["result"] == "won"
        assert "Practice" in undone["messages"][0]
        stats = client.get("/api/stats", params={"variant": "trefoil"}).json()
        assert (stats["games"], stats["wins"]) == (1, 1)
        post(client, gid, "redo")
        stats = client.get("/api/stats", params={"variant": "trefoil"}).json()
        assert (stats["games"], stats["wins"]) == (1, 1)
        # Restart (the end dialog's "play this deal again"): a new game of the deal
        again = post(client, gid, "restart").json()
        assert again["id"] == gid and again["moves"] == [] and again["recorded"]
        assert again["deal"] == str(deal) and not again["practice"]
        stats = client.get("/api/stats", params={"variant": "trefoil"}).json()
        assert (stats["games"], stats["wins"], stats["current_streak"]) == (1, 1, 1)
        games = client.get("/api/history", params={"variant": "trefoil"}).json()["games"]
        assert [g["status"] for g in games] == ["playing", "won"]

    @pytest.mark.parametrize("ending", ["lost", "resigned"])
    @pytest.mark.parametrize("after", ["undo", "restart", "new"])
    def test_a_loss_or_resignation_stays(self, client: TestClient, ending: str,
                                         after: str) -> None:
        gid = new(client, variant="noredeal", deal=3)["id"]
        if ending == "resigned":
            first = client.get(f"/api/games/{gid}").json()["legal_moves"][0]
            assert post(client, gid, "move", move=first).status_code == 200
            post(client, gid, "resign")
        else:
            state = client.get(f"/api/games/{gid}").json()
            while not state["finished"]:
                state = post(client, gid, "move", move=state["legal_moves"][0]).json()
        assert client.get(f"/api/games/{gid}").json()["status"] == ending
        if after == "new":
            new(client, variant="noredeal", deal=4, abandon=gid)
        else:
            assert post(client, gid, after).status_code == 200
        stats = client.get("/api/stats", params={"variant": "noredeal"}).json()
        assert (stats["games"], stats["wins"]) == (1, 0)
        games = client.get("/api/history", params={"variant": "noredeal"}).json()["games"]
        assert games[-1]["status"] == ending

    def test_stats_bad_requests(self, client: TestClient) -> None:
        assert "unknown variant" in error_of(client.get("/api/stats?variant=zzz"), 422)
        assert "limit" in error_of(client.get("/api/history?limit=0"), 400)
        assert "limit" in error_of(client.get("/api/history?limit=lots"), 400)

    def test_without_a_store(self) -> None:
        with TestClient(create_app(None)) as c:
            assert c.get("/api/features").json()["stats"] is False
            assert "no statistics store" in error_of(c.get("/api/stats"), 503)
            assert "no statistics store" in error_of(c.get("/api/history"), 503)
            gid = new(c, deal=1)["id"]
            assert post(c, gid, "move", move="f>i").status_code == 200


class TestPersistence:
    def test_a_game_outlives_the_server(self, db: Path) -> None:
        with TestClient(create_app(db)) as c:
            gid = new(c, deal=1)["id"]
            post(c, gid, "move", move="f>i")
            post(c, gid, "move", move="m>p")
            post(c, gid, "undo")
        with TestClient(create_app(db)) as c:
            state = c.get(f"/api/games/{gid}").json()
            assert state["moves"] == ["f>i"] and state["id"] == gid
            assert post(c, gid, "move", move="m>p").status_code == 200
            other = gid[:-1] + ("B" if gid.endswith("A") else "A")
            assert c.get("/api/games/" + other).status_code == 404


class TestSaveLoad:
    def test_download_then_upload(self, client: TestClient) -> None:
        gid = new(client, variant="merci", deal=3)["id"]
        for move in ("R", "R"):
            post(client, gid, "move", move=move)
        r = client.get(f"/api/games/{gid}/save")
        assert r.status_code == 200
        assert r.headers["content-disposition"] == 'attachment; filename="lucie-merci-3.json"'
        game = load_game(r.text)
        assert [str(m) for m in game.moves] == ["R", "R"]
        up = client.post("/api/games/load", content=r.content,
                         headers={"Content-Type": "application/json"})
        assert up.status_code == 200
        assert up.json()["id"] != gid
        same_position(up.json(), game)
        # the page may also send the text wrapped in an object
        up2 = client.post("/api/games/load", json={"text": r.text})
        assert up2.json()["fans"] == up.json()["fans"]

    def test_upload_that_does_not_replay(self, client: TestClient) -> None:
        game = Game(Rules(), 1)
        game.push("f>i")
        data = json.loads(save_game(game))
        data["moves"] = ["f>i", "a>b"]
        del data["final"]
        before = client.get("/api/history").json()["games"]
        r = client.post("/api/games/load", json=data)
        assert "does not replay" in error_of(r, 422) and "a>b" in r.json()["error"]
        assert client.get("/api/history").json()["games"] == before

    @pytest.mark.parametrize(
        ("body", "status", "words"),
        [
            (b"not json", 400, "not valid JSON"),
            (b'{"format": "something"}', 422, "not a game saved by lucie"),
            (b"[1]", 422, "not a game saved by lucie"),
            (b'{"text": "{oops"}', 422, "not valid JSON"),
        ],
    )
    def test_bad_uploads(self, client: TestClient, body: bytes, status: int,
                         words: str) -> None:
        r = client.post("/api/games/load", content=body,
                        headers={"Content-Type": "application/json"})
        assert words in error_of(r, status)

    def test_edited_upload(self, client: TestClient) -> None:
        game = Game(Rules(), 1)
        game.push("f>i")
        data = json.loads(save_game(game))
        data["final"]["layout"] = data["final"]["layout"].replace("8D 7D", "7D 8D")
        assert "edited" in error_of(client.post("/api/games/load", json=data), 422)


class TestSolverEndpoints:
    def test_bad_parameters(self, client: TestClient) -> None:
        gid = new(client, deal=1)["id"]
        assert "seconds" in error_of(client.get(f"/api/games/{gid}/hint?seconds=x"), 400)
        assert "seconds" in error_of(client.get(f"/api/games/{gid}/hint?seconds=1e9"), 400)
        assert "samples" in error_of(client.get(f"/api/games/{gid}/odds?samples=0"), 400)
        assert "samples" in error_of(client.get(f"/api/games/{gid}/odds?samples=nan"), 400)
        assert error_of(client.get("/api/games/nope-nope-nope/hint"), 404)

    def test_hint_is_a_legal_move(self, client: TestClient,
                                  win: tuple[int, list[Move]]) -> None:
        deal, line = win
        gid = new(client, variant="trefoil", deal=deal)["id"]
        for move in line[:-3]:
            post(client, gid, "move", move=str(move))
        state = client.get(f"/api/games/{gid}").json()
        h = client.get(f"/api/games/{gid}/hint?seconds=2").json()
        assert h["move"] in state["legal_moves"]
        assert h["text"] and h["card"] in state["sources"]
        assert h["clears"] is True and h["budget_ran_out"] is False  # three moves from the win
        assert any(t["target"] == h["target"] for t in state["sources"][h["card"]]["targets"])

    def test_odds_of_a_won_deal(self, client: TestClient,
                                win: tuple[int, list[Move]]) -> None:
        deal, line = win
        gid = new(client, variant="trefoil", deal=deal)["id"]
        for move in line[:-5]:
            post(client, gid, "move", move=str(move))
        o = client.get(f"/api/games/{gid}/odds?samples=5&seconds=5").json()
        assert o["win_rate"] == 1.0 and o["ci95"] == [1.0, 1.0]
        assert o["proved"] is True and o["budget_ran_out"] is False

    def test_odds_cut_short_are_never_proved(self, client: TestClient) -> None:
        """Shamrocks deal 9 (no redeal): its search takes far longer than the
        budget, so the answer is Odds.to_json of a cut search, as `lucie odds
        --json` gives it: no win rate, nothing proved, the budget said."""
        from lucie.analysis.odds import estimate_odds

        gid = new(client, variant="shamrocks", deal=9)["id"]
        o = client.get(f"/api/games/{gid}/odds?seconds=0.5").json()
        assert o["budget_ran_out"] is True and o["proved"] is False, o
        assert (o["win_rate"], o["samples"], o["ci95"]) == (None, 0, [0.0, 1.0])
        assert "exact" not in o["text"] and "proved" not in o["text"]
        expected = estimate_odds(Game(Rules.parse("shamrocks"), 9).position,
                                 max_seconds=0.5).to_json()
        assert set(o) == set(expected) | {"moves_played", "wait_seconds", "daily", "daily_counts",
                                          "daily_why"}


class TestForgery:
    """Another page cannot change anything, and a loaded game is no new win."""

    def test_cross_site_posts_are_refused(self, client: TestClient) -> None:
        gid = new(client, deal=1)["id"]
        cases = [
            ({"Content-Type": "text/plain"}, 415),
            ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
            ({"Content-Type": "application/json", "Origin": "http://evil.example"}, 403),
            ({"Content-Type": "application/json", "Origin": "null"}, 403),
            ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403),
            ({"Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}, 403),
        ]
        for headers, status in cases:
            r = client.post(f"/api/games/{gid}/move", content=b'{"move": "f>i"}',
                            headers=headers)
            error_of(r, status)
        assert client.get(f"/api/games/{gid}").json()["moves"] == []
        own = {"Content-Type": "application/json; charset=utf-8",
               "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
        r = client.post(f"/api/games/{gid}/move", content=b'{"move": "f>i"}', headers=own)
        assert r.status_code == 200 and r.json()["moves"] == ["f>i"]

    def test_a_loaded_win_is_never_counted(self, client: TestClient,
                                           win: tuple[int, list[Move]]) -> None:
        deal, line = win
        game = Game(Rules.parse("trefoil"), deal)
        for move in line:
            game.push(move)
        assert game.outcome.status == "won"
        text = save_game(game)
        for _ in range(3):
            r = client.post("/api/games/load", json={"text": text})
            assert r.status_code == 200 and r.json()["status"] == "won"
            assert r.json()["recorded"] is False
        stats = client.get("/api/stats", params={"variant": "all"}).json()
        assert (stats["games"], stats["wins"]) == (0, 0)
        assert client.get("/api/history").json()["games"] == []

    def test_a_loaded_game_won_by_hand_is_not_counted(self, client: TestClient,
                                                      win: tuple[int, list[Move]]) -> None:
        deal, line = win
        game = Game(Rules.parse("trefoil"), deal)
        for move in line[:-1]:
            game.push(move)
        gid = client.post("/api/games/load", json={"text": save_game(game)}).json()["id"]
        assert post(client, gid, "move", move=str(line[-1])).json()["status"] == "won"
        assert client.get("/api/stats", params={"variant": "all"}).json()["wins"] == 0

    def test_a_refused_new_game_keeps_the_game_in_play(self, client: TestClient) -> None:
        old = new(client, deal=1)
        post(client, old["id"], "move", move="f>i")
        for deal in (2**63, "9" * 30, -1, "1e9", "\u00b2"):
            r = client.post("/api/games", json={"deal": deal, "abandon": old["id"]})
            assert r.status_code == 422, r.text
            assert len(r.json()["error"]) < 200
        r = client.post("/api/games", json={"variant": "nope" * 100, "abandon": old["id"]})
        assert r.status_code == 422 and len(r.json()["error"]) < 200
        assert client.get(f"/api/games/{old['id']}").json()["status"] == "playing"
        assert client.get("/api/history").json()["games"][0]["status"] == "playing"

    def test_the_largest_deal_is_exact(self, client: TestClient) -> None:
        state = new(client, deal=str(2**63 - 1))
        assert state["deal"] == str(2**63 - 1)
        same_position(state, Game(Rules(), 2**63 - 1))
        games = client.get("/api/history").json()["games"]
        assert games[0]["deal"] == str(2**63 - 1)


class TestHosts:
    def test_other_host_names_are_refused(self, db: Path) -> None:
        app = create_app(db, allowed_hosts=["127.0.0.1", "localhost"])
        with TestClient(app, base_url="http://127.0.0.1:8000") as c:
            assert c.get("/api/variants").status_code == 200
        with TestClient(app, base_url="http://evil.example:8000") as c:
            assert c.get("/api/variants").status_code == 400


class TestStaleCommands:
    """A command carries the version of the game the page shows; one made
    against a position the game has left (a second tab) is refused with the
    game as it is now, and changes nothing."""

    def test_a_second_tab_cannot_play_against_an_old_position(self, client: TestClient) -> None:
        first = new(client, variant="classic", deal=1)
        gid, seen = first["id"], first["version"]
        # the other tab plays f>i; this one still shows the deal
        moved = post(client, gid, "move", move="f>i", version=seen).json()
        assert moved["version"] != seen
        # this tab's command names the old version: refused, with the game now
        for action, body in (("move", {"move": "m>p"}), ("undo", {}), ("redeal", {}),
                             ("restart", {}), ("resign", {}), ("autoplay", {})):
            r = post(client, gid, action, version=seen, **body)
            assert r.status_code == 409, action
            answer = r.json()
            assert answer["stale"] is True and "another tab" in answer["error"]
            assert answer["state"]["moves"] == ["f>i"]
            assert answer["state"]["version"] == moved["version"]
        assert client.get(f"/api/games/{gid}").json()["moves"] == ["f>i"]
        # with the version it now shows, the move is played
        r = post(client, gid, "move", move="m>p", version=moved["version"])
        assert r.status_code == 200 and r.json()["moves"] == ["f>i", "m>p"]

    def test_the_version_follows_the_game_not_the_request(self, client: TestClient) -> None:
        gid = new(client, variant="classic", deal=1)["id"]
        start = client.get(f"/api/games/{gid}").json()["version"]
        after = post(client, gid, "move", move="f>i").json()["version"]
        # undo back to the deal: the same game as at the start, the same version
        assert post(client, gid, "undo").json()["version"] == start
        assert post(client, gid, "redo").json()["version"] == after
        # resigning changes the version though no card moves
        assert post(client, gid, "resign").json()["version"] not in (start, after)

    @pytest.mark.parametrize("bad", ["3", 1.5, True, None])
    def test_a_version_that_is_not_a_whole_number(self, client: TestClient, bad: Any) -> None:
        gid = new(client, variant="classic", deal=1)["id"]
        r = post(client, gid, "move", move="f>i", version=bad)
        assert "'version'" in error_of(r, 400)
        assert client.get(f"/api/games/{gid}").json()["moves"] == []


class TestSummaries:
    """What a step did, in one line: an autoplay cascade is a count."""

    def test_a_cascade_is_one_line(self, client: TestClient) -> None:
        gid = new(client, variant="classic", deal=3)["id"]
        expected = len(autoplay_moves(Game(Rules(), 3).position))
        r = post(client, gid, "autoplay").json()
        assert len(r["applied"]) == expected > 10
        assert r["summary"] == f"Autoplay sent {expected} cards home"
        gid = new(client, variant="classic", deal=2)["id"]
        r = post(client, gid, "move", move="h>f", autoplay=True).json()
        assert r["summary"] == ("A♦ from fan h to the foundation; autoplay sent 3 cards home: "
                                "A♠ 2♠ 3♠")

    def test_a_bad_deal_number_is_told_to_a_person(self, client: TestClient) -> None:
        r = client.post("/api/games", json={"deal": "abc"})
        assert error_of(r, 422) == ("'abc' is not a deal number: deals are numbered with "
                                    "whole numbers from 1 to 9223372036854775807.")


class TestHistoryPages:
    """The recent games a page at a time, the games never played left out."""

    def test_pages_and_played_games(self, client: TestClient) -> None:
        for deal in range(1, 6):
            gid = new(client, variant="classic", deal=deal)["id"]
            if deal != 3:  # deal 3 is dealt and never played
                post(client, gid, "move", move=new_move(client, gid))
                post(client, gid, "resign")
        every = client.get("/api/history").json()
        assert "total" not in every and len(every["games"]) == 5  # as before: all games
        first = client.get("/api/history?played=1&limit=3").json()
        assert first["total"] == 4 and first["offset"] == 0
        assert [g["deal"] for g in first["games"]] == ["5", "4", "2"]
        rest = client.get("/api/history?played=1&limit=3&offset=3").json()
        assert [g["deal"] for g in rest["games"]] == ["1"] and rest["total"] == 4
        assert client.get("/api/history?played=1&offset=9").json()["games"] == []

    @pytest.mark.parametrize("query", ["played=yes", "played=2", "offset=-1", "offset=x"])
    def test_bad_page_parameters(self, client: TestClient, query: str) -> None:
        assert query.split("=")[0] in error_of(client.get(f"/api/history?{query}"), 400)


def new_move(client: TestClient, gid: str) -> str:
    """A legal move of the game that is not a redeal."""
    legal = client.get(f"/api/games/{gid}").json()["legal_moves"]
    return str(next(m for m in legal if m != "R"))
class TestSessionFaults:
    """A move the store cannot record is refused (503, Retry-After) and the
    game stays as it was (issue 36); the clock runs only while the page
    shows the game (issue 35)."""

    def test_a_locked_database_refuses_the_move(self, db: Path) -> None:
        import sqlite3

        app = create_app(db)
        with TestClient(app) as c:
            gid = new(c, deal=1)["id"]
            assert post(c, gid, "move", move="f>i").status_code == 200
            store = app.state.registry.store.store
            store._backend.conn.execute("PRAGMA busy_timeout = 100")  # type: ignore[attr-defined]
            other = sqlite3.connect(db, isolation_level=None, timeout=0.1)
            try:
                other.execute("BEGIN EXCLUSIVE")
                r = post(c, gid, "move", move="b>e")
                assert r.status_code == 503 and r.headers["Retry-After"].isdigit()
                assert "could not be saved" in r.json()["error"]
                assert c.get(f"/api/games/{gid}").json()["moves"] == ["f>i"]
                assert post(c, gid, "undo").status_code == 503
                assert post(c, gid, "resign").status_code == 503
                assert c.get(f"/api/games/{gid}").json()["status"] == "playing"
            finally:
                other.execute("ROLLBACK")
                other.close()
            assert post(c, gid, "move", move="b>e").json()["moves"] == ["f>i", "b>e"]
            assert [str(m) for m in store.game(store.history()[0].id).moves] == ["f>i", "b>e"]
        app.state.solver.close()

    def test_the_clock_stops_while_the_page_is_hidden(self, client: TestClient) -> None:
        gid = new(client, deal=1)["id"]
        hidden = post(client, gid, "visibility", visible=False).json()
        assert hidden["running"] is False
        import time

        time.sleep(0.3)
        assert client.get(f"/api/games/{gid}").json()["seconds"] == hidden["seconds"]
        shown = post(client, gid, "visibility", visible=True).json()
        assert shown["running"] is True and shown["seconds"] == hidden["seconds"]
        time.sleep(0.3)
        assert client.get(f"/api/games/{gid}").json()["seconds"] > hidden["seconds"]

    def test_the_end_shows_the_stored_time(self, client: TestClient) -> None:
        gid = new(client, deal=1)["id"]
        post(client, gid, "move", move="f>i")
        end = post(client, gid, "resign").json()
        games = client.get("/api/history").json()["games"]
        assert games[0]["seconds"] == end["seconds"]
