"""The one-deal solver against an independent brute force, on every variant.

The reference (``solver_reference.py``) walks ``Position.legal_moves()``
with a memo and nothing else; the fast solver must give the same verdict
and exactly the same non-dominated foundation states, and every line it
returns must replay through the engine to the state it claims.
"""

from __future__ import annotations

import gc
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lucie.cards import Card
from lucie.engine import Game, Move, Position
from lucie.rules import VARIANTS, Rules
from lucie.solver import (
    DEFAULT_MAX_POSITIONS,
    DealResult,
    RawResult,
    reach_position,
    search_deal,
    solve_deal,
    to_engine_moves,
)
from lucie.solver.caps_merci import merci_reach_caps
from lucie.solver.caps_reach import home_caps, reach_caps, reach_states
from lucie.solver.caps_room import room_caps
from lucie.solver.encoding import decode_fan, encode_fan
from lucie.solver.move_order import wanted_first
from lucie.solver.restarts import RESTART_NODES
from lucie.solver.tables import tables

sys.path.insert(0, str(Path(__file__).parent))
from dead_cards import stuck_caps
from solver_reference import Found, endgame, pareto, reachable_foundations

#: Every named variant plus the settings no named variant uses.
SPECS = [
    *VARIANTS,
    "classic,foundation_takeback=on",
    "fan,foundation_takeback=on",
    "classic,empty_fill=king",
    "classic,empty_fill=any",
    "classic,direction=updown",
    "alternate,direction=updown",
    "classic,max_fan=3",
    "alternate,max_fan=4",
    "flower,cells=2",
    "classic,cells=1,empty_fill=king",
    "merci,redeal_only_when_stuck=on",
    "shamrocks,merci=on",
    "alternate,merci=on,cells=1",
]

#: The specs whose walks restart: builds other than suit-down (no build is
#: safe), and any build with cells (a card may always go to a cell).
UNSAFE_BUILDS = [
    s for s in SPECS
    if not Rules.parse(s).suit_down
    or Rules.parse(s).cells > 0
]


def check_lines(position: Position, result: DealResult) -> None:
    """Every returned line replays to the foundations it claims."""
    for reach in result.reachable:
        p = position
        for move in reach.moves:
            p = p.play(move)
        assert p.foundations == reach.foundations
    if result.status == "solved":
        assert result.reachable[0].moves == result.moves
        assert result.best_score == 52


def check_against_reference(position: Position, limit: int = 4000,
                            restart_nodes: int | None = RESTART_NODES,
                            *, sampled: bool = True) -> None:
    """The solver against the brute force (``sampled``: in a Hypothesis
    test, which skips a position the brute force cannot finish)."""
    ref = reachable_foundations(position, limit=limit)
    if sampled:
        assume(ref is not None)
    assert ref is not None
    win = (13, 13, 13, 13) in ref
    result = solve_deal(position, restart_nodes=restart_nodes)
    assert result.status == ("solved" if win else "unsolvable"), str(position)
    got = {r.foundations for r in result.reachable}
    assert got == pareto(ref), str(position)
    assert len(got) == len(result.reachable)
    check_lines(position, result)
    quick = solve_deal(position, frontier=False, restart_nodes=restart_nodes)
    assert quick.status == result.status
    check_lines(position, quick)
    best = max(map(sum, ref))
    check_raw(position, search_deal(position, restart_nodes=restart_nodes), best)
    check_raw(position, search_deal(position, best_only=True, restart_nodes=restart_nodes),
              best)


def check_raw(position: Position, raw: RawResult, best: int) -> None:
    """Internal lines: :func:`reach_position` is the engine's own replay, and
    the best score is the reference's."""
    assert raw.best_score == best
    for found, line in raw.lines:
        replayed = position
        for move in to_engine_moves(position, line):
            replayed = replayed.play(move)
        assert reach_position(position, line) == replayed
        assert replayed.foundations == found


