"""``lucie serve``'s tidying for real, on both backends: a recovery code
taken on a device (through one of two servers on one database), and the
forgetting of idle players and unplayed deals when the site starts."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import httpx
from tests.serving import healthy, wait_for

from lucie.engine import Game
from lucie.rules import Rules
from lucie.store import Store

#: Forty days ago, as the store writes times: older than the default 30.
LONG_AGO = "2000-01-01T00:00:00+00:00"


def _play(client: httpx.Client, deal: int) -> tuple[str, list[str]]:
    game = client.post("/api/games", json={"deal": deal}).json()
    move = next(m for m in game["legal_moves"] if m != "redeal")
    moved = client.post(f"/api/games/{game['id']}/move", json={"move": move})
    assert moved.status_code == 200, moved.text
    return game["id"], moved.json()["moves"]


def test_a_recovery_code_takes_the_device_s_games_along(serve_site: Any, where: Any) -> None:
    _one, url1 = serve_site(str(where))
    _two, url2 = serve_site(str(where))
    with httpx.Client(base_url=url1, timeout=30) as device, \
            httpx.Client(base_url=url1, timeout=30) as home:
        code = home.get("/api/me").json()["recovery_code"]
        before = device.get("/api/me").json()["id"]
        gid, moves = _play(device, 7)
        device.post("/api/games", json={"deal": 8}).raise_for_status()  # never played
        with httpx.Client(base_url=url2, timeout=30, cookies=device.cookies) as there:
            assert there.get(f"/api/games/{gid}").status_code == 200  # cached there too
            taken = device.post("/api/me/recover", json={"code": code})
            assert taken.status_code == 200, taken.text
            there.cookies = device.cookies
            # the game in play goes along, through either server
            assert there.get(f"/api/games/{gid}").json()["moves"] == moves
        assert device.get(f"/api/games/{gid}").json()["moves"] == moves
        assert home.get(f"/api/games/{gid}").json()["moves"] == moves
    with Store(where) as store:
        assert store.player(before) is None  # nothing of it would be missed


def test_a_recovery_keeps_a_player_with_a_result(serve_site: Any, where: Any) -> None:
    _one, url = serve_site(str(where))
    with httpx.Client(base_url=url, timeout=30) as device, \
            httpx.Client(base_url=url, timeout=30) as home:
        code = home.get("/api/me").json()["recovery_code"]
        before = device.get("/api/me").json()["id"]
        gid, _moves = _play(device, 7)
        device.post(f"/api/games/{gid}/resign", json={}).raise_for_status()
        assert device.post("/api/me/recover", json={"code": code}).status_code == 200
        assert device.get("/api/stats").json()["games"] == 0  # home's statistics
    with Store(where) as store:
        kept = store.player(before)
        assert kept is not None
        assert store.stats(kept).games == 1  # the result, as it was


def _age(where: Any) -> None:
    """Make every row of the database forty days old (or more)."""
    statements = [f"UPDATE players SET created = '{LONG_AGO}'",
                  f"UPDATE games SET started = '{LONG_AGO}', updated = '{LONG_AGO}'"]
    if isinstance(where, Path):
        conn = sqlite3.connect(where)
        try:
            with conn:
                for sql in statements:
                    conn.execute(sql)
        finally:
            conn.close()
        return
    import psycopg

    with psycopg.connect(where, autocommit=True) as pg:
        for sql in statements:
            pg.execute(sql)


def test_lucie_serve_forgets_idle_players_when_it_starts(serve_site: Any, where: Any) -> None:
    with Store(where) as store:
        idle = store.new_player("")
        named = store.new_player("Eve")
        deal = store.start_game(Game(Rules(), 1), named)
        winner = store.new_player("")
        game = Game(Rules(), 2)
        won = store.start_game(game, winner)
        game.resign()
        store.finish_game(won, game, 5.0, "resigned")
        local = store.start_game(Game(Rules(), 3), "someone")
    _age(where)
    _proc, url = serve_site(str(where))  # --forget-after 30, the default
    with Store(where) as store:
        wait_for("the tidying", lambda: store.player(idle.id) is None
                  and store.version(deal) is None)
        assert store.player(named.id) is not None and store.player(winner.id) is not None
        assert store.record(won).status == "resigned"
        assert store.version(local) is not None  # a local player's
    assert healthy(url)
