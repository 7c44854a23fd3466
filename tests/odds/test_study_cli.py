"""``lucie study``, ``lucie odds`` and ``lucie hint`` from the command line."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lucie.analysis.cache import ValueCache
from lucie.analysis.hints import KINDS
from lucie.analysis.study import draw_deals, run_study
from lucie.cli import main
from lucie.engine import REDEAL, Game, Move, Position
from lucie.rules import Rules

KEYS = {"variant", "games", "wins", "win_rate", "ci95", "mean_score", "seconds", "scores"}


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUCIE_CACHE", str(tmp_path / "odds.sqlite"))


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_study_json_and_plot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png = tmp_path / "scores.png"
    data = run_json(capsys, "study", "--variant", "noredeal", "--games", "12", "--seed", "4",
                    "--jobs", "2", "--json", "--plot", str(png))
    assert set(data) >= KEYS
    assert data["games"] == 12 and data["variant"] == "noredeal"
    scores = data["scores"]
    assert isinstance(scores, dict) and sum(scores.values()) == 12
    wins = data["wins"]
    assert isinstance(wins, int) and scores.get("52", 0) == wins
    low, high = data["ci95"]  # type: ignore[misc]
    assert 0 <= low <= data["win_rate"] <= high <= 1
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_study_replays_the_same_games() -> None:
    """Same seed, same deals, same results, whatever the number of jobs; the
    scores are those of real games of those deal numbers."""
    rules = Rules.parse("noredeal")
    one = run_study(rules, 8, seed=21, jobs=1, progress=False)
    two = run_study(rules, 8, seed=21, jobs=2, progress=False)
    assert [r.deal for r in one.records] == draw_deals(21, 8)
    assert [(r.deal, r.score) for r in one.records] == [(r.deal, r.score) for r in two.records]
    # in a single deal the optimal policy reaches the best reachable score
    from lucie.solver import solve_deal

    for record in one.records:
        best = solve_deal(Game(rules, record.deal).position).best_score
        assert record.score == (52 if record.won else best)


def test_optimal_policy_game_is_a_real_game() -> None:
    """Classic games of the study replay through the engine: each redeal is the
    deal number's own (PySolFC) redeal."""
    from lucie.analysis.odds import Evaluator
    from lucie.analysis.study import play_optimal

    ev = Evaluator(Rules(), ValueCache(None))
    record = play_optimal(Rules(), 7, ev)
    assert 0 < record.score <= 52
    # the same game, replayed by hand with the policy's choices, ends the same way
    game = Game(Rules(), 7)
    while True:
        stop = ev.choose(game.position, ev.solve(game.position))
        game.push_all(stop.moves)
        if game.position.is_won or game.position.redeals_left == 0:
            break
        game.push(REDEAL)
    assert game.position.score == record.score


def test_study_on_a_dask_local_cluster() -> None:
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster:
        result = run_study(Rules.parse("noredeal"), 6, seed=5,
                           scheduler=cluster.scheduler_address, progress=False)
    local = run_study(Rules.parse("noredeal"), 6, seed=5, jobs=1, progress=False)
    assert result.games == 6
    assert [r.score for r in result.records] == [r.score for r in local.records]


def test_study_hint_policy(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "study", "--variant", "noredeal", "--games", "3", "--seed", "8",
                    "--jobs", "1", "--policy", "hint", "--json")
    assert data["policy"] == "hint" and data["games"] == 3
    assert data["hint_seconds"] == 2.0 and "solve_seconds" not in data
    assert data["value_samples_per_state"] == 16  # the hints' own target


def test_hint_study_counts_the_hints_cut_short(capsys: pytest.CaptureFixture[str]) -> None:
    """Hints whose search runs out of time are counted, in the JSON and in
    the plain report (Shamrocks searches do not finish in 0.05 s)."""
    base = ["study", "--variant", "shamrocks", "--games", "2", "--seed", "4", "--jobs", "1",
            "--policy", "hint", "--hint-seconds", "0.05", "--cache", "off"]
    data = run_json(capsys, *base, "--json")
    assert data["unknown_searches"] >= 1 and data["hint_seconds"] == 0.05
    assert main(base) == 0
    out = capsys.readouterr().out
    said = re.search(r"hints cut short by their budget: (\d+) ", out)
    assert said is not None and int(said.group(1)) >= 1  # (timing: not the same count)