def plain_endgame(rules: Rules, seed: int, left: int) -> tuple[Position, set[Found]]:
    """A random endgame with no merci to come, and every foundation state
    the brute force reaches from it (a Hypothesis test skips the endgames
    the brute force cannot finish)."""
    position = endgame(rules, random.Random(seed), left)
    position = Position(rules, position.fans, position.foundations, position.cells, 0, True)
    ref = reachable_foundations(position, limit=20000)
    assume(ref is not None)
    assert ref is not None
    return position, ref

class TestAgainstBruteForce:
    @settings(max_examples=250, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(SPECS), seed=st.integers(0, 10**9),
           left=st.integers(2, 9))
    def test_random_endgames(self, spec: str, seed: int, left: int) -> None:
        rules = Rules.parse(spec)
        check_against_reference(endgame(rules, random.Random(seed), left))

    @settings(max_examples=120, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(UNSAFE_BUILDS),
           seed=st.integers(0, 10**9), left=st.integers(4, 12), every=st.integers(1, 40))
    def test_restarted_walks_stay_exact(self, spec: str, seed: int, left: int,
                                        every: int) -> None:
        """Restarts every few positions (each walk in another move order)
        change no verdict, frontier or best score (_restarts)."""
        rules = Rules.parse(spec)
        check_against_reference(endgame(rules, random.Random(seed), left), limit=20000,
                                restart_nodes=every)

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(["merci", "merci,build=alternate", "merci,empty_fill=king"]),
           seed=st.integers(0, 10**9), left=st.integers(7, 12))
    def test_merci_endgames(self, spec: str, seed: int, left: int) -> None:
        """Larger endgames with the merci to come, where cards block each
        other (the caps with a merci to come: _proof_merci_caps)."""
        position = endgame(Rules.parse(spec), random.Random(seed), left)
        assume(position.merci_available)
        check_against_reference(position, limit=30000)

    def test_a_lone_card_waits_for_the_merci(self) -> None:
        """JS may go home from a fan of two, and does at once; QC and KC may
        go home from fans of their own, but the only win lays the merci's
        KD on the lone KC (every other fan is full), so KC must wait."""
        from lucie.formats import parse_layout

        text = ("Foundations: C-J D-7 H-K S-T\nRedeals: 0\n"
                "8D 9D QD\nKS JS\nKD JD TD\nQS\nQC\nKC\n")
        position = parse_layout(text, Rules.parse("merci,max_fan=3"))
        ref = reachable_foundations(position)
        assert ref is not None and (13, 13, 13, 13) in ref
        result = solve_deal(position)
        assert result.status == "solved"
        check_lines(position, result)
        # JS home is forced: the search from after it is the same search
        after = position.play(Move.parse("b>f"))
        assert after.foundations == (11, 7, 13, 11)
        assert search_deal(after).nodes == search_deal(position).nodes

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(["merci", "merci,max_fan=3", "merci,cells=1"]),
           seed=st.integers(0, 10**9), left=st.integers(4, 10))
    def test_merci_to_come_with_a_pair(self, spec: str, seed: int, left: int) -> None:
        """With the merci to come, a card that may go home from a fan of two
        is sent home at once (_proof_pair_home); from a lone card it is not."""
        position = endgame(Rules.parse(spec), random.Random(seed), left)
        assume(position.merci_available)
        assume(any(len(f) == 2 and position.foundations[f[1].suit_index] == f[1].rank - 1
                   for f in position.fans))
        check_against_reference(position, limit=30000)

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(["classic", "trefoil", "noredeal", "fan", "reserve"]),
           deal=st.integers(1, 5000), cut=st.integers(2, 10))
    def test_ends_of_real_deals(self, spec: str, deal: int, cut: int) -> None:
        """Real deals, played along the solver's own best line until a few
        moves before its end, with the last deal's settings (no redeal left,
        so the merci is available where the rules have one)."""
        rules = Rules.parse(spec)
        start = Position.deal(rules, deal)
        start = Position(rules, start.fans, start.foundations, start.cells, 0, False)
        best = solve_deal(start, max_seconds=1)
        assume(best.status != "unknown" and best.reachable)
        line = best.reachable[0].moves
        p = start
        for move in line[: max(0, len(line) - cut)]:
            p = p.play(move)
        check_against_reference(p)


