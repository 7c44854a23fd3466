"""Hostile surroundings (issue 36): a full disk, a locked database, foreign
files at every path option, pipes, devices and symbolic links, endless and
deep input, control characters in stored names.

The full disk is real: a 1 MiB tmpfs mounted for the test where the tests
may mount one (as root), filled to the last byte, and in every case a
subprocess under ``RLIMIT_FSIZE`` (a file-size limit: the same failure
SQLite meets on a full disk, as an I/O error).  The locked database is a
second real SQLite connection holding the write lock.  Every case checks
that nothing already saved is lost (the rows, read without lucie), that a
foreign file is byte for byte as it was and that nothing was renamed or
left beside it, and records its outcome for ``benchmarks/run.py hostile``
in the areas ``disk``, ``files`` and ``input``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from lucie.cli import main
from lucie.cli.plain import LineGame
from lucie.engine import Game
from lucie.formats import save_game
from lucie.rules import Rules
from lucie.session import Session
from lucie.store import Store, StoreBusy, StoreFull
from lucie.tui.settings import Settings

from .conftest import Recorder

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

#: The longest error a case may print (the input is quoted as an excerpt).
LONGEST_ERROR = 700
#: Seconds a case may take before it counts as a hang.
HANG = 30


def rows(db: Path) -> list[tuple[Any, ...]]:
    """Every game row, read without lucie (read-only)."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT * FROM games ORDER BY id").fetchall()
    finally:
        conn.close()


def listing(folder: Path) -> list[str]:
    """The names in a folder, lucie's SQLite side files left out."""
    return sorted(p.name for p in folder.iterdir()
                  if not p.name.endswith(("-wal", "-shm")))


def make_store(db: Path) -> None:
    """Two games of ann: one finished, one being played (two moves)."""
    with Store(db) as store:
        done = Game(Rules(), 3)
        done.resign()
        store.finish_game(store.start_game(done, "ann"), done, 10.0)
        game = Game(Rules(), 1)
        game.push_all(["f>i", "b>e"])
        store.record_move(store.start_game(game, "ann"), game, 5.0)


@contextlib.contextmanager
def cli() -> Iterator[dict[str, Any]]:
    """Run ``lucie.cli.main`` in process; the dict gets code, out, err, crashed."""
    out, err = io.StringIO(), io.StringIO()
    got: dict[str, Any] = {"crashed": None}
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            yield got
        except SystemExit as exc:
            got["code"] = exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:  # what must never happen
            got["crashed"] = f"{type(exc).__name__}: {exc}"
    got["out"], got["err"] = out.getvalue(), err.getvalue()


def run(args: list[str], stdin: str = "") -> dict[str, Any]:
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with cli() as got:
            got["code"] = main(args)
    finally:
        sys.stdin = old
    return got


def outcome_of(got: dict[str, Any]) -> str:
    if got["crashed"] or "Traceback" in got["out"] + got["err"]:
        return "traceback"
    if got.get("code") == 2 and "error:" in got["err"]:
        return "clean_error"
    if got.get("code") == 0:
        return "ok"
    return "traceback"


def subprocess_run(args: list[str], *, env: dict[str, str] | None = None,
                   stdin: Any = subprocess.DEVNULL,
                   preexec: Callable[[], None] | None = None) -> dict[str, Any]:
    """``python -m lucie ARGS``; ``hang`` set when it outlives :data:`HANG`."""
    try:
        proc = subprocess.run([sys.executable, "-m", "lucie", *args], stdin=stdin,
                              capture_output=True, timeout=HANG, env=env,
                              preexec_fn=preexec)
    except subprocess.TimeoutExpired:
        return {"code": None, "out": "", "err": "", "crashed": None, "hang": True}
    return {"code": proc.returncode, "out": proc.stdout.decode(errors="replace"),
            "err": proc.stderr.decode(errors="replace"), "crashed": None, "hang": False}


def judge(hostile: Recorder, area: str, case: str, got: dict[str, Any], *,
          expect: tuple[str, ...] = ("clean_error",), lost: bool = False,
          changed: bool = False) -> str:
    outcome = ("hang" if got.get("hang") else "data_lost" if lost
               else "foreign_changed" if changed else outcome_of(got))
    hostile.record(area, case, outcome)
    assert outcome in expect, (case, outcome, got.get("code"), got["crashed"],
                               got["err"][-600:])
    if outcome == "clean_error":
        message = got["err"].strip().splitlines()[-1]  # after argparse's usage, if any
        assert len(message) <= LONGEST_ERROR, (case, message[:300])
    return outcome


