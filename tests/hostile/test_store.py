"""Hostile input for the store and the odds cache (issue #25, items 5 and 6).

Every case damages one thing (a value in one row, the database file, the
place it lives in, a row or the file of the odds cache), then goes through
the command line (``lucie stats``, ``history``, ``export`` in process),
the store API, the terminal game's opening and the web's link to the store.
Each asserts the exit status or the exception type, that no traceback
escaped, that the message names the game or the file, and that nothing
saved changed (the file's bytes, the other games' rows).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from lucie.analysis.cache import CacheError, ValueCache
from lucie.cli import main
from lucie.engine import Game
from lucie.formats import parse_layout
from lucie.rules import Rules
from lucie.store import SCHEMA_VERSION, Store, StoreError

from .conftest import Recorder

AREA = "store"
TARGET = 2  # the game each row case damages


def _play(game: Game, n: int) -> None:
    for _ in range(n):
        moves = [m for m in game.legal_moves if not m.is_redeal]
        if not moves:
            return
        game.push(moves[0])


def _won() -> Game:
    game = Game(Rules(), position=parse_layout("Foundations: C-K D-K H-K S-Q\nKS", Rules()),
                seed=7)
    game.push("a>f")
    return game


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four games: 1 ann won, 2 ann lost (the one damaged), 3 ann playing,
    4 bob resigned (trefoil)."""
    db = tmp_path_factory.mktemp("template") / "games.sqlite3"
    with Store(db) as store:
        win = _won()
        store.finish_game(store.start_game(win, "ann"), win, 40.0)
        lost = Game(Rules(), deal=11)
        gid = store.start_game(lost, "ann")
        _play(lost, 4)
        store.finish_game(gid, lost, 60.0, "lost")
        playing = Game(Rules(), deal=12)
        gid = store.start_game(playing, "ann")
        _play(playing, 3)
        store.record_move(gid, playing, 5.0)
        other = Game(Rules.parse("trefoil"), deal=13)
        gid = store.start_game(other, "bob")
        _play(other, 2)
        store.finish_game(gid, other, 9.0, "resigned")
    assert not Path(f"{db}-wal").exists()  # checkpointed: the main file is the database
    return db


