"""What the command line claims is true (issue 35): a cut odds search is
never reported as proved or exact, in ``--json`` or in words; a proved
one is; hints keep the difficulty unless asked."""

from __future__ import annotations

import json

import pytest

from lucie.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().out


#: Shamrocks deal 9 (no redeal): the search takes far longer than these budgets.
CUT = ("odds", "--variant", "shamrocks", "--deal", "9", "--seconds", "0.5", "--cache", "off")


def test_cut_odds_in_json_claim_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, *CUT, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["budget_ran_out"] is True and data["proved"] is False
    assert (data["win_rate"], data["mean_score"], data["samples"]) == (None, None, 0)
    assert data["ci95"] == [0.0, 1.0] and data["searches_cut"] >= 1


def test_cut_odds_in_words_claim_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, *CUT, "--lang", "en")
    assert code == 0
    assert out.startswith("win rate unknown: not measured"), out
    assert "budget ran out" in out
    assert "exact" not in out and "0.0%" not in out


def test_proved_odds_say_so(capsys: pytest.CaptureFixture[str]) -> None:
    # noredeal deal 1: a last deal, proved lost at once
    code, out = run(capsys, "odds", "--variant", "noredeal", "--deal", "1", "--seconds", "20",
                    "--cache", "off", "--json")
    data = json.loads(out)
    assert code == 0 and data["proved"] is True
    assert (data["win_rate"], data["ci95"], data["samples"]) == (0.0, [0.0, 0.0], 0)
    assert ", exact" in data["text"]


def test_hint_tells_clearable_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    # noredeal deal 13 can be cleared, and the hint's line clears it
    args = ("hint", "--variant", "noredeal", "--deal", "13", "--seconds", "10",
            "--cache", "off", "--lang", "en")
    code, quiet = run(capsys, *args)
    assert code == 0 and "j>r" in quiet and "cleared" not in quiet, quiet
    code, told = run(capsys, *args, "--tell-clears")
    assert code == 0 and "(this deal can be cleared) (type j>r)" in told, told