def test_merci_on_a_card_that_is_covered_later() -> None:
    """A last deal of Three Shuffles and a Draw (met in a study) that is won
    only by laying QD on KD, which was a top, and then lifting KD with the
    merci: the caps with a merci to come must count cards that are tops now."""
    from lucie.formats import parse_layout

    text = """Foundations: C-7 D-2 H-3 S-2
Redeals: 0
TC 9D TS
JH 8H 6S
TD 7D KD
9H 4H 5D
KC 9C 6H
JS 8D JD
6D 7S 3D
KH 5H 9S
8S QC 3S
4S QD 5S
7H TH QS
KS 4D JC
8C QH
"""
    position = parse_layout(text, Rules.parse("merci"))
    assert position.merci_available
    # a node budget (about 100 times what either search needs), not a time
    # budget: the answer must not depend on how busy the machine is
    result = solve_deal(position, frontier=False, max_nodes=150_000)
    assert result.status == "solved"
    check_lines(position, result)
    assert search_deal(position, best_only=True, max_nodes=150_000).status == "solved"


class TestReachCaps:
    """The reach caps (``_proof_reach``) bound what can be reached, and see
    what the dead-card caps cannot: blocking cycles across fans."""

    CYCLE = """Foundations: C-7 D-J H-A S-K
Redeals: 0
2H 4H 9C
8C TC 3H
KH QH JH
TH 9H 8H
7H 6H 5H
KC QC JC
KD QD
"""

    def test_a_cycle_across_fans(self) -> None:
        from lucie.formats import parse_layout

        # 9C waits for 10C, under 3H; 3H waits for 4H (or 2H), under 9C
        position = parse_layout(self.CYCLE, Rules())
        t = tables(position.rules)
        fans = [encode_fan(f) for f in position.fans]
        dead = [13, 13, 13, 13]
        stuck_caps(fans, position.foundations, dead, t.onto, t.fill_ok)
        assert dead == [13, 13, 13, 13]  # no card is stuck above a lower one
        caps = [13, 13, 13, 13]
        reach_caps(fans, position.foundations, caps, False)
        assert caps == [7, 13, 1, 13]
        ref = reachable_foundations(position)
        assert ref is not None
        assert max(f[0] for f in ref) == 7 and max(f[2] for f in ref) == 1
        result = solve_deal(position)
        assert result.status == "unsolvable"
        assert {r.foundations for r in result.reachable} == {(7, 13, 1, 13)}

    @settings(max_examples=200, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(["classic", "fan", "trefoil", "classic,max_fan=3",
                                 "classic,empty_fill=king,fan_size=4"]),
           seed=st.integers(0, 10**9), left=st.integers(2, 14))
    def test_they_bound_every_reachable_state(self, spec: str, seed: int, left: int) -> None:

        rules = Rules.parse(spec)
        position, ref = plain_endgame(rules, seed, left)
        t = tables(rules)
        fans = [encode_fan(f) for f in position.fans]
        caps = [13, 13, 13, 13]
        reach_caps(fans, position.foundations, caps, t.any_fill)
        for found in ref:
            assert all(found[s] <= caps[s] for s in range(4)), (found, caps, str(position))
        dead = [13, 13, 13, 13]
        stuck_caps(fans, position.foundations, dead, t.onto, t.fill_ok)
        assert all(caps[s] <= dead[s] for s in range(4))


    @settings(max_examples=80, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(["merci", "merci,empty_fill=king", "merci,max_fan=4"]),
           seed=st.integers(0, 10**9), left=st.integers(4, 11))
    def test_with_the_merci_to_come(self, spec: str, seed: int, left: int) -> None:
        """The caps with the merci to come bound every line, and the caps
        given for each card bound every line whose merci lifts that card
        (``_proof_merci_reach``): checked by a brute force that remembers
        which card its merci lifted."""

        rules = Rules.parse(spec)
        position = endgame(rules, random.Random(seed), left)
        assume(position.merci_available)
        t = tables(rules)
        caps = [13, 13, 13, 13]
        per_card = merci_reach_caps([encode_fan(f) for f in position.fans],
                                     position.foundations, caps, t.any_fill)
        assert set(per_card) == {int(c) for f in position.fans for c in f}
        seen = {(position.key(), -1)}
        stack: list[tuple[Position, int]] = [(position, -1)]
        while stack:
            p, lifted = stack.pop()
            assert all(p.foundations[s] <= caps[s] for s in range(4)), (p.foundations, caps)
            if lifted >= 0:
                bound = per_card[lifted]
                assert all(p.foundations[s] <= bound[s] for s in range(4)), (lifted, bound)
            for move in p.legal_moves():
                if move.is_redeal:
                    continue
                q = p.apply(move)
                z = move.src if move.src_kind == "card" else lifted
                if (q.key(), z) not in seen:
                    seen.add((q.key(), z))
                    assume(len(seen) < 30000)
                    stack.append((q, z))


    @settings(max_examples=150, deadline=None)
    @given(spec=st.sampled_from(["merci", "merci,empty_fill=king"]),
           seed=st.integers(0, 10**9), left=st.integers(6, 44))
    def test_each_lifted_card_from_the_plain_sets(self, spec: str, seed: int,
                                                  left: int) -> None:
        """The caps of each lifted card are raised from the plain least sets
        (only what the card changes); they must be those of the position
        with that card alone, worked out from nothing."""

        rules = Rules.parse(spec)
        king = rules.empty_fill == "king"
        position = endgame(rules, random.Random(seed), left)
        fans = [encode_fan(f) for f in position.fans]
        found = position.foundations
        per_card = merci_reach_caps(fans, found, [13, 13, 13, 13], king)
        for i, f in enumerate(fans):
            cards = decode_fan(f)
            for k, z in enumerate(cards):
                if per_card[z] == (13, 13, 13, 13):
                    continue  # not tried: the caps were all 13 already
                alone = list(fans)
                alone[i] = encode_fan(cards[:k] + cards[k + 1:])
                alone.append(z + 1)
                expected = home_caps(reach_states(alone, found, king)[0], found)
                assert per_card[z] == tuple(expected), (z, str(position))


