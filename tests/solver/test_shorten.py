"""Shortcuts in the solver's lines (lucie.solver.shortcuts)."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lucie.engine import REDEAL, Game, Move, Position
from lucie.rules import Rules
from lucie.solver import solve_deal
from lucie.solver.shortcuts import SHORTCUT_NODES, shortcut_nodes, shorten_line


def replay(position: Position, moves: tuple[Move, ...] | list[Move]) -> Position:
    """Play ``moves`` through the engine, each one checked."""
    for move in moves:
        position = position.play(move)
    return position


def random_walk(position: Position, rng: random.Random, length: int) -> list[Move]:
    """Legal moves at random (no redeal), with a bias to undo the last
    build, so that the walk comes back on itself as the solver's do."""
    moves: list[Move] = []
    for _ in range(length):
        legal = [m for m in position.legal_moves() if m != REDEAL]
        if not legal:
            break
        move = rng.choice(legal)
        moves.append(move)
        position = position.apply(move)
    return moves


class TestShortenLine:
    @settings(max_examples=60, deadline=None)
    @given(spec=st.sampled_from(["shamrocks", "flower", "alternate", "classic",
                                 "merci,redeals=0", "reserve", "fan"]),
           deal=st.integers(1, 10**6), seed=st.integers(0, 10**6),
           length=st.integers(0, 120))
    def test_same_end_never_longer(self, spec: str, deal: int, seed: int,
                                   length: int) -> None:
        """Any line of legal moves: the shortened one is legal, ends at
        exactly the same position (fan order, cells, the merci included) and
        is no longer."""
        start = Position.deal(Rules.parse(spec), deal)
        line = random_walk(start, random.Random(seed), length)
        short = shorten_line(start, line)
        assert len(short) <= len(line)
        end, got = replay(start, line), replay(start, short)
        assert got == end and got.fans == end.fans and got.cells == end.cells

    def test_a_loop_is_cut_out(self) -> None:
        """A card laid somewhere and taken back, then a move home: the
        shortened line is the move home alone."""
        rules = Rules.parse("shamrocks")
        for deal in range(1, 50):
            start = Position.deal(rules, deal)
            home = [m for m in start.legal_moves() if m.dst_kind == "foundation"]
            for there in start.legal_moves():
                if there.dst_kind != "fan" or not home:
                    continue
                after = start.apply(there)
                back = [m for m in after.legal_moves() if after.apply(m) == start]
                if back:
                    assert shorten_line(start, [there, back[0], home[0]]) == (home[0],)
                    return
        raise AssertionError("no deal of 1-49 has a move that can be taken back")

    def test_the_solver_lines_that_wander(self) -> None:
        """Shamrocks deal 55: the walk's win is 1,270 moves, most of them
        cards carried back and forth; with shortcuts it is a sixth of that,
        and still wins."""
        rules = Rules.parse("shamrocks")
        start = Position.deal(rules, 55)
        raw = solve_deal(start, frontier=False, shorten=False)
        short = solve_deal(start, frontier=False)
        assert raw.status == short.status == "solved"
        assert len(short.moves) * 5 < len(raw.moves)
        game = Game(rules, 55)
        game.push_all(short.moves)
        assert game.position.is_won

    def test_suit_down_lines_are_left_alone(self) -> None:
        assert shortcut_nodes(Rules()) == 0 and shortcut_nodes(Rules.parse("reserve")) == 1
        assert shortcut_nodes(Rules.parse("shamrocks")) == SHORTCUT_NODES
        assert shortcut_nodes(Rules.parse("alternate")) == SHORTCUT_NODES
        for deal in range(1, 40):
            start = Position.deal(Rules(), deal)
            a = solve_deal(start)
            b = solve_deal(start, shorten=False)
            assert a.reachable == b.reachable

    def test_a_deadline_keeps_the_rest_of_the_line(self) -> None:
        start = Position.deal(Rules.parse("shamrocks"), 1)
        line = solve_deal(start, frontier=False, shorten=False).moves
        assert shorten_line(start, line, deadline=time.monotonic() - 1) == line


def round_trips(position: Position, moves: tuple[Move, ...] | list[Move]) -> list[str]:
    """The round trips of a line that nothing needed: a card that the next
    move of it brings back to where it was, where the moves in between,
    played without the pair (each checked by the engine), reach the same
    position."""
    states = [position]
    for move in moves:
        states.append(states[-1].play(move))
    found = []
    for i, move in enumerate(moves):
        card = states[i].moving_card(move)
        assert card is not None
        j = next((k for k in range(i + 1, len(moves))
                  if states[k].moving_card(moves[k]) == card), None)
        if j is None or states[j + 1].where(card) != states[i].where(card):
            continue
        here: Position | None = states[i]
        for between in moves[i + 1:j]:
            assert here is not None
            here = here.play(between) if here.why_illegal(between) is None else None
            if here is None:
                break
        if here == states[j + 1]:
            found.append(f"{i + 1}:{move} {j + 1}:{moves[j]}")
    return found


def test_round_trips_are_found() -> None:
    """The checker below finds round trips, nested ones too, and only
    those; the solver's shortener drops them."""
    start = Position.deal(Rules.parse("reserve"), 5)
    line = [Move.parse(m) for m in ("d>1", "e>2", "2>E", "1>D")]
    found = round_trips(start, line)
    assert found == [f"1:{line[0]} 4:{line[3]}", f"2:{line[1]} 3:{line[2]}"]
    from lucie.solver.shortcuts import drop_round_trips

    assert drop_round_trips(start, line) == ()
    # the four of hearts waits in a cell while the five below it goes onto
    # the six, then follows it there: not where it was, no round trip
    onward = [Move.parse(m) for m in ("e>2", "e>K", "2>K")]
    assert replay(start, onward) and round_trips(start, onward) == []
    assert drop_round_trips(start, onward) == tuple(onward)


@pytest.mark.slow
def test_no_solver_or_hint_line_makes_a_round_trip() -> None:
    """Fan with reserve, deals 1-40: neither the solver's winning line
    (``lucie solve``, a budget of positions) nor the line the hints follow
    through the first deal parks a card and brings it back for nothing
    (reserve deal 4 did: hints 61 ``d>2`` and 71 ``2>d``).  Every search
    here finishes (the hints' time budget is only a ceiling, far above
    what they take: each hint must say its search was complete)."""
    from lucie.analysis.cache import ValueCache
    from lucie.analysis.hints import hint

    rules = Rules.parse("reserve")
    bad: dict[str, list[str]] = {}
    for number in range(1, 41):
        start = Position.deal(rules, number)
        result = solve_deal(start, frontier=False, max_nodes=200_000)
        assert result.status == "solved", number
        if trips := round_trips(start, result.moves):
            bad[f"solve {number}"] = trips
        game = Game(rules, number)
        hinted: list[Move] = []
        while True:
            advice = hint(game.position, max_seconds=60.0, cache=ValueCache(None))
            assert not advice.budget_ran_out
            if advice.move is None or advice.move == REDEAL:
                break
            hinted.append(advice.move)
            game.push(advice.move)
        if trips := round_trips(start, hinted):
            bad[f"hints {number}"] = trips
    assert bad == {}
