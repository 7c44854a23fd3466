"""Issue 28, "never hide a verdict": the studies and the odds settle the
verdict (the fastest search, ``frontier=False``) even when the budget cuts
the search for the frontier or the best score short.

The budgets here are memory caps (positions held by a walk), so the same
searches are cut on every machine, whatever its load: under 100 positions
held, Super Flower Garden deal 36's frontier search is cut while its
verdict finds a win in 33; under 3,000, deal 7's frontier search is cut
while its verdict proves it lost at the first position.
"""

from __future__ import annotations

from lucie.analysis.cache import ValueCache
from lucie.analysis.odds import Evaluator, estimate_odds
from lucie.analysis.study import _choose, _Tally
from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver import search_deal

FLOWER = Rules.parse("flower")  # two redeals to come in the first deal
LAST = Rules.parse("flower,redeals=0")  # the first deal is the last
WON, WON_CAP = 36, 100
LOST, LOST_CAP = 7, 3000


def _evaluator(rules: Rules, cap: int) -> Evaluator:
    return Evaluator(rules, ValueCache.memory(), target=1, sample_seconds=0.05,
                     max_positions=cap)


def test_the_budgets_cut_the_frontier_but_not_the_verdict() -> None:
    """The premise of the tests below (else they would test nothing)."""
    for number, cap, verdict in ((WON, WON_CAP, "solved"), (LOST, LOST_CAP, "unsolvable")):
        position = Position.deal(FLOWER, number)
        assert search_deal(position, frontier=True, max_positions=cap).status == "unknown"
        assert search_deal(position, frontier=False, max_positions=cap).status == verdict
        last = Position.deal(LAST, number)
        assert search_deal(last, frontier=False, max_positions=cap).status == verdict


def test_a_study_counts_a_first_deal_won_when_the_frontier_is_cut() -> None:
    tally = _Tally()
    stop = _choose(_evaluator(FLOWER, WON_CAP), Position.deal(FLOWER, WON), tally)
    assert tally.first is True and tally.unknown == 0
    assert sum(stop.foundations) == 52 and stop.reached().is_won  # and plays the win


def test_a_study_counts_a_first_deal_lost_when_the_frontier_is_cut() -> None:
    tally = _Tally()
    stop = _choose(_evaluator(FLOWER, LOST_CAP), Position.deal(FLOWER, LOST), tally)
    assert tally.first is False
    # the verdict is known, but where to stop rests on the frontier that was
    # cut (redeals are to come): the game counts as undecided by a budget
    assert (tally.unknown, tally.score_capped) == (1, 0)
    assert sum(stop.foundations) < 52


def test_odds_of_a_deal_the_verdict_clears() -> None:
    odds = estimate_odds(Position.deal(FLOWER, WON), samples=3, seed=1,
                         cache=ValueCache(None), max_positions=WON_CAP)
    assert (odds.win_rate, odds.ci95, odds.samples) == (1.0, (1.0, 1.0), 0)
    assert not odds.budget_ran_out and odds.searches_cut >= 1


def test_odds_in_a_last_deal_settle_the_verdict_first() -> None:
    won = estimate_odds(Position.deal(LAST, WON), samples=3, cache=ValueCache(None),
                        max_positions=WON_CAP)
    assert (won.win_rate, won.ci95, won.samples, won.budget_ran_out) == \
        (1.0, (1.0, 1.0), 0, False)
    lost = estimate_odds(Position.deal(LAST, LOST), samples=3, cache=ValueCache(None),
                         max_positions=LOST_CAP)
    # lost for certain, whatever became of the search for the best score
    assert (lost.win_rate, lost.ci95, lost.samples) == (0.0, (0.0, 0.0), 0)
    assert lost.mean_score is not None and lost.mean_score >= Position.deal(LAST, LOST).score


def test_odds_in_a_last_deal_the_budget_leaves_undecided() -> None:
    """Shamrocks deal 9 under 300 positions: nothing settled, and said so."""
    shamrocks = Position.deal(Rules.parse("shamrocks"), 9)
    odds = estimate_odds(shamrocks, samples=3, cache=ValueCache(None), max_positions=300)
    assert odds.budget_ran_out and odds.samples == 0 and odds.ci95 == (0.0, 1.0)
    assert (odds.searches, odds.searches_cut) == (1, 1)  # the verdict, cut: nothing more
