"""Room caps (``docs/solver.md#_proof_room``): what could happen at all
when fans have a size limit, under builds other than suit-down (a card
leaves only onto a card that could be a top with room in its fan)."""

from __future__ import annotations


def room_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    onto: tuple[tuple[int, ...], ...],
    under: tuple[tuple[int, ...], ...],
    max_fan: int,
) -> None:
    """Lower ``caps`` to the room caps of :func:`_proof_room`, in three
    steps: each card's place (:func:`places`), the bits each card can gain
    (:func:`grow`) and the caps they allow (:func:`lower_caps`).

    ``under[h]``: the cards that may be laid on ``h``.  A card's state is
    a set of bits (1 T, 2 M, 4 H, 8 R) that only grow; a card is looked at
    again whenever a bit it depends on appears, which reaches the least
    fixed point.
    """
    st, pos, below, work = places(fans)
    grow(st, pos, below, work, found, onto, under, max_fan)
    lower_caps(st, found, caps)


def places(
    fans: list[int] | tuple[int, ...],
) -> tuple[list[int], list[int], list[int], list[int]]:
    """The start of the fixed point: each card's state (1, T, for the
    tops, else 0), its place in its fan (0 at the bottom) and the card
    under it (-1: none), and the cards to look at first (the tops)."""
    st = [0] * 52
    pos = [-1] * 52
    below = [-1] * 52
    work: list[int] = []
    for f in fans:
        if f:
            top = (f & 63) - 1
            st[top] = 1
            work.append(top)
            g = f
            k = (f.bit_length() + 5) // 6 - 1
            while g:
                c = (g & 63) - 1
                g >>= 6
                pos[c] = k
                k -= 1
                below[c] = (g & 63) - 1 if g else -1
    return st, pos, below, work


def grow(
    st: list[int],
    pos: list[int],
    below: list[int],
    work: list[int],
    found: list[int] | tuple[int, ...],
    onto: tuple[tuple[int, ...], ...],
    under: tuple[tuple[int, ...], ...],
    max_fan: int,
) -> None:
    """The least fixed point of the bits of :func:`_proof_room`, from the
    cards in ``work``: a card gains H (and M) when it could go home, M when
    it could leave onto a card with room, R when a card could be laid on
    it; what it gains wakes the cards that depend on it.

    (The bits a card gains and the cards it wakes stay written out here,
    not in functions of their own: this loop runs for every card looked at
    in every position the room caps bound, where the pure build pays for
    each call.)"""
    last = max_fan - 1
    while work:
        c = work.pop()
        v = st[c]
        nv = v
        s = c // 13
        r = c - s * 13
        if not nv & 4 and (found[s] == r or (r and st[c - 1] & 4)):
            nv |= 6
        if not nv & 2 and pos[c] > 0:
            for h in onto[c]:
                if st[h] & 8:
                    nv |= 2
                    break
        if not nv & 8:
            if pos[c] < last:
                nv |= 8
            elif nv & 2 and max_fan >= 3:
                for b in onto[c]:
                    if st[b] & 8 and (max_fan > 3 or pos[b] == 0):
                        nv |= 8
                        break
        if nv == v:
            continue
        st[c] = nv
        gained = nv & ~v
        if gained & 2:
            y = below[c]
            if y >= 0 and not st[y]:
                st[y] = 1
                work.append(y)
        if gained & 4 and r < 12 and st[c + 1]:
            work.append(c + 1)
        if gained & 8:
            for x in under[c]:
                if st[x]:
                    work.append(x)


def lower_caps(st: list[int], found: list[int] | tuple[int, ...], caps: list[int]) -> None:
    """Lower ``caps`` to the cards that could go home (bit H), in order
    from each suit's foundation."""
    for s in range(4):
        k = found[s]
        base = s * 13
        while k < 13 and st[base + k] & 4:
            k += 1
        if k < caps[s]:
            caps[s] = k