# ---------------------------------------------------------------------------
# A full disk
# ---------------------------------------------------------------------------

#: The size of the tmpfs (a disk this small is filled in a moment).
DISK = 1 << 20


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 1 MiB tmpfs, mounted for the test (skipped where the tests
    may not mount: the RLIMIT_FSIZE cases below run everywhere)."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK}", "tmpfs", str(where)],
                          capture_output=True, check=False)
    if done.returncode != 0 or not os.path.ismount(where):
        pytest.skip("cannot mount a tmpfs here (not root): the RLIMIT_FSIZE cases cover it")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def fill(disk: Path) -> Path:
    """Fill the small tmpfs *disk* to the last byte; returns the filler.
    Refuses anything but a small mount (never the real disk)."""
    st = os.statvfs(disk)
    assert os.path.ismount(disk) and st.f_blocks * st.f_frsize <= 4 * DISK
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for _ in range(4 * DISK // 4096):
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    fd = os.open(filler, os.O_WRONLY | os.O_APPEND)
    try:  # the last bytes of a page
        for _ in range(4096):
            os.write(fd, b"\0")
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


def no_backups(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if ".backup-" in p.name or ".new-" in p.name]


FULL_COMMANDS = [
    ["play", "--plain", "--player", "ann"],
    ["play", "--plain", "--player", "bob", "--deal", "5"],
    ["stats", "--player", "ann"],
    ["history"],
    ["export"],
]


@pytest.mark.parametrize("args", FULL_COMMANDS, ids=[a[0] + str(i) for i, a in
                                                     enumerate(FULL_COMMANDS)])
def test_commands_on_a_full_disk(small_disk: Path, hostile: Recorder, args: list[str]) -> None:
    """Every command on a healthy database on a full disk: a clean message
    or its work, never "damaged", no backup file, nothing lost, and the
    game goes on once there is room."""
    db = small_disk / "games.sqlite3"
    make_store(db)
    before = rows(db)
    filler = fill(small_disk)
    got = run([*args, "--db", str(db)], stdin="c>d\nq\n")
    damaged = "damaged" in got["err"] + got["out"]
    filler.unlink()
    judge(hostile, "disk", f"full tmpfs: {' '.join(args)}", got,
          expect=("clean_error", "ok"), lost=rows(db)[:2] != before)
    assert not damaged and no_backups(small_disk)
    if outcome_of(got) == "clean_error":
        assert "disk is full" in got["err"] and "Free some space" in got["err"]
    again = run(["play", "--plain", "--player", "ann", "--db", str(db)], stdin="u\nq\n")
    assert again["code"] == 0 and "Welcome back" in again["out"]
    assert len(Store(db).game(2).moves) == 1


@pytest.mark.parametrize("room", [0, 48 * 1024])
def test_a_damaged_database_on_a_full_disk(small_disk: Path, hostile: Recorder,
                                           room: int) -> None:
    """A damaged lucie database is copied aside before it is refused; on a
    full disk (with no room, or room to open it but not to copy it) the
    copy cannot be made whole: no partial copy is left and none is claimed,
    the file stays as it was, and it is not called healthy either."""
    db = small_disk / "games.sqlite3"
    make_store(db)
    conn = sqlite3.connect(db)  # enough rows for a copy not to fit in the room left
    conn.executemany(
        "INSERT INTO games (player_id, variant, deal, seed, started, updated, status, score, "
        "moves, seconds, saved, picked_rating) SELECT player_id, variant, deal, seed, "
        "started, updated, status, score, moves, seconds, saved, ? FROM games WHERE id = 1",
        [(f"p{i}" + "x" * 2000,) for i in range(40)])
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    data = db.read_bytes()
    filler = fill(small_disk)
    os.truncate(filler, max(0, filler.stat().st_size - room))
    got = run(["history", "--db", str(db)])
    filler.unlink()
    judge(hostile, "disk", f"full tmpfs: a damaged database, {room} bytes free", got,
          changed=db.read_bytes() != data)
    assert no_backups(small_disk) and "copy was kept" not in got["err"]
    assert "not damaged" not in got["err"]
    if room:
        assert "too full to keep a copy" in got["err"], got["err"]


def test_the_store_api_on_a_full_disk(small_disk: Path, hostile: Recorder) -> None:
    db = small_disk / "games.sqlite3"
    make_store(db)
    store = Store(db)
    game = store.game(2)
    before = rows(db)
    filler = fill(small_disk)
    for name, write in [
        ("start_game", lambda: store.start_game(Game(Rules(), 9), "ann")),
        ("record_move", lambda: store.record_move(2, game, 9.0)),
        ("finish_game", lambda: store.finish_game(2, game, 9.0, "resigned")),
    ]:  # (a claim is a lock on <db>.claims, which writes nothing: lucie.session)
        for _ in range(3):  # a full disk stays full: the same clean error each time
            with pytest.raises(StoreFull, match="disk is full"):
                write()
        hostile.record("disk", f"full tmpfs: Store.{name}", "clean_error")
    filler.unlink()
    assert rows(db) == before and no_backups(small_disk)
    game.push(next(iter(game.legal_moves)))
    store.record_move(2, game, 11.0)  # room again: the game goes on
    assert store.game(2).moves == game.moves
    store.close()


class FillingInput(io.StringIO):
    """Line mode's standard input, that fills the disk before the line
    numbered *fill_at* is read and frees it before *free_at*."""

    def __init__(self, text: str, disk: Path, fill_at: int, free_at: int) -> None:
        super().__init__(text)
        self.disk, self.fill_at, self.free_at, self.n = disk, fill_at, free_at, 0
        self.filler: Path | None = None

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.n += 1
        if self.n == self.fill_at:
            self.filler = fill(self.disk)
        if self.n == self.free_at and self.filler is not None:
            self.filler.unlink()
        return super().readline(-1 if size is None else size)


def test_line_mode_when_the_disk_fills_during_the_game(small_disk: Path,
                                                       hostile: Recorder) -> None:
    db = small_disk / "games.sqlite3"
    store = Store(db)
    session = Session.open(store, "cat", Rules(), 1)
    game_id = session.game_id
    assert game_id is not None
    out = io.StringIO()
    inp = FillingInput("f>i\nb>e\nu\nq\n", small_disk, fill_at=2, free_at=3)
    line_game = LineGame(session, inp, out)
    with cli() as got:
        got["code"] = line_game.run()
    text = out.getvalue()
    store.close()
    stored = Store(db).game(game_id).moves
    outcome = "traceback" if got["crashed"] else (
        "data_lost" if stored != line_game.game.moves else "clean_error")
    hostile.record("disk", "full tmpfs: line mode, mid-game", outcome)
    assert outcome == "clean_error", (got, text[-800:])
    assert "disk is full" in text and no_backups(small_disk)


def test_the_web_on_a_full_disk(small_disk: Path, hostile: Recorder) -> None:
    """A move that cannot be recorded: 503 with Retry-After, never a 500;
    once there is room the game goes on and the store holds what the page
    shows."""
    from lucie.web.app import create_app

    db = small_disk / "games.sqlite3"
    app = create_app(db)
    client = TestClient(app, raise_server_exceptions=False)
    try:
        r = client.post("/api/games", json={"variant": "classic", "deal": 1})
        gid = r.json()["id"]
        filler = fill(small_disk)
        r = client.post(f"/api/games/{gid}/move", json={"move": "f>i"})
        ok = r.status_code == 503 and r.headers.get("retry-after", "").isdigit() \
            and "disk is full" in r.json()["error"]
        filler.unlink()
        r2 = client.post(f"/api/games/{gid}/move", json={"move": "b>e"})
        shown = client.get(f"/api/games/{gid}").json()["moves"]
    finally:
        client.close()
        app.state.solver.close()
    stored = [str(m) for m in Store(db).game(1).moves]
    outcome = "server_error" if r.status_code >= 500 and r.status_code != 503 else (
        "data_lost" if [m if isinstance(m, str) else m.get("move", m) for m in shown]
        != stored and r2.status_code == 200 else "clean_error" if ok else "server_error")
    hostile.record("disk", "full tmpfs: web move", outcome)
    assert ok and r2.status_code == 200, (r.status_code, r.text[:300], r2.text[:300])
    assert outcome == "clean_error" and no_backups(small_disk)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_terminal_game_on_a_full_disk(small_disk: Path, hostile: Recorder) -> None:
    """The terminal game says the move was not saved (no traceback); once
    there is room the next save records what the table shows."""
    from lucie.tui.app import LucieApp

    db = small_disk / "games.sqlite3"
    store = Store(db)
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        filler = fill(small_disk)
        await pilot.press("f", "i")
        await pilot.pause()
        message, kind = app.message, app.message_kind
        filler.unlink()
        await pilot.press("b", "e")
        await pilot.pause()
        shown, game_id = list(app.game.moves), app.game_id
    store.close()
    stored = list(Store(db).game(game_id).moves)
    outcome = "data_lost" if stored != shown else (  # (a long path is cut in the middle)
        "clean_error" if kind == "error" and "Free some space" in message else "traceback")
    hostile.record("disk", "full tmpfs: terminal game move", outcome)
    assert outcome == "clean_error", (kind, message, stored, shown)
    assert no_backups(small_disk)


def _file_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.parametrize("extra", [0, 12_000, 40_000])
def test_a_file_size_limit(tmp_path: Path, hostile: Recorder, extra: int) -> None:
    """``RLIMIT_FSIZE`` in a subprocess: the files may grow no more, as on a
    full disk, at three points (opening, the first writes, mid-game)."""
    db = tmp_path / "games.sqlite3"
    make_store(db)
    before = rows(db)
    moves = "".join(f"{m}\nu\n" for m in ["f>i", "b>e"] * 20) + "q\n"
    proc = subprocess.run([sys.executable, "-m", "lucie", "play", "--plain", "--player", "ann",
                           "--db", str(db)], input=moves.encode(), capture_output=True,
                          timeout=HANG, preexec_fn=_file_limit(32768 + extra))
    got = {"code": proc.returncode, "out": proc.stdout.decode(errors="replace"),
           "err": proc.stderr.decode(errors="replace"), "crashed": None}
    text = got["out"] + got["err"]
    judge(hostile, "disk", f"RLIMIT_FSIZE {32768 + extra}: play --plain", got,
          expect=("clean_error", "ok"), lost=rows(db)[:1] != before[:1])
    assert "disk is full" in text and "damaged" not in text, text[-600:]
    assert no_backups(tmp_path)
    assert run(["history", "--db", str(db)])["code"] == 0


# ---------------------------------------------------------------------------
# A database locked by another program
# ---------------------------------------------------------------------------


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A store whose write lock another real connection holds (the busy
    timeout cut to 0.3 s so the test does not wait 10 s a write)."""
    monkeypatch.setattr("lucie.store.sqlite.BUSY_TIMEOUT_MS", 300)
    db = tmp_path / "games.sqlite3"
    make_store(db)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE games SET updated = updated WHERE id = 1")
    try:
        yield db
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_the_store_api_on_a_locked_database(locked: Path, hostile: Recorder) -> None:
    before = rows(locked)
    store = Store(locked)  # reading is not blocked (WAL)
    game = store.game(2)
    assert store.stats("ann").games == 1
    for name, write in [
        ("start_game", lambda: store.start_game(Game(Rules(), 9), "ann")),
        ("record_move", lambda: store.record_move(2, game, 9.0)),
        ("finish_game", lambda: store.finish_game(2, game, 9.0, "resigned")),
    ]:
        with pytest.raises(StoreBusy, match="locked by another program"):
            write()
        hostile.record("disk", f"locked: Store.{name}", "clean_error")
    assert rows(locked) == before
    store.close()


@pytest.mark.parametrize("args", [["play", "--plain", "--player", "bob", "--deal", "4"],
                                  ["import", "EXPORT"]])
def test_commands_on_a_locked_database(locked: Path, hostile: Recorder, tmp_path: Path,
                                       args: list[str]) -> None:
    export = tmp_path / "export.json"
    export.write_text(json.dumps({"format": "lucie-games", "version": 1, "games": [
        {"player": "x", "started": "2026-01-01T00:00:00+00:00",
         "updated": "2026-01-01T00:00:00+00:00", "finished": None, "status": "playing",
         "seconds": 0.0, "game": json.loads(save_game(Game(Rules(), 2)))}]}))
    before = rows(locked)
    got = run([a.replace("EXPORT", str(export)) for a in args] + ["--db", str(locked)],
              stdin="q\n")
    judge(hostile, "disk", f"locked: {args[0]}", got, lost=rows(locked) != before)
    assert "locked by another program" in got["err"]


def test_the_web_on_a_locked_database(tmp_path: Path, hostile: Recorder,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from lucie.web.app import create_app

    monkeypatch.setattr("lucie.store.sqlite.BUSY_TIMEOUT_MS", 300)
    db = tmp_path / "games.sqlite3"
    make_store(db)
    app = create_app(db)
    client = TestClient(app, raise_server_exceptions=False)
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE games SET updated = updated WHERE id = 1")
        r = client.post("/api/games", json={"variant": "classic", "deal": 6})
        other.execute("ROLLBACK")
    finally:
        other.close()
        client.close()
        app.state.solver.close()
    ok = r.status_code == 503 and r.headers.get("retry-after", "").isdigit()
    hostile.record("disk", "locked: web new game", "clean_error" if ok else "server_error")
    assert ok, (r.status_code, r.text[:300])


# ---------------------------------------------------------------------------
# Foreign files at every path option
# ---------------------------------------------------------------------------

FOREIGN: dict[str, Callable[[Path], None]] = {
    "text file": lambda p: p.write_text("my notes\n" * 50),
    "package.json": lambda p: p.write_text('{"name": "site", "version": "1.0.0"}\n'),
    "binary file": lambda p: p.write_bytes(bytes(range(256)) * 8),
    "another program's SQLite": lambda p: _sqlite(p, "CREATE TABLE t (a)",
                                                  "INSERT INTO t VALUES (1)"),
}


def _sqlite(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    for s in statements:
        conn.execute(s)
    conn.commit()
    conn.close()


def _option_args(option: str, path: Path, db: Path) -> tuple[list[str], dict[str, str]]:
    env: dict[str, str] = {}
    args = {
        "--db": ["history", "--db", str(path)],
        "--layout": ["replay", "--layout", str(path)],
        "--load": ["replay", "--load", str(path)],
        "--cache": ["odds", "--deal", "1", "--samples", "1", "--cache", str(path)],
        "$LUCIE_CACHE": ["odds", "--deal", "1", "--samples", "1"],
        "--output": ["export", "--db", str(db), "--output", str(path)],
        "--save": ["replay", "--deal", "1", "--save", str(path), "f>i"],
        "import": ["import", str(path), "--db", str(db)],
    }[option]
    if option == "$LUCIE_CACHE":
        env["LUCIE_CACHE"] = str(path)
    return args, env


OPTIONS = ["--db", "--layout", "--load", "--cache", "$LUCIE_CACHE", "--output", "--save",
           "import"]


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("kind", [*FOREIGN, "the games database"])
def test_a_foreign_file_at_a_path_option(tmp_path: Path, hostile: Recorder,
                                         monkeypatch: pytest.MonkeyPatch,
                                         option: str, kind: str) -> None:
    db = tmp_path / "games.sqlite3"
    make_store(db)
    monkeypatch.setenv("LUCIE_DB", str(db))
    if kind == "the games database":
        if option == "--db":
            pytest.skip("the games database is the right file for --db")
        target = db
    else:
        target = tmp_path / "theirs"
        FOREIGN[kind](target)
    data = target.read_bytes()
    before_rows = rows(db)
    names = listing(tmp_path)
    args, env = _option_args(option, target, db)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    got = run(args)
    changed = (target.read_bytes() != data if target != db else False) \
        or listing(tmp_path) != names
    judge(hostile, "files", f"{kind} as {option}", got, lost=rows(db) != before_rows,
          changed=changed)


@pytest.mark.parametrize("kind", [*FOREIGN, "the games database"])
def test_a_foreign_settings_file_is_never_written(tmp_path: Path, hostile: Recorder,
                                                  kind: str) -> None:
    db = tmp_path / "games.sqlite3"
    make_store(db)
    target = db if kind == "the games database" else tmp_path / "settings.json"
    if target != db:
        FOREIGN[kind](target)
    data = target.read_bytes()
    settings = Settings(target)
    message = settings.set_language("de")
    changed = target.read_bytes() != data or ".settings-" in "".join(listing(tmp_path))
    outcome = "foreign_changed" if changed else (
        "clean_error" if message and "not lucie's settings file" in message else "traceback")
    hostile.record("files", f"{kind} as the settings file", outcome)
    assert outcome == "clean_error", message


def test_lucies_own_files_are_written_again(tmp_path: Path, hostile: Recorder) -> None:
    """The refusals above are not refusals of everything: an earlier export,
    saved game or settings file of lucie's, or an empty file, is replaced."""
    db = tmp_path / "games.sqlite3"
    make_store(db)
    out, save, empty = tmp_path / "e.json", tmp_path / "s.json", tmp_path / "empty"
    empty.touch()
    for args in (["export", "--db", str(db), "-o", str(out)],
                 ["export", "--db", str(db), "-o", str(out), "-f", "csv"],
                 ["export", "--db", str(db), "-o", str(out)],
                 ["export", "--db", str(db), "-o", str(empty)],
                 ["replay", "--deal", "1", "--save", str(save), "f>i"],
                 ["replay", "--deal", "1", "--save", str(save), "f>i", "b>e"]):
        got = run(args)
        judge(hostile, "files", f"lucie's own file: {' '.join(args[:1])}", got, expect=("ok",))
    assert json.loads(save.read_text())["moves"] == ["f>i", "b>e"]
    settings = tmp_path / "settings.json"
    settings.write_text('{"language": "fr"}\n')  # an older lucie's, without the mark
    assert Settings(settings).set_language("nl") is None
    assert json.loads(settings.read_text()) == {"format": "lucie-settings", "language": "nl"}


# ---------------------------------------------------------------------------
# Pipes, devices, symbolic-link loops, dangling links
# ---------------------------------------------------------------------------

def _special(kind: str, folder: Path) -> Path:
    if kind == "fifo":
        path = folder / "pipe"
        os.mkfifo(path)
        return path
    if kind == "device":
        return Path("/dev/zero")
    if kind == "symlink loop":
        a, b = folder / "loop-a", folder / "loop-b"
        a.symlink_to(b)
        b.symlink_to(a)
        return a
    path = folder / "dangling"
    path.symlink_to(folder / "nowhere" if kind == "dangling symlink" else folder)
    return path


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("kind", ["fifo", "device", "symlink loop", "dangling symlink"])
def test_special_files_at_a_path_option(tmp_path: Path, hostile: Recorder, option: str,
                                        kind: str) -> None:
    """In a subprocess, so that a hang is a hang and not a stuck test run."""
    db = tmp_path / "games.sqlite3"
    make_store(db)
    path = _special(kind, tmp_path)
    before_rows = rows(db)
    names = listing(tmp_path)
    args, env = _option_args(option, path, db)
    got = subprocess_run(args, env=os.environ | {"LUCIE_DB": str(db), "LUCIE_CACHE": "off"}
                         | env)
    changed = listing(tmp_path) != names or (kind == "fifo" and not path.is_fifo())
    judge(hostile, "files", f"{kind} as {option}", got, lost=rows(db) != before_rows,
          changed=changed)


@pytest.mark.parametrize("kind", ["fifo", "device", "symlink loop", "dangling symlink"])
def test_special_files_as_the_settings_file(tmp_path: Path, hostile: Recorder,
                                            kind: str) -> None:
    path = _special(kind, tmp_path)
    names = listing(tmp_path)
    start = time.monotonic()
    settings = Settings(path)
    message = settings.set_language("de")
    hung = time.monotonic() - start > HANG
    outcome = "hang" if hung else "foreign_changed" if listing(tmp_path) != names else (
        "clean_error" if settings.problem and message else "traceback")
    hostile.record("files", f"{kind} as the settings file", outcome)
    assert outcome == "clean_error", (settings.problem, message)


# ---------------------------------------------------------------------------
# Endless and deep input
# ---------------------------------------------------------------------------


def test_line_mode_on_dev_zero(tmp_path: Path, hostile: Recorder) -> None:
    """``cat /dev/zero | lucie play --plain``: a clear error at once, not
    gigabytes of memory."""
    db = tmp_path / "games.sqlite3"
    make_store(db)
    before = rows(db)
    with open("/dev/zero", "rb") as zero:
        got = subprocess_run(["play", "--plain", "--player", "ann", "--db", str(db)],
                             stdin=zero, preexec=lambda: resource.setrlimit(
                                 resource.RLIMIT_AS, (1 << 30, 1 << 30)))
    judge(hostile, "input", "cat /dev/zero | lucie play --plain", got,
          lost=rows(db)[:1] != before[:1])
    assert "at most 4096 characters" in got["err"]


DEEP = "[" * 200_000 + "]" * 200_000


@pytest.mark.parametrize("case, make", [
    ("deep JSON settings", lambda p: p.write_text(DEEP)),
    ("huge settings", lambda p: p.write_text('{"language": "' + "x" * 200_000 + '"}')),
    ("deep JSON import", lambda p: p.write_text(DEEP)),
    ("deep JSON --load", lambda p: p.write_text('{"format": ' + DEEP + "}")),
    ("huge --layout", lambda p: p.write_text("KH 2S\n" * 1_000_000)),
    ("huge token --layout", lambda p: p.write_text("KH " + "Q" * 300_000)),
    ("huge variant --load", lambda p: p.write_text(json.dumps(
        {"format": "lucie-saved-game", "version": 1, "variant": "x" * 300_000}))),
])
def test_deep_and_huge_files(tmp_path: Path, hostile: Recorder, case: str,
                             make: Callable[[Path], None]) -> None:
    db = tmp_path / "games.sqlite3"
    make_store(db)
    before = rows(db)
    path = tmp_path / "input.json"
    make(path)
    data = path.read_bytes()
    if "settings" in case:
        settings = Settings(path)
        message = settings.set_language("de")
        ok = settings.problem is not None and message is not None \
            and len(settings.problem) <= LONGEST_ERROR
        outcome = "foreign_changed" if path.read_bytes() != data else (
            "clean_error" if ok else "traceback")
        hostile.record("input", case, outcome)
        assert outcome == "clean_error", settings.problem
        return
    args = (["import", str(path), "--db", str(db)] if "import" in case else
            ["replay", "--load" if "--load" in case else "--layout", str(path)])
    got = run(args)
    judge(hostile, "input", case, got, lost=rows(db) != before,
          changed=path.read_bytes() != data)


@pytest.mark.parametrize("args", [
    ["replay", "--deal", "1", "a>" + "9" * 300_000],
    ["show", "--variant", "classic,merci=" + "x" * 300_000],
    ["--lang", "x" * 300_000, "variants"],
    ["play", "--plain", "--deal", "1"],
])
def test_messages_quote_a_short_excerpt(tmp_path: Path, hostile: Recorder,
                                        args: list[str]) -> None:
    stdin = ("z" * 300_000 + "\n" + "zz" * 2000 + "\nq\n") if "play" in args else ""
    got = run([*args, "--db", str(tmp_path / "g.db")] if "play" in args else args, stdin)
    expect = ("ok",) if "play" in args else ("clean_error",)
    judge(hostile, "input", f"a long input: {' '.join(a[:20] for a in args)}", got,
          expect=expect)
    assert len(got["err"].strip().splitlines()[-1] if got["err"].strip() else "") \
        <= LONGEST_ERROR
    assert max((len(line) for line in got["out"].splitlines()), default=0) <= LONGEST_ERROR


# ---------------------------------------------------------------------------
# Control characters in names and texts from the store
# ---------------------------------------------------------------------------

EVIL = "eve\x1b[2J\x1b]0;pwned\x07\u202e\r"


def test_control_characters_are_escaped(tmp_path: Path, hostile: Recorder) -> None:
    db = tmp_path / "games.sqlite3"
    with Store(db) as store:
        game = Game(Rules(), 3)
        game.resign()
        store.finish_game(store.start_game(game, EVIL), game, 3.0)
    cases = {
        "history": run(["history", "--db", str(db)]),
        "stats": run(["stats", "--db", str(db), "--player", EVIL]),
        "line mode": run(["play", "--plain", "--db", str(db), "--player", EVIL, "--deal", "2"],
                         stdin="resign\nq\n"),
    }
    for name, got in cases.items():
        raw = [c for c in "\x1b\x07\u202e\r" if c in got["out"] + got["err"]]
        assert not raw, (name, raw, got["out"][-400:])
        outcome = outcome_of(got)
        hostile.record("input", f"control characters in a name: {name}", outcome)
        assert outcome == "ok", (name, got["out"][-400:])
        assert "\\x1b" in got["out"], name
