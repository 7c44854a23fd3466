"""The schema's migrations (issue 40): from an empty database on both
backends, from a schema-2 SQLite file as the lucie before players wrote it
(every game kept), and from a schema-2 PostgreSQL database."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lucie.engine import Game
from lucie.formats import game_to_json
from lucie.rules import Rules
from lucie.store import SCHEMA_VERSION, Store, StoreError
from lucie.store.schema import MIGRATIONS, upgrade

Where = Path | str

# The database of the lucie before players (schema 2), exactly as it made it:
# schema 1's games table and index, then picked_rating; the claims table it
# made on every open; the browser's web_games table.
_SCHEMA_2_SQLITE = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,
    player   TEXT    NOT NULL,
    variant  TEXT    NOT NULL,  -- Rules.spec()
    deal     INTEGER,           -- NULL for a game from a layout
    seed     INTEGER NOT NULL,
    started  TEXT    NOT NULL,  -- ISO 8601, UTC
    updated  TEXT    NOT NULL,
    finished TEXT,              -- NULL while the game is being played
    status   TEXT    NOT NULL,  -- playing, won, lost, resigned
    score    INTEGER NOT NULL,
    moves    INTEGER NOT NULL,
    seconds  REAL    NOT NULL DEFAULT 0,
    saved    TEXT    NOT NULL   -- lucie saved-game JSON
);
CREATE INDEX games_by_player ON games (player, variant, status, id);
ALTER TABLE games ADD COLUMN picked_rating TEXT;
CREATE TABLE claims (
    game_id INTEGER PRIMARY KEY,
    owner   TEXT NOT NULL,
    seen    REAL NOT NULL
);
CREATE TABLE web_games (token TEXT PRIMARY KEY, game_id INTEGER NOT NULL);
"""

_INSERT = ("INSERT INTO games (id, player, variant, deal, seed, started, updated, finished, "
           "status, score, moves, seconds, saved, picked_rating) "
           "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)")


def _old_rows() -> list[tuple[Any, ...]]:
    """Games of three players as schema 2 kept them: finished ones of each
    result, one in play, a picked deal, a trefoil game, ids with a gap."""
    rows = []
    cases = [(1, "ann", "classic", 3, "won", 0, None), (2, "bob", "trefoil", 4, "lost", 5, None),
             (4, "ann", "classic", 5, "playing", 3, '{"difficulty": "hard"}'),
             (5, "cy", "classic", 6, "resigned", 1, None),
             (9, "ann", "classic", 7, "resigned", 2, None)]
    for gid, player, spec, deal, status, n, rating in cases:
        game = Game(Rules.parse(spec), deal)
        for _ in range(n):
            game.push(next(m for m in game.legal_moves if not m.is_redeal))
        day = f"2026-01-{gid:02d}T10"
        rows.append((gid, player, Rules.parse(spec).spec(), deal, game.seed,
                     f"{day}:00:00+00:00", f"{day}:05:00+00:00",
                     None if status == "playing" else f"{day}:05:00+00:00", status,
                     game.score, len(game.moves), 12.5 + gid,
                     json.dumps(game_to_json(game), separators=(",", ":")), rating))
    return rows


def _expected(rows: list[tuple[Any, ...]]) -> dict[int, tuple[Any, ...]]:
    """What each game reads back as: (player, variant, deal, seed, started,
    updated, finished, status, score, moves, seconds)."""
    return {r[0]: r[1:12] for r in rows}


def _read_back(store: Store) -> dict[int, tuple[Any, ...]]:
    return {r.id: (r.player, r.variant, r.deal, r.seed, r.started, r.updated, r.finished,
                   r.status, r.score, r.moves, r.seconds) for r in store.history()}


def _check_kept(store: Store, rows: list[tuple[Any, ...]]) -> None:
    assert _read_back(store) == _expected(rows)
    for row in rows:
        record = store.record(row[0])
        assert record.version == 1
        assert store.picked_rating(row[0]) == row[13]
        saved = json.loads(row[12])
        assert [str(m) for m in store.game(row[0]).moves] == saved["moves"]
    # one player per name, each game theirs
    assert sorted(store.players()) == ["ann", "bob", "cy"]
    assert {r.id for r in store.history("ann")} == {1, 4, 9}
    assert store.stats("ann").games == 2 and store.stats("ann").wins == 1
    assert store.stats("bob", "trefoil").games == 1
    ann = store.local_player("ann")
    assert ann.created == "2026-01-01T10:00:00+00:00"  # when the name first played
    resumed = store.unfinished("ann")
    assert resumed is not None and resumed[0] == 4 and len(resumed[1].moves) == 3


