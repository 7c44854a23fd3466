"""An independent brute-force one-deal frontier, for tiny positions only.

It walks every position reachable by legal moves (no redeal) through the
engine and keeps the non-dominated foundation states with a line to each.
It is the oracle the odds tests compare against; it shares nothing with
the real solver but the engine's rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from lucie.engine import Move, Position


@dataclass(frozen=True, slots=True)
class BruteReach:
    foundations: tuple[int, int, int, int]
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class BruteResult:
    status: str
    moves: tuple[Move, ...]
    reachable: tuple[BruteReach, ...]
    nodes: int


def dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return a != b and all(x >= y for x, y in zip(a, b, strict=True))


def brute_frontier(position: Position, limit: int = 200_000) -> BruteResult:
    best: dict[tuple[int, int, int, int], tuple[Move, ...]] = {}
    seen = {position.key()}
    stack: list[tuple[Position, tuple[Move, ...]]] = [(position, ())]
    while stack:
        pos, line = stack.pop()
        if pos.foundations not in best or len(line) < len(best[pos.foundations]):
            best[pos.foundations] = line
        for move in pos.legal_moves():
            if move.is_redeal:
                continue
            nxt = pos.apply(move)
            key = nxt.key()
            if key in seen:
                continue
            seen.add(key)
            if len(seen) > limit:
                raise RuntimeError("position too large for the brute force")
            stack.append((nxt, (*line, move)))
    frontier = [f for f in best if not any(dominates(g, f) for g in best)]
    reaches = tuple(BruteReach(f, best[f]) for f in sorted(frontier))
    won = (13, 13, 13, 13)
    if won in best:
        return BruteResult("solved", best[won], reaches, len(seen))
    return BruteResult("unsolvable", (), reaches, len(seen))
