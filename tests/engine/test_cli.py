"""The command line: show, replay, play --plain, variants; exit codes and messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lucie.cli import main
from lucie.engine import Game
from lucie.formats import format_layout, save_game
from lucie.rules import Rules


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


class TestShow:
    def test_plain(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "show", "--deal", "1")
        assert code == 0
        assert "La Belle Lucie, deal 1" in out and "  a: J♦ K♠ 4♠" in out and "  r: 6♥" in out

    def test_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "show", "--variant", "trefoil", "--deal", "5", "--json")
        data = json.loads(out)
        assert code == 0 and data["deal"] == 5 and data["variant"] == "trefoil"
        assert len(data["fans"]) == 16 and data["foundations"] == {"C": 1, "D": 1, "H": 1, "S": 1}
        assert data["redeals_left"] == 2 and data["status"] == "playing" and data["score"] == 4

    def test_plain_layout_reads_back(self, capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
        _, out, _ = run(capsys, "show", "-d", "9", "--plain-layout")
        path = tmp_path / "deal9.txt"
        path.write_text(out)
        code, out2, _ = run(capsys, "replay", "--layout", str(path), "--seed", "9", "--json")
        assert code == 0 and json.loads(out2)["fans"][0] == out.splitlines()[0].split()

    def test_random_deal_number_is_shown(self, capsys: pytest.CaptureFixture[str]) -> None:
        _, out, _ = run(capsys, "show", "--json")
        number = json.loads(out)["deal"]
        _, again, _ = run(capsys, "show", "--json", "--deal", str(number))
        assert json.loads(again)["fans"] == json.loads(out)["fans"]


class TestReplay:
    def test_moves_and_json_keys(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "replay", "--deal", "1", "--json", "f>i", "b>e", "R")
        data = json.loads(out)
        assert code == 0
        for key in ("variant", "deal", "fans", "foundations", "redeals_left",
                    "merci_available", "status", "score"):
            assert key in data
        assert data["redeals_left"] == 1 and data["moves"] == ["f>i", "b>e", "R"]
        expected = Game(Rules(), 1)
        expected.push_all(["f>i", "b>e", "R"])
        assert data["fans"] == [[str(c) for c in f] for f in expected.position.fans]

    def test_save_then_load(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "g.json"
        code, _, _ = run(capsys, "replay", "-v", "merci", "-d", "3", "--save", str(path),
                         "R", "R")
        assert code == 0
        code, out, _ = run(capsys, "replay", "--load", str(path), "--json")
        data = json.loads(out)
        assert data["variant"] == "merci" and data["redeals_left"] == 0
        assert data["merci_available"] is True

    def test_illegal_move_names_its_number_and_why(self,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
        code, out, err = run(capsys, "replay", "--deal", "1", "f>i", "a>b")
        assert code == 2 and out == ""
        assert err.strip() == ("lucie: error: move 2 (a>b) is illegal: "
                               "4♠ cannot go on 10♥ (fans build down in suit)")

    @pytest.mark.parametrize(
        "args, words",
        [
            (["replay", "--deal", "1", "zz"], "'zz' is not a move"),
            (["replay", "--deal", "0"], "deal number 0 is out of range"),
            (["replay", "--deal", "x"], "deal number 'x' is not a whole number"),
            (["show", "--variant", "nope"], "unknown variant 'nope'"),
            (["show", "--variant", "classic,max_fan=1"], "max_fan=1"),
            (["replay", "--layout", "/nonexistent/file"], "no such file"),
            (["replay", "--load", "/nonexistent/game.json"], "no such file"),
        ],
    )
    def test_bad_input_exit_2(self, capsys: pytest.CaptureFixture[str], args: list[str],
                              words: str) -> None:
        code, _, err = run(capsys, *args)
        assert code == 2 and words in err and "Traceback" not in err

    def test_bad_layout_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        layout = tmp_path / "bad.txt"
        layout.write_text("KH 2S 8S\nKH\n")
        code, _, err = run(capsys, "replay", "--layout", str(layout))
        assert code == 2 and "KH appears twice" in err and str(layout) in err
        missing = tmp_path / "missing.txt"
        missing.write_text(format_layout(Game(Rules(), 1).position).replace("6H", ""))
        code, _, err = run(capsys, "replay", "--layout", str(missing))
        assert code == 2 and "6H is missing" in err

    def test_corrupt_saved_game_is_reported_and_left_alone(
            self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        path = tmp_path / "g.json"
        game = Game(Rules(), 2)
        game.push("h>f")
        text = save_game(game)
        path.write_text(text[:40])
        code, _, err = run(capsys, "replay", "--load", str(path))
        assert code == 2 and "not valid JSON" in err
        assert path.read_text() == text[:40]


def _plain(tmp_path: Path, script: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``lucie play --plain --deal 1`` in a subprocess, with its own database."""
    return subprocess.run(
        [sys.executable, "-m", "lucie", "play", "--plain", "--deal", "1",
         "--db", str(tmp_path / "games.sqlite3")],
        input=script, capture_output=True, text=True, timeout=timeout,
    )


