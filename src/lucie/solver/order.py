"""Order caps: "must go home before" across suits (``docs/solver.md#order-caps``).

Settings: no cells, no take-back, ``empty_fill`` ``none`` or ``king``, no
merci to come (with the merci to come, :func:`merci_order_caps`).  A card
is *stuck* when it can leave its fan only to go home: no empty fan may take
it, and every card it may be laid on lies under it in its fan or is home
(:func:`_is_stuck`).  A stuck card stays stuck until it goes home: the cards
under it stay under it while it is there, and a card that is home never
comes back.

So a stuck card ``A`` lying anywhere above a card ``B`` in a fan goes home
before ``B`` leaves that fan, and so before ``B`` goes home; and within a
suit each card goes home after the one below it.  These "goes home before"
relations make a graph on the cards; a card on a cycle, or after one, never
goes home.  The least fixed point that finds them is simple: a suit's
foundation may rise from rank ``r`` to ``r + 1`` when every stuck card lying
above the card of rank ``r + 1`` of that suit has a rank its own suit may
already reach.  Starting from the foundations as they are and raising while
this allows gives the *order caps*; along any line from the position every
card that goes home lies within them (by induction over the line: when a
card goes home its predecessor is home, and every stuck card that lay above
it has left its fan, which it can only do by going home, earlier).

This contains the dead-card analysis (a stuck card above a lower card of its
own suit, the cards under a dead stuck card, a stuck card whose suit is
capped below it) and adds the cycles across suits: a king of spades above
the two of hearts and the king of hearts above the two of spades can never
both go home.  Under suit builds going down the reach caps
(``_proof_reach``) contain these; the order caps serve the other builds.
"""

from __future__ import annotations

from collections.abc import Sequence

from lucie.solver.encoding import decode_fan, encode_fan

#: Per card under a stuck card: per suit, the highest rank of a stuck card of
#: that suit above it (-1: none).
Need = tuple[int, int, int, int]
#: One fan's share: ``(card, need)`` for its cards under a stuck card
#: (empty: the fan holds no stuck card).
FanNeeds = tuple[tuple[int, Need], ...]
#: foundations -> encoded fan -> that fan's :data:`FanNeeds` (per
#: foundation state, so that each fan's look-up hashes an int alone).
OrderMemo = dict[tuple[int, int, int, int], dict[int, FanNeeds]]


def _is_stuck(
    cards: list[int],
    p: int,
    found: Sequence[int],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
) -> bool:
    """Whether ``cards[p]`` can leave its fan only to go home."""
    a = cards[p]
    if fill_ok[a]:
        return False
    below = cards[:p]
    return all(t in below or found[t // 13] > t % 13 for t in onto[a])


def fan_needs(
    value: int,
    found: Sequence[int],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
) -> FanNeeds:
    """What each card of the encoded fan waits for (empty: no stuck card)."""
    cards = decode_fan(value)
    top = [-1, -1, -1, -1]
    seen = False
    out: list[tuple[int, Need]] = []
    for p in range(len(cards) - 1, -1, -1):
        c = cards[p]
        if seen:
            out.append((c, (top[0], top[1], top[2], top[3])))
        if p and _is_stuck(cards, p, found, onto, fill_ok):
            s, r = divmod(c, 13)
            if r > top[s]:
                top[s] = r
            seen = True
    return tuple(out)


def order_caps(
    fans: Sequence[int],
    found: Sequence[int],
    caps: list[int],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
    memo: OrderMemo | None = None,
) -> list[int]:
    """Lower ``caps`` to the order caps of a position (encoded fans); returns
    the indexes of the fans that hold a stuck card.

    Which cards of a fan wait for what depends on the fan and the
    foundations alone; ``memo`` keeps that per ``(fan, foundations)`` across
    the positions of one search.
    """
    needs: dict[int, Need] = {}
    holding: list[int] = []
    fmemo: dict[int, FanNeeds] | None = None
    if memo is not None:
        fkey = (found[0], found[1], found[2], found[3])
        fmemo = memo.get(fkey)
        if fmemo is None:
            fmemo = memo[fkey] = {}
    for i in range(len(fans)):
        f = fans[i]
        if f < 64:  # empty, or a single card: nothing lies under a stuck card
            continue
        entry: FanNeeds | None
        if fmemo is None:
            entry = fan_needs(f, found, onto, fill_ok)
        else:
            entry = fmemo.get(f)
            if entry is None:
                entry = fmemo[f] = fan_needs(f, found, onto, fill_ok)
        if not entry:
            continue
        holding.append(i)
        needs.update(entry)
    if not needs:
        return holding
    # per suit, the ranks of the cards that wait for something (bit r): a
    # foundation rises freely up to the next of them
    waits = [0, 0, 0, 0]
    for c in needs:
        s = c // 13
        waits[s] |= 1 << (c - s * 13)
    level = [found[0], found[1], found[2], found[3]]
    changed = True
    while changed:
        changed = False
        for s in range(4):
            start = r = level[s]
            cap = caps[s]
            while r < cap:
                m = waits[s] >> r
                if not m:
                    r = cap  # nothing waits below the cap
                    break
                r += (m & -m).bit_length() - 1  # the next card that waits
                if r >= cap:
                    r = cap
                    break
                level[s] = r
                need = needs[s * 13 + r]
                if need[0] >= level[0] or need[1] >= level[1] or need[2] >= level[2] \
                        or need[3] >= level[3]:
                    break
                r += 1
            if r != start:
                level[s] = r
                changed = True
    for s in range(4):
        if level[s] < caps[s]:
            caps[s] = level[s]
    return holding


def merci_order_caps(
    fans: Sequence[int],
    found: Sequence[int],
    caps: list[int],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
    memo: OrderMemo | None = None,
) -> None:
    """Lower ``caps`` for a position with the merci still to come.

    A line that never uses the merci stays within the plain order caps.  A
    line that lifts a card ``z`` does, from the start, nothing the position
    with ``z`` taken out of its fan forbids (``z`` then covers nothing and
    is covered by nothing; once lifted it lies on a fan top, where the
    cards under it are not under it now, and is never stuck over them in
    the start position's sense).  So the caps are the larger, suit by suit,
    of the plain caps and of the caps with each card taken out; only the
    fans holding a stuck card can change them.
    """
    plain = [13, 13, 13, 13]
    holding = order_caps(fans, found, plain, onto, fill_ok, memo)
    if sum(plain) == 52:
        return
    best = plain
    for i in holding:
        cards = decode_fan(fans[i])
        for k in range(len(cards)):
            lifted = list(fans)
            lifted[i] = encode_fan(cards[:k] + cards[k + 1:])
            cl = [13, 13, 13, 13]
            order_caps(lifted, found, cl, onto, fill_ok, memo)
            best = [max(best[s], cl[s]) for s in range(4)]
            if sum(best) == 52:
                return
    for s in range(4):
        if best[s] < caps[s]:
            caps[s] = best[s]
