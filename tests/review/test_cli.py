"""``lucie review``, ``lucie pick`` and ``--daily`` on the command line."""

from __future__ import annotations

import datetime
import hashlib
import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lucie.analysis.cache import ValueCache
from lucie.analysis.difficulty import TABLE, Thresholds, pick_deal, rating
from lucie.analysis.review import Valuer
from lucie.cli import main
from lucie.daily import DAILY_MAX, daily_deal, today
from lucie.engine import REDEAL, Game, Position
from lucie.formats import save_game
from lucie.rules import VARIANTS, Rules
from lucie.solver import search_deal, solve_deal
from lucie.store import Store


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def clearable() -> int:
    rules = Rules()
    return next(n for n in range(1, 300)
                if search_deal(Position.deal(rules, n), frontier=False).status == "solved")


@pytest.fixture
def saved(tmp_path: Path, clearable: int) -> Path:
    """A saved game: the solver's first 10 moves of a clearable deal, then a redeal."""
    game = Game(Rules(), clearable)
    game.push_all(solve_deal(game.position, frontier=False).moves[:10])
    game.push(REDEAL)
    path = tmp_path / "game.json"
    path.write_text(save_game(game), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A value cache file shared by the reviews of this module (the same game)."""
    return str(tmp_path_factory.mktemp("cache") / "values.sqlite")


# -- review -------------------------------------------------------------------


def test_review_json(capsys: pytest.CaptureFixture[str], saved: Path, clearable: int,
                     cache: str) -> None:
    code, out, _ = run(capsys, "review", "--load", str(saved), "--json", "--cache", cache,
                       "--no-progress")
    assert code == 0
    data = json.loads(out)
    assert data["variant"] == "classic" and data["deal"] == clearable
    assert data["start_value"]["chance"] == 1.0 and data["start_value"]["kind"] == "exact"
    moves = data["moves"]
    assert [m["index"] for m in moves] == list(range(1, 12))
    assert all(m["label"] == "best" for m in moves[:10])
    assert moves[10]["move"] == "R" and moves[10]["label"] in ("mistake", "blunder")
    assert data["mistakes"] == 1 == sum(m["label"] in ("mistake", "blunder") for m in moves)


def test_review_text_with_plain_progress(
    capsys: pytest.CaptureFixture[str], saved: Path, monkeypatch: pytest.MonkeyPatch,
    cache: str,
) -> None:
    real = importlib.util.find_spec

    def no_tqdm(name: str, *args: Any) -> Any:
        return None if name == "tqdm" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", no_tqdm)
    code, out, err = run(capsys, "review", "--load", str(saved), "--cache", cache)
    assert code == 0
    assert "review: 33/33" in err  # plain progress lines, tqdm being absent
    assert "Winning chance at the start: 100%" in out
    # the moves in symbols (a redeal in words), never in notation or card codes
    assert "  11. redeal " in out and "better move: " in out
    assert "Costliest moves: 11. redeal (-" in out
    assert " → " in out and ">" not in out.replace("->", "")


def test_review_from_the_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, clearable: int
) -> None:
    db = tmp_path / "games.db"
    game = Game(Rules(), clearable)
    with Store(db) as store:
        gid = store.start_game(game, "ann")
        game.push_all(solve_deal(game.position, frontier=False).moves[:3])
        store.record_move(gid, game)
    code, out, _ = run(capsys, "review", "--game", str(gid), "--db", str(db), "--json",
                       "--cache", "off", "--no-progress")
    assert code == 0
    data = json.loads(out)
    assert data["deal"] == clearable and len(data["moves"]) == 3
    assert data["mistakes"] == 0
    with Store(db) as store:  # the review changes nothing in the store
        assert store.game(gid).moves == game.moves
        assert store.record(gid).moves == 3
    code, _, err = run(capsys, "review", "--game", str(gid + 1), "--db", str(db))
    assert code == 2 and f"no game {gid + 1}" in err


@pytest.mark.parametrize("args, message", [
    (["--load", "missing.json"], "no such file"),
    (["--load", "BAD"], "BAD"),
    (["--game", "1", "--db", "nowhere.db"], "no such games database"),
    (["--load", "GOOD", "--db", "x.db"], "--db goes with --game"),
])
def test_review_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch, saved: Path,
                          args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "BAD").write_text('{"version": 1, "moves": [', encoding="utf-8")
    args = [str(saved) if a == "GOOD" else a for a in args]
    code, out, err = run(capsys, "review", *args, "--cache", "off")
    assert code == 2 and out == ""
    assert err.startswith("lucie: error:") and message in err
    assert "Traceback" not in err
    assert not (tmp_path / "nowhere.db").exists()


def test_review_needs_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "review")
    assert code == 2 and "--load" in err
    for bad in ("abc", "0", "²", "1e3", "9" * 40):
        code, _, err = run(capsys, "review", "--game", bad)
        assert code == 2 and "game id" in err and "Traceback" not in err
    for bad in ("0", "-1", "nan", "inf", "x"):
        code, _, err = run(capsys, "review", "--load", "g.json", "--seconds", bad)
        assert code == 2 and "seconds" in err


def test_review_budget(capsys: pytest.CaptureFixture[str], saved: Path) -> None:
    code, out, _ = run(capsys, "review", "--load", str(saved), "--seconds", "0.001",
                       "--cache", "off", "--no-progress")
    assert code == 0
    assert "time budget" in out and "?" in out


# -- pick ---------------------------------------------------------------------


def test_pick_clearable_is_proved(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("1", "2"):
        code, out, _ = run(capsys, "pick", "--difficulty", "clearable", "--json",
                           "--seed", seed, "--cache", "off")
        assert code == 0
        data = json.loads(out)
        assert data["variant"] == "classic" and data["difficulty"] == "clearable"
        assert data["value"]["chance"] == 1.0
        game = Game(Rules(), data["deal"])
        result = solve_deal(game.position, frontier=False)
        assert result.status == "solved"
        game.push_all(result.moves)
        assert game.position.is_won


def test_pick_text_prints_the_number(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "pick", "-v", "noredeal", "--difficulty", "clearable",
                         "--seed", "5", "--cache", "off")
    assert code == 0
    number = int(out.strip())
    assert search_deal(Position.deal(Rules.parse("noredeal"), number),
                       frontier=False).status == "solved"
    assert "clearable" in err


def test_easy_deals_have_better_odds_than_hard_ones() -> None:
    """Picked easy and hard classic deals, rated again with other samples."""
    rules = Rules()
    picks = {d: [pick_deal(rules, d, seed=s, cache=ValueCache(None)) for s in (1, 2)]
             for d in ("easy", "hard")}
    th = TABLE["classic"]
    valuer = Valuer(rules, ValueCache(None), seed=99)
    odds: dict[str, list[float]] = {}
    for difficulty, found in picks.items():
        for pick in found:
            assert pick.difficulty == difficulty and pick.thresholds == th
            rated = rating(pick.value)
            assert rated is not None and th.classify(rated) == difficulty
            again = valuer.value(Position.deal(rules, pick.deal)).chance
            assert again is not None
            odds.setdefault(difficulty, []).append(again)
    assert min(odds["easy"]) > max(odds["hard"])


def test_pick_exact_difficulty_without_redeals() -> None:
    """The Fan: easy deals are the clearable ones, hard ones are not, exactly."""
    rules = Rules.parse("fan")
    easy = pick_deal(rules, "easy", seed=3, cache=ValueCache(None))
    hard = pick_deal(rules, "hard", seed=3, cache=ValueCache(None))
    assert search_deal(Position.deal(rules, easy.deal), frontier=False).status == "solved"
    lost = solve_deal(Position.deal(rules, hard.deal))
    assert lost.status == "unsolvable"
    assert hard.value.best_score == lost.best_score < TABLE["fan"].hard_below[1]


def test_pick_on_demand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "pick", "-v", "classic,redeals=1", "--difficulty", "medium",
                         "--seed", "4", "--cache", "off", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["thresholds"]["measured"] is False
    assert data["thresholds"]["command"] == "estimated on demand"
    code, out, err = run(capsys, "pick", "-v", "classic,redeals=1", "--difficulty", "hard",
                         "--seed", "4", "--cache", "off")
    assert code == 0 and "estimated on demand" in err


def test_pick_none_found(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "pick", "-v", "shamrocks", "--difficulty", "easy",
                         "--seconds", "0.001", "--cache", "off")
    assert code == 2 and out == ""
    assert "shamrocks" in err.lower() and "--seconds" in err  # its title or its name


def test_pick_bad_difficulty(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "pick", "--difficulty", "brutal")
    assert code == 2 and "brutal" in err


def test_thresholds_table() -> None:
    assert {"classic", "noredeal", "fan", "trefoil"} <= set(TABLE)
    for spec, th in TABLE.items():
        assert isinstance(th, Thresholds) and th.variant == spec
        assert Rules.parse(spec).spec() == spec
        assert th.hard_below <= th.easy_from
        assert th.sample >= 100 and th.measured
        assert th.command.startswith("python scripts/difficulty_thresholds.py")
        datetime.date.fromisoformat(th.date)


# -- the deal of the day --------------------------------------------------------


def test_daily_is_stable_across_processes() -> None:
    day = datetime.date(2026, 7, 14)
    code = ("import datetime; from lucie.daily import daily_deal; from lucie.rules import Rules; "
            "print(daily_deal(Rules.parse('merci'), datetime.date(2026, 7, 14)))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout.strip()
            for seed in ("1", "2")}
    assert outs == {str(daily_deal(Rules.parse("merci"), day))}
    # the documented recipe, written out again
    digest = hashlib.sha256(b"lucie deal of the day\n2026-07-14\nmerci").digest()
    expected = int.from_bytes(digest[:8], "big") % DAILY_MAX + 1
    assert daily_deal(Rules.parse("merci"), day) == expected


def test_daily_differs_across_dates_and_variants() -> None:
    start = datetime.date(2026, 1, 1)
    days = [start + datetime.timedelta(days=i) for i in range(60)]
    numbers = {daily_deal(Rules(), d) for d in days}
    assert len(numbers) == 60
    assert all(1 <= n <= DAILY_MAX for n in numbers)
    per_variant = {daily_deal(v.rules, start) for v in VARIANTS.values()}
    assert len(per_variant) == len(VARIANTS)


def test_show_and_play_daily(capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "show", "--daily", "--json", "-v", "trefoil")
    assert code == 0
    assert json.loads(out)["deal"] == daily_deal(Rules.parse("trefoil"), today())
    # line mode plays (and stores) the deal of the day
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, _ = run(capsys, "play", "--daily", "--plain", "--db", str(tmp_path / "g.db"))
    assert code == 0
    assert f"La Belle Lucie, deal {daily_deal(Rules(), today())} " in out
    code, _, err = run(capsys, "play", "--daily", "--deal", "3", "--plain")
    assert code == 2 and "--daily" in err


def test_the_end_tells_the_figure_the_pick_used() -> None:
    """Classic deals picked by difficulty (estimates): the end of the game
    tells the very rating the pick used, whatever a new estimate would say;
    the rating says whether its interval settles the third."""
    from lucie.analysis.difficulty import deal_difficulty

    rules = Rules()
    for difficulty in ("hard", "easy"):
        pick = pick_deal(rules, difficulty, seed=5, cache=ValueCache(None),  # type: ignore[arg-type]
                         max_seconds=15)
        told = deal_difficulty(rules, pick.deal, cache=ValueCache(None), picked=pick.rated,
                               max_seconds=5)
        assert told.difficulty == pick.difficulty == difficulty
        assert told.value == pick.value == pick.rated.value and told.picked
        assert told.later is None  # no exact figure for these deals
        low, high = told.value.low, told.value.high
        th = TABLE["classic"]
        assert told.decided == (th.classify((low, 0)) == th.classify((high, 0)) == difficulty)
        assert told.decided or "only the likeliest" in told.text()
        assert pick.to_json()["rated"] == told.to_json()


def test_deal_difficulty_after_the_game() -> None:
    """What the screens show at the end of a game agrees with what pick chose."""
    from lucie.analysis.difficulty import deal_difficulty

    rules = Rules.parse("noredeal")
    for difficulty in ("easy", "hard"):
        pick = pick_deal(rules, difficulty, seed=8, cache=ValueCache(None))  # type: ignore[arg-type]
        rated = deal_difficulty(rules, pick.deal, cache=ValueCache(None))
        assert rated.difficulty == difficulty
        assert rated.thresholds == TABLE["noredeal"]
        solvable = search_deal(Position.deal(rules, pick.deal), frontier=False).solvable
        assert rated.clearable is solvable