def _rows(db: Path) -> dict[int, str]:
    """Every row as text (its raw values, bytes included), by id."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    conn.text_factory = bytes
    try:
        return {row[0]: repr(row) for row in conn.execute("SELECT * FROM games ORDER BY id")}
    finally:
        conn.close()


def _cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int | str, str, str]:
    """Run ``lucie`` in process: (status or 'traceback', stdout, stderr)."""
    try:
        status: int | str = main(argv)
    except SystemExit as exc:  # argparse
        status = int(exc.code or 0)
    except Exception as exc:
        status = f"traceback: {type(exc).__name__}: {exc}"
    out, err = capsys.readouterr()
    return status, out, err


# -- damaged rows ------------------------------------------------------------

# (name, SQL expression put in one column of game 2); the saved-only cases
# leave the row's own values sound.
ROW_DAMAGE: list[tuple[str, str, str]] = [
    ("player unknown", "player_id", "99"),
    ("player text", "player_id", "'ann'"),
    ("player blob", "player_id", "X'00ff'"),
    ("version text", "version", "'new'"),
    ("version zero", "version", "0"),
    ("variant unknown", "variant", "'zork'"),
    ("variant bad setting", "variant", "'classic cells=99'"),
    ("variant invalid UTF-8", "variant", "CAST(X'c3' AS TEXT)"),
    ("deal text", "deal", "'eleven'"),
    ("deal negative", "deal", "-5"),
    ("deal zero", "deal", "0"),
    ("deal real", "deal", "11.5"),
    ("deal NULL", "deal", "NULL"),  # a layout game; but its saved game has deal 11
    ("deal other", "deal", "12"),
    ("seed text", "seed", "'x'"),
    ("seed huge real", "seed", "1e300"),
    ("started text", "started", "'yesterday'"),
    ("started number", "started", "17"),
    ("updated invalid UTF-8", "updated", "CAST(X'ff' AS TEXT)"),
    ("finished garbage", "finished", "'2026-13-45'"),
    ("status unknown", "status", "'winning'"),
    ("status number", "status", "1"),
    ("score text", "score", "'abc'"),
    ("score negative", "score", "-1"),
    ("score absurd", "score", "4611686018427387904"),
    ("score real", "score", "3.5"),
    ("moves negative", "moves", "-3"),
    ("moves absurd", "moves", "9223372036854775807"),
    ("moves blob", "moves", "X'01'"),
    ("seconds text", "seconds", "'long'"),
    ("seconds negative", "seconds", "-1.0"),
    ("seconds infinite", "seconds", "9e999"),
    ("seconds minus infinite", "seconds", "-9e999"),
    ("saved not JSON", "saved", "'{not json'"),
    ("saved empty", "saved", "''"),
    ("saved invalid UTF-8", "saved", "CAST(X'7b22ff' AS TEXT)"),
    ("saved blob", "saved", "X'7b7d'"),
    ("saved number", "saved", "'42'"),
    ("saved deep", "saved", "'" + "[" * 5000 + "]" * 5000 + "'"),
    ("saved other format", "saved", "'{\"format\": \"x\"}'"),
    ("saved huge number", "saved",
     "json_set(saved, '$.deal', '" + "9" * 100 + "')"),
    ("saved illegal move", "saved", "json_set(saved, '$.moves', json('[\"a>b\", \"q\"]'))"),
    ("saved other deal", "saved", "json_set(saved, '$.deal', 99)"),
    ("saved newer version", "saved", "json_set(saved, '$.version', 999)"),
]
#: Cases whose row is sound on its own: only loading the game finds the damage
#: (its history line and statistics stay; the export and loading refuse it).
SAVED_ONLY = {name for name, column, _ in ROW_DAMAGE if column == "saved"} | {
    "deal NULL", "deal other"}


@pytest.fixture
def damaged_db(tmp_path: Path, template: Path) -> Callable[[str, str], Path]:
    def make(column: str, value: str) -> Path:
        db = tmp_path / "games.sqlite3"
        shutil.copyfile(template, db)
        conn = sqlite3.connect(db)
        conn.execute(f"UPDATE games SET {column} = {value} WHERE id = {TARGET}")
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        return db

    return make


@pytest.mark.parametrize(("name", "column", "value"), ROW_DAMAGE, ids=[c[0] for c in ROW_DAMAGE])
def test_a_damaged_row(
    name: str, column: str, value: str, damaged_db: Callable[[str, str], Path],
    capsys: pytest.CaptureFixture[str], hostile: Recorder, tmp_path: Path,
) -> None:
    db = damaged_db(column, value)
    before = _rows(db)
    saved_only = name in SAVED_ONLY
    others = {1, 3, 4}
    failures: list[str] = []

    def expect(what: str, ok: bool) -> None:
        if not ok:
            failures.append(what)

    # the command line: every command works, names game 2 when it leaves it out
    commands: list[list[str]] = [
        ["stats", "--player", "ann", "--db", str(db)],
        ["stats", "--player", "ann", "--json", "--db", str(db)],
        ["history", "--db", str(db)],
        ["history", "--json", "--db", str(db)],
        ["export", "--db", str(db)],
        ["export", "--format", "csv", "--db", str(db)],
    ]
    outputs: dict[str, str] = {}
    for argv in commands:
        status, out, err = _cli(argv, capsys)
        outputs[" ".join(argv[:2])] = out
        expect(f"{argv[:2]} status {status}", status == 0)
        expect(f"{argv[:2]} traceback", "Traceback" not in out + err)
        left_out = argv[0] == "export" or not saved_only
        if left_out and (argv[0] != "stats" or column != "player_id"):
            expect(f"{argv[:2]} does not name the game: {err!r}",
                   f"game {TARGET}:" in err and "lucie: warning:" in err)
    exported = json.loads(outputs["export --db"])
    expect("export ids", {g["id"] for g in exported["games"]} == others)
    expect("export lists the damaged game",
           [d["id"] for d in exported.get("damaged", [])] == [TARGET])
    history = {g["id"] for g in json.loads(outputs["history --json"])}
    expect("history ids", history == others | ({TARGET} if saved_only else set()))
    stats = json.loads(outputs["stats --player"])
    expect("stats games", stats["games"] == (2 if saved_only else 1) and stats["wins"] == 1)
    # the export of what is left can be imported again
    status, _, err = _cli(["export", "--db", str(db), "--output", str(tmp_path / "e.json")],
                          capsys)
    with Store(tmp_path / "copy.sqlite3") as copy:
        expect("import", copy.import_games((tmp_path / "e.json").read_text()).added == 3)

    # the store API: the damaged game raises StoreError naming it, the others work
    with Store(db) as store:
        try:
            store.game(TARGET)
            expect("game() loaded a damaged game", False)
        except StoreError as exc:
            expect(f"game() message {exc}", f"game {TARGET}" in str(exc))
        try:
            store.record(TARGET)
            expect("record() read a damaged row", saved_only)
        except StoreError as exc:
            expect(f"record() message {exc}", not saved_only and f"game {TARGET}" in str(exc))
        for gid in others:
            store.game(gid)
            store.record(gid)
        found = store.unfinished("ann")
        expect("unfinished", found is not None and found[0] == 3)
        store.players()
        # the terminal game opens the player's game as usual
        from lucie.store import open_game

        opened = open_game(store, "ann")
        expect("terminal game resumes game 3", opened.game_id == 3 and opened.resumed)
        store.release(3)

    # the web's link to the store: statistics, history and a resumed game
    from lucie.web.store_link import StoreLink

    async def web() -> None:
        link = StoreLink.open(db, "ann")
        try:
            link.link("tok", TARGET)
            await link.stats(None)
            await link.history(None, 50)
            expect("web resume of the damaged game", await link.resume("tok") is None)
        finally:
            link.close()

    try:
        asyncio.run(web())
    except Exception as exc:
        failures.append(f"web: {type(exc).__name__}: {exc}")

    after = _rows(db)
    expect("the rows changed", {k: v for k, v in after.items() if k in before} == before)
    if any("traceback" in f or "web:" in f for f in failures):
        outcome = "traceback"
    elif any(f.startswith("the rows") for f in failures):
        outcome = "data_lost"
    else:
        outcome = "clean_error"
    hostile.record(AREA, f"row {name}", outcome)
    assert not failures, failures


# -- files that are not a lucie database ---------------------------------------


def _sqlite(path: Path, *statements: str, wal: bool = False) -> None:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def _lucie_schema_with(path: Path, template: Path, *statements: str) -> None:
    shutil.copyfile(template, path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")  # as a lucie from before the mark
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _truncate(template: Path, size: Callable[[int], int]) -> Callable[[Path], None]:
    def make(path: Path) -> None:
        data = template.read_bytes()
        path.write_bytes(data[: size(len(data))])

    return make


def _header_then_noise(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 40)


FILE_CASES: dict[str, Callable[[Path, Path], None]] = {
    "text file": lambda p, t: p.write_text("hello, this is a letter\n" * 50),
    "empty file": lambda p, t: p.write_bytes(b""),
    "one byte": lambda p, t: p.write_bytes(b"\x00"),
    "SQLite header only": lambda p, t: p.write_bytes(b"SQLite format 3\x00"),
    "SQLite header then noise": lambda p, t: _header_then_noise(p),
    "empty SQLite database": lambda p, t: _sqlite(p, "CREATE TABLE t (a)", "DROP TABLE t"),
    "another program's games table": lambda p, t: _sqlite(
        p, "CREATE TABLE games (id INTEGER PRIMARY KEY, title TEXT)",
        "INSERT INTO games VALUES (1, 'chess')"),
    "another program's table in WAL": lambda p, t: _sqlite(
        p, "CREATE TABLE notes (body TEXT)", "INSERT INTO notes VALUES ('x')", wal=True),
    "another program's application_id": lambda p, t: _sqlite(
        p, "PRAGMA application_id = 1234", "CREATE TABLE games (a)"),
    "lucie tables and a foreign one": lambda p, t: _lucie_schema_with(
        p, t, "CREATE TABLE extra (a)"),
    "lucie tables and a trigger": lambda p, t: _lucie_schema_with(
        p, t, "CREATE TRIGGER tr AFTER INSERT ON games BEGIN SELECT 1; END"),
    "lucie table missing a column": lambda p, t: _lucie_schema_with(
        p, t, "ALTER TABLE games DROP COLUMN seconds"),
    "lucie table from a newer lucie": lambda p, t: _lucie_schema_with(
        p, t, f"PRAGMA user_version = {SCHEMA_VERSION + 5}"),
    "marked lucie file from a newer lucie": lambda p, t: (
        shutil.copyfile(t, p), _sqlite(p, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")),
    "lucie file cut to 50 bytes": lambda p, t: _truncate(t, lambda n: 50)(p),
    "lucie file cut to 150 bytes": lambda p, t: _truncate(t, lambda n: 150)(p),
    "lucie file cut in half": lambda p, t: _truncate(t, lambda n: n // 2)(p),
    "lucie file cut one page short": lambda p, t: _truncate(t, lambda n: n - 4096)(p),
}
#: Cases recognised as a (damaged) lucie database: a copy is kept beside it.
BACKED_UP = {"marked lucie file from a newer lucie", "lucie file cut to 150 bytes",
             "lucie file cut in half",
             "lucie file cut one page short"}


def _listing(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("name", list(FILE_CASES))
def test_a_file_that_is_not_a_lucie_database(
    name: str, tmp_path: Path, template: Path, capsys: pytest.CaptureFixture[str],
    hostile: Recorder,
) -> None:
    folder = tmp_path / "place"
    folder.mkdir()
    db = folder / "games.sqlite3"
    FILE_CASES[name](db, template)
    before = _listing(folder)
    outcome = "clean_error"
    for argv in (["stats"], ["history"], ["export"], ["history", "--json"]):
        status, out, err = _cli([*argv, "--db", str(db)], capsys)
        if isinstance(status, str) or "Traceback" in err:
            outcome = "traceback"
        assert status == 2, (argv, status, err)
        assert err.startswith("lucie: error:") and str(db) in err, err
        assert "Traceback" not in err and not out
    with pytest.raises(StoreError):
        Store(db)
    after = _listing(folder)
    if after["games.sqlite3"] != before["games.sqlite3"]:
        outcome = "data_lost"
    hostile.record(AREA, f"file {name}", outcome)
    assert after["games.sqlite3"] == before["games.sqlite3"]  # byte for byte
    extra = set(after) - set(before)
    if name in BACKED_UP:  # one copy, made once, equal to the file
        assert len(extra) == 1 and after[extra.pop()] == before["games.sqlite3"]
    else:
        assert not extra, extra


def test_a_lucie_database_from_before_the_mark_is_adopted(
    tmp_path: Path, template: Path, hostile: Recorder,
) -> None:
    db = tmp_path / "old.sqlite3"
    _lucie_schema_with(db, template, "DROP TABLE claims")
    rows = _rows(db)
    with Store(db) as store:
        assert store.stats("ann").games == 2
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA application_id").fetchone()[0] != 0
    conn.close()
    assert _rows(db) == rows
    hostile.record(AREA, "file lucie database without application_id", "ok")


# -- places --------------------------------------------------------------------


@pytest.fixture
def as_non_root(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Permission bits do not stop root: under root, os.access answers as
    the bits say (the store asks it before relying on SQLite's own error)."""
    if os.geteuid() == 0:
        real = os.access

        def access(path: Any, mode: int, **kw: Any) -> bool:
            bits = os.stat(path).st_mode
            need = [(os.R_OK, 0o400), (os.W_OK, 0o200), (os.X_OK, 0o100)]
            return real(path, mode, **kw) and all(
                bits & bit for flag, bit in need if mode & flag)

        monkeypatch.setattr("lucie.store.sqlite.os.access", access)
    yield