class TestPlayPlain:
    def test_scripted_session(self, tmp_path: Path) -> None:
        script = "m\nf>i\nu\ny\nzz\na>b\nd>f\n?\nR\nq\n"
        proc = _plain(tmp_path, script)
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout
        # each legal move: the notation to type, then what it does in words
        assert "   f>i  7♦ from fan f onto 8♦ in fan i\n" in out
        assert "     R  redeal the 52 cards left\n" in out
        assert "undone: 7♦ from fan f onto 8♦ in fan i" in out
        assert "redone: 7♦ from fan f onto 8♦ in fan i" in out
        assert "! 'zz' is not a move" in out
        assert "! a>b: 4♠ cannot go on 10♥" in out
        assert "redeals left 1" in out
        assert "u undo" in out  # the help

    def test_words_and_hint(self, tmp_path: Path) -> None:
        """A new user types words: undo, hint; a non-move points at the help."""
        proc = _plain(tmp_path, "f>i\nundo\nredo\nhint\nhello\nq\n", timeout=120)
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout
        assert "undone: 7♦ from fan f" in out and "redone: 7♦ from fan f" in out
        assert "hint: " in out and "(type " in out and "[" not in out.split("hint: ")[1]
        assert "! 'hello' is not a move" in out and "? for help" in out

    def test_fan_f_hint(self, tmp_path: Path) -> None:
        proc = _plain(tmp_path, "g>f\nq\n")
        assert "did you mean g>F, onto fan f?" in proc.stdout

    def test_end_of_input_quits(self, tmp_path: Path) -> None:
        proc = _plain(tmp_path, "")
        assert proc.returncode == 0


def test_console_script_and_module_agree() -> None:
    via_module = subprocess.run([sys.executable, "-m", "lucie", "show", "-d", "3", "--json"],
                                capture_output=True, text=True, timeout=60)
    assert via_module.returncode == 0
    assert json.loads(via_module.stdout)["deal"] == 3


def test_variants_listing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "--json")
    names = [v["name"] for v in json.loads(out)]
    assert code == 0 and names[0] == "classic" and len(names) == 10


def test_replay_save_is_atomic(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A save that cannot be written says why and leaves no temporary file;
    a failed replay leaves an existing save as it was."""
    code, _, err = run(capsys, "replay", "-d", "1", "--save", str(tmp_path), "f>i")
    assert code == 2 and str(tmp_path) in err
    assert list(tmp_path.iterdir()) == []
    path = tmp_path / "g.json"
    assert run(capsys, "replay", "-d", "1", "--save", str(path), "f>i")[0] == 0
    before = path.read_bytes()
    assert run(capsys, "replay", "-d", "1", "--save", str(path), "f>i", "a>b")[0] == 2
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["g.json"]
