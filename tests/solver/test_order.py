"""Order caps (``lucie.solver.order``, docs/solver.md#order-caps) against the brute force.

The caps must bound every foundation state the brute force reaches from a
random endgame, under every build they are used for, with and without the
merci to come; they must never be looser than the dead-card caps; and they
must see a cycle across suits that the dead-card caps miss.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from lucie.engine import Position
from lucie.formats import parse_layout
from lucie.rules import Rules
from lucie.solver import solve_deal
from lucie.solver.encoding import encode_fan
from lucie.solver.order import merci_order_caps, order_caps
from lucie.solver.tables import tables

sys.path.insert(0, str(Path(__file__).parent))
from dead_cards import merci_caps, stuck_caps
from solver_reference import endgame, pareto, reachable_foundations

#: Builds whose searches use the order caps, and a few more settings they allow.
SPECS = [
    "flower", "alternate", "flower,fan_size=2", "alternate,fan_size=4",
    "classic,direction=updown", "alternate,direction=updown", "flower,empty_fill=king",
    "alternate,empty_fill=king", "classic", "fan", "shamrocks,max_fan=none",
]


def caps_of(position: Position, merci: bool = False) -> list[int]:
    t = tables(position.rules)
    fans = [encode_fan([int(c) for c in f]) for f in position.fans]
    caps = [13, 13, 13, 13]
    if merci:
        merci_order_caps(fans, position.foundations, caps, t.onto, t.fill_ok)
    else:
        order_caps(fans, position.foundations, caps, t.onto, t.fill_ok)
    return caps


def dead_caps_of(position: Position, merci: bool = False) -> list[int]:
    t = tables(position.rules)
    fans = [encode_fan([int(c) for c in f]) for f in position.fans]
    caps = [13, 13, 13, 13]
    if merci:
        merci_caps(fans, position.foundations, caps, t.onto, t.fill_ok)
    else:
        stuck_caps(fans, position.foundations, caps, t.onto, t.fill_ok)
    return caps


class TestOrderCaps:
    @settings(max_examples=150, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(SPECS), seed=st.integers(0, 10**9), left=st.integers(2, 14))
    def test_they_bound_every_reachable_state(self, spec: str, seed: int, left: int) -> None:
        rules = Rules.parse(spec)
        position = endgame(rules, random.Random(seed), left)
        position = Position(rules, position.fans, position.foundations, position.cells, 0, True)
        ref = reachable_foundations(position, limit=20000)
        assume(ref is not None)
        assert ref is not None
        caps = caps_of(position)
        for found in ref:
            assert all(found[s] <= caps[s] for s in range(4)), (found, caps, str(position))
        dead = dead_caps_of(position)
        assert all(caps[s] <= dead[s] for s in range(4)), (caps, dead, str(position))

    @settings(max_examples=150, deadline=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(spec=st.sampled_from(["flower,merci=on", "alternate,merci=on", "merci"]),
           seed=st.integers(0, 10**9), left=st.integers(2, 11))
    def test_with_the_merci_to_come(self, spec: str, seed: int, left: int) -> None:
        rules = Rules.parse(spec)
        position = endgame(rules, random.Random(seed), left)
        position = Position(rules, position.fans, position.foundations, position.cells, 0,
                            False)
        assume(position.merci_available)
        ref = reachable_foundations(position, limit=20000)
        assume(ref is not None)
        assert ref is not None
        caps = caps_of(position, merci=True)
        for found in ref:
            assert all(found[s] <= caps[s] for s in range(4)), (found, caps, str(position))
        dead = dead_caps_of(position, merci=True)
        assert all(caps[s] <= dead[s] for s in range(4)), (caps, dead, str(position))

    #: KS lies on 2H and KH on 2S: each king goes home only after its whole
    #: suit, which needs the two the other king covers.
    CROSS = """Foundations: C-K D-K H-A S-A
Redeals: 0
2H KS
2S KH
TH 9H 8H 7H 6H 5H 4H 3H
QH JH
TS 9S 8S 7S 6S 5S 4S 3S
QS JS
"""

    def test_a_cycle_across_suits(self) -> None:
        rules = Rules.parse("flower")
        position = parse_layout(self.CROSS, rules)
        assert dead_caps_of(position) == [13, 13, 13, 13]  # no suit is capped by itself
        caps = caps_of(position)
        assert caps == [13, 13, 1, 1]
        ref = reachable_foundations(position, limit=200_000)
        assert ref is not None and (13, 13, 13, 13) not in ref
        assert all(f[2] <= 1 and f[3] <= 1 for f in ref)
        assert solve_deal(position).status == "unsolvable"

    def test_no_cycle_no_cap(self) -> None:
        # the same kings at the bottom of their fans: nothing waits for them
        layout = self.CROSS.replace("2H KS", "KS 2H").replace("2S KH", "KH 2S")
        position = parse_layout(layout, Rules.parse("flower"))
        assert caps_of(position) == [13, 13, 13, 13]
        ref = reachable_foundations(position, limit=200_000)
        assert ref is not None
        assert pareto(ref) == {(13, 13, 13, 13)}
