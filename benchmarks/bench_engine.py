"""Engine speed: random playouts, legal-move generation plus apply.

Plays random legal moves (redeals included) from numbered deals of each
named variant until the game ends or 300 moves, and reports moves per
second (each move = one ``legal_moves()`` call + one ``apply``/redeal).
Also times ``Position.deal`` and the legality check of a single move.
"""

from __future__ import annotations

import random
import time

from lucie.engine import Game, Move, Position
from lucie.rules import VARIANTS, Rules


def playouts(rules: Rules, games: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for number in range(1, games + 1):
        game = Game(rules, number)
        position = game.position
        for _ in range(300):
            legal = position.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            game.push(move)
            position = game.position
            moves += 1
    return moves, time.perf_counter() - start


def main() -> None:
    total_moves = 0
    total_time = 0.0
    for name, variant in VARIANTS.items():
        moves, seconds = playouts(variant.rules, 40, seed=1)
        total_moves += moves
        total_time += seconds
        print(f"   {name:11} {moves / seconds:9,.0f} moves/s  ({moves} moves)")
    print(f"   all         {total_moves / total_time:9,.0f} moves/s "
          "(legal_moves + checked push, via Game)")
    n = 2000
    start = time.perf_counter()
    for number in range(1, n + 1):
        Position.deal(Rules(), number)
    print(f"   deal        {(time.perf_counter() - start) / n * 1e6:9.1f} us per deal")
    p = Position.deal(Rules(), 1)
    move = Move.parse("f>i")
    start = time.perf_counter()
    for _ in range(20000):
        p.why_illegal(move)
    print(f"   check       {(time.perf_counter() - start) / 20000 * 1e6:9.2f} us per why_illegal")


if __name__ == "__main__":
    main()
