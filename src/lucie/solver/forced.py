"""Forced moves: moves that can never hurt, played at once so that their
siblings are not explored.

- under suit builds going down, every foundation move
  (``docs/solver.md#_proof_foundation``) and the safe builds
  (``docs/solver.md#_proof_builds``): :func:`suit_down_forced`, one loop
  with each proof's part marked (measured: see its docstring);
- under the other builds, the foundation moves that
  :meth:`Rules.home_is_safe` allows: :func:`safe_home_forced`;
- with the merci to come, a foundation move off a fan of two cards
  (``docs/solver.md#_proof_pair_home``): :func:`pair_home_forced`.

Each plays its moves on the position's lists in place: ``fans``, ``found``
(cards home per suit), ``cells``, ``tops`` (top card -> fan) and ``moves``
(the line, to which it appends).
"""

from __future__ import annotations

from lucie.rules import Rules
from lucie.solver.encoding import TO_FOUNDATION, IMove


class SafeHomes:
    """:meth:`Rules.home_is_safe` for one set of rules, remembered per
    ``(card, foundations)``: few foundation states recur across the many
    positions of one search."""

    __slots__ = ("memo", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.memo: dict[tuple[int, int, int, int, int], bool] = {}

    def safe(self, card: int, found: list[int]) -> bool:
        key = (card, found[0], found[1], found[2], found[3])
        safe = self.memo.get(key)
        if safe is None:
            safe = self.memo[key] = self.rules.home_is_safe(card, found)
        return safe


def suit_down_forced(
    fans: list[int],
    found: list[int],
    cells: list[int],
    tops: dict[int, int],
    moves: list[IMove],
    work: list[int],
    ncells: int,
    sb_fill: str | None,
) -> None:
    """Under suit-down, the forced moves of two proofs until none is left:
    every foundation move (_proof_foundation: the card the foundations
    want goes home, from a fan top or, with ``ncells`` cells, a cell), then,
    for a fan top that stays, its safe build (_proof_builds: onto its
    successor X+1, a fan top, in cases a and c with ``sb_fill`` "none",
    case b when X+2 lies under X+1) when ``sb_fill`` (the rules'
    ``empty_fill`` where that proof holds) is set.  ``work`` holds the cards
    whose status may have changed (the parent's move's, or all tops at
    first); each move pushes the cards it may unlock in turn.

    One loop for both proofs, each proof's part marked, on purpose (and
    longer than 60 lines): the walk calls it at almost every position under
    suit-down.  Measured with each proof a function of its own, called per
    card of ``work``, the pure build's suit-down searches were 5-9% slower
    (classic 1..500 frontier 0.989 s against 0.921 s, Trefoil 1.09, The
    Fan 1.08: ``benchmarks/RESULTS.md``, "Search apart from the analysis")."""
    sb_none = sb_fill == "none"
    while work:
        c = work.pop()
        s = c // 13
        r = c - s * 13
        # -- _proof_foundation: the card goes home if the foundations want it
        if c not in tops:  # ('in', then a look-up: cheaper than tops.get)
            if ncells and found[s] == r and c in cells:
                cells.remove(c)
                found[s] = r + 1
                moves.append((c, TO_FOUNDATION))
                if r < 12:
                    work.append(c + 1)
            continue
        i = tops[c]
        if found[s] == r:
            found[s] = r + 1
            del tops[c]
            f = fans[i] >> 6
            fans[i] = f
            moves.append((c, TO_FOUNDATION))
            if f:
                y = (f & 63) - 1
                tops[y] = i
                work.append(y)
                if y % 13:
                    work.append(y - 1)
            if r < 12:
                work.append(c + 1)
            continue
        # -- _proof_builds: a fan top that stays goes onto X+1 if that is safe
        if sb_fill is None or r == 12:
            continue
        if c + 1 not in tops:
            continue
        j = tops[c + 1]
        g = fans[j]
        if r == 11 or g < 64:
            ok = sb_none  # cases a and c of _proof_builds
        else:
            ok = False
            want = c + 3  # X+2, encoded
            h = g >> 6
            while h:
                if h & 63 == want:
                    ok = True  # case b
                    break
                h >>= 6
        if not ok:
            continue
        f = fans[i] >> 6
        fans[i] = f
        del tops[c + 1]
        g = (g << 6) | (c + 1)
        fans[j] = g
        tops[c] = j
        moves.append((c, j))  # (the reach caps see what it blocks)
        if r:
            work.append(c - 1)
        if f:
            y = (f & 63) - 1
            tops[y] = i
            work.append(y)
            if y % 13:
                work.append(y - 1)


def safe_home_forced(
    fans: list[int],
    found: list[int],
    cells: list[int],
    tops: dict[int, int],
    moves: list[IMove],
    safe: SafeHomes,
) -> None:
    """Under the other builds: the foundation moves of _proof_foundation
    (those :meth:`Rules.home_is_safe` allows), until none is left."""
    nfans = len(fans)
    # the cards the foundations want, as a fan's digits (card + 1): a fan
    # whose top is none of them is passed over at once
    want: set[int] = set()
    for s in range(4):
        if found[s] < 13:
            want.add(s * 13 + found[s] + 1)
    changed = True
    while changed:
        changed = False
        for i in range(nfans):
            f = fans[i]
            while f & 63 in want:
                c = (f & 63) - 1
                if not safe.safe(c, found):
                    break
                s = c // 13
                found[s] += 1
                want.discard(c + 1)
                if found[s] < 13:
                    want.add(c + 2)
                del tops[c]
                f >>= 6
                fans[i] = f
                if f:
                    tops[(f & 63) - 1] = i
                moves.append((c, TO_FOUNDATION))
                changed = True
        if cells:
            for c in cells:
                s = c // 13
                if found[s] == c - s * 13 and safe.safe(c, found):
                    found[s] += 1
                    want.discard(c + 1)
                    if found[s] < 13:
                        want.add(c + 2)
                    cells.remove(c)
                    moves.append((c, TO_FOUNDATION))
                    changed = True
                    break


def pair_home_forced(
    fans: list[int],
    found: list[int],
    tops: dict[int, int],
    moves: list[IMove],
) -> None:
    """With the merci to come (suit-down, no fill, no take-back, not the
    strict merci): a foundation move off a fan of two (_proof_pair_home)."""
    nfans = len(fans)
    changed = True
    while changed:
        changed = False
        for i in range(nfans):
            f = fans[i]
            if 64 <= f < 4096:
                c = (f & 63) - 1
                s = c // 13
                if found[s] == c - s * 13:
                    found[s] += 1
                    del tops[c]
                    f >>= 6
                    fans[i] = f
                    tops[f - 1] = i
                    moves.append((c, TO_FOUNDATION))
                    changed = True
