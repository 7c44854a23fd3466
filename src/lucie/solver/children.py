"""The children of a position: the search's own move generation
(``docs/architecture.md#the-solvers-own-move-generation``).

Each function appends to ``out`` the children of one kind, as
:data:`Child` tuples ``(move, fans, found, cells, merci)`` after the move.
A child that leaves the foundations or the cells as they were shares the
parent's list (the search tells a plain move by that identity).  The order
is the walk's default order: foundation moves, fan to fan (and into an empty
fan), fan to cell, from a cell or (take-back) a foundation onto a fan, then
the merci.  What may go on what comes from the rules' tables
(:class:`~lucie.solver.tables.Tables`), never from a rule written here.
"""

from __future__ import annotations

from lucie.solver.encoding import TO_CELL, TO_FOUNDATION, IMove, decode_fan, encode_fan
from lucie.solver.frontier import dominated

#: A child: the move, then the fans, foundations, cells and merci flag after it.
Child = tuple[IMove, list[int], list[int], list[int], bool]


def home_children(
    out: list[Child], fans: list[int], found: list[int], cells: list[int], merci: bool,
    tops: dict[int, int] | None,
) -> None:
    """Foundation moves (from the fan tops when ``tops`` is given, then from
    the cells)."""
    if tops is not None:
        # the four cards the foundations want, looked up among the tops
        home: list[int] = []
        for s in range(4):
            r = found[s]
            if r < 13 and s * 13 + r in tops:
                home.append(tops[s * 13 + r])
        if len(home) > 1:
            home.sort()  # fan by fan, as the walk's order has them
        for i in home:
            f = fans[i]
            c = (f & 63) - 1
            s = c // 13
            nf = fans[:]
            nf[i] = f >> 6
            nfd = found[:]
            nfd[s] += 1
            out.append(((c, TO_FOUNDATION), nf, nfd, cells, merci))
    for c in cells:
        s = c // 13
        if found[s] == c - s * 13:
            nfd = found[:]
            nfd[s] += 1
            nc = cells[:]
            nc.remove(c)
            out.append(((c, TO_FOUNDATION), fans[:], nfd, nc, merci))


def fan_children(
    out: list[Child], fans: list[int], found: list[int], cells: list[int], merci: bool,
    tops: dict[int, int], onto: tuple[tuple[int, ...], ...], fill_ok: tuple[bool, ...],
    empty: int, full: int, lone_stays: bool,
) -> None:
    """A fan's top onto another fan's top (``full``: the least encoded fan
    that has no room), or into the empty fan ``empty`` (-1: none may take
    a card).  ``lone_stays``: a card alone in its fan stays put
    (docs/solver.md#_proof_lone)."""
    for i in range(len(fans)):
        f = fans[i]
        if not f or (f < 64 and lone_stays):
            continue
        c = (f & 63) - 1
        for tcard in onto[c]:
            if tcard not in tops:  # (most are not: cheaper than tops.get)
                continue
            j = tops[tcard]
            g = fans[j]
            if g >= full:
                continue
            nf = fans[:]
            nf[i] = f >> 6
            nf[j] = (g << 6) | (c + 1)
            out.append(((c, j), nf, found, cells, merci))
        if empty >= 0 and f >= 64 and fill_ok[c]:
            nf = fans[:]
            nf[i] = f >> 6
            nf[empty] = c + 1
            out.append(((c, empty), nf, found, cells, merci))


def cell_children(
    out: list[Child], fans: list[int], found: list[int], cells: list[int], merci: bool,
) -> None:
    """A fan's top into a free cell (the caller checks that one is free)."""
    for i in range(len(fans)):
        f = fans[i]
        if f:
            c = (f & 63) - 1
            nf = fans[:]
            nf[i] = f >> 6
            nc = sorted([*cells, c])
            out.append(((c, TO_CELL), nf, found, nc, merci))


def lay_children(
    out: list[Child], fans: list[int], found: list[int], cells: list[int], merci: bool,
    tops: dict[int, int], onto: tuple[tuple[int, ...], ...], fill_ok: tuple[bool, ...],
    empty: int, full: int, takeback: bool,
) -> None:
    """A card from a cell or (``takeback``) a foundation laid on a fan."""
    # (card, foundations after, cells after)
    lay: list[tuple[int, list[int], list[int]]] = []
    for c in cells:
        nc = cells[:]
        nc.remove(c)
        lay.append((c, found, nc))
    if takeback:
        for s in range(4):
            n = found[s]
            if n:
                nfd = found[:]
                nfd[s] -= 1
                lay.append((s * 13 + n - 1, nfd, cells))
    for c, nfd, nc in lay:
        for tcard in onto[c]:
            if tcard not in tops:  # (most are not: cheaper than tops.get)
                continue
            j = tops[tcard]
            g = fans[j]
            if g >= full:
                continue
            nf = fans[:]
            nf[j] = (g << 6) | (c + 1)
            out.append(((c, j), nf, nfd, nc, merci))
        if empty >= 0 and fill_ok[c]:
            nf = fans[:]
            nf[empty] = c + 1
            out.append(((c, empty), nf, nfd, nc, merci))


def merci_children(
    out: list[Child], fans: list[int], found: list[int], cells: list[int],
    full: int, sized: bool, home_first: bool,
    lift_caps: dict[int, tuple[int, int, int, int]] | None,
    bound: int, pareto: dict[tuple[int, int, int, int], object] | None,
) -> None:
    """The merci: a buried card lifted and laid on a fan (its own too).

    ``sized``: fans have a size limit (it holds for the merci too, but its
    own fan keeps its size).  ``home_first``: a lifted card its foundation
    wants goes home at once (docs/solver.md#_proof_foundation), so where it
    is laid does not matter: one fan is enough.  ``lift_caps`` (suit-down):
    the caps of every line that lifts each card; a card whose caps total at
    most ``bound``, or are dominated by a state of ``pareto`` (when given),
    is not lifted.
    """
    targets = [j for j in range(len(fans)) if fans[j]]
    for i in targets:
        cards = decode_fan(fans[i])
        room = [j for j in targets if j == i or fans[j] < full] if sized else targets
        for k in range(len(cards) - 1):
            z = cards[k]
            rest = cards[:k] + cards[k + 1:]
            base = fans[:]
            base[i] = encode_fan(rest)
            home_next = home_first and found[z // 13] == z % 13
            if lift_caps is not None:
                zc = lift_caps[z]  # every line that lifts z stays within
                if zc[0] + zc[1] + zc[2] + zc[3] <= bound or (
                    pareto is not None and dominated(pareto, zc)
                ):
                    continue
            for j in (room[:1] if home_next else room):
                nf = base[:]
                nf[j] = (nf[j] << 6) | (z + 1)
                out.append(((z, j), nf, found, cells, False))
