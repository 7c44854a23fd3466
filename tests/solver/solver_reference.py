"""An independent, deliberately simple reference solver for the tests.

Plain depth-first search over ``Position.legal_moves()`` (the engine's own
move list, minus the redeal) with a memo on ``Position.key()``: no
representation of its own, no pruning, no forced moves.  It returns the set
of every foundation state reachable without a redeal; its non-dominated
subset and whether the win is in it are what the fast solver must match.
"""

from __future__ import annotations

import random

from lucie.cards import DECK, Card
from lucie.engine import Position
from lucie.rules import Rules

Found = tuple[int, int, int, int]


def reachable_foundations(position: Position, limit: int = 200_000) -> set[Found] | None:
    """Every foundation state reachable without a redeal (None past ``limit``)."""
    seen = {position.key()}
    stack = [position]
    found: set[Found] = set()
    while stack:
        p = stack.pop()
        found.add(p.foundations)
        for move in p.legal_moves():
            if move.is_redeal:
                continue
            q = p.apply(move)
            k = q.key()
            if k not in seen:
                seen.add(k)
                if len(seen) > limit:
                    return None
                stack.append(q)
    return found


def pareto(states: set[Found]) -> set[Found]:
    """The states not dominated component-wise by another."""
    return {
        a for a in states
        if not any(b != a and all(x >= y for x, y in zip(b, a, strict=True)) for b in states)
    }


def endgame(rules: Rules, rng: random.Random, cards_left: int) -> Position:
    """A random position with about ``cards_left`` cards still in play.

    The cards not home are the top ranks of each suit; they are spread over
    the fans (and, where the variant has them, some cells) at random, within
    ``max_fan``.  No redeal is left, so a merci (if the rules have one) is
    available unless ``rng`` decides it was used.
    """
    found = [13, 13, 13, 13]
    for _ in range(cards_left):
        options = [s for s in range(4) if found[s] > 0]
        found[rng.choice(options)] -= 1
    if rules.aces_first:
        for s in range(4):
            found[s] = max(found[s], 0)
    left = [c for c in DECK if found[c.suit_index] < c.rank]
    rng.shuffle(left)
    cells: list[Card | None] = [None] * rules.cells
    for i in range(rules.cells):
        if left and rng.random() < 0.3:
            cells[i] = left.pop()
    nfans = rules.num_fans
    cap = rules.max_fan or 99
    fans: list[list[Card]] = [[] for _ in range(nfans)]
    used = rng.randint(max(1, -(-len(left) // cap)), min(nfans, max(1, len(left))))
    for card in left:
        choices = [i for i in range(used) if len(fans[i]) < cap]
        fans[rng.choice(choices)].append(card)
    rng.shuffle(fans)
    return Position(
        rules, tuple(tuple(f) for f in fans), (found[0], found[1], found[2], found[3]),
        tuple(cells), 0, rules.merci and rng.random() < 0.3,
    )
