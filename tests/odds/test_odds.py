"""The odds estimator against exact values and against real playouts."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

from lucie.analysis.cache import ValueCache
from lucie.analysis.odds import (
    Evaluator,
    RandomShuffler,
    canonical,
    estimate_odds,
    fresh_deal,
    wilson,
)
from lucie.cards import DECK
from lucie.deals import Shuffler
from lucie.engine import REDEAL, Game, Position
from lucie.errors import LucieError
from lucie.formats import parse_layout
from lucie.rules import Rules

sys.path.insert(0, str(Path(__file__).parent))
from brute import brute_frontier


class FixedOrder(Shuffler):
    """Puts the gathered pile in a given order (every order, one by one)."""

    __slots__ = ("order",)

    def __init__(self, order: tuple[int, ...]) -> None:
        self.order = list(order)

    def shuffle(self, items: list[int]) -> list[int]:
        items[:] = self.order
        return items


def exact_value(position: Position) -> float:
    """The optimal win probability, by brute force: every stop state of
    this deal, every order of the redealt cards (the engine's redeal)."""
    result = brute_frontier(position)
    if result.status == "solved":
        return 1.0
    if position.redeals_left == 0:
        return 0.0
    best = 0.0
    for reach in result.reachable:
        stop = position
        for move in reach.moves:
            stop = stop.apply(move)
        pile = [int(c) for c in stop.gather()]
        values = [exact_value(stop.redeal(FixedOrder(order)))
                  for order in itertools.permutations(pile)]
        best = max(best, sum(values) / len(values))
    return best


def layout(text: str, spec: str) -> Position:
    return parse_layout(text, Rules.parse(spec))


TINY = [
    # alternate colours: two stop states whose next deals differ (0.417 / 0.458)
    ("alternate", "Foundations: C-Q D-J H-K S-T\nRedeals: 1\nKC QS\nJS KS QD\nKD\n"),
    # two redeals left, five cards
    ("classic", "Foundations: C-J D-K H-Q S-J\nQS KS\nKC\nKH QC\n"),
    # the merci in the last deal
    ("merci", "Foundations: C-8 D-K H-K S-Q\nRedeals: 1\nKS QC\n9C JC KC\nTC\n"),
]


@pytest.mark.parametrize(("spec", "text"), TINY)
def test_interval_contains_the_enumerated_value(spec: str, text: str) -> None:
    position = layout(text, spec)
    exact = exact_value(position)
    assert 0.1 < exact < 0.9
    odds = estimate_odds(position, samples=800, seed=7, cache=ValueCache(None))
    low, high = odds.ci95
    assert low <= exact <= high, (exact, odds)
    assert odds.samples == 800
    assert odds.mean_score is not None and position.score <= odds.mean_score <= 52


def test_sampled_values_also_cover_the_exact_value() -> None:
    # no exact enumeration inside the estimator: the values are sampled
    spec, text = TINY[0]
    position = layout(text, spec)
    exact = exact_value(position)
    odds = estimate_odds(position, samples=400, seed=3, cache=ValueCache(None),
                         exact_cards=0, target=64)
    assert odds.ci95[0] <= exact <= odds.ci95[1], (exact, odds)


def test_evaluator_exact_values_match_the_enumeration() -> None:
    # W of a between-deal state equals the mean over every deal of the cards left
    rules = Rules()
    found = (13, 11, 12, 13)
    ev = Evaluator(rules, ValueCache(None), exact_cards=5)
    pile = [int(c) for c in DECK if c.rank > found[c.suit_index]]
    values = []
    for order in itertools.permutations(pile):
        deal = fresh_deal(rules, found, 1, False, FixedOrder(order))
        values.append(exact_value(deal))
    assert ev.value(found, 1, False) == pytest.approx(sum(values) / len(values))


def test_estimate_agrees_with_real_playouts() -> None:
    """Real games (the engine's Game, PySolFC redeals from many seeds) played
    with the same policy win at a rate inside the estimate's interval."""
    rules = Rules()
    found = (9, 10, 8, 11)  # 14 cards left
    start = fresh_deal(rules, found, 1, False, RandomShuffler(random.Random(5)))
    cache = ValueCache(None)
    odds = estimate_odds(start, samples=300, seed=2, cache=cache)
    ev = Evaluator(rules, cache, rng=random.Random(9))
    wins = 0
    games = 600
    for seed in range(1, games + 1):
        game = Game(rules, position=start, seed=seed)
        while True:
            position = game.position
            stop = ev.choose(position, ev.solve(position))
            for move in stop.moves:
                game.push(move)
            if game.position.is_won or game.position.redeals_left == 0:
                break
            game.push(REDEAL)
        wins += game.position.is_won
    rate = wins / games
    assert 0.05 < odds.win_rate < 0.95, odds  # a position where chance matters
    assert odds.ci95[0] <= rate <= odds.ci95[1], (rate, odds)


def test_exact_answers_without_sampling() -> None:
    rules = Rules()
    p = Position(rules, ((),) * rules.num_fans, (13, 13, 13, 13), (), 0, False)
    assert estimate_odds(p) .ci95 == (1.0, 1.0)
    lost = layout("Foundations: C-K D-K H-6 S-K\n7H 9H 8H\nKH QH JH TH\nRedeals: 0\n",
                  "classic")
    odds = estimate_odds(lost, cache=ValueCache(None))
    assert (odds.win_rate, odds.ci95, odds.samples) == (0.0, (0.0, 0.0), 0)


def test_bad_arguments() -> None:
    p = Position.deal(Rules(), 1)
    with pytest.raises(LucieError, match="samples"):
        estimate_odds(p, samples=0)
    strict = Position.deal(Rules(redeal_only_when_stuck=True), 1)
    with pytest.raises(LucieError, match="redeal_only_when_stuck"):
        estimate_odds(strict)


def test_canonical_respects_the_rules() -> None:
    assert canonical((1, 2, 3, 4), Rules()) == canonical((4, 3, 2, 1), Rules())
    alt = Rules(build="alternate")
    # swapping the two black suits keeps the value; a black/red swap alone does not
    assert canonical((1, 2, 3, 4), alt) == canonical((4, 2, 3, 1), alt)
    assert canonical((1, 2, 3, 4), alt) != canonical((2, 1, 3, 4), alt)


def test_wilson_covers_the_truth_about_95_percent() -> None:
    rng = random.Random(1)
    p = 0.13
    hits = 0
    for _ in range(400):
        wins = sum(rng.random() < p for _ in range(200))
        low, high = wilson(wins, 200)
        hits += low <= p <= high
    assert 0.90 <= hits / 400 <= 0.99
