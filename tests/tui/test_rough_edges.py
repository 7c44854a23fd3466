"""The rough edges of issue #27.3 in the terminal game: each test failed
before its fix."""

from __future__ import annotations

from lucie.engine import Game, Move
from lucie.rules import Rules


def test_hints_in_fan_with_reserve_never_park_a_card_for_one_move() -> None:
    """Reserve deal 4: the hints said ``g>4`` then ``4>k`` where ``g>k``
    was legal.  Following the hints, no card goes to a cell and straight
    on to a place it could have reached directly."""
    from lucie.solver.hints import hint

    game = Game(Rules.parse("reserve"), 4)
    hinted: list[Move] = []
    for _ in range(40):
        move = hint(game.position).move
        if move is None:
            break
        before = game.position
        game.play(move, autoplay=False)
        if hinted and hinted[-1].dst_kind == "cell":
            parked = hinted[-1]
            if move.src_kind == "cell" and move.src == parked.dst:
                direct = Move(parked.src_kind, parked.src, move.dst_kind, move.dst)
                assert direct not in list(parked_from.legal_moves()), (
                    f"{parked} then {move}: {direct} was legal"
                )
        hinted.append(move)
        parked_from = before
    assert len(hinted) >= 30
