"""No id handed out twice (issue 48, schema 8): the player, game, duel or
news row deleted last, even the newest, leaves its id unused for good, on
both backends, in a new database and in one upgraded from schema 7."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from lucie.engine import Game
from lucie.formats import game_to_json
from lucie.rules import Rules
from lucie.store import SCHEMA_VERSION, Store
from lucie.store.duels import DuelSettings, duel_by_token, forget_news, open_duel, post_news
from lucie.store.schema import upgrade

_SETTINGS = DuelSettings("classic", 7, True, True, None)


def _news(store: Store, duel: int) -> int:
    """A new piece of news of ``duel``: the id of its row."""
    assert post_news(store, duel, "here", {}, 1.0) is not None
    rows = store._read("SELECT MAX(id) FROM duel_news")
    return int(rows[0][0])


def _player_with_all(store: Store, n: int) -> tuple[int, int, int]:
    """A new player with a game and a duel: their ids."""
    player = store.new_player(f"p{n}")
    gid = store.start_game(Game(Rules(), n), player)
    duel = open_duel(store, _SETTINGS, token=f"duel-{n}", host=player.id, game=gid,
                     page=f"page-{n}")
    return player.id, gid, duel.id


def test_the_newest_rows_deleted_leave_their_ids_unused(store: Store) -> None:
    first = _player_with_all(store, 1)
    newest = _player_with_all(store, 2)
    news = _news(store, first[2])
    assert store.delete_player(store.player(newest[0])) == 1  # its game and duel too
    assert store.player(newest[0]) is None
    again = _player_with_all(store, 3)
    assert all(a > b for a, b in zip(again, newest, strict=True)), (again, newest)
    assert _news(store, first[2]) > news
    # all the news forgotten (a quiet minute): the numbers go on all the same
    assert forget_news(store, 2.0) == 2
    assert _news(store, first[2]) > news + 1


def test_a_player_id_is_not_given_again_after_reopening(where: Path | str) -> None:
    with Store(where) as store:
        kept = store.new_player("kept").id
        gone = store.new_player("gone")
        store.delete_player(gone)
    with Store(where) as store:
        assert store.new_player("new").id > gone.id > kept


# schema 7's rows: players with a gap in their ids, each with a game; a duel
# and its news
_PLAYERS = [(1, "ann", None, "2026-01-01T10:00:00+00:00"),
            (2, "", None, "2026-01-02T10:00:00+00:00"),
            (5, "cy", "cy", "2026-01-03T10:00:00+00:00")]


def _fill_schema_7(conn: sqlite3.Connection | object, mark: str) -> None:
    """Rows of schema 7, ids given, as another program (or a copy from a
    SQLite file) would have written them (``mark``: the parameter mark)."""
    execute = conn.execute  # type: ignore[attr-defined]
    for row in _PLAYERS:
        execute(f"INSERT INTO players (id, name, login, created) VALUES ({mark}, {mark}, "
                f"{mark}, {mark})", row)
    for pid in (1, 2, 5):
        game = Game(Rules(), pid)
        execute(
            "INSERT INTO games (id, player_id, variant, deal, seed, started, updated, status,"
            f" score, moves, saved) VALUES ({mark}, {mark}, 'classic', {mark}, {mark},"
            f" '2026-01-0{pid}T10:00:00+00:00', '2026-01-0{pid}T10:00:00+00:00', 'playing',"
            f" 0, 0, {mark})",
            (pid * 10, pid, pid, game.seed, json.dumps(game_to_json(game))))
    execute("INSERT INTO duels (id, token, variant, deal, hints, undo, created, host_id,"
            " host_game, host_page) VALUES (7, 'tok', 'classic', 1, 1, 1,"
            " '2026-01-01T10:00:00+00:00', 1, 10, 'page')")
    execute("INSERT INTO duel_news (id, duel, origin, message, made) VALUES (3, 7, 'x', '{}', 1.5)")


def _check_upgraded(store: Store) -> None:
    """Schema 7's rows all there, and no id of theirs given again."""
    assert [(p.id, p.name) for p in map(store.player, (1, 2, 5)) if p is not None] == [
        (1, "ann"), (2, ""), (5, "cy")]
    assert {r.id for r in store.history()} == {10, 20, 50}
    assert store.history("cy")[0].id == 50
    assert store.record(10).player == "ann"
    duel = duel_by_token(store, "tok")
    assert duel is not None and (duel.id, duel.host_id, duel.host_game) == (7, 1, 10)
    # the newest of each deleted: none of their ids comes back
    store.delete_player(store.player(5))  # (its game 50 with it)
    new = _player_with_all(store, 9)
    assert new[0] > 5 and new[1] > 50 and new[2] > 7, new
    assert _news(store, 7) > 3


def test_a_schema_7_sqlite_file_is_upgraded_keeping_its_rows(tmp_path: Path) -> None:
    db = tmp_path / "lucie.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id = 1282761577")
    conn.execute("PRAGMA user_version = 7")
    for statement in upgrade("sqlite", 0, 7):
        conn.execute(statement)
    _fill_schema_7(conn, "?")
    conn.commit()
    conn.close()
    with Store(db) as store:
        _check_upgraded(store)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        made = {name: sql for name, sql in conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL")}
        for table in ("players", "games", "duels", "duel_news"):
            assert "AUTOINCREMENT" in made[table], made[table]
        assert {"games_by_player", "games_by_deal", "duel_news_by_made"} <= set(made)
        assert not any(name.endswith("_8") for name in made)
        # the constraints kept: a second player of one login, a second duel
        # of one token are refused
        conn.execute("INSERT INTO players (name, login, created) VALUES ('x', 'dup', 'now')")
        for refused in ("INSERT INTO players (name, login, created) VALUES ('y', 'dup', 'now')",
                        "INSERT INTO duels (token, variant, deal, hints, undo, created, "
                        "host_id, host_game, host_page) VALUES ('tok', 'classic', 1, 1, 1, "
                        "'now', 1, 10, 'other')"):
            try:
                conn.execute(refused)
            except sqlite3.IntegrityError:
                continue
            raise AssertionError(f"not refused: {refused}")
    finally:
        conn.close()
    with Store(db) as store:  # opened again: recognised as lucie's, nothing lost
        assert store.player(1) is not None and store.player(5) is None


def test_a_schema_7_postgresql_database_with_copied_ids_gets_new_ones(
        pg_fresh: Callable[[], str]) -> None:
    """Rows copied in with their ids (as from a SQLite file) leave the
    identity sequences behind; the upgrade moves each past its largest id."""
    import psycopg

    url = pg_fresh()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE lucie_schema (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO lucie_schema VALUES (7)")
        for statement in upgrade("postgresql", 0, 7):
            conn.execute(statement)
        _fill_schema_7(conn, "%s")
    with Store(url) as store:
        _check_upgraded(store)


def test_postgresql_sequences_are_never_moved_back(pg_fresh: Callable[[], str]) -> None:
    """A schema-7 database whose newest player was deleted: the upgrade
    leaves its id given (the sequence is past it, not at the largest id
    left plus one)."""
    import psycopg

    url = pg_fresh()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE lucie_schema (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO lucie_schema VALUES (7)")
        for statement in upgrade("postgresql", 0, 7):
            conn.execute(statement)
        ids = [conn.execute("INSERT INTO players (name, created) VALUES ('', 'now')"
                            " RETURNING id").fetchone()[0] for _ in range(3)]
        conn.execute("DELETE FROM players WHERE id = %s", (ids[-1],))
    with Store(url) as store:
        assert store.new_player("").id > ids[-1]