def test_an_empty_database_gets_every_migration(store: Store) -> None:
    assert [m.version for m in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))
    gid = store.start_game(Game(Rules(), 1), "ann")
    assert store.record(gid).version == 1 and store.players() == ["ann"]
    if store.dialect == "sqlite":
        assert store.path is not None
        conn = sqlite3.connect(store.path)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        conn.close()
    else:
        version = store._backend.read("SELECT version FROM lucie_schema")[0][0]  # type: ignore[attr-defined]
    assert version == SCHEMA_VERSION == 11


def test_a_schema_2_sqlite_file_keeps_every_game(tmp_path: Path) -> None:
    db = tmp_path / "lucie.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id = 1282761577")
    conn.execute("PRAGMA user_version = 2")
    conn.executescript(_SCHEMA_2_SQLITE)
    rows = _old_rows()
    conn.executemany(_INSERT, rows)
    conn.execute("INSERT INTO web_games VALUES ('page-token', 4)")
    conn.commit()
    conn.close()
    with Store(db) as store:
        _check_kept(store, rows)
        assert store.token_game("page-token") == 4
        new = store.start_game(Game(Rules(), 11), "bob")
        assert new == 10 and store.record(new).player == "bob"
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    columns = [c[1] for c in conn.execute("PRAGMA table_info(games)")]
    assert "player" not in columns and {"player_id", "version"} <= set(columns)
    conn.close()
    with Store(db) as store:  # opened again: nothing more to do, nothing lost
        assert len(store.history()) == len(rows) + 1
    assert not list(tmp_path.glob("lucie.sqlite3.backup-*"))


def test_a_schema_2_postgresql_database_keeps_every_game(
    pg_fresh: Callable[[], str],
) -> None:
    import psycopg

    url = pg_fresh()
    rows = _old_rows()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE lucie_schema (version INTEGER NOT NULL)")
        conn.execute("INSERT INTO lucie_schema VALUES (2)")
        for statement in upgrade("postgresql", 0, 2):
            conn.execute(statement)
        conn.cursor().executemany(_INSERT.replace("?", "%s"), rows)
    with Store(url) as store:
        _check_kept(store, rows)
        new = store.start_game(Game(Rules(), 11), "bob")
        assert new not in {r[0] for r in rows}
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT version FROM lucie_schema").fetchone() == (SCHEMA_VERSION,)
        nullable = conn.execute(
            "SELECT is_nullable FROM information_schema.columns "
            "WHERE table_name = 'games' AND column_name = 'player_id'").fetchone()
        assert nullable == ("NO",)


def test_postgresql_refuses_what_is_not_its_own(pg_fresh: Callable[[], str]) -> None:
    """(The SQLite file cases are tests/hostile/test_store.py.)"""
    import psycopg

    foreign, newer = pg_fresh(), pg_fresh()
    with psycopg.connect(foreign, autocommit=True) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)")
    with psycopg.connect(newer, autocommit=True) as conn:
        conn.execute("CREATE TABLE lucie_schema (version INTEGER NOT NULL)")
        conn.execute(f"INSERT INTO lucie_schema VALUES ({SCHEMA_VERSION + 1})")
    with pytest.raises(StoreError, match=r"not a lucie games database.*games"):
        Store(foreign)
    with pytest.raises(StoreError, match="newer lucie"):
        Store(newer)
    with psycopg.connect(foreign, autocommit=True) as conn:  # left as they were
        tables = {r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert tables == {"games"}
    with psycopg.connect(newer, autocommit=True) as conn:
        tables = {r[0] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert tables == {"lucie_schema"}
    with pytest.raises(StoreError, match="cannot open the database") as caught:
        Store(foreign.replace("lucie_test_", "no_such_db_").replace("lucie@", "lucie:Hush-Word@"))
    # the password is never shown (a word no temporary directory's name holds:
    # "pw" was found once, in the socket's directory /tmp/lucie-pg-pwwbvkt6)
    assert "Hush-Word" not in str(caught.value)


def test_programs_opening_an_empty_database_at_once_migrate_it_once(where: Where) -> None:
    errors: list[BaseException] = []
    stores: list[Store] = []

    def open_one() -> None:
        try:
            stores.append(Store(where))
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert not errors, errors
        gid = stores[0].start_game(Game(Rules(), 1), "ann")
        assert all(s.record(gid).player == "ann" for s in stores)
    finally:
        for s in stores:
            s.close()
