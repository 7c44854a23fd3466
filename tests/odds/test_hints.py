"""Hint kinds on small constructed positions."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lucie.analysis.cache import ValueCache
from lucie.analysis.hints import KINDS, Hint, hint
from lucie.cards import Card, card_label
from lucie.engine import REDEAL, Game, Move, Position
from lucie.formats import parse_layout
from lucie.rules import Rules
from lucie.solver import solve_deal

#: the ``count_searches`` fixture (conftest.py)
CountSearches = Callable[..., list[dict[str, Any]]]


def layout(text: str, spec: str = "classic", redeals_left: int = 0,
           merci_used: bool = False) -> Position:
    rules = Rules.parse(spec)
    p = parse_layout(text, rules)
    return Position(rules, p.fans, p.foundations, p.cells, redeals_left, merci_used)


def ask(position: Position) -> Hint:
    got = hint(position, max_seconds=10.0, cache=ValueCache(None))
    assert got.kind in KINDS
    assert got.move is None or position.is_legal(got.move)
    return got


# hearts home to 6, spades to 10; clubs and diamonds complete
FOUND = "Foundations: C-K D-K H-6 S-T\n"


def test_won() -> None:
    rules = Rules()
    p = Position(rules, ((),) * rules.num_fans, (13, 13, 13, 13), (), 0, False)
    got = ask(p)
    assert (got.kind, got.move, got.clears) == ("won", None, True)


def test_foundation() -> None:
    p = layout("Foundations: C-K D-K H-6 S-K\nKH QH JH TH 9H 8H 7H\n")
    got = ask(p)
    assert got.kind == "foundation"
    assert got.move == Move.parse("a>f")
    assert "7♥" in got.text and "7H" not in got.text


def test_unblock_names_the_freed_card() -> None:
    # 8H onto 9H (which lies on KH: not provably safe) frees QS, which then
    # goes onto KS and frees 7H.
    p = layout(FOUND + "KH 9H\n7H QS 8H\nJS KS\nTH QH JH\n", redeals_left=1)
    got = ask(p)
    assert got.kind == "unblock", got
    assert got.move == Move.parse("b>a")
    assert "free Q♠" in got.text


def test_safe_build_says_why() -> None:
    # the same, but 9H is alone in its fan: covering it can never hurt
    p = layout(FOUND + "9H\n7H QS 8H\nJS KS\nKH TH QH JH\n", redeals_left=1)
    got = ask(p)
    assert got.kind == "safe-build", got
    assert got.move == Move.parse("b>a")
    assert "safe" in got.text and "alone" in got.text
    assert "Q♠" in got.text and "QS" not in got.text


def test_build_onto_a_run_is_not_called_safe_with_cells() -> None:
    # with free cells covering a card can hurt (it could have gone to a cell)
    text = FOUND + "KH 9H\n7H QS 8H\nJS KS\nTH QH JH\nCells: - - - -\n"
    p = layout(text, spec="reserve", redeals_left=1)
    got = ask(p)
    assert got.kind != "safe-build"


def test_redeal_when_no_move_is_left() -> None:
    p = layout(FOUND + "7H 9H 8H\nQH TH JH\nKH\nJS QS KS\n", redeals_left=1)
    assert p.legal_moves() == [REDEAL]
    got = ask(p)
    assert (got.kind, got.move) == ("redeal", REDEAL)


def test_no_useful_move() -> None:
    # QS onto KS is legal but no card can come home this deal
    p = layout(FOUND + "7H 9H 8H\nQH TH JH\nKH\nJS KS\nQS\n", redeals_left=1)
    assert len(p.legal_moves()) > 1
    got = ask(p)
    assert (got.kind, got.move) == ("no-useful-move", REDEAL)
    assert got.text.startswith("no useful move left: redeal")


def test_merci_names_the_card() -> None:
    p = layout("Foundations: C-K D-K H-6 S-K\n7H 9H 8H\nKH QH JH TH\n", spec="merci")
    assert p.merci_available
    got = ask(p)
    assert got.kind == "merci"
    assert got.move is not None and got.move.card_source is not None
    card = got.move.card_source
    assert card in (Card.parse("7H"), Card.parse("9H"))
    assert card_label(card) in got.text and str(card) not in got.text


def test_lost_without_the_merci() -> None:
    p = layout("Foundations: C-K D-K H-6 S-K\n7H 9H 8H\nKH QH JH TH\n")
    got = ask(p)
    assert got.kind == "lost" and got.clears is False
    assert "can no longer be won" in got.text


def test_lost_still_raises_the_score() -> None:
    # JS can go home (one more card), but TH stays buried under KH forever
    p = layout("Foundations: C-K D-K H-6 S-T\nTH KH\nJS\n7H 8H 9H\nQS KS QH JH\n")
    got = ask(p)
    assert got.kind == "lost"
    assert got.move is not None


def test_budget_fallback_is_said() -> None:
    # a full deal the search cannot finish in the budget (any-suit builds):
    # still a legal move, and the text says so
    p = Position.deal(Rules.parse("flower"), 5)
    got = hint(p, max_seconds=0.2, cache=ValueCache(None))
    assert got.move is not None and p.is_legal(got.move)
    assert "time budget" in got.text


def test_following_the_hints_of_a_won_last_deal(count_searches: CountSearches) -> None:
    """In a last deal the hints follow one exact line: played move by move
    they clear a clearable deal, and after the first hint none needs a search."""
    rules = Rules.parse("fan")
    deal = next(n for n in range(1, 50)
                if solve_deal(Position.deal(rules, n), frontier=False).status == "solved")
    game = Game(rules, deal)
    calls = count_searches()
    while not game.position.is_won:
        got = hint(game.position, max_seconds=10.0, cache=ValueCache(None))
        assert got.move is not None and got.kind != "lost", got
        assert got.clears is True
        game.push(got.move)
    assert len(calls) <= 1 and len(game.moves) > 20


def test_following_the_hints_of_a_lost_last_deal(count_searches: CountSearches) -> None:
    """A lost last deal: every hint says so, and following them reaches the
    best score the solver finds, with one search (verdict, then the score)."""
    rules = Rules.parse("noredeal")
    deal = next(n for n in range(1, 50)
                if solve_deal(Position.deal(rules, n)).best_score >= 10)
    best = solve_deal(Position.deal(rules, deal)).best_score
    game = Game(rules, deal)
    calls = count_searches()
    while True:
        got = hint(game.position, max_seconds=10.0, cache=ValueCache(None))
        assert got.kind == "lost" and got.clears is False, got
        if got.move is None:
            break
        game.push(got.move)
    assert sum(game.position.foundations) == best
    assert len(calls) <= 3  # two at the start, one at the end (nothing left to follow)


def _last_deal(rules: Rules, deal: int) -> Position:
    p = Position.deal(rules, deal)
    return Position(rules, p.fans, p.foundations, p.cells, 0, False)


def test_following_the_hints_of_a_merci_last_deal(count_searches: CountSearches) -> None:
    """With the merci to come the last deal is still judged by win or score
    alone, so the hints follow one exact line, the merci on the way: a deal
    that only the merci clears is cleared with one search."""
    rules = Rules.parse("merci")
    plain = Rules.parse("noredeal")

    def needs_merci(n: int) -> bool:
        with_merci = solve_deal(_last_deal(rules, n), frontier=False, max_seconds=1.0)
        if with_merci.status != "solved":
            return False
        without = solve_deal(_last_deal(plain, n), frontier=False, max_seconds=1.0)
        return without.status == "unsolvable"

    deal = next(n for n in range(1, 200) if needs_merci(n))
    position = _last_deal(rules, deal)
    calls = count_searches()
    kinds = []
    while not position.is_won:
        got = hint(position, max_seconds=10.0, cache=ValueCache(None))
        assert got.move is not None and got.kind != "lost" and got.clears is True, got
        kinds.append(got.kind)
        position = position.apply(got.move)
    assert kinds.count("merci") == 1
    assert len(calls) == 1


def test_a_cut_short_line_is_followed(count_searches: CountSearches) -> None:
    """When the search of a last deal runs out of time, the next hints follow
    the line it found (and say so) instead of searching the deal again."""
    rules = Rules.parse("alternate")
    # a last deal whose verdict takes more than 50,000 positions (the order
    # caps settle flower deal 5, used before, at its first position)
    number = next(n for n in range(1, 41) if solve_deal(
        _last_deal(rules, n), frontier=False, max_nodes=50_000).status == "unknown")
    position = _last_deal(rules, number)
    first = hint(position, max_seconds=0.2, cache=ValueCache(None))
    assert "time budget ran out: best move found so far" in first.text
    assert first.move is not None and first.clears is None
    calls = count_searches()
    position = position.apply(first.move)
    second = hint(position, max_seconds=0.2, cache=ValueCache(None))
    assert calls == []
    assert second.move is not None and position.is_legal(second.move)
    assert "the line found before the time budget ran out" in second.text
    assert second.clears is None


def test_a_lost_verdict_holds_along_a_cut_short_line(count_searches: CountSearches) -> None:
    """A last deal whose verdict proves it lost, while the best-score search
    after it is cut short: the hints that follow the line it left still say
    the deal cannot be cleared (not "unknown")."""
    rules = Rules.parse("noredeal")
    number = next(n for n in range(1, 50)
                  if solve_deal(Position.deal(rules, n)).best_score >= 10)

    def starve(kwargs: dict[str, Any]) -> None:
        # the best-score (frontier) search gets too few nodes to finish
        if kwargs.get("frontier", True):
            kwargs["max_nodes"] = 5

    calls = count_searches(starve)
    position = Position.deal(rules, number)
    first = hint(position, max_seconds=10.0, cache=ValueCache(None))
    # the verdict, then the starved search
    assert [c.get("frontier", True) for c in calls] == [False, True]
    assert first.budget_ran_out and first.move is not None and first.clears is False
    calls.clear()
    position = position.apply(first.move)
    second = hint(position, max_seconds=10.0, cache=ValueCache(None))
    assert calls == []  # it follows the line
    assert "the line found before the time budget ran out" in second.text
    assert second.move is not None and second.clears is False


def test_following_the_hints_of_a_first_deal_that_clears(
    count_searches: CountSearches,
) -> None:
    """Two redeals to come, and the first deal can be cleared: one search,
    then the hints follow its line to the win (no value is sampled)."""
    rules = Rules.parse("classic")
    deal = next(n for n in range(1, 300)
                if solve_deal(Position.deal(rules, n), frontier=False).status == "solved")
    game = Game(rules, deal)
    assert game.position.redeals_left == 2
    calls = count_searches()
    while not game.position.is_won:
        got = hint(game.position, max_seconds=10.0, cache=ValueCache(None), tell_clears=True)
        assert got.move is not None and got.move != REDEAL, got
        assert got.text.endswith("(this deal can be cleared)"), got
        assert got.clears is True
        game.push(got.move)
    assert len(calls) == 1


def test_following_the_hints_of_a_first_deal_then_redeal(
    count_searches: CountSearches,
) -> None:
    """A first deal that cannot be cleared: the hints follow the line of the
    first search to its stop, where a second search says to redeal."""
    rules = Rules.parse("classic")

    def one_stop(n: int) -> bool:
        result = solve_deal(Position.deal(rules, n))
        return len(result.reachable) == 1 and result.best_score >= 8

    deal = next(n for n in range(1, 50) if one_stop(n))
    game = Game(rules, deal)
    calls = count_searches()
    kinds = []
    while True:
        got = hint(game.position, max_seconds=10.0, cache=ValueCache(None))
        assert got.move is not None and got.clears is False, got
        kinds.append(got.kind)
        if got.move == REDEAL:
            break
        game.push(got.move)
    assert game.position.redeals_left == 2 and len(kinds) > 8
    assert kinds[-1] in ("redeal", "no-useful-move")
    assert len(calls) == 2


def test_a_last_deal_search_has_the_whole_budget(count_searches: CountSearches) -> None:
    """No value is sampled in a last deal, so its search gets the whole
    budget; a verdict cut short is the hint (its best line so far), with no
    second search in the time left."""
    seen = count_searches()
    got = hint(_last_deal(Rules.parse("shamrocks"), 5), max_seconds=0.3,
               cache=ValueCache(None))
    assert got.budget_ran_out and got.move is not None and got.clears is None
    assert len(seen) == 1 and not seen[0]["frontier"] and seen[0]["max_seconds"] > 0.25
    seen.clear()
    hint(Position.deal(Rules.parse("flower"), 1), max_seconds=0.3, cache=ValueCache(None))
    assert seen and seen[0]["max_seconds"] <= 0.15  # two redeals to come: half for the values


def test_clears_is_the_exact_verdict_of_the_deal_in_play() -> None:
    """A hint says whether the deal in play can be cleared without a redeal:
    on classic first deals (two redeals to come) it agrees with the exact
    verdict, both ways, and says so in its JSON."""
    rules = Rules.parse("classic")
    seen: set[bool] = set()
    for number in range(1, 40):
        position = Position.deal(rules, number)
        verdict = solve_deal(position, frontier=False).solvable
        got = hint(position, max_seconds=10.0, cache=ValueCache(None))
        assert got.clears is verdict, number
        assert got.to_json()["clears"] is verdict
        seen.add(bool(verdict))
        if seen == {True, False} and number >= 10:
            break
    assert seen == {True, False}


def test_a_hint_keeps_the_difficulty_unless_asked() -> None:
    """Noredeal deal 13 can be cleared, and its hints find the win: the
    text says so only when asked (the screens tell the difficulty at the
    end, never during the game); ``clears`` keeps it for programs."""
    from lucie.i18n import using

    position = Position.deal(Rules.parse("noredeal"), 13)
    with using("en"):
        quiet = hint(position, max_seconds=10.0, cache=ValueCache(None))
        told = hint(position, max_seconds=10.0, cache=ValueCache(None), tell_clears=True)
        assert quiet.move is not None
        later = hint(position.apply(quiet.move), max_seconds=10.0, cache=ValueCache(None))
    assert quiet.clears is True and quiet.move == told.move
    assert "cleared" not in quiet.text and "cleared" not in later.text, (quiet, later)
    assert told.text == quiet.text + " (this deal can be cleared)"
