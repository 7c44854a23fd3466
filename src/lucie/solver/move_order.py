"""The order in which a walk tries a position's moves
(``docs/solver.md#move-order-and-restarts``).

Only the order changes (every child is still searched), so the search stays
exact; foundation moves always come first.  :func:`shuffle` gives each walk
of :func:`~lucie.solver.restarts.restarts` its own order, fixed by the walk
and the position alone; :func:`wanted_first` puts first the moves that bury
least the cards the foundations want next.
"""

from __future__ import annotations

from lucie.solver.children import Child


def shuffle(children: list[Child], first: int, key: object, walk_salt: int) -> None:
    """Shuffle ``children[first:]`` in place, in an order fixed by the
    position's ``key`` and the walk's ``walk_salt`` alone (the moves sorted
    by a hash of both): a reduction that drops a position the walk would
    have met does not change the order of the rest of the walk."""
    salt = hash(key) ^ walk_salt
    others = children[first:]
    others.sort(key=lambda ch: hash((salt, ch[0])))
    children[first:] = others


def wanted_first(
    children: list[Child],
    fans: list[int],
    found: list[int],
    tops: dict[int, int],
) -> list[Child]:
    """The moves ``children`` sorted, stably, by how much they bury the
    cards the foundations want next: each suit's next card counts 2 and the
    one after it 1; a move onto a fan adds the count of that fan's cards,
    and a move off a fan takes away that of the cards it uncovers.

    Only the order of a walk changes (every child is still searched), so
    the search stays exact; under builds other than suit-down it finds most
    wins in a few hundred positions (:func:`~lucie.solver.restarts.restarts`).
    """
    # by encoded card (card + 1, as in a fan's digits): a list, not a
    # dict, as it is read for every card of the fans counted
    want = [0] * 53
    for s in range(4):
        r = found[s]
        if r < 13:
            want[s * 13 + r + 1] = 2
            if r < 12:
                want[s * 13 + r + 2] = 1
    # each fan's count, worked out for the fans that a move comes from or
    # goes to only (-1: not yet)
    per_fan = [-1] * len(fans)
    keyed: list[tuple[int, int]] = []
    for k, child in enumerate(children):
        card, target = child[0]
        key = 0
        if target >= 0:
            key = per_fan[target]
            if key < 0:
                key = per_fan[target] = _count(fans[target], want)
            i = tops.get(card, -1)
            if i >= 0:
                w = per_fan[i]
                if w < 0:
                    w = per_fan[i] = _count(fans[i], want)
                key -= w - want[card + 1]
        keyed.append((key, k))
    keyed.sort()
    return [children[k] for _, k in keyed]


def _count(fan: int, want: list[int]) -> int:
    """The count of the cards of an encoded fan, by ``want`` (encoded card -> count)."""
    w = 0
    while fan:
        w += want[fan & 63]
        fan >>= 6
    return w
