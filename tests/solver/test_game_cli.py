"""Whole numbered games across the redeals, and the ``lucie solve`` command."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from lucie.cli import main
from lucie.engine import Game, Position
from lucie.rules import Rules
from lucie.solver import solve_deal, solve_game

#: lblsolve's own README example (an 18-fan layout, ``10D`` style tokens).
LBLSOLVE = """KH 2S 8S
3S 5S QH
JH 4H 10D
3D 8C 8D
4C JS 7D
AH AS 5H
7C 2D 5D
AC 8H 10C
2H QD 7H
3H AD KD
4S 9S 6H
9D QC 10H
6C KS JD
6D 6S 9C
KC 9H 10S
5C 4D 7S
2C 3C JC
QS
"""


def fcs_layout(text: str) -> str:
    """The same fans as FreeCell Solver writes a board: a Foundations line in
    its suit order, an empty Freecells line, ``: `` before each fan."""
    lines = ["Foundations: H-0 C-0 D-0 S-0", "Freecells:"]
    lines += [": " + line for line in text.splitlines() if line.strip()]
    return "\n".join(lines) + "\n"


class TestWholeGame:
    @pytest.mark.parametrize("spec", ["classic", "trefoil", "classic,redeals=1", "merci"])
    def test_wins_replay(self, spec: str) -> None:
        rules = Rules.parse(spec)
        for n in (1, 2, 3):
            result = solve_game(rules, n, max_seconds=30)
            assert result.status == "won"
            game = Game(rules, n)
            game.push_all(result.moves)
            assert game.position.is_won
            assert sum(m.is_redeal for m in result.moves) <= rules.redeals

    def test_needs_a_redeal(self) -> None:
        """A deal that cannot be cleared in one deal but is won across redeals:
        the line really uses a redeal."""
        rules = Rules()
        n = next(n for n in range(1, 50)
                 if solve_deal(Position.deal(rules, n), frontier=False).status == "unsolvable")
        result = solve_game(rules, n, max_seconds=30)
        assert result.status == "won" and any(m.is_redeal for m in result.moves)

    def test_no_redeal_variant_agrees_with_one_deal(self) -> None:
        rules = Rules.parse("fan")
        for n in range(1, 6):
            one = solve_deal(Position.deal(rules, n), frontier=False)
            whole = solve_game(rules, n)
            assert whole.status == {"solved": "won", "unsolvable": "lost"}[one.status]

    def test_cut_sub_search_never_claims_lost(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """With every one-deal search cut short, the verdict is a checked win
        or unknown, never lost."""
        monkeypatch.setattr("lucie.solver.game.SUB_NODES", 2)
        rules = Rules.parse("flower")
        for n in (1, 2):
            result = solve_game(rules, n, max_seconds=2)
            assert result.status in ("won", "unknown")
            if result.status == "won":
                game = Game(rules, n)
                game.push_all(result.moves)
                assert game.position.is_won

    def test_budget_gives_unknown(self) -> None:
        result = solve_game(Rules.parse("alternate"), 4, max_nodes=200)
        assert result.status == "unknown" and result.moves == ()
        assert result.solvable is None


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _deal_with(status: str) -> int:
    rules = Rules()
    return next(n for n in range(1, 200)
                if solve_deal(Position.deal(rules, n), frontier=False).status == status)


class TestCli:
    def test_solvable_deal_exit_0_and_json(self, capsys: pytest.CaptureFixture[str]) -> None:
        n = _deal_with("solved")
        code, out, _ = run(capsys, "solve", "--deal", str(n), "--json")
        data = json.loads(out)
        assert code == 0 and data["solvable"] is True and data["best_score"] == 52
        for key in ("moves", "nodes", "seconds", "reachable"):
            assert key in data
        game = Game(Rules(), n)
        game.push_all(data["moves"])
        assert game.position.is_won

    def test_unsolvable_deal_exit_1(self, capsys: pytest.CaptureFixture[str]) -> None:
        n = _deal_with("unsolvable")
        code, out, _ = run(capsys, "solve", "--deal", str(n), "--json")
        data = json.loads(out)
        assert code == 1 and data["solvable"] is False and data["moves"] == []
        assert data["reachable"]
        best = max(r["score"] for r in data["reachable"])
        assert best == data["best_score"]
        for reach in data["reachable"]:
            game = Game(Rules(), n)
            game.push_all(reach["moves"])
            assert dict(zip("CDHS", game.position.foundations, strict=True)) == \
                reach["foundations"]
        code, out, _ = run(capsys, "solve", "--deal", str(n))
        assert code == 1 and "cannot be cleared" in out and "best score" in out

    def test_unknown_exit_3(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "solve", "--variant", "shamrocks", "--deal", "3",
                           "--max-nodes", "50", "--json")
        assert code == 3 and json.loads(out)["solvable"] is None

    def test_whole_game(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "solve", "--deal", "1", "--whole-game", "--json")
        data = json.loads(out)
        assert code == 0 and data["solvable"] is True and "R" in data["moves"]
        code, _, err = run(capsys, "solve", "-", "--whole-game")
        assert code == 2 and "--whole-game needs a numbered deal" in err

    def test_counts_in_words(self, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
        # one card left: the search settles it in a single position
        monkeypatch.setattr("sys.stdin", io.StringIO("Foundations: C-K D-K H-K S-Q\nKS\n"))
        code, out, _ = run(capsys, "solve", "-")
        assert code == 0 and "(1 move)" in out and "1 position," in out
        _, out, _ = run(capsys, "solve", "--deal", "1", "--whole-game", "--json")
        redeals = json.loads(out)["moves"].count("R")
        code, out, _ = run(capsys, "solve", "--deal", "1", "--whole-game")
        words = {1: "1 redeal)", 2: "2 redeals)"}[redeals]
        assert code == 0 and words in out

    def test_layout_file_lblsolve_and_fcs(self, capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
        plain = tmp_path / "lbl.txt"
        plain.write_text(LBLSOLVE)
        code1, out1, _ = run(capsys, "solve", str(plain), "--json")
        monkeypatch.setattr("sys.stdin", io.StringIO(fcs_layout(LBLSOLVE)))
        code2, out2, _ = run(capsys, "solve", "-", "--json")
        assert code1 == code2 and code1 in (0, 1)
        assert json.loads(out1)["best_score"] == json.loads(out2)["best_score"]

    @pytest.mark.parametrize("text, words", [
        ("KH 2S 8S\nXX 3C\n", "'XX' is not a card"),
        ("KH 2S 8S\nKH\n", "KH appears twice"),
        ("", "empty"),
        ("Foundations: C-5 D-0 H-0 S-0\nKH\n", "missing cards"),
    ])
    def test_bad_layouts_exit_2(self, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                text: str, words: str) -> None:
        path = tmp_path / "bad.txt"
        path.write_text(text)
        code, out, err = run(capsys, "solve", str(path))
        assert code == 2 and words in err and str(path) in err and out == ""

    def test_bad_arguments_exit_2(self, capsys: pytest.CaptureFixture[str],
                                  tmp_path: Path) -> None:
        assert run(capsys, "solve")[0] == 2
        assert run(capsys, "solve", str(tmp_path / "none.txt"))[0] == 2
        assert run(capsys, "solve", "x.txt", "--deal", "3")[0] == 2
        assert run(capsys, "solve", "--deal", "0")[0] == 2
        assert run(capsys, "solve", "--deal", "3", "--max-seconds", "-1")[0] == 2
        assert run(capsys, "solve", "--deal", "3", "--variant", "nope")[0] == 2


class TestVerdictFirst:
    """``lucie solve`` settles the verdict first (issue #28.1): the flower
    deals 7 and 9 and the alternate deal 2 are proved lost at once by the
    verdict search, while their full frontier runs out of any small budget."""

    @pytest.mark.parametrize(("spec", "deal"), [("flower", 7), ("flower", 9),
                                                ("alternate", 2)])
    def test_a_known_verdict_is_never_hidden(self, spec: str, deal: int) -> None:
        p = Position.deal(Rules.parse(spec), deal)
        verdict = solve_deal(p, frontier=False, max_nodes=5_000)
        assert verdict.status == "unsolvable"
        budget = verdict.nodes + 200  # 200 positions left for the best score
        result = solve_deal(p, max_nodes=budget)
        assert result.solvable is False and not result.complete
        assert result.budget_ran_out and result.limit == "nodes"
        assert result.nodes <= budget and result.best_score >= verdict.best_score
        for reach in result.reachable:  # lines to what they claim
            q = p
            for move in reach.moves:
                q = q.play(move)
            assert q.foundations == reach.foundations
        hidden = solve_deal(p, max_nodes=budget, verdict_first=False)
        assert hidden.status == "unknown"  # what the frontier alone answers

    def test_the_frontier_is_unchanged_when_the_budget_suffices(self) -> None:
        for n in range(1, 31):
            p = Position.deal(Rules(), n)
            first = solve_deal(p, max_nodes=10**6)
            plain = solve_deal(p, verdict_first=False)
            assert (first.status, first.complete, first.limit) == (plain.status, True, None)
            assert [r.foundations for r in first.reachable] == \
                [r.foundations for r in plain.reachable]

    def test_cli_says_the_score_search_was_cut(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out, _ = run(capsys, "solve", "--variant", "flower", "--deal", "7",
                           "--max-nodes", "400", "--json")
        data = json.loads(out)
        assert code == 1 and data["solvable"] is False
        assert data["budget_ran_out"] is True and data["frontier_complete"] is False
        code, out, _ = run(capsys, "solve", "--variant", "flower", "--deal", "7",
                           "--max-nodes", "400")
        assert code == 1 and "ran out of budget" in out

    def test_verdict_only(self, capsys: pytest.CaptureFixture[str]) -> None:
        code, out, _ = run(capsys, "solve", "--variant", "alternate", "--deal", "2",
                           "--verdict-only", "--json")
        data = json.loads(out)
        assert code == 1 and data["solvable"] is False and data["budget_ran_out"] is False
