"""The session layer (issue 35, issue 36): a change is applied only once
recorded; a result is final; claims lapse with their process, whatever its
pid; one clock."""

from __future__ import annotations

import io
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from lucie.cli.plain import LineGame
from lucie.engine import Game, Move
from lucie.rules import Rules
from lucie.session import Clock, NotSavedError, Session, proved_lost
from lucie.store import Store

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def locked(db: Path) -> Iterator[None]:
    """Another program holds the database's write lock (a real second
    connection in an exclusive transaction)."""
    other = sqlite3.connect(db, isolation_level=None, timeout=0.1)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def short_wait(store: Store) -> Store:
    """Make the store give up on a lock after 0.1 s instead of 10 s."""
    store._backend.conn.execute("PRAGMA busy_timeout = 100")  # type: ignore[attr-defined]
    return store


def test_a_move_the_store_cannot_record_is_not_played(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    store = short_wait(Store(db))
    session = Session.new(store, "ann", Rules(), 1)
    session.play(Move.parse("f>i"))
    before = session.game.moves
    with locked(db), pytest.raises(NotSavedError, match="could not be saved"):
        session.play(Move.parse("b>e"))
    assert session.game.moves == before and session.game.can_undo
    with locked(db), pytest.raises(NotSavedError):
        session.undo()
    with locked(db), pytest.raises(NotSavedError):
        session.resign()
    assert session.game.moves == before and session.result is None
    assert store.record(session.game_id).moves == 1  # type: ignore[arg-type]
    # once the lock is gone the game goes on from where it was
    session.play(Move.parse("b>e"))
    assert [str(m) for m in store.game(session.game_id).moves] == ["f>i", "b>e"]  # type: ignore[arg-type]
    session.close()
    store.close()


def test_line_mode_refuses_a_move_it_cannot_save(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    store = short_wait(Store(db))
    session = Session.new(store, "ann", Rules(), 1)
    out = io.StringIO()
    with locked(db):
        LineGame(session, io.StringIO("f>i\nq\n"), out).run()
    text = out.getvalue()
    assert "! not played: the game could not be saved" in text and "Traceback" not in text
    assert session.game.moves == ()
    assert store.record(session.game_id).moves == 0  # type: ignore[arg-type]
    store.close()


def test_a_result_is_recorded_once_and_stays(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.sqlite3")
    session = Session.new(store, "ann", Rules(), 1)
    first = session.game_id
    session.play(Move.parse("f>i"))
    assert session.resign().ended == "resigned"
    outcome = session.undo()
    assert outcome.practice and session.practice and not session.recording
    session.play(Move.parse("b>e"))  # practice: not recorded
    assert store.record(first).status == "resigned"  # type: ignore[arg-type]
    assert store.record(first).moves == 1  # type: ignore[arg-type]
    assert session.restart().new_game
    assert session.game_id != first and session.game.moves == () and session.game.deal == 1
    assert store.record(first).status == "resigned"  # type: ignore[arg-type]
    assert store.stats("ann").games == 1
    session.close()
    store.close()


def test_leaving_counts_a_played_game_and_forgets_an_untouched_one(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.sqlite3")
    session = Session.new(store, "ann", Rules(), 1)
    untouched = session.game_id
    session.replace(Game(Rules(), 2))
    with pytest.raises(Exception, match="no game"):
        store.record(untouched)  # type: ignore[arg-type]
    played = session.game_id
    session.play(Move.parse(str(session.game.legal_moves[0])))
    session.replace(Game(Rules(), 3))
    assert store.record(played).status == "resigned"  # type: ignore[arg-type]
    session.close()
    # a fresh game no program holds any more (a page closed on a new deal)
    # is forgotten when the player starts another
    left = session.game_id
    other = Session.new(store, "ann", Rules(), 4)
    assert [r.id for r in store.history("ann") if r.status == "playing"] == [other.game_id]
    assert left != other.game_id
    other.close()
    store.close()


def test_the_clock_counts_only_while_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    clock = Clock(5.0, lease=90.0)
    now[0] += 50
    assert clock.seconds() == 5.0  # not shown yet
    clock.start()
    now[0] += 20.004
    assert clock.seconds() == 25.0
    clock.stop()
    now[0] += 1000
    assert clock.seconds() == 25.0
    clock.start()
    now[0] += 500  # the page said nothing for 500 s: only the lease counts
    assert clock.seconds() == 115.0
    clock.touch()  # it speaks again: the silent gap is not counted
    now[0] += 10
    assert clock.seconds() == 125.0


def test_proved_lost_needs_a_proof_and_nothing_left() -> None:
    game = Game(Rules(redeals=0), 1)
    assert proved_lost(game.position, False)
    assert not proved_lost(game.position, None)
    assert not proved_lost(game.position, False, budget_ran_out=True)
    assert not proved_lost(Game(Rules(), 1).position, False)  # redeals left


_KILLED = """
import os, sys, time
from lucie.rules import Rules
from lucie.session import Session, Store
from lucie.engine import Move
store = Store(sys.argv[1])
session = Session.open(store, "kim", Rules(), 1)
if not session.resumed:
    session.play(Move.parse("f>i"))
print(os.getpid(), session.game_id, flush=True)
time.sleep(600)
"""


def _in_new_pid_namespace(db: Path) -> tuple[int, int]:
    """Play a move in a process of a new pid namespace, kill it with
    SIGKILL; its pid (inside) and its game id."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        ["unshare", "--pid", "--fork", "--mount-proc", sys.executable, "-c", _KILLED, str(db)],
        stdout=subprocess.PIPE, env=env, start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode().split()
        assert len(line) == 2, "the game did not start"
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    pid, game_id = int(line[0]), int(line[1])
    # the namespace's pid 1 is torn down just after unshare itself ends:
    # its lock goes with it, at most a moment later
    with Store(db) as store:
        deadline = time.monotonic() + 30
        while store.is_claimed(game_id) and time.monotonic() < deadline:
            time.sleep(0.05)
    return pid, game_id


def _namespaces_allowed() -> str | None:
    if shutil.which("unshare") is None:
        return "unshare is not installed"
    try:
        done = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "true"],
                              capture_output=True, timeout=30)
    except OSError as exc:
        return f"unshare cannot run: {exc}"
    if done.returncode != 0:
        return "new pid namespaces are not allowed here: " + done.stderr.decode().strip()
    return None


@pytest.mark.slow
def test_a_game_killed_in_a_new_pid_namespace_resumes(tmp_path: Path) -> None:
    """The claim lapses with its process, whatever its pid: a game killed
    with SIGKILL as pid 1 of a new namespace (same pid every run) resumes,
    in another process and in this one."""
    why = _namespaces_allowed()
    if why is not None:
        pytest.skip(why)
    db = tmp_path / "g.sqlite3"
    pid, game_id = _in_new_pid_namespace(db)
    assert pid == 1
    with Store(db) as store:
        session = Session.open(store, "kim", Rules(), 1)
        assert session.resumed and session.game_id == game_id
        assert [str(m) for m in session.game.moves] == ["f>i"]
        session.close()
    # and a second time, with the very same pid inside the namespace
    pid2, game_id2 = _in_new_pid_namespace(db)
    assert pid2 == 1 and game_id2 == game_id
    with Store(db) as store:
        session = Session.open(store, "kim", Rules(), 1)
        assert session.resumed and session.game_id == game_id
        session.close()


def test_a_claimed_game_is_not_resumed_by_another_store(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite3"
    with Store(db) as one, Store(db) as two:
        playing = Session.open(one, "kim", Rules(), 1)
        playing.play(Move.parse("f>i"))
        other = Session.open(two, "kim", Rules(), 1)
        assert not other.resumed and other.game_id != playing.game_id
        playing.close()
        other.leave()  # left without a move: forgotten
        again = Session.open(two, "kim", Rules(), 1)
        assert again.resumed and again.game_id == playing.game_id
        again.close()


def test_a_picked_rating_is_kept_with_its_game(tmp_path: Path) -> None:
    """Issue 35: the rating a deal was picked by is recorded with its game,
    read back when the game is resumed (by another program too) and kept by
    "play this deal again"; other games have none."""
    from lucie.analysis.difficulty import TABLE, Rated
    from lucie.analysis.review import Value

    rated = Rated("hard", False, Value(0.1, "estimate", 0.07, 0.14, 384, False),
                  TABLE["classic"], True, True)
    db = tmp_path / "g.sqlite3"
    with Store(db) as store:
        session = Session.new(store, "ann", Rules(), 5, picked=rated)
        session.play(next(m for m in session.game.legal_moves if not m.is_redeal))
        game_id = session.game_id
        session.close()
    with Store(db) as store:
        resumed = Session.open(store, "ann", Rules())
        assert resumed.game_id == game_id and resumed.resumed
        assert resumed.picked == rated
        resumed.resign()
        resumed.again()
        assert resumed.game_id != game_id and resumed.picked == rated
        assert resumed.game_id is not None
        assert store.picked_rating(resumed.game_id) == store.picked_rating(game_id)
        resumed.replace(Game(Rules(), 6))
        assert resumed.picked is None
        resumed.close()
        assert Session.stored(store, game_id).picked == rated
