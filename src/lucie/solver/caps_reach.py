"""Reach caps (``docs/solver.md#_proof_reach``): under suit builds going
down, what could happen at all, ignoring when.

A card goes home only if every card above it could leave its fan at some
time (and its suit could get that far); the least sets T (may become a
top), M (may leave its fan) and H (may go home) bound each foundation
across fans.  :func:`new_stuck` is the dead-card rule of
``docs/solver.md#_proof_deadlock`` for a child: the caps after a card is
laid on its successor (the reach caps contain it; it drops such a child
before it is stacked).
"""

from __future__ import annotations


def reach_states(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    king_moves: bool,
) -> tuple[list[int], list[int]]:
    """The least sets of :func:`_proof_reach` (suit builds going down;
    ``king_moves``: a king may go into an empty fan), as a state per card:
    0 not in T, 1 in T, 2 also in M, 3 also in H; and per card, the cards
    under it (encoded), kept for the cards in T but not in M (each fan's
    deepest card in T: an entry of a card in M is stale).

    The least fixed point is found with a work list (:func:`reach_close`).
    """
    st = [0] * 52
    rest = [0] * 52
    work: list[int] = []
    for f in fans:
        if f:
            c = (f & 63) - 1
            st[c] = 1
            rest[c] = f >> 6
            work.append(c)
    reach_close(st, rest, work, found, king_moves)
    return st, rest


def expose(st: list[int], rest: list[int], work: list[int], g: int) -> None:
    """The top of the cards ``g`` (encoded) may become a top: into T, with
    the cards under it kept, to be looked at (and so its predecessor,
    which may be laid on it)."""
    y = (g & 63) - 1
    st[y] = 1
    rest[y] = g >> 6
    work.append(y)
    if y % 13 and st[y - 1] == 1:
        work.append(y - 1)


def reach_close(
    st: list[int],
    rest: list[int],
    work: list[int],
    found: list[int] | tuple[int, ...],
    king_moves: bool,
) -> None:
    """Raise ``st`` to the least fixed point from the cards in ``work``
    (whose conditions may have changed).  A card's state only rises, so
    each card is raised at most three times and looked at a few times more;
    starting from states that the rules derive, the result is the least
    fixed point."""
    while work:
        c = work.pop()
        v = st[c]
        if v == 3:
            continue
        s = c // 13
        r = c - s * 13
        if found[s] == r or (r and st[c - 1] == 3):
            st[c] = 3
            if r < 12 and 0 < st[c + 1] < 3:
                work.append(c + 1)  # its successor may go home now
        elif v == 1 and ((r < 12 and st[c + 1] > 0) or (r == 12 and king_moves)):
            st[c] = 2
        else:
            continue
        if v == 1:  # c may leave its fan: the card under it may become a top
            g = rest[c]
            if g:  # expose, written out: this loop is the search's hot path
                y = (g & 63) - 1
                st[y] = 1
                rest[y] = g >> 6
                work.append(y)
                if y % 13 and st[y - 1] == 1:
                    work.append(y - 1)  # its predecessor may be laid on it


def home_caps(st: list[int], found: list[int] | tuple[int, ...]) -> list[int]:
    """Per suit, the foundation's bound: the lowest card out whose state is
    below 3 (not in H)."""
    out = [13, 13, 13, 13]
    for s in range(4):
        r = found[s]
        base = s * 13
        while r < 13 and st[base + r] == 3:
            r += 1
        out[s] = r
    return out


def reach_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    king_moves: bool,
) -> None:
    """Lower ``caps`` to the reach caps of :func:`_proof_reach`."""
    home = home_caps(reach_states(fans, found, king_moves)[0], found)
    for s in range(4):
        if home[s] < caps[s]:
            caps[s] = home[s]


def new_stuck(fan: int, caps: list[int]) -> None:
    """Caps after a card X was laid on X+1 at the top of ``fan`` (suit-down)."""
    x = (fan & 63) - 1
    s, r = divmod(x, 13)
    rest = fan >> 12  # below X and X+1
    while rest:
        b = (rest & 63) - 1
        rest >>= 6
        if b // 13 == s and b % 13 < r and b % 13 < caps[s]:
            caps[s] = b % 13