class TestRoomCaps:
    """The room caps (``_proof_room``): under builds other than suit-down
    with a fan size limit, what could happen at all, counting room."""

    #: JD waits for a 10 or a queen with room: TD tops a full fan, QD lies
    #: under it, QH at the bottom; TD waits for a 9 or a jack with room,
    #: and 9D lies under KD (which may go home only after QD) and JD under
    #: itself; so 8D never comes out from under KH and JD
    BLOCKED = """Foundations: C-Q D-6 H-J S-K
Redeals: 0
7D
9D KD KC
8D KH JD
QH QD TD
"""

    def test_room_that_never_opens(self) -> None:
        from lucie.formats import parse_layout

        position = parse_layout(self.BLOCKED, Rules.parse("shamrocks"))
        t = tables(position.rules)
        fans = [encode_fan(f) for f in position.fans]
        dead = [13, 13, 13, 13]
        stuck_caps(fans, position.foundations, dead, t.onto, t.fill_ok)
        assert dead == [13, 13, 13, 13]  # every card has somewhere to go
        caps = [13, 13, 13, 13]
        room_caps(fans, position.foundations, caps, t.onto, t.under, 3)
        assert caps == [13, 7, 11, 13]
        ref = reachable_foundations(position)
        assert ref is not None
        assert pareto(ref) == {(13, 7, 11, 13)}
        result = solve_deal(position)
        assert result.status == "unsolvable"
        assert {r.foundations for r in result.reachable} == {(13, 7, 11, 13)}

    @settings(max_examples=200, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(["shamrocks", "shamrocks2", "shamrocks,direction=down",
                                 "alternate,max_fan=4", "flower,max_fan=3",
                                 "flower,fan_size=2,max_fan=2", "alternate,max_fan=5"]),
           seed=st.integers(0, 10**9), left=st.integers(2, 14))
    def test_they_bound_every_reachable_state(self, spec: str, seed: int, left: int) -> None:

        rules = Rules.parse(spec)
        t = tables(rules)
        assert t.room and rules.max_fan is not None
        position, ref = plain_endgame(rules, seed, left)
        fans = [encode_fan(f) for f in position.fans]
        caps = [13, 13, 13, 13]
        room_caps(fans, position.foundations, caps, t.onto, t.under, rules.max_fan)
        for found in ref:
            assert all(found[s] <= caps[s] for s in range(4)), (found, caps, str(position))
        # they contain the dead cards, which the search no longer works out
        dead = [13, 13, 13, 13]
        stuck_caps(fans, position.foundations, dead, t.onto, t.fill_ok)
        assert all(caps[s] <= dead[s] for s in range(4))

    @pytest.mark.parametrize("deal", [4, 10, 53, 97])
    def test_caps_only_save_positions(self, deal: int, monkeypatch: pytest.MonkeyPatch) -> None:
        """A walk's order is fixed per position (_restarts), so the caps,
        which only drop positions that cannot be won, never make a win cost
        more positions, even when it is found in a shuffled walk."""

        rules = Rules.parse("shamrocks")
        p = Position.deal(rules, deal)
        with_caps = search_deal(p, frontier=False, max_nodes=60000)
        monkeypatch.setattr(tables(rules), "room", False)
        without = search_deal(p, frontier=False, max_nodes=60000)
        assert with_caps.status == without.status == "solved"
        assert with_caps.nodes <= without.nodes


