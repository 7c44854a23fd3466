"""The Solvitaire comparison's conversion (``benchmarks/bench_solvitaire.py``):
lucie's deals and rules written as Solvitaire's JSON deal and custom rules,
and its output read back.  Solvitaire itself is not needed here."""

from __future__ import annotations

import json

import bench_solvitaire as bench  # benchmarks/, on the path (pyproject: pythonpath)
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lucie.cards import Card
from lucie.engine import Position
from lucie.rules import VARIANTS, Rules

_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def _card(name: str) -> Card:
    """A Solvitaire card name read back (independently of the code under test)."""
    rank, suit = name[:-1], name[-1]
    return Card.of(_RANKS.get(rank) or int(rank), suit)


def test_card_names_are_solvitaires() -> None:
    names = {bench.card_name(Card(i)) for i in range(52)}
    assert len(names) == 52
    assert {"AC", "10D", "JH", "QS", "KC", "2D"} <= names
    # Solvitaire's deal schema: ranks 1-13 or a/j/q/k, then a suit letter
    pattern = r"^(([0-9]|1[0-3]|a|A|j|J|q|Q|k|K)(c|C|d|D|h|H|s|S))$"
    import re
    assert all(re.match(pattern, n) for n in names)
    assert all(_card(bench.card_name(Card(i))) == Card(i) for i in range(52))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(sorted(VARIANTS)), st.integers(1, 10**6))
def test_deal_holds_every_card_once_in_order(name: str, number: int) -> None:
    rules = VARIANTS[name].rules
    position = Position.deal(rules, number)
    deal = bench.solvitaire_deal(position)
    assert json.loads(json.dumps(deal)) == deal
    piles = deal["tableau piles"]
    assert [[_card(n) for n in pile] for pile in piles] == [list(f) for f in position.fans]
    home = [_card(n) for n in deal.get("foundations", [])]
    assert len(home) == sum(position.foundations)
    assert sorted(home + [c for f in position.fans for c in f]) == [Card(i) for i in range(52)]
    # each suit's cards home from the ace up, as Solvitaire stacks them
    for suit in "CDHS":
        ranks = [c.rank for c in home if c.suit == suit]
        assert ranks == list(range(1, len(ranks) + 1))


def test_trefoil_starts_with_the_aces_home() -> None:
    deal = bench.solvitaire_deal(Position.deal(Rules.parse("trefoil"), 3))
    assert sorted(deal["foundations"]) == ["AC", "AD", "AH", "AS"]
    assert len(deal["tableau piles"]) == 16


@pytest.mark.parametrize(("spec", "build", "spaces", "cells"), [
    ("classic", "same-suit", "no-build", 0),
    ("noredeal", "same-suit", "no-build", 0),
    ("fan", "same-suit", "kings", 0),
    ("reserve", "same-suit", "no-build", 4),
    ("flower", "any-suit", "no-build", 0),
    ("alternate", "red-black", "no-build", 0),
    ("classic,empty_fill=any", "same-suit", "any", 0),
])
def test_rules(spec: str, build: str, spaces: str, cells: int) -> None:
    rules = Rules.parse(spec)
    custom = bench.solvitaire_rules(rules)
    tableau = custom["tableau piles"]
    assert tableau["count"] == rules.num_fans
    assert (tableau["build policy"], tableau["spaces policy"]) == (build, spaces)
    assert tableau["move built group"] == "no"  # one card at a time
    assert custom["foundations"]["removable"] is False
    assert custom["cells"]["count"] == cells
    assert custom["stock"]["size"] == 0 and custom["reserve"]["size"] == 0


@pytest.mark.parametrize("spec", ["shamrocks", "shamrocks2", "classic,direction=updown",
                                  "classic,max_fan=5", "classic,foundation_takeback=on"])
def test_what_solvitaire_cannot_say_is_refused(spec: str) -> None:
    with pytest.raises(bench.UnsupportedError):
        bench.solvitaire_rules(Rules.parse(spec))


def test_a_merci_to_come_is_refused() -> None:
    position = Position.deal(Rules.parse("merci,redeals=0"), 1)
    assert position.merci_available
    with pytest.raises(bench.UnsupportedError):
        bench.solvitaire_deal(position)


SOLVED = """Solution:
...
Solution Type: solved
States Searched: 12
Time Taken (milliseconds): 1234
"""


@pytest.mark.parametrize(("text", "expected"), [
    (SOLVED, ("solved", 1.234)),
    ("Deal:\n...\nSolution Type: unsolvable\nTime Taken (milliseconds): 0\n", ("unsolvable", 0.0)),
    ("Solution Type: timed-out\nTime Taken (milliseconds): 60001\n", ("unknown", 60.001)),
    ("Solution Type: memory-limit-reached\nTime Taken (milliseconds): 7\n", ("unknown", 0.007)),
    ("terminate called after throwing an instance of 'std::bad_alloc'\n", ("unknown", None)),
])
def test_output(text: str, expected: tuple[str, float | None]) -> None:
    assert bench.parse_output(text) == expected


def test_plan() -> None:
    assert bench.parse_plan(bench.DEFAULT_PLAN)[0] == ("noredeal", range(1, 201))
    with pytest.raises(ValueError, match="expected VARIANT"):
        bench.parse_plan("fan")
    with pytest.raises(ValueError, match="1 <= N <= M"):
        bench.parse_plan("fan:5-2")


def test_comparison_counts_and_disagreements() -> None:
    run = bench.Run
    c = bench.Comparison("fan", range(1, 5))
    c.solvitaire = [run("solved", 0.1), run("unknown", 60), run("unsolvable", 0.2),
                    run("solved", 1.0)]
    c.lucie = [run("solved", 0.01), run("unsolvable", 0.5), run("unknown", 60),
               run("unsolvable", 2.0)]
    assert c.counts(c.solvitaire) == "2/1/1"
    assert c.counts(c.lucie) == "1/2/1"
    assert c.disagreements() == [4]
    assert c.only("lucie") == [2]
    assert c.only("solvitaire") == [3]
    assert "disagree 1" in c.line()


def test_without_the_binary_it_says_how_to_get_it(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOLVITAIRE", raising=False)
    bench.main()
    assert "SOLVITAIRE is not set" in capsys.readouterr().out