def test_places_that_cannot_hold_a_database(
    tmp_path: Path, template: Path, capsys: pytest.CaptureFixture[str], hostile: Recorder,
    as_non_root: None,
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    locked = tmp_path / "locked"
    locked.mkdir()
    shutil.copyfile(template, locked / "games.sqlite3")
    locked_file = tmp_path / "ro" / "games.sqlite3"
    locked_file.parent.mkdir()
    shutil.copyfile(template, locked_file)
    cases = {
        "directory given as the path": (tmp_path, "is a directory"),
        "parent is a file": (tmp_path / "a-file" / "games.sqlite3", "is a file"),
        "grandparent is a file": (tmp_path / "a-file" / "x" / "g.sqlite3", "is a file"),
        "read-only directory, new file": (locked / "new.sqlite3", "not writable"),
        "read-only directory, existing file": (locked / "games.sqlite3", "not writable"),
        "read-only file": (locked_file, "not readable and writable"),
    }
    data = template.read_bytes()
    locked.chmod(0o555)
    locked_file.chmod(0o444)
    try:
        for name, (path, cause) in cases.items():
            status, _out, err = _cli(["stats", "--db", str(path)], capsys)
            clean = status == 2 and "Traceback" not in err and cause in err
            hostile.record(AREA, f"place {name}", "clean_error" if clean else "traceback")
            assert clean, (name, status, err)
        assert sorted(p.name for p in locked.iterdir()) == ["games.sqlite3"]
        assert (locked / "games.sqlite3").read_bytes() == data
        assert locked_file.read_bytes() == data
        assert (tmp_path / "a-file").read_text() == "not a folder"
    finally:
        locked.chmod(0o755)
        locked_file.chmod(0o644)


def test_a_missing_parent_directory_is_made(tmp_path: Path, hostile: Recorder) -> None:
    db = tmp_path / "a" / "b" / "games.sqlite3"
    with Store(db) as store:
        store.start_game(Game(Rules(), deal=1), "ann")
    assert db.is_file()
    hostile.record(AREA, "place missing parent directories", "ok")


# -- the odds cache ---------------------------------------------------------------

KEY = ("classic", (5, 6, 7, 8), 1, False)
OTHER = ("classic", (1, 2, 3, 4), 0, False)

CACHE_ROWS: list[tuple[str, tuple[Any, ...]]] = [
    ("total text", ("5.6.7.8", 1, 0, "abc", 3)),
    ("total NaN", ("5.6.7.8", 1, 0, None, 3)),
    ("total above count", ("5.6.7.8", 1, 0, 4.0, 3)),
    ("total negative", ("5.6.7.8", 1, 0, -0.5, 3)),
    ("total infinite", ("5.6.7.8", 1, 0, float("inf"), 3)),
    ("count negative", ("5.6.7.8", 1, 0, 0.0, -3)),
    ("count zero", ("5.6.7.8", 1, 0, 0.0, 0)),
    ("count absurd", ("5.6.7.8", 1, 0, 1.0, 2**63 - 1)),
    ("count real", ("5.6.7.8", 1, 0, 1.0, 2.5)),
    ("foundations text", ("many", 1, 0, 1.0, 2)),
    ("foundations invalid UTF-8", (b"\xff.6.7.8", 1, 0, 1.0, 2)),
    ("foundations out of range", ("5.6.7.80", 1, 0, 1.0, 2)),
    ("redeals negative", ("5.6.7.8", -1, 0, 1.0, 2)),
    ("merci 2", ("5.6.7.8", 1, 2, 1.0, 2)),
]


@pytest.mark.parametrize(("name", "row"), CACHE_ROWS, ids=[c[0] for c in CACHE_ROWS])
def test_a_damaged_cache_row(name: str, row: tuple[Any, ...], tmp_path: Path,
                             hostile: Recorder) -> None:
    path = tmp_path / "odds.sqlite"
    cache = ValueCache(path)
    cache.add(OTHER, 0.5)
    cache.flush()
    conn = sqlite3.connect(path)
    foundations = row[0]
    if isinstance(foundations, bytes):
        conn.execute("INSERT INTO state_values VALUES (1, 'classic', CAST(? AS TEXT), ?, ?, ?, ?)",
                     row)
        # and one with the key's own foundations, damaged in the same way, is absent
    else:
        conn.execute("INSERT INTO state_values VALUES (1, 'classic', ?, ?, ?, ?, ?)", row)
    conn.commit()
    conn.close()
    try:
        fresh = ValueCache(path)
        got, other = fresh.get(KEY), fresh.get(OTHER)
        outcome = "clean_error" if got is None and other == (0.5, 1) and fresh.warnings \
            else "data_lost"
    except Exception:
        outcome = "traceback"
    hostile.record(AREA, f"cache row {name}", outcome)
    assert outcome == "clean_error"


CACHE_FILES: dict[str, Callable[[Path], None]] = {
    "text file": lambda p: p.write_text("not a cache\n" * 100),
    "SQLite header then noise": _header_then_noise,
    "another program's tables": lambda p: _sqlite(p, "CREATE TABLE games (a)",
                                                  "INSERT INTO games VALUES (1)"),
    "state_values with other columns": lambda p: _sqlite(p, "CREATE TABLE state_values (x)"),
}


@pytest.mark.parametrize("name", list(CACHE_FILES))
def test_a_foreign_file_at_the_cache_path_is_left_alone(name: str, tmp_path: Path,
                                                        hostile: Recorder) -> None:
    """A file that is not an odds cache is never renamed or written (issue
    36): :meth:`ValueCache.check` refuses it naming its kind, a cache that
    was not checked keeps its values in memory, and the file stays byte for
    byte as it was."""
    path = tmp_path / "odds.sqlite"
    CACHE_FILES[name](path)
    before = path.read_bytes()
    try:
        with pytest.raises(CacheError, match="not an odds cache"):
            ValueCache(path).check()
        cache = ValueCache(path)
        cache.add(KEY, 1.0)
        cache.flush()
        ok = (cache.get(KEY) == (1.0, 1) and cache.path is None
              and path.read_bytes() == before
              and sorted(p.name for p in tmp_path.iterdir()) == ["odds.sqlite"])
        outcome = "clean_error" if ok else "foreign_changed"
    except Exception:
        outcome = "traceback"
    hostile.record(AREA, f"cache file {name}", outcome)
    assert outcome == "clean_error"


def test_a_damaged_cache_of_lucie_is_set_aside(tmp_path: Path, hostile: Recorder) -> None:
    """lucie's own cache, truncated: it is lucie's (its one table is read),
    so it is set aside (renamed, bytes kept) and a new cache started."""
    path = tmp_path / "odds.sqlite"
    cache = ValueCache(path)
    for a in range(14):
        for b in range(14):
            cache.add(("classic", (a, b, 3, 3), 0, False), 1.0)
    cache.flush()
    _sqlite(path, "PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    before = path.read_bytes()
    try:
        cache = ValueCache(path)
        cache.check()
        cache.get(KEY)
        cache.add(KEY, 1.0)
        cache.flush()
        aside = list(tmp_path.glob("odds.sqlite.damaged-*"))
        kept = [p for p in aside if not p.name.endswith(("-wal", "-shm"))]
        ok = (len(kept) == 1 and kept[0].read_bytes() == before
              and ValueCache(path).get(KEY) == (1.0, 1))
        outcome = "clean_error" if ok else "data_lost"
    except Exception:
        outcome = "traceback"
    hostile.record(AREA, "cache file truncated cache", outcome)
    assert outcome == "clean_error"
