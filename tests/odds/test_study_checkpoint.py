"""An interrupted study keeps its work: checkpoints, partial reports, --resume.

The signals are real ones, sent to a real ``lucie study`` process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from lucie.analysis.study import run_study
from lucie.cli import main
from lucie.rules import Rules

#: The fields of a study's JSON that say how long it took or how it ran,
#: not what it measured.
RUN_FIELDS = {"seconds", "games_per_second", "jobs", "partial", "stopped", "games_resumed",
              "checkpoint"}


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUCIE_CACHE", str(tmp_path / "odds.sqlite"))


def measured(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in RUN_FIELDS}


def chunk_lines(path: Path) -> list[dict[str, Any]]:
    """The chunk lines of a checkpoint, complete ones only (it may be read
    while a line is being written)."""
    lines = path.read_bytes().split(b"\n")
    return [json.loads(line) for line in lines[1:-1] if line]


def test_resume_goes_on_to_the_uninterrupted_result(tmp_path: Path) -> None:
    """A study stopped after two chunks reports those games, marked partial
    with their interval; resumed, it plays only the others and ends with
    exactly the uninterrupted study's result."""
    rules = Rules.parse("noredeal")
    whole = run_study(rules, 30, seed=7, jobs=1, chunk=5, progress=False)
    checkpoint = tmp_path / "study.checkpoint"
    seen: list[int] = []

    def stop_after_two(done: int) -> None:
        seen.append(done)
        if len(seen) == 2:
            raise KeyboardInterrupt

    cut = run_study(rules, 30, seed=7, jobs=1, chunk=5, progress=False,
                    checkpoint=checkpoint, on_chunk=stop_after_two)
    data = cut.to_json()
    assert data["partial"] is True and data["stopped"] == "interrupted"
    assert data["games"] == 10 and data["games_planned"] == 30
    assert cut.records == whole.records[:10]
    assert data["ci95"][0] <= data["win_rate"] <= data["ci95"][1]
    assert [line["chunk"] for line in chunk_lines(checkpoint)] == [0, 1]
    played: list[int] = []
    resumed = run_study(rules, 30, jobs=1, progress=False, checkpoint=checkpoint,
                        resume=True, on_chunk=played.append)  # (the seed is the checkpoint's)
    assert played == [15, 20, 25, 30]  # the two chunks done are not played again
    assert resumed.records == whole.records
    assert measured(resumed.to_json()) == measured(whole.to_json())
    assert resumed.to_json()["games_resumed"] == 10 and resumed.stopped is None


def test_a_torn_last_line_is_dropped(tmp_path: Path) -> None:
    """A process killed while it wrote a chunk leaves a line cut short: the
    resumed study plays that chunk again, and the line is replaced."""
    rules = Rules.parse("noredeal")
    checkpoint = tmp_path / "study.checkpoint"
    full = run_study(rules, 12, seed=3, jobs=1, chunk=4, progress=False, checkpoint=checkpoint)
    text = checkpoint.read_bytes().split(b"\n")
    checkpoint.write_bytes(b"\n".join(text[:2]) + b"\n" + text[2][:20])
    again = run_study(rules, 12, seed=3, jobs=1, progress=False, checkpoint=checkpoint,
                      resume=True)
    assert again.records == full.records and again.resumed == 4
    assert [line["chunk"] for line in chunk_lines(checkpoint)] == [0, 1, 2]


def study_argv(checkpoint: Path, *extra: str) -> list[str]:
    return ["study", "--variant", "noredeal", "--games", "40", "--seed", "2", "--jobs", "1",
            "--checkpoint", str(checkpoint), *extra]


FOREIGN = {
    "text": b"my notes\n",
    "empty": b"",
    "sqlite": b"SQLite format 3\x00" + bytes(200),
    "other json": b'{"lucie": "settings", "version": 1}\n',
    "later version": b'{"lucie": "study checkpoint", "version": 9}\n',
    "damaged line": (b'{"lucie": "study checkpoint", "version": 1, "variant": "noredeal", '
                     b'"policy": "optimal", "seed": 2, "games": 40, "target": 24, '
                     b'"hint_seconds": null, "solve_seconds": 10.0, "sample_seconds": 5.0, '
                     b'"chunk": 10}\n{"chunk": 0, "records": [[1, "yes"]]}\n'),
}


