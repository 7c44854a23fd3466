"""Frontier bookkeeping and bounds (``docs/solver.md#bounds``).

The frontier is the set of foundation states reached that no other reached
state beats in every suit (``pareto``: state -> key of a position that has
it).  A position whose foundation caps are dominated by a reached state
cannot add to it, and is dropped.
"""

from __future__ import annotations

from lucie.solver.encoding import IMove

#: A foundation state: cards home per suit.
Found = tuple[int, int, int, int]


def dominated(
    pareto: dict[tuple[int, int, int, int], object],
    caps: list[int] | tuple[int, ...],
) -> bool:
    """Whether a reached foundation state is at least ``caps`` in every suit
    (then nothing under these caps can add to the frontier)."""
    for q in pareto:
        if q[0] >= caps[0] and q[1] >= caps[1] and q[2] >= caps[2] and q[3] >= caps[3]:
            return True
    return False



def add_state(pareto: dict[Found, object], fnd: Found, key: object) -> None:
    """Add a reached state to the frontier ``pareto`` (unless it is there or
    dominated), dropping the states it dominates."""
    if fnd not in pareto and not dominated(pareto, fnd):
        for q in [
            q for q in pareto
            if q[0] <= fnd[0] and q[1] <= fnd[1] and q[2] <= fnd[2] and q[3] <= fnd[3]
        ]:
            del pareto[q]
        pareto[fnd] = key


def best_lines(
    seen: dict[Found, tuple[IMove, ...]], best_only: bool,
) -> tuple[tuple[Found, tuple[IMove, ...]], ...]:
    """The non-dominated states among ``seen`` (only those of the best score
    with ``best_only``), best first, as :class:`RawResult` orders them."""
    states = list(seen)
    keep = [
        f for f in states
        if not any(g != f and all(g[k] >= f[k] for k in range(4)) for g in states)
    ]
    if best_only:
        top = max(sum(f) for f in keep)
        keep = [f for f in keep if sum(f) == top]
    keep.sort(key=lambda f: (-sum(f), f))
    return tuple((f, seen[f]) for f in keep)

