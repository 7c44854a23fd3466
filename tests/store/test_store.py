"""The store: life of a game, statistics, concurrency, damage, export.

The tests that take ``store``, ``where`` or ``fresh`` (tests/store/conftest.py)
run on both backends, SQLite and a real PostgreSQL server; those about a
SQLite file itself (damage, WAL, values of any type in any column) take a
path."""

from __future__ import annotations

import csv
import io
import json
import multiprocessing
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lucie.cli import main
from lucie.engine import Game
from lucie.rules import Rules
from lucie.store import SCHEMA_VERSION, Store, StoreError

Where = Path | str


def play(game: Game, n: int) -> None:
    """Play up to ``n`` legal non-redeal moves (the first legal one each time)."""
    for _ in range(n):
        moves = [m for m in game.legal_moves if not m.is_redeal]
        if not moves:
            return
        game.push(moves[0])


class TestLife:
    def test_moves_are_saved_and_resume(self, where: Where) -> None:
        db = where
        with Store(db) as store:
            game = Game(Rules.parse("trefoil"), deal=5)
            gid = store.start_game(game, "ann")
            play(game, 6)
            store.record_move(gid, game, seconds=7.5)
        with Store(db) as store:  # a new process would see the same
            found = store.unfinished("ann")
            assert found is not None and found[0] == gid
            assert found[1].position == game.position
            assert found[1].moves == game.moves
            assert store.record(gid).seconds == 7.5
            assert store.unfinished("ann", "classic") is None
            assert store.unfinished("bob") is None
            assert store.unfinished("ann", Rules.parse("trefoil")) is not None

    def test_finish_undo_and_discard(self, store: Store) -> None:
        game = Game(Rules(), deal=3)
        gid = store.start_game(game, "ann")
        play(game, 3)
        store.finish_game(gid, game, 30.0)
        rec = store.record(gid)
        assert rec.status == "resigned" and rec.finished is not None
        assert store.unfinished("ann") is None
        assert store.stats("ann").games == 1
        other = store.start_game(Game(Rules(), deal=4), "ann")
        assert store.discard(other)
        assert not store.discard(gid)  # moves were made: never dropped
        assert [r.id for r in store.history("ann")] == [gid]

    def test_any_game_replays(self, store: Store) -> None:
        game = Game(Rules.parse("merci"), deal=8)
        gid = store.start_game(game, "ann")
        play(game, 10)
        store.finish_game(gid, game, 1.0, "lost")
        again = store.game(gid)
        assert again.moves == game.moves and again.position == game.position
        with pytest.raises(StoreError, match="no game 999"):
            store.game(999)

    def test_bad_status_is_refused(self, store: Store) -> None:
        game = Game(Rules(), deal=1)
        gid = store.start_game(game, "ann")
        with pytest.raises(StoreError, match="not a finished status"):
            store.finish_game(gid, game, 1.0, "playing")


def won_game(deal: int) -> Game:
    """A game whose outcome is 'won' (built from a layout one move from the end)."""
    from lucie.formats import parse_layout

    position = parse_layout("Foundations: C-K D-K H-K S-Q\nKS", Rules())
    game = Game(Rules(), position=position, seed=deal)
    game.push("a>f")
    return game


_PLAYERS = iter(range(10**9))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(results=st.lists(st.sampled_from(["won", "lost", "resigned"]), max_size=230))
def test_stats_follow_the_results(store: Store, results: list[str]) -> None:
    ann = f"ann{next(_PLAYERS)}"  # a new player for each example, in one store
    for i, result in enumerate(results, 1):
        game = won_game(i) if result == "won" else Game(Rules(), deal=i)
        gid = store.start_game(game, ann)
        store.finish_game(gid, game, 2.0, result)
    s = store.stats(ann, "classic")
    assert s.games == len(results)
    assert s.wins == results.count("won")
    runs = "".join("w" if r == "won" else "." for r in results).split(".")
    assert s.best_streak == max((len(r) for r in runs), default=0)
    assert s.current_streak == len(runs[-1]) if results else s.current_streak == 0
    scores = [52 if r == "won" else 0 for r in results]
    assert s.average_score == pytest.approx(sum(scores) / len(scores) if scores else 0)
    assert [x.games for x in s.series] == [
        len(results[i:i + 100]) for i in range(0, len(results), 100)
    ]
    assert sum(x.wins for x in s.series) == s.wins
    assert store.stats(ann, "trefoil").games == 0


