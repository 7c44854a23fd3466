"""The dead-card caps (``docs/solver.md#_proof_deadlock`` and
``#_proof_merci_caps``), kept as a reference for the tests.

The search no longer uses them: under suit-down the reach caps
(``lucie.solver.caps_reach``) contain them, and under the other builds the
order caps (``lucie.solver.order``) do.  The tests check that those caps are
never looser than these.
"""

from __future__ import annotations

from lucie.solver.encoding import decode_fan, encode_fan


def is_stuck(
    cards: list[int],
    p: int,
    found: list[int] | tuple[int, ...],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
) -> bool:
    """Whether ``cards[p]`` can leave its fan only to go home: no empty fan
    takes it, and every card it may go on lies under it or is home."""
    a = cards[p]
    if fill_ok[a]:
        return False
    below = cards[:p]
    return all(t in below or found[t // 13] > t % 13 for t in onto[a])


#: What the dead-card analysis needs of one fan (see :func:`fan_stuck`).
_FanStuck = tuple[tuple[int, int, int, int], tuple[tuple[int, int, tuple[int, int, int, int]], ...]]
#: ``(fan, foundations)`` -> its :data:`_FanStuck` (None: no stuck card).
StuckMemo = dict[tuple[int, tuple[int, int, int, int]], _FanStuck | None]


def fan_stuck(
    f: int,
    found: list[int] | tuple[int, ...],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
) -> _FanStuck | None:
    """The stuck cards of fan ``f`` (:func:`_proof_deadlock`), ready for the
    fixed point: None when there is none, else ``(dead, maybe)``.

    ``dead``: per suit, the lowest rank under a stuck card that lies above
    a lower card of its own suit (such a card is dead whatever the caps;
    13 where none); ``maybe``: for each other stuck card, its suit, its rank
    and the same per-suit lowest ranks under it, which count once the
    card's suit is capped at or below its rank.
    """
    cards = decode_fan(f)
    dead = [13, 13, 13, 13]
    maybe: list[tuple[int, int, tuple[int, int, int, int]]] = []
    for p in range(1, len(cards)):
        if not is_stuck(cards, p, found, onto, fill_ok):
            continue
        s, r = divmod(cards[p], 13)
        low = [13, 13, 13, 13]
        lower = False
        for b in cards[:p]:
            bs, br = divmod(b, 13)
            if br < low[bs]:
                low[bs] = br
            if bs == s and br < r:
                lower = True
        if lower:
            for k in range(4):
                if low[k] < dead[k]:
                    dead[k] = low[k]
        else:
            maybe.append((s, r, (low[0], low[1], low[2], low[3])))
    if not maybe and dead == [13, 13, 13, 13]:
        return None
    return (dead[0], dead[1], dead[2], dead[3]), tuple(maybe)


def stuck_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
    memo: StuckMemo | None = None,
) -> list[int]:
    """Lower ``caps`` for the dead cards of a position (:func:`_proof_deadlock`);
    returns the indexes of the fans that hold a stuck card.

    Which cards of a fan are stuck depends on the fan and the foundations
    alone; ``memo`` keeps that per ``(fan, foundations)`` across the
    positions of one search (most of a position's fans are its parent's).
    """
    maybe: list[tuple[int, int, tuple[int, int, int, int]]] = []
    holding: list[int] = []
    fkey = (found[0], found[1], found[2], found[3])
    for i, f in enumerate(fans):
        if f < 64:
            continue
        if memo is None:
            entry = fan_stuck(f, found, onto, fill_ok)
        else:
            mkey = (f, fkey)
            if mkey in memo:
                entry = memo[mkey]
            else:
                entry = memo[mkey] = fan_stuck(f, found, onto, fill_ok)
        if entry is None:
            continue
        holding.append(i)
        dead = entry[0]
        for k in range(4):
            if dead[k] < caps[k]:
                caps[k] = dead[k]
        maybe.extend(entry[1])
    # a stuck card whose suit is capped at or below its rank is dead too
    changed = True
    while changed and maybe:
        changed = False
        rest = []
        for s, r, low in maybe:
            if r >= caps[s]:
                for k in range(4):
                    if low[k] < caps[k]:
                        caps[k] = low[k]
                        changed = True
            else:
                rest.append((s, r, low))
        maybe = rest
    return holding



def merci_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
    memo: StuckMemo | None = None,
) -> None:
    """Lower ``caps`` for a position with the merci still to come
    (:func:`_proof_merci_caps`; ``memo`` as for :func:`stuck_caps`)."""
    plain = [13, 13, 13, 13]
    holding = stuck_caps(fans, found, plain, onto, fill_ok, memo)
    if plain[0] + plain[1] + plain[2] + plain[3] == 52:
        return
    best = plain
    # only the cards of a fan that holds a stuck card can change the caps
    for i in holding:
        cards = decode_fan(fans[i])
        for k in range(len(cards)):  # the top too: it may be covered, then lifted
            lifted = list(fans)
            lifted[i] = encode_fan(cards[:k] + cards[k + 1:])
            cl = [13, 13, 13, 13]
            stuck_caps(lifted, found, cl, onto, fill_ok, memo)
            best = [max(best[s], cl[s]) for s in range(4)]
            if best[0] + best[1] + best[2] + best[3] == 52:
                return
    for s in range(4):
        if best[s] < caps[s]:
            caps[s] = best[s]