@pytest.mark.parametrize("kind", sorted(FOREIGN))
@pytest.mark.parametrize("resume", [False, True])
def test_a_foreign_or_damaged_checkpoint_is_refused_and_kept(
    kind: str, resume: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    checkpoint = tmp_path / "study.checkpoint"
    checkpoint.write_bytes(FOREIGN[kind])
    argv = study_argv(checkpoint, *(["--resume"] if resume else []))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert str(checkpoint) in err and "not a lucie study checkpoint" in err
    assert err.count("\n") == 1  # one line, no traceback
    assert checkpoint.read_bytes() == FOREIGN[kind]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study.checkpoint"]


def test_another_study_or_an_unfinished_one_is_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    checkpoint = tmp_path / "study.checkpoint"
    assert main([*study_argv(checkpoint, "--json")]) == 0
    capsys.readouterr()
    finished = checkpoint.read_bytes()
    # resuming a finished study reports it again, playing nothing
    assert main([*study_argv(checkpoint, "--json", "--resume")]) == 0
    assert json.loads(capsys.readouterr().out)["games_resumed"] == 40
    # another study's checkpoint: the differences are named
    argv = study_argv(checkpoint, "--resume")
    argv[argv.index("--seed") + 1] = "5"
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "checkpoint of another study" in err and "seed: 2, not 5" in err
    assert checkpoint.read_bytes() == finished
    # an unfinished study is not replaced by a new one
    lines = finished.split(b"\n")
    checkpoint.write_bytes(b"\n".join(lines[:2]) + b"\n")
    unfinished = checkpoint.read_bytes()
    assert main(study_argv(checkpoint)) == 2
    err = capsys.readouterr().err
    assert "unfinished study" in err and "--resume" in err
    assert checkpoint.read_bytes() == unfinished


def test_a_new_study_replaces_a_finished_ones_checkpoint(tmp_path: Path) -> None:
    """A finished study's checkpoint (its result was reported), or one with
    no game yet, gives way to a new study, which keeps its own games in its
    own chunks."""
    checkpoint = tmp_path / "study.checkpoint"
    rules = Rules.parse("noredeal")
    run_study(rules, 12, seed=1, jobs=1, chunk=4, progress=False, checkpoint=checkpoint)
    run_study(rules, 12, seed=2, jobs=1, progress=False, checkpoint=checkpoint)
    header = json.loads(checkpoint.read_bytes().split(b"\n")[0])
    assert header["seed"] == 2 and header["chunk"] == 3  # (12 games on one core)
    assert len(chunk_lines(checkpoint)) == 4
    # nor is a study stopped before its first game was played kept
    stopped = run_study(rules, 12, seed=3, jobs=1, progress=False, checkpoint=checkpoint,
                        time_limit=0.001)
    assert stopped.stopped == "time limit" and stopped.games == 0
    run_study(rules, 12, seed=4, jobs=1, progress=False, checkpoint=checkpoint)
    assert json.loads(checkpoint.read_bytes().split(b"\n")[0])["seed"] == 4


def test_a_time_limit_reports_a_partial_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """``--time-limit`` stops the study and reports the games played, marked
    partial (exit 0: the stop was asked for); the checkpoint has them."""
    checkpoint = tmp_path / "study.checkpoint"
    argv = ["study", "--variant", "classic", "--games", "5000", "--seed", "1", "--jobs", "1",
            "--checkpoint", str(checkpoint), "--time-limit", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("PARTIAL RESULT (time limit reached): ")
    games = int(out.split(": ", 1)[1].split(" ")[0])
    assert games < 5000  # counted, not timed: the limit stopped the study
    assert "of 5000 games played" in out and "--resume" in out and "95% CI" in out
    assert sum(len(line["records"]) for line in chunk_lines(checkpoint)) == games


def start_study(tmp_path: Path, games: int, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    return subprocess.Popen(
        [sys.executable, "-m", "lucie", "study", "--variant", "noredeal", "--games",
         str(games), "--seed", "11", "--jobs", "2", "--json", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        start_new_session=True,  # a signal to the process alone, not its group
    )


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_to_the_process_stops_it_with_a_partial_report(
    signum: int, status: int, tmp_path: Path,
) -> None:
    """SIGINT or SIGTERM sent to the study's process (``kill``, a service
    manager, ``timeout``) stops it and its workers within seconds; it
    reports the games of its checkpoint, marked partial; progress lines
    went to standard error (not a terminal) as it ran.  Resumed, it ends
    with exactly the uninterrupted study's result."""
    checkpoint = tmp_path / "study.checkpoint"
    proc = start_study(tmp_path, 400, "--checkpoint", str(checkpoint),
                       "--progress-seconds", "0.001")
    try:
        deadline = time.monotonic() + 60
        while not (checkpoint.exists() and len(chunk_lines(checkpoint)) >= 2):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        os.kill(proc.pid, signum)
        out, err = proc.communicate(timeout=30)  # (a loaded machine; it was 60 s and more)
    finally:
        if proc.poll() is None:  # pragma: no cover - the failure being tested
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert proc.returncode == status, err
    data = json.loads(out)
    assert data["partial"] is True and data["stopped"] == "interrupted", err
    kept = sum(len(line["records"]) for line in chunk_lines(checkpoint))
    assert 0 < data["games"] == kept < 400 and data["games_planned"] == 400, err
    assert "Traceback" not in err and "study: " in err and " of 400 games" in err, err
    # the worker processes are gone with it (the study waits for them)
    left = subprocess.run(["pgrep", "-s", str(proc.pid)], capture_output=True, text=True)
    assert left.stdout == "", left.stdout
    if signum == signal.SIGINT:
        resumed = start_study(tmp_path, 400, "--checkpoint", str(checkpoint), "--resume")
        out, err = resumed.communicate(timeout=300)
        assert resumed.returncode == 0, err
        data = json.loads(out)
        whole = run_study(Rules.parse("noredeal"), 400, seed=11, jobs=2, progress=False,
                          solve_seconds=10.0, sample_seconds=5.0)  # (the command's defaults)
        assert data["games_resumed"] == kept and not data["partial"]
        assert measured(data) == measured(whole.to_json())