def _writer(db: str, player: str, n: int) -> None:
    store = Store(db)
    for i in range(n):
        game = Game(Rules(), deal=i + 1)
        gid = store.start_game(game, player)
        for _ in range(3):
            play(game, 1)
            store.record_move(gid, game, seconds=float(i))
        store.finish_game(gid, game, 1.0)
    store.close()


def test_two_processes_write_at_once(where: Where) -> None:
    db = where
    Store(db).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(db), name, 40)) for name in ("ann", "bob")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    with Store(db) as store:
        for name in ("ann", "bob"):
            history = store.history(name)
            assert len(history) == 40 and all(r.status == "resigned" for r in history)
            for record in history:
                expected = Game(Rules(), deal=record.deal)
                play(expected, 3)
                assert store.game(record.id).position == expected.position
    if not isinstance(db, Path):
        return
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


class TestDamage:
    def test_not_a_database(self, tmp_path: Path) -> None:
        db = tmp_path / "g.sqlite3"
        data = b"this is not sqlite " * 300
        db.write_bytes(data)
        with pytest.raises(StoreError) as err:
            Store(db)
        message = str(err.value)
        assert str(db) in message and "not a SQLite database" in message
        assert db.read_bytes() == data  # never overwritten
        assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sqlite3"]  # nothing beside

    def test_damaged_pages(self, tmp_path: Path) -> None:
        db = tmp_path / "g.sqlite3"
        with Store(db) as store:
            for i in range(60):
                game = Game(Rules(), deal=i + 1)
                gid = store.start_game(game, "ann")
                play(game, 5)
                store.record_move(gid, game)
        conn = sqlite3.connect(db)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        raw = bytearray(db.read_bytes())
        page = 4096
        assert len(raw) > 4 * page
        raw[2 * page: 2 * page + 200] = b"\xff" * 200  # scribble over a b-tree page
        db.write_bytes(bytes(raw))
        with pytest.raises(StoreError, match="damaged"):
            Store(db)
        assert db.read_bytes() == bytes(raw)
        assert list(tmp_path.glob("g.sqlite3.backup-*"))

    def test_newer_schema(self, tmp_path: Path) -> None:
        db = tmp_path / "g.sqlite3"
        Store(db).close()
        conn = sqlite3.connect(db)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        conn.commit()
        conn.close()
        before = db.read_bytes()
        with pytest.raises(StoreError, match="newer lucie"):
            Store(db)
        assert db.read_bytes() == before
        assert len(list(tmp_path.glob("g.sqlite3.backup-*"))) == 1

    def test_cli_reports_it_with_status_2(self, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
        db = tmp_path / "bad.sqlite3"
        db.write_bytes(b"garbage" * 1000)
        assert main(["stats", "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("lucie: error:") and "not a SQLite database" in err


def _fill(store: Store) -> None:
    for i, spec in enumerate(["classic", "trefoil", "reserve", "merci"], 1):
        game = Game(Rules.parse(spec), deal=100 + i)
        gid = store.start_game(game, "ann" if i % 2 else "bob")
        play(game, 4 + i)
        store.record_move(gid, game, 3.0)
        if i != 4:
            store.finish_game(gid, game, 10.0 * i)
    win = won_game(7)
    store.finish_game(store.start_game(win, "ann"), win, 99.0)


def test_export_json_round_trip(fresh: Callable[[], Where]) -> None:
    with Store(fresh()) as a, Store(fresh()) as b:
        _fill(a)
        text = a.export("json")
        assert b.import_games(text).added == 5
        strip = [
            {k: v for k, v in r.to_json().items() if k != "id"} for r in a.history()
        ]
        assert strip == [
            {k: v for k, v in r.to_json().items() if k != "id"} for r in b.history()
        ]
        for ra, rb in zip(a.history(), b.history(), strict=True):
            ga, gb = a.game(ra.id), b.game(rb.id)
            assert ga.moves == gb.moves and ga.position == gb.position
        assert b.stats("ann", "classic") == a.stats("ann", "classic")
        assert json.loads(b.export("json"))["games"][0]["game"]["moves"]


def test_export_csv(store: Store) -> None:
    a = store
    _fill(a)
    rows = list(csv.DictReader(io.StringIO(a.export("csv"))))
    assert len(rows) == 5
    for row in rows:
        game = a.game(int(row["id"]))
        assert row["move_list"].split() == [str(m) for m in game.moves]
        assert int(row["score"]) == game.score
    with pytest.raises(StoreError, match="unknown export format"):
        a.export("xml")  # type: ignore[arg-type]


def test_export_seconds_without_float_noise(tmp_path: Path) -> None:
    """The time played is kept to hundredths of a second: no float noise in
    the CSV or JSON export, even from a row written before that."""
    with Store(tmp_path / "g.sqlite3") as store:
        game = Game(Rules(), deal=3)
        gid = store.start_game(game, "ann")
        store.finish_game(gid, game, seconds=0.0077070329989510356, status="resigned")
        old = store.start_game(Game(Rules(), deal=4), "ann")
        with sqlite3.connect(tmp_path / "g.sqlite3") as conn:  # an older lucie's noise
            conn.execute("UPDATE games SET seconds = ? WHERE id = ?", (12.300000000000001, old))
        rows = list(csv.DictReader(io.StringIO(store.export("csv"))))
        assert sorted(r["seconds"] for r in rows) == ["0.01", "12.3"]
        data = json.loads(store.export("json"))
        assert sorted(g["seconds"] for g in data["games"]) == [0.01, 12.3]


def test_import_refuses_a_damaged_export(fresh: Callable[[], Where]) -> None:
    with Store(fresh()) as a, Store(fresh()) as b:
        _fill(a)
        data = json.loads(a.export("json"))
        data["games"][1]["game"]["moves"].insert(0, "a>b")
        with pytest.raises(StoreError, match="game 2 of the export is damaged"):
            b.import_games(json.dumps(data))
        assert b.history() == []  # nothing half-imported


def test_cli_stats_history_export(where: Where, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    db = where
    with Store(db) as a:
        _fill(a)
    assert main(["stats", "--db", str(db), "--player", "ann", "--variant", "classic",
                 "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["games"], stats["wins"], stats["best_streak"]) == (2, 1, 1)
    assert main(["stats", "--db", str(db), "--player", "ann"]) == 0
    assert "won 1" in capsys.readouterr().out
    assert main(["history", "--db", str(db), "--json"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [h["variant"] for h in history] == ["classic", "merci", "reserve", "trefoil",
                                               "classic"]
    assert main(["history", "--db", str(db)]) == 0
    assert "Trefoil" in capsys.readouterr().out  # the variant's title
    out = tmp_path / "games.csv"
    assert main(["export", "--db", str(db), "--format", "csv", "--output", str(out)]) == 0
    assert out.read_text().startswith("id,player,variant")
    assert main(["export", "--db", str(db), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "lucie-games"
    assert main(["export", "--db", str(db), "--output", str(tmp_path / "no" / "x.json")]) == 2


def _claimer(db: str, game_id: int, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    store = Store(db)
    out.put(store.claim(game_id))
    out.put(store.unfinished("ann") is None)
    store.close()


def test_a_game_is_played_by_one_program_at_a_time(where: Where) -> None:
    db = where
    with Store(db) as store:
        game = Game(Rules(), deal=2)
        gid = store.start_game(game, "ann")
        assert store.claim(gid)
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        p = ctx.Process(target=_claimer, args=(str(db), gid, out))
        p.start()
        p.join(60)
        # another running program cannot take it, nor resume it
        assert out.get(timeout=5) is False and out.get(timeout=5) is True
        store.release(gid)
        p = ctx.Process(target=_claimer, args=(str(db), gid, out))
        p.start()
        p.join(60)
        assert out.get(timeout=5) is True
        # that program has ended: its claim lapsed, this one may play again
        assert store.claim(gid)
        assert store.unfinished("ann") is not None


_COLUMN_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30),
    st.binary(max_size=30),
)


@settings(max_examples=40, deadline=None)
@given(column=st.sampled_from(["player_id", "version", "variant", "deal", "seed", "started",
                               "updated", "finished", "status", "score", "moves", "seconds",
                               "saved"]),
       value=_COLUMN_VALUES)
def test_any_value_in_any_column_is_read_or_named(
    tmp_path_factory: pytest.TempPathFactory, column: str, value: object,
) -> None:
    """Whatever one column of one row holds, reading the store gives either
    that game as it is or a damaged entry (a StoreError) naming it; the other
    game is untouched and counted.  (SQLite only: a PostgreSQL column holds
    only values of its type.)"""
    db = tmp_path_factory.mktemp("any") / "g.sqlite3"
    with Store(db) as store:
        keep = Game(Rules(), deal=3)
        kept = store.start_game(keep, "ann")
        play(keep, 3)
        store.finish_game(kept, keep, 5.0, "lost")
        hit = store.start_game(Game(Rules(), deal=4), "ann")
        conn = sqlite3.connect(db)
        try:
            conn.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, hit))
            conn.commit()
        except sqlite3.IntegrityError:  # NULL in a NOT NULL column: cannot happen
            return
        finally:
            conn.close()
        stats = store.stats("ann")
        assert stats.games >= 1 and stats.best_score == keep.score
        history = store.history()
        assert kept in {r.id for r in history}
        assert {r.id for r in history} | {d.game_id for d in history.damaged} == {kept, hit}
        exported = store.export_games("json")
        assert exported.games + len(exported.damaged) == 2
        for d in exported.damaged:
            assert d.game_id == hit and d.reason
        assert store.game(kept).moves == keep.moves
        for read in (store.game, store.record):
            try:
                read(hit)
            except StoreError as exc:
                assert f"game {hit}" in str(exc)
        store.unfinished("ann")
        store.players()


def test_export_import_round_trips_every_field(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``lucie export`` then ``lucie import`` into an empty store gives back
    every field of every game (results, scores, times, dates, the saved
    games), and importing the same file again adds nothing (issue 36)."""
    a_db, b_db, out = tmp_path / "a.sqlite3", tmp_path / "b.sqlite3", tmp_path / "e.json"
    # (SQLite only: it compares the files' raw rows; the round trip of every
    # backend is test_export_json_round_trip)
    with Store(a_db) as a:
        _fill(a)
        lost = Game(Rules(), deal=31)
        play(lost, 3)
        a.finish_game(a.start_game(lost, "cy"), lost, 7.25, "lost")
    assert main(["export", "--db", str(a_db), "--output", str(out)]) == 0
    assert main(["import", str(out), "--db", str(b_db)]) == 0
    assert "6 games added" in capsys.readouterr().out
    fields = ("p.name", "variant", "deal", "seed", "started", "updated", "finished",
              "status", "score", "moves", "seconds", "saved")
    with sqlite3.connect(a_db) as ca, sqlite3.connect(b_db) as cb:
        sql = (f"SELECT {', '.join(fields)} FROM games g JOIN players p "
               "ON p.id = g.player_id ORDER BY g.id")
        original, imported = ca.execute(sql).fetchall(), cb.execute(sql).fetchall()
    assert imported == original
    assert {r[7] for r in imported} == {"won", "lost", "resigned", "playing"}
    with Store(a_db) as a, Store(b_db) as b:
        for player in ("ann", "bob", "cy"):
            assert b.stats(player) == a.stats(player)
    # twice: nothing duplicated, nothing rewritten
    assert main(["import", str(out), "--db", str(b_db)]) == 0
    said = capsys.readouterr().out
    assert "0 games added" in said and "6 games were in the store already" in said
    with sqlite3.connect(b_db) as cb:
        assert cb.execute(sql).fetchall() == original


@pytest.mark.parametrize("change, why", [
    (lambda g: g.update(status="won"), "does not match its game"),
    (lambda g: g.update(score=51), "score 51 does not match"),
    (lambda g: g.update(moves=g["moves"] + 1), "does not match its game"),
    (lambda g: g.update(finished=None), "does not match finished"),
    (lambda g: g.pop("player"), "player"),
    (lambda g: g.update(seconds="ten"), "not a number"),
])
def test_import_checks_every_field(fresh: Callable[[], Where], change: Any, why: str) -> None:
    with Store(fresh()) as a, Store(fresh()) as b:
        _fill(a)
        data = json.loads(a.export("json"))
        change(data["games"][0])
        with pytest.raises(StoreError, match="game 1 of the export is damaged") as info:
            b.import_games(json.dumps(data))
        assert why in str(info.value)
        assert b.history() == []


# -- a picked deal's rating, kept with its game (issue 35) ---------------------

# The games table as lucie wrote it with schema 1 (before ``picked_rating``).
_SCHEMA_1 = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,
    player   TEXT    NOT NULL,
    variant  TEXT    NOT NULL,
    deal     INTEGER,
    seed     INTEGER NOT NULL,
    started  TEXT    NOT NULL,
    updated  TEXT    NOT NULL,
    finished TEXT,
    status   TEXT    NOT NULL,
    score    INTEGER NOT NULL,
    moves    INTEGER NOT NULL,
    seconds  REAL    NOT NULL DEFAULT 0,
    saved    TEXT    NOT NULL
);
CREATE INDEX games_by_player ON games (player, variant, status, id);
"""


def test_a_picked_rating_stays_with_its_game(where: Where) -> None:
    db = where
    rating = json.dumps({"difficulty": "hard", "picked": True, "text": "Ce donne est dur\u00a0!"},
                        ensure_ascii=False)
    with Store(db) as store:
        picked = store.start_game(Game(Rules(), 7), "ann", rating)
        plain = store.start_game(Game(Rules(), 8), "ann")
        game = Game(Rules(), 7)
        play(game, 2)
        store.record_move(picked, game, 3.0)
        store.finish_game(picked, game, 4.0, "resigned")
    with Store(db) as store:
        assert store.picked_rating(picked) == rating
        assert store.picked_rating(plain) is None
        assert store.picked_rating(999) is None
        assert store.record(picked).status == "resigned"


@pytest.mark.parametrize("marked", [True, False], ids=["schema 1", "before application_id"])
def test_a_schema_1_database_is_upgraded_and_keeps_every_game(tmp_path: Path,
                                                              marked: bool) -> None:
    from lucie.formats import game_to_json

    db = tmp_path / "g.sqlite3"
    conn = sqlite3.connect(db)
    if marked:
        conn.execute("PRAGMA application_id = 1282761577")  # "Luci"
    conn.execute("PRAGMA user_version = 1")
    conn.executescript(_SCHEMA_1)
    rows = []
    for deal, status, n in ((3, "won", 0), (4, "playing", 3), (5, "resigned", 1)):
        game = Game(Rules(), deal)
        play(game, n)
        day = f"2026-01-0{deal}T10"
        rows.append(("ann", "classic", deal, game.seed, f"{day}:00:00Z", f"{day}:05:00Z",
                     None if status == "playing" else f"{day}:05:00Z", status,
                     game.score, len(game.moves), 12.5,
                     json.dumps(game_to_json(game))))
    conn.executemany("INSERT INTO games (player, variant, deal, seed, started, updated, "
                     "finished, status, score, moves, seconds, saved) "
                     "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    conn.commit()
    conn.close()
    with Store(db) as store:
        history = store.history("ann")
        assert sorted((r.deal, r.status, r.moves) for r in history) == [
            (3, "won", 0), (4, "playing", 3), (5, "resigned", 1)]
        assert all(store.picked_rating(r.id) is None for r in history)
        resumed = store.unfinished("ann")
        assert resumed is not None and len(resumed[1].moves) == 3
        new = store.start_game(Game(Rules(), 9), "ann", '{"difficulty": "easy"}')
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 11
    assert conn.execute("PRAGMA application_id").fetchone()[0] == 1282761577
    conn.close()
    with Store(db) as store:  # opened again: nothing more to upgrade
        assert store.picked_rating(new) == '{"difficulty": "easy"}'
        assert len(store.history("ann")) == 4
    assert not list(tmp_path.glob("g.sqlite3.backup-*"))


_COUNT_GAMES = """
import sys
from lucie.store import Store
store = Store(sys.argv[1])
print(len(store._read("SELECT id FROM games")))
store.close()
"""


def _games_seen_elsewhere(path: Path) -> int:
    """How many games another process finds in the file (it opens and
    closes it, as a second program would)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _COUNT_GAMES, str(path)], check=True,
                          capture_output=True, text=True, timeout=60)
    return int(done.stdout)


def test_a_second_store_on_a_file_keeps_the_first_ones_writes(tmp_path: Path) -> None:
    """Opening a file a second time in one process (a site's duel news does)
    once read its header by hand: closing that descriptor dropped the
    process's SQLite locks, the next process to close the file took itself
    for the last and deleted the WAL, and the first store's later writes
    went to that deleted file, seen by nobody."""
    path = tmp_path / "games.sqlite3"
    first = Store(path)
    try:
        first.start_game(Game(Rules(), 1), "ann")
        second = Store(path)
        assert len(second._read("SELECT id FROM games")) == 1
        second.close()
        assert _games_seen_elsewhere(path) == 1
        first.start_game(Game(Rules(), 2), "ann")
        assert _games_seen_elsewhere(path) == 2
    finally:
        first.close()
    assert _games_seen_elsewhere(path) == 2
