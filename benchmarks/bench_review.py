"""Game review and deals by difficulty: how fast (figures printed, nothing asserted).

- ``review_game`` of classic games played like a player who mostly follows
  the hints but plays a random legal move one time in six (so that the
  review meets real losses), cold in-memory value cache per game, then the
  same games again with the values of the first pass cached;
- ``pick_deal`` for classic (clearable, easy, hard) with a cold cache.
"""

from __future__ import annotations

import random
import statistics
import time

from lucie.analysis.cache import ValueCache
from lucie.analysis.difficulty import pick_deal
from lucie.analysis.hints import hint
from lucie.analysis.review import Review, review_game
from lucie.engine import Game
from lucie.rules import Rules


def _played(deal: int, rng: random.Random) -> Game:
    game = Game(Rules(), deal)
    while game.legal_moves and len(game.moves) < 120:
        legal = list(game.legal_moves)
        if rng.random() < 1 / 6:
            move = rng.choice(legal)
        else:
            advice = hint(game.position, max_seconds=1.0, cache=ValueCache(None))
            if advice.move is None:
                break
            move = advice.move
        game.push(move)
    return game


def _reviews(games: list[Game], caches: list[ValueCache], label: str) -> None:
    times: list[float] = []
    cpu: list[float] = []
    results: list[Review] = []
    for game, cache in zip(games, caches, strict=True):
        start, start_cpu = time.perf_counter(), time.process_time()
        results.append(review_game(game, max_seconds=120.0, cache=cache))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    moves = [len(g.moves) for g in games]
    mistakes = sum(r.mistakes for r in results)
    ran_out = sum(r.budget_ran_out for r in results)
    print(f"review, {len(games)} classic games of {min(moves)}-{max(moves)} moves "
          f"(median {statistics.median(moves):.0f}), {label}: wall median "
          f"{statistics.median(times):.1f} s, max {max(times):.1f} s (CPU: median "
          f"{statistics.median(cpu):.1f} s, max {max(cpu):.1f} s); {mistakes} mistakes "
          f"found, {ran_out} budgets run out")


def main() -> None:
    rng = random.Random(7)
    games = [_played(deal, rng) for deal in range(1, 6)]
    caches = [ValueCache(None) for _ in games]
    _reviews(games, caches, "cold value cache")
    _reviews(games, caches, "values cached")
    for difficulty in ("clearable", "easy", "hard"):
        times = []
        for seed in range(1, 4):
            start = time.perf_counter()
            pick_deal(Rules(), difficulty, seed=seed, cache=ValueCache(None))  # type: ignore[arg-type]
            times.append(time.perf_counter() - start)
        print(f"pick classic {difficulty}, 3 seeds, cold cache: median "
              f"{statistics.median(times):.2f} s, max {max(times):.2f} s")


if __name__ == "__main__":
    main()