class TestDeals:
    def test_classic_verdicts_and_lines(self) -> None:
        rules = Rules()
        solved = 0
        for n in range(1, 121):
            position = Position.deal(rules, n)
            full = solve_deal(position)
            quick = solve_deal(position, frontier=False)
            assert full.status == quick.status != "unknown"
            check_lines(position, full)
            # the frontier is an antichain
            states = [r.foundations for r in full.reachable]
            for a in states:
                for b in states:
                    assert a == b or not all(x >= y for x, y in zip(a, b, strict=True))
            if full.status == "solved":
                solved += 1
                game = Game(rules, n)
                game.push_all(full.moves)
                assert game.position.is_won
        assert 0 < solved < 120

    @pytest.mark.parametrize("spec", ["trefoil", "alternate,max_fan=5", "reserve",
                                      "classic,empty_fill=king", "merci"])
    def test_other_variants_replay(self, spec: str) -> None:
        rules = Rules.parse(spec)
        for n in range(1, 5):
            position = Position.deal(rules, n)
            if rules.merci:
                position = Position(rules, position.fans, position.foundations,
                                    position.cells, 0, False)
            result = solve_deal(position, max_seconds=0.5)
            check_lines(position, result)

    def test_fan_order_does_not_matter(self) -> None:
        rules = Rules()
        p = Position.deal(rules, 7)
        q = Position(rules, tuple(reversed(p.fans)), p.foundations, p.cells, 2, False)
        a, b = solve_deal(p), solve_deal(q)
        assert a.status == b.status
        assert {r.foundations for r in a.reachable} == {r.foundations for r in b.reachable}

    def test_won_position(self) -> None:
        p = Position(Rules(), ((),) * 18, (13, 13, 13, 13), (), 0, False)
        result = solve_deal(p)
        assert result.status == "solved" and result.moves == () and result.best_score == 52


def _found(**tops: int) -> list[int]:
    """Foundations as a list in suit order, from cards home per suit."""
    return [tops.get(s, 0) for s in "CDHS"]


