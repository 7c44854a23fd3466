"""Line mode (``lucie play --plain``) is a real game: it keeps its games in
the store as the terminal game does (issue 25.1), and ``--deal N`` without a
variant plays classic deal N (issue 27)."""

from __future__ import annotations

import io
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lucie.cli import main
from lucie.engine import Game, Move, Position
from lucie.rules import VARIANTS, Rules
from lucie.solver import solve_deal
from lucie.store import Store

#: Moves legal one after the other in classic deal 1 (checked by the engine
#: in ``test_moves_are_legal``).
DEAL1_MOVES = ["f>i", "b>e", "m>p"]


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         db: Path, script: str, *args: str) -> tuple[int, str, str]:
    """Run ``lucie play --plain --db DB ARGS`` in-process with ``script`` as input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    try:
        code = main(["play", "--plain", "--db", str(db), *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def unfinished_moves(db: Path, player: str, rules: Rules | None = None) -> list[str] | None:
    with Store(db) as store:
        found = store.unfinished(player, rules)
    return None if found is None else [str(m) for m in found[1].moves]


def test_moves_are_legal() -> None:
    Game(Rules(), 1).push_all(DEAL1_MOVES)


def test_the_database_is_created_and_every_move_saved(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    code, out, _ = play(monkeypatch, capsys, db, "f>i\nb>e\nzz\nq\n", "--deal", "1",
                        "--player", "ann")
    assert code == 0 and "! 'zz' is not a move" in out
    assert db.exists()
    assert unfinished_moves(db, "ann") == ["f>i", "b>e"]
    assert unfinished_moves(db, "bob") is None  # --player is honoured


def test_an_unfinished_game_resumes(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str],
                                    tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    play(monkeypatch, capsys, db, "f>i\nb>e\n", "--deal", "1", "--player", "ann")  # EOF
    code, out, _ = play(monkeypatch, capsys, db, "m>p\nu\nu\nq\n", "--player", "ann")
    assert code == 0 and "Welcome back" in out and "deal 1" in out
    game = Game(Rules(), 1)
    game.push("f>i")
    said_be = game.position.describe(Move.parse("b>e"))
    game.push("b>e")
    said_mp = game.position.describe(Move.parse("m>p"))
    assert f"undone: {said_mp}" in out and f"undone: {said_be}" in out
    assert said_mp.startswith("8♣ from fan m")
    assert unfinished_moves(db, "ann") == ["f>i"]
    # another player starts a game of their own
    code, out, _ = play(monkeypatch, capsys, db, "q\n", "--player", "bob")
    assert "Welcome back" not in out
    assert unfinished_moves(db, "ann") == ["f>i"]


def test_deal_without_variant_is_classic(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    shamrocks = VARIANTS["shamrocks"].rules
    play(monkeypatch, capsys, db, "m\n", "--variant", "shamrocks", "--deal", "7",
         "--player", "ann")
    first = Game(shamrocks, 7).legal_moves[0]
    play(monkeypatch, capsys, db, f"{first}\nq\n", "--player", "ann")  # resumes it
    assert unfinished_moves(db, "ann", shamrocks) == [str(first)]
    code, out, _ = play(monkeypatch, capsys, db, "q\n", "--deal", "7", "--player", "ann")
    assert code == 0 and "La Belle Lucie, deal 7" in out and "Welcome back" not in out
    assert unfinished_moves(db, "ann", shamrocks) == [str(first)]  # left alone


def test_an_older_unfinished_game_of_the_deal_resumes(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    play(monkeypatch, capsys, db, "f>i\nq\n", "--deal", "1", "--player", "ann")
    play(monkeypatch, capsys, db, "q\n", "--deal", "3", "--player", "ann")
    code, out, _ = play(monkeypatch, capsys, db, "q\n", "--deal", "1", "--player", "ann")
    assert code == 0 and "Welcome back" in out and "La Belle Lucie, deal 1" in out


def test_finished_games_count_in_stats(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    deal = next(n for n in range(1, 100)
                if solve_deal(Position.deal(Rules(), n), max_seconds=10).status == "solved")
    line = [str(m) for m in solve_deal(Position.deal(Rules(), deal)).moves]
    code, out, _ = play(monkeypatch, capsys, db, "\n".join(line) + "\n",
                        "--deal", str(deal), "--player", "ann")
    assert code == 0 and "You won!" in out and "1 game of La Belle Lucie finished" in out
    with Store(db) as store:
        stats = store.stats("ann", Rules())
        assert (stats.games, stats.wins) == (1, 1)
    # the won game is over: it does not resume; a resigned game counts as lost
    code, out, _ = play(monkeypatch, capsys, db, "f>i\nresign\nq\n", "--player", "ann")
    assert "Welcome back" not in out and "You resigned" in out
    code, out, _ = run_stats(capsys, db, "ann")
    assert code == 0 and "games 2, won 1" in out
    assert unfinished_moves(db, "ann") is None


def _won_line(deal: int = 13) -> list[str]:
    result = solve_deal(Position.deal(Rules(), deal))
    assert result.status == "solved"
    return [str(m) for m in result.moves]


def _results(db: Path, player: str = "ann") -> list[str]:
    with Store(db) as store:
        return [r.status for r in reversed(store.history(player))]


def _lost_line(deal: int) -> list[str]:
    """Moves of classic ``deal`` that leave no move: the first legal move
    each time (checked to end lost)."""
    game = Game(Rules(), deal)
    moves: list[str] = []
    while not game.outcome.finished:
        move = next(m for m in game.legal_moves if not m.is_redeal) \
            if any(not m.is_redeal for m in game.legal_moves) else game.legal_moves[0]
        game.play(move, autoplay=False)
        moves.append(str(move))
    return moves if game.outcome.status == "lost" else []


@pytest.mark.parametrize("after", ["u", "restart", "again", "new"])
@pytest.mark.parametrize("ending", ["won", "lost", "resigned"])
def test_a_recorded_result_survives_undo_restart_again_and_new(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path, ending: str, after: str) -> None:
    """Once won, lost or resigned, a game's result stays recorded whatever
    the player does next (issue 35): undo goes on as practice, restart and
    again open a new game of the deal, new another deal."""
    db = tmp_path / "a.db"
    if ending == "won":
        deal, line = 13, _won_line(13)
    elif ending == "lost":
        deal, line = next((d, m) for d in range(1, 60) if (m := _lost_line(d)))
    else:
        deal, line = 1, [DEAL1_MOVES[0], "resign"]
    script = [*line, after, "f>i" if after != "u" else "y", "q"]
    code, out, _ = play(monkeypatch, capsys, db, "\n".join(script) + "\n",
                        "--deal", str(deal), "--player", "ann")
    assert code == 0
    results = _results(db)
    assert results[0] == ending, out
    with Store(db) as store:
        stats = store.stats("ann", Rules())
    assert stats.games == 1 and stats.wins == (ending == "won")
    if after == "u":
        assert "Practice: the result of this game stays recorded" in out
        assert results == [ending]
    else:
        # a new game (of the same deal, but for "new"), not the recorded one
        assert "New game" in out and len(results) == 2 and results[1] == "playing"


def test_leaving_a_game_with_moves_asks_first(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    script = "f>i\nnew\nn\nnew 5\ny\nnew\nq\n"
    code, out, _ = play(monkeypatch, capsys, db, script, "--deal", "1", "--player", "ann")
    assert code == 0 and out.count("Leave this game?") == 2 and "You stay in this game." in out
    # deal 1 counted as the player chose (lost); deal 5, left without a move,
    # is forgotten; the new deal is the one being played
    with Store(db) as store:
        rows = list(reversed(store.history("ann")))
    assert [(r.deal, r.status) for r in rows[:1]] == [(1, "resigned")]
    assert [r.status for r in rows[1:]] == ["playing"] and rows[1].deal != 5


def run_stats(capsys: pytest.CaptureFixture[str], db: Path, player: str) -> tuple[int, str, str]:
    code = main(["stats", "--db", str(db), "--player", player])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind", ["directory", "under_a_file", "not_a_database"])
def test_an_unusable_database_exits_2(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path, kind: str) -> None:
    if kind == "directory":
        db = tmp_path / "dir"
        db.mkdir()
    elif kind == "under_a_file":
        (tmp_path / "file").write_text("x")
        db = tmp_path / "file" / "a.db"
    else:
        db = tmp_path / "notes.txt"
        db.write_text("my notes\n" * 100)
    before = sorted(p.name for p in tmp_path.iterdir())
    content = db.read_bytes() if db.is_file() else None
    code, out, err = play(monkeypatch, capsys, db, "f>i\nq\n", "--deal", "1")
    assert code == 2 and err.startswith("lucie: error: ") and "Traceback" not in err
    assert str(db if kind != "under_a_file" else db.parent) in err
    assert "move>" not in out
    if content is not None:
        assert db.read_bytes() == content
    after = sorted(p.name for p in tmp_path.iterdir())
    assert [n for n in after if n not in before and ".backup-" not in n] == []


def _read_until_prompt(proc: subprocess.Popen[bytes], timeout: float = 60) -> str:
    assert proc.stdout is not None
    buf = b""
    deadline = time.monotonic() + timeout
    while not buf.endswith(b"move> "):
        left = deadline - time.monotonic()
        ready, _, _ = select.select([proc.stdout], [], [], max(left, 0))
        if not ready:
            raise AssertionError(f"no prompt within {timeout} s: {buf[-300:]!r}")
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            raise AssertionError(f"line mode stopped: {buf[-300:]!r}")
        buf += chunk
    return buf.decode()


@pytest.mark.slow
def test_resume_after_sigkill(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    cmd = [sys.executable, "-m", "lucie", "play", "--plain", "--db", str(db),
           "--player", "kim"]
    proc = subprocess.Popen([*cmd, "--deal", "1"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None
    try:
        _read_until_prompt(proc)
        for move in DEAL1_MOVES:
            proc.stdin.write(f"{move}\n".encode())
            proc.stdin.flush()
            _read_until_prompt(proc)
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    assert unfinished_moves(db, "kim") == DEAL1_MOVES
    again = subprocess.run(cmd, input=b"m\nq\n", capture_output=True, timeout=60)
    out = again.stdout.decode()
    assert again.returncode == 0 and "Welcome back" in out and "(3 moves played)" in out
    expected = Game(Rules(), 1)
    expected.push_all(DEAL1_MOVES)
    # each legal move on a line: the notation to type, then the move in words
    for move in expected.legal_moves:
        assert f"{move!s:>6}  {expected.position.describe(move)}\n" in out


def test_plain_lucie_without_a_terminal_is_line_mode(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """``lucie`` with its input from a pipe plays line mode, in ``$LUCIE_DB``."""
    db = tmp_path / "env.sqlite3"
    monkeypatch.setenv("LUCIE_DB", str(db))
    monkeypatch.setenv("LUCIE_PLAYER", "cy")
    monkeypatch.setattr(sys, "stdin", io.StringIO("f>i\nq\n"))
    assert main(["--deal", "1"]) == 0
    assert "move> " in capsys.readouterr().out
    assert unfinished_moves(db, "cy") == ["f>i"]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_terminal_game_gets_classic_for_a_bare_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``lucie play --deal 7`` hands the terminal game classic rules, so its
    resume logic never picks an unfinished game of another variant."""
    pytest.importorskip("textual")
    import lucie.tui

    seen: list[object] = []
    monkeypatch.setattr(lucie.tui, "run", lambda args: seen.append(args.variant) or 0)
    monkeypatch.setattr(sys, "stdin", _Terminal())
    monkeypatch.setattr(sys, "stdout", _Terminal())
    assert main(["play", "--deal", "7"]) == 0
    assert main(["play", "--deal", "7", "--variant", "shamrocks"]) == 0
    assert main(["play"]) == 0
    assert seen == [Rules(), VARIANTS["shamrocks"].rules, None]