def test_odds_and_hint_commands(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "odds", "--deal", "3", "--samples", "20", "--sample-seed", "1",
                    "--json")
    assert {"win_rate", "ci95", "samples", "mean_score"} <= set(data)
    data = run_json(capsys, "hint", "--deal", "2", "--json")
    assert data["kind"] in KINDS
    move = data["move"]
    assert isinstance(move, str) and Move.parse(move) in Game(Rules(), 2).legal_moves
    assert main(["hint", "--deal", "2"]) == 0
    out = capsys.readouterr().out
    # the hint in words, then the move to type; no [kind] tag (a machine value)
    assert out == f"{data['text']} (type {move})\n" and "[" not in out


def test_hint_from_a_layout_and_a_saved_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lay = tmp_path / "lay.txt"
    lay.write_text("Foundations: C-K D-K H-6 S-K\nRedeals: 0\n7H 9H 8H\nKH QH JH TH\n")
    data = run_json(capsys, "hint", "--layout", str(lay), "--json")
    assert data["kind"] == "lost"
    from lucie.formats import save_game

    game = Game(Rules(), 2)
    game.push("h>f")
    saved = tmp_path / "game.json"
    saved.write_text(save_game(game))
    data = run_json(capsys, "hint", "--load", str(saved), "--json")
    assert data["move"] is not None


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["study", "--games", "0"], "at least 1"),
        (["study", "--games", "x"], "not a whole number"),
        (["study", "--games", "2", "--variant", "nosuch"], "unknown variant"),
        (["study", "--games", "2", "--policy", "best"], "invalid choice"),
        (["study", "--games", "2", "--variant", "classic,redeal_only_when_stuck=on"],
         "redeal_only_when_stuck"),
        (["study", "--games", "2", "--jobs", "1", "--plot", "/no/such/dir/x.png"],
         "no such directory"),
        (["odds", "--deal", "1", "--samples", "0"], "at least 1"),
        (["hint", "--layout", "/no/such/file"], "no such file"),
        (["hint", "--deal", "-4"], "not a whole number"),
    ],
)
def test_bad_input_exits_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse errors
        status = exc.code  # type: ignore[assignment]
    assert status == 2
    assert needle in capsys.readouterr().err


def test_unreachable_scheduler_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["study", "--games", "1", "--scheduler", "tcp://127.0.0.1:9"])
    assert status == 2
    assert "Dask scheduler" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["classic", "trefoil", "noredeal", "fan"])
def test_fast_study_game_is_the_engine_checked_game(spec: str) -> None:
    """The study plays each chosen line at once (``Stop.reached``); the same
    policy played one engine-checked move at a time through a ``Game``
    (with the deal's own redeals) ends every game the same way."""
    from lucie.analysis.odds import Evaluator
    from lucie.analysis.study import play_optimal, play_optimal_checked

    rules = Rules.parse(spec)
    for deal in (3, 11, 40000):
        fast = play_optimal(rules, deal, Evaluator(
            rules, ValueCache(None), rng=random.Random(deal), target=2))
        checked = play_optimal_checked(rules, deal, Evaluator(
            rules, ValueCache(None), rng=random.Random(deal), target=2))
        assert fast == checked


def test_a_worker_that_dies_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed by the system (as the OOM killer does to a search with no
    budget) ends the study with a message that says what to do, not a traceback."""
    import multiprocessing

    from lucie.analysis import study
    from lucie.errors import LucieError

    if multiprocessing.get_start_method() != "fork":  # pragma: no cover
        pytest.skip("the patched chunk reaches the workers only when they are forked")
    monkeypatch.setattr(study, "run_chunk", _killed_worker)
    with pytest.raises(LucieError, match=r"worker process died.*--solve-seconds"):
        run_study(Rules(), 4, seed=1, jobs=2, progress=False)


def _killed_worker(*args: object) -> list[object]:
    """A study chunk whose process is killed (module level: it is pickled)."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)
    return []


