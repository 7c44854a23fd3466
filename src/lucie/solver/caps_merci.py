"""Reach caps with the merci still to come
(``docs/solver.md#_proof_merci_reach``): the larger, suit by suit, of the
plain reach caps and of those with each card that cannot leave its fan
standing alone."""

from __future__ import annotations

from lucie.solver.caps_reach import expose, home_caps, reach_close, reach_states
from lucie.solver.encoding import decode_fan, encode_fan


def merci_reach_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    king_moves: bool,
) -> dict[int, tuple[int, int, int, int]]:
    """Lower ``caps`` to the reach caps with the merci still to come
    (:func:`_proof_merci_reach`): the larger, suit by suit, of the reach
    caps with each card that cannot leave its fan standing alone.

    Returns, for each card on the table, caps that bound every line whose
    merci lifts that card (13s for the cards not tried once the caps are
    all 13), which lets the search drop a lifted card's children at once.
    The least sets with a card alone contain the plain ones, so each is
    found from the plain ones, by raising only what the lifted card changes.
    """
    st0, rest0 = reach_states(fans, found, king_moves)
    plain = home_caps(st0, found)
    full = (13, 13, 13, 13)
    plain_t = (plain[0], plain[1], plain[2], plain[3])
    best = plain
    per_card: dict[int, tuple[int, int, int, int]] = {}
    for f in fans:
        if not f:
            continue
        # the fan's deepest card in T but not in M (every fan has one, or
        # every card of it is in M)
        e = -1
        g = f
        while g:
            c = (g & 63) - 1
            if st0[c] == 1:
                e = c
                break
            g >>= 6
        while f:
            z = (f & 63) - 1
            f >>= 6
            if st0[z] >= 2:
                per_card[z] = plain_t  # it can leave anyway: the same caps
                continue
            if best[0] + best[1] + best[2] + best[3] == 52:
                per_card[z] = full
                continue
            st = st0[:]
            rest = rest0[:]
            work: list[int] = []
            if z == e:  # the card under it may now become a top
                under = rest[z]
                if under:
                    expose(st, rest, work, under)
            else:  # buried deeper: out of the cards under e
                below = decode_fan(rest[e])
                below.remove(z)
                rest[e] = encode_fan(below)
            expose(st, rest, work, z + 1)  # alone in a fan of its own
            reach_close(st, rest, work, found, king_moves)
            home = home_caps(st, found)
            per_card[z] = (home[0], home[1], home[2], home[3])
            for s in range(4):
                if home[s] > best[s]:
                    best[s] = home[s]
    for s in range(4):
        if best[s] < caps[s]:
            caps[s] = best[s]
    return per_card