class TestSafeHome:
    """A foundation move is forced when every card that could be laid on
    the card, on such a card, and so on, could go home instead
    (``Rules.home_is_safe``, _proof_foundation); the brute-force tests
    above check the verdicts."""

    @staticmethod
    def safe(spec: str, card: str, found: list[int]) -> bool:
        return Rules.parse(spec).home_is_safe(int(Card.parse(card)), found)

    def test_suit_builds_always(self) -> None:
        assert self.safe("classic", "5C", _found(C=4))

    def test_any_suit_needs_the_cards_one_lower_next_or_home(self) -> None:
        # 4D and 4S next in their suits, 4H home: each could go home instead
        assert self.safe("flower", "5C", _found(C=4, D=3, H=4, S=3))
        # 4S waits for 3S: it could be laid on 5C and stay there
        assert not self.safe("flower", "5C", _found(C=4, D=3, H=4, S=2))
        # the old rule asked for every 4 home
        assert self.safe("flower", "5C", _found(C=4, D=4, H=4, S=4))

    def test_alternate_colours_look_two_ranks_down(self) -> None:
        # on 5H: 4C and 4S (next); on them: 3D (next) and 3H (home)
        assert self.safe("alternate", "5H", _found(C=3, D=2, H=4, S=3))
        # 3D waits for 2D: it could be laid on 4C and stay there
        assert not self.safe("alternate", "5H", _found(C=3, D=1, H=4, S=3))
        # 4C waits for 3C
        assert not self.safe("alternate", "5H", _found(C=2, D=2, H=4, S=3))

    def test_up_and_down_builds_look_up_too(self) -> None:
        # 6C follows 5C home, but 6D, 6H and 6S could go on 5C and stay
        assert not self.safe("shamrocks", "5C", _found(C=4, D=5, H=5, S=5))
        # every other suit past 6, so only the clubs 6.. K could come
        assert self.safe("shamrocks", "5C", _found(C=4, D=13, H=13, S=13))
        # on QC: the jacks (home), KC (next after QC) and KS (next)
        assert self.safe("shamrocks", "QC", _found(C=11, D=13, H=13, S=12))
        # KS waits for QS: it could go on QC and stay there
        assert not self.safe("shamrocks", "QC", _found(C=11, D=13, H=13, S=11))

    def test_a_forced_move_is_as_good_as_every_line(self) -> None:
        # Super Flower Garden: TC goes home at once though 9D is out (next in
        # its suit); the frontier is the brute force's
        cards = [[Card.parse(c) for c in fan.split()] for fan in (
            "KD 9S TC", "JC 9D", "QS JS", "KC TS", "QC TD", "QD JD KS")]
        fans = tuple(tuple(f) for f in cards) + ((),) * 12
        found = (9, 8, 13, 8)
        left = {int(c) for f in cards for c in f}
        assert all(found[c // 13] <= c % 13 for c in left)
        assert len(left) + sum(found) == 52
        p = Position(Rules.parse("flower"), fans, found, (), 0, False)
        assert self.safe("flower", "TC", list(found))
        assert not self.safe("flower", "TC", [9, 7, 13, 8])
        check_against_reference(p, limit=50000, sampled=False)
        check_against_reference(p, limit=50000, restart_nodes=None, sampled=False)


class TestRestarts:
    """Walks restarted in other move orders (_restarts) decide deals that one
    walk leaves undecided, with the same answers."""

    def test_a_win_one_walk_misses(self) -> None:
        # the first walk turns the wrong way early here; the second, in the
        # order the moves are generated, wins within a few thousand positions
        rules = Rules.parse("shamrocks")
        p = Position.deal(rules, 10)
        assert solve_deal(p, max_nodes=20000, restart_nodes=None).status == "unknown"
        result = solve_deal(p, max_nodes=20000, frontier=False)
        assert result.status == "solved" and result.nodes <= 20000
        game = Game(rules, 10)
        game.push_all(result.moves)
        assert game.position.is_won

    def test_a_proof_one_walk_misses(self) -> None:
        # a walk in another order meets its best state early, and that bound
        # prunes the rest; the frontier is the one walk's, found sooner
        p = Position.deal(Rules.parse("flower"), 17)
        one = solve_deal(p, restart_nodes=None)
        restarted = solve_deal(p, max_nodes=one.nodes - 1)
        assert one.status == restarted.status == "unsolvable"
        assert restarted.nodes > RESTART_NODES  # it did restart
        assert {r.foundations for r in restarted.reachable} == {
            r.foundations for r in one.reachable}
        check_lines(p, restarted)

    def test_wanted_cards_first(self) -> None:
        # the moves that uncover what the foundations want next come first,
        # those that bury it last (ties keep their order)
        c = {name: int(Card.parse(name)) for name in ("AC", "5H", "6S", "2D", "6D", "4S")}
        fans = [encode_fan([c["AC"], c["5H"]]), encode_fan([c["6S"]]),
                encode_fan([c["2D"], c["6D"]]), encode_fan([c["4S"]])]
        tops = {c["5H"]: 0, c["6S"]: 1, c["6D"]: 2, c["4S"]: 3}
        moves = [(c["6D"], 0), (c["4S"], 1), (c["5H"], 2), (c["5H"], 1)]
        children = [(m, fans, [0, 0, 0, 0], [], False) for m in moves]
        ordered = [child[0] for child in wanted_first(children, fans, [0, 0, 0, 0], tops)]
        # 5H off AC onto 6S (-2), onto 6D over 2D (-1), 4S (0), 6D onto AC (+1)
        assert ordered == [(c["5H"], 1), (c["5H"], 2), (c["4S"], 1), (c["6D"], 0)]

    def test_wanted_cards_first_win_sooner(self) -> None:
        # in the order the moves are generated this win takes some 100,000
        # positions; with the wanted cards first, about a hundred
        rules = Rules.parse("shamrocks")
        result = solve_deal(Position.deal(rules, 59), frontier=False, max_nodes=1000)
        assert result.status == "solved" and result.nodes < 1000
        game = Game(rules, 59)
        game.push_all(result.moves)
        assert game.position.is_won

    def test_the_node_budget_covers_every_walk(self) -> None:
        p = Position.deal(Rules.parse("shamrocks"), 5)
        result = solve_deal(p, max_nodes=3 * RESTART_NODES)
        assert result.status == "unknown" and result.nodes <= 3 * RESTART_NODES
        assert result.best_score > 0  # the best states of every walk, replayed:
        check_lines(p, result)

    def test_suit_builds_going_down_walk_once(self) -> None:
        p = Position.deal(Rules(), 11)
        a = solve_deal(p, restart_nodes=2)
        b = solve_deal(p, restart_nodes=None)
        assert b.nodes > 2 and (a.status, a.nodes) == (b.status, b.nodes)

    def test_cells_restart(self) -> None:
        """With cells the walk restarts (wanted cards first on even walks):
        Fan with reserve deal 6 takes a single walk over 200,000 positions
        and restarted walks a few thousand."""
        p = Position.deal(Rules.parse("reserve"), 6)
        once = solve_deal(p, frontier=False, restart_nodes=None, max_nodes=200_000)
        restarted = solve_deal(p, frontier=False, max_nodes=200_000)
        assert once.status == "unknown"
        assert restarted.status == "solved" and restarted.nodes < 50_000
        check_lines(p, restarted)


class TestBudgets:
    def test_node_budget_gives_unknown(self) -> None:
        p = Position.deal(Rules.parse("shamrocks"), 4)
        result = solve_deal(p, max_nodes=300)
        assert result.status == "unknown" and result.nodes <= 300
        assert result.solvable is None and result.moves == ()
        check_lines(p, result)

    def test_node_budget_names_its_limit(self) -> None:
        p = Position.deal(Rules.parse("shamrocks"), 4)
        result = search_deal(p, max_nodes=300, restart_nodes=None)
        assert (result.status, result.limit, result.nodes) == ("unknown", "nodes", 300)
        assert result.budget_ran_out

    def test_time_budget_gives_unknown(self) -> None:
        """Bounded by positions, not by the wall clock: whatever the time,
        the walk held no more than its cap."""
        p = Position.deal(Rules.parse("alternate"), 1)
        result = solve_deal(p, max_seconds=0.2, max_positions=20_000)
        assert result.status == "unknown" and result.limit in ("seconds", "positions")
        assert 0 < result.held <= 20_000

    @pytest.mark.parametrize("frontier", [True, False])
    def test_a_deadline_already_passed_expands_nothing(self, frontier: bool) -> None:
        p = Position.deal(Rules.parse("shamrocks"), 9)
        result = search_deal(p, max_seconds=0.0, frontier=frontier)
        assert (result.status, result.limit, result.nodes, result.held) == (
            "unknown", "seconds", 0, 0)

    @pytest.mark.parametrize("restart_nodes", [None, 64, RESTART_NODES])
    def test_the_positions_held_stay_under_the_cap(self, restart_nodes: int | None) -> None:
        p = Position.deal(Rules.parse("shamrocks"), 9)
        result = solve_deal(p, max_positions=700, restart_nodes=restart_nodes)
        assert result.status == "unknown" and result.limit == "positions"
        assert result.held == 700  # the walk stopped as it reached the cap
        check_lines(p, result)

    def test_the_default_cap_applies(self) -> None:
        p = Position.deal(Rules.parse("shamrocks"), 9)
        result = search_deal(p, max_nodes=500, restart_nodes=None)
        assert result.held <= DEFAULT_MAX_POSITIONS
        assert solve_deal(p, max_nodes=5).limit == "nodes"

    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(spec=st.sampled_from(["classic", "fan", "trefoil", "shamrocks", "alternate"]),
           deal=st.integers(1, 40), cap=st.integers(1, 400),
           frontier=st.booleans())
    def test_a_cap_never_changes_a_verdict_it_lets_through(
        self, spec: str, deal: int, cap: int, frontier: bool
    ) -> None:
        """A search the cap cut says so and held at most the cap; one it let
        finish answers exactly as the search without a cap."""
        p = Position.deal(Rules.parse(spec), deal)
        capped = search_deal(p, max_positions=cap, frontier=frontier, max_nodes=20_000)
        assert capped.held <= cap
        if capped.limit == "positions":
            assert capped.status == "unknown"
            return
        free = search_deal(p, max_positions=None, frontier=frontier, max_nodes=20_000)
        if capped.status != "unknown" and free.status != "unknown":
            assert capped.status == free.status
            if frontier:
                assert [f for f, _ in capped.lines] == [f for f, _ in free.lines]


class TestCollector:
    """The cyclic garbage collector is paused while a search runs, and the
    search leaves no cycles for it to find afterwards."""

    def test_no_collection_during_a_search(self) -> None:
        p = Position.deal(Rules.parse("shamrocks"), 5)
        runs: list[str] = []

        def seen(phase: str, info: dict[str, int]) -> None:
            runs.append(phase)

        thresholds = gc.get_threshold()
        gc.collect()
        gc.set_threshold(10)  # a collection every few allocations, if enabled
        gc.callbacks.append(seen)
        try:
            assert gc.isenabled()
            before = len(runs)
            result = search_deal(p, frontier=False, max_nodes=3000)
            during = len(runs) - before
            assert gc.isenabled()
        finally:
            gc.callbacks.remove(seen)
            gc.set_threshold(*thresholds)
        assert result.status == "unknown" and result.nodes == 3000
        assert during == 0  # nothing collected while it ran
        assert gc.collect() == 0  # and it left no cycles behind

    def test_a_paused_collector_stays_paused(self) -> None:
        gc.disable()
        try:
            search_deal(Position.deal(Rules.parse("flower"), 2))
            assert not gc.isenabled()
        finally:
            gc.enable()


def test_fan_encoding_round_trip() -> None:
    rng = random.Random(5)
    for _ in range(100):
        cards = rng.sample(range(52), rng.randint(0, 52))
        assert decode_fan(encode_fan(cards)) == cards