def test_study_text_says_when_searches_were_cut_short(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """With budgets too small to finish, the plain report says the figure is a
    lower bound (the JSON has the counts)."""
    code = main(["study", "--variant", "shamrocks", "--games", "2", "--seed", "4",
                 "--jobs", "1", "--solve-seconds", "0.001", "--cache", "off"])
    out = capsys.readouterr().out
    assert code == 0
    assert "searches cut short by the budgets" in out and "lower bound" in out
    # a verdict cut short leaves its deal undecided: the clear rate is a bound
    assert re.search(r"first deal clearable without a redeal: at least \d \(at least "
                     r"\d+\.\d\d%, 95% CI [\d.]+% to 100\.00%\); [12] undecided within the budget",
                     out)


def test_undecided_first_deals_widen_the_clear_rate() -> None:
    """A first deal the budget left undecided counts as not cleared in the
    rate (a lower bound, never a rate over the decided deals only) and as
    cleared at the interval's high end."""
    from lucie.analysis.odds import wilson
    from lucie.analysis.study import GameRecord, StudyResult

    records = [GameRecord(deal=i, won=False, score=20, first_deal_clear=c)
               for i, c in enumerate([True, False, None, None, False, False, None, True])]
    data = StudyResult(Rules.parse("shamrocks"), "optimal", 1, records, 1.0, 1).to_json()
    assert data["first_deal_cleared"] == 2 and data["first_deal_undecided"] == 3
    assert data["first_deal_clear_rate"] == 2 / 8
    assert data["first_deal_clear_ci95"] == [wilson(2, 8)[0], wilson(5, 8)[1]]
    decided = StudyResult(Rules.parse("classic"), "optimal", 1,
                          [r for r in records if r.first_deal_clear is not None], 1.0, 1)
    assert decided.to_json()["first_deal_clear_ci95"] == list(wilson(2, 5))


def test_study_searches_have_a_budget_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no budget given, a study caps its searches (a Shamrocks or Fan
    with reserve search could otherwise run for hours and out of memory);
    ``none`` lifts the cap and a bad value is named."""
    from lucie.analysis import study

    seen: list[tuple[object, object]] = []
    real = study.run_study

    def spy(*args: object, **kwargs: object) -> object:
        seen.append((kwargs["solve_seconds"], kwargs["sample_seconds"]))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(study, "run_study", spy)
    base = ["study", "--variant", "noredeal", "--games", "2", "--seed", "1", "--jobs", "1",
            "--cache", "off", "--json"]
    assert main(base) == 0
    assert main([*base, "--solve-seconds", "none", "--sample-seconds", "0.5"]) == 0
    capsys.readouterr()
    assert seen == [(10.0, 5.0), (None, 0.5)]
    with pytest.raises(SystemExit) as exc:
        main([*base, "--solve-seconds", "soon"])
    assert exc.value.code == 2
    assert "'soon' is not a number of seconds" in capsys.readouterr().err


def test_a_hint_game_follows_a_long_line_to_the_win() -> None:
    """The solver's win of Shamrocks deal 584361683 is over a thousand moves
    long; a hint-policy game plays it to the end."""
    from lucie.analysis.study import play_hint

    record = play_hint(Rules.parse("shamrocks"), 584361683, ValueCache(None), 5.0)
    assert record.first_deal_clear and record.won and record.score == 52


def test_without_redeals_the_hint_game_is_its_first_deal() -> None:
    """With no redeal the first deal is the whole game: a hint game reports
    its own result as the first deal's, even where a verdict runs out of
    budget (Shamrocks deal 7 in 0.05 s); with redeals the first deal's
    verdict is the first hint's own."""
    from lucie.analysis.study import play_hint

    for spec, number in (("shamrocks", 7), ("noredeal", 1), ("fan", 2)):
        record = play_hint(Rules.parse(spec), number, ValueCache(None), 0.05)
        assert record.first_deal_clear is record.won
    record = play_hint(Rules.parse("classic"), 1, ValueCache(None), 0.05)
    assert record.first_deal_clear is False and record.score < 52


def test_the_first_deal_verdict_of_a_hint_game_costs_no_search(
    count_searches: Callable[[], list[dict[str, Any]]],
) -> None:
    """With redeals to come, a hint game's first-deal verdict is the first
    hint's search (no search of its own) and agrees with the exact verdict:
    a classic deal whose first deal clears is played with one search."""
    from lucie.analysis.study import play_hint
    from lucie.solver import solve_deal

    rules = Rules.parse("classic")
    number = next(n for n in range(1, 300)
                  if solve_deal(Position.deal(rules, n), frontier=False).status == "solved")
    calls = count_searches()
    record = play_hint(rules, number, ValueCache(None), 10.0)
    assert record.first_deal_clear is True and record.won and record.score == 52
    assert len(calls) == 1
    for other in (1, 2, 3):
        expected = solve_deal(Position.deal(rules, other), frontier=False).solvable
        assert play_hint(rules, other, ValueCache(None), 10.0).first_deal_clear is expected