@pytest.mark.parametrize(("lang", "yes", "no"), [
    ("en", ["y", "yes", "Y"], ["n", "no", "", "ja"]),
    ("fr", ["o", "oui", "y", "yes"], ["n", "non", "ou i"]),
    ("nl", ["j", "ja", "y"], ["n", "nee"]),
    ("de", ["j", "JA", "yes"], ["n", "nein"]),
])
def test_a_yes_is_read_in_the_language_of_the_question(
        lang: str, yes: list[str], no: list[str]) -> None:
    from lucie.cli.plain import is_yes
    from lucie.i18n import using

    with using(lang):
        assert all(is_yes(a) for a in yes), yes
        assert not any(is_yes(a) for a in no), no


def test_a_hint_in_a_game_of_the_day_is_asked_first(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    """A hint would take the game out of the day's table: line mode asks
    first; no keeps it counting, yes marks it and gives the hint."""
    from lucie.daily import daily_deal

    db = tmp_path / "games.sqlite3"
    deal = daily_deal(Rules())
    code, out, _err = play(monkeypatch, capsys, db, "hint\nn\nhint\ny\nhint\nq\n",
                           "--player", "ann", "--deal", str(deal))
    assert code == 0
    assert out.count("no longer count for the table of the day") == 2  # not the third time
    assert "No hint asked: this game still counts for the table of the day." in out
    assert out.count("hint: ") == 2
    with Store(db) as store:
        found = store.unfinished("ann")
        assert found is not None
        marks = store.marks(found[0])
    assert marks is not None and marks.hints == 2
